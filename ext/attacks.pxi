# The attack library: which pieces attack which squares, by the current occupancy of the board.
#
# king_attacked is the fast test behind check and legality (movegen, rules). The rest answer the wider
# questions that the evaluation (pieces_between), the search's bad-capture test (attackers_of) and the
# chase rulings (chase.pxi) ask: what a piece attacks, who could take on a square, what shields a general.
#
# Sets of pieces are 32-bit masks: bit (id - 16), so bits 0-15 are Red's pieces and 16-31 Black's.

cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


cdef inline uint32_t piece_bit(int piece) noexcept nogil:
    return (<uint32_t>1) << (piece - 16)


cdef inline uint32_t side_pieces(int side) noexcept nogil:
    return (<uint32_t>0xFFFF) << (side << 4)


cdef inline int first_piece(uint32_t mask) noexcept nogil:
    return 16 + __builtin_ctz(mask)


cdef inline uint32_t bit_on(Pos* p, int sq) noexcept nogil:
    """The piece bit of the occupant of sq, 0 when it is empty or off the board."""
    return piece_bit(p.board[sq]) if IN_BOARD[sq] and p.board[sq] else 0


cdef inline bint is_enemy_type(Pos* p, int sq, int enemy_tag, int ptype) noexcept nogil:
    cdef int piece = p.board[sq]
    return (piece & enemy_tag) != 0 and PIECE_TYPE[piece] == ptype


cdef bint king_attacked(Pos* p, int side) noexcept nogil:
    """Whether the general of `side` is attacked by the other side (its pieces could capture it),
    the flying-general rule included: the enemy general attacks along an open file like a chariot."""
    cdef int king_sq = p.square[side_tag(side)]
    cdef int enemy = side_tag(side ^ 1)
    cdef int i, d, leg, sq, piece, screens
    # Horses. A horse at king + (dx, 2dy) or (2dx, dy) is hobbled exactly when the king's diagonal
    # neighbour (dx, dy) is occupied, so one leg test covers two horse squares.
    for i in range(4):
        d = DIAGONAL[i]
        leg = king_sq + d
        if p.board[leg] == 0:
            if (is_enemy_type(p, leg + DIAGONAL_DX[i], enemy, HORSE)
                    or is_enemy_type(p, leg + DIAGONAL_DY[i], enemy, HORSE)):
                return True
    # Soldiers: in front of the general (from the enemy's point of view) or beside it. A soldier that
    # stands beside a general has always crossed the river, so the sideways test needs no extra check.
    if is_enemy_type(p, king_sq + (16 if side == RED else -16), enemy, PAWN):
        return True
    if is_enemy_type(p, king_sq + 1, enemy, PAWN) or is_enemy_type(p, king_sq - 1, enemy, PAWN):
        return True
    # Lines: the first piece met may be a chariot (or the enemy general on the file); the second a cannon.
    for i in range(4):
        d = ORTHOGONAL[i]
        sq = king_sq + d
        while IN_BOARD[sq] and p.board[sq] == 0:
            sq += d
        if not IN_BOARD[sq]:
            continue
        piece = p.board[sq]
        if piece & enemy:
            if PIECE_TYPE[piece] == ROOK or (PIECE_TYPE[piece] == KING and (d == 16 or d == -16)):
                return True
        sq += d
        while IN_BOARD[sq] and p.board[sq] == 0:
            sq += d
        if IN_BOARD[sq] and is_enemy_type(p, sq, enemy, CANNON):
            return True
    return False


cdef inline bint same_line(int a, int b) noexcept nogil:
    """Whether two squares share a rank or a file."""
    return ((a ^ b) & 0xF0) == 0 or ((a ^ b) & 0x0F) == 0


cdef inline int line_step(int from_sq, int to_sq) noexcept nogil:
    """The unit step from one square towards another on the same rank or file."""
    if ((from_sq ^ to_sq) & 0xF0) == 0:
        return 1 if to_sq > from_sq else -1
    return 16 if to_sq > from_sq else -16


cdef int pieces_between(Pos* p, int a, int b, uint32_t* found) noexcept nogil:
    """Count (and collect in found) the pieces strictly between two squares of one rank or file."""
    cdef int step = line_step(a, b)
    cdef int sq = a + step
    cdef int count = 0
    found[0] = 0
    while sq != b:
        if p.board[sq]:
            count += 1
            found[0] |= piece_bit(p.board[sq])
        sq += step
    return count


cdef inline bint attacks_square(Pos* p, int side, int ptype, int from_sq, int target) noexcept nogil:
    """Whether a piece of this side and type on from_sq attacks the (occupied) target square, by the
    current occupancy of the board, with no palace or river limit on the target."""
    cdef int d = target - from_sq
    cdef int leg
    cdef uint32_t found
    if ptype == ROOK or ptype == CANNON:
        if d == 0 or not same_line(from_sq, target):
            return False
        return pieces_between(p, from_sq, target, &found) == (0 if ptype == ROOK else 1)
    if ptype == HORSE:
        leg = HORSE_LEG[d + 256]
        return leg != 0 and p.board[from_sq + leg] == 0
    if ptype == ELEPHANT:
        return (d == 34 or d == 30 or d == -30 or d == -34) and p.board[from_sq + d // 2] == 0
    if ptype == ADVISOR:
        return d == 17 or d == 15 or d == -15 or d == -17
    if ptype == KING:
        return d == 16 or d == -16 or d == 1 or d == -1
    return d == (16 if side == RED else -16) or d == 1 or d == -1


cdef uint32_t raw_hits(Pos* p, int side, int ptype, int sq) noexcept nogil:
    """The pieces (of either side) a piece of this side and type on sq attacks, by the current
    occupancy, with no palace or river limit and soldiers attacking sideways even before the river."""
    cdef uint32_t hits = 0
    cdef int i, d, s, leg
    if ptype == ROOK or ptype == CANNON:
        for i in range(4):
            d = ORTHOGONAL[i]
            s = sq + d
            while IN_BOARD[s] and p.board[s] == 0:
                s += d
            if ptype == CANNON and IN_BOARD[s]:
                s += d
                while IN_BOARD[s] and p.board[s] == 0:
                    s += d
            hits |= bit_on(p, s)
    elif ptype == HORSE:
        for i in range(4):
            d = ORTHOGONAL[i]
            leg = sq + d
            if IN_BOARD[leg] and p.board[leg] == 0:
                if d == 16 or d == -16:
                    hits |= bit_on(p, leg + d + 1) | bit_on(p, leg + d - 1)
                else:
                    hits |= bit_on(p, leg + d + 16) | bit_on(p, leg + d - 16)
    elif ptype == ELEPHANT:
        for i in range(4):
            d = DIAGONAL[i]
            if IN_BOARD[sq + d] and p.board[sq + d] == 0:
                hits |= bit_on(p, sq + 2 * d)
    elif ptype == ADVISOR:
        for i in range(4):
            hits |= bit_on(p, sq + DIAGONAL[i])
    elif ptype == KING:
        for i in range(4):
            hits |= bit_on(p, sq + ORTHOGONAL[i])
    else:
        hits = bit_on(p, sq + (16 if side == RED else -16)) | bit_on(p, sq + 1) | bit_on(p, sq - 1)
    return hits


cdef uint32_t legal_area_hits(Pos* p, int side, int ptype, int sq) noexcept nogil:
    """raw_hits limited to where the piece may go: generals and advisors within the palace, elephants
    on their own side, and soldiers forward only before the river."""
    cdef uint32_t hits = raw_hits(p, side, ptype, sq)
    cdef uint32_t kept = 0, rest
    cdef int piece, t
    if ptype == PAWN and OWN_HALF[side][sq]:
        return hits & bit_on(p, sq + (16 if side == RED else -16))
    if ptype != KING and ptype != ADVISOR and ptype != ELEPHANT:
        return hits
    rest = hits
    while rest:
        piece = first_piece(rest)
        rest &= rest - 1
        t = p.square[piece]
        if (IN_PALACE[t] if ptype != ELEPHANT else OWN_HALF[side][t]):
            kept |= piece_bit(piece)
    return kept


cdef uint32_t attackers_of(Pos* p, int target, int side) noexcept nogil:
    """The pieces of `side` that could capture on target by the current occupancy: each within the
    area it may reach, and soldiers sideways only beyond the river. Pieces are taken from the piece
    list, so one whose square was emptied for the test still counts as an attacker."""
    cdef uint32_t found = 0
    cdef int tag = side_tag(side)
    cdef int piece, sq, ptype
    for piece in range(tag, tag + 16):
        sq = p.square[piece]
        if sq == 0:
            continue
        ptype = PIECE_TYPE[piece]
        if (ptype == KING or ptype == ADVISOR) and not IN_PALACE[target]:
            continue
        if ptype == ELEPHANT and not OWN_HALF[side][target]:
            continue
        if ptype == PAWN and (target == sq + 1 or target == sq - 1) and OWN_HALF[side][target]:
            continue
        if attacks_square(p, side, ptype, sq, target):
            found |= piece_bit(piece)
    return found


cdef uint32_t king_blockers(Pos* p, int side) noexcept nogil:
    """Pieces of either side that shield side's general: the only piece between it and an enemy
    chariot, either of the two between it and an enemy cannon, or the leg of an enemy horse."""
    cdef int king_sq = p.square[side_tag(side)]
    cdef int tag = side_tag(side ^ 1)
    cdef int piece, sq, ptype, leg, count
    cdef uint32_t shields = 0, between
    for piece in range(tag, tag + 16):
        sq = p.square[piece]
        if sq == 0:
            continue
        ptype = PIECE_TYPE[piece]
        if (ptype == ROOK or ptype == CANNON) and same_line(sq, king_sq):
            count = pieces_between(p, sq, king_sq, &between)
            if count == (1 if ptype == ROOK else 2):
                shields |= between
        elif ptype == HORSE:
            leg = HORSE_LEG[king_sq - sq + 256]
            if leg != 0 and p.board[sq + leg]:
                shields |= piece_bit(p.board[sq + leg])
    return shields

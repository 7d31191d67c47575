# Move generation: pseudo-legal moves per piece, the legality filter, the check flag of a move just
# made (gives_check), and the legal move lists the rest of the kernel uses (all moves or captures only).


cdef inline void push_move(MoveList* ml, int from_sq, int to_sq) noexcept nogil:
    ml.moves[ml.count] = make_move_code(from_sq, to_sq)
    ml.count += 1


cdef inline void push_target(Pos* p, MoveList* ml, int from_sq, int to_sq, int own, bint captures_only) noexcept nogil:
    """Add from->to unless to_sq holds an own piece (or is empty while only captures are wanted)."""
    cdef int target = p.board[to_sq]
    if target & own:
        return
    if target == 0 and captures_only:
        return
    push_move(ml, from_sq, to_sq)


cdef inline void gen_piece_moves(Pos* p, int piece, MoveList* ml, bint captures_only) noexcept nogil:
    """Append the pseudo-legal moves of one piece (own general may be left in check)."""
    cdef int sq = p.square[piece]
    cdef int side = piece_side(piece)
    cdef int own = side_tag(side)
    cdef int i, d, to_sq, eye
    cdef int ptype = PIECE_TYPE[piece]
    if ptype == KING:
        for i in range(4):
            to_sq = sq + ORTHOGONAL[i]
            if IN_PALACE[to_sq]:
                push_target(p, ml, sq, to_sq, own, captures_only)
    elif ptype == ADVISOR:
        for i in range(4):
            to_sq = sq + DIAGONAL[i]
            if IN_PALACE[to_sq]:
                push_target(p, ml, sq, to_sq, own, captures_only)
    elif ptype == ELEPHANT:
        for i in range(4):
            eye = sq + DIAGONAL[i]
            to_sq = eye + DIAGONAL[i]
            if IN_BOARD[to_sq] and OWN_HALF[side][to_sq] and p.board[eye] == 0:
                push_target(p, ml, sq, to_sq, own, captures_only)
    elif ptype == HORSE:
        # The leg is the orthogonal neighbour on the long side of the jump.
        for i in range(4):
            d = ORTHOGONAL[i]
            if p.board[sq + d] == 0:
                eye = sq + 2 * d
                if d == 16 or d == -16:
                    if IN_BOARD[eye + 1]:
                        push_target(p, ml, sq, eye + 1, own, captures_only)
                    if IN_BOARD[eye - 1]:
                        push_target(p, ml, sq, eye - 1, own, captures_only)
                else:
                    if IN_BOARD[eye + 16]:
                        push_target(p, ml, sq, eye + 16, own, captures_only)
                    if IN_BOARD[eye - 16]:
                        push_target(p, ml, sq, eye - 16, own, captures_only)
    elif ptype == ROOK:
        for i in range(4):
            d = ORTHOGONAL[i]
            to_sq = sq + d
            while IN_BOARD[to_sq] and p.board[to_sq] == 0:
                if not captures_only:
                    push_move(ml, sq, to_sq)
                to_sq += d
            if IN_BOARD[to_sq] and not (p.board[to_sq] & own):
                push_move(ml, sq, to_sq)
    elif ptype == CANNON:
        for i in range(4):
            d = ORTHOGONAL[i]
            to_sq = sq + d
            while IN_BOARD[to_sq] and p.board[to_sq] == 0:
                if not captures_only:
                    push_move(ml, sq, to_sq)
                to_sq += d
            # to_sq is the screen (or off the board); capture the first piece beyond it.
            if IN_BOARD[to_sq]:
                to_sq += d
                while IN_BOARD[to_sq] and p.board[to_sq] == 0:
                    to_sq += d
                if IN_BOARD[to_sq] and not (p.board[to_sq] & own):
                    push_move(ml, sq, to_sq)
    elif ptype == PAWN:
        to_sq = sq + (16 if side == RED else -16)
        if IN_BOARD[to_sq]:
            push_target(p, ml, sq, to_sq, own, captures_only)
        if not OWN_HALF[side][sq]:
            if IN_BOARD[sq + 1]:
                push_target(p, ml, sq, sq + 1, own, captures_only)
            if IN_BOARD[sq - 1]:
                push_target(p, ml, sq, sq - 1, own, captures_only)


cdef void gen_pseudo(Pos* p, MoveList* ml, bint captures_only) noexcept nogil:
    """Append the pseudo-legal moves of the side to move."""
    cdef int tag = side_tag(p.side)
    cdef int piece
    for piece in range(tag, tag + 16):
        if p.square[piece]:
            gen_piece_moves(p, piece, ml, captures_only)


cdef bint leaves_king_safe(Pos* p, int move) noexcept nogil:
    """Play the move on the board only, test the mover's general, and take it back."""
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[from_sq]
    cdef int captured = p.board[to_sq]
    cdef bint safe
    p.board[to_sq] = piece
    p.board[from_sq] = 0
    p.square[piece] = to_sq
    safe = not king_attacked(p, p.side)
    p.board[from_sq] = piece
    p.board[to_sq] = captured
    p.square[piece] = from_sq
    return safe


cdef inline bint ray_attacks_king(Pos* p, int king_sq, int d, int enemy) noexcept nogil:
    """Whether the enemy attacks the general on king_sq along the ray of step d: an enemy chariot (or,
    on the file, the enemy general) is the first piece met, or an enemy cannon the second."""
    cdef int sq = king_sq + d
    cdef int piece
    while IN_BOARD[sq] and p.board[sq] == 0:
        sq += d
    if not IN_BOARD[sq]:
        return False
    piece = p.board[sq]
    if piece & enemy:
        if PIECE_TYPE[piece] == ROOK or (PIECE_TYPE[piece] == KING and (d == 16 or d == -16)):
            return True
    sq += d
    while IN_BOARD[sq] and p.board[sq] == 0:
        sq += d
    return IN_BOARD[sq] and is_enemy_type(p, sq, enemy, CANNON)


cdef inline bint opens_attack(Pos* p, int king_sq, int from_sq, int to_sq, int enemy) noexcept nogil:
    """Whether the enemy, by the board as it is after a move from from_sq to to_sq, attacks the general
    along the rays through either square or from the horse squares behind from_sq when it was a horse's
    leg: all that a move of another piece can open on a general that was safe before it (see is_legal)."""
    cdef int delta = from_sq - king_sq
    cdef int i
    if same_line(from_sq, king_sq) and ray_attacks_king(p, king_sq, line_step(king_sq, from_sq), enemy):
        return True
    if same_line(to_sq, king_sq) and ray_attacks_king(p, king_sq, line_step(king_sq, to_sq), enemy):
        return True
    if delta == 17 or delta == 15 or delta == -15 or delta == -17:
        for i in range(4):
            if DIAGONAL[i] == delta:
                return (is_enemy_type(p, from_sq + DIAGONAL_DX[i], enemy, HORSE)
                        or is_enemy_type(p, from_sq + DIAGONAL_DY[i], enemy, HORSE))
    return False


cdef bint keeps_lines_safe(Pos* p, int move, int king_sq) noexcept nogil:
    """Whether a move of a piece other than the general, by a side not in check, leaves the general
    safe: the move is played on the board only, and only what it can open is tested (opens_attack)."""
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[from_sq]
    cdef int captured = p.board[to_sq]
    cdef bint safe
    p.board[to_sq] = piece
    p.board[from_sq] = 0
    safe = not opens_attack(p, king_sq, from_sq, to_sq, side_tag(p.side ^ 1))
    p.board[from_sq] = piece
    p.board[to_sq] = captured
    return safe


cdef bint gives_check(Pos* p) noexcept nogil:
    """Whether the move just made (hist[ply - 1].move) attacks the general of the side now to move.

    Before the move that general was not attacked (the mover's opponent never leaves its general en
    prise), so only attacks the move creates are looked for: what it opens (opens_attack: the rays
    through the destination also find a moved chariot, cannon or general, and a new cannon screen), and
    the moved horse or soldier itself."""
    cdef int move = p.hist[p.ply - 1].move
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int king_sq = p.square[side_tag(p.side)]
    cdef int mover = p.side ^ 1
    cdef int ptype = PIECE_TYPE[p.board[to_sq]]
    if opens_attack(p, king_sq, from_sq, to_sq, side_tag(mover)):
        return True
    if ptype == HORSE or ptype == PAWN:
        return attacks_square(p, mover, ptype, to_sq, king_sq)
    return False


cdef bint move_gives_check(Pos* p, int move) noexcept nogil:
    """gives_check for a legal move of the side to move before it is made: the same tests, on the board
    changed on the move's two squares only (and put back)."""
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[from_sq]
    cdef int captured = p.board[to_sq]
    cdef int ptype = PIECE_TYPE[piece]
    cdef int king_sq = p.square[side_tag(p.side ^ 1)]
    cdef bint check
    p.board[to_sq] = piece
    p.board[from_sq] = 0
    check = opens_attack(p, king_sq, from_sq, to_sq, side_tag(p.side)) or (
        (ptype == HORSE or ptype == PAWN) and attacks_square(p, p.side, ptype, to_sq, king_sq))
    p.board[from_sq] = piece
    p.board[to_sq] = captured
    return check


cdef inline bint is_legal(Pos* p, int move, bint in_check, int king_sq) noexcept nogil:
    """Whether a pseudo-legal move of the side to move keeps its general safe.

    When the side is not in check, a move can only expose the general by changing the occupancy of a
    square that matters to it: leaving the general's rank or file (opens a chariot, general or cannon
    line, or removes one of two cannon screens), arriving on it (adds a cannon screen), or leaving a
    square diagonally next to the general (a horse's leg). A capture removes an enemy piece but keeps
    its square occupied, so it cannot create an attack. All other moves are legal without a test, and
    these need only the lines and horse squares they touch (keeps_lines_safe).
    """
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    if in_check or from_sq == king_sq:
        return leaves_king_safe(p, move)
    cdef int delta = from_sq - king_sq
    if (same_line(from_sq, king_sq) or same_line(to_sq, king_sq)
            or delta == 17 or delta == 15 or delta == -15 or delta == -17):
        return keeps_lines_safe(p, move, king_sq)
    return True


cdef inline bint strictly_between(int x, int a, int b) noexcept nogil:
    """Whether square x lies strictly between a and b, which share a rank or a file, on their line."""
    if ((a ^ b) & 0xF0) == 0:
        if ((x ^ a) & 0xF0) != 0:
            return False
    elif ((x ^ a) & 0x0F) != 0:
        return False
    return (a < x < b) or (b < x < a)


cdef bint a_check_stays(Pos* p, uint32_t checkers, int king_sq, int from_sq, int to_sq) noexcept nogil:
    """Whether a move of a piece other than the general, from_sq to to_sq, leaves one of `checkers` (the
    pieces that give check to that general) giving it: one it does not take whose line or leg passes
    through neither square. A move that passes this test is illegal; one that does not is tested on
    the board."""
    cdef int piece, sq, ptype, leg
    while checkers:
        piece = first_piece(checkers)
        checkers &= checkers - 1
        sq = p.square[piece]
        if sq == to_sq:
            continue
        ptype = PIECE_TYPE[piece]
        if ptype == ROOK or ptype == CANNON:
            if not strictly_between(from_sq, sq, king_sq) and not strictly_between(to_sq, sq, king_sq):
                return True
        elif ptype == HORSE:
            leg = sq + HORSE_LEG[king_sq - sq + 256]
            if leg != to_sq:
                return True
        else:
            return True
    return False


cdef void filter_legal(Pos* p, MoveList* ml, bint in_check) noexcept nogil:
    """Remove the moves of ml that leave the mover's general attacked; in_check: whether it is now. In
    check, most moves are refused before the board is searched: those that leave a check as it is."""
    cdef int king_sq = p.square[side_tag(p.side)]
    cdef int i, n = 0, move
    cdef uint32_t checkers = attackers_of(p, king_sq, p.side ^ 1) if in_check else 0
    for i in range(ml.count):
        move = ml.moves[i]
        if checkers and move_from(move) != king_sq and a_check_stays(p, checkers, king_sq, move_from(move),
                                                                     move_to(move)):
            continue
        if is_legal(p, move, in_check, king_sq):
            ml.moves[n] = move
            n += 1
    ml.count = n


cdef void gen_legal_moves(Pos* p, MoveList* ml, bint captures_only, bint in_check) noexcept nogil:
    """The legal moves (or only the captures) of the side to move, for a caller that knows whether it
    is in check: the search, whose states carry the flag (update_rule_state). In check, every legal
    move is an evasion."""
    ml.count = 0
    gen_pseudo(p, ml, captures_only)
    filter_legal(p, ml, in_check)


cdef void gen_legal(Pos* p, MoveList* ml) noexcept nogil:
    """All legal moves of the side to move (after make_move alone, as perft plays, the check flag of
    the state is not set, so it is tested here)."""
    gen_legal_moves(p, ml, False, king_attacked(p, p.side))


cdef bint has_legal_move(Pos* p, bint in_check) noexcept nogil:
    """Whether the side to move, in check or not as in_check says, has a legal move."""
    cdef MoveList ml
    cdef int king_sq = p.square[side_tag(p.side)]
    cdef int i
    ml.count = 0
    gen_pseudo(p, &ml, False)
    for i in range(ml.count):
        if is_legal(p, ml.moves[i], in_check, king_sq):
            return True
    return False


cdef uint64_t perft(Pos* p, int depth) noexcept nogil:
    """Count the leaves of the legal move tree to the given depth (bulk-counted at the last ply)."""
    cdef MoveList ml
    cdef uint64_t nodes = 0
    cdef int i
    if depth <= 0:
        return 1
    gen_legal(p, &ml)
    if depth == 1:
        return ml.count
    for i in range(ml.count):
        make_move(p, ml.moves[i])
        nodes += perft(p, depth - 1)
        unmake_move(p)
    return nodes

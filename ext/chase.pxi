# Chase detection for the repetition rulings (Asian/AXF rules, as Fairy-Stockfish reads them).
#
# A move "chases" an enemy piece when it newly creates a threat to win it: an attack on a piece that
# has no real defender, or an attack by a horse or cannon on a chariot, or by an advisor or elephant on
# a chariot, horse or cannon. Generals and soldiers never chase with their own moves; the enemy general
# and uncrossed soldiers are never chased; attacking a piece of one's own type is an offer to trade, not
# a chase, unless the target cannot take back. New pins ("fake roots") and discovered-check capture
# threats count too. chased_by_move() returns the enemy pieces (as a mask of piece ids) that one move
# chases; rules.pxi intersects these masks over a repetition cycle. Piece ids follow pieces through
# their moves, so "the same piece" needs no square bookkeeping.
#
# Sets of pieces are the attack library's 32-bit masks (attacks.pxi).


cdef struct ChaseContext:
    int mover              # the side that just moved
    int victim             # the side to move, whose pieces may be chased
    int mover_king         # squares of the two generals
    int victim_king
    uint32_t pinned        # victim pieces that cannot really move (see chased_by_move step 1)
    uint32_t chased        # the result so far


cdef void consider(Pos* p, ChaseContext* cx, int attacker_sq, int attacker_type, uint32_t targets) noexcept nogil:
    """Add to cx.chased the pieces among `targets` (victim pieces attacked by the piece on attacker_sq)
    that the attack threatens to win."""
    cdef uint32_t rest, defenders
    cdef int piece, ptype, t, d, i
    cdef uint8_t saved
    cdef bint hobbled_reply
    # The general and uncrossed soldiers are never chased.
    rest = targets
    while rest:
        piece = first_piece(rest)
        rest &= rest - 1
        ptype = PIECE_TYPE[piece]
        if ptype == KING or (ptype == PAWN and OWN_HALF[cx.victim][p.square[piece]]):
            targets &= ~piece_bit(piece)
    if (targets & ~cx.chased) == 0:
        return
    # A stronger piece attacked by a weaker one is chased whether or not it is defended.
    rest = targets
    while rest:
        piece = first_piece(rest)
        rest &= rest - 1
        ptype = PIECE_TYPE[piece]
        if ptype == ROOK and (attacker_type == HORSE or attacker_type == CANNON):
            cx.chased |= piece_bit(piece)
        elif ((ptype == ROOK or ptype == CANNON or ptype == HORSE)
                and (attacker_type == ADVISOR or attacker_type == ELEPHANT)):
            cx.chased |= piece_bit(piece)
    # Attacking a piece of one's own type offers a trade. For horses the trade is real only if the
    # target horse can hit back (horse legs make attacks one-sided); for other types, only if the
    # target is free to move.
    hobbled_reply = False
    if attacker_type == HORSE:
        for i in range(4):
            if p.board[attacker_sq + DIAGONAL[i]]:
                hobbled_reply = True
    rest = targets
    while rest:
        piece = first_piece(rest)
        rest &= rest - 1
        if PIECE_TYPE[piece] != attacker_type:
            continue
        if hobbled_reply:
            if attacks_square(p, cx.victim, HORSE, p.square[piece], attacker_sq):
                targets &= ~piece_bit(piece)
        elif not (cx.pinned & piece_bit(piece)):
            targets &= ~piece_bit(piece)
    # Protection: with the attacker gone from its square, can an unpinned victim piece take back?
    saved = p.board[attacker_sq]
    p.board[attacker_sq] = 0
    rest = targets
    while rest:
        piece = first_piece(rest)
        rest &= rest - 1
        t = p.square[piece]
        defenders = attackers_of(p, t, cx.victim) & ~cx.pinned
        if defenders == 0:
            cx.chased |= piece_bit(piece)
        elif (defenders == piece_bit(side_tag(cx.victim))
                and attacks_square(p, cx.mover, ROOK, cx.mover_king, t)):
            # Only the general defends, and taking back would bring it face to face with the other.
            cx.chased |= piece_bit(piece)
    p.board[attacker_sq] = saved


cdef uint32_t chased_by_move(Pos* p, int move) noexcept nogil:
    """Play the move (it stays played) and return the mask of the opponent's pieces it newly chases."""
    cdef ChaseContext cx
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int mover = p.side
    cdef int victim = mover ^ 1
    cdef int victim_tag = side_tag(victim)
    cdef int mover_tag = side_tag(mover)
    cdef uint32_t shields_before = king_blockers(p, victim)
    cdef int shield_squares_before[32]
    cdef int n_shields_before = 0
    cdef uint32_t victims, targets, rest, new_shields, mover_shields, king_zone, on_file
    cdef uint32_t discovered_before[16]
    cdef uint8_t candidate[16]
    cdef int piece, ptype, sq, t, n_on_file, d, i
    cdef uint8_t saved_q, saved_k

    # Discovery candidates, and what they attack before the move (from the square they will then
    # occupy): horses whose leg is the origin, elephants whose eye is the origin, chariots and cannons
    # on the origin's lines, and cannons on the destination's lines (which may gain a screen).
    for i in range(16):
        piece = mover_tag + i
        sq = p.square[piece]
        candidate[i] = 0
        if sq == 0 or sq == from_sq:
            continue
        ptype = PIECE_TYPE[piece]
        d = sq - from_sq
        if ptype == HORSE and (d == 1 or d == -1 or d == 16 or d == -16):
            candidate[i] = 1
        elif ptype == ELEPHANT and (d == 15 or d == 17 or d == -15 or d == -17):
            candidate[i] = 1
        elif ptype == ROOK or ptype == CANNON:
            if same_line(sq, from_sq) or (ptype == CANNON and same_line(sq, to_sq)):
                candidate[i] = 1
    # A moving chariot or cannon stays on its origin's line, so it is a candidate too, tested from
    # its destination.
    ptype = PIECE_TYPE[p.board[from_sq]]
    if ptype == ROOK or ptype == CANNON:
        candidate[p.board[from_sq] - mover_tag] = 2
    for i in range(16):
        if candidate[i]:
            piece = mover_tag + i
            sq = to_sq if candidate[i] == 2 else p.square[piece]
            discovered_before[i] = raw_hits(p, mover, PIECE_TYPE[piece], sq)
    # The general's shields are compared by square: a shield that moves along its line is a new one.
    while shields_before:
        shield_squares_before[n_shields_before] = p.square[first_piece(shields_before)]
        n_shields_before += 1
        shields_before &= shields_before - 1

    make_move(p, move)
    victims = side_pieces(victim)
    cx.mover = mover
    cx.victim = victim
    cx.mover_king = p.square[mover_tag]
    cx.victim_king = p.square[victim_tag]
    cx.chased = 0

    # Step 1. Pinned victim pieces: shields of their general, plus the only victim piece on the file
    # the two generals share (moving it off would let them face each other).
    cx.pinned = king_blockers(p, victim)
    if file_of(cx.victim_king) == file_of(cx.mover_king):
        on_file = 0
        n_on_file = 0
        for piece in range(victim_tag + 1, victim_tag + 16):
            sq = p.square[piece]
            if sq and file_of(sq) == file_of(cx.victim_king):
                on_file |= piece_bit(piece)
                n_on_file += 1
        if n_on_file == 1:
            cx.pinned |= on_file

    # Step 2. Direct attacks of the moved piece (never by a general or soldier). A chariot or cannon
    # that moved along a line does not newly attack what stands on that line.
    ptype = PIECE_TYPE[p.board[to_sq]]
    if ptype != KING and ptype != PAWN:
        targets = legal_area_hits(p, mover, ptype, to_sq) & victims
        if ptype == ROOK or ptype == CANNON:
            rest = targets
            while rest:
                piece = first_piece(rest)
                rest &= rest - 1
                t = p.square[piece]
                if (((from_sq ^ to_sq) & 0xF0) == 0 and ((t ^ to_sq) & 0xF0) == 0) or \
                        (((from_sq ^ to_sq) & 0x0F) == 0 and ((t ^ to_sq) & 0x0F) == 0):
                    targets &= ~piece_bit(piece)
        consider(p, &cx, to_sq, ptype, targets)

    # Step 3. Discovered attacks: what each candidate attacks now and did not attack before.
    for i in range(16):
        if candidate[i]:
            piece = mover_tag + i
            sq = p.square[piece]
            targets = raw_hits(p, mover, PIECE_TYPE[piece], sq) & ~discovered_before[i] & victims
            if targets:
                consider(p, &cx, sq, PIECE_TYPE[piece], targets)

    # Step 4. New shields of the victim's general (pieces the move pinned or made into screens).
    new_shields = king_blockers(p, victim)
    rest = new_shields
    while rest:
        piece = first_piece(rest)
        rest &= rest - 1
        for i in range(n_shields_before):
            if shield_squares_before[i] == p.square[piece]:
                new_shields &= ~piece_bit(piece)
    if new_shields:
        # 4a. Fake roots: a newly pinned victim piece no longer protects what it attacks, so those
        # pieces are chased when the mover (with its own unpinned pieces) attacks them.
        mover_shields = king_blockers(p, mover)
        rest = new_shields & victims
        while rest:
            piece = first_piece(rest)
            rest &= rest - 1
            targets = raw_hits(p, victim, PIECE_TYPE[piece], p.square[piece]) & victims
            while targets:
                t = first_piece(targets)
                targets &= targets - 1
                ptype = PIECE_TYPE[t]
                if ptype == KING or (ptype == PAWN and OWN_HALF[victim][p.square[t]]):
                    continue
                if attackers_of(p, p.square[t], mover) & ~mover_shields:
                    cx.chased |= piece_bit(t)
        # 4b. Discovered-check threats: a mover piece that now screens a line to the victim's general
        # can capture with check; what it attacks is chased, unless the general itself could take back.
        king_zone = legal_area_hits(p, victim, KING, cx.victim_king)
        rest = new_shields & side_pieces(mover)
        while rest:
            piece = first_piece(rest)
            rest &= rest - 1
            sq = p.square[piece]
            targets = legal_area_hits(p, mover, PIECE_TYPE[piece], sq) & victims
            cx.chased |= targets & ~king_zone
            targets &= king_zone
            while targets:
                t = first_piece(targets)
                targets &= targets - 1
                saved_q = p.board[sq]
                saved_k = p.board[cx.victim_king]
                p.board[sq] = 0
                p.board[cx.victim_king] = 0
                if attackers_of(p, p.square[t], mover) & ~piece_bit(piece):
                    cx.chased |= piece_bit(t)
                p.board[sq] = saved_q
                p.board[cx.victim_king] = saved_k
    return cx.chased

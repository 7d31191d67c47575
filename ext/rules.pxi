# Game end by the rules: the per-ply counters behind the natural move limit, repetition rulings
# (perpetual check, perpetual chase, plain repetition), and the verdict on a position.
#
# The natural limit (自然限着): 120 plies without a capture draw the game. Following the AXF rule as
# Pikafish reads it, each side's checks beyond its tenth since the last capture, and the replies to
# them, are not counted. A position with no legal move is judged first, so a mate on the last counted
# ply still wins.


cdef void update_rule_state(Pos* p) noexcept nogil:
    """Fill in the rule fields of the current state after make_move (check status and counters)."""
    cdef State* prev = &p.hist[p.ply - 1]
    cdef State* st = &p.hist[p.ply]
    cdef int mover = p.side ^ 1
    st.move = 0
    st.captured = 0
    st.in_check = gives_check(p)
    st.since_null = prev.since_null + 1
    st.excess_check = 0
    if prev.captured:
        st.rule60 = 0
        st.checks[0] = 0
        st.checks[1] = 0
        st.since_capture = 0
        return
    st.since_capture = prev.since_capture + 1
    st.checks[0] = prev.checks[0]
    st.checks[1] = prev.checks[1]
    st.rule60 = prev.rule60
    if st.in_check:
        if st.checks[mover] < 255:
            st.checks[mover] += 1
        if st.checks[mover] > COUNTED_CHECKS:
            st.excess_check = 1
            return                      # an excess check is not counted
    if prev.excess_check:
        return                          # nor is the reply to one
    st.rule60 += 1


cdef inline int side_at(Pos* p, int k) noexcept nogil:
    """The side to move in position hist[k]."""
    return p.side if ((p.ply - k) & 1) == 0 else p.side ^ 1


cdef inline int repetition_start(Pos* p, int tree_root) noexcept nogil:
    """Where a repetition of the current position that the rules must judge begins: the index of the
    earlier occurrence to rule from (judge_cycle), or -1 when there is none.

    Occurrences count within the repetition window (since the last capture or null move) and with the
    same side to move. A repetition is final at the third occurrence, and the first of the three is
    returned; inside a search tree it is final at the second already, when the earlier occurrence lies
    after hist[tree_root] (the side that repeats could as well have avoided it). The game's verdict
    passes tree_root = p.ply: no tree, so only a third occurrence counts.
    """
    cdef State* st = &p.hist[p.ply]
    cdef int window = st.since_capture if st.since_capture < st.since_null else st.since_null
    cdef int k = p.ply - 4, seen = 0
    while k >= p.ply - window and k >= 0:
        if p.hist[k].key == st.key:
            seen += 1
            if k > tree_root or seen == 2:
                return k
        k -= 2
    return -1


cdef int judge_cycle(Pos* p, int first, int* winner) noexcept nogil:
    """Rule on the moves played from hist[first] to now, a cycle that repeated a position three times.

    Each side's moves are classified over the whole span: all checks is a perpetual check; otherwise
    one and the same enemy piece newly chased by every move is a perpetual chase (so a check that does
    not also chase that piece breaks it: one check one chase is a draw). Check ranks above chase; a
    forbidden perpetual by one side loses, by both sides draws, and anything else is a draw.
    """
    cdef bint all_checks[2]
    cdef uint32_t chased[2]
    cdef int k, mover, n = p.ply
    all_checks[0] = all_checks[1] = True
    chased[0] = chased[1] = 0xFFFFFFFF
    for k in range(first, n):
        mover = side_at(p, k)
        if not p.hist[k + 1].in_check:
            all_checks[mover] = False
    winner[0] = -1
    if all_checks[RED] or all_checks[BLACK]:
        if all_checks[RED] and all_checks[BLACK]:
            return REPETITION
        winner[0] = BLACK if all_checks[RED] else RED
        return PERPETUAL_CHECK
    # Replay the cycle to see what each move newly chases (piece ids follow pieces through the cycle).
    # A checking move may chase too; a move that only checks breaks a chase (one check one chase).
    for k in range(first, n):
        unmake_move(p)
    for k in range(first, n):
        mover = p.side
        chased[mover] &= chased_by_move(p, p.hist[k].move)
    if chased[RED] and chased[BLACK]:
        return REPETITION
    if chased[RED] or chased[BLACK]:
        winner[0] = BLACK if chased[RED] else RED
        return PERPETUAL_CHASE
    return REPETITION


cdef bint has_attacking_material(Pos* p, int side) noexcept nogil:
    """Whether the side has a chariot, horse, cannon or soldier left."""
    cdef int tag = side_tag(side)
    cdef int piece
    for piece in range(tag + SLOT_FIRST[HORSE], tag + 16):
        if p.square[piece]:
            return True
    return False


cdef int verdict(Pos* p, int* winner) noexcept nogil:
    """Judge the current position by the rules. Returns a Verdict; winner gets RED, BLACK or -1."""
    cdef int first
    cdef bint in_check = king_attacked(p, p.side)
    winner[0] = -1
    if not has_legal_move(p, in_check):
        winner[0] = p.side ^ 1
        return CHECKMATE if in_check else STALEMATE
    first = repetition_start(p, p.ply)
    if first >= 0:
        return judge_cycle(p, first, winner)
    if p.hist[p.ply].rule60 >= NATURAL_LIMIT:
        return SIXTY_MOVES
    if not has_attacking_material(p, RED) and not has_attacking_material(p, BLACK):
        return INSUFFICIENT_MATERIAL
    return ONGOING

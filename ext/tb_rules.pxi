# Endgame tablebases, part 2b: the draws the repetition rules might change.
#
# The retrograde analysis (tb_gen.pxi) is plain minimax: its wins and losses are forced mates, which no
# repetition ruling can touch (the distance to mate falls at every ply of the winner's line, so no
# position repeats), but its draws include cycles that the Asian rules may rule on: perpetual check and
# perpetual chase lose. This pass marks each draw with the sides that might be forced into such a
# perpetual: TB_DRAW stays where neither can be, TB_DRAW_RULES | 1 (Red) | 2 (Black) elsewhere. It is a
# sound over-approximation: the rules themselves are not yet inside the tables.
#
# A side is *safe* at a drawn position when it can hold the draw without ever checking or chasing:
#   - to move: it has a move into a draw where it is still safe that is a capture (a capture ends every
#     cycle) or a quiet move that neither checks nor chases anything (ext/chase.pxi's chased_by_move,
#     the definition the search and Position.outcome() use);
#   - not to move: every move of the opponent into a draw leads to a draw where it is still safe.
# The safe sets are the greatest fixed point, computed by a full pass and then passes over the
# predecessors (by un-moves) of the entries that lost a side. A side safe at a draw can play on without
# a check or a chase whatever the other does, so no cycle can be ruled a loss for it; a draw where both
# sides are safe is a draw under the rules.

cdef enum:
    SAFE_BOTH = 3            # bit 1 << side: that side is (still) safe
    SAFE_CHANGED = 4         # lost a side in this round
    SAFE_FRONTIER = 8        # lost a side in the previous round


cdef inline int draw_safety(int v) noexcept nogil:
    """The safe sides of an entry value, -1 when it is not a draw."""
    if v == TB_DRAW:
        return SAFE_BOTH
    if (v & ~SAFE_BOTH) == TB_DRAW_RULES:
        return SAFE_BOTH & ~(v & SAFE_BOTH)
    return -1


cdef int successor_safety(TbGen* G, Pos* p, int captured) noexcept nogil:
    """The safe sides (board colours) of the position just reached, -1 when it is not a draw."""
    cdef int v, side, safe
    cdef int64_t index
    if captured:
        v = capture_value(G, p, captured)
        safe = draw_safety(v)
        if safe > 0 and G.sub[piece_side(captured)][PIECE_TYPE[captured]].flip:
            safe = ((safe & 1) << 1) | (safe >> 1)        # the sub-table's colours are the board's swapped
        return safe
    index = tb_encode(G.lay, p, False, &side)
    if index < 0:
        return -1
    if G.safe[0] == NULL:
        return draw_safety(G.values[side][index])       # the marks as stored (the verifier)
    if G.values[side][index] != TB_DRAW:
        return -1
    return G.safe[side][index] & SAFE_BOTH


cdef int safety_of(TbGen* G, Pos* p) noexcept nogil:
    """The safe sides of the drawn position on the board, from its successors' (see above). The chase
    test, the costly part, runs only on the moves into draws safe for the mover, until one is quiet."""
    cdef MoveList ml
    cdef int candidates[MAX_MOVES]
    cdef int s = p.side
    cdef int mover_bit = 1 << s, other_bit = 1 << (s ^ 1)
    cdef bint other_safe = True, quiet
    cdef int k, n = 0, move, captured, after
    gen_legal(p, &ml)
    # 1. The successors' marks: the other side must be safe after every move into a draw.
    for k in range(ml.count):
        move = ml.moves[k]
        captured = p.board[move_to(move)]
        make_move(p, move)
        after = successor_safety(G, p, captured)
        unmake_move(p)
        if after < 0:
            continue
        if not (after & other_bit):
            other_safe = False
        if after & mover_bit:
            candidates[n] = move
            n += 1
    # 2. The mover needs one of those moves to be a capture or neither a check nor a chase.
    for k in range(n):
        move = candidates[k]
        if p.board[move_to(move)]:
            quiet = True
        else:
            quiet = chased_by_move(p, move) == 0      # plays the move
            quiet = quiet and not gives_check(p)
            unmake_move(p)
        if quiet:
            return mover_bit | (other_bit if other_safe else 0)
    return other_bit if other_safe else 0


cdef inline void update_safety(TbGen* G, int s, int64_t index) noexcept nogil:
    """Recompute the safe sides of a drawn entry (decoded on the board, side s to move); mark a loss."""
    cdef int old = G.safe[s][index] & SAFE_BOTH
    cdef int new = safety_of(G, G.pos) & old
    if new != old:
        G.safe[s][index] = new | SAFE_CHANGED | (G.safe[s][index] & SAFE_FRONTIER)


cdef void safety_visit(TbGen* G, int u, int64_t j) noexcept nogil:
    """A predecessor (on the board, side u to move) of an entry that lost a side."""
    if G.values[u][j] == TB_DRAW and (G.safe[u][j] & SAFE_BOTH):
        update_safety(G, u, j)


cdef int64_t tb_flag_rule_draws(TbGen* G) noexcept nogil:
    """Mark the draws the rules might change (G.safe must be allocated); returns how many."""
    cdef int64_t index, flagged = 0, changed = 1
    cdef int s
    for s in range(2):
        for index in range(G.lay.size):
            G.safe[s][index] = SAFE_BOTH if G.values[s][index] == TB_DRAW else 0
    # 1. A full pass.
    for index in range(G.lay.size):
        if (G.values[0][index] == TB_DRAW or G.values[1][index] == TB_DRAW) and tb_decode(G.lay, index, G.pos):
            for s in range(2):
                if G.values[s][index] == TB_DRAW:
                    G.pos.side = s
                    update_safety(G, s, index)
    # 2. Passes over the predecessors of what changed, until nothing does.
    while changed:
        changed = 0
        for s in range(2):
            for index in range(G.lay.size):
                G.safe[s][index] &= ~SAFE_FRONTIER
                if G.safe[s][index] & SAFE_CHANGED:
                    G.safe[s][index] = (G.safe[s][index] & ~SAFE_CHANGED) | SAFE_FRONTIER
                    changed += 1
        for index in range(G.lay.size):
            for s in range(2):
                if G.safe[s][index] & SAFE_FRONTIER:
                    tb_decode(G.lay, index, G.pos)
                    unmove_entry(G, index, s, 0, True)
    # 3. The marks: the sides that are not safe.
    for s in range(2):
        for index in range(G.lay.size):
            if G.values[s][index] == TB_DRAW and (G.safe[s][index] & SAFE_BOTH) != SAFE_BOTH:
                G.values[s][index] = TB_DRAW_RULES | (SAFE_BOTH & ~G.safe[s][index])
                flagged += 1
    return flagged

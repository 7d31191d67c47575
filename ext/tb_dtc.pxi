# Endgame tablebases, part 2c: the distance to conversion (DTC), for the natural limit.
#
# The natural limit draws a game after 120 plies without a capture (rules.pxi), and a table's mate may lie
# further away than that: DTM counts across captures. So every table also holds one byte per entry and
# side to move (TB_DTC_* in tb_index.pxi). For a win or a loss decided by mates (order 0) it is the plies to
# the next capture or mate when the winner hastens it and the loser delays it, where only a capture into a
# position that is itself within the limit ("clean") counts; TB_DTC_NONE for any other entry: a draw, a
# result decided through a ruling, or a win the loser can keep from a clean capture or mate for longer than
# the limit (Syzygy calls such a win cursed: a win only if the limit is ignored).
#
# A win whose DTM fits within the limit is clean with DTC <= DTM: the mate's line gets there, and a capture
# on that line leads to a shorter mate, clean by the same argument in the sub-table. A clean win with c
# plies already counted is won under the rules when DTC <= limit - c: the winner converts, the counter
# restarts at the capture, and the position the capture reaches is clean.
#
# The computation is the order-0 retrograde analysis again, with captures as the goal (checks beyond the
# tenth, which the limit does not count, are counted here: the byte errs on the side of a draw):
# 1. mated entries are 0, other order-0 results open, everything else TB_DTC_NONE; then a win with a
#    capture into a clean loss of the opponent is 1, and a loss is settled by its successors (dtc_minimax)
#    when it can be already: 1 when every move captures into a clean win of the opponent, TB_DTC_NONE when
#    some capture escapes into a position that is not clean;
# 2. pass d = 1 .. limit: from each entry at d - 1, the quiet un-moves (unmove_entry, TB_VISIT_DTC): a
#    predecessor that wins by moving there is at d; one that loses is settled after the pass once every
#    move is (at d, or at d + 1 when a winner it moves to was settled in the pass);
# 3. what is still open is TB_DTC_NONE.

cdef enum:
    TB_DTC_OPEN = 254            # while computing only


cdef inline bint order0_decided(int v) noexcept nogil:
    return v <= TB_MAX_DTM


cdef inline void dtc_set(TbGen* G, int side, int64_t index, int dtc) noexcept nogil:
    G.dtc[side][index] = dtc
    if dtc < TB_DTC_OPEN and dtc > G.dtc_highest:
        G.dtc_highest = dtc


cdef bint capture_is_clean(TbGen* G, Pos* p, int captured) noexcept nogil:
    """Whether the position just reached by capturing `captured` (on the board) is within the limit: a mate,
    or a result of its sub-table with a DTC."""
    cdef TbSub* S = &G.sub[piece_side(captured)][PIECE_TYPE[captured]]
    cdef int side
    cdef int64_t index
    if S.kind == TB_SUB_DRAW:
        return not has_legal_move(p, king_attacked(p, p.side))
    if S.kind != TB_SUB_TABLE:
        G.errors += 1
        return False
    index = tb_index_of(S.lay, p, S.flip, &side)
    if index < 0:
        G.errors += 1
        return False
    if S.dtc[side] != NULL:
        return S.dtc[side][index] != TB_DTC_NONE
    return (S.clean[side][index >> 3] >> (index & 7)) & 1


cdef int successor_dtc(TbGen* G, Pos* p, int move, int* value) noexcept nogil:
    """For a legal move of the side to move: value[0] the successor's value for the opponent, and the
    mover's DTC by that move: 1 for a capture into a clean position, the successor's DTC + 1 for a quiet
    move (TB_DTC_OPEN, TB_DTC_NONE as they are)."""
    cdef int dtc
    cdef int64_t index
    cdef int captured = tb_play(p, move)
    if captured:
        value[0] = capture_value(G, p, captured)
        dtc = 1 if capture_is_clean(G, p, captured) else TB_DTC_NONE
    else:
        index = successor_entry(G, p, p.board[move_to(move)])
        value[0] = G.values[p.side][index]
        dtc = G.dtc[p.side][index]
        if dtc < TB_DTC_OPEN:
            dtc += 1
    tb_take_back(p, move, captured)
    return dtc


cdef int dtc_minimax(TbGen* G, Pos* p, bint wins) noexcept nogil:
    """The DTC of the order-0 result on the board (the side to move wins when `wins`) by its successors':
    the winner's least over its moves to the opponent's losses, the loser's greatest over all its moves
    (TB_DTC_NONE when one escapes the limit); TB_DTC_OPEN while a successor it depends on is open (the
    loser's: at the first such move, since its value waits for all), TB_DTC_NONE past the limit."""
    cdef LegalMoves lm
    cdef int move, dtc, value, best = TB_DTC_NONE, worst = 0
    cdef bint open_ = False
    start_legal(p, &lm, False)
    move = next_legal(p, &lm)
    if move == 0:
        return 0
    while move:
        dtc = successor_dtc(G, p, move, &value)
        if wins:
            if order0_decided(value) and value % 2 == 0:     # a move that keeps a win by mates
                if dtc == TB_DTC_OPEN:
                    open_ = True
                elif dtc < best:
                    best = dtc
        elif dtc == TB_DTC_NONE:
            return TB_DTC_NONE
        elif dtc == TB_DTC_OPEN:
            return TB_DTC_OPEN                  # visited again when that successor is settled
        elif dtc > worst:
            worst = dtc
        move = next_legal(p, &lm)
    if wins:
        if best == TB_DTC_NONE and open_:
            return TB_DTC_OPEN
        return best if best <= G.dtc_limit else TB_DTC_NONE
    return worst if worst <= G.dtc_limit else TB_DTC_NONE


cdef void tb_dtc_open(TbGen* G) noexcept nogil:
    """Step 1's first part: mated entries 0, other order-0 results open, everything else TB_DTC_NONE."""
    cdef int64_t index
    cdef int s, v
    G.dtc_highest = 0
    for index in range(G.lay.size):
        for s in range(2):
            v = G.values[s][index]
            G.dtc[s][index] = (0 if v == 0 else TB_DTC_OPEN) if order0_decided(v) else TB_DTC_NONE


cdef int64_t dtc_start_range(TbGen* G, int64_t first, int64_t end) noexcept nogil:
    """Step 1's second part over entries first .. end - 1 (each writes its own entry only); returns 0."""
    cdef Pos* p = G.pos
    cdef LegalMoves lm
    cdef int64_t index
    cdef int s, value, move, dtc
    for index in range(first, end):
        if G.dtc[0][index] != TB_DTC_OPEN and G.dtc[1][index] != TB_DTC_OPEN:
            continue
        tb_decode(G.lay, index, p)
        G.here = index
        G.here_mirrored = False
        for s in range(2):
            if G.dtc[s][index] != TB_DTC_OPEN:
                continue
            p.side = s
            if G.values[s][index] % 2 == 0:
                dtc = dtc_minimax(G, p, False)
                if dtc != TB_DTC_OPEN:
                    dtc_set(G, s, index, dtc)
                continue
            start_legal(p, &lm, True)
            move = next_legal(p, &lm)
            while move:
                if successor_dtc(G, p, move, &value) == 1 and order0_decided(value) and value % 2 == 0:
                    dtc_set(G, s, index, 1)
                    break
                move = next_legal(p, &lm)
        G.here = -1
    return 0


cdef void dtc_visit(TbGen* G, int u, int d, int64_t j) noexcept nogil:
    """Step 2 for one predecessor (on the board, side u to move) of an entry settled at d - 1, which is a
    loss for its side when G.dtc_from_loss: a winner is settled at d; a loser is a candidate, looked at
    once after the pass (candidates_range)."""
    cdef int v = G.values[u][j]
    if G.dtc[u][j] != TB_DTC_OPEN:
        return
    if G.dtc_from_loss:
        if order0_decided(v) and v % 2 == 1:
            dtc_set(G, u, j, d)
    elif order0_decided(v) and v % 2 == 0:
        G.candidates[u][j] = 1          # settled once after the pass (candidates_range)


cdef int64_t dtc_range(TbGen* G, int d, int64_t first, int64_t end) noexcept nogil:
    """Step 2 over entries first .. end - 1 for distance d; returns the entries of the frontier.

    A pass may run as several ranges at once (tb_run_share). A winner is written d, wherever it is
    written. A loser is only flagged: candidates_range settles it after the pass."""
    cdef int64_t index, frontier = 0
    cdef int s
    cdef bint decoded
    index = next_with_byte(G.dtc, d - 1, first, end)
    while index < end:
        decoded = False
        for s in range(2):
            if G.dtc[s][index] != d - 1:
                continue
            if not decoded:
                tb_decode(G.lay, index, G.pos)
                decoded = True
            G.dtc_from_loss = G.values[s][index] % 2 == 0
            unmove_entry(G, index, s, d, TB_VISIT_DTC)
            frontier += 1
        index = next_with_byte(G.dtc, d - 1, index + 1, end)
    return frontier


cdef void tb_dtc_close(TbGen* G) noexcept nogil:
    """Step 3: what is still open is TB_DTC_NONE."""
    cdef int64_t index
    cdef int s
    for s in range(2):
        for index in range(G.lay.size):
            if G.dtc[s][index] == TB_DTC_OPEN:
                G.dtc[s][index] = TB_DTC_NONE


cdef int64_t tb_verify_dtc(TbGen* G, int64_t* bad_index, int* bad_side) noexcept nogil:
    """Every legal entry's DTC against its successors' (dtc_minimax); returns the mismatches."""
    cdef Pos* p = G.pos
    cdef int64_t index, bad = 0
    cdef int s, v, expected
    for index in range(G.lay.size):
        if not tb_decode(G.lay, index, p):
            continue
        for s in range(2):
            v = G.values[s][index]
            p.side = s
            if v == TB_ILLEGAL:
                continue
            expected = dtc_minimax(G, p, v % 2 == 1) if order0_decided(v) else TB_DTC_NONE
            if G.dtc[s][index] != expected:
                bad += 1
                bad_index[0] = index
                bad_side[0] = s
    return bad

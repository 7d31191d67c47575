# Endgame tablebases, part 2: the retrograde generator and the verifier, on the index of tb_index.pxi.
#
# Every entry holds the DTM of its side to move in plies (odd: a win, even: a loss, 0: no legal move,
# which loses by the rules whether in check or not), TB_DRAW or TB_ILLEGAL. The rules are the kernel's:
# moves from gen_legal / gen_piece_moves, legality from king_attacked (the flying general included).
#
# 1. Initialise each entry: illegal; no legal move = lost in 0; a capture into a lost position of the
#    sub-table (probed in memory) = won, pending at its distance; only captures, all into won positions
#    = lost, pending at the longest; otherwise unknown.
# 2. Pass d = 1, 2, ...: from each entry of value d - 1 (the newest decided), generate the quiet un-moves
#    of the side that just moved (candidate origins, each confirmed by the kernel's own move generation
#    and the predecessor's legality). A predecessor of a lost entry is won in d (or sooner, if pending
#    later). A predecessor of a won entry is lost when every one of its legal moves leads to a decided
#    win for the opponent; it is lost in the longest of them + 1.
# 3. When a pass is past every value written, what is still unknown is a draw: the plain retrograde calls
#    every unresolved cycle a draw (perpetual check or chase are not yet modelled: docs/tablebases.md).

cdef enum:
    TB_SUB_MISSING = 0       # a capture the generator was given no table for
    TB_SUB_DRAW = 1          # a capture into material with no attacker left: a draw (bar no legal move)
    TB_SUB_TABLE = 2
    TB_NONE = 0x10000        # larger than any entry value


cdef int TB_HORSE_JUMPS[8]
TB_HORSE_JUMPS[:] = [33, 31, -33, -31, 18, 14, -18, -14]


cdef struct TbSub:
    int kind
    int flip                 # the sub-table is in the other colour orientation
    TbLayout* lay
    uint16_t* values[2]


cdef struct TbGen:
    TbLayout* lay
    uint16_t* values[2]
    TbSub sub[2][PIECE_TYPES]   # by the captured piece's side and type
    Pos* pos
    int max_written             # the largest distance written so far
    int64_t errors              # successors the generator could not value (a missing sub-table)
    uint8_t* safe[2]            # while flagging the draws: the safety bits of each entry (tb_rules.pxi)


cdef inline bint is_dtm(int v) noexcept nogil:
    return v <= TB_MAX_DTM


cdef inline void tb_set(TbGen* G, int side, int64_t index, int v) noexcept nogil:
    G.values[side][index] = v
    if v > G.max_written:
        G.max_written = v


cdef int capture_value(TbGen* G, Pos* p, int captured) noexcept nogil:
    """The value (for the side now to move) of the position just reached by capturing `captured`."""
    cdef TbSub* S = &G.sub[piece_side(captured)][PIECE_TYPE[captured]]
    cdef int side
    cdef int64_t index
    if S.kind == TB_SUB_DRAW:
        # No attacker left: a draw, unless the side to move has no legal move (which loses, as always).
        return TB_DRAW if has_legal_move(p, king_attacked(p, p.side)) else 0
    if S.kind == TB_SUB_MISSING:
        G.errors += 1
        return TB_UNKNOWN
    index = tb_encode(S.lay, p, S.flip, &side)
    if index < 0:
        G.errors += 1
        return TB_UNKNOWN
    return S.values[side][index]


cdef int successor_value(TbGen* G, Pos* p, int move) noexcept nogil:
    """The value, for the opponent, of the position after a legal move of the side to move."""
    cdef int captured = p.board[move_to(move)]
    cdef int side, v
    cdef int64_t index
    make_move(p, move)
    if captured:
        v = capture_value(G, p, captured)
    else:
        index = tb_encode(G.lay, p, False, &side)
        v = G.values[side][index] if index >= 0 else TB_UNKNOWN
    unmake_move(p)
    return v


cdef int minimax_value(TbGen* G, Pos* p) noexcept nogil:
    """The value of the position on the board by one ply of minimax over its successors' values
    (TB_UNKNOWN when it has no win and a successor that is neither a win nor a loss: a draw)."""
    cdef MoveList ml
    cdef int k, v, best_win = TB_NONE, worst_loss = -1
    cdef bint open_ = False
    gen_legal(p, &ml)
    if ml.count == 0:
        return 0
    for k in range(ml.count):
        v = successor_value(G, p, ml.moves[k])
        if not is_dtm(v):
            open_ = True
        elif v % 2 == 0:
            if v + 1 < best_win:
                best_win = v + 1
        elif v + 1 > worst_loss:
            worst_loss = v + 1
    if best_win != TB_NONE:
        return best_win
    if open_:
        return TB_UNKNOWN
    return worst_loss


cdef int proven_loss(TbGen* G, Pos* p, int limit) noexcept nogil:
    """During generation: the loss distance of the (undecided) position on the board when every move
    leads to a decided win for the opponent (a quiet successor is decided when its value is at most
    `limit`; wins above it may still shorten), else TB_UNKNOWN, at the first move that does not."""
    cdef MoveList ml
    cdef int k, v, worst_loss = 0
    gen_legal(p, &ml)
    for k in range(ml.count):
        v = successor_value(G, p, ml.moves[k])
        if not is_dtm(v) or v % 2 == 0 or (v > limit and not p.board[move_to(ml.moves[k])]):
            return TB_UNKNOWN
        if v + 1 > worst_loss:
            worst_loss = v + 1
    return worst_loss


cdef void init_entry(TbGen* G, int64_t index) noexcept nogil:
    """Step 1 for both sides to move of one entry."""
    cdef Pos* p = G.pos
    cdef MoveList ml
    cdef int s, k, v, best_win, worst_loss
    cdef bint open_
    if not tb_decode(G.lay, index, p):
        G.values[RED][index] = G.values[BLACK][index] = TB_ILLEGAL
        return
    for s in range(2):
        p.side = s
        if king_attacked(p, s ^ 1):
            G.values[s][index] = TB_ILLEGAL
            continue
        gen_legal(p, &ml)
        best_win = TB_NONE
        worst_loss = 0
        open_ = False
        for k in range(ml.count):
            if not p.board[move_to(ml.moves[k])]:
                open_ = True
                continue
            v = successor_value(G, p, ml.moves[k])
            if not is_dtm(v):
                open_ = True
            elif v % 2 == 0:
                best_win = min(best_win, v + 1)
            else:
                worst_loss = max(worst_loss, v + 1)
        if best_win != TB_NONE:
            tb_set(G, s, index, best_win)
        elif not open_:
            tb_set(G, s, index, worst_loss)     # 0 when there is no legal move at all
        else:
            G.values[s][index] = TB_UNKNOWN


cdef int unmove_origins(Pos* p, int piece, int* origins) noexcept nogil:
    """Candidate squares a piece could have come from by a quiet move (a superset: each is confirmed
    by the kernel's move generation). Empty squares of the board only."""
    cdef int cur = p.square[piece]
    cdef int side = piece_side(piece)
    cdef int ptype = PIECE_TYPE[piece]
    cdef int n = 0, i, d, q
    cdef int forward = 16 if side == RED else -16
    if ptype == ROOK or ptype == CANNON:
        for i in range(4):
            d = ORTHOGONAL[i]
            q = cur + d
            while IN_BOARD[q] and p.board[q] == 0:
                origins[n] = q
                n += 1
                q += d
        return n
    if ptype == HORSE:
        for i in range(8):
            q = cur + TB_HORSE_JUMPS[i]
            if IN_BOARD[q] and p.board[q] == 0:
                origins[n] = q
                n += 1
        return n
    for i in range(4):
        if ptype == KING:
            q = cur + ORTHOGONAL[i]
        elif ptype == ADVISOR:
            q = cur + DIAGONAL[i]
        elif ptype == ELEPHANT:
            q = cur + 2 * DIAGONAL[i]
        elif i == 0:
            q = cur - forward          # a soldier came from behind, or (beyond the river) from the side
        elif i == 1:
            q = cur + 1
        elif i == 2:
            q = cur - 1
        else:
            q = 0
        if q and IN_BOARD[q] and p.board[q] == 0:
            origins[n] = q
            n += 1
    return n


cdef bint kernel_generates(Pos* p, int piece, int move) noexcept nogil:
    """Whether the kernel's move generation gives this piece the move (pseudo-legal)."""
    cdef MoveList ml
    cdef int k
    ml.count = 0
    gen_piece_moves(p, piece, &ml, False)
    for k in range(ml.count):
        if ml.moves[k] == move:
            return True
    return False


cdef void retro_visit(TbGen* G, int u, int d, int64_t j) noexcept nogil:
    """Step 2 for one predecessor (on the board, side u to move) of an entry decided at d - 1."""
    cdef int v = G.values[u][j]
    if (d - 1) % 2 == 0:
        if v == TB_UNKNOWN or (is_dtm(v) and v % 2 == 1 and v > d):
            tb_set(G, u, j, d)
    elif v == TB_UNKNOWN:
        v = proven_loss(G, G.pos, d - 1)
        if v != TB_UNKNOWN:
            tb_set(G, u, j, v)


cdef void unmove_from(TbGen* G, int s, int d, bint safety) noexcept nogil:
    """Visit every predecessor by a quiet un-move of the position on the board (side s to move):
    step 2 of the retrograde analysis (decided at d - 1), or the rule flags' update (safety_visit)."""
    cdef Pos* p = G.pos
    cdef int origins[32]
    cdef int u = s ^ 1
    cdef int tag = side_tag(u)
    cdef int piece, cur, q, n, k, side
    cdef int64_t j
    for piece in range(tag, tag + 16):
        cur = p.square[piece]
        if cur == 0:
            continue
        n = unmove_origins(p, piece, origins)
        for k in range(n):
            q = origins[k]
            p.board[cur] = 0
            p.board[q] = piece
            p.square[piece] = q
            p.side = u
            if kernel_generates(p, piece, make_move_code(q, cur)) and not king_attacked(p, s):
                j = tb_encode(G.lay, p, False, &side)
                if j >= 0:
                    if safety:
                        safety_visit(G, u, j)
                    else:
                        retro_visit(G, u, d, j)
            p.board[q] = 0
            p.board[cur] = piece
            p.square[piece] = cur
            p.side = s


cdef void mirror_board(Pos* p) noexcept nogil:
    """Mirror the position on the board left to right (every piece keeps its id)."""
    cdef int piece, sq
    for piece in range(16, 48):
        if p.square[piece]:
            p.board[p.square[piece]] = 0
    for piece in range(16, 48):
        sq = p.square[piece]
        if sq:
            p.square[piece] = mirror_square(sq)
            p.board[p.square[piece]] = piece


cdef void unmove_entry(TbGen* G, int64_t index, int s, int d, bint safety) noexcept nogil:
    """unmove_from for a decoded entry, side s to move; an entry that stands for its mirror too is
    un-moved from both, since the mirror's predecessors with a symmetric group 0 are entries of their own."""
    G.pos.side = s
    unmove_from(G, s, d, safety)
    if not tb_group0_symmetric(G.lay, index):
        mirror_board(G.pos)
        unmove_from(G, s, d, safety)
        mirror_board(G.pos)


cdef int64_t retro_pass(TbGen* G, int d) noexcept nogil:
    """Step 2 over the whole table for distance d; returns the entries of the frontier."""
    cdef int64_t index, frontier = 0
    cdef int s
    cdef bint decoded
    for index in range(G.lay.size):
        decoded = False
        for s in range(2):
            if G.values[s][index] == d - 1:
                if not decoded:
                    tb_decode(G.lay, index, G.pos)
                    decoded = True
                unmove_entry(G, index, s, d, False)
                frontier += 1
    return frontier


cdef void tb_initialise(TbGen* G) noexcept nogil:
    """Step 1 over the whole table."""
    cdef int64_t index
    G.max_written = 0
    for index in range(G.lay.size):
        init_entry(G, index)


cdef void tb_finish(TbGen* G) noexcept nogil:
    """Step 3: what is still unknown is a draw."""
    cdef int64_t index
    cdef int s
    for s in range(2):
        for index in range(G.lay.size):
            if G.values[s][index] == TB_UNKNOWN:
                G.values[s][index] = TB_DRAW


cdef int64_t tb_verify(TbGen* G, int64_t* bad_index, int* bad_side) noexcept nogil:
    """Check every entry against one ply of minimax over its successors, and each draw's marks against
    its successors' (tb_rules.pxi); returns the mismatches. G.safe must be NULL."""
    cdef Pos* p = G.pos
    cdef int64_t index, bad = 0
    cdef int s, expected
    for index in range(G.lay.size):
        if not tb_decode(G.lay, index, p):
            for s in range(2):
                if G.values[s][index] != TB_ILLEGAL:
                    bad += 1
                    bad_index[0] = index
                    bad_side[0] = s
            continue
        for s in range(2):
            p.side = s
            if king_attacked(p, s ^ 1):
                expected = TB_ILLEGAL
            else:
                expected = minimax_value(G, p)
                if expected == TB_UNKNOWN:
                    expected = TB_DRAW
            if expected == TB_DRAW and draw_safety(G.values[s][index]) >= 0:
                # A draw: each side its mark calls safe must be safe by its successors' marks.
                if draw_safety(G.values[s][index]) & ~safety_of(G, p):
                    bad += 1
                    bad_index[0] = index
                    bad_side[0] = s
            elif G.values[s][index] != expected:
                bad += 1
                bad_index[0] = index
                bad_side[0] = s
    return bad

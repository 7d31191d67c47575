# Endgame tablebases, part 2: the retrograde generator and the verifier, on the index of tb_index.pxi.
#
# Every entry holds the value of its side to move (tb_index.pxi): a win or a loss of some order at some
# distance, TB_DRAW or TB_ILLEGAL. Order 0 is decided by mates: the distance is the DTM in plies (odd: a
# win, even: a loss, 0: no legal move, which loses by the rules whether in check or not). Order k >= 1 is
# decided through the k-th round of perpetual check/chase rulings (tb_rules.pxi): the distance counts the
# plies to the position where the ruling applies. A side prefers, as the winner, the lowest order and then
# the shortest distance, and as the loser the highest order and then the longest: values compare by
# rank_key. The rules are the kernel's: moves from gen_legal (un-moves by gen_piece_moves' conditions,
# steps_back), legality from king_attacked (the flying general included).
#
# 1. Initialise each entry: illegal; no legal move = lost in 0; a capture into a lost position of the
#    sub-table (probed in memory; of any order) = won, pending at its order and distance; only captures,
#    all into won positions = lost, pending at the highest; otherwise unknown.
# 2. Order 0, pass d = 1, 2, ...: from each entry of value (0, d - 1) (the newest decided), generate the
#    quiet un-moves of the side that just moved (candidate origins, each confirmed by the conditions of the
#    kernel's move generation and the predecessor's legality). A predecessor of a lost entry is won at d
#    (or sooner, if pending later). A predecessor of a won entry is lost when every one of its legal moves
#    leads to a decided win for the opponent; its value is the highest of them, one ply further.
# 3. Orders k = 1, 2, ... (tb_rules.pxi): the positions lost now by the rulings become lost at (k, 0); the
#    entries whose captures lead to sub-table values of order k are examined again; then passes as in 2
#    from (k, d - 1). It stops after a round that decided nothing, once past the sub-tables' orders.
# 4. What is still unknown is a draw; the draws a ruling might still change are marked (tb_rules.pxi).
# 5. The distance to conversion of every order-0 result, for the natural limit (tb_dtc.pxi).

cdef enum:
    TB_SUB_MISSING = 0       # a capture the generator was given no table for
    TB_SUB_DRAW = 1          # a capture into material with no attacker left: a draw (bar no legal move)
    TB_SUB_TABLE = 2
    TB_NO_KEY = 0x7FFFFFFF   # larger than any rank_key
    TB_VISIT_RETRO = 0       # what an un-move's predecessor is visited for (unmove_from)
    TB_VISIT_SAFETY = 1
    TB_VISIT_BOUND = 2
    TB_VISIT_DTC = 3
    # The bits of G.candidates[side][entry]. During the values (G.rule_bits) the upper ones let a round of
    # the rulings look again only at the entries whose top mask can have changed since the round before
    # (tb_rules.pxi, rules_top_range), and at the captures a round can change (recheck_range).
    TB_CANDIDATE = 1         # reached by a pass, to examine once after it (candidates_range)
    TB_RULE_DIRTY = 2        # a successor became a win (of its side to move) since the side's last top
    TB_RULE_TOP = 4          # the side's last top mask was not 0
    TB_RULE_CAPTURES = 8     # a capture leads to a sub-table value of an order >= 1 (init_entry)


# A pass looks for a few entries among many: eight bytes of its arrays are skipped at a time where none
# can be what it looks for (a test with no false negatives; the entries it lets through are tested one
# by one).
cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    static inline uint64_t tb_word(const void* p) { uint64_t w; memcpy(&w, p, 8); return w; }
    /* Whether one of the four 16-bit words at p equals v (exact: some lane of w is zero). */
    static inline int tb_has16(const uint16_t* p, uint16_t v) {
        uint64_t w = tb_word(p) ^ (0x0001000100010001ULL * v);
        return ((w - 0x0001000100010001ULL) & ~w & 0x8000800080008000ULL) != 0;
    }
    /* Whether one of the eight bytes at p equals v. */
    static inline int tb_has8(const uint8_t* p, uint8_t v) {
        uint64_t w = tb_word(p) ^ (0x0101010101010101ULL * v);
        return ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
    }
    /* Whether one of the eight bytes at p has one of the bits. */
    static inline int tb_has_bits8(const uint8_t* p, uint8_t bits) {
        return (tb_word(p) & (0x0101010101010101ULL * bits)) != 0;
    }
    """
    bint tb_has16(const uint16_t* p, uint16_t v) nogil
    bint tb_has8(const uint8_t* p, uint8_t v) nogil
    bint tb_has_bits8(const uint8_t* p, uint8_t bits) nogil


cdef inline int64_t next_with_value(uint16_t** arrays, int value, int64_t index, int64_t end) noexcept nogil:
    """The first entry from `index` on, before `end`, where either side's value is `value`; else end."""
    while index < end:
        if index + 4 <= end and not tb_has16(&arrays[0][index], value) and not tb_has16(&arrays[1][index], value):
            index += 4
        elif arrays[0][index] == value or arrays[1][index] == value:
            return index
        else:
            index += 1
    return end


cdef inline int64_t next_with_byte(uint8_t** arrays, int byte, int64_t index, int64_t end) noexcept nogil:
    """The first entry from `index` on, before `end`, where either side's byte is `byte`; else end."""
    while index < end:
        if index + 8 <= end and not tb_has8(&arrays[0][index], byte) and not tb_has8(&arrays[1][index], byte):
            index += 8
        elif arrays[0][index] == byte or arrays[1][index] == byte:
            return index
        else:
            index += 1
    return end


cdef inline int64_t next_with_bits(uint8_t** arrays, int bits, int64_t index, int64_t end) noexcept nogil:
    """The first entry from `index` on, before `end`, where either side's byte has one of `bits`; else
    end."""
    while index < end:
        if (index + 8 <= end and not tb_has_bits8(&arrays[0][index], bits)
                and not tb_has_bits8(&arrays[1][index], bits)):
            index += 8
        elif (arrays[0][index] | arrays[1][index]) & bits:
            return index
        else:
            index += 1
    return end


cdef int TB_HORSE_JUMPS[8]
TB_HORSE_JUMPS[:] = [33, 31, -33, -31, 18, 14, -18, -14]


cdef struct TbSub:
    int kind
    int flip                 # the sub-table is in the other colour orientation
    TbLayout* lay
    uint16_t* values[2]
    uint8_t* dtc[2]             # its distance to conversion, or NULL and instead
    uint8_t* clean[2]           # a bit per entry: whether it has one (tb_dtc.pxi)


cdef struct TbGen:
    TbLayout* lay
    uint16_t* values[2]
    uint8_t* dtc[2]             # the distance to conversion (tb_dtc.pxi), once computed
    int dtc_limit               # the natural limit it is computed for (plies)
    bint dtc_from_loss          # while it is: the entry un-moved from is a loss for its side
    int dtc_highest             # and the highest distance set so far
    TbSub sub[2][PIECE_TYPES]   # by the captured piece's side and type
    int sub_order               # the highest order of the sub-tables' values
    Pos* pos
    int64_t here                # the entry of the position on pos where known, else -1: a quiet successor's
    bint here_mirrored          # entry then follows from it (successor_entry); pos shows it mirrored
    int order                   # the order being decided
    int max_distance[TB_MAX_ORDER + 1]   # per order, the largest distance written so far
    bint overflow               # a value the 16-bit entry cannot hold was met
    int64_t decided             # entries written since the count was last reset
    int64_t errors              # successors the generator could not value (a missing sub-table)
    # The rulings (tb_rules.pxi), per side S that may be ruled against: the kinds it can be (a check,
    # when it has an attacker; a chase of each piece that is the opponent's only one of its type), and
    # that piece's id in a decoded position (0: the opponent has not exactly one of the type).
    int valid_kinds[2]
    int only_piece[2][PIECE_TYPES]
    # The exposure bound (tb_rules.pxi, part B): every kind a side could be ruled on (a chase of any piece
    # of a type); while it is computed for exposed_side, rulings are relaxed and its values take the
    # orders from bound_order on.
    int bound_kinds[2]
    bint relaxed
    int exposed_side
    int bound_order
    int sub_marked              # the sides (board colours) some sub-table draw is marked for
    uint8_t* kinds[2]           # while the rulings are decided: each entry's kinds mask (m); while the
                                # exposure bound is verified: its attractor
    uint8_t* candidates[2]      # during the passes: the predecessors a pass reached to examine once after
                                # it, for a loss or a loser's distance (candidates_range); TB_CANDIDATE
    bint rule_bits              # and, kept through the values from step 1 on, the TB_RULE_* bits
    bint tops_known[2]          # for a side whose rulings' top has run with them
    uint8_t* safe[2]            # while flagging the draws: the safety bits of each entry (tb_rules.pxi),
    uint8_t* holds[2]           # the move each draw's mover holds by (watch_of its successor),
    int unmoved_safe            # and the safe sides of the entry being un-moved from (safety_visit)
    int unmoved_watch           # and watch_of it
    int64_t successor           # the entry of the last successor read (successor_safety; -1: a capture)


cdef inline int rank_key(int v) noexcept nogil:
    """A decided value as one comparable number: the order, then the distance."""
    return (tb_order(v) << 16) | tb_distance(v)


cdef inline int key_value(TbGen* G, int key) noexcept nogil:
    """The entry of a rank_key (flags an overflow, and gives TB_UNKNOWN, when the entry cannot hold it)."""
    cdef int v = tb_value_of(key >> 16, key & 0xFFFF)
    if v < 0:
        G.overflow = True
        return TB_UNKNOWN
    return v


cdef inline bint opponent_win_decided(int v, int order, int limit, bint capture) noexcept nogil:
    """Whether a successor's value is a win for the opponent that can no longer change while `order` is
    decided: one of a lower order, or of this order no further than `limit` (a sub-table's: any)."""
    if not tb_is_decided(v) or not (tb_distance(v) & 1):
        return False
    if tb_order(v) != order:
        return tb_order(v) < order
    return capture or tb_distance(v) <= limit


cdef inline void tb_set(TbGen* G, int side, int64_t index, int v) noexcept nogil:
    cdef int order
    if v == TB_UNKNOWN:
        return
    G.values[side][index] = v
    G.decided += 1
    order = tb_order(v)
    if tb_distance(v) > G.max_distance[order]:
        G.max_distance[order] = tb_distance(v)


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
    index = tb_index_of(S.lay, p, S.flip, &side)
    if index < 0:
        G.errors += 1
        return TB_UNKNOWN
    if G.relaxed:
        return exposed_capture_value(G, p, S, S.values[side][index])
    return S.values[side][index]


cdef inline int tb_play(Pos* p, int move) noexcept nogil:
    """Play a move on the board and the piece squares only (no keys, no history: a table's entry needs
    neither); returns the piece captured, for tb_take_back."""
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[from_sq]
    cdef int captured = p.board[to_sq]
    if captured:
        p.square[captured] = 0
    p.board[to_sq] = piece
    p.board[from_sq] = 0
    p.square[piece] = to_sq
    p.side ^= 1
    return captured


cdef inline void tb_take_back(Pos* p, int move, int captured) noexcept nogil:
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[to_sq]
    p.board[from_sq] = piece
    p.square[piece] = from_sq
    p.board[to_sq] = captured
    if captured:
        p.square[captured] = to_sq
    p.side ^= 1


# The legal moves of a position, tested for legality one at a time as they are asked for (next_legal): a
# caller that stops at the first move it cannot use tests no more moves than it reads.
cdef struct LegalMoves:
    MoveList pseudo
    int next
    bint in_check
    int king_sq


cdef inline void start_legal(Pos* p, LegalMoves* lm, bint captures_only) noexcept nogil:
    lm.pseudo.count = 0
    gen_pseudo(p, &lm.pseudo, captures_only)
    lm.next = 0
    lm.in_check = king_attacked(p, p.side)
    lm.king_sq = p.square[side_tag(p.side)]


cdef inline int next_legal(Pos* p, LegalMoves* lm) noexcept nogil:
    """The next legal move, in the kernel's order (gen_legal's), or 0 when there is none left."""
    cdef int move
    while lm.next < lm.pseudo.count:
        move = lm.pseudo.moves[lm.next]
        lm.next += 1
        if is_legal(p, move, lm.in_check, lm.king_sq):
            return move
    return 0


cdef int64_t successor_entry(TbGen* G, Pos* p, int moved) noexcept nogil:
    """The entry of the position on the board, just reached by a quiet move of the piece `moved` (its side
    to move is the board's). When the entry before the move is known (G.here) and the piece is not of Red's
    defence (group 0, which decides the mirror), only its group's number changes (entry_with_group_moved)."""
    cdef TbLayout* L = G.lay
    cdef int side
    cdef int g
    cdef int64_t index
    if G.here >= 0:
        g = group_of_piece(L, moved)
        if g > 0:
            index = entry_with_group_moved(L, G.here, g, p, G.here_mirrored)
            if index >= 0:
                return index
    return tb_index_of(L, p, False, &side)


cdef int successor_value(TbGen* G, Pos* p, int move) noexcept nogil:
    """The value, for the opponent, of the position after a legal move of the side to move."""
    cdef int v
    cdef int64_t index
    cdef int captured = tb_play(p, move)
    if captured:
        v = capture_value(G, p, captured)
    else:
        index = successor_entry(G, p, p.board[move_to(move)])
        v = G.values[p.side][index] if index >= 0 else TB_UNKNOWN
    tb_take_back(p, move, captured)
    return v


cdef int minimax_value(TbGen* G, Pos* p) noexcept nogil:
    """The value of the position on the board by one ply of minimax over its successors' values
    (TB_UNKNOWN when it has no win and a successor that is neither a win nor a loss: a draw)."""
    cdef MoveList ml
    cdef int k, v, best_win = TB_NO_KEY, worst_loss = -1
    cdef bint open_ = False
    gen_legal(p, &ml)
    if ml.count == 0:
        return 0
    for k in range(ml.count):
        v = successor_value(G, p, ml.moves[k])
        if not tb_is_decided(v):
            open_ = True
        elif tb_distance(v) % 2 == 0:
            best_win = min(best_win, rank_key(v) + 1)
        else:
            worst_loss = max(worst_loss, rank_key(v) + 1)
    if best_win != TB_NO_KEY:
        return key_value(G, best_win)
    if open_:
        return TB_UNKNOWN
    return key_value(G, worst_loss)


cdef int proven_loss(TbGen* G, Pos* p, int limit) noexcept nogil:
    """During generation of G.order: the loss value of the (undecided) position on the board when every
    move leads to a win for the opponent that can no longer change (opponent_win_decided: quiet wins of
    this order above `limit` may still shorten), else TB_UNKNOWN, at the first move that does not."""
    cdef LegalMoves lm
    cdef int move, v, worst_loss = 0
    start_legal(p, &lm, False)
    move = next_legal(p, &lm)
    while move:
        v = successor_value(G, p, move)
        if not opponent_win_decided(v, G.order, limit, p.board[move_to(move)] != 0):
            return TB_UNKNOWN
        worst_loss = max(worst_loss, rank_key(v) + 1)
        move = next_legal(p, &lm)
    return key_value(G, worst_loss)


cdef void init_entry(TbGen* G, int64_t index) noexcept nogil:
    """Step 1 for both sides to move of one entry. Every capture is valued; of the quiet moves, only
    whether one is legal matters (the entry is then open), so their legality is tested until one is."""
    cdef Pos* p = G.pos
    cdef LegalMoves lm
    cdef int s, k, v, move, best_win, worst_loss
    cdef bint open_
    if not tb_decode(G.lay, index, p):
        G.values[RED][index] = G.values[BLACK][index] = TB_ILLEGAL
        return
    for s in range(2):
        p.side = s
        if king_attacked(p, s ^ 1):
            G.values[s][index] = TB_ILLEGAL
            continue
        start_legal(p, &lm, False)
        best_win = TB_NO_KEY
        worst_loss = 0
        open_ = False
        G.values[s][index] = TB_UNKNOWN
        for k in range(lm.pseudo.count):
            move = lm.pseudo.moves[k]
            if not p.board[move_to(move)]:
                if not open_ and is_legal(p, move, lm.in_check, lm.king_sq):
                    open_ = True
                continue
            if not is_legal(p, move, lm.in_check, lm.king_sq):
                continue
            v = successor_value(G, p, move)
            if G.rule_bits and tb_is_decided(v) and tb_order(v) >= 1:
                G.candidates[s][index] |= TB_RULE_CAPTURES
            if not tb_is_decided(v):
                open_ = True
            elif tb_distance(v) % 2 == 0:
                best_win = min(best_win, rank_key(v) + 1)
            else:
                worst_loss = max(worst_loss, rank_key(v) + 1)
        if best_win != TB_NO_KEY:
            tb_set(G, s, index, key_value(G, best_win))
        elif not open_:
            tb_set(G, s, index, key_value(G, worst_loss))     # 0 when there is no legal move at all


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


cdef inline bint steps_back(Pos* p, int piece, int q, int cur) noexcept nogil:
    """Whether the kernel's move generation (gen_piece_moves) gives a general, advisor, elephant, horse or
    soldier standing on q (one of unmove_origins' squares for it, on the board) the quiet move to the
    empty square cur: the conditions of its generation that the origin's geometry leaves open."""
    cdef int ptype = PIECE_TYPE[piece]
    cdef int side = piece_side(piece)
    if ptype == KING or ptype == ADVISOR:
        return IN_PALACE[cur]
    if ptype == ELEPHANT:
        return OWN_HALF[side][cur] and p.board[(q + cur) // 2] == 0
    if ptype == HORSE:
        return p.board[q + HORSE_LEG[cur - q + 256]] == 0
    return cur - q == (16 if side == RED else -16) or not OWN_HALF[side][q]


cdef void retro_visit(TbGen* G, int u, int d, int64_t j) noexcept nogil:
    """Step 2 for one predecessor (on the board, side u to move) of an entry decided at (G.order, d - 1): a
    win, or, from a win, a candidate for a loss (examined once after the pass, however many of its
    successors the pass reaches it from)."""
    cdef int v = G.values[u][j]
    cdef int key = (G.order << 16) | d
    if (d - 1) % 2 == 0:
        if v == TB_UNKNOWN or (tb_is_decided(v) and tb_distance(v) % 2 == 1 and rank_key(v) > key):
            tb_set(G, u, j, key_value(G, key))
    elif v == TB_UNKNOWN:
        # Every visitor of an entry in a pass writes the same bits, and no one else writes it meanwhile:
        # threads sharing the pass (tb_share.pxi) can only write what another wrote.
        G.candidates[u][j] |= TB_CANDIDATE | TB_RULE_DIRTY
    elif tb_is_decided(v) and tb_order(v) >= G.order:
        G.candidates[u][j] |= TB_RULE_DIRTY


cdef int group_of_piece(TbLayout* L, int piece) noexcept nogil:
    """The index group a piece of the table's own material belongs to (tb_index.pxi), -1 when none."""
    cdef int side = piece_side(piece)
    cdef int ptype = PIECE_TYPE[piece]
    cdef int g
    if ptype == KING or ptype == ADVISOR or ptype == ELEPHANT:
        return side
    for g in range(2, L.ngroups):
        if L.group_side[g] == side and L.group_type[g] == ptype:
            return g
    return -1


cdef int64_t group_rank(TbLayout* L, Pos* p, int g, bint mirrored) noexcept nogil:
    """The placement number of group g >= 1 on the board, read mirrored when `mirrored`; -1 off its points."""
    cdef int squares[TB_MAX_GROUP_PIECES]
    cdef int side = L.group_side[g]
    cdef int first = side_tag(side)
    cdef int last = first + SLOT_FIRST[HORSE]
    cdef int piece, n = 0
    cdef int64_t key
    if L.group_type[g] != KING:
        first += SLOT_FIRST[L.group_type[g]]
        last = first + SLOT_COUNT[L.group_type[g]]
    for piece in range(first, last):
        if p.square[piece]:
            squares[n] = mirror_square(p.square[piece]) if mirrored else p.square[piece]
            n += 1
    if L.group_type[g] != KING:
        return combo_rank(L.group_list[g], squares, n)
    key = defence_key(L, side, squares)
    return L.lookup[side][key] if key >= 0 else -1


cdef int64_t entry_with_group_moved(TbLayout* L, int64_t index, int g, Pos* p,
                                    bint mirrored) noexcept nogil:
    """The entry `index` with group g >= 1's placement number read off the board (mirrored when `mirrored`):
    the entry after a move of one of its pieces, the others where `index` has them; -1 off its points."""
    cdef int64_t number = group_rank(L, p, g, mirrored)
    if number < 0:
        return -1
    return index + (number - (index // L.stride[g]) % L.group_size[g]) * L.stride[g]


cdef void unmove_from(TbGen* G, int64_t index, bint mirrored, int s, int d, int visit) noexcept nogil:
    """Visit every predecessor by a quiet un-move of the position on the board (side s to move; the entry
    `index`, mirrored on the board when `mirrored`): for step 2 of the retrograde analysis
    (TB_VISIT_RETRO: decided at d - 1), the draws' marks (TB_VISIT_SAFETY: safety_visit), the verifier's
    check of the exposure bound (TB_VISIT_BOUND: bound_visit) or the distance to conversion (TB_VISIT_DTC:
    dtc_visit, settled at d - 1).

    A predecessor differs from the entry in one piece: when it is not one of Red's defence (group 0,
    which decides the mirror), only that piece's group number changes in the index."""
    cdef TbLayout* L = G.lay
    cdef Pos* p = G.pos
    cdef int origins[32]
    cdef int u = s ^ 1
    cdef int tag = side_tag(u)
    cdef int piece, cur, q, n, k, side, g, ptype
    cdef bint sliding
    cdef int64_t j
    # A predecessor is legal when u could not take s's general in it. When s is not in check now, only
    # what the un-move changes can attack that general: the lines through the two squares, a horse whose
    # leg was the square left, and the piece itself where it stands (as gives_check tests a move).
    cdef bint in_check = king_attacked(p, s)
    cdef int king_sq = p.square[side_tag(s)]
    for piece in range(tag, tag + 16):
        cur = p.square[piece]
        if cur == 0:
            continue
        n = unmove_origins(p, piece, origins)
        # A chariot's or cannon's origins lie along an empty line to it: the quiet move is always there.
        ptype = PIECE_TYPE[piece]
        sliding = ptype == ROOK or ptype == CANNON
        g = group_of_piece(L, piece)
        for k in range(n):
            q = origins[k]
            p.board[cur] = 0
            p.board[q] = piece
            p.square[piece] = q
            p.side = u
            if (sliding or steps_back(p, piece, q, cur)) and not (
                    king_attacked(p, s) if in_check else
                    opens_attack(p, king_sq, cur, q, tag)
                    or ((ptype == HORSE or ptype == PAWN) and attacks_square(p, u, ptype, q, king_sq))):
                if g > 0:
                    j = entry_with_group_moved(L, index, g, p, mirrored)
                else:
                    j = tb_index_of(L, p, False, &side)
                if j >= 0:
                    G.here = j if g > 0 else -1
                    G.here_mirrored = mirrored
                    if visit == TB_VISIT_RETRO:
                        retro_visit(G, u, d, j)
                    elif visit == TB_VISIT_BOUND:
                        bound_visit(G, u, j)
                    elif visit == TB_VISIT_DTC:
                        dtc_visit(G, u, d, j)
                    else:
                        safety_visit(G, u, j)
                    G.here = -1
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


cdef void unmove_entry(TbGen* G, int64_t index, int s, int d, int visit) noexcept nogil:
    """unmove_from for a decoded entry, side s to move; an entry that stands for its mirror too is
    un-moved from both, since the mirror's predecessors with a symmetric group 0 are entries of their own."""
    G.pos.side = s
    unmove_from(G, index, False, s, d, visit)
    if not tb_group0_symmetric(G.lay, index):
        mirror_board(G.pos)
        unmove_from(G, index, True, s, d, visit)
        mirror_board(G.pos)


cdef int64_t retro_range(TbGen* G, int d, int64_t first, int64_t end) noexcept nogil:
    """Step 2 over entries first .. end - 1 for distance d of G.order; returns the entries of the frontier.

    A pass may run as several ranges at once (tb_run_share): what it writes does not depend on which range
    goes first, nor on two ranges meeting at one entry. A pass from losses writes the same win wherever it
    writes; a pass from wins writes losses, and its tests (proven_loss) ask only for the opponent's wins."""
    cdef int64_t index, frontier = 0
    cdef int s, v
    cdef bint decoded
    # The frontier's one value (most passes: a plain comparison per entry), or -1 where there are many: the
    # positions lost now by a ruling, distance 0 of an order >= 1, each with its kinds.
    cdef int frontier_value = tb_value_of(G.order, d - 1)
    index = next_with_value(G.values, frontier_value, first, end) if frontier_value >= 0 else first
    while index < end:
        decoded = False
        for s in range(2):
            v = G.values[s][index]
            if (v == frontier_value if frontier_value >= 0 else
                    tb_is_decided(v) and tb_distance(v) == d - 1 and tb_order(v) == G.order):
                if not decoded:
                    tb_decode(G.lay, index, G.pos)
                    decoded = True
                unmove_entry(G, index, s, d, TB_VISIT_RETRO)
                frontier += 1
        index = next_with_value(G.values, frontier_value, index + 1, end) if frontier_value >= 0 else index + 1
    return frontier


cdef int64_t candidates_range(TbGen* G, int d, bint distances, int64_t first,
                              int64_t end) noexcept nogil:
    """After a pass over entries first .. end - 1, each candidate it flagged examined once; returns the
    losses found (of the values). For the values (a pass from the wins at (G.order, d - 1)): a loss if every move leads to
    a decided win of the opponent (proven_loss); the wins it tests are at d - 1 or nearer and the pass
    wrote none, so this gives what testing each candidate during the pass gave. For the `distances` to
    conversion (tb_dtc.pxi): a loser settled once every move is (dtc_minimax); the successors its distance
    is taken from are settled for good, a winner settled at d in the pass putting it at d + 1, in the next
    pass's frontier either way. A loser still open is left open, never written: another range may have
    settled it meanwhile."""
    cdef int64_t index, found = 0
    cdef int s, v
    cdef bint decoded
    index = next_with_bits(G.candidates, TB_CANDIDATE, first, end)
    while index < end:
        decoded = False
        for s in range(2):
            if not G.candidates[s][index] & TB_CANDIDATE:
                continue
            G.candidates[s][index] &= ~TB_CANDIDATE
            if not decoded:
                tb_decode(G.lay, index, G.pos)
                decoded = True
            G.pos.side = s
            G.here = index
            G.here_mirrored = False
            if distances:
                v = dtc_minimax(G, G.pos, False)
                if v != TB_DTC_OPEN:
                    dtc_set(G, s, index, v)
            else:
                v = proven_loss(G, G.pos, d - 1)
                if v != TB_UNKNOWN:
                    tb_set(G, s, index, v)
                    found += 1
            G.here = -1
        index = next_with_bits(G.candidates, TB_CANDIDATE, index + 1, end)
    return found


cdef void tb_start_distances(TbGen* G) noexcept nogil:
    """Before step 1: no distance written yet."""
    cdef int k
    for k in range(TB_MAX_ORDER + 1):
        G.max_distance[k] = -1
    G.max_distance[0] = 0
    G.order = 0
    G.overflow = False


cdef int64_t initialise_range(TbGen* G, int64_t first, int64_t end) noexcept nogil:
    """Step 1 over entries first .. end - 1 (each writes its own entry only); returns 0."""
    cdef int64_t index
    for index in range(first, end):
        init_entry(G, index)
    return 0


cdef int64_t recheck_range(TbGen* G, int64_t first, int64_t end) noexcept nogil:
    """Step 3's second part over entries first .. end - 1: the unknown entries whose every move now leads to
    a decided win of the opponent, a capture into a sub-table's value of order G.order the last of them;
    returns how many. (It writes losses only, which no test of it reads.) With G.rule_bits, only the entries
    with such captures (TB_RULE_CAPTURES): no other can change."""
    cdef int64_t index, found = 0
    cdef int s, v
    cdef bint decoded
    for index in range(first, end):
        decoded = False
        for s in range(2):
            if G.values[s][index] != TB_UNKNOWN or (G.rule_bits and not G.candidates[s][index] & TB_RULE_CAPTURES):
                continue
            if not decoded:
                tb_decode(G.lay, index, G.pos)
                decoded = True
            G.pos.side = s
            G.here = index
            G.here_mirrored = False
            v = proven_loss(G, G.pos, -1)
            G.here = -1
            if v != TB_UNKNOWN:
                tb_set(G, s, index, v)
                found += 1
    return found


cdef void tb_finish(TbGen* G) noexcept nogil:
    """Step 4's first part: what is still unknown is a draw."""
    cdef int64_t index
    cdef int s
    for s in range(2):
        for index in range(G.lay.size):
            if G.values[s][index] == TB_UNKNOWN:
                G.values[s][index] = TB_DRAW


cdef bint entry_holds(TbGen* G, Pos* p, int v) noexcept nogil:
    """Whether the entry v of the legal position on the board follows from its successors: a position
    lost now by a ruling by the ruling's condition (ruled_now_holds, tb_rules.pxi), any other by one ply
    of minimax, and a draw's marks by its successors' marks (tb_rules.pxi, part D)."""
    cdef int expected
    if tb_ruled_kinds(v):
        return ruled_now_holds(G, p, v)
    expected = minimax_value(G, p)
    if expected == TB_UNKNOWN and draw_safety(v) >= 0:
        # A draw: each side its mark calls safe must be safe by its successors' marks (the sides the
        # exposure bound applies to: tb_verify_bound).
        return (draw_safety(v) & locally_checked(G) & ~safety_of(G, p)) == 0
    return v == expected


cdef int64_t tb_verify(TbGen* G, int64_t* bad_index, int* bad_side) noexcept nogil:
    """Check every entry against its successors (entry_holds); returns the mismatches. G.safe must be
    NULL."""
    cdef Pos* p = G.pos
    cdef int64_t index, bad = 0
    cdef int s
    cdef bint ok
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
                ok = G.values[s][index] == TB_ILLEGAL
            else:
                ok = entry_holds(G, p, G.values[s][index])
            if not ok:
                bad += 1
                bad_index[0] = index
                bad_side[0] = s
    return bad

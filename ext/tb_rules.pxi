# Endgame tablebases, part 2b: the repetition rules inside the tables.
#
# The retrograde analysis (tb_gen.pxi) by itself is plain minimax: its order-0 wins and losses are forced
# mates, which no repetition ruling can touch (the distance to mate falls at every ply of the winner's
# line, so no position repeats), and what it cannot decide includes cycles that the Asian rules rule on
# (rules.pxi, judge_cycle: over a cycle, a side whose every move checks commits perpetual check; otherwise
# a side whose every move newly chases one and the same enemy piece commits perpetual chase; check ranks
# above chase; one side's forbidden perpetual loses, both sides' draw). This file decides such cycles (A),
# then marks the draws that a ruling might still change (B). "Chases" is ext/chase.pxi's chased_by_move,
# the definition the search and Position.outcome() use.
#
# A. The rulings, round k = 1, 2, ... (tb_gen.pxi's step 3), for each side S over the entries still
# undecided. A *kind* is a check (TB_KIND_CHECK) or a chase of a piece that is the opponent's only one of
# its type (bit 1 << type: the type names the piece in every entry, whereas the index may give two
# identical pieces each other's ids from one entry to the next; a chase of one of two identical pieces is
# never used). The greatest fixed point of
#   m(X) = AND, over the moves of S from X (S to move) that do not lead to a win of the opponent of a
#          lower order, of (the move's kinds & U(Y)); a capture has no kind
#   U(Y) = OR, over the opponent's replies from Y that capture nothing and do not check, into undecided
#          X', of m(X'); of its check bit only, when the reply chases something
# gives the positions lost now by the rulings: m(X) != 0. From such an X the opponent keeps one kind k of
# m(X) for ever: S's every move either loses otherwise or is of kind k (all checks, or all chases of the
# same piece) and leads where the opponent has such a reply, which never checks, and never chases when k
# is a chase. Whatever cycle then repeats, the judge rules S's perpetual and finds none of the
# opponent's: S loses. X becomes lost at (k, 0) with m(X) in its entry (tb_index.pxi); ordinary passes
# decide its predecessors. The fixed point is computed from above: a full pass with every U at its most
# (which leaves few candidates), then passes over the candidates with U computed afresh, until no mask
# falls. The rule is sound, not complete: a chaser against a chaser, a side that may alternate kinds, a
# chase of one of two identical pieces stay draws (part C marks them).

cdef void tb_init_kinds(TbGen* G) noexcept nogil:
    """The kinds each side may be ruled on (G.valid_kinds, G.only_piece; G.bound_kinds: part B), from the
    material."""
    cdef TbLayout* L = G.lay
    cdef int s, o, t, g
    cdef int counts[2][PIECE_TYPES]
    for s in range(2):
        for t in range(PIECE_TYPES):
            counts[s][t] = 0
        counts[s][ADVISOR] = L.advisors[s]
        counts[s][ELEPHANT] = L.elephants[s]
    for g in range(2, L.ngroups):
        counts[L.group_side[g]][L.group_type[g]] = L.group_count[g]
    for s in range(2):
        o = s ^ 1
        G.valid_kinds[s] = 0
        for t in range(HORSE, PIECE_TYPES):
            if counts[s][t]:
                G.valid_kinds[s] = TB_KIND_CHECK
        G.bound_kinds[s] = G.valid_kinds[s]
        for t in range(PIECE_TYPES):
            G.only_piece[s][t] = 0
            if t != KING and counts[o][t] == 1:
                G.only_piece[s][t] = side_tag(o) + SLOT_FIRST[t]
                G.valid_kinds[s] |= 1 << t
            if t != KING and counts[o][t]:
                G.bound_kinds[s] |= 1 << t


cdef inline bint undecided_at(int v, int order) noexcept nogil:
    """Undecided while round `order` is decided: unknown, or of an order not lower (pending)."""
    return v == TB_UNKNOWN or (tb_is_decided(v) and tb_order(v) >= order)


cdef inline bint opponent_win_before(int v, int order) noexcept nogil:
    """A win of the side to move there (the opponent) of an order lower than `order`."""
    return tb_is_decided(v) and (tb_distance(v) & 1) == 1 and tb_order(v) < order


cdef int move_kinds(TbGen* G, Pos* p, int move, bint chases) noexcept nogil:
    """The kinds of a quiet move of the side to move (played and taken back): TB_KIND_CHECK when it
    checks and, when `chases` is set, the bit of each only piece of its type that it newly chases."""
    cdef int mover = p.side
    cdef int kinds = 0, t
    cdef uint32_t chased = 0
    if chases:
        chased = chased_by_move(p, move)       # plays the move
    else:
        make_move(p, move)
    if gives_check(p):
        kinds = TB_KIND_CHECK
    unmake_move(p)
    if chased and G.relaxed:
        while chased:
            kinds |= 1 << PIECE_TYPE[first_piece(chased)]     # part B: any piece of the type
            chased &= chased - 1
    elif chased:
        for t in range(ADVISOR, PIECE_TYPES):
            if G.only_piece[mover][t] and (chased & piece_bit(G.only_piece[mover][t])):
                kinds |= 1 << t
    return kinds


cdef int reply_keeps(TbGen* G, Pos* p, int move, int kinds) noexcept nogil:
    """Of `kinds`, those a quiet reply of the winner keeps alive: none when it checks, only the check
    when it chases something (a chase breaks the other side's perpetual chase, not its check); all of
    them while the exposure bound is computed (part B)."""
    cdef uint32_t chased = 0
    if G.relaxed:
        return kinds
    if kinds & ~TB_KIND_CHECK:
        chased = chased_by_move(p, move)       # plays the move
    else:
        make_move(p, move)
    if gives_check(p):
        kinds = 0
    elif chased:
        kinds &= TB_KIND_CHECK
    unmake_move(p)
    return kinds


cdef int kinds_to_move(TbGen* G, Pos* p, int current, bint fresh) noexcept nogil:
    """m(X) of the position on the board (S to move, undecided), at most `current`; U of each successor
    computed from the masks as they stand (kinds_kept), or, unless `fresh`, taken at its most. The moves'
    legality is tested as they are read (the first move with no kind ends it)."""
    cdef LegalMoves lm
    cdef int move, acc = current
    cdef bint moved = False
    start_legal(p, &lm, False)
    move = next_legal(p, &lm)
    while move:
        if opponent_win_before(successor_value(G, p, move), G.order):
            move = next_legal(p, &lm)
            continue
        if p.board[move_to(move)]:
            return 0                           # a capture: an escape from every cycle
        if fresh:
            make_move(p, move)
            acc &= kinds_kept(G, p, acc)
            unmake_move(p)
        if acc:
            acc &= move_kinds(G, p, move, (acc & ~TB_KIND_CHECK) != 0)
        if acc == 0:
            return 0
        moved = True
        move = next_legal(p, &lm)
    return acc if moved else 0


cdef int kinds_kept(TbGen* G, Pos* p, int current) noexcept nogil:
    """U(Y) of the position on the board (the opponent of S to move), at most `current`, from the masks
    of S's entries as they stand."""
    cdef MoveList ml
    cdef int s = p.side ^ 1
    cdef int k, m, side, move, acc = 0
    cdef int64_t index
    gen_legal(p, &ml)
    for k in range(ml.count):
        move = ml.moves[k]
        if p.board[move_to(move)]:
            continue
        make_move(p, move)
        index = tb_index_of(G.lay, p, False, &side)
        m = G.kinds[s][index] & current & ~acc
        unmake_move(p)
        if m:
            acc |= reply_keeps(G, p, move, m)
            if acc == current:
                break
    return acc


cdef int64_t rules_top_range(TbGen* G, int s, int64_t first, int64_t end) noexcept nogil:
    """Step 1 of round G.order's fixed point for side s (G.kinds[s] allocated), over entries first .. end -
    1: m with every U at its most, the positions where every move S can play without losing is of one kind
    at least (a local test, which leaves few candidates). Each entry writes its own mask from the values
    alone, so threads can share the pass (tb_run_share); returns the candidates (masks not 0).

    The mask only grows from one round to the next (a move into a win of the opponent of the order before
    is left out now), and only where a successor changed: a quiet one that became such a win (TB_RULE_DIRTY,
    written by the passes from wins), or a capture into a sub-table value of that order (TB_RULE_CAPTURES).
    So with G.rule_bits, once a top has run for the side, an entry whose mask was 0 (no TB_RULE_TOP) and
    none of whose successors changed keeps 0 without being looked at."""
    cdef int valid = G.bound_kinds[s] if G.relaxed else G.valid_kinds[s]
    cdef int64_t index, candidates = 0
    cdef int bits
    cdef bint use_bits = G.rule_bits and not G.relaxed
    for index in range(first, end):
        G.kinds[s][index] = 0
        if use_bits:
            bits = G.candidates[s][index]
            if G.tops_known[s] and not bits & (TB_RULE_DIRTY | TB_RULE_TOP | TB_RULE_CAPTURES):
                continue
            G.candidates[s][index] = bits & ~(TB_RULE_DIRTY | TB_RULE_TOP)
        if undecided_at(G.values[s][index], G.order) and tb_decode(G.lay, index, G.pos):
            G.pos.side = s
            G.here = index
            G.here_mirrored = False
            G.kinds[s][index] = kinds_to_move(G, G.pos, valid, False)
            G.here = -1
            if G.kinds[s][index]:
                candidates += 1
                if use_bits:
                    G.candidates[s][index] |= TB_RULE_TOP
    return candidates


cdef int64_t rule_side(TbGen* G, int s, bint changed) noexcept nogil:
    """Round G.order's fixed point for side s after its step 1 (rules_top_range; `changed`: it left
    candidates); the positions it loses now become lost at (G.order, 0). Returns how many."""
    cdef int64_t index, found = 0
    cdef int v, new
    # 2. Passes over the candidates, each U computed from the masks as they stand, until none falls: the
    #    greatest fixed point (the masks only fall, from above it).
    while changed:
        changed = False
        for index in range(G.lay.size):
            if G.kinds[s][index]:
                tb_decode(G.lay, index, G.pos)
                G.pos.side = s
                G.here = index
                G.here_mirrored = False
                new = kinds_to_move(G, G.pos, G.kinds[s][index], True)
                G.here = -1
                if new != G.kinds[s][index]:
                    G.kinds[s][index] = new
                    changed = True
    # 3. The positions lost now.
    for index in range(G.lay.size):
        v = G.kinds[s][index]
        if v and G.values[s][index] == TB_UNKNOWN:
            tb_set(G, s, index, tb_ruled_now(G.order, v))
            found += 1
    return found


cdef inline bint rules_apply(TbGen* G, int s) noexcept nogil:
    """Whether round G.order decides a fixed point for side s: each side that can be ruled against, in
    turn (each one's entries decided at this round count as undecided for the other's fixed point, as
    they do for its own); only the exposed side while the exposure bound is computed."""
    return s == G.exposed_side if G.relaxed else G.valid_kinds[s] != 0


cdef bint ruled_now_holds(TbGen* G, Pos* p, int v) noexcept nogil:
    """The verifier's test of an entry lost now by a ruling (p: its position): for each kind k of its
    mask, every move of the side to move either leads to a win of the opponent of a lower order, or is a
    quiet move of kind k after which the opponent has a reply keeping k (reply_keeps) into an entry lost
    now by a ruling of the same order with k in its mask; and not every move is of the first sort (that
    would be a loss of a lower order)."""
    cdef MoveList ml, replies
    cdef int order = tb_order(v), mask = tb_ruled_kinds(v)
    cdef int s = p.side
    cdef int k, r, w, side, move, kept
    cdef bint regime = False
    cdef int64_t index
    if mask & ~G.valid_kinds[s]:
        return False
    gen_legal(p, &ml)
    for k in range(ml.count):
        move = ml.moves[k]
        if opponent_win_before(successor_value(G, p, move), order):
            continue
        if p.board[move_to(move)] or (mask & ~move_kinds(G, p, move, True)):
            return False
        regime = True
        make_move(p, move)
        gen_legal(p, &replies)
        kept = 0
        for r in range(replies.count):
            if p.board[move_to(replies.moves[r])]:
                continue
            make_move(p, replies.moves[r])
            index = tb_index_of(G.lay, p, False, &side)
            w = G.values[s][index]
            unmake_move(p)
            if tb_ruled_kinds(w) and tb_order(w) == order and (tb_ruled_kinds(w) & mask & ~kept):
                kept |= reply_keeps(G, p, replies.moves[r], tb_ruled_kinds(w) & mask & ~kept)
        unmake_move(p)
        if mask & ~kept:
            return False
    return regime


# B. The exposure bound: for a side S whose every possible kind is one (it cannot check, and the opponent
# has pieces of one chaseable type only; the defender of every one-attacker ending), which draws a ruling
# could ever turn against it. The rulings of part A run again, relaxed: a chase of any piece of the type
# counts, the opponent's replies may be anything but captures, and a capture into a sub-table draw where S
# might be ruled against counts as lost for S. What that decides (orders from bound_order on) is where S
# is *exposed*; the entries are then undecided again. Everywhere else S is safe: the opponent cannot even
# force S to play only moves of its kind in one stretch for ever, so S has a strategy (to a move not of
# its kind, by an attractor whose rank falls at each of its moves) under which no position repeats
# without such a move between: no repetition cycle is all of its kind, and the judge never rules against
# S. With two kinds or more this argument fails (S might have to alternate kinds, and a cycle's span may
# catch two repetitions of one), and part C's marks stay as they are for such a side.

cdef enum:
    EXPOSED = 0x10           # << side, in G.safe: the bound finds the side exposed (kept through part C)


cdef inline bint bound_applies(TbGen* G, int s) noexcept nogil:
    """Whether the exposure bound is computed for side s: it has exactly one kind."""
    return G.bound_kinds[s] != 0 and (G.bound_kinds[s] & (G.bound_kinds[s] - 1)) == 0


cdef int exposed_capture_value(TbGen* G, Pos* p, TbSub* S, int v) noexcept nogil:
    """While the bound is computed: a sub-table draw (v) where the exposed side is not safe by the sub-table's
    mark, as a loss for that side (a loss when it is to move, a win for its opponent otherwise)."""
    cdef int safe = draw_safety(v)
    if safe < 0:
        return v
    if S.flip:
        safe = ((safe & 1) << 1) | (safe >> 1)        # the sub-table's colours are the board's swapped
    if safe & (1 << G.exposed_side):
        return v
    return tb_value_of(G.bound_order, 2 if p.side == G.exposed_side else 1)


cdef int64_t tb_bound_start(TbGen* G) noexcept nogil:
    """The bound's first step (G.order = G.bound_order): the undecided entries that the sub-table draws
    where the exposed side is not safe decide by one ply of minimax; returns how many."""
    cdef int64_t index, found = 0
    cdef int s, v
    cdef bint decoded
    for index in range(G.lay.size):
        decoded = False
        for s in range(2):
            if G.values[s][index] != TB_UNKNOWN:
                continue
            if not decoded:
                tb_decode(G.lay, index, G.pos)
                decoded = True
            G.pos.side = s
            v = minimax_value(G, G.pos)
            if v != TB_UNKNOWN:
                tb_set(G, s, index, v)
                found += 1
    return found


cdef int64_t tb_bound_finish(TbGen* G, bint everything) noexcept nogil:
    """The entries the bound decided (or, with `everything`, all undecided ones) undecided again and
    marked exposed for the exposed side in G.safe; returns how many."""
    cdef int64_t index, exposed = 0
    cdef int s, v
    for s in range(2):
        for index in range(G.lay.size):
            v = G.values[s][index]
            if v == TB_UNKNOWN and everything or tb_is_decided(v) and tb_order(v) >= G.bound_order:
                G.values[s][index] = TB_UNKNOWN
                G.safe[s][index] |= EXPOSED << G.exposed_side
                exposed += 1
    for s in range(G.bound_order, TB_MAX_ORDER + 1):
        G.max_distance[s] = -1
    return exposed


# C. The draws a ruling might still change: each is marked with the sides that might be forced into a
# perpetual: TB_DRAW stays where neither can be, TB_DRAW_RULES | 1 (Red) | 2 (Black) elsewhere. A sound
# over-approximation. A side is marked when it is not safe by the rule below and, if part B applies to
# it, exposed; a side with no kind at all (it can neither check nor chase) is never marked.
#
# A side is *safe* at a drawn position when it can hold the draw without ever checking or chasing:
#   - to move: it has a move into a draw where it is still safe that is a capture (a capture ends every
#     cycle) or a quiet move that neither checks nor chases anything;
#   - not to move: every move of the opponent into a draw leads to a draw where it is still safe.
# The safe sets are the greatest fixed point, computed by a full pass and then passes over the
# predecessors (by un-moves) of the entries that lost a side. A side safe at a draw can play on without
# a check or a chase whatever the other does, so no cycle can be ruled a loss for it. A draw of a
# sub-table counts as safe for the sides its own mark calls safe.

cdef enum:
    SAFE_BOTH = 3            # bit 1 << side: that side is (still) safe
    SAFE_CHANGED = 4         # lost a side in this round
    SAFE_FRONTIER = 8        # lost a side in the previous round
    SAFE_RECHECK = 0x40      # the mover's side to be looked at again after this pass (safety_visit)
    SAFETY_FIRST = 0         # the kinds of the safe sides' passes (safety_range)
    SAFETY_FRONTIER = 1
    SAFETY_RECHECK = 2


# A draw's mover keeps its side by one move that holds; while that move's successor stays safe for it,
# nothing else can take its side, so a successor that loses the mover's side sends the entry to be looked
# at again only when it is that one (G.holds, safety_visit): the successor's watch_of, a hash of its entry
# (another may share it, which only costs a look), or HOLDS_BY_CAPTURE (a sub-table's draw, which no pass
# changes); HOLDS_UNKNOWN where none was recorded (a generation resumed from a save).
cdef enum:
    HOLDS_UNKNOWN = 0
    HOLDS_BY_CAPTURE = 255


cdef inline int watch_of(int64_t index) noexcept nogil:
    """An entry's watch: 1 .. 254."""
    return 1 + <int>(((<uint64_t>index * <uint64_t>0x9E3779B97F4A7C15) >> 32) % 254)


cdef inline void record_holder(TbGen* G, int s, int64_t index) noexcept nogil:
    """The mover of a draw holds by the successor mover_holds or first_safety last read (G.successor)."""
    G.holds[s][index] = watch_of(G.successor) if G.successor >= 0 else HOLDS_BY_CAPTURE


cdef inline int draw_safety(int v) noexcept nogil:
    """The safe sides of an entry value, -1 when it is not a draw."""
    if v == TB_DRAW:
        return SAFE_BOTH
    if (v & ~SAFE_BOTH) == TB_DRAW_RULES:
        return SAFE_BOTH & ~(v & SAFE_BOTH)
    return -1


cdef int successor_safety(TbGen* G, Pos* p, int move, int captured) noexcept nogil:
    """The safe sides (board colours) of the position just reached by `move`, -1 when it is not a draw."""
    cdef int v, side, safe
    cdef int64_t index
    G.successor = -1
    if captured:
        v = capture_value(G, p, captured)
        safe = draw_safety(v)
        if safe > 0 and G.sub[piece_side(captured)][PIECE_TYPE[captured]].flip:
            safe = ((safe & 1) << 1) | (safe >> 1)        # the sub-table's colours are the board's swapped
        return safe
    index = successor_entry(G, p, p.board[move_to(move)])
    if index < 0:
        return -1
    G.successor = index
    side = p.side
    if G.safe[0] == NULL:
        return draw_safety(G.values[side][index])       # the marks as stored (the verifier)
    if G.values[side][index] != TB_DRAW:
        return -1
    return G.safe[side][index] & SAFE_BOTH


cdef bint holds_quietly(Pos* p, int move) noexcept nogil:
    """Whether a legal move is a capture (which ends every cycle) or neither a check nor a chase."""
    cdef bint quiet
    if p.board[move_to(move)]:
        return True
    quiet = chased_by_move(p, move) == 0      # plays the move
    quiet = quiet and not gives_check(p)
    unmake_move(p)
    return quiet


cdef int safety_of(TbGen* G, Pos* p) noexcept nogil:
    """The sides safe at the drawn position on the board by the rule above, from its successors' marks as
    stored (the verifier's test). The chase test, the costly part, runs only on the moves into draws safe
    for the mover, until one holds quietly: at once when the other side is no longer safe, else once every
    move is read."""
    cdef MoveList ml
    cdef int candidates[MAX_MOVES]
    cdef int s = p.side
    cdef int mover_bit = 1 << s, other_bit = 1 << (s ^ 1)
    cdef int k, n = 0, move, captured, after
    gen_legal(p, &ml)
    # 1. The successors' marks: the other side must be safe after every move into a draw.
    for k in range(ml.count):
        move = ml.moves[k]
        captured = p.board[move_to(move)]
        make_move(p, move)
        after = successor_safety(G, p, move, captured)
        unmake_move(p)
        if after < 0:
            continue
        if not (after & other_bit):
            other_bit = 0
        if after & mover_bit:
            if other_bit == 0:
                if holds_quietly(p, move):
                    return mover_bit
            else:
                candidates[n] = move
                n += 1
    # 2. The mover needs one of those moves to hold quietly.
    for k in range(n):
        if holds_quietly(p, candidates[k]):
            return mover_bit | other_bit
    return other_bit


cdef bint mover_holds(TbGen* G, Pos* p, bint quiet_only) noexcept nogil:
    """Whether the side to move at the drawn position on the board has a legal move (a quiet one, when
    `quiet_only`) into a draw safe for it that holds quietly: its moves read until one does, the chase
    test (the costly part) only on those into such draws."""
    cdef LegalMoves lm
    cdef int mover_bit = 1 << p.side
    cdef int k, move, captured, after
    start_legal(p, &lm, False)
    for k in range(lm.pseudo.count):
        move = lm.pseudo.moves[k]
        if quiet_only and p.board[move_to(move)]:
            continue
        if not is_legal(p, move, lm.in_check, lm.king_sq):
            continue
        captured = tb_play(p, move)
        after = successor_safety(G, p, move, captured)
        tb_take_back(p, move, captured)
        if after >= 0 and (after & mover_bit) and holds_quietly(p, move):
            return True
    return False


cdef int first_safety(TbGen* G, Pos* p) noexcept nogil:
    """The safe sides of the drawn position on the board in the first of the safe sides' passes, where a
    quiet move's successor counts as still safe for the other side: the other side loses its side only by
    a capture into a sub-table draw unsafe for it, and the mover keeps its side by one move that holds
    (mover_holds). A successor that loses the other's side in this pass is in the next pass's frontier,
    whose visits test this entry again (safety_visit)."""
    cdef LegalMoves lm
    cdef int mover_bit = 1 << p.side, other_bit = 1 << (p.side ^ 1)
    cdef int safe = other_bit, move, captured, after
    start_legal(p, &lm, True)
    move = next_legal(p, &lm)
    while move:
        captured = tb_play(p, move)
        after = successor_safety(G, p, move, captured)
        tb_take_back(p, move, captured)
        if after >= 0:
            safe &= after | mover_bit
            safe |= after & mover_bit       # held by a capture: G.successor is -1 (record_holder)
        move = next_legal(p, &lm)
    if not (safe & mover_bit) and mover_holds(G, p, True):
        safe |= mover_bit
    return safe


cdef extern from *:
    """
    /* A byte's bits cleared or set at once, so that threads marking the same entry lose no mark. */
    static inline void tb_clear_bits(unsigned char* byte, unsigned char bits) {
        __atomic_fetch_and(byte, (unsigned char)~bits, __ATOMIC_RELAXED);
    }
    static inline void tb_set_bits(unsigned char* byte, unsigned char bits) {
        __atomic_fetch_or(byte, bits, __ATOMIC_RELAXED);
    }
    """
    void tb_clear_bits(uint8_t* byte, uint8_t bits) nogil
    void tb_set_bits(uint8_t* byte, uint8_t bits) nogil


cdef inline void clear_safety(TbGen* G, int s, int64_t index, int lost) noexcept nogil:
    """Take the sides `lost` from a draw's safe sides (side s to move) and flag the change. The passes that
    call it may be shared by threads (safety_range): an entry is only ever cleared of sides, and its bits
    are changed at once, so what two threads take from one entry is taken."""
    if lost:
        tb_clear_bits(&G.safe[s][index], lost)
        tb_set_bits(&G.safe[s][index], SAFE_CHANGED)


cdef void safety_visit(TbGen* G, int u, int64_t j) noexcept nogil:
    """A predecessor (on the board, side u to move) of a draw that lost a side, whose safe sides are now
    G.unmoved_safe. Only what that successor decides is tested again: the other side, safe only if every
    move into a draw keeps it safe, loses its side at once; the mover, if the successor is no longer safe
    for it, needs another move that holds: looked for once after the pass (SAFETY_RECHECK), however many
    successors the pass reaches it from."""
    cdef int lost
    if G.values[u][j] != TB_DRAW:
        return
    lost = G.safe[u][j] & SAFE_BOTH & ~G.unmoved_safe
    if lost & (1 << u) and (G.holds[u][j] == HOLDS_UNKNOWN or G.holds[u][j] == G.unmoved_watch):
        tb_set_bits(&G.safe[u][j], SAFE_RECHECK)
    clear_safety(G, u, j, lost & (1 << (u ^ 1)))


cdef inline int marked_sides(TbGen* G, int unsafe, int safe_bits) noexcept nogil:
    """Of the sides not safe by the rule above, those a ruling might still turn the draw against."""
    cdef int s, marked = 0
    for s in range(2):
        if (unsafe & (1 << s)) and G.bound_kinds[s] and (not bound_applies(G, s) or (safe_bits & (EXPOSED << s))):
            marked |= 1 << s
    return marked


cdef void tb_safety_start(TbGen* G) noexcept nogil:
    """Before the safe sides' passes (G.safe allocated, holding part B's EXPOSED bits): every draw safe for
    both sides."""
    cdef int64_t index
    cdef int s
    for s in range(2):
        for index in range(G.lay.size):
            G.safe[s][index] = (G.safe[s][index] & (EXPOSED | EXPOSED << 1)) | (
                SAFE_BOTH if G.values[s][index] == TB_DRAW else 0)


cdef inline int64_t next_safety_entry(TbGen* G, int kind, int64_t index, int64_t end) noexcept nogil:
    """The next entry a pass of the safe sides of this kind looks at (safety_range), from `index` on."""
    if kind == SAFETY_FIRST:
        return next_with_value(G.values, TB_DRAW, index, end)
    return next_with_bits(G.safe, SAFE_FRONTIER if kind == SAFETY_FRONTIER else SAFE_RECHECK, index, end)


cdef int64_t safety_range(TbGen* G, int kind, int64_t first, int64_t end) noexcept nogil:
    """One pass of the safe sides over entries first .. end - 1: every draw's (SAFETY_FIRST), the
    predecessors of the frontier's (SAFETY_FRONTIER: the entries that lost a side in the round before), or
    the movers those left to look at again (SAFETY_RECHECK). The greatest fixed point the passes reach does
    not depend on the order in which entries are looked at, so a pass can be shared by threads
    (tb_run_share); returns 0."""
    cdef int64_t index
    cdef int s, safe
    cdef bint decoded
    index = next_safety_entry(G, kind, first, end)
    while index < end:
        if kind == SAFETY_FRONTIER:
            for s in range(2):
                if G.safe[s][index] & SAFE_FRONTIER:
                    G.unmoved_safe = G.safe[s][index] & SAFE_BOTH
                    G.unmoved_watch = watch_of(index)
                    tb_decode(G.lay, index, G.pos)
                    unmove_entry(G, index, s, 0, TB_VISIT_SAFETY)
        elif kind == SAFETY_RECHECK:
            decoded = False
            for s in range(2):
                if not (G.safe[s][index] & SAFE_RECHECK):
                    continue
                tb_clear_bits(&G.safe[s][index], SAFE_RECHECK)
                if not (G.safe[s][index] & (1 << s)):
                    continue
                if not decoded:
                    tb_decode(G.lay, index, G.pos)
                    decoded = True
                G.pos.side = s
                G.here = index
                G.here_mirrored = False
                if mover_holds(G, G.pos, False):
                    record_holder(G, s, index)
                else:
                    clear_safety(G, s, index, 1 << s)
                G.here = -1
        elif tb_decode(G.lay, index, G.pos):
            G.here = index
            G.here_mirrored = False
            for s in range(2):
                if G.values[s][index] == TB_DRAW:
                    G.pos.side = s
                    safe = first_safety(G, G.pos)
                    if safe & (1 << s):
                        record_holder(G, s, index)
                    clear_safety(G, s, index, SAFE_BOTH & ~safe)
            G.here = -1
        index = next_safety_entry(G, kind, index + 1, end)
    return 0


cdef int64_t tb_safety_round(TbGen* G) noexcept nogil:
    """Between the passes: the entries that lost a side in the last one become the frontier; returns how
    many (none: the fixed point is reached)."""
    cdef int64_t index, changed = 0
    cdef int s
    for s in range(2):
        for index in range(G.lay.size):
            G.safe[s][index] &= ~SAFE_FRONTIER
            if G.safe[s][index] & SAFE_CHANGED:
                G.safe[s][index] = (G.safe[s][index] & ~SAFE_CHANGED) | SAFE_FRONTIER
                changed += 1
    return changed


cdef int64_t tb_flag_rule_draws(TbGen* G) noexcept nogil:
    """After the safe sides' passes: mark the draws the rules might change; returns how many."""
    cdef int64_t index, flagged = 0
    cdef int s, marked
    for s in range(2):
        for index in range(G.lay.size):
            if G.values[s][index] == TB_DRAW:
                marked = marked_sides(G, SAFE_BOTH & ~G.safe[s][index], G.safe[s][index])
                if marked:
                    G.values[s][index] = TB_DRAW_RULES | marked
                    flagged += 1
    return flagged


# D. The verifier's view of the marks. A side that part B does not apply to and that a draw's mark calls
# safe must be safe by the rule of part C, by its successors' marks (draw_holds). For a side part B
# applies to, the draws its marks call safe must form a region where it can always reach a move not of
# its kind (tb_verify_bound): an attractor computed afresh, by un-moves, over the stored marks.

cdef inline int locally_checked(TbGen* G) noexcept nogil:
    """The sides whose marks the rule of part C checks entry by entry."""
    cdef int s, sides = 0
    for s in range(2):
        if G.bound_kinds[s] and not bound_applies(G, s):
            sides |= 1 << s
    return sides


cdef enum:
    BOUND_SAFE = 1           # in G.kinds while the bound is verified: a draw where the side is called safe
    BOUND_REACHED = 2        # it can reach a move not of its kind from there
    BOUND_CHANGED = 4


cdef inline bint called_safe(int v, int s) noexcept nogil:
    return draw_safety(v) >= 0 and (draw_safety(v) & (1 << s)) != 0


cdef int successor_for(TbGen* G, Pos* p, int move, int s, int64_t* index_out) noexcept nogil:
    """Where a move leads, for side s: 1 a position fine for s (a capture into a sub-table draw where s is
    safe, or a win of s), 0 a quiet move into an entry of this table (index_out), -1 anything else."""
    cdef int captured = p.board[move_to(move)]
    cdef int v, side, safe
    cdef int to_move
    make_move(p, move)
    if captured:
        safe = successor_safety(G, p, move, captured)
        v = capture_value(G, p, captured)
        to_move = p.side
        unmake_move(p)
        if safe >= 0:
            return 1 if safe & (1 << s) else -1
        if tb_is_decided(v) and ((tb_distance(v) & 1) == 1) == (to_move == s):
            return 1                                  # a win of s
        return -1
    index_out[0] = tb_index_of(G.lay, p, False, &side)
    unmake_move(p)
    return 0


cdef bint bound_reached(TbGen* G, Pos* p, int s) noexcept nogil:
    """Whether the called-safe position on the board (marked BOUND_SAFE) reaches: s to move, a move not of
    its kind into a called-safe draw, or any move into a reached one; the opponent to move, every move
    into a reached draw, a win of s, or a capture into a sub-table draw safe for s."""
    cdef MoveList ml
    cdef int k, move, there, o = s ^ 1
    cdef int64_t index
    gen_legal(p, &ml)
    for k in range(ml.count):
        move = ml.moves[k]
        there = successor_for(G, p, move, s, &index)
        if p.side == s:
            if there == 1:
                return True
            if there == 0 and (G.kinds[o][index] & BOUND_REACHED):
                return True
            if there == 0 and (G.kinds[o][index] & BOUND_SAFE):
                G.relaxed = True
                there = move_kinds(G, p, move, True) & G.bound_kinds[s]
                G.relaxed = False
                if there == 0:
                    return True
        elif there == -1 or (there == 0 and not (G.kinds[s][index] & BOUND_REACHED)
                                 and not (tb_is_decided(G.values[s][index])
                                          and tb_distance(G.values[s][index]) & 1)):
            return False
    return p.side != s


cdef void bound_visit(TbGen* G, int u, int64_t j) noexcept nogil:
    """A predecessor (on the board, side u to move) of an entry newly reached."""
    if (G.kinds[u][j] & (BOUND_SAFE | BOUND_REACHED)) == BOUND_SAFE and bound_reached(G, G.pos, G.exposed_side):
        G.kinds[u][j] |= BOUND_REACHED | BOUND_CHANGED


cdef int64_t tb_verify_bound(TbGen* G, int s, int64_t* bad_index, int* bad_side) noexcept nogil:
    """The draws called safe for side s (part B applies to it) against the attractor (G.kinds allocated,
    G.safe NULL); returns those it does not reach."""
    cdef int64_t index, bad = 0, changed = 1
    cdef int side
    G.exposed_side = s
    for side in range(2):
        for index in range(G.lay.size):
            G.kinds[side][index] = BOUND_SAFE if called_safe(G.values[side][index], s) else 0
    for index in range(G.lay.size):
        if (G.kinds[0][index] or G.kinds[1][index]) and tb_decode(G.lay, index, G.pos):
            for side in range(2):
                G.pos.side = side
                if G.kinds[side][index] and bound_reached(G, G.pos, s):
                    G.kinds[side][index] |= BOUND_REACHED | BOUND_CHANGED
    while changed:
        changed = 0
        for index in range(G.lay.size):
            for side in range(2):
                if G.kinds[side][index] & BOUND_CHANGED:
                    G.kinds[side][index] &= ~BOUND_CHANGED
                    tb_decode(G.lay, index, G.pos)
                    unmove_entry(G, index, side, 0, TB_VISIT_BOUND)
                    changed += 1
    for side in range(2):
        for index in range(G.lay.size):
            if G.kinds[side][index] == BOUND_SAFE:
                bad += 1
                bad_index[0] = index
                bad_side[0] = side
    return bad

# The search: iterative deepening with aspiration windows over a principal-variation alpha-beta search,
# quiescence, null move, ProbCut, late move reductions, check and singular extensions, mate distance
# pruning, the rules (repetition rulings, the natural limit) applied at every node, and the endgame
# tables probed after captures (tb_probe.pxi). Its numbers are the tuning parameters of params.pxi. The
# root's moves are a list (RootMove) holding what the search found for each; MultiPV searches its lines
# one after another in it. Several workers may search the same root at once, sharing the transposition
# table (tt.pxi; Lazy SMP); each orders its moves with its own killers and histories (movepick.pxi) and
# corrects its static evaluations with its own correction history (correction.pxi).

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.math cimport log

cdef extern from *:
    """
    static inline int jj_load_int(int *p) { return *(volatile int *)p; }
    static inline void jj_store_int(int *p, int v) { *(volatile int *)p = v; }
    """
    int jj_load_int(int* p) nogil
    void jj_store_int(int* p, int v) nogil

cdef enum:
    MAX_QUIETS = 64               # quiet moves (and, apart, captures) of a node remembered for the history malus
    RESCUE_NODES = 200000         # nodes for finishing depth 1 after a stop (Searcher.search): ~0.2 s at most
    LMR_SIZE = 64                 # depths and move numbers of the reduction table (larger ones read its last)
    POLL_MASK = 1023              # the main worker polls its limits when its node count & this is 0
    NS_PER_SECOND = 1000000000
    NS_PER_MS = 1000000
    MS_PER_SECOND = 1000
    MULTI_CUT = 100               # singular_extension's answer when the node fails high on two moves
    TB_EXTRA_DEPTH = 6            # a table's result is stored this much deeper than its node (Stockfish's)


cdef struct RootMove:
    # A move of the root, with what the search found for it (Stockfish's RootMove).
    int move
    int score                # in the search at the root under way: the score with which the move raised
                             # alpha (a lower bound when it failed high), -VALUE_INF when it did not
    int previous_score       # its score at the end of the previous iteration
    int seldepth             # the selective depth reached when its score was found
    uint64_t effort          # the nodes this worker searched below the move, in all iterations so far
    int pv_len               # its principal variation, the move itself first
    int pv[MAX_PLY + 2]


cdef struct Shared:
    TranspositionTable tt
    int stop                 # set to end the search (read with jj_load_int)
    int64_t soft_ns          # absolute deadlines (0: none); the soft one is checked between iterations
    int64_t hard_ns
    int64_t armed_ns         # when the deadlines were set
    uint64_t node_limit      # 0: none
    int depth_limit
    # The report of each root move the main worker starts on (Searcher.search's on_root_move, a
    # Python callable), from root_report_ns on (0: no reports).
    int64_t root_report_ns
    void* on_root_move
    # The endgame tables probed below the root (tb_probe.pxi; NULL: none) from this depth on.
    TbStore* tables
    int tb_probe_depth


cdef struct Worker:
    Pos pos
    Shared* shared
    bint is_main
    int root_ply
    uint64_t nodes
    uint64_t qnodes          # of `nodes`, those of quiescence (Searcher.quiescence_nodes)
    uint64_t tbhits          # the probes of the endgame tables that gave a value
    int seldepth
    OrderingTables ordering
    CorrectionHistory correction
    int static_evals[MAX_PLY + 2]
    int continuations[MAX_PLY + 2]   # the continuation key of the move made at each ply (movepick.pxi)
    int singular_excluded[MAX_PLY + 2]  # the move a singular-extension search leaves out at a ply (0: none)
    int double_extensions[MAX_PLY + 2]  # the double extensions on the line from the root to a ply
    int pv[MAX_PLY + 2][MAX_PLY + 2]
    int pv_len[MAX_PLY + 2]
    # The root moves (searchmoves and banmoves applied), the lines already found first: MultiPV searches
    # line `pv_index` among root_moves[pv_index:root_count].
    RootMove root_moves[MAX_MOVES]
    int root_count
    int pv_index
    # How often another root move than the first searched became the best of line 1 (Stockfish's
    # bestMoveChanges): the time manager's measure of instability, read and reset between iterations.
    int best_move_changes
    int completed_depth
    RootMove completed_best  # a helper's best root move at the end of its last completed iteration
    int root_depth           # the depth of the iteration being searched
    bint use_nnue            # evaluate with `net` and the accumulators below, not the hand-crafted evaluation
    NnueNetwork net          # the network of this search (a copy of the loaded one's struct; nnue.pxi)
    AccumulatorStack acc     # its accumulators along the search path


cdef int LMR_TABLE[LMR_SIZE][LMR_SIZE]      # [depth][move number]: derived from lmr_base and lmr_scale


cdef void init_reduction_table() noexcept nogil:
    """LMR_TABLE[d][m] = lmr_base + ln(d) ln(m) lmr_scale (both per mille), rounded down; 0 for d or m 0."""
    cdef int d, m
    cdef double base = param[LMR_BASE] / <double>PER_MILLE, scale = param[LMR_SCALE] / <double>PER_MILLE
    for d in range(LMR_SIZE):
        for m in range(LMR_SIZE):
            LMR_TABLE[d][m] = 0 if d == 0 or m == 0 else <int>(base + log(d) * log(m) * scale)


cdef inline int reduction(int depth, int move_number) noexcept nogil:
    """The late move reduction of the move_number-th move of a node of `depth`, before the adjustments
    of late_move_reduction."""
    if depth >= LMR_SIZE:
        depth = LMR_SIZE - 1
    if move_number >= LMR_SIZE:
        move_number = LMR_SIZE - 1
    return LMR_TABLE[depth][move_number]


cdef inline int64_t now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * NS_PER_SECOND + ts.tv_nsec


cdef inline bint stopped(Worker* w) noexcept nogil:
    return jj_load_int(&w.shared.stop) != 0


cdef void poll(Worker* w) noexcept nogil:
    """Every POLL_MASK + 1 nodes the main worker checks the hard deadline and the node limit. They apply
    to depth 1 too: its tree is mostly quiescence, which a few positions blow up into millions of nodes
    (checks, evasions and captures in long chains), and a search that could not stop there would hang
    the engine. The searcher has its own way to a move when depth 1 is cut short (Searcher._rescue)."""
    cdef Shared* sh = w.shared
    if not w.is_main or (w.nodes & POLL_MASK) != 0:
        return
    if (sh.hard_ns and now_ns() >= sh.hard_ns) or (sh.node_limit and w.nodes >= sh.node_limit):
        jj_store_int(&sh.stop, 1)


cdef void report_root_move(Worker* w, int move, int number) noexcept nogil:
    """Tell on_root_move (Searcher.search) that the main worker starts on root move `move`, the number-th
    of the iteration, once the search has run until root_report_ns. The only place the search takes the
    GIL: once per root move, and only then; what the callback raises is ignored."""
    if now_ns() < w.shared.root_report_ns:
        return
    with gil:
        try:
            (<object>w.shared.on_root_move)(w.root_depth, move_to_iccs(move), number)
        except Exception:
            pass


cdef inline int evaluate_node(Worker* w, int ply) noexcept nogil:
    """The static evaluation of the node at search ply `ply`: the network's when this search uses it
    (the accumulators are brought up to date from the moves noted on the way), else the hand-crafted one."""
    if w.use_nnue:
        return clamp_to_eval_range(nnue_evaluate_ply(&w.acc, &w.net, &w.pos, w.root_ply, ply))
    return evaluate(&w.pos)


cdef inline int earlier_move(Worker* w, int ply, int back) noexcept nogil:
    """The continuation key of the move made `back` plies before this node, NO_CONTINUATION before the
    root or for a null move."""
    return w.continuations[ply - back] if ply >= back else NO_CONTINUATION


cdef bint has_big_pieces(Pos* p, int side) noexcept nogil:
    """Whether the side has a chariot, horse or cannon (null move is unsafe without one: zugzwang)."""
    cdef int tag = side_tag(side)
    cdef int piece
    for piece in range(tag + SLOT_FIRST[HORSE], tag + SLOT_FIRST[PAWN]):
        if p.square[piece]:
            return True
    return False


cdef bint rules_end(Worker* w, int ply, int* score) noexcept nogil:
    """The rules at a node below the root: the natural limit and repetitions.

    A repetition is final when the earlier occurrence lies inside the search tree, or when the position
    now occurs for the third time (repetition_start). It is then scored by the rulings: a draw, or a
    loss for a side committing a forbidden perpetual.
    """
    cdef Pos* p = &w.pos
    cdef int first, winner
    if p.hist[p.ply].rule60 >= NATURAL_LIMIT:
        score[0] = VALUE_DRAW if has_legal_move(p, p.hist[p.ply].in_check) else mated_in(ply)
        return True
    first = repetition_start(p, w.root_ply)
    if first < 0:
        return False
    if judge_cycle(p, first, &winner) == REPETITION:
        score[0] = VALUE_DRAW
    else:
        score[0] = mate_in(ply) if winner == p.side else mated_in(ply)
    return True


cdef void add_root_move(Worker* w, int move) noexcept nogil:
    """Append `move` to the root moves, nothing known of it yet."""
    cdef RootMove* rm = &w.root_moves[w.root_count]
    rm.move = move
    rm.score = rm.previous_score = -VALUE_INF
    rm.seldepth = 0
    rm.effort = 0
    rm.pv_len = 1
    rm.pv[0] = move
    w.root_count += 1


cdef RootMove* find_root_move(Worker* w, int move) noexcept nogil:
    """The root move `move` among those of the line being searched, NULL when it is not one of them."""
    cdef int i
    for i in range(w.pv_index, w.root_count):
        if w.root_moves[i].move == move:
            return &w.root_moves[i]
    return NULL


cdef void keep_line_moves(Worker* w, MoveList* ml) noexcept nogil:
    """At the root: keep in ml (in its order) only the root moves of the line being searched."""
    cdef int i, n = 0
    for i in range(ml.count):
        if find_root_move(w, ml.moves[i]) != NULL:
            ml.moves[n] = ml.moves[i]
            n += 1
    ml.count = n


cdef void clear_line_scores(Worker* w) noexcept nogil:
    """Before a search at the root: no root move of the line being searched has raised alpha yet."""
    cdef int i
    for i in range(w.pv_index, w.root_count):
        w.root_moves[i].score = -VALUE_INF


cdef void note_root_move(Worker* w, int move, int score, int searched) noexcept nogil:
    """A root move, the `searched`th of its search, raised alpha with `score`: its score, selective depth
    and principal variation (the move, then its child's); a change of line 1's best move is counted."""
    cdef RootMove* rm = find_root_move(w, move)
    cdef int k
    if searched > 1 and w.pv_index == 0:
        w.best_move_changes += 1
    rm.score = score
    rm.seldepth = w.seldepth
    rm.pv_len = w.pv_len[1] + 1
    for k in range(w.pv_len[1]):
        rm.pv[k + 1] = w.pv[1][k]


cdef void sort_root_moves(Worker* w, int first, int last) noexcept nogil:
    """Sort root_moves[first:last] by score, best first, keeping the order of equal scores (insertion)."""
    cdef int i, j
    cdef RootMove moving
    for i in range(first + 1, last):
        if w.root_moves[i].score <= w.root_moves[i - 1].score:
            continue
        moving = w.root_moves[i]
        j = i
        while j > first and w.root_moves[j - 1].score < moving.score:
            w.root_moves[j] = w.root_moves[j - 1]
            j -= 1
        w.root_moves[j] = moving


cdef int qsearch(Worker* w, int alpha, int beta, int ply) noexcept nogil:
    """Quiescence: captures that do not lose material (all evasions when in check), with stand pat.

    Captures that cannot bring the score up to alpha even with a margin (futility) are skipped unless
    they give check; once an evasion has been found that is not mated, at most qs_quiet_evasions quiet
    evasions more are tried: long chains of checks and evasions are what blows quiescence up. The result
    goes into the table at depth 0, where it never replaces a deeper result of the same search (of this
    position or another)."""
    cdef Pos* p = &w.pos
    cdef MoveList ml
    cdef int scores[MAX_MOVES]
    cdef int i, move, score, best, tt_move = 0, best_move = 0, futility_base = -VALUE_INF, victim
    cdef int original_alpha = alpha, quiet_evasions = 0, futility_value
    cdef bint in_check = p.hist[p.ply].in_check
    cdef uint64_t key = p.hist[p.ply].key
    cdef TTEntry* tte
    w.nodes += 1
    w.qnodes += 1
    w.pv_len[ply] = 0            # quiescence moves are not part of the principal variation
    poll(w)
    if stopped(w):
        return 0
    if ply > w.seldepth:
        w.seldepth = ply
    if ply >= MAX_PLY:
        return evaluate_node(w, ply)
    # The rules, where a cycle can close: a line of quiescence can repeat only through checks (an
    # evasion that gives check in turn, as the cannons' screens allow), every other move is a capture.
    if in_check and rules_end(w, ply, &score):
        return score
    # The table: any stored result is at least as deep as quiescence.
    tte = tt_probe(&w.shared.tt, key)
    if tte != NULL:
        tt_move = tte.move
        score = limit_table_score(score_from_tt(tte.score, ply), p.hist[p.ply].rule60)
        if (tte.bound == BOUND_EXACT or (tte.bound == BOUND_LOWER and score >= beta)
                or (tte.bound == BOUND_UPPER and score <= alpha)):
            return score
    if in_check:
        gen_legal_moves(p, &ml, False, True)
        if ml.count == 0:
            return mated_in(ply)
        best = -VALUE_INF
    else:
        if not has_big_pieces(p, p.side) and not has_legal_move(p, False):
            return mated_in(ply)      # stalemate (see search)
        best = corrected_eval(&w.correction, p, evaluate_node(w, ply))
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
        futility_base = best + param[QS_FUTILITY_MARGIN]
        gen_legal_moves(p, &ml, True, False)
    score_moves(&w.ordering, p, &ml, scores, tt_move, ply, earlier_move(w, ply, 1), earlier_move(w, ply, 2))
    for i in range(ml.count):
        move = pick_move(&ml, scores, i)
        victim = p.board[move_to(move)]
        if in_check:
            if victim == 0 and best > -VALUE_MATE_IN_MAX:
                if quiet_evasions >= param[QS_QUIET_EVASIONS]:
                    continue
                quiet_evasions += 1
        elif scores[i] < 0:
            break        # the bad captures come last
        w.continuations[ply] = continuation_key(p, move)
        note_move(&w.acc, ply + 1, p, move)
        make_move(p, move)
        tt_prefetch(&w.shared.tt, p.hist[p.ply].key)
        update_rule_state(p)
        futility_value = futility_base + SEE_VALUE[PIECE_TYPE[victim]]
        if not in_check and not p.hist[p.ply].in_check and futility_value <= alpha:
            unmake_move(p)
            if futility_value > best:
                best = futility_value
            continue
        score = -qsearch(w, -beta, -alpha, ply + 1)
        unmake_move(p)
        if stopped(w):
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = move
                if score >= beta:
                    break
    tt_store(&w.shared.tt, key, score_to_tt(best, ply), best_move, 0,
             BOUND_LOWER if best >= beta else (BOUND_EXACT if best > original_alpha else BOUND_UPPER))
    return best


cdef inline int reverse_futility_margin(int depth, bint improving) noexcept nogil:
    """Reverse futility pruning: a node whose static evaluation beats beta by this margin fails high."""
    return param[RFP_MARGIN] * (depth - improving)


cdef inline int null_move_reduction(int depth, int eval_above_beta) noexcept nogil:
    """How much shallower the null move's search is than the node: more at a deeper node, and the more
    the static evaluation is above beta."""
    cdef int by_eval = eval_above_beta // param[NMP_EVAL_DIVISOR]
    if by_eval > param[NMP_EVAL_MAX_REDUCTION]:
        by_eval = param[NMP_EVAL_MAX_REDUCTION]
    return param[NMP_BASE_REDUCTION] + depth // param[NMP_DEPTH_DIVISOR] + by_eval


cdef inline int probcut_beta(int beta, bint improving) noexcept nogil:
    """The bound a ProbCut capture must beat: beta plus a margin, smaller where the node is improving."""
    return beta + param[PROBCUT_MARGIN] - param[PROBCUT_IMPROVING] * improving


cdef inline int late_move_count(int depth, bint improving) noexcept nogil:
    """Move count pruning: the quiet moves of a node tried after this many moves are pruned."""
    return (param[MOVECOUNT_BASE] + depth * depth) // (2 - improving)


cdef inline int futility_margin(int lmr_depth, int history) noexcept nogil:
    """Futility pruning: a quiet move is pruned when the static evaluation plus this stays at or below
    alpha (lmr_depth: the depth its reduced search would have)."""
    return param[FUTILITY_BASE] + param[FUTILITY_MARGIN] * lmr_depth + history // param[FUTILITY_HISTORY_DIVISOR]


cdef inline int reduced_depth(int depth, int searched) noexcept nogil:
    """The depth the reduced search of the searched-th late move of a node of `depth` would have (at
    least 0): what shallow pruning judges by."""
    cdef int lmr_depth = depth - 1 - reduction(depth, searched)
    return lmr_depth if lmr_depth > 0 else 0


cdef inline int capture_futility_margin(int lmr_depth) noexcept nogil:
    """Futility pruning of captures: a capture is pruned when the static evaluation plus this and its
    victim's exchange value stays at or below alpha."""
    return param[CAPTURE_FUTILITY_BASE] + param[CAPTURE_FUTILITY_MARGIN] * lmr_depth


cdef inline int see_prune_threshold(int lmr_depth) noexcept nogil:
    """Exchange pruning: a quiet move whose exchange evaluation is below this is pruned."""
    return -param[SEE_PRUNE_QUADRATIC] * lmr_depth * lmr_depth - param[SEE_PRUNE_LINEAR] * lmr_depth


cdef bint prune_late_move(Worker* w, int move, int order_score, bint is_capture, int depth, int searched,
                          bint improving, int static_eval, int alpha) noexcept nogil:
    """Shallow pruning of a move after the first at a node not in check, PV nodes included (as Pikafish
    prunes) but not the root; the caller keeps a move that gives check (move_gives_check). Bad
    captures near the horizon are pruned, and captures that cannot raise the static evaluation to alpha
    even with their victim's value and a margin (futility pruning of captures); of the quiet moves, the
    late ones (move count pruning), those with a bad history, those that cannot raise the static
    evaluation to alpha (futility pruning) and those that lose material to the exchange on their
    destination (the costliest test, made last). The tests judge by the depth a late move's reduced
    search would have."""
    cdef int history, lmr_depth
    if is_capture:
        if order_score < 0 and depth <= param[CAPTURE_PRUNE_MAX_DEPTH]:
            return True
        if param[CAPTURE_FUTILITY_MAX_DEPTH] == 0:
            return False
        lmr_depth = reduced_depth(depth, searched)
        return (lmr_depth < param[CAPTURE_FUTILITY_MAX_DEPTH]
                and static_eval + capture_futility_margin(lmr_depth) + SEE_VALUE[PIECE_TYPE[w.pos.board[move_to(move)]]]
                <= alpha)
    if alpha <= -VALUE_TB_WIN_IN_MAX:
        return False
    history = order_score if order_score < SCORE_KILLER else 0
    lmr_depth = reduced_depth(depth, searched)
    return (searched >= late_move_count(depth, improving)
            or (lmr_depth <= param[HISTORY_PRUNE_MAX_DEPTH] and history < -param[HISTORY_PRUNE_MARGIN] * depth)
            or (lmr_depth <= param[FUTILITY_MAX_DEPTH] and static_eval + futility_margin(lmr_depth, history) <= alpha)
            or (lmr_depth <= param[SEE_PRUNE_MAX_DEPTH] and see(&w.pos, move) < see_prune_threshold(lmr_depth)))


cdef inline int late_move_reduction(int depth, int searched, int new_depth, int order_score, bint pv_node,
                                    bint cut_node, bint improving, bint is_capture, bint check,
                                    bint tt_capture) noexcept nogil:
    """Late move reductions: how much shallower the null-window search of a late move is. Every late
    move but a capture at a PV node is reduced, the more so the later it comes and the deeper the node;
    less for a move with a good history (quiet moves), a killer, a check or evasion, or at a PV node;
    more where the position is not improving, at an expected cut-node, and for a quiet move when the
    table's move is a capture. Never below 0 or to below depth 1."""
    cdef int r
    if depth < param[LMR_MIN_DEPTH] or (pv_node and is_capture):
        return 0
    r = reduction(depth, searched)
    if pv_node:
        r -= param[LMR_PV_NODE]
    if not improving:
        r += param[LMR_NOT_IMPROVING]
    if cut_node:
        r += param[LMR_CUT_NODE]
    if tt_capture and not is_capture:
        r += param[LMR_TT_CAPTURE]
    if check:
        r -= param[LMR_CHECK]
    if not is_capture:
        r -= order_score // param[LMR_HISTORY_DIVISOR] if order_score < SCORE_KILLER else param[LMR_KILLER]
    if r > new_depth - 1:
        r = new_depth - 1
    return r if r > 0 else 0


cdef bint try_null_move(Worker* w, int beta, int depth, int ply, bint cut_node, int static_eval,
                        int* score) noexcept nogil:
    """Null move pruning: when passing, searched shallower, still fails high, so does the node (not a
    mate: a pass proves none). Returns whether the node is decided, with its score in score[0]."""
    cdef Pos* p = &w.pos
    cdef int value
    w.continuations[ply] = NO_CONTINUATION
    note_null_move(&w.acc, ply + 1)
    make_null_move(p)
    tt_prefetch(&w.shared.tt, p.hist[p.ply].key)
    value = -search(w, -beta, -beta + 1, depth - null_move_reduction(depth, static_eval - beta), ply + 1, False,
                    not cut_node)
    unmake_null_move(p)
    if stopped(w):
        score[0] = 0
        return True
    if value >= beta:
        score[0] = beta if value >= VALUE_TB_WIN_IN_MAX else value   # a pass proves no mate, no table win
        return True
    return False


cdef bint try_probcut(Worker* w, int beta, int depth, int ply, bint cut_node, bint improving, int static_eval,
                      int tt_move, uint64_t key, int* score) noexcept nogil:
    """ProbCut: a good capture whose quiescence, then a search probcut_reduction plies shallower, beats
    probcut_beta is taken as proof that the full-depth search would fail high too; the table learns it
    one ply deeper than that search. Returns whether the node is decided, with its score in score[0]."""
    cdef Pos* p = &w.pos
    cdef MoveList ml
    cdef int scores[MAX_MOVES]
    cdef int i, move, value
    cdef int bound = probcut_beta(beta, improving)
    cdef int probcut_depth = depth - param[PROBCUT_REDUCTION]
    gen_legal_moves(p, &ml, True, False)         # probcut: never in check
    score_moves(&w.ordering, p, &ml, scores, tt_move, ply, earlier_move(w, ply, 1), earlier_move(w, ply, 2))
    for i in range(ml.count):
        move = pick_move(&ml, scores, i)
        if scores[i] < 0:
            break        # the bad captures come last
        if see(p, move) < bound - static_eval:
            continue
        w.continuations[ply] = continuation_key(p, move)
        note_move(&w.acc, ply + 1, p, move)
        make_move(p, move)
        tt_prefetch(&w.shared.tt, p.hist[p.ply].key)
        update_rule_state(p)
        value = -qsearch(w, -bound, -bound + 1, ply + 1)
        if value >= bound:
            value = -search(w, -bound, -bound + 1, probcut_depth, ply + 1, True, not cut_node)
        unmake_move(p)
        if stopped(w):
            score[0] = 0
            return True
        if value >= bound:
            tt_store(&w.shared.tt, key, score_to_tt(value, ply), move, probcut_depth + 1, BOUND_LOWER)
            score[0] = value - (bound - beta) if value < VALUE_TB_WIN_IN_MAX else value
            return True
    return False


cdef int singular_extension(Worker* w, int move, int depth, int ply, int beta, bint pv_node, bint cut_node,
                            int tt_score, int* score) noexcept nogil:
    """The extension of the table's move `move` (the caller has checked that its entry is deep enough
    and a lower bound). Searched without it at half the depth against a margin below its score: when
    every other move fails low, the move is singular and searched one ply deeper (1), or two when they
    fail low by double_extension_margin more, at a node off the PV, and the line has had fewer than
    double_extension_limit double extensions (the limit keeps the tree from exploding). When another move
    also beats the margin and the margin is above beta, the node fails high on two moves: MULTI_CUT,
    with the node's score in score[0]. When the table's score is above beta, the move is searched
    shallower (-1: it is likely to fail high anyway, and another move will do). Otherwise 0. The
    caller checks for a stop first."""
    cdef int singular_beta = tt_score - param[SINGULAR_MARGIN] * depth
    cdef int value
    w.singular_excluded[ply] = move
    value = search(w, singular_beta - 1, singular_beta, (depth - 1) // 2, ply, False, cut_node)
    w.singular_excluded[ply] = 0
    w.pv_len[ply] = 0
    if value < singular_beta:
        if (not pv_node and value < singular_beta - param[DOUBLE_EXTENSION_MARGIN]
                and w.double_extensions[ply] < param[DOUBLE_EXTENSION_LIMIT]):
            return 2
        return 1
    if singular_beta >= beta:
        score[0] = singular_beta
        return MULTI_CUT
    return -1 if tt_score >= beta else 0


cdef inline int search_late_move(Worker* w, int alpha, int beta, int best, int new_depth, int r, int ply,
                                 bint cut_node) noexcept nogil:
    """The score of a move after the first (made on the board): a null-window search reduced by r,
    re-searched at full depth when it fails high, then with the full window when it lands inside it.
    The re-search goes a ply deeper when the reduced search failed high by a wide margin, a ply
    shallower when it barely beat the best score so far (and is skipped when that leaves it no deeper
    than the reduced search)."""
    cdef int reduced_depth = new_depth - r
    cdef int score = -search(w, -alpha - 1, -alpha, reduced_depth, ply + 1, True, True)
    if score > alpha and r > 0:
        if score > alpha + param[LMR_DEEPER_BASE] + param[LMR_DEEPER_SCALE] * r:
            new_depth += 1
        elif param[LMR_SHALLOWER] and score < best + new_depth:
            new_depth -= 1
        if new_depth > reduced_depth:
            score = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, True, not cut_node)
    if score > alpha and score < beta:
        score = -search(w, -beta, -alpha, new_depth, ply + 1, True, False)
    return score


cdef inline void correct_static_eval(Worker* w, int best, int best_move, int static_eval, int beta,
                                     int depth) noexcept nogil:
    """A node's search result `best` teaches the correction history of its position, where the bound
    says which way the static evaluation erred: not after a capture (the evaluation of a quiet position
    is what is corrected), not a fail-high below the static evaluation or a fail-low above it, not a
    mate. The caller leaves out nodes in check (no static evaluation) and singular searches."""
    if best_move != 0 and w.pos.board[move_to(best_move)] != 0:
        return
    if (best >= beta and best <= static_eval) or (best_move == 0 and best >= static_eval):
        return
    if best > -VALUE_TB_WIN_IN_MAX and best < VALUE_TB_WIN_IN_MAX:
        learn_correction(&w.correction, &w.pos, best - static_eval, depth)


cdef inline void update_pv(Worker* w, int ply, int move) noexcept nogil:
    """The principal variation at `ply` becomes `move` followed by the child's."""
    cdef int k
    w.pv[ply][0] = move
    for k in range(w.pv_len[ply + 1]):
        w.pv[ply][k + 1] = w.pv[ply + 1][k]
    w.pv_len[ply] = w.pv_len[ply + 1] + 1


cdef int probe_tables(Worker* w, int depth, int ply, int* bound) noexcept nogil:
    """The endgame tables' score of a node (tb_probe.pxi) reached by a capture, at least
    tb_probe_depth deep, with its bound in bound[0]; bound[0] is 0 when no table decides the node (none
    loaded, no capture, no table of its material, an unsure entry): search on. A capture, because no
    position before it can come back, so the table's value is the node's whatever the game record holds."""
    cdef Pos* p = &w.pos
    cdef int plies = 0, wdl
    bound[0] = 0
    if w.shared.tables == NULL or depth < w.shared.tb_probe_depth or not p.hist[p.ply - 1].captured:
        return 0
    wdl = tb_probe_position(w.shared.tables, p, &plies)
    if wdl == TB_WDL_UNSURE:
        return 0
    w.tbhits += 1
    bound[0] = BOUND_LOWER if wdl == TB_WDL_WIN else (BOUND_UPPER if wdl == TB_WDL_LOSS else BOUND_EXACT)
    return table_score(wdl, plies, ply)


cdef int search(Worker* w, int alpha, int beta, int depth, int ply, bint null_ok, bint cut_node) noexcept nogil:
    """Alpha-beta (PVS) search of the current position to `depth`; returns its score for the side to move.
    `cut_node`: a null-window node expected to fail high (the reduced search of a late move, or a child of
    an expected all-node), where a late move is unlikely to matter and is reduced more."""
    cdef Pos* p = &w.pos
    cdef MoveList ml
    cdef int scores[MAX_MOVES]
    cdef int quiets[MAX_QUIETS]
    cdef int captures[MAX_QUIETS]
    cdef bint pv_node = beta - alpha > 1
    cdef bint in_check, gives_check, is_capture, improving, prune, may_extend, singular_candidate
    cdef int score, best, best_move, move, i, r, new_depth, static_eval, estimate, tt_move = 0, searched = 0
    cdef int n_quiets = 0, n_captures = 0
    cdef int original_alpha = alpha
    cdef int excluded = w.singular_excluded[ply]
    cdef int extension, tt_score = 0, tt_depth = 0, tt_bound = 0
    cdef int tb_value, tb_bound = 0, tb_floor = -VALUE_INF, tb_cap = VALUE_INF
    cdef uint64_t key, nodes_before
    cdef TTEntry* tte

    # Step 1. Horizon: quiescence search.
    if depth <= 0:
        return qsearch(w, alpha, beta, ply)
    w.nodes += 1
    poll(w)
    w.pv_len[ply] = 0
    if stopped(w):
        return 0
    if ply > w.seldepth:
        w.seldepth = ply
    if ply == 0:
        w.double_extensions[0] = 0
    in_check = p.hist[p.ply].in_check

    if ply > 0:
        # Step 2. The rules: natural limit and repetitions.
        if rules_end(w, ply, &score):
            return score
        # Step 3. Mate distance pruning.
        if alpha < mated_in(ply):
            alpha = mated_in(ply)
        if beta > mate_in(ply + 1):
            beta = mate_in(ply + 1)
        if alpha >= beta:
            return alpha
        if ply >= MAX_PLY:
            return evaluate_node(w, ply)

    # Step 4. Transposition table. Not in a singular-extension search (the same position without one
    # move): the entry is the whole position's.
    key = p.hist[p.ply].key
    tte = tt_probe(&w.shared.tt, key) if not excluded else NULL
    if tte != NULL:
        tt_move = tte.move
        tt_score = limit_table_score(score_from_tt(tte.score, ply), p.hist[p.ply].rule60)
        tt_depth = tte.depth
        tt_bound = tte.bound
        if ply > 0 and not pv_node and tte.depth >= depth:
            if (tte.bound == BOUND_EXACT or (tte.bound == BOUND_LOWER and tt_score >= beta)
                    or (tte.bound == BOUND_UPPER and tt_score <= alpha)):
                return tt_score

    # Step 4b. The endgame tables, right after a capture (probe_tables); not at the root (the engine's
    # facade asks the tables there) nor in a singular-extension search. A win is a lower bound (the
    # search may still find a real mate), a loss an upper one, a draw exact. At a PV node that the table
    # does not decide the search goes on within them (Stockfish's way).
    if ply > 0 and not excluded:
        tb_value = probe_tables(w, depth, ply, &tb_bound)
        if tb_bound and (tb_bound == BOUND_EXACT or (tb_bound == BOUND_LOWER and tb_value >= beta)
                         or (tb_bound == BOUND_UPPER and tb_value <= alpha)):
            tt_store(&w.shared.tt, key, score_to_tt(tb_value, ply), 0,
                     min(depth + TB_EXTRA_DEPTH, MAX_PLY - 1), tb_bound)
            return tb_value
        if tb_bound and pv_node:
            if tb_bound == BOUND_LOWER:
                tb_floor = tb_value
                alpha = max(alpha, tb_value)
            else:
                tb_cap = tb_value

    # Step 5. Pruning on the static evaluation: reverse futility, razoring and null move. `improving`:
    # the evaluation is better than two plies ago, so that fail-highs are likelier and pruning can be
    # bolder. They judge by an estimate of the node's score: the static evaluation, or with tt_eval the
    # table's score where its bound says the true score lies beyond the evaluation on that side (as
    # Stockfish does; not a mate or table score). A side with no chariot, horse or cannon may have no move at all
    # (a loss), which the pruning below would miss: look first. Elsewhere a stalemate is too rare to pay
    # for the test.
    if not in_check and ply > 0 and not has_big_pieces(p, p.side) and not has_legal_move(p, False):
        return mated_in(ply)
    static_eval = corrected_eval(&w.correction, p, evaluate_node(w, ply)) if not in_check else -VALUE_INF
    w.static_evals[ply] = static_eval
    improving = not in_check and (ply < 2 or static_eval > w.static_evals[ply - 2])
    if not in_check and ply > 0 and not pv_node:
        estimate = static_eval
        if (param[TT_EVAL] and tte != NULL and tt_score > -VALUE_TB_WIN_IN_MAX and tt_score < VALUE_TB_WIN_IN_MAX
                and (tt_bound & (BOUND_LOWER if tt_score > static_eval else BOUND_UPPER))):
            estimate = tt_score
        if (depth <= param[RFP_MAX_DEPTH] and estimate - reverse_futility_margin(depth, improving) >= beta
                and beta < VALUE_TB_WIN_IN_MAX):
            return estimate
        if depth <= param[RAZOR_MAX_DEPTH] and estimate + param[RAZOR_MARGIN] * depth <= alpha:
            score = qsearch(w, alpha, beta, ply)
            if score <= alpha:
                return score
        if (null_ok and not excluded and depth >= param[NMP_MIN_DEPTH] and estimate >= beta
                and has_big_pieces(p, p.side) and try_null_move(w, beta, depth, ply, cut_node, estimate, &score)):
            return score

    # Step 6. ProbCut; not when the table already says that a search nearly as deep stays below its bound.
    if (not pv_node and not in_check and not excluded and depth >= param[PROBCUT_MIN_DEPTH]
            and beta > -VALUE_TB_WIN_IN_MAX and beta < VALUE_TB_WIN_IN_MAX
            and not (tt_bound and tt_depth > depth - param[PROBCUT_REDUCTION]
                     and tt_score < probcut_beta(beta, improving))
            and try_probcut(w, beta, depth, ply, cut_node, improving, static_eval, tt_move, key, &score)):
        return score

    # Step 7. Moves. No legal move loses, in check or not. Without a table move to try first, a deep
    # node is searched one ply shallower (internal iterative reduction).
    if depth >= param[IIR_MIN_DEPTH] and tt_move == 0 and not in_check:
        depth -= 1
    gen_legal_moves(p, &ml, False, in_check)
    if ply == 0:
        keep_line_moves(w, &ml)
    if ml.count == 0:
        return mated_in(ply)
    score_moves(&w.ordering, p, &ml, scores, tt_move, ply, earlier_move(w, ply, 1), earlier_move(w, ply, 2))
    # No extension beyond a multiple of the iteration's depth: a line of checks and evasions that never
    # repeats would otherwise go on to MAX_PLY.
    may_extend = ply < param[EXTENSION_PLY_FACTOR] * w.root_depth
    singular_candidate = (ply > 0 and may_extend and not excluded and depth >= param[SINGULAR_MIN_DEPTH]
                          and tt_depth >= depth - param[SINGULAR_TT_DEPTH_MARGIN] and (tt_bound & BOUND_LOWER)
                          and tt_score > -VALUE_TB_WIN_IN_MAX and tt_score < VALUE_TB_WIN_IN_MAX)

    # Step 8. The move loop; a PV node the tables call won scores at least the table's win.
    best = tb_floor
    best_move = 0
    for i in range(ml.count):
        move = pick_move(&ml, scores, i)
        if move == excluded:
            continue
        is_capture = p.board[move_to(move)] != 0
        prune = (searched > 0 and ply > 0 and not in_check
                 and prune_late_move(w, move, scores[i], is_capture, depth, searched, improving, static_eval, alpha))
        extension = 0
        if move == tt_move and singular_candidate:
            extension = singular_extension(w, move, depth, ply, beta, pv_node, cut_node, tt_score, &score)
            if stopped(w):
                return 0
            if extension == MULTI_CUT:
                return score
        if ply == 0 and w.is_main and w.shared.root_report_ns:
            # Counted as Stockfish counts it: the moves of the earlier MultiPV lines come first.
            report_root_move(w, move, searched + 1 + w.pv_index)
        # A pruned move is kept when it gives check, which is read off the board without making it: most
        # moves at a node near the horizon are pruned.
        if prune and not move_gives_check(p, move):
            searched += 1
            continue
        w.continuations[ply] = continuation_key(p, move)
        note_move(&w.acc, ply + 1, p, move)
        nodes_before = w.nodes
        make_move(p, move)
        tt_prefetch(&w.shared.tt, p.hist[p.ply].key)
        update_rule_state(p)
        gives_check = p.hist[p.ply].in_check
        # Check extension (unless the move is extended already), not where the evaluation is balanced
        # (in check, static_eval is -VALUE_INF: far from balanced).
        if (extension == 0 and gives_check and may_extend and depth >= param[CHECK_EXTENSION_MIN_DEPTH]
                and abs(static_eval) >= param[CHECK_EXTENSION_EVAL]):
            extension = 1
        new_depth = depth - 1 + extension
        w.double_extensions[ply + 1] = w.double_extensions[ply] + (extension >= 2)
        if searched == 0:
            score = -search(w, -beta, -alpha, new_depth, ply + 1, True, not pv_node and not cut_node)
        else:
            # Whether the table's move is a capture is read on the board after the move (as it always
            # was: a move from or to that point changes it).
            r = late_move_reduction(depth, searched, new_depth, scores[i], pv_node, cut_node, improving, is_capture,
                                    gives_check or in_check, tt_move != 0 and p.board[move_to(tt_move)] != 0)
            score = search_late_move(w, alpha, beta, best, new_depth, r, ply, cut_node)
        unmake_move(p)
        searched += 1
        if ply == 0:
            find_root_move(w, move).effort += w.nodes - nodes_before
        if stopped(w):
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = move
                update_pv(w, ply, move)
                if ply == 0:
                    note_root_move(w, move, score, searched)
                if score >= beta:
                    break
        if not is_capture and n_quiets < MAX_QUIETS:
            quiets[n_quiets] = move
            n_quiets += 1
        elif is_capture and n_captures < MAX_QUIETS:
            captures[n_captures] = move
            n_captures += 1

    # Step 9. The move that refuted the node gains history (a quiet one also becomes a killer and
    # countermove); the moves tried before it lose history (the captures always, the quiet moves
    # when it is quiet).
    if best >= beta and best_move:
        reward_cutoff(&w.ordering, p, ply, depth, best_move, quiets, n_quiets, captures, n_captures,
                      earlier_move(w, ply, 1), earlier_move(w, ply, 2))

    # Step 10. What the search found teaches the correction history.
    if not in_check and not excluded:
        correct_static_eval(w, best, best_move, static_eval, beta, depth)

    # Step 11. Store the result (at a PV node the tables call lost, no better than the table's loss); a
    # singular-extension search's (without a move) has nothing to store, and when it searched no move
    # (the left-out move was the only one) its bound is alpha's.
    if excluded:
        return best if searched > 0 else alpha
    best = min(best, tb_cap)
    tt_store(&w.shared.tt, key, score_to_tt(best, ply), best_move,
             depth, BOUND_LOWER if best >= beta else (BOUND_EXACT if best > original_alpha else BOUND_UPPER))
    return best


cdef int search_depth(Worker* w, int depth) noexcept nogil:
    """The search of line w.pv_index at the root to `depth`, with an aspiration window around the score
    its root move had in the previous iteration, widened until the score falls inside. Each search leaves
    the line's root moves sorted, best first. Returns the score (meaningless when stopped)."""
    cdef int delta = param[ASPIRATION_DELTA]
    cdef int alpha = -VALUE_INF, beta = VALUE_INF, score
    cdef int previous = w.root_moves[w.pv_index].previous_score
    w.root_depth = depth
    if depth >= param[ASPIRATION_MIN_DEPTH] and previous > -VALUE_TB_WIN_IN_MAX and previous < VALUE_TB_WIN_IN_MAX:
        alpha = previous - delta
        beta = previous + delta
    while True:
        clear_line_scores(w)
        score = search(w, alpha, beta, depth, 0, False, False)
        sort_root_moves(w, w.pv_index, w.root_count)
        if stopped(w):
            return score
        if score <= alpha:
            alpha = -VALUE_INF if delta > param[ASPIRATION_MAX_DELTA] else alpha - delta
            beta = (alpha + beta) // 2 if beta < VALUE_INF else beta
        elif score >= beta:
            beta = VALUE_INF if delta > param[ASPIRATION_MAX_DELTA] else beta + delta
        else:
            return score
        delta += delta * param[ASPIRATION_GROWTH] // PER_MILLE


cdef int search_iteration(Worker* w, int depth, int n_lines) noexcept nogil:
    """One iteration of iterative deepening to `depth`: the n_lines best lines (MultiPV), each the best of
    the root moves left after the earlier lines, left first in root_moves, best first. Returns how many
    lines were completed: n_lines unless the search was stopped."""
    cdef int i, line
    for i in range(w.root_count):
        w.root_moves[i].previous_score = w.root_moves[i].score
    for line in range(n_lines):
        w.pv_index = line
        w.seldepth = 0
        search_depth(w, depth)
        if stopped(w) or w.root_moves[line].score == -VALUE_INF:
            return line
        # A later line can outscore an earlier one whose best move was pruned in a null-window search
        # (e.g. a stalemating move seen only at full width): the lines stay sorted, best first.
        sort_root_moves(w, 0, line + 1)
    return n_lines


cdef void helper_iterate(Worker* w, int index) noexcept nogil:
    """Lazy SMP helper number `index` (from 0): deepen the same root (one line), the odd-numbered helpers
    from depth 2 (or by the depth pattern, helper_depth_skip), until the main worker stops everyone.

    The pattern is Stockfish 10's: the helpers come in groups of 2, 4, 6, ... for skip sizes 1, 2, 3, ...;
    the k-th helper of the group of size n skips the depths d where (d + k) / n is odd, so that the first
    searches the even depths only, the second the odd ones, and more threads spread over more depths."""
    cdef int depth
    cdef int size = 1
    while size * (size + 1) <= index:
        size += 1
    cdef int phase = index - (size - 1) * size
    for depth in range(1 + (0 if param[HELPER_DEPTH_SKIP] else index % 2), MAX_PLY - 2):
        if w.shared.depth_limit and depth > w.shared.depth_limit + 1:
            break
        if param[HELPER_DEPTH_SKIP] and ((depth + phase) // size) % 2:
            continue
        search_iteration(w, depth, 1)
        if stopped(w):
            break
        w.completed_depth = depth
        w.completed_best = w.root_moves[0]

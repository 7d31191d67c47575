# The Python-visible searcher: owns the transposition table and the workers, runs iterative deepening
# on the calling thread with the GIL released for each iteration, and reports each completed
# iteration through a callback, both as SearchReport values. The engine facade (engine/server/engine.py)
# and the bench (engine/server/bench.py) are its users.

import threading as _threading

#: The mate score: a side mated `p` plies from the root scores -(MATE - p). engine.score builds on it.
MATE = VALUE_MATE
#: A win by the endgame tables whose mate lies `p` plies from the root (the plies to the probed node and
#: its distance to mate) scores TB_WIN - p, a loss the negative: centipawns to engine.score, above any
#: evaluation (types.pxi).
TB_WIN = VALUE_TB

cdef Worker* new_worker(Shared* shared) except NULL:
    cdef Worker* w = <Worker*>malloc(sizeof(Worker))
    if w == NULL:
        raise MemoryError()
    memset(w, 0, sizeof(Worker))
    w.shared = shared
    return w


cdef void free_worker(Worker* w) noexcept nogil:
    if w != NULL:
        stack_free(&w.acc)
        free(w)


cdef int prepare_evaluation(Worker* w, _NetworkArrays network) except -1:
    """Before a search from w.pos: evaluate with `network` (None: the hand-crafted evaluation), its
    root accumulators computed from scratch. Raises MemoryError."""
    w.use_nnue = network is not None
    if not w.use_nnue:
        return 0
    if not stack_reserve(&w.acc, network.net.hidden):
        w.use_nnue = False
        raise MemoryError("cannot allocate the network's accumulators")
    w.net = network.net
    stack_set_root(&w.acc, &w.net, &w.pos)
    return 0


cdef void copy_position(Pos* dst, Pos* src) noexcept nogil:
    memcpy(dst, src, sizeof(Pos) - sizeof(State) * (MAX_HISTORY - src.ply - 1))


cdef tuple root_move_line(RootMove* rm):
    """A root move's line: (score, principal variation as move codes, seldepth)."""
    return (rm.score, [rm.pv[k] for k in range(rm.pv_len)], rm.seldepth)


cdef int score_to_mate_moves(int score) noexcept nogil:
    """Moves to mate for a mate score (negative when the side to move is mated), 0 otherwise."""
    if score >= VALUE_MATE_IN_MAX:
        return (VALUE_MATE - score + 1) // 2
    if score <= -VALUE_MATE_IN_MAX:
        return -((VALUE_MATE + score) // 2)
    return 0


# SearchReport's fields, in the order of its constructor (for its repr).
_SEARCH_REPORT_FIELDS = ("bestmove", "ponder", "score", "depth", "seldepth", "multipv", "nodes", "time_ms",
                         "nps", "hashfull", "pv", "tbhits")


cdef class SearchReport:
    """What a search found: reported after each completed iteration (once per PV line, through
    on_info) and returned as its result.

    bestmove: the first move of pv, None when there is no legal move to search. ponder: the expected
    reply, None if unknown. score: the side to move's score in kernel units: centipawns, or
    +-(MATE - plies) for a mate (engine.score.Score reads it). depth: the completed iteration.
    seldepth: the deepest ply the search reached. multipv: the rank of the line (1: the best).
    nodes, time_ms, nps: all workers' work since the search began. hashfull: per mille of the
    transposition table used by this search. pv: the principal variation, a tuple of ICCS moves.
    tbhits: the probes of the endgame tables that gave a value, all workers (Searcher.set_tablebase).
    """
    cdef readonly str bestmove
    cdef readonly str ponder
    cdef readonly int score
    cdef readonly int depth
    cdef readonly int seldepth
    cdef readonly int multipv
    cdef readonly uint64_t nodes
    cdef readonly int64_t time_ms
    cdef readonly int64_t nps
    cdef readonly int hashfull
    cdef readonly tuple pv
    cdef readonly uint64_t tbhits

    def __init__(self, str bestmove, str ponder, int score, int depth, int seldepth, int multipv,
                 uint64_t nodes, int64_t time_ms, int64_t nps, int hashfull, tuple pv, uint64_t tbhits=0):
        self.bestmove = bestmove
        self.ponder = ponder
        self.score = score
        self.depth = depth
        self.seldepth = seldepth
        self.multipv = multipv
        self.nodes = nodes
        self.time_ms = time_ms
        self.nps = nps
        self.hashfull = hashfull
        self.pv = pv
        self.tbhits = tbhits

    def __repr__(self):
        return "SearchReport(%s)" % ", ".join(
            "%s=%r" % (name, getattr(self, name)) for name in _SEARCH_REPORT_FIELDS)


cdef class Searcher:
    """Searches a Board with a table of hash_mb MB (the engine's default size is the Hash option's,
    engine.server.options) and `threads` threads. Thread-safe controls: stop(), set_deadlines();
    everything else from one thread."""
    cdef Shared shared
    cdef Worker* main
    cdef Worker** helpers
    cdef int n_helpers
    cdef int _threads
    cdef bint _use_nnue
    cdef ProbeTables _tables     # held while the searches probe them (set_tablebase)

    def __cinit__(self, int hash_mb, int threads=1):
        self.shared.tt.entries = NULL
        self.main = new_worker(&self.shared)
        self.main.is_main = True
        self.helpers = NULL
        self.n_helpers = 0
        self.set_hash(hash_mb)
        self.threads = threads

    def __dealloc__(self):
        tt_free(&self.shared.tt)
        free_worker(self.main)
        self._free_helpers()

    cdef void _free_helpers(self):
        cdef int i
        for i in range(self.n_helpers):
            free_worker(self.helpers[i])
        free(self.helpers)
        self.helpers = NULL
        self.n_helpers = 0

    def set_hash(self, int hash_mb):
        """Resize the transposition table (the largest power of two of entries within hash_mb MB) and
        forget everything learnt, as clear() does."""
        if not tt_allocate(&self.shared.tt, hash_mb):
            raise MemoryError(f"cannot allocate a {max(1, hash_mb)} MB hash table")  # the old table stays
        self._forget_moves()

    def clear(self):
        """Forget everything learnt (a new game): the table, killers, history and countermoves."""
        tt_clear(&self.shared.tt)
        self._forget_moves()

    cdef void _forget_moves(self):
        # Only the main worker's killers are cleared: a helper's killers only steer its own move
        # order, and its first cutoffs replace them.
        clear_killers(&self.main.ordering)
        forget_history(&self.main.ordering)
        memset(&self.main.correction, 0, sizeof(CorrectionHistory))
        for i in range(self.n_helpers):
            forget_history(&self.helpers[i].ordering)
            memset(&self.helpers[i].correction, 0, sizeof(CorrectionHistory))

    @property
    def use_nnue(self):
        """Whether the searches evaluate with the loaded network (set_network) rather than the hand-crafted
        evaluation; without a loaded network they use the latter anyway. Read when a search starts."""
        return self._use_nnue

    @use_nnue.setter
    def use_nnue(self, bint value):
        self._use_nnue = value

    cdef _NetworkArrays _network(self):
        """The network the next search evaluates with, None for the hand-crafted evaluation."""
        return loaded_network if self._use_nnue else None

    def set_tablebase(self, ProbeTables tables, int probe_depth=1):
        """Probe `tables` (None or empty: none) in the searches from now on, at nodes at least
        `probe_depth` plies deep (ext/tb_probe.pxi). Not during a search."""
        self._tables = tables
        self.shared.tables = &tables.store if tables is not None and len(tables) else NULL
        self.shared.tb_probe_depth = max(1, probe_depth)

    @property
    def tablebase(self):
        """The tables the searches probe, None when none."""
        return self._tables if self.shared.tables != NULL else None

    @property
    def threads(self):
        return self._threads

    @threads.setter
    def threads(self, int n):
        self._free_helpers()
        self._threads = max(1, n)
        self.n_helpers = self._threads - 1
        if self.n_helpers:
            self.helpers = <Worker**>malloc(self.n_helpers * sizeof(Worker*))
            for i in range(self.n_helpers):
                self.helpers[i] = new_worker(&self.shared)

    def stop(self):
        """End the running search as soon as possible (from any thread)."""
        jj_store_int(&self.shared.stop, 1)

    def set_deadlines(self, int soft_ms, int hard_ms):
        """Re-arm the time limits, counted from now (0: none). Used on ponderhit."""
        self._arm_deadlines(now_ns(), soft_ms, hard_ms)

    def evaluate(self, Board board):
        """The static evaluation the search would use (the network's or the hand-crafted one), side to
        move's view."""
        cdef _NetworkArrays network = self._network()
        if network is not None:
            return evaluate_with(network, board.pos, True)
        return evaluate(board.pos)

    def quiescence(self, Board board):
        """The quiescence search score of the board's position (side to move's view), no time limit."""
        cdef Worker* w = self.main
        cdef int score
        cdef _NetworkArrays network = self._network()     # held until the search ends
        copy_position(&w.pos, board.pos)
        w.root_ply = w.pos.ply
        prepare_evaluation(w, network)
        self.shared.stop = 0
        self.shared.hard_ns = 0
        self.shared.node_limit = 0
        w.completed_depth = 1
        with nogil:
            score = qsearch(w, -VALUE_INF, VALUE_INF, 0)
        return score

    def hashfull(self):
        """Per mille of the table's first 1000 slots used by this search."""
        return tt_hashfull(&self.shared.tt)

    def _helper(self, int index):
        cdef Worker* w = self.helpers[index]
        with nogil:
            helper_iterate(w, index)

    def search(self, Board board, int depth=0, long long nodes=0, int mate=0, int soft_ms=0, int hard_ms=0,
               int multipv=1, searchmoves=(), banmoves=(), on_info=None, soft_share=None, on_root_move=None,
               int root_move_after_ms=0):
        """Search the board's position (its game record gives the repetition history).

        Limits: depth (plies), nodes, mate (stop at a mate in that many moves), soft_ms (no new
        iteration after it), hard_ms (stop at once); 0 means none. searchmoves limits and banmoves
        excludes root moves (ICCS). on_info(SearchReport) is called after each completed iteration,
        once per PV line, best first. soft_share, when given, is the time manager's rule
        (engine.server.timeman.IterationTimer): called after each completed iteration with keywords
        depth, best_move (its code), score (of line 1), best_move_changes (how often line 1's best move
        changed during the iteration, all threads), best_move_effort (the share of the main thread's
        nodes spent below the best move) and root_moves (how many there are), it returns the share of
        soft_ms to use before another iteration starts; without it the whole of soft_ms.
        on_root_move(depth, move, number), when given, is called by the main thread each time it starts
        on a root move (ICCS; the number-th of the iteration of `depth`, counting the moves of earlier
        MultiPV lines) once root_move_after_ms have passed since the search began (UCI's currmove).
        Returns a SearchReport of the best line of the last completed iteration (bestmove None when no
        root move is left to search).
        """
        cdef Worker* w = self.main
        cdef _NetworkArrays network = self._network()     # held until the search ends (helpers included)
        copy_position(&w.pos, board.pos)
        w.root_ply = w.pos.ply
        prepare_evaluation(w, network)
        self._set_root_moves(searchmoves, banmoves)
        cdef int64_t start = now_ns()
        if w.root_count == 0:
            return SearchReport(None, None, mated_in(0), 0, 0, 1, 0, 0, 0, 0, ())
        self._begin(start, depth, nodes, soft_ms, hard_ms)
        if on_root_move is not None:    # the reference is held by this call's argument until it returns
            self.shared.on_root_move = <void*>on_root_move
            self.shared.root_report_ns = start + <int64_t>max(0, root_move_after_ms) * NS_PER_MS
        try:
            threads = self._start_helpers(network)
            try:
                lines = self._deepen(start, max(1, min(multipv, w.root_count)), mate, on_info, soft_share)
            finally:
                self._stop_helpers(threads)
            reported_depth = w.completed_depth
            if not lines:
                lines = [self._rescue()]
                reported_depth = w.completed_depth
            elif self.n_helpers and multipv == 1 and depth == 0 and param[THREAD_VOTE]:
                reported_depth, line = self._vote(w.completed_depth, lines[0])
                if line is not lines[0]:
                    lines = [line]
                    if on_info is not None:      # the line played is reported last, as Stockfish does
                        self._report_lines(reported_depth, lines, on_info, start)
        finally:
            self.shared.root_report_ns = 0
            self.shared.on_root_move = NULL
        pv = lines[0][1]
        ponder = self._ponder_from_table(pv[0]) if len(pv) == 1 else None    # a one-move line: ask the table
        return self._report(reported_depth, 1, lines[0], ponder, self._nodes(), (now_ns() - start) // NS_PER_MS)

    cdef tuple _vote(self, int main_depth, tuple main_line):
        """Lazy SMP's choice of the line played among the main worker's and each helper's last completed
        iteration, as Stockfish chooses its best thread: a worker votes for its best move with its depth
        times its score above the lowest worker's (plus thread_vote_base), and the move with the most votes
        wins, from the worker whose own vote for it is the largest; a table win or mate is taken by the best
        score instead, the quickest win or the longest defence. Returns (depth, line)."""
        cdef RootMove* rm
        cdef Worker* h
        candidates = [(main_depth, main_line)]
        for k in range(self.n_helpers):
            h = self.helpers[k]
            rm = &h.completed_best
            if h.completed_depth >= 1 and rm.pv_len > 0 and rm.score > -VALUE_INF:
                candidates.append((h.completed_depth, root_move_line(rm)))
        lowest = min(line[0] for _, line in candidates)
        def vote(candidate):
            depth, line = candidate
            return (line[0] - lowest + param[THREAD_VOTE_BASE]) * depth
        votes = {}
        for candidate in candidates:
            votes[candidate[1][1][0]] = votes.get(candidate[1][1][0], 0) + vote(candidate)
        best = candidates[0]
        for candidate in candidates[1:]:
            score, best_score = candidate[1][0], best[1][0]
            if abs(best_score) >= VALUE_TB_WIN_IN_MAX:
                if score > best_score:
                    best = candidate
            elif score >= VALUE_TB_WIN_IN_MAX or (score > -VALUE_TB_WIN_IN_MAX and (
                    votes[candidate[1][1][0]] > votes[best[1][1][0]]
                    or (votes[candidate[1][1][0]] == votes[best[1][1][0]] and vote(candidate) > vote(best)))):
                best = candidate
        return best

    cdef void _set_root_moves(self, searchmoves, banmoves):
        """The main worker's root moves: the legal moves of its position, only those in searchmoves when
        it names any, never those in banmoves (ICCS; what names no move is ignored)."""
        cdef Worker* w = self.main
        cdef MoveList legal
        cdef int i
        only = {iccs_to_move(text) for text in searchmoves} - {0}
        banned = {iccs_to_move(text) for text in banmoves}
        gen_legal(&w.pos, &legal)
        w.root_count = 0
        w.pv_index = 0
        for i in range(legal.count):
            if (not only or legal.moves[i] in only) and legal.moves[i] not in banned:
                add_root_move(w, legal.moves[i])

    cdef void _begin(self, int64_t start, int depth, long long nodes, int soft_ms, int hard_ms):
        """Arm the limits from `start`, and start a new search in the table and the main worker."""
        cdef Shared* sh = &self.shared
        cdef Worker* w = self.main
        sh.stop = 0
        self._arm_deadlines(start, soft_ms, hard_ms)
        sh.node_limit = nodes if nodes > 0 else 0
        sh.depth_limit = depth if 0 < depth < MAX_PLY - 2 else MAX_PLY - 2
        tt_new_search(&sh.tt)
        w.nodes = w.qnodes = w.tbhits = 0
        w.seldepth = 0
        w.completed_depth = 0
        clear_killers(&w.ordering)
        age_history(&w.ordering)

    cdef void _arm_deadlines(self, int64_t now, int soft_ms, int hard_ms):
        """The time limits, counted from `now` (0: none)."""
        self.shared.armed_ns = now
        self.shared.soft_ns = now + <int64_t>soft_ms * NS_PER_MS if soft_ms > 0 else 0
        self.shared.hard_ns = now + <int64_t>hard_ms * NS_PER_MS if hard_ms > 0 else 0

    cdef list _start_helpers(self, _NetworkArrays network):
        """Start the helper threads on the main worker's position and root moves; returns the threads."""
        cdef Worker* w = self.main
        cdef Worker* helper
        cdef int k
        for k in range(self.n_helpers):      # before any helper starts: this may raise MemoryError
            copy_position(&self.helpers[k].pos, &w.pos)
            prepare_evaluation(self.helpers[k], network)
        threads = []
        for k in range(self.n_helpers):
            helper = self.helpers[k]
            helper.root_ply = w.root_ply
            helper.nodes = helper.qnodes = helper.tbhits = 0
            helper.completed_depth = 0
            memcpy(helper.root_moves, w.root_moves, w.root_count * sizeof(RootMove))
            helper.root_count = w.root_count
            helper.pv_index = 0
            thread = _threading.Thread(target=self._helper, args=(k,), daemon=True)
            thread.start()
            threads.append(thread)
        return threads

    cdef void _stop_helpers(self, list threads):
        """Stop every worker and wait for the helper threads to end."""
        jj_store_int(&self.shared.stop, 1)
        for thread in threads:
            thread.join()

    cdef list _deepen(self, int64_t start, int n_lines, int mate, on_info, soft_share):
        """Iterative deepening with n_lines lines (MultiPV) until a limit, a stop, the mate asked for or the
        time rule ends it. Returns the lines of the last completed iteration (see _line), best first;
        empty when depth 1 was not completed."""
        cdef Worker* w = self.main
        cdef int d, completed
        cdef double share
        lines = []
        self._take_best_move_changes()
        for d in range(1, self.shared.depth_limit + 1):
            with nogil:
                completed = search_iteration(w, d, n_lines)
            if completed < n_lines:
                if n_lines == 1 and lines and self._found_better_move(lines[0][1][0]):
                    lines = [self._line(0)]
                break
            lines = [self._line(k) for k in range(n_lines)]
            w.completed_depth = d
            if on_info is not None:
                self._report_lines(d, lines, on_info, start)
            share = 1.0
            if soft_share is not None:
                share = soft_share(depth=d, best_move=lines[0][1][0], score=lines[0][0],
                                   best_move_changes=self._take_best_move_changes(),
                                   best_move_effort=w.root_moves[0].effort / <double>max(1, w.nodes),
                                   root_moves=w.root_count)
            if self._mate_ends_search(d, lines[0][0], mate) or self._soft_limit_passed(share):
                break
        return lines

    cdef int _take_best_move_changes(self):
        """The best-move changes every worker counted since the last call, and reset them."""
        cdef int total = self.main.best_move_changes
        self.main.best_move_changes = 0
        for k in range(self.n_helpers):
            total += self.helpers[k].best_move_changes
            self.helpers[k].best_move_changes = 0
        return total

    cdef bint _found_better_move(self, int last_best):
        """Whether the iteration cut short has already found a better move than the last one's (the last
        best move is searched first, so any move that raised alpha beat it): then it is played."""
        cdef RootMove* best = &self.main.root_moves[0]
        return best.score != -VALUE_INF and best.move != last_best

    cdef bint _mate_ends_search(self, int depth, int score, int mate):
        """The mate asked for is found, or, under a time limit, a mate whose line the search has had
        depth enough to verify."""
        if mate and 0 < score_to_mate_moves(score) <= mate:
            return True
        return (abs(score) >= VALUE_MATE_IN_MAX and self.shared.hard_ns != 0
                and depth > 2 * (VALUE_MATE - abs(score)) + param[MATE_STOP_EXTRA_DEPTH])

    cdef bint _soft_limit_passed(self, double share):
        """Whether the share of the soft limit the time rule grants is spent."""
        cdef Shared* sh = &self.shared
        return sh.soft_ns != 0 and now_ns() >= sh.armed_ns + <int64_t>((sh.soft_ns - sh.armed_ns) * share)

    cdef tuple _rescue(self):
        """Stopped before depth 1 was complete: finish depth 1 within RESCUE_NODES (plenty for almost any
        position) and no deadline; cut short again, play the best root move it found, else the first."""
        cdef Worker* w = self.main
        cdef Shared* sh = &self.shared
        sh.stop = 0
        sh.hard_ns = 0
        sh.node_limit = w.nodes + RESCUE_NODES
        w.pv_index = 0
        with nogil:
            search_depth(w, 1)
        w.completed_depth = 1
        if w.root_moves[0].score == -VALUE_INF:
            return (0, [w.root_moves[0].move], w.root_moves[0].seldepth)
        return self._line(0)

    cdef tuple _line(self, int index):
        """A line of the main worker's root moves (see root_move_line)."""
        return root_move_line(&self.main.root_moves[index])

    cdef void _report_lines(self, int depth, list lines, on_info, int64_t start):
        """on_info(SearchReport) for each line of a completed iteration, best first."""
        cdef uint64_t total_nodes = self._nodes()
        cdef int64_t elapsed = (now_ns() - start) // NS_PER_MS
        for k, line in enumerate(lines):
            on_info(self._report(depth, k + 1, line, None, total_nodes, elapsed))

    @property
    def quiescence_nodes(self):
        """Of the last search's nodes (all workers), those of quiescence."""
        cdef uint64_t total = self.main.qnodes
        for k in range(self.n_helpers):
            total += self.helpers[k].qnodes
        return total

    cdef uint64_t _nodes(self):
        cdef uint64_t total = self.main.nodes
        for k in range(self.n_helpers):
            total += self.helpers[k].nodes
        return total

    cdef uint64_t _tbhits(self):
        cdef uint64_t total = self.main.tbhits
        for k in range(self.n_helpers):
            total += self.helpers[k].tbhits
        return total

    cdef SearchReport _report(self, int depth, int multipv, tuple line, str ponder_fallback,
                              uint64_t nodes, int64_t elapsed):
        """The report of a line (see _line). The ponder move is the line's second move, or
        ponder_fallback when the line has only one."""
        score, pv, seldepth = line
        moves = tuple([move_to_iccs(m) for m in pv])
        return SearchReport(moves[0], moves[1] if len(moves) > 1 else ponder_fallback, score, depth,
                            max(seldepth, depth), multipv, nodes, elapsed,
                            nodes * MS_PER_SECOND // elapsed if elapsed > 0 else nodes * MS_PER_SECOND,
                            self.hashfull(), moves, self._tbhits())

    cdef str _ponder_from_table(self, int best):
        """The table's move for the position after `best` if it is legal there, else None."""
        cdef Pos* p = &self.main.pos
        cdef MoveList ml
        cdef TTEntry* e
        make_move(p, best)
        update_rule_state(p)
        e = tt_probe(&self.shared.tt, p.hist[p.ply].key)
        reply = None
        if e != NULL and e.move:
            gen_legal(p, &ml)
            for i in range(ml.count):
                if ml.moves[i] == e.move:
                    reply = move_to_iccs(e.move)
        unmake_move(p)
        return reply

    def probe(self, Board board):
        """The transposition table's entry for the board's position (UCCI `probe`), or None when it
        holds none: (move, bound, score, depth). move: ICCS, None when the entry has none or its move is
        not legal here (a slot torn by two writers). bound: "exact", "lower" or "upper". score: the side
        to move's, in kernel units, a mate counted from this position (the table's own view, as if it
        were the root). depth: the draft the entry was searched to (0: a quiescence result).

        Reads the table without a lock, so it may be called while a search runs."""
        cdef Pos* p = board.pos
        cdef MoveList ml
        cdef TTEntry entry
        cdef TTEntry* e = tt_probe(&self.shared.tt, p.hist[p.ply].key)
        if e == NULL:
            return None
        entry = e[0]            # one copy: a search may be writing the slot
        if entry.key != p.hist[p.ply].key or entry.bound == 0:
            return None
        move = None
        if entry.move:
            gen_legal(p, &ml)
            for i in range(ml.count):
                if ml.moves[i] == entry.move:
                    move = move_to_iccs(entry.move)
        bound = "exact" if entry.bound == BOUND_EXACT else "lower" if entry.bound == BOUND_LOWER else "upper"
        return move, bound, score_from_tt(entry.score, 0), entry.depth


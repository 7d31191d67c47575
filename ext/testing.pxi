# The kernel's test API: what only tests (and measurements) ask of the kernel, kept out of the files the
# engine runs. Everything is a static method of one namespace, `_core.testing`, so that a test hook is
# recognisable where it is called (`_core.testing.chased_by(board, "h2e2")`) and no production file
# carries one. Included last: it reaches into every other file's C-level code.


cdef list _walk_and_compare(Worker* w, actions, int16_t* scratch):
    """testing.nnue_check_incremental's walk: per "eval", whether both accumulators equal a refresh."""
    cdef MoveList ml
    cdef int ply = 0, persp, code, i
    made = []            # True for a null move, per ply
    results = []
    for action in actions:
        if action == "eval":
            evaluate_node(w, ply)
            equal = True
            for persp in range(2):
                refresh_accumulator(&w.net, &w.pos, persp, scratch)
                if memcmp(scratch, stack_entry(&w.acc, ply, persp), sizeof(int16_t) * w.net.hidden) != 0:
                    equal = False
            results.append(equal)
        elif action == "undo":
            if ply == 0:
                raise ValueError("undo: no move to take back")
            if made.pop():
                unmake_null_move(&w.pos)
            else:
                unmake_move(&w.pos)
            ply -= 1
        else:
            if ply + 1 > MAX_PLY:
                raise ValueError(f"the walk goes deeper than {MAX_PLY} plies")
            if action == "null":
                note_null_move(&w.acc, ply + 1)
                make_null_move(&w.pos)
            else:
                code = iccs_to_move(action)
                gen_legal(&w.pos, &ml)
                if code == 0 or not any(ml.moves[i] == code for i in range(ml.count)):
                    raise ValueError(f"{action!r} is not a legal move here")
                note_move(&w.acc, ply + 1, &w.pos, code)
                make_move(&w.pos, code)
                update_rule_state(&w.pos)
            made.append(action == "null")
            ply += 1
    return results


class testing:
    """Hooks for the kernel's tests: incremental state checked against recomputation, and the values the
    search derives internally."""

    @staticmethod
    def computed_key(Board board):
        """The Zobrist key of the board's position recomputed from scratch (Board.key() is incremental)."""
        return compute_key(board.pos)

    @staticmethod
    def structure_key(Board board):
        """The incrementally maintained key of the generals, advisors, elephants and soldiers (the
        correction history's)."""
        return board.pos.hist[board.pos.ply].structure_key

    @staticmethod
    def computed_structure_key(Board board):
        """The structure key recomputed from scratch."""
        return compute_structure_key(board.pos)

    @staticmethod
    def attacker_keys(Board board):
        """The incrementally maintained keys of each side's chariots, horses and cannons (Red's, Black's)."""
        cdef State* st = &board.pos.hist[board.pos.ply]
        return st.attacker_keys[RED], st.attacker_keys[BLACK]

    @staticmethod
    def computed_attacker_keys(Board board):
        """The attacker keys recomputed from scratch."""
        return compute_attacker_key(board.pos, RED), compute_attacker_key(board.pos, BLACK)

    @staticmethod
    def exchange_value(Board board, str move):
        """The static exchange evaluation of a legal move (movepick.see): the material it wins, in
        SEE_VALUE units (a soldier 100, a chariot 1000), when both sides keep capturing on its
        destination with their least valuable piece. ValueError for an illegal move."""
        if not board.is_legal(move):
            raise ValueError("illegal move")
        return see(board.pos, iccs_to_move(move))

    @staticmethod
    def chased_by(Board board, str move):
        """The squares of the opponent's pieces that a legal move newly chases (the repetition rules'
        chase). ValueError for an illegal move."""
        if not board.is_legal(move):
            raise ValueError("illegal move")
        cdef uint32_t mask = chased_by_move(board.pos, iccs_to_move(move))
        unmake_move(board.pos)
        squares = []
        for piece in range(16, 48):
            if mask & piece_bit(piece):
                sq = board.pos.square[piece]
                squares.append("%c%d" % (97 + file_of(sq), rank_of(sq)))
        return squares

    @staticmethod
    def checks_both_ways(Board board):
        """For each legal move (ICCS): whether it gives check by move_gives_check, read before it is made
        (the search's test of a pruned move), and by gives_check once it is made."""
        cdef MoveList ml
        cdef int i, move
        cdef bint before, after
        gen_legal(board.pos, &ml)
        result = {}
        for i in range(ml.count):
            move = ml.moves[i]
            before = move_gives_check(board.pos, move)
            make_move(board.pos, move)
            after = gives_check(board.pos)
            unmake_move(board.pos)
            result[move_to_iccs(move)] = (before, after)
        return result

    @staticmethod
    def lmr_table():
        """The late move reduction table, LMR_TABLE[depth][move number] (search.pxi), as the parameters
        in force derive it."""
        return [[LMR_TABLE[d][m] for m in range(LMR_SIZE)] for d in range(LMR_SIZE)]

    @staticmethod
    def nnue_features(Board board, int version=1):
        """The active input indices of the board's position for a network of JJNN `version` (1 or 2):
        (Red's perspective, Black's), each a sorted list."""
        cdef int persp, piece, view
        cdef NnueNetwork kind
        if version not in (1, 2):
            raise ValueError(f"JJNN version {version} is not supported (1 or 2)")
        kind.king_buckets = version == 2
        result = []
        for persp in range(2):
            view = perspective_view(&kind, board.pos, persp)
            result.append(sorted([feature_of(persp, view, piece, board.pos.square[piece])
                                  for piece in range(16, 48) if board.pos.square[piece]]))
        return tuple(result)

    @staticmethod
    def nnue_refreshes(Searcher searcher):
        """The accumulators the searcher's main thread has computed afresh after an own general's move (a
        version 2 network's refreshes) since the Searcher was made: for measuring what they cost."""
        return searcher.main.acc.refreshes

    @staticmethod
    def nnue_check_incremental(Board board, actions, bint with_refreshes=False):
        """Walk from the board's position as a search does, with a search worker's accumulator stack, and
        check the lazily updated accumulators against ones computed from scratch.

        actions: ICCS moves (made as the search makes them), "null" (a null move), "undo" (take back the
        last move or null move) and "eval" (evaluate the current node). Returns one bool per "eval":
        whether both perspectives' accumulators equal a refresh; with `with_refreshes`, (that list, the
        number of accumulators the walk computed afresh after an own general's move: version 2
        networks). Raises RuntimeError without a network (set_network), ValueError for an illegal move,
        an undo at the start, or a walk deeper than the search goes.
        """
        cdef _NetworkArrays network = loaded_network
        if network is None:
            raise RuntimeError("no network is loaded (set_network)")
        cdef Shared shared
        cdef int16_t* scratch = NULL
        memset(&shared, 0, sizeof(Shared))
        cdef Worker* w = new_worker(&shared)
        try:
            copy_position(&w.pos, board.pos)
            w.root_ply = w.pos.ply
            prepare_evaluation(w, network)
            scratch = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * network.net.hidden)
            if scratch == NULL:
                raise MemoryError()
            results = _walk_and_compare(w, actions, scratch)
            refreshes = w.acc.refreshes
        finally:
            free(scratch)
            free_worker(w)
        return (results, refreshes) if with_refreshes else results


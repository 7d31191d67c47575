# Endgame tablebases, part 3: the Python-visible table, TbTable, used by engine.tablebase. It holds one
# material's index (tb_index.pxi) and, once allocated, its two value arrays (one per side to move,
# uint16 entries as tb_index.pxi describes) and its two arrays of the distance to conversion (a byte per
# entry, tb_dtc.pxi), and generates, verifies and reads them.

TB_VALUE_DRAW = TB_DRAW
TB_VALUE_DRAW_RULES = TB_DRAW_RULES
TB_VALUE_ILLEGAL = TB_ILLEGAL
TB_VALUE_MAX_DTM = TB_MAX_DTM
TB_VALUE_MAX_ORDER = TB_MAX_ORDER
TB_VALUE_KIND_CHECK = TB_KIND_CHECK
TB_DTC_NO_VALUE = TB_DTC_NONE
TB_NATURAL_LIMIT = NATURAL_LIMIT


cdef class TbArrayBytes:
    """The bytes of one of a table's arrays, read in place (memoryview(TbArrayBytes(...))): the file
    writer compresses them without a copy, and the table stays alive while they are read."""
    cdef object owner
    cdef char* data
    cdef Py_ssize_t length

    def __getbuffer__(self, Py_buffer* buffer, int flags):
        PyBuffer_FillInfo(buffer, self, self.data, self.length, 1, flags)

    def __releasebuffer__(self, Py_buffer* buffer):
        pass


cdef object array_bytes(object owner, void* data, Py_ssize_t length):
    cdef TbArrayBytes view = TbArrayBytes.__new__(TbArrayBytes)
    view.owner = owner
    view.data = <char*>data
    view.length = length
    return memoryview(view)


def tb_entry_fields(int v):
    """(wdl, order, plies, kinds) of a decided entry: wdl 1 (the side to move wins) or -1, order 0 (by
    mates: plies to mate) or k >= 1 (through the k-th round of rulings: plies to the position where the
    ruling applies), kinds the mask of a position lost now by a ruling (TB_VALUE_KIND_CHECK | 1 << piece
    type, else 0). None for any other entry (draws, marked draws, illegal)."""
    if not tb_is_decided(v):
        return None
    return (1 if tb_distance(v) & 1 else -1), tb_order(v), tb_distance(v), tb_ruled_kinds(v)


cdef int allocate_sides(uint8_t** arrays, int64_t size) except -1:
    """A zeroed byte per entry for each side to move, where arrays[side] is not allocated yet."""
    cdef int s
    for s in range(2):
        if arrays[s] == NULL:
            arrays[s] = <uint8_t*>calloc(size, 1)
            if arrays[s] == NULL:
                raise MemoryError()
    return 0


cdef void free_sides(uint8_t** arrays) noexcept:
    cdef int s
    for s in range(2):
        free(arrays[s])
        arrays[s] = NULL


cdef class TbTable:
    """The index and values of one material, in table orientation (Red is the side named first).

    red, black: piece counts per kernel type (K, A, B, N, R, C, P), one general each."""
    cdef TbLayout lay
    cdef TbGen gen
    cdef uint8_t* clean[2]      # instead of the distance to conversion: a bit per entry, whether it has one
    cdef list _keep             # the sub-tables, alive while this table uses them
    cdef int threads            # the threads a pass of generate is shared by (tb_share.pxi)
    cdef TbGen* helpers         # theirs, from the second on

    def __cinit__(self):
        memset(&self.lay, 0, sizeof(TbLayout))
        memset(&self.gen, 0, sizeof(TbGen))

    def __init__(self, red, black):
        tb_build_layout(&self.lay, (tuple(red), tuple(black)))
        self.gen.lay = &self.lay
        self.gen.here = -1
        tb_init_kinds(&self.gen)
        self.gen.pos = <Pos*>malloc(sizeof(Pos))
        if self.gen.pos == NULL:
            raise MemoryError()
        self._keep = []
        self.threads = 1

    def __dealloc__(self):
        self._free_helpers()
        free(self.gen.values[0])
        free(self.gen.values[1])
        free_sides(self.gen.dtc)
        free_sides(self.clean)
        free_sides(self.gen.safe)
        free_sides(self.gen.holds)
        free_sides(self.gen.candidates)
        free_sides(self.gen.kinds)
        free(self.gen.pos)
        tb_free_layout(&self.lay)

    @property
    def size(self):
        """Entries per side to move."""
        return self.lay.size

    @property
    def allocated(self):
        return self.gen.values[0] != NULL

    @property
    def has_dtc(self):
        """Whether the distance to conversion is computed or loaded."""
        return self.gen.dtc[0] != NULL and self.gen.dtc[1] != NULL

    @property
    def dtc_limit(self):
        """The natural limit (plies) the distance to conversion was computed for."""
        return self.gen.dtc_limit

    def index_of(self, Board board, bint flip=False):
        """(index, side to move in table orientation) of a board, read colour-flipped when flip is set;
        None when its material is not this table's or a piece stands off its points."""
        cdef int side
        cdef int64_t index = tb_encode(&self.lay, board.pos, flip, &side)
        return None if index < 0 else (index, side)

    def position_of(self, int64_t index):
        """(side, type, file, rank) of each piece of an entry; None when its pieces overlap."""
        self._check_index(index)
        if not tb_decode(&self.lay, index, self.gen.pos):
            return None
        cdef int piece, sq
        out = []
        for piece in range(16, 48):
            sq = self.gen.pos.square[piece]
            if sq:
                out.append((piece_side(piece), PIECE_TYPE[piece], file_of(sq), rank_of(sq)))
        return out

    def mirrored_twice(self, int64_t index):
        """Whether the entry stands for itself and its left-right mirror (group 0 not symmetric)."""
        self._check_index(index)
        return not tb_group0_symmetric(&self.lay, index)

    def count_legal(self):
        """(positions with Red to move, with Black to move) that the index holds and the rules allow: no
        overlap, the side not to move not in check. An entry counts twice when it stands for its mirror."""
        cdef int64_t index
        cdef int64_t counts[2]
        cdef int s, weight
        counts[0] = counts[1] = 0
        with nogil:
            for index in range(self.lay.size):
                if not tb_decode(&self.lay, index, self.gen.pos):
                    continue
                weight = 1 if tb_group0_symmetric(&self.lay, index) else 2
                for s in range(2):
                    if not king_attacked(self.gen.pos, s ^ 1):
                        counts[s] += weight
        return counts[0], counts[1]

    def set_subtable(self, int side, int ptype, TbTable table, bint flip):
        """The table a capture of a piece of (side, type) leads to, read colour-flipped when flip is set;
        None: such a capture leaves no attacker on the board (a draw)."""
        cdef TbSub* S = &self.gen.sub[side][ptype]
        if table is None:
            S.kind = TB_SUB_DRAW
            return
        if not table.allocated or not (table.has_dtc or table.clean[0] != NULL and table.clean[1] != NULL):
            raise ValueError("the sub-table has no values or no distance to conversion")
        S.kind = TB_SUB_TABLE
        S.flip = flip
        S.lay = &table.lay
        S.values[0] = table.gen.values[0]
        S.values[1] = table.gen.values[1]
        S.dtc[0] = table.gen.dtc[0]
        S.dtc[1] = table.gen.dtc[1]
        S.clean[0] = table.clean[0]
        S.clean[1] = table.clean[1]
        self.gen.sub_order = max(self.gen.sub_order, table.highest_order())
        marked = table.marked_sides()
        self.gen.sub_marked |= ((marked & 1) << 1) | (marked >> 1) if flip else marked
        self._keep.append(table)

    def marked_sides(self):
        """The sides (0: Red, 1: Black, as bits 1 << side) that some draw of the table is marked for."""
        self._check_values()
        cdef int s, v, marked = 0
        cdef int64_t index
        with nogil:
            for s in range(2):
                for index in range(self.lay.size):
                    v = self.gen.values[s][index]
                    if (v & ~3) == TB_DRAW_RULES:
                        marked |= v & 3
        return marked

    def highest_order(self):
        """The highest order of the table's values (0: none decided through a ruling)."""
        self._check_values()
        cdef int s, v, highest = 0
        cdef int64_t index
        with nogil:
            for s in range(2):
                for index in range(self.lay.size):
                    v = self.gen.values[s][index]
                    if tb_is_decided(v) and tb_order(v) > highest:
                        highest = tb_order(v)
        return highest

    def allocate(self):
        """Allocate the two value arrays (2 bytes per entry each), all unknown."""
        cdef int s
        cdef int64_t index
        for s in range(2):
            if self.gen.values[s] == NULL:
                self.gen.values[s] = <uint16_t*>malloc(self.lay.size * sizeof(uint16_t))
                if self.gen.values[s] == NULL:
                    raise MemoryError()
            for index in range(self.lay.size):
                self.gen.values[s][index] = TB_UNKNOWN

    def generate(self, progress=None, int dtc_limit=NATURAL_LIMIT, int threads=1, checkpoint=None):
        """Retrograde analysis (tb_gen.pxi), the rulings' rounds and the draws the rules might change marked
        (tb_rules.pxi), then the distance to conversion for a natural limit of dtc_limit plies (tb_dtc.pxi,
        the sub-tables' computed for the same limit); returns the number of passes, all orders together.
        progress(message), when given, is called after each pass with where the generation stands (a line
        for a person: the step, the pass, what it found). The main passes are shared by `threads` threads
        (tb_share.pxi), with the same values as one.
        checkpoint, when given, keeps a generation that may be stopped (engine.tablebase.checkpoint): its
        resume(table) loads a saved one into this table (its arrays, then restore_generator_scalars) and
        gives its step, or gives None; its passed(table, step) is called after each pass of the main steps
        and of the draws' safe sides, and once the values are final, and may save the table with the step
        (a dict) and generator_scalars(); while the draws are marked, with safe_bytes() too.
        RuntimeError when a capture led to material without a table (set_subtable); OverflowError when a
        value does not fit an entry."""
        self._share_by(threads)
        step = checkpoint.resume(self) if checkpoint is not None else None
        self.gen.rule_bits = False                # a resumed generation has lost them: looks at every entry
        self.gen.tops_known[0] = self.gen.tops_known[1] = False
        if step is None:
            self.allocate()
            allocate_sides(self.gen.candidates, self.lay.size)
            self.gen.rule_bits = True
            self.gen.errors = 0
            tb_start_distances(&self.gen)
            self._run(TB_JOB_INITIALISE)
            step = {"step": "values", "order": 0, "pass": 1, "passes": 0}
        progress = progress or (lambda message: None)
        if step["step"] == "values":
            self._decide_values(step, progress, checkpoint)
            step.update({"step": "marks", "pass": 0})
        if step["step"] == "marks":
            self._mark_draws(step, progress, checkpoint)
            step.update({"step": "distances", "pass": 0})
            if checkpoint is not None:
                checkpoint.passed(self, step)
        self._compute_dtc(dtc_limit, step, progress, checkpoint)
        if self.gen.errors:
            raise RuntimeError(f"{self.gen.errors} captures could not be valued: a sub-table is missing")
        return step["passes"]

    def generator_scalars(self):
        """What a generation stopped between two passes needs besides its arrays and its step."""
        return {"order": self.gen.order, "decided": self.gen.decided, "errors": self.gen.errors,
                "max_distance": [self.gen.max_distance[k] for k in range(TB_MAX_ORDER + 1)],
                "dtc_limit": self.gen.dtc_limit, "dtc_highest": self.gen.dtc_highest}

    def restore_generator_scalars(self, scalars):
        """generator_scalars() of a stopped generation, back (its arrays loaded)."""
        cdef int k
        self.gen.order = scalars["order"]
        self.gen.decided = scalars["decided"]
        self.gen.errors = scalars["errors"]
        for k in range(TB_MAX_ORDER + 1):
            self.gen.max_distance[k] = scalars["max_distance"][k]
        self.gen.overflow = False
        self.gen.dtc_limit = scalars["dtc_limit"]
        self.gen.dtc_highest = scalars["dtc_highest"]

    def _decide_values(self, step, progress, checkpoint):
        """Steps 2 and 3: the passes of order 0, then each order's rulings' round and passes, until an
        order decides nothing and no sub-table has a value of it; from `step`'s order and pass on."""
        cdef int order = step["order"]
        try:
            while True:
                if order > TB_MAX_ORDER:
                    raise OverflowError(f"a ruling of order above {TB_MAX_ORDER}: the entry cannot hold it")
                self.gen.order = order
                if order > 0 and step["pass"] == 1:
                    self.gen.decided = 0
                    self._rule_round()
                    progress(f"rulings of order {order}: {self.gen.decided:,} entries decided")
                self._passes(progress, step, checkpoint)
                if order > 0 and self.gen.decided == 0 and order > self.gen.sub_order:
                    return
                order += 1
                step.update({"order": order, "pass": 1})
        finally:
            self.gen.rule_bits = False
            free_sides(self.gen.candidates)

    def _compute_dtc(self, int limit, step, progress, checkpoint):
        """Step 5: the distance to conversion (tb_dtc.pxi), from `step`'s pass on (0: from its start)."""
        cdef int d = step["pass"]
        cdef int64_t frontier
        if d == 0:
            if not 1 <= limit < TB_DTC_OPEN:
                raise ValueError(f"a natural limit of {limit} plies: 1 to {TB_DTC_OPEN - 1}")
            allocate_sides(self.gen.dtc, self.lay.size)
            self.gen.dtc_limit = limit
            with nogil:
                tb_dtc_open(&self.gen)
            self._run(TB_JOB_DTC_START)
            d = 1
        try:
            allocate_sides(self.gen.candidates, self.lay.size)
            while d <= self.gen.dtc_limit and d - 1 <= self.gen.dtc_highest:   # nothing at d - 1: nothing follows
                frontier = self._run(TB_JOB_DTC, d)
                self._run(TB_JOB_DTC_LOSSES, d)
                progress(f"distances to conversion, pass {d}: {frontier:,} entries at distance {d - 1}")
                d += 1
                step["pass"] = d
                if checkpoint is not None:
                    checkpoint.passed(self, step)
        finally:
            free_sides(self.gen.candidates)
        with nogil:
            tb_dtc_close(&self.gen)

    def _passes(self, progress, step=None, checkpoint=None):
        """Step 2 (or 3) for the order being decided, until a pass is past every distance written; from
        `step`'s pass on when given (kept up to date, with its count of passes, for checkpoint)."""
        cdef int d = step["pass"] if step is not None else 1
        cdef int64_t frontier
        try:
            allocate_sides(self.gen.candidates, self.lay.size)
            while d - 1 <= self.gen.max_distance[self.gen.order]:
                frontier = self._run(TB_JOB_RETRO, d)
                if (d - 1) % 2 == 1:
                    self._run(TB_JOB_LOSSES, d)
                if self.gen.overflow:
                    raise OverflowError(f"a distance of order {self.gen.order} the 16-bit entry cannot hold")
                if progress is not None:
                    progress(f"values of order {self.gen.order}, pass {d}: {frontier:,} entries at "
                             f"distance {d - 1}")
                d += 1
                if step is not None:
                    step["pass"] = d
                    step["passes"] += 1
                    if checkpoint is not None:
                        checkpoint.passed(self, step)
        finally:
            if not self.gen.rule_bits:      # else kept for the rulings' next round (_decide_values frees it)
                free_sides(self.gen.candidates)

    def _rule_round(self):
        """The positions lost now by the rulings of this round (tb_rules.pxi, part A), then the entries whose
        captures lead to sub-table values of its order examined again."""
        cdef int s
        cdef bint changed
        try:
            allocate_sides(self.gen.kinds, self.lay.size)
            for s in range(2):
                if rules_apply(&self.gen, s):
                    changed = self._run(TB_JOB_RULES_TOP, s) != 0
                    self.gen.tops_known[s] = self.gen.rule_bits and not self.gen.relaxed
                    with nogil:
                        rule_side(&self.gen, s, changed)
        finally:
            free_sides(self.gen.kinds)
        if self.gen.order <= self.gen.sub_order:
            self._run(TB_JOB_RECHECK)

    def _share_by(self, int threads):
        """Share the passes by `threads` threads from now on (one for a table too small to gain)."""
        cdef int t
        if self.lay.size < TB_SHARE_MIN_ENTRIES:
            threads = 1
        self._free_helpers()
        if threads > 1:
            self.helpers = <TbGen*>calloc(threads, sizeof(TbGen))
            if self.helpers == NULL:
                raise MemoryError()
            for t in range(1, threads):
                self.helpers[t].pos = <Pos*>malloc(sizeof(Pos))
                if self.helpers[t].pos == NULL:
                    self._free_helpers()
                    raise MemoryError()
        self.threads = max(threads, 1)

    def _free_helpers(self):
        cdef int t
        if self.helpers != NULL:
            for t in range(1, self.threads):
                free(self.helpers[t].pos)
            free(self.helpers)
            self.helpers = NULL
        self.threads = 1

    def _run(self, int job, int d=0):
        """One pass (tb_share.pxi) over the whole table; returns the sum of what its ranges return."""
        cdef int t
        cdef int64_t total
        if self.threads == 1:
            with nogil:
                total = tb_run_share(&self.gen, job, d, 0, 1)
            return total
        for t in range(1, self.threads):
            tb_share_from(&self.helpers[t], &self.gen)
        totals = [0] * self.threads
        running = [_threading.Thread(target=self._run_helper, args=(job, d, t, totals))
                   for t in range(1, self.threads)]
        for thread in running:
            thread.start()
        with nogil:
            total = tb_run_share(&self.gen, job, d, 0, self.threads)
        for thread in running:
            thread.join()
        for t in range(1, self.threads):
            tb_share_into(&self.gen, &self.helpers[t])
        return total + sum(totals)

    def _run_helper(self, int job, int d, int t, list totals):
        cdef int64_t total
        with nogil:
            total = tb_run_share(&self.helpers[t], job, d, t, self.threads)
        totals[t] = total

    def _mark_draws(self, step, progress, checkpoint):
        """Step 4: the exposure bound for each side it applies to, what is still unknown a draw, and the
        draws a ruling might still change marked (tb_rules.pxi, parts B and C; the safe sides' passes
        shared by the threads); from `step`'s pass of the safe sides on (0: from the start; later, the
        safe sides' arrays loaded by checkpoint, which may save after each pass)."""
        cdef int s
        cdef int64_t changed
        try:
            if step["pass"] == 0:
                allocate_sides(self.gen.safe, self.lay.size)
                for s in range(2):
                    if bound_applies(&self.gen, s):
                        self._expose(s)
                allocate_sides(self.gen.holds, self.lay.size)
                with nogil:
                    tb_finish(&self.gen)
                    tb_safety_start(&self.gen)
                self._run(TB_JOB_SAFETY, SAFETY_FIRST)
                step["pass"] = 1
                if checkpoint is not None:
                    checkpoint.passed(self, step)
            allocate_sides(self.gen.holds, self.lay.size)     # resumed: none known
            while True:
                with nogil:
                    changed = tb_safety_round(&self.gen)
                if changed == 0:
                    break
                progress(f"marks of the draws, pass {step['pass']}: {changed:,} entries lost a safe side")
                self._run(TB_JOB_SAFETY, SAFETY_FRONTIER)
                self._run(TB_JOB_SAFETY, SAFETY_RECHECK)
                step["pass"] += 1
                if checkpoint is not None:
                    checkpoint.passed(self, step)
            with nogil:
                tb_flag_rule_draws(&self.gen)
        finally:
            free_sides(self.gen.safe)
            free_sides(self.gen.holds)

    def safe_bytes(self, int side):
        """While the draws are marked (step 4): the safe sides' array of one side to move, a byte per
        entry, read in place."""
        if self.gen.safe[0] == NULL or self.gen.safe[1] == NULL:
            raise ValueError("the table is not marking its draws")
        return array_bytes(self, self.gen.safe[side & 1], self.lay.size)

    def load_safe(self, int side, const unsigned char[:] data):
        """Set one side's safe sides' array from safe_bytes' form (a save of a generation while marking)."""
        if data.shape[0] != self.lay.size:
            raise ValueError(f"expected {self.lay.size} bytes of safe sides, got {data.shape[0]}")
        allocate_sides(self.gen.safe, self.lay.size)
        memcpy(self.gen.safe[side & 1], &data[0], self.lay.size)

    def _expose(self, int side):
        """Part B for one side: the relaxed rulings' rounds from the first order not used, then their
        entries undecided again and marked exposed (all undecided ones if the orders run out)."""
        cdef int order = self.gen.order
        self.gen.relaxed = True
        self.gen.exposed_side = side
        self.gen.bound_order = order
        try:
            if self.gen.sub_marked & (1 << side):
                with nogil:
                    tb_bound_start(&self.gen)
                self._passes(None)
            while True:
                order += 1
                if order > TB_MAX_ORDER:
                    break
                self.gen.order = order
                self.gen.decided = 0
                self._rule_round()
                self._passes(None)
                if self.gen.decided == 0:
                    break
            with nogil:
                tb_bound_finish(&self.gen, order > TB_MAX_ORDER)
        finally:
            self.gen.relaxed = False
            self.gen.order = self.gen.bound_order

    def verify(self):
        """(mismatches, (index, side) of the last one or None): every entry against its successors
        (sub-tables for the captures): a position lost now by a ruling by the ruling's condition, any other
        by one ply of minimax; for a draw, the sides its mark calls safe must be safe by its successors'
        marks, or, for a side the exposure bound applies to, be reached by its attractor (tb_rules.pxi);
        and the distance to conversion by its successors' (tb_dtc.pxi), when the table has it."""
        cdef int64_t bad, bad_index = -1
        cdef int bad_side = -1
        cdef int s
        self._check_values()
        self.gen.errors = 0
        with nogil:
            bad = tb_verify(&self.gen, &bad_index, &bad_side)
        for s in range(2):
            if bound_applies(&self.gen, s):
                bad += self._verify_bound(s, &bad_index, &bad_side)
        if self.has_dtc:
            with nogil:
                bad += tb_verify_dtc(&self.gen, &bad_index, &bad_side)
        bad += self.gen.errors
        return bad, (None if bad_index < 0 else (bad_index, bad_side))

    cdef int64_t _verify_bound(self, int side, int64_t* bad_index, int* bad_side) except -1:
        """The draws called safe for a side the exposure bound applies to (tb_verify_bound)."""
        cdef int64_t bad
        try:
            allocate_sides(self.gen.kinds, self.lay.size)
            with nogil:
                bad = tb_verify_bound(&self.gen, side, bad_index, bad_side)
        finally:
            free_sides(self.gen.kinds)
        return bad

    def value(self, int64_t index, int side):
        """The entry's value: a decided one (tb_entry_fields reads it), TB_VALUE_DRAW, TB_VALUE_DRAW_RULES
        | 1 (Red) | 2 (Black: the sides that might be forced to check or chase), or TB_VALUE_ILLEGAL."""
        self._check_values()
        self._check_index(index)
        return self.gen.values[side & 1][index]

    def dtc(self, int64_t index, int side):
        """The entry's distance to conversion in plies, TB_DTC_NO_VALUE when it has none (tb_dtc.pxi)."""
        self._check_dtc()
        self._check_index(index)
        return self.gen.dtc[side & 1][index]

    def values_bytes(self, int side):
        """The value array of one side to move, little-endian uint16, read in place (a memoryview)."""
        self._check_values()
        return array_bytes(self, self.gen.values[side & 1], self.lay.size * 2)

    def dtc_bytes(self, int side):
        """The distance-to-conversion array of one side to move, a byte per entry, read in place."""
        self._check_dtc()
        return array_bytes(self, self.gen.dtc[side & 1], self.lay.size)

    def load_dtc(self, int side, const unsigned char[:] data, int limit):
        """Set one side's distance to conversion (computed for a natural limit of `limit` plies) from
        dtc_bytes' form."""
        if data.shape[0] != self.lay.size:
            raise ValueError(f"expected {self.lay.size} bytes of distances to conversion, got {data.shape[0]}")
        allocate_sides(self.gen.dtc, self.lay.size)
        self.gen.dtc_limit = limit
        memcpy(self.gen.dtc[side & 1], &data[0], self.lay.size)

    def load_clean(self, int side, const unsigned char[:] data):
        """As a sub-table only (set_subtable): whether each entry has a distance to conversion, a bit per
        entry, from dtc_bytes' form (an eighth of its memory)."""
        cdef int64_t index
        cdef uint8_t* bits
        if data.shape[0] != self.lay.size:
            raise ValueError(f"expected {self.lay.size} bytes of distances to conversion, got {data.shape[0]}")
        if self.clean[side & 1] == NULL:
            self.clean[side & 1] = <uint8_t*>calloc((self.lay.size + 7) >> 3, 1)
            if self.clean[side & 1] == NULL:
                raise MemoryError()
        bits = self.clean[side & 1]
        with nogil:
            for index in range(self.lay.size):
                if data[index] != TB_DTC_NONE:
                    bits[index >> 3] |= 1 << (index & 7)

    def load_values(self, int side, const unsigned char[:] data):
        """Set one side's value array from values_bytes' form."""
        if data.shape[0] != self.lay.size * 2:
            raise ValueError(f"expected {self.lay.size * 2} bytes of values, got {data.shape[0]}")
        if self.gen.values[side & 1] == NULL:
            self.allocate()
        memcpy(self.gen.values[side & 1], &data[0], self.lay.size * 2)

    def statistics(self):
        """Per side to move: {"win", "draw", "draw_rules" (the marked draws, counted in "draw" too), "loss",
        "illegal", "ruled_win", "ruled_loss" (wins and losses decided through a ruling, counted in "win" and
        "loss" too), "ruled_now" (positions lost now by a ruling, in "ruled_loss"), "order" (the highest),
        "longest" (the longest mate, -1: none), "longest_index"}; with the distance to conversion, also
        "win_beyond_limit" and "loss_beyond_limit" (wins and losses by mates without one: the natural limit
        may draw them) and "longest_dtc" (-1: none)."""
        self._check_values()
        out = []
        cdef int s, v, order, longest_dtc
        cdef int64_t index, longest_index
        cdef int64_t counts[10]
        cdef int longest
        cdef bint dtc = self.has_dtc
        for s in range(2):
            memset(counts, 0, sizeof(counts))
            longest = -1
            longest_index = -1
            longest_dtc = -1
            order = 0
            with nogil:
                for index in range(self.lay.size):
                    v = self.gen.values[s][index]
                    if dtc and v <= TB_MAX_DTM:
                        if self.gen.dtc[s][index] == TB_DTC_NONE:
                            counts[8 + (v % 2 == 0)] += 1
                        elif self.gen.dtc[s][index] > longest_dtc:
                            longest_dtc = self.gen.dtc[s][index]
                    if v == TB_ILLEGAL:
                        counts[3] += 1
                    elif not tb_is_decided(v):
                        counts[1] += 1
                        if v != TB_DRAW and v != TB_UNKNOWN:
                            counts[4] += 1
                    else:
                        counts[0 if tb_distance(v) % 2 == 1 else 2] += 1
                        if tb_order(v):
                            counts[5 if tb_distance(v) % 2 == 1 else 6] += 1
                            counts[7] += tb_ruled_kinds(v) != 0
                            order = max(order, tb_order(v))
                        elif v % 2 == 1 and v > longest:
                            longest = v
                            longest_index = index
            out.append({"win": counts[0], "draw": counts[1], "draw_rules": counts[4], "loss": counts[2],
                        "illegal": counts[3], "ruled_win": counts[5], "ruled_loss": counts[6],
                        "ruled_now": counts[7], "order": order,
                        "longest": longest, "longest_index": longest_index})
            if dtc:
                out[len(out) - 1].update(win_beyond_limit=counts[8], loss_beyond_limit=counts[9], longest_dtc=longest_dtc)
        return out

    def _check_values(self):
        if self.gen.values[0] == NULL or self.gen.values[1] == NULL:
            raise ValueError("the table has no values: generate() or load_values() first")

    def _check_dtc(self):
        if not self.has_dtc:
            raise ValueError("the table has no distance to conversion: generate() or load_dtc() first")

    def _check_index(self, int64_t index):
        if not 0 <= index < self.lay.size:
            raise IndexError(f"index {index} outside 0..{self.lay.size - 1}")

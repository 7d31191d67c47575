# Endgame tablebases in the search: the tables read whole into memory (ProbeTables, loaded by Python
# before a search, never during one), found by a position's material, and probed without the GIL.
#
# The search probes right after a capture only (search.pxi): no position before the capture can come
# back, so the table's value is the node's whatever the game record holds, and the natural limit's counter
# has just restarted. An entry is read through tb_entry_wdl (tb_index.pxi), the one decoder of the
# encoding: a draw the check/chase rulings might change is unsure, and the search goes on there.
#
# Scores (types.pxi): a table win scores VALUE_TB - (plies from the root to the node + the entry's
# distance), a loss the negative, a draw VALUE_DRAW. The distance is the DTM when the mate comes before the
# natural limit as the node's counter stands, else the distance to conversion (tb_dtc.pxi) when the next
# capture does; a win or loss with neither is unsure (the limit may draw it).

cdef enum:
    MATERIAL_BITS = 3            # per side and type in a material key: counts 0..7 (soldiers: at most 5)


cdef struct TbProbeEntry:
    uint64_t material            # the material key (material_key) of the positions this entry reads
    bint flip                    # read them colour-flipped: the table names Black's pieces first
    TbLayout* lay
    uint16_t* values[2]          # per side to move, in table orientation
    uint8_t* dtc[2]              # the distance to conversion, likewise


cdef struct TbStore:
    int count
    int max_pieces               # the most pieces (generals included) of any table: a quick "no"
    TbProbeEntry* entries


cdef inline uint64_t material_unit(int side, int ptype) noexcept nogil:
    return (<uint64_t>1) << (MATERIAL_BITS * (side * PIECE_TYPES + ptype))


cdef uint64_t material_key(Pos* p, int most, int* pieces) noexcept nogil:
    """The counts of each side's pieces by type, packed; pieces[0] their number. Stops counting (the key
    then means nothing) as soon as there are more than `most` pieces."""
    cdef uint64_t key = 0
    cdef int piece, n = 0
    for piece in range(16, 48):
        if p.square[piece]:
            n += 1
            if n > most:
                break
            key += material_unit(piece_side(piece), PIECE_TYPE[piece])
    pieces[0] = n
    return key


cdef uint64_t layout_material(TbLayout* L, bint flip) noexcept nogil:
    """The material key of the positions a layout holds, read colour-flipped when flip is set."""
    cdef uint64_t key = 0
    cdef int s, g
    for s in range(2):
        key += material_unit(s ^ flip, KING)
        key += L.advisors[s] * material_unit(s ^ flip, ADVISOR)
        key += L.elephants[s] * material_unit(s ^ flip, ELEPHANT)
    for g in range(2, L.ngroups):
        key += L.group_count[g] * material_unit(L.group_side[g] ^ flip, L.group_type[g])
    return key


cdef int layout_pieces(TbLayout* L) noexcept nogil:
    cdef int g, n = 0
    for g in range(L.ngroups):
        n += group_pieces(L, g)
    return n


cdef TbProbeEntry* find_table(TbStore* store, uint64_t material) noexcept nogil:
    """The entry reading positions of this material, NULL when none (a few dozen entries: a scan)."""
    cdef int i
    for i in range(store.count):
        if store.entries[i].material == material:
            return &store.entries[i]
    return NULL


cdef int tb_probe_position(TbStore* store, Pos* p, int* plies) noexcept nogil:
    """The side to move's result by the tables: TB_WDL_WIN or TB_WDL_LOSS (plies[0]: the plies to mate, or
    to the next capture when only that comes before the natural limit), TB_WDL_DRAW, or TB_WDL_UNSURE when
    no table holds the position, its entry is unsure, or neither its mate nor its next capture comes
    before the natural limit as the position's counter stands (the limit may make it a draw)."""
    cdef int pieces, side, wdl, value, plies_left
    cdef int64_t index
    cdef uint64_t material = material_key(p, store.max_pieces, &pieces)
    cdef TbProbeEntry* e
    if pieces > store.max_pieces:
        return TB_WDL_UNSURE
    e = find_table(store, material)
    if e == NULL:
        return TB_WDL_UNSURE
    index = tb_encode(e.lay, p, e.flip, &side)
    if index < 0:
        return TB_WDL_UNSURE
    value = e.values[side][index]
    wdl = tb_entry_wdl(value)
    if wdl == TB_WDL_WIN or wdl == TB_WDL_LOSS:
        plies[0] = tb_entry_plies(value)
        plies_left = NATURAL_LIMIT - p.hist[p.ply].rule60
        if plies[0] > plies_left:
            plies[0] = e.dtc[side][index]        # TB_DTC_NONE past any counter
            if plies[0] > plies_left:
                return TB_WDL_UNSURE
    return wdl


cdef inline int table_score(int wdl, int plies, int ply) noexcept nogil:
    """The search's score of a table result at `ply` plies from the root (see the top of the file)."""
    if wdl == TB_WDL_WIN:
        return VALUE_TB - ply - plies
    if wdl == TB_WDL_LOSS:
        return -(VALUE_TB - ply - plies)
    return VALUE_DRAW


cdef inline int limit_table_score(int score, int rule60) noexcept nogil:
    """A table win or loss read from the transposition table at a node `rule60` plies into the natural
    limit: kept when its mate or next capture (VALUE_TB - |score| plies away) comes before the limit, else a winning
    (losing) evaluation. The entry may have been stored where the counter had just restarted (Stockfish
    guards its tables' scores against the 50-move rule the same way). Real mates are left alone."""
    if score >= VALUE_TB_WIN_IN_MAX and score < VALUE_MATE_IN_MAX and VALUE_TB - score > NATURAL_LIMIT - rule60:
        return VALUE_EVAL_MAX
    if score <= -VALUE_TB_WIN_IN_MAX and score > -VALUE_MATE_IN_MAX and VALUE_TB + score > NATURAL_LIMIT - rule60:
        return -VALUE_EVAL_MAX
    return score


cdef class ProbeTables:
    """Tables read whole into memory (TbTable objects whose values are loaded), for the search to probe
    without the GIL (Searcher.set_tablebase). Holds the tables alive while a searcher uses them.

    A table is found by a position's material, either way round: the table of KRKA reads a position
    with Red's chariot and one with Black's."""
    cdef TbStore store
    cdef list _tables

    def __cinit__(self):
        memset(&self.store, 0, sizeof(TbStore))

    def __init__(self, tables=()):
        cdef TbTable table
        self._tables = list(tables)
        self.store.entries = <TbProbeEntry*>malloc(max(1, 2 * len(self._tables)) * sizeof(TbProbeEntry))
        if self.store.entries == NULL:
            raise MemoryError()
        for table in self._tables:
            if not table.allocated or not table.has_dtc:
                raise ValueError("a table without values or distances to conversion: load them first")
            self._add(table, False)
            if layout_material(&table.lay, True) != layout_material(&table.lay, False):
                self._add(table, True)
            self.store.max_pieces = max(self.store.max_pieces, layout_pieces(&table.lay))

    cdef void _add(self, TbTable table, bint flip):
        cdef TbProbeEntry* e = &self.store.entries[self.store.count]
        e.material = layout_material(&table.lay, flip)
        e.flip = flip
        e.lay = &table.lay
        e.values[0] = table.gen.values[0]
        e.values[1] = table.gen.values[1]
        e.dtc[0] = table.gen.dtc[0]
        e.dtc[1] = table.gen.dtc[1]
        self.store.count += 1

    def __dealloc__(self):
        free(self.store.entries)

    def __len__(self):
        return len(self._tables)

    @property
    def max_pieces(self):
        """The most pieces, generals included, of any table held (0: none)."""
        return self.store.max_pieces

    def probe(self, Board board):
        """The board's value by the tables, as the search reads it: (wdl, plies) with wdl 1 (the side to
        move wins), 0 (a draw) or -1 (it loses) and plies to mate, or to the next capture when only that
        comes before the natural limit (None for a draw); None when no table holds the position or its
        value is unsure (a draw the check/chase rulings might change, or neither mate nor capture before
        the natural limit as the board's counter stands)."""
        cdef int plies = 0
        cdef int wdl = tb_probe_position(&self.store, board.pos, &plies)
        if wdl == TB_WDL_UNSURE:
            return None
        return wdl, (None if wdl == TB_WDL_DRAW else plies)

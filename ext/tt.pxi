# The transposition table: one slot per key (the key's low bits pick it), shared by all the workers of
# a search (Lazy SMP). Slots are read and written without locks: an entry torn by two writers can at
# worst give one node a wrong score, and its move is only used to order the moves generated there, so
# it is never played unless legal.
# Mate scores (and the endgame tables' wins, types.pxi) are stored relative to the node, not the root,
# so that an entry stays true wherever in the tree the position comes back.

cdef enum:
    BOUND_LOWER = 1          # the score is at least the stored one (the search failed high)
    BOUND_UPPER = 2          # at most (failed low)
    BOUND_EXACT = 3


cdef struct TTEntry:
    uint64_t key
    int16_t score
    uint16_t move
    int8_t depth
    uint8_t bound
    uint8_t generation
    uint8_t pad


cdef struct TranspositionTable:
    TTEntry* entries
    uint64_t mask            # number of entries - 1 (a power of two)
    uint8_t generation       # of the current search: entries of older searches are replaced first


cdef void tt_free(TranspositionTable* tt) noexcept nogil:
    free(tt.entries)
    tt.entries = NULL


cdef void tt_clear(TranspositionTable* tt) noexcept nogil:
    memset(tt.entries, 0, (tt.mask + 1) * sizeof(TTEntry))


cdef bint tt_allocate(TranspositionTable* tt, int hash_mb) noexcept nogil:
    """Replace the table by a cleared one of the largest power of two of entries within hash_mb MB (at
    least 1 MB). Returns False, keeping the old table, when the memory cannot be had."""
    cdef uint64_t entries = 1
    cdef TTEntry* fresh
    if hash_mb < 1:
        hash_mb = 1
    while entries * 2 * sizeof(TTEntry) <= <uint64_t>hash_mb * 1024 * 1024:
        entries *= 2
    fresh = <TTEntry*>malloc(entries * sizeof(TTEntry))
    if fresh == NULL:
        return False
    free(tt.entries)
    tt.entries = fresh
    tt.mask = entries - 1
    tt_clear(tt)
    return True


cdef inline void tt_new_search(TranspositionTable* tt) noexcept nogil:
    tt.generation = (tt.generation + 1) & 255


cdef int tt_hashfull(TranspositionTable* tt) noexcept nogil:
    """Per mille of the table's first 1000 slots used by the current search."""
    cdef int i, used = 0
    cdef int n = 1000 if tt.mask + 1 >= 1000 else <int>(tt.mask + 1)
    for i in range(n):
        if tt.entries[i].key and tt.entries[i].generation == tt.generation:
            used += 1
    return used * 1000 // n


cdef extern from *:
    """
    #define jj_prefetch(p) __builtin_prefetch((const void*)(p))
    """
    void jj_prefetch(const void* p) nogil


cdef inline void tt_prefetch(TranspositionTable* tt, uint64_t key) noexcept nogil:
    """Ask for the slot of a position about to be searched: the table is far larger than the caches, and
    the work between a move and its node's probe hides the wait for memory (as Stockfish does)."""
    jj_prefetch(&tt.entries[key & tt.mask])


cdef inline TTEntry* tt_probe(TranspositionTable* tt, uint64_t key) noexcept nogil:
    """The entry stored for this position, or NULL."""
    cdef TTEntry* e = &tt.entries[key & tt.mask]
    return e if e.key == key else NULL


cdef void tt_store(TranspositionTable* tt, uint64_t key, int score, int move, int depth,
                   int bound) noexcept nogil:
    """Replace the slot unless it holds a deeper result for the same position from this search, or,
    for a quiescence result (depth 0), a search result of any position from this search. A result
    without a move keeps the move already stored for the position."""
    cdef TTEntry* e = &tt.entries[key & tt.mask]
    if depth <= 0 and e.depth > 0 and e.generation == tt.generation:
        return
    if e.key == key and e.generation == tt.generation and e.depth > depth and bound != BOUND_EXACT:
        return
    if move == 0 and e.key == key:
        move = e.move
    e.key = key
    e.score = score
    e.move = move
    e.depth = depth
    e.bound = bound
    e.generation = tt.generation


cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    """A score found `ply` plies below the root as stored: mates and table wins counted from the node."""
    if score >= VALUE_TB_WIN_IN_MAX:
        return score + ply
    if score <= -VALUE_TB_WIN_IN_MAX:
        return score - ply
    return score


cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    """A stored score as seen `ply` plies below the root (the inverse of score_to_tt)."""
    if score >= VALUE_TB_WIN_IN_MAX:
        return score - ply
    if score <= -VALUE_TB_WIN_IN_MAX:
        return score + ply
    return score

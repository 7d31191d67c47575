# Endgame tablebases, part 2d: one pass of the generator shared by several threads.
#
# The passes that dominate a build (step 1, the retrograde passes of step 2 and the examination of the
# candidates they flag, step 3's re-examined captures, and the distance to conversion's) run over the table
# in ranges of entries, and each pass gives the same values whatever order its ranges run in (retro_range,
# candidates_range, dtc_range say why). So a pass can be split among
# threads: thread t of n takes every n-th chunk of TB_SHARE_CHUNK entries from chunk t, each thread with a
# TbGen of its own (its own board, counters and highest distances, the same arrays). The rulings' first
# pass is shared (each entry writes its own mask); their later passes read the masks they change and
# stay on one thread; the safe sides' passes (tb_rules.pxi) change their bytes' bits at once.

cdef enum:
    TB_SHARE_CHUNK = 1 << 12          # entries: small enough to balance, large enough to stay in cache
    TB_SHARE_MIN_ENTRIES = 1 << 18    # a smaller table is generated on one thread: a pass is too short
    TB_JOB_INITIALISE = 0
    TB_JOB_RETRO = 1
    TB_JOB_RECHECK = 2
    TB_JOB_DTC_START = 3
    TB_JOB_DTC = 4
    TB_JOB_SAFETY = 5                 # d: the kind of pass (SAFETY_FIRST, SAFETY_FRONTIER, SAFETY_RECHECK)
    TB_JOB_LOSSES = 6                 # after a retrograde pass from wins: its loss candidates
    TB_JOB_DTC_LOSSES = 7             # after a pass of the distance to conversion: its losers
    TB_JOB_RULES_TOP = 8              # d: the side whose rulings' fixed point starts (rules_top_range)


cdef int64_t tb_run_range(TbGen* G, int job, int d, int64_t first, int64_t end) noexcept nogil:
    if job == TB_JOB_INITIALISE:
        return initialise_range(G, first, end)
    if job == TB_JOB_RETRO:
        return retro_range(G, d, first, end)
    if job == TB_JOB_RECHECK:
        return recheck_range(G, first, end)
    if job == TB_JOB_DTC_START:
        return dtc_start_range(G, first, end)
    if job == TB_JOB_SAFETY:
        return safety_range(G, d, first, end)
    if job == TB_JOB_LOSSES or job == TB_JOB_DTC_LOSSES:
        return candidates_range(G, d, job == TB_JOB_DTC_LOSSES, first, end)
    if job == TB_JOB_RULES_TOP:
        return rules_top_range(G, d, first, end)
    return dtc_range(G, d, first, end)


cdef int64_t tb_run_share(TbGen* G, int job, int d, int thread, int threads) noexcept nogil:
    """Thread `thread` of `threads`' share of one pass (job, distance d); returns the sum of its ranges'."""
    cdef int64_t first, total = 0
    cdef int64_t step = <int64_t>TB_SHARE_CHUNK * threads
    first = <int64_t>TB_SHARE_CHUNK * thread
    while first < G.lay.size:
        total += tb_run_range(G, job, d, first, min(first + TB_SHARE_CHUNK, G.lay.size))
        first += step
    return total


cdef void tb_share_from(TbGen* helper, TbGen* G) noexcept nogil:
    """A helper's TbGen for a pass: G's arrays and state, with counters of its own (its board kept)."""
    cdef Pos* pos = helper.pos
    memcpy(helper, G, sizeof(TbGen))
    helper.pos = pos
    helper.decided = 0
    helper.errors = 0
    helper.overflow = False


cdef void tb_share_into(TbGen* G, TbGen* helper) noexcept nogil:
    """What a helper's pass found, added to G's."""
    cdef int k
    G.decided += helper.decided
    G.errors += helper.errors
    G.overflow = G.overflow or helper.overflow
    G.dtc_highest = max(G.dtc_highest, helper.dtc_highest)
    for k in range(TB_MAX_ORDER + 1):
        G.max_distance[k] = max(G.max_distance[k], helper.max_distance[k])

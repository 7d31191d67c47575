# The search's tuning parameters: every number of the search, the move ordering, the pruning, the
# reductions, the extensions, quiescence, the aspiration windows and the in-search stop rule, named once
# in the table _SEARCH_PARAMETERS below (name, default, range, meaning) and read by the kernel from the
# C array `param`, indexed by the enum. They can be changed at run time (set_search_parameter), for an
# SPSA tuner playing games without a rebuild; a change takes effect from the next search (never change
# one while a search runs). Fractions are integers on a stated scale (per mille: 1000 is 1.0).
#
# Storage bounds are not parameters: HISTORY_MAX and CORRECTION_LIMIT keep the tables' entries within
# their int16 slots, so they stay compile-time constants beside those tables.

cdef enum:                   # the parameters, in table order
    # Pruning on the static evaluation (search.pxi, step 5).
    TT_EVAL
    RFP_MAX_DEPTH
    RFP_MARGIN
    RAZOR_MAX_DEPTH
    RAZOR_MARGIN
    NMP_MIN_DEPTH
    NMP_BASE_REDUCTION
    NMP_DEPTH_DIVISOR
    NMP_EVAL_DIVISOR
    NMP_EVAL_MAX_REDUCTION
    # ProbCut (step 6) and internal iterative reduction (step 7).
    PROBCUT_MIN_DEPTH
    PROBCUT_REDUCTION
    PROBCUT_MARGIN
    PROBCUT_IMPROVING
    IIR_MIN_DEPTH
    # Shallow pruning in the move loop (step 8).
    CAPTURE_PRUNE_MAX_DEPTH
    CAPTURE_FUTILITY_MAX_DEPTH
    CAPTURE_FUTILITY_BASE
    CAPTURE_FUTILITY_MARGIN
    MOVECOUNT_BASE
    HISTORY_PRUNE_MAX_DEPTH
    HISTORY_PRUNE_MARGIN
    FUTILITY_MAX_DEPTH
    FUTILITY_BASE
    FUTILITY_MARGIN
    FUTILITY_HISTORY_DIVISOR
    SEE_PRUNE_MAX_DEPTH
    SEE_PRUNE_QUADRATIC
    SEE_PRUNE_LINEAR
    # Extensions.
    SINGULAR_MIN_DEPTH
    SINGULAR_TT_DEPTH_MARGIN
    SINGULAR_MARGIN
    DOUBLE_EXTENSION_MARGIN
    DOUBLE_EXTENSION_LIMIT
    CHECK_EXTENSION_MIN_DEPTH
    CHECK_EXTENSION_EVAL
    EXTENSION_PLY_FACTOR
    # Late move reductions.
    LMR_BASE
    LMR_SCALE
    LMR_MIN_DEPTH
    LMR_PV_NODE
    LMR_NOT_IMPROVING
    LMR_CUT_NODE
    LMR_TT_CAPTURE
    LMR_CHECK
    LMR_KILLER
    LMR_HISTORY_DIVISOR
    LMR_DEEPER_BASE
    LMR_DEEPER_SCALE
    LMR_SHALLOWER
    # Quiescence.
    QS_FUTILITY_MARGIN
    QS_QUIET_EVASIONS
    # Aspiration windows.
    ASPIRATION_MIN_DEPTH
    ASPIRATION_DELTA
    ASPIRATION_MAX_DELTA
    ASPIRATION_GROWTH
    # Move ordering and what it learns (movepick.pxi).
    CAPTURE_VALUE_WEIGHT
    HISTORY_BONUS_SCALE
    HISTORY_BONUS_CAP
    SEE_ADVISOR
    SEE_ELEPHANT
    SEE_HORSE
    SEE_CHARIOT
    SEE_CANNON
    SEE_PAWN
    # Correction history (correction.pxi).
    CORRECTION_GRAIN
    CORRECTION_DEPTH_DIVISOR
    CORRECTION_MAX_STEP
    # The stop rule between iterations, and the move chosen among the threads' (searcher.pxi).
    MATE_STOP_EXTRA_DEPTH
    THREAD_VOTE
    THREAD_VOTE_BASE
    HELPER_DEPTH_SKIP
    SEARCH_PARAMETER_COUNT


cdef int param[SEARCH_PARAMETER_COUNT]     # the values in force, read by the search

cdef enum:
    PER_MILLE = 1000                       # the scale of the fractions below


# The table: (index, name, default, minimum, maximum, meaning), in the enum's order. The name is the
# enum's in lower case. Depths are in plies, scores in centipawns, histories in their own units.
_SEARCH_PARAMETERS = (
    (TT_EVAL, "tt_eval", 1, 0, 1,
     "1: reverse futility, razoring and null move judge by the table's score where its bound says the "
     "true score lies beyond the static evaluation on that side"),
    (RFP_MAX_DEPTH, "rfp_max_depth", 6, 0, 16, "reverse futility pruning: the deepest node it applies to"),
    (RFP_MARGIN, "rfp_margin", 110, 10, 500,
     "reverse futility pruning: the margin per ply of depth (one ply less where improving)"),
    (RAZOR_MAX_DEPTH, "razor_max_depth", 2, 0, 8, "razoring: the deepest node it applies to"),
    (RAZOR_MARGIN, "razor_margin", 300, 10, 1500, "razoring: the margin below alpha per ply of depth"),
    (NMP_MIN_DEPTH, "nmp_min_depth", 2, 1, 12, "null move: the shallowest node it is tried at"),
    (NMP_BASE_REDUCTION, "nmp_base_reduction", 3, 1, 8, "null move: the reduction at any depth"),
    (NMP_DEPTH_DIVISOR, "nmp_depth_divisor", 4, 1, 16, "null move: one ply more of reduction per this many of depth"),
    (NMP_EVAL_DIVISOR, "nmp_eval_divisor", 200, 20, 2000,
     "null move: one ply more of reduction per this much static evaluation above beta"),
    (NMP_EVAL_MAX_REDUCTION, "nmp_eval_max_reduction", 3, 0, 8,
     "null move: at most this many plies of reduction for the evaluation above beta"),
    (PROBCUT_MIN_DEPTH, "probcut_min_depth", 5, 2, 16, "ProbCut: the shallowest node it is tried at"),
    (PROBCUT_REDUCTION, "probcut_reduction", 4, 2, 8,
     "ProbCut: its search is this much shallower; its table entry one ply less so"),
    (PROBCUT_MARGIN, "probcut_margin", 200, 20, 1000, "ProbCut: the margin above beta"),
    (PROBCUT_IMPROVING, "probcut_improving", 70, 0, 500, "ProbCut: the margin is this much less where improving"),
    (IIR_MIN_DEPTH, "iir_min_depth", 6, 2, 16,
     "internal iterative reduction: a node without a table move this deep is searched one ply shallower"),
    (CAPTURE_PRUNE_MAX_DEPTH, "capture_prune_max_depth", 3, 0, 12,
     "bad captures (losing by the exchange) are pruned at this depth or less"),
    (CAPTURE_FUTILITY_MAX_DEPTH, "capture_futility_max_depth", 0, 0, 16,
     "futility pruning of captures: below this reduced depth (0: none)"),
    (CAPTURE_FUTILITY_BASE, "capture_futility_base", 150, 0, 1000,
     "futility pruning of captures: a capture is pruned when the static evaluation plus this, "
     "capture_futility_margin per ply of reduced depth and its victim's value stays at or below alpha"),
    (CAPTURE_FUTILITY_MARGIN, "capture_futility_margin", 220, 0, 1000,
     "futility pruning of captures: the margin per ply of reduced depth"),
    (MOVECOUNT_BASE, "movecount_base", 3, 1, 20,
     "move count pruning: quiet moves after the (this + depth^2) / (2 - improving)th are pruned"),
    (HISTORY_PRUNE_MAX_DEPTH, "history_prune_max_depth", 3, 0, 12,
     "history pruning: the deepest reduced depth it applies to"),
    (HISTORY_PRUNE_MARGIN, "history_prune_margin", 4000, 100, 32000,
     "history pruning: a quiet move whose history is below -this * depth is pruned"),
    (FUTILITY_MAX_DEPTH, "futility_max_depth", 6, 0, 16, "futility pruning: the deepest reduced depth it applies to"),
    (FUTILITY_BASE, "futility_base", 100, 0, 1000, "futility pruning: the margin at reduced depth 0"),
    (FUTILITY_MARGIN, "futility_margin", 120, 10, 1000, "futility pruning: the margin per ply of reduced depth"),
    (FUTILITY_HISTORY_DIVISOR, "futility_history_divisor", 128, 8, 4096,
     "futility pruning: the margin grows by the move's history / this"),
    (SEE_PRUNE_MAX_DEPTH, "see_prune_max_depth", 6, 0, 16,
     "exchange pruning of quiet moves: the deepest reduced depth it applies to"),
    (SEE_PRUNE_QUADRATIC, "see_prune_quadratic", 30, 0, 300,
     "exchange pruning: a quiet move losing more than this * d^2 + see_prune_linear * d is pruned"),
    (SEE_PRUNE_LINEAR, "see_prune_linear", 40, 0, 500, "exchange pruning: the margin's term per ply of reduced depth"),
    (SINGULAR_MIN_DEPTH, "singular_min_depth", 8, 2, 20, "singular extension: the shallowest node it is tried at"),
    (SINGULAR_TT_DEPTH_MARGIN, "singular_tt_depth_margin", 3, 0, 10,
     "singular extension: the table's entry is at most this much shallower than the node"),
    (SINGULAR_MARGIN, "singular_margin", 2, 0, 20,
     "singular extension: the other moves are searched against the table's score minus this * depth"),
    (DOUBLE_EXTENSION_MARGIN, "double_extension_margin", 20, 0, 500,
     "double extension: a singular move whose other moves fail low by this much more is extended two plies"),
    (DOUBLE_EXTENSION_LIMIT, "double_extension_limit", 0, 0, 40,
     "double extension: at most this many along a line (0: none)"),
    (CHECK_EXTENSION_MIN_DEPTH, "check_extension_min_depth", 0, 0, 30,
     "check extension: a checking move is extended at this depth or more"),
    (CHECK_EXTENSION_EVAL, "check_extension_eval", 0, 0, 1000,
     "check extension: only where the static evaluation is at least this far from 0 (or in check)"),
    (EXTENSION_PLY_FACTOR, "extension_ply_factor", 2, 1, 8,
     "no extension at a ply of this many times the iteration's depth or more"),
    (LMR_BASE, "lmr_base", 250, 0, 2000,
     "late move reductions: reduction = base + ln(depth) ln(move number) scale, per mille"),
    (LMR_SCALE, "lmr_scale", 590, 50, 2000, "late move reductions: the scale of ln(depth) ln(move number), per mille"),
    (LMR_MIN_DEPTH, "lmr_min_depth", 2, 1, 8, "late move reductions: the shallowest node they apply to"),
    (LMR_PV_NODE, "lmr_pv_node", 1, 0, 4, "late move reductions: this much less at a PV node"),
    (LMR_NOT_IMPROVING, "lmr_not_improving", 1, 0, 4, "late move reductions: this much more where not improving"),
    (LMR_CUT_NODE, "lmr_cut_node", 2, 0, 6, "late move reductions: this much more at an expected cut-node"),
    (LMR_TT_CAPTURE, "lmr_tt_capture", 1, 0, 4,
     "late move reductions: this much more for a quiet move when the table's move is a capture"),
    (LMR_CHECK, "lmr_check", 1, 0, 4, "late move reductions: this much less for a check or an evasion"),
    (LMR_KILLER, "lmr_killer", 1, 0, 4, "late move reductions: this much less for a killer or the countermove"),
    (LMR_HISTORY_DIVISOR, "lmr_history_divisor", 9000, 500, 100000,
     "late move reductions: one ply less per this much history of a quiet move (more when negative)"),
    (LMR_DEEPER_BASE, "lmr_deeper_base", 100000, 0, 100000,
     "late move reductions: a reduced search failing high by more than this + lmr_deeper_scale * its "
     "reduction is re-searched one ply deeper"),
    (LMR_DEEPER_SCALE, "lmr_deeper_scale", 4, 0, 100, "late move reductions: see lmr_deeper_base"),
    (LMR_SHALLOWER, "lmr_shallower", 0, 0, 1,
     "late move reductions: 1: a reduced search failing high by less than its depth over the best score "
     "so far is re-searched one ply shallower"),
    (QS_FUTILITY_MARGIN, "qs_futility_margin", 150, 0, 1000,
     "quiescence: a capture is futile when even this more than its victim stays below alpha"),
    (QS_QUIET_EVASIONS, "qs_quiet_evasions", 2, 0, 16,
     "quiescence: quiet evasions tried once an evasion has kept off the mate"),
    (ASPIRATION_MIN_DEPTH, "aspiration_min_depth", 4, 1, 16, "aspiration windows: the first iteration that has one"),
    (ASPIRATION_DELTA, "aspiration_delta", 25, 1, 500, "aspiration windows: the first half-width"),
    (ASPIRATION_MAX_DELTA, "aspiration_max_delta", 400, 10, 5000,
     "aspiration windows: beyond this half-width the failing side opens fully"),
    (ASPIRATION_GROWTH, "aspiration_growth", 1000, 100, 4000,
     "aspiration windows: the half-width grows by this after each failure, per mille of itself"),
    (CAPTURE_VALUE_WEIGHT, "capture_value_weight", 12, 0, 100,
     "move ordering: a capture scores this times its victim's exchange value plus its history"),
    (HISTORY_BONUS_SCALE, "history_bonus_scale", 32, 1, 128,
     "history: the bonus of a cutoff is this * min(depth^2 + 2 depth, history_bonus_cap)"),
    (HISTORY_BONUS_CAP, "history_bonus_cap", 320, 8, 1000, "history: the cap of the bonus's depth term"),
    (SEE_ADVISOR, "see_advisor", 200, 10, 2000, "exchange value of an advisor"),
    (SEE_ELEPHANT, "see_elephant", 200, 10, 2000, "exchange value of an elephant"),
    (SEE_HORSE, "see_horse", 450, 10, 3000, "exchange value of a horse"),
    (SEE_CHARIOT, "see_chariot", 1000, 10, 5000, "exchange value of a chariot"),
    (SEE_CANNON, "see_cannon", 450, 10, 3000, "exchange value of a cannon"),
    (SEE_PAWN, "see_pawn", 100, 10, 1000, "exchange value of a soldier"),
    (CORRECTION_GRAIN, "correction_grain", 10, 1, 100,
     "correction history: an entry / this is its correction in centipawns"),
    (CORRECTION_DEPTH_DIVISOR, "correction_depth_divisor", 8, 1, 64,
     "correction history: a search's error moves its entry by error * depth / this"),
    (CORRECTION_MAX_STEP, "correction_max_step", 256, 1, 1024,
     "correction history: the largest step of an entry at once (its bound is 1024)"),
    (MATE_STOP_EXTRA_DEPTH, "mate_stop_extra_depth", 4, 0, 40,
     "with a time limit, a found mate ends the search once the depth exceeds twice its plies plus this"),
    (THREAD_VOTE, "thread_vote", 1, 0, 1,
     "threads: 1: the move played is voted for by every thread's last completed iteration; 0: the main "
     "thread's"),
    (THREAD_VOTE_BASE, "thread_vote_base", 10, 0, 200,
     "threads: a thread's vote for its best move is its depth times (its score above the lowest "
     "thread's plus this)"),
    (HELPER_DEPTH_SKIP, "helper_depth_skip", 0, 0, 1,
     "threads: 1: each helper skips the depths of its place in Stockfish 10's pattern (the first searches "
     "the even depths only, the second the odd ones, ...), so that the threads search different depths"),
)

# name -> (index, default, minimum, maximum)
cdef dict _parameter_by_name = {name: (index, default, low, high)
                                for index, name, default, low, high, _ in _SEARCH_PARAMETERS}


def search_parameters():
    """The search's tuning parameters in table order: a list of (name, value, minimum, maximum, meaning),
    with the values in force."""
    return [(name, param[index], low, high, meaning) for index, name, _, low, high, meaning in _SEARCH_PARAMETERS]


def set_search_parameter(str name, value):
    """Set one tuning parameter (see search_parameters); it applies from the next search. Raises
    ValueError for an unknown name or a value outside the parameter's range, TypeError for a value
    that is not an integer."""
    entry = _parameter_by_name.get(name)
    if entry is None:
        raise ValueError(f"unknown search parameter {name!r}")
    index, _, low, high = entry
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"search parameter {name} takes an integer, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"search parameter {name} must be within {low}..{high}, not {value}")
    param[index] = value
    derive_search_tables()


def reset_search_parameters():
    """Every tuning parameter back to its default."""
    for index, _, default, _, _, _ in _SEARCH_PARAMETERS:
        param[index] = default
    derive_search_tables()


cdef void derive_search_tables() noexcept nogil:
    """Recompute what is derived from the parameters: the reduction table and the exchange values."""
    init_reduction_table()
    init_see_values()


assert [row[0] for row in _SEARCH_PARAMETERS] == list(range(SEARCH_PARAMETER_COUNT)), \
    "_SEARCH_PARAMETERS must list every parameter of the enum once, in the enum's order"
assert len(_parameter_by_name) == SEARCH_PARAMETER_COUNT, "search parameter names must be unique"

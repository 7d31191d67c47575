# Static evaluation, in centipawns from the side to move's point of view.
#
# Terms: material; piece-square values by type and phase (middlegame and endgame, blended by the
# number of chariots, horses and cannons left), which also value soldiers across the river, developed
# chariots and central cannons; defence (advisors and elephants left, against the attacking force the
# opponent still has); cannon/horse values by phase (cannons are worth more with many pieces on the
# board, horses fewer); chariot and horse mobility (a hobbled horse is nearly useless); king safety: a
# cannon facing the general on an open file (the "hollow cannon", which pins the general's defence),
# and the attacking force gathered around the palace.
#
# The evaluation is linear in its weights (EVAL_WEIGHTS, loaded from eval_weights.pxi at import), so
# that they can be fitted automatically: evaluate_terms reports each weight's feature, and
# tools/tune_eval.py fits the weights and writes eval_weights.pxi.

cdef enum:
    W_ADVISOR = 0             # materials: W_ADVISOR + type - 1 for every type but the general
    W_ELEPHANT = 1
    W_HORSE = 2
    W_ROOK = 3
    W_CANNON = 4
    W_PAWN = 5
    W_HORSE_ENDGAME = 6       # extra horse value when few pieces are left
    W_CANNON_OPENING = 7      # extra cannon value with many pieces left
    W_MISSING_DEFENDER = 8    # per missing advisor/elephant, scaled by the enemy's attacking force
    W_ROOK_MOBILITY = 9       # per two empty squares a chariot slides over
    W_TEMPO = 10
    W_HORSE_MOBILITY = 11     # per square a horse can reach (legs free, not its own piece)
    W_HORSE_TRAPPED = 12      # a horse with at most one square to go
    W_HOLLOW_CANNON = 13      # a cannon facing the enemy general on an open file
    W_KING_DANGER = 14        # squared attacking force in the enemy's palace area, per 16 units
    N_SCALAR_WEIGHTS = 15
    # Then the piece-square values: for each type (general first) and phase (middlegame, endgame),
    # one per square of a half board folded at the central file: 10 ranks counted from the side's own
    # back rank, 5 files (a..e; f..i mirror d..a).
    PST_SQUARES = 50
    N_WEIGHTS = N_SCALAR_WEIGHTS + PIECE_TYPES * 2 * PST_SQUARES
    FULL_PHASE = 12           # chariots, horses and cannons at the start: the middlegame weight is phase / 12

cdef int EVAL_WEIGHTS[N_WEIGHTS]
cdef int PST_MG[PIECE_TYPES][2][BOARD_SIZE]    # [type][side][square], from the weights by init_eval
cdef int PST_EG[PIECE_TYPES][2][BOARD_SIZE]

include "eval_weights.pxi"


cdef int red_rank(int side, int sq) noexcept nogil:
    """Rank counted from the side's own back rank."""
    return rank_of(sq) if side == RED else 9 - rank_of(sq)


cdef inline int pst_weight_index(int ptype, int phase, int side, int sq) noexcept nogil:
    """Index in EVAL_WEIGHTS of the piece-square value of ptype on sq for side, in phase 0 (middlegame)
    or 1 (endgame)."""
    cdef int f = file_of(sq)
    if f > 4:
        f = 8 - f
    return N_SCALAR_WEIGHTS + (ptype * 2 + phase) * PST_SQUARES + red_rank(side, sq) * 5 + f


cdef void init_eval() noexcept nogil:
    """Spread the piece-square weights over both sides' squares."""
    cdef int side, sq, t
    for t in range(PIECE_TYPES):
        for side in range(2):
            for sq in range(BOARD_SIZE):
                if IN_BOARD[sq]:
                    PST_MG[t][side][sq] = EVAL_WEIGHTS[pst_weight_index(t, 0, side, sq)]
                    PST_EG[t][side][sq] = EVAL_WEIGHTS[pst_weight_index(t, 1, side, sq)]
                else:
                    PST_MG[t][side][sq] = PST_EG[t][side][sq] = 0


cdef inline int material_index(int ptype) noexcept nogil:
    """Index in EVAL_WEIGHTS of the material value of a type other than the general."""
    return W_ADVISOR + ptype - ADVISOR


cdef int slide_mobility(Pos* p, int sq) noexcept nogil:
    """Empty squares reachable along the rank and file from sq."""
    cdef int i, d, s, count = 0
    for i in range(4):
        d = ORTHOGONAL[i]
        s = sq + d
        while IN_BOARD[s] and p.board[s] == 0:
            count += 1
            s += d
    return count


cdef int horse_mobility(Pos* p, int sq, int own_tag) noexcept nogil:
    """Squares the horse on sq can move to: its leg free and no piece of its own there."""
    cdef int i, d, leg, across, target, count = 0
    for i in range(4):
        d = ORTHOGONAL[i]
        leg = sq + d
        if not IN_BOARD[leg] or p.board[leg]:
            continue
        across = 1 if d == 16 or d == -16 else 16
        target = leg + d + across
        if IN_BOARD[target] and not (p.board[target] & own_tag):
            count += 1
        target = leg + d - across
        if IN_BOARD[target] and not (p.board[target] & own_tag):
            count += 1
    return count


cdef int palace_pressure(Pos* p, int side) noexcept nogil:
    """The enemy's attacking force near side's palace: chariots 3, horses and cannons 2, soldiers 1,
    counting pieces on files c..g within four ranks of side's back rank."""
    cdef int enemy = side_tag(side ^ 1)
    cdef int piece, sq, f, ptype, total = 0
    for piece in range(enemy + SLOT_FIRST[HORSE], enemy + 16):
        sq = p.square[piece]
        if sq == 0:
            continue
        f = file_of(sq)
        if f < 2 or f > 6 or red_rank(side, sq) > 3:
            continue
        ptype = PIECE_TYPE[piece]
        total += 3 if ptype == ROOK else (1 if ptype == PAWN else 2)
    return total


cdef int evaluate(Pos* p) noexcept nogil:
    """Static evaluation from the side to move's point of view."""
    return evaluate_terms(p, NULL)


cdef inline void record(double* features, int index, double value) noexcept nogil:
    if features != NULL:
        features[index] += value


cdef int evaluate_terms(Pos* p, double* features) noexcept nogil:
    """The static evaluation; when `features` is not NULL, also what each weight contributes to it:
    evaluation = sum(EVAL_WEIGHTS[i] * features[i]) up to integer rounding (N_WEIGHTS doubles, zeroed
    by the caller). Both from the side to move's point of view."""
    cdef int score[2]
    cdef int mg[2]
    cdef int eg[2]
    cdef int attackers[2]    # attacking force: chariots 4, horses and cannons 2, crossed soldiers 1
    cdef int defenders[2]
    cdef int pieces_left = 0
    cdef int side, piece, sq, ptype, tag, mobility, king_sq, danger, i
    cdef double sign, opening
    cdef uint32_t found
    for side in range(2):
        tag = side_tag(side)
        for piece in range(tag + SLOT_FIRST[HORSE], tag + SLOT_FIRST[PAWN]):
            if p.square[piece]:
                pieces_left += 1
    opening = <double>pieces_left / FULL_PHASE
    for side in range(2):
        tag = side_tag(side)
        sign = 1.0 if side == RED else -1.0
        score[side] = mg[side] = eg[side] = attackers[side] = defenders[side] = 0
        for piece in range(tag, tag + 16):
            sq = p.square[piece]
            if sq == 0:
                continue
            ptype = PIECE_TYPE[piece]
            mg[side] += PST_MG[ptype][side][sq]
            eg[side] += PST_EG[ptype][side][sq]
            record(features, pst_weight_index(ptype, 0, side, sq), sign * opening)
            record(features, pst_weight_index(ptype, 1, side, sq), sign * (1.0 - opening))
            if ptype != KING:
                score[side] += EVAL_WEIGHTS[material_index(ptype)]
                record(features, material_index(ptype), sign)
            if ptype == ROOK:
                attackers[side] += 4
                mobility = slide_mobility(p, sq)
                score[side] += EVAL_WEIGHTS[W_ROOK_MOBILITY] * mobility // 2
                record(features, W_ROOK_MOBILITY, sign * mobility / 2.0)
            elif ptype == HORSE:
                # Horses gain value as the board empties.
                attackers[side] += 2
                score[side] += EVAL_WEIGHTS[W_HORSE_ENDGAME] * (FULL_PHASE - pieces_left) // FULL_PHASE
                record(features, W_HORSE_ENDGAME, sign * (1.0 - opening))
                mobility = horse_mobility(p, sq, tag)
                score[side] += EVAL_WEIGHTS[W_HORSE_MOBILITY] * mobility
                record(features, W_HORSE_MOBILITY, sign * mobility)
                if mobility <= 1:
                    score[side] -= EVAL_WEIGHTS[W_HORSE_TRAPPED]
                    record(features, W_HORSE_TRAPPED, -sign)
            elif ptype == CANNON:
                # Cannons lose value as the board empties.
                attackers[side] += 2
                score[side] += EVAL_WEIGHTS[W_CANNON_OPENING] * pieces_left // FULL_PHASE
                record(features, W_CANNON_OPENING, sign * opening)
                king_sq = p.square[side_tag(side ^ 1)]
                if file_of(sq) == file_of(king_sq) and pieces_between(p, sq, king_sq, &found) == 0:
                    score[side] += EVAL_WEIGHTS[W_HOLLOW_CANNON]
                    record(features, W_HOLLOW_CANNON, sign)
            elif ptype == PAWN and not OWN_HALF[side][sq]:
                attackers[side] += 1
            elif ptype == ADVISOR or ptype == ELEPHANT:
                defenders[side] += 1
        score[side] += (mg[side] * pieces_left + eg[side] * (FULL_PHASE - pieces_left)) // FULL_PHASE
    # Defence: each missing advisor or elephant costs more the stronger the enemy attack; and the
    # attacking force close to the general costs more than linearly.
    for side in range(2):
        sign = 1.0 if side == RED else -1.0
        score[side] -= EVAL_WEIGHTS[W_MISSING_DEFENDER] * (4 - defenders[side]) * attackers[side ^ 1] // 8
        record(features, W_MISSING_DEFENDER, -sign * (4 - defenders[side]) * attackers[side ^ 1] / 8.0)
        danger = palace_pressure(p, side)
        score[side] -= EVAL_WEIGHTS[W_KING_DANGER] * danger * danger // 16
        record(features, W_KING_DANGER, -sign * danger * danger / 16.0)
    if features != NULL:
        if p.side == BLACK:
            for i in range(N_WEIGHTS):
                features[i] = -features[i]
        features[W_TEMPO] = 1.0
    return score[p.side] - score[p.side ^ 1] + EVAL_WEIGHTS[W_TEMPO]


# Python-visible tuning hooks (tools/tune_eval.py). The weights are global to the process: every
# Searcher uses them from its next evaluation on.
_PIECE_NAMES = ("king", "advisor", "elephant", "horse", "rook", "cannon", "pawn")
EVAL_WEIGHT_NAMES = ("advisor", "elephant", "horse", "rook", "cannon", "pawn", "horse_endgame",
                     "cannon_opening", "missing_defender", "rook_mobility", "tempo", "horse_mobility",
                     "horse_trapped", "hollow_cannon", "king_danger") + tuple(
    f"{piece}_{phase}_{'abcde'[index % 5]}{index // 5}"
    for piece in _PIECE_NAMES for phase in ("mg", "eg") for index in range(PST_SQUARES))


def eval_weights():
    """The evaluation weights, in the order of EVAL_WEIGHT_NAMES."""
    return [EVAL_WEIGHTS[i] for i in range(N_WEIGHTS)]


def set_eval_weights(weights):
    """Replace the evaluation weights (a sequence of N_WEIGHTS integers) and rebuild the tables."""
    values = [int(v) for v in weights]
    if len(values) != N_WEIGHTS:
        raise ValueError(f"expected {N_WEIGHTS} weights (see EVAL_WEIGHT_NAMES), got {len(values)}")
    for i in range(N_WEIGHTS):
        EVAL_WEIGHTS[i] = values[i]
    init_eval()


def eval_features(Board board):
    """What each weight contributes to the board's static evaluation (side to move's view):
    evaluate == sum(weight * feature) up to integer rounding. The evaluation is linear in its weights."""
    cdef double features[N_WEIGHTS]
    memset(features, 0, sizeof(features))
    evaluate_terms(board.pos, features)
    return [features[i] for i in range(N_WEIGHTS)]



def hand_crafted_evaluation(Board board):
    """The hand-crafted evaluation of the board's position (side to move's view), whichever evaluation
    the Searchers use (the `eval` command shows both)."""
    return evaluate(board.pos)

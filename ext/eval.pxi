# Static evaluation, in centipawns from the side to move's point of view.
#
# Terms: material; piece-square values by type (tables built from simple rules at import, so that a
# tuner can later replace the weights); defence (advisors and elephants left, against the attacking
# force the opponent still has); cannon/horse values by phase (cannons are worth more with many pieces
# on the board, horses fewer); soldiers across the river; chariot and horse mobility (a hobbled horse
# is nearly useless); king safety: a cannon facing the general on an open file (the "hollow cannon",
# which pins the general's defence), and the attacking force gathered around the palace.
#
# The weights live in the EVAL_WEIGHTS array so that they can be tuned automatically.

cdef enum:
    W_ADVISOR = 0
    W_ELEPHANT = 1
    W_HORSE = 2
    W_ROOK = 3
    W_CANNON = 4
    W_PAWN = 5
    W_PAWN_CROSSED = 6
    W_HORSE_ENDGAME = 7       # extra horse value when few pieces are left
    W_CANNON_OPENING = 8      # extra cannon value with many pieces left
    W_MISSING_DEFENDER = 9    # per missing advisor/elephant, scaled by the enemy's attacking force
    W_CENTRAL_CANNON = 10
    W_ROOK_MOBILITY = 11
    W_KING_OFF_BASE = 12
    W_TEMPO = 13
    W_HORSE_MOBILITY = 14     # per square a horse can reach (legs free, not its own piece)
    W_HORSE_TRAPPED = 15      # a horse with at most one square to go
    W_HOLLOW_CANNON = 16      # a cannon facing the enemy general on an open file
    W_KING_DANGER = 17        # squared attacking force in the enemy's palace area, per 16 units
    N_WEIGHTS = 18

cdef int EVAL_WEIGHTS[N_WEIGHTS]
EVAL_WEIGHTS[:] = [120, 120, 390, 900, 400, 30, 70, 40, 40, 25, 30, 6, 20, 10, 6, 30, 70, 12]

cdef int PST[7][2][BOARD_SIZE]    # [type][side][square], positional part only


cdef int red_rank(int side, int sq) noexcept nogil:
    """Rank counted from the side's own back rank."""
    return rank_of(sq) if side == RED else 9 - rank_of(sq)


cdef void init_eval() noexcept nogil:
    cdef int side, sq, f, r, center, t
    for t in range(7):
        for side in range(2):
            for sq in range(BOARD_SIZE):
                PST[t][side][sq] = 0
    for side in range(2):
        for r in range(10):
            for f in range(9):
                sq = square_of(f, r if side == RED else 9 - r)
                center = 4 - (f - 4 if f >= 4 else 4 - f)     # 0 on the edge files, 4 on the central file
                # Soldiers: nothing at home; across the river more towards the centre and the palace,
                # less once they reach the last rank.
                if r >= 5:
                    PST[PAWN][side][sq] = EVAL_WEIGHTS[W_PAWN_CROSSED] + 8 * center + (10 if 6 <= r <= 8 else 0) - (40 if r == 9 else 0)
                elif r == 4:
                    PST[PAWN][side][sq] = 5 + 2 * center
                # Horses: central and advanced is good, the edge and the back rank are bad.
                PST[HORSE][side][sq] = 6 * center + (8 if 2 <= r <= 7 else 0) + (10 if 5 <= r <= 7 else 0) - (15 if r == 0 else 0)
                # Chariots: the ribs and the enemy's side.
                PST[ROOK][side][sq] = (10 if r >= 5 else 0) + (6 if f == 3 or f == 5 else 0) + (10 if r == 6 else 0)
                # Cannons: the central file early, the enemy's back ranks.
                PST[CANNON][side][sq] = (EVAL_WEIGHTS[W_CENTRAL_CANNON] if f == 4 and r <= 4 else 0) + (8 if r >= 8 else 0) + 2 * center
                # Generals: stay on the back rank, preferably in the middle.
                PST[KING][side][sq] = -EVAL_WEIGHTS[W_KING_OFF_BASE] * r - (4 if f != 4 else 0)
                # Advisors and elephants: their home squares and the centre are best.
                PST[ADVISOR][side][sq] = 6 if (f == 4 and r == 1) else 0
                PST[ELEPHANT][side][sq] = 6 if (f == 4 and r == 2) else 0


cdef int material_value(int ptype) noexcept nogil:
    if ptype == ADVISOR:
        return EVAL_WEIGHTS[W_ADVISOR]
    if ptype == ELEPHANT:
        return EVAL_WEIGHTS[W_ELEPHANT]
    if ptype == HORSE:
        return EVAL_WEIGHTS[W_HORSE]
    if ptype == ROOK:
        return EVAL_WEIGHTS[W_ROOK]
    if ptype == CANNON:
        return EVAL_WEIGHTS[W_CANNON]
    if ptype == PAWN:
        return EVAL_WEIGHTS[W_PAWN]
    return 0


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
    cdef int score[2]
    cdef int attackers[2]    # attacking force: chariots 4, horses and cannons 2, crossed soldiers 1
    cdef int defenders[2]
    cdef int pieces_left = 0
    cdef int side, piece, sq, ptype, tag, d, s, i, mobility, king_sq, danger
    cdef uint32_t found
    score[0] = score[1] = 0
    attackers[0] = attackers[1] = 0
    defenders[0] = defenders[1] = 0
    for side in range(2):
        tag = side_tag(side)
        for piece in range(tag, tag + 16):
            sq = p.square[piece]
            if sq == 0:
                continue
            ptype = PIECE_TYPE[piece]
            score[side] += material_value(ptype) + PST[ptype][side][sq]
            if ptype == ROOK:
                attackers[side] += 4
                pieces_left += 1
                score[side] += EVAL_WEIGHTS[W_ROOK_MOBILITY] * slide_mobility(p, sq) // 2
            elif ptype == HORSE:
                attackers[side] += 2
                pieces_left += 1
                mobility = horse_mobility(p, sq, tag)
                score[side] += EVAL_WEIGHTS[W_HORSE_MOBILITY] * mobility
                if mobility <= 1:
                    score[side] -= EVAL_WEIGHTS[W_HORSE_TRAPPED]
            elif ptype == CANNON:
                attackers[side] += 2
                pieces_left += 1
                king_sq = p.square[side_tag(side ^ 1)]
                if file_of(sq) == file_of(king_sq) and pieces_between(p, sq, king_sq, &found) == 0:
                    score[side] += EVAL_WEIGHTS[W_HOLLOW_CANNON]
            elif ptype == PAWN and not OWN_HALF[side][sq]:
                attackers[side] += 1
            elif ptype == ADVISOR or ptype == ELEPHANT:
                defenders[side] += 1
    # Horses gain and cannons lose value as the board empties (8 major pieces at the start).
    for side in range(2):
        tag = side_tag(side)
        for piece in range(tag + SLOT_FIRST[HORSE], tag + SLOT_FIRST[PAWN]):
            if p.square[piece] == 0:
                continue
            if PIECE_TYPE[piece] == HORSE:
                score[side] += EVAL_WEIGHTS[W_HORSE_ENDGAME] * (12 - pieces_left) // 12
            elif PIECE_TYPE[piece] == CANNON:
                score[side] += EVAL_WEIGHTS[W_CANNON_OPENING] * pieces_left // 12
    # Defence: each missing advisor or elephant costs more the stronger the enemy attack; and the
    # attacking force close to the general costs more than linearly.
    for side in range(2):
        score[side] -= EVAL_WEIGHTS[W_MISSING_DEFENDER] * (4 - defenders[side]) * attackers[side ^ 1] // 8
        danger = palace_pressure(p, side)
        score[side] -= EVAL_WEIGHTS[W_KING_DANGER] * danger * danger // 16
    return score[p.side] - score[p.side ^ 1] + EVAL_WEIGHTS[W_TEMPO]


# Python-visible tuning hooks (tools/tune_eval.py). The weights are global to the process: every
# Searcher uses them from its next evaluation on.
EVAL_WEIGHT_NAMES = ("advisor", "elephant", "horse", "rook", "cannon", "pawn", "pawn_crossed",
                     "horse_endgame", "cannon_opening", "missing_defender", "central_cannon",
                     "rook_mobility", "king_off_base", "tempo", "horse_mobility", "horse_trapped",
                     "hollow_cannon", "king_danger")


def eval_weights():
    """The evaluation weights, in the order of EVAL_WEIGHT_NAMES."""
    return [EVAL_WEIGHTS[i] for i in range(N_WEIGHTS)]


def set_eval_weights(weights):
    """Replace the evaluation weights (a sequence of N_WEIGHTS integers) and rebuild the tables."""
    values = [int(v) for v in weights]
    if len(values) != N_WEIGHTS:
        raise ValueError(f"expected {N_WEIGHTS} weights ({', '.join(EVAL_WEIGHT_NAMES)}), got {len(values)}")
    for i in range(N_WEIGHTS):
        EVAL_WEIGHTS[i] = values[i]
    init_eval()

# Correction history: how far the static evaluation turned out to be from the search's result, learnt
# for each structure (where the generals, advisors, elephants and pawns stand: the pieces that move
# seldom) and for each side's attackers (where its chariots, horses and cannons stand), by side to move,
# and added to the static evaluation of later nodes that share the structure or one side's attackers.
# An evaluation that misjudges a kind of position is thus corrected by what the search has found there
# (Stockfish's pawn and non-pawn correction histories, with the defenders counted with the pawns).

cdef enum:
    CORRECTION_SIZE = 16384          # entries per side (a power of two)
    CORRECTION_LIMIT = 1024          # the bound of an entry (its correction: CORRECTION_LIMIT / correction_grain)


cdef struct CorrectionHistory:
    int16_t table[2][CORRECTION_SIZE]                  # [side to move][structure]
    int16_t attackers[2][2][CORRECTION_SIZE]           # [whose attackers][side to move][their placement]


cdef inline int16_t* correction_slot(CorrectionHistory* c, Pos* p) noexcept nogil:
    return &c.table[p.side][p.hist[p.ply].structure_key & (CORRECTION_SIZE - 1)]


cdef inline int16_t* attacker_correction_slot(CorrectionHistory* c, Pos* p, int side) noexcept nogil:
    return &c.attackers[side][p.side][p.hist[p.ply].attacker_keys[side] & (CORRECTION_SIZE - 1)]


cdef inline int corrected_eval(CorrectionHistory* c, Pos* p, int value) noexcept nogil:
    """A static evaluation of the current position with its structure's and attackers' corrections added."""
    value += (correction_slot(c, p)[0] + attacker_correction_slot(c, p, RED)[0]
              + attacker_correction_slot(c, p, BLACK)[0]) // param[CORRECTION_GRAIN]
    if value > VALUE_EVAL_MAX:
        return VALUE_EVAL_MAX
    if value < -VALUE_EVAL_MAX:
        return -VALUE_EVAL_MAX
    return value


cdef inline void learn_correction(CorrectionHistory* c, Pos* p, int error, int depth) noexcept nogil:
    """A search of `depth` found the current position `error` units better than its corrected static
    evaluation: move the structure's and the attackers' entries that way, the more the deeper the search."""
    cdef int bonus = error * depth // param[CORRECTION_DEPTH_DIVISOR]
    if bonus > param[CORRECTION_MAX_STEP]:
        bonus = param[CORRECTION_MAX_STEP]
    elif bonus < -param[CORRECTION_MAX_STEP]:
        bonus = -param[CORRECTION_MAX_STEP]
    move_correction(correction_slot(c, p), bonus)
    move_correction(attacker_correction_slot(c, p, RED), bonus)
    move_correction(attacker_correction_slot(c, p, BLACK), bonus)


cdef inline void move_correction(int16_t* slot, int bonus) noexcept nogil:
    """Move a correction entry by `bonus`, the less the closer it is to its bound."""
    cdef int entry = slot[0]
    entry += bonus - entry * (bonus if bonus > 0 else -bonus) // CORRECTION_LIMIT
    slot[0] = <int16_t>entry

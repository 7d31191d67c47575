# Lookup tables, filled once when the module is imported (init_tables at the end of _core.pyx).

cdef uint8_t IN_BOARD[BOARD_SIZE]
cdef uint8_t IN_PALACE[BOARD_SIZE]      # either palace; a general or advisor can never reach the other one
cdef uint8_t OWN_HALF[2][BOARD_SIZE]    # OWN_HALF[side][sq]: sq lies on side's half of the river
cdef uint8_t PIECE_TYPE[48]             # type of each piece id, NO_TYPE for ids that are not pieces
cdef uint64_t ZOBRIST[PIECE_KINDS][BOARD_SIZE]   # [zobrist_index(piece)][square]
cdef uint64_t ZOBRIST_SIDE              # xored in when Black is to move
cdef int HORSE_LEG[512]                 # [to - from + 256]: offset of the leg of a horse jump, 0 if none

# Step offsets on the padded board.
cdef int ORTHOGONAL[4]
cdef int DIAGONAL[4]
ORTHOGONAL[:] = [16, -16, 1, -1]
DIAGONAL[:] = [17, 15, -15, -17]
# The file and rank components of each DIAGONAL step (DIAGONAL[i] == DIAGONAL_DX[i] + DIAGONAL_DY[i]).
cdef int DIAGONAL_DX[4]
cdef int DIAGONAL_DY[4]
DIAGONAL_DX[:] = [1, -1, 1, -1]
DIAGONAL_DY[:] = [16, 16, -16, -16]

# Slot layout of one side's 16 ids.
cdef int SLOT_FIRST[PIECE_TYPES]
cdef int SLOT_COUNT[PIECE_TYPES]
SLOT_FIRST[:] = [0, 1, 3, 5, 7, 9, 11]
SLOT_COUNT[:] = [1, 2, 2, 2, 2, 2, 5]


cdef uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """A small, well-mixed deterministic generator for the Zobrist keys."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int piece_side(int piece) noexcept nogil:
    """RED for ids 16..31, BLACK for 32..47 (the id must be a piece)."""
    return piece >> 5


cdef inline int zobrist_index(int piece) noexcept nogil:
    return PIECE_TYPE[piece] + PIECE_TYPES * piece_side(piece)


cdef void init_tables() noexcept nogil:
    cdef int sq, file, rank, slot, t, i
    cdef uint64_t seed = 20261130
    for sq in range(BOARD_SIZE):
        IN_BOARD[sq] = 0
        IN_PALACE[sq] = 0
        OWN_HALF[RED][sq] = 0
        OWN_HALF[BLACK][sq] = 0
    for rank in range(BOARD_RANKS):
        for file in range(BOARD_FILES):
            sq = square_of(file, rank)
            IN_BOARD[sq] = 1
            IN_PALACE[sq] = 3 <= file <= 5 and (rank <= 2 or rank >= 7)
            OWN_HALF[RED][sq] = rank <= 4
            OWN_HALF[BLACK][sq] = rank >= 5
    for i in range(48):
        PIECE_TYPE[i] = NO_TYPE
    for t in range(PIECE_TYPES):
        for slot in range(SLOT_FIRST[t], SLOT_FIRST[t] + SLOT_COUNT[t]):
            PIECE_TYPE[16 + slot] = t
            PIECE_TYPE[32 + slot] = t
    for i in range(512):
        HORSE_LEG[i] = 0
    # Jumps of two ranks have their leg one rank ahead, jumps of two files one file aside.
    HORSE_LEG[256 + 33] = HORSE_LEG[256 + 31] = 16
    HORSE_LEG[256 - 33] = HORSE_LEG[256 - 31] = -16
    HORSE_LEG[256 + 18] = HORSE_LEG[256 - 14] = 1
    HORSE_LEG[256 - 18] = HORSE_LEG[256 + 14] = -1
    for i in range(PIECE_KINDS):
        for sq in range(BOARD_SIZE):
            ZOBRIST[i][sq] = splitmix64(&seed)
    global ZOBRIST_SIDE
    ZOBRIST_SIDE = splitmix64(&seed)

# Shared declarations of the kernel: constants, the board layout and the position struct.
#
# Board layout: a 16x16 padded mailbox (as in ElephantEye). The square of file f (0..8, a..i) and rank r
# (0..9, from Red's side) is (r + 3) * 16 + (f + 3). Stepping "up" (towards Black) is +16. Squares outside
# the 9x10 board are never occupied and are rejected by the IN_BOARD table, so move generation needs no
# bounds arithmetic.
#
# Pieces are identified by a stable id: 16..31 for Red, 32..47 for Black, with a fixed slot layout per side
# (0 general, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 chariots, 9-10 cannons, 11-15 soldiers). A piece
# keeps its id for its whole life, which lets the repetition rules follow "the same piece" through a cycle.

from libc.stdint cimport int8_t, uint8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t

cdef enum:
    # Piece types.
    KING = 0
    ADVISOR = 1
    ELEPHANT = 2
    HORSE = 3
    ROOK = 4
    CANNON = 5
    PAWN = 6
    NO_TYPE = 7

    # Sizes of the board and of the piece sets, for tables indexed by them.
    PIECE_TYPES = NO_TYPE    # KING..PAWN
    PIECE_KINDS = 2 * PIECE_TYPES    # a type of one side: type + PIECE_TYPES * side (zobrist_index)
    BOARD_FILES = 9
    BOARD_RANKS = 10
    BOARD_POINTS = BOARD_FILES * BOARD_RANKS

    # Sides.
    RED = 0
    BLACK = 1

    # Limits.
    MAX_MOVES = 256          # pseudo-legal moves of one position (legal ones never exceed ~120)
    MAX_HISTORY = 4096       # plies of game record plus search path kept in one Pos
    BOARD_SIZE = 256

    # Rules constants.
    NATURAL_LIMIT = 120      # plies without capture that draw the game (60 moves)
    COUNTED_CHECKS = 10      # checks per side that still count toward the natural limit

    # Scores, in centipawns from the side to move's point of view. A side mated p plies from the root
    # scores -(VALUE_MATE - p), so every score beyond +-VALUE_MATE_IN_MAX is a mate within MAX_PLY.
    MAX_PLY = 120            # the deepest the search goes below its root
    VALUE_MATE = 30000
    VALUE_INF = 31000
    VALUE_MATE_IN_MAX = VALUE_MATE - MAX_PLY
    VALUE_DRAW = 0
    # A win by the endgame tables (tb_probe.pxi), mate p plies from the root by a line the search does not
    # see to its end, scores VALUE_TB - p: below every real mate, above every evaluation (which stays below
    # VALUE_TB_WIN_IN_MAX). p counts the plies to the probed node and its distance to mate (at most the
    # natural limit), so a quicker table win scores higher. Kept below engine.score's mate bound: a
    # table win reads as centipawns there, not as a mate.
    VALUE_TB = 20000
    VALUE_TB_WIN_IN_MAX = VALUE_TB - MAX_PLY - NATURAL_LIMIT
    VALUE_EVAL_MAX = VALUE_TB_WIN_IN_MAX - 1


# The outcome of a position as judged by the rules (see rules.pxi).
cdef enum Verdict:
    ONGOING = 0
    CHECKMATE = 1
    STALEMATE = 2
    PERPETUAL_CHECK = 3
    PERPETUAL_CHASE = 4
    REPETITION = 5
    SIXTY_MOVES = 6
    INSUFFICIENT_MATERIAL = 7


cdef struct State:
    # What is known about one position of the record. hist[ply] is the current position; the move that
    # was played from hist[k] is hist[k].move, and it captured hist[k].captured (a piece id, 0 for none).
    uint64_t key
    uint64_t structure_key    # the Zobrist key of the generals, advisors, elephants and pawns alone
    uint64_t attacker_keys[2] # the Zobrist key of each side's chariots, horses and cannons alone
    uint16_t move
    uint8_t captured
    uint8_t in_check          # the side to move here is in check
    uint8_t excess_check      # the move that led here was its side's 11th or later check since the last capture
    uint8_t checks[2]         # checks given by each side since the last capture
    int16_t rule60            # plies counted towards the natural limit (see rules.pxi)
    int16_t since_capture     # plies since the last capture (or the start of the record): the repetition window
    int16_t since_null        # plies since the last null move (the search's repetition window)


cdef struct Pos:
    uint8_t board[BOARD_SIZE]  # piece id on each square, 0 when empty
    uint8_t square[48]         # square of each piece id, 0 when the piece is not on the board
    int side                   # side to move: RED or BLACK
    int ply                    # index of the current position in hist
    State hist[MAX_HISTORY]


cdef struct MoveList:
    int count
    int moves[MAX_MOVES]


cdef inline int side_tag(int side) noexcept nogil:
    """First piece id of a side: 16 for Red, 32 for Black."""
    return 16 + (side << 4)


cdef inline int move_from(int move) noexcept nogil:
    return move & 255


cdef inline int move_to(int move) noexcept nogil:
    return move >> 8


cdef inline int make_move_code(int from_sq, int to_sq) noexcept nogil:
    return from_sq | (to_sq << 8)


cdef inline int square_of(int file, int rank) noexcept nogil:
    return ((rank + 3) << 4) + file + 3


cdef inline int file_of(int sq) noexcept nogil:
    return (sq & 15) - 3


cdef inline int rank_of(int sq) noexcept nogil:
    return (sq >> 4) - 3


cdef inline int mate_in(int ply) noexcept nogil:
    """The score of mating the opponent `ply` plies from the root."""
    return VALUE_MATE - ply


cdef inline int mated_in(int ply) noexcept nogil:
    """The score of being mated `ply` plies from the root."""
    return -VALUE_MATE + ply

# The Python-visible face of the kernel: one class, Board, used by engine.position. It speaks ICCS
# strings ("h2e2") and small integers; FEN parsing and validation live in Python (engine/fen.py).

VERDICT_NAMES = {
    ONGOING: None,
    CHECKMATE: "checkmate",
    STALEMATE: "stalemate",
    PERPETUAL_CHECK: "perpetual_check",
    PERPETUAL_CHASE: "perpetual_chase",
    REPETITION: "repetition",
    SIXTY_MOVES: "sixty_moves",
    INSUFFICIENT_MATERIAL: "insufficient_material",
}

# Plies kept free at the end of the history for a search path below the game record.
cdef int SEARCH_RESERVE = 512


cdef str move_to_iccs(int move):
    cdef int f = move_from(move), t = move_to(move)
    return "%c%d%c%d" % (97 + file_of(f), rank_of(f), 97 + file_of(t), rank_of(t))


cdef int iccs_to_move(str text) except -1:
    """The move code of a 4-character lower-case ICCS string, or 0 if it names no board squares."""
    if len(text) != 4:
        return 0
    cdef int f0 = ord(text[0]) - 97, r0 = ord(text[1]) - 48
    cdef int f1 = ord(text[2]) - 97, r1 = ord(text[3]) - 48
    if not (0 <= f0 <= 8 and 0 <= f1 <= 8 and 0 <= r0 <= 9 and 0 <= r1 <= 9):
        return 0
    return make_move_code(square_of(f0, r0), square_of(f1, r1))


cdef class Board:
    """A position with its game record, backed by the C kernel.

    The board is set up with set_up(); moves are pushed as ICCS strings and must be legal.
    """
    cdef Pos* pos

    def __cinit__(self):
        self.pos = <Pos*>malloc(sizeof(Pos))
        if self.pos == NULL:
            raise MemoryError()
        clear_pos(self.pos)

    def __dealloc__(self):
        free(self.pos)

    def set_up(self, pieces, int side, int rule60):
        """Set up a position from (side, type, file, rank) tuples (type: index in "KABNRCP").

        Raises ValueError if a side has more pieces of a type than the game has.
        """
        clear_pos(self.pos)
        for piece_side_, ptype, file, rank in pieces:
            if not add_piece(self.pos, piece_side_, ptype, square_of(file, rank)):
                raise ValueError("too many pieces of one kind")
        self.pos.side = side
        self.pos.hist[0].key = compute_key(self.pos)
        self.pos.hist[0].structure_key = compute_structure_key(self.pos)
        self.pos.hist[0].attacker_keys[RED] = compute_attacker_key(self.pos, RED)
        self.pos.hist[0].attacker_keys[BLACK] = compute_attacker_key(self.pos, BLACK)
        self.pos.hist[0].rule60 = rule60
        self.pos.hist[0].in_check = king_attacked(self.pos, side)

    def copy(self):
        cdef Board other = Board.__new__(Board)
        memcpy(other.pos, self.pos, sizeof(Pos) - sizeof(State) * (MAX_HISTORY - self.pos.ply - 1))
        return other

    @property
    def side(self):
        """0 for Red to move, 1 for Black."""
        return self.pos.side

    @property
    def ply(self):
        """Number of moves pushed since set_up."""
        return self.pos.ply

    @property
    def rule60(self):
        """Plies counted towards the natural move limit."""
        return self.pos.hist[self.pos.ply].rule60

    def key(self):
        """The incrementally maintained Zobrist key."""
        return self.pos.hist[self.pos.ply].key

    def piece_at(self, int file, int rank):
        """(side, type) of the piece on a square, or None."""
        cdef int piece = self.pos.board[square_of(file, rank)]
        if piece == 0:
            return None
        return piece_side(piece), PIECE_TYPE[piece]

    def pieces(self):
        """(side, type, file, rank) for every piece on the board."""
        cdef int piece, sq
        out = []
        for piece in range(16, 48):
            sq = self.pos.square[piece]
            if sq:
                out.append((piece_side(piece), PIECE_TYPE[piece], file_of(sq), rank_of(sq)))
        return out

    def general_attacked(self, int side):
        """Whether the general of `side` could be captured (flying general included)."""
        return king_attacked(self.pos, side)

    def in_check(self):
        return bool(self.pos.hist[self.pos.ply].in_check)

    def legal_moves(self):
        cdef MoveList ml
        gen_legal(self.pos, &ml)
        return [move_to_iccs(ml.moves[i]) for i in range(ml.count)]

    def is_legal(self, str move):
        cdef int code = iccs_to_move(move)
        cdef MoveList ml
        if code == 0:
            return False
        gen_legal(self.pos, &ml)
        for i in range(ml.count):
            if ml.moves[i] == code:
                return True
        return False

    def push(self, str move):
        """Play a legal ICCS move (lower case, no dash). Raises ValueError if it is not legal."""
        if not self.is_legal(move):
            raise ValueError("illegal move")
        if self.pos.ply >= MAX_HISTORY - SEARCH_RESERVE:
            raise ValueError("the game record is full (%d plies)" % self.pos.ply)
        make_move(self.pos, iccs_to_move(move))
        update_rule_state(self.pos)

    def pop(self):
        """Take back the last move and return it. Raises IndexError when there is none."""
        if self.pos.ply == 0:
            raise IndexError("no move to take back")
        unmake_move(self.pos)
        return move_to_iccs(self.pos.hist[self.pos.ply].move)

    def moves(self):
        """The moves pushed since set_up, in order."""
        return [move_to_iccs(self.pos.hist[k].move) for k in range(self.pos.ply)]

    def perft(self, int depth):
        """Leaf count of the legal move tree; runs without the GIL."""
        cdef uint64_t nodes
        if depth < 0 or depth > 64:
            raise ValueError("perft depth must be 0..64")
        with nogil:
            nodes = perft(self.pos, depth)
        return nodes

    def divide(self, int depth):
        """{move: perft(depth - 1) after it} for each legal move."""
        cdef MoveList ml
        cdef uint64_t nodes
        if depth < 1 or depth > 64:
            raise ValueError("divide depth must be 1..64")
        gen_legal(self.pos, &ml)
        result = {}
        for i in range(ml.count):
            make_move(self.pos, ml.moves[i])
            with nogil:
                nodes = perft(self.pos, depth - 1)
            unmake_move(self.pos)
            result[move_to_iccs(ml.moves[i])] = nodes
        return result

    def verdict(self):
        """(reason, winner): reason is None or a rules verdict name; winner 0 (Red), 1 (Black) or None."""
        cdef int winner = -1
        cdef int code
        with nogil:
            code = verdict(self.pos, &winner)
        return VERDICT_NAMES[code], (None if winner < 0 else winner)

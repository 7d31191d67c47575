# Board state: setting up, make/unmake, null move and Zobrist keys.


cdef void clear_pos(Pos* p) noexcept nogil:
    cdef int i
    for i in range(BOARD_SIZE):
        p.board[i] = 0
    for i in range(48):
        p.square[i] = 0
    p.side = RED
    p.ply = 0
    memset(&p.hist[0], 0, sizeof(State))


cdef int add_piece(Pos* p, int side, int ptype, int sq) noexcept nogil:
    """Put a new piece on an empty square, in the first free slot of its type.

    Returns its id, or 0 when the side already has the most pieces of that type the game allows.
    The Zobrist key is not updated: call compute_key once the board is set up.
    """
    cdef int first = side_tag(side) + SLOT_FIRST[ptype]
    cdef int piece
    for piece in range(first, first + SLOT_COUNT[ptype]):
        if p.square[piece] == 0:
            p.square[piece] = sq
            p.board[sq] = piece
            return piece
    return 0


cdef bint IN_STRUCTURE[PIECE_TYPES]           # the piece types of State.structure_key
IN_STRUCTURE[:] = [True, True, True, False, False, False, True]


cdef uint64_t compute_structure_key(Pos* p) noexcept nogil:
    """The structure key of the position (State.structure_key), from scratch."""
    cdef uint64_t key = 0
    cdef int piece
    for piece in range(16, 48):
        if p.square[piece] and IN_STRUCTURE[PIECE_TYPE[piece]]:
            key ^= ZOBRIST[zobrist_index(piece)][p.square[piece]]
    return key


cdef uint64_t compute_attacker_key(Pos* p, int side) noexcept nogil:
    """The attacker key of one side (State.attacker_keys), from scratch."""
    cdef uint64_t key = 0
    cdef int piece, tag = side_tag(side)
    for piece in range(tag, tag + 16):
        if p.square[piece] and not IN_STRUCTURE[PIECE_TYPE[piece]]:
            key ^= ZOBRIST[zobrist_index(piece)][p.square[piece]]
    return key


cdef uint64_t compute_key(Pos* p) noexcept nogil:
    """The Zobrist key of the position, from scratch."""
    cdef uint64_t key = ZOBRIST_SIDE if p.side == BLACK else 0
    cdef int piece
    for piece in range(16, 48):
        if p.square[piece]:
            key ^= ZOBRIST[zobrist_index(piece)][p.square[piece]]
    return key


cdef inline void make_move(Pos* p, int move) noexcept nogil:
    """Play a pseudo-legal move: board, piece squares, keys and side. The rule counters of the new
    state are not set here (see update_rule_state), which keeps perft and legality tests cheap."""
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[from_sq]
    cdef int captured = p.board[to_sq]
    cdef State* st = &p.hist[p.ply]
    cdef uint64_t key = st.key ^ ZOBRIST_SIDE
    cdef uint64_t structure_key = st.structure_key
    cdef uint64_t attacker_key_red = st.attacker_keys[RED]
    cdef uint64_t attacker_key_black = st.attacker_keys[BLACK]
    cdef int zi = zobrist_index(piece)
    cdef uint64_t change = ZOBRIST[zi][from_sq] ^ ZOBRIST[zi][to_sq]
    key ^= change
    if IN_STRUCTURE[PIECE_TYPE[piece]]:
        structure_key ^= change
    elif p.side == RED:
        attacker_key_red ^= change
    else:
        attacker_key_black ^= change
    if captured:
        change = ZOBRIST[zobrist_index(captured)][to_sq]
        key ^= change
        if IN_STRUCTURE[PIECE_TYPE[captured]]:
            structure_key ^= change
        elif p.side == RED:
            attacker_key_black ^= change
        else:
            attacker_key_red ^= change
        p.square[captured] = 0
    st.move = move
    st.captured = captured
    p.board[to_sq] = piece
    p.board[from_sq] = 0
    p.square[piece] = to_sq
    p.side ^= 1
    p.ply += 1
    p.hist[p.ply].key = key
    p.hist[p.ply].structure_key = structure_key
    p.hist[p.ply].attacker_keys[RED] = attacker_key_red
    p.hist[p.ply].attacker_keys[BLACK] = attacker_key_black


cdef inline void unmake_move(Pos* p) noexcept nogil:
    """Take back the last move made with make_move. The record of that move stays in hist, so that a
    cycle can be replayed after it was taken back (see judge_cycle)."""
    p.ply -= 1
    p.side ^= 1
    cdef State* st = &p.hist[p.ply]
    cdef int from_sq = move_from(st.move)
    cdef int to_sq = move_to(st.move)
    cdef int piece = p.board[to_sq]
    p.board[from_sq] = piece
    p.square[piece] = from_sq
    p.board[to_sq] = st.captured
    if st.captured:
        p.square[st.captured] = to_sq


cdef void make_null_move(Pos* p) noexcept nogil:
    """Pass the move (for null-move pruning). The repetition window restarts after a null move."""
    cdef State* st = &p.hist[p.ply]
    cdef State* nst = &p.hist[p.ply + 1]
    st.move = 0
    st.captured = 0
    nst[0] = st[0]
    nst.key = st.key ^ ZOBRIST_SIDE
    nst.in_check = 0
    nst.excess_check = 0
    nst.since_null = 0
    nst.since_capture = st.since_capture + 1
    p.side ^= 1
    p.ply += 1


cdef void unmake_null_move(Pos* p) noexcept nogil:
    p.ply -= 1
    p.side ^= 1

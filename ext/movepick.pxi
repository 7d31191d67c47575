# Move ordering: the order in which the search tries the moves of a node, and what it learns from the
# cutoffs to order the next nodes better (killers per ply, history per piece and square, the
# countermove of each move). Good ordering is what makes alpha-beta, null-window searches and late
# move reductions pay: most cutoffs come from the first move tried.
#
# Order: the table move, good captures (most valuable victim, then least valuable attacker), the two
# killers, the countermove, the other quiet moves by history, bad captures last (a negative score).

cdef enum:
    # Ordering scores: bands above every history value (kept within +-HISTORY_MAX).
    SCORE_TABLE_MOVE = 1 << 30
    SCORE_GOOD_CAPTURE = 1 << 28     # plus MVV-LVA for a good capture; MVV-LVA minus it for a bad one
    SCORE_KILLER = 1 << 27           # the first killer + 2, the second + 1, the countermove + 0
    HISTORY_MAX = 16384


cdef int MVV_VALUE[7]                # rough piece values by type, for MVV-LVA and the bad-capture test
MVV_VALUE[:] = [50, 2, 2, 4, 9, 5, 1]


cdef struct OrderingTables:
    int killers[MAX_PLY + 2][2]          # quiet moves that refuted a node at this ply, the latest first
    int history[14][BOARD_SIZE]          # quiet move success by [zobrist index of the piece][destination]
    int countermoves[14][BOARD_SIZE]     # the refutation of the previous move, by its piece and destination


cdef void clear_killers(OrderingTables* o) noexcept nogil:
    memset(o.killers, 0, sizeof(o.killers))


cdef void forget_history(OrderingTables* o) noexcept nogil:
    """Clear the history and countermoves (a new game)."""
    memset(o.history, 0, sizeof(o.history))
    memset(o.countermoves, 0, sizeof(o.countermoves))


cdef void age_history(OrderingTables* o) noexcept nogil:
    """Halve the history at the start of a search: what was learnt still counts, but less."""
    cdef int t, sq
    for t in range(14):
        for sq in range(BOARD_SIZE):
            o.history[t][sq] //= 2


cdef inline int* history_slot(OrderingTables* o, Pos* p, int move) noexcept nogil:
    """The history entry of a move not yet played."""
    return &o.history[zobrist_index(p.board[move_from(move)])][move_to(move)]


cdef inline int* countermove_slot(OrderingTables* o, Pos* p) noexcept nogil:
    """The countermove entry of the move that led to the current position, NULL when there is none (the
    start of the record, or a null move)."""
    cdef int previous = p.hist[p.ply - 1].move if p.ply > 0 else 0
    if previous == 0:
        return NULL
    return &o.countermoves[zobrist_index(p.board[move_to(previous)])][move_to(previous)]


cdef inline void update_history(int* entry, int bonus) noexcept nogil:
    """Move a history entry towards +-HISTORY_MAX by `bonus`; the closer it is, the smaller the step."""
    entry[0] += bonus - entry[0] * (bonus if bonus > 0 else -bonus) // HISTORY_MAX


cdef bint is_bad_capture(Pos* p, int move) noexcept nogil:
    """A capture that likely loses material: the capturing piece is worth more than its victim and the
    opponent can take back on the square. A cheap stand-in for a static exchange evaluation."""
    cdef int from_sq = move_from(move)
    cdef int to_sq = move_to(move)
    cdef int piece = p.board[from_sq]
    cdef int victim = p.board[to_sq]
    cdef bint defended
    if MVV_VALUE[PIECE_TYPE[victim]] >= MVV_VALUE[PIECE_TYPE[piece]]:
        return False
    p.board[to_sq] = piece
    p.board[from_sq] = 0
    p.square[piece] = to_sq
    p.square[victim] = 0
    defended = attackers_of(p, to_sq, piece_side(piece) ^ 1) != 0
    p.square[victim] = to_sq
    p.square[piece] = from_sq
    p.board[from_sq] = piece
    p.board[to_sq] = victim
    return defended


cdef void score_moves(OrderingTables* o, Pos* p, MoveList* ml, int* scores, int tt_move,
                      int ply) noexcept nogil:
    """Give each move of ml its ordering score (see the order at the top of this file)."""
    cdef int i, move, victim, attacker
    cdef int* counter_slot = countermove_slot(o, p)
    cdef int counter = counter_slot[0] if counter_slot != NULL else 0
    for i in range(ml.count):
        move = ml.moves[i]
        victim = p.board[move_to(move)]
        if move == tt_move:
            scores[i] = SCORE_TABLE_MOVE
        elif victim:
            attacker = p.board[move_from(move)]
            scores[i] = MVV_VALUE[PIECE_TYPE[victim]] * 64 - MVV_VALUE[PIECE_TYPE[attacker]]
            scores[i] += -SCORE_GOOD_CAPTURE if is_bad_capture(p, move) else SCORE_GOOD_CAPTURE
        elif move == o.killers[ply][0]:
            scores[i] = SCORE_KILLER + 2
        elif move == o.killers[ply][1]:
            scores[i] = SCORE_KILLER + 1
        elif move == counter:
            scores[i] = SCORE_KILLER
        else:
            scores[i] = history_slot(o, p, move)[0]


cdef inline int pick_move(MoveList* ml, int* scores, int start) noexcept nogil:
    """Move the best-scored remaining move to `start` and return it."""
    cdef int best = start, i, tmp
    for i in range(start + 1, ml.count):
        if scores[i] > scores[best]:
            best = i
    if best != start:
        tmp = ml.moves[start]; ml.moves[start] = ml.moves[best]; ml.moves[best] = tmp
        tmp = scores[start]; scores[start] = scores[best]; scores[best] = tmp
    return ml.moves[start]


cdef void reward_cutoff(OrderingTables* o, Pos* p, int ply, int depth, int move, int* tried,
                       int n_tried) noexcept nogil:
    """A quiet move refuted the node: it becomes the killer of this ply and the countermove of the
    previous move, and gains history; the quiet moves tried before it (`tried`) lose as much."""
    cdef int i
    cdef int* counter_slot = countermove_slot(o, p)
    cdef int bonus = depth * depth + 2 * depth if depth < 17 else 320
    if o.killers[ply][0] != move:
        o.killers[ply][1] = o.killers[ply][0]
        o.killers[ply][0] = move
    if counter_slot != NULL:
        counter_slot[0] = move
    update_history(history_slot(o, p, move), bonus * 32)
    for i in range(n_tried):
        update_history(history_slot(o, p, tried[i]), -bonus * 32)

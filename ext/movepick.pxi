# Move ordering: the order in which the search tries the moves of a node, and what it learns from the
# cutoffs to order the next nodes better (killers per ply, history per piece and square, the
# countermove of each move, the continuation history of each move after each of the two moves before it,
# the capture history of each capture by piece, destination and victim).
# Good ordering is what makes alpha-beta, null-window searches and late
# move reductions pay: most cutoffs come from the first move tried.
#
# Order: the table move, good captures (the victim's value plus the capture's history), the two
# killers, the countermove, the other quiet moves by history (the move's own plus its continuation
# history after the previous move and the one before), bad captures last (a negative score).

cdef enum:
    # Ordering scores: bands above every history value (kept within +-HISTORY_MAX).
    SCORE_TABLE_MOVE = 1 << 30
    SCORE_GOOD_CAPTURE = 1 << 28     # plus the capture score for a good capture; the capture score minus it for a bad one
    SCORE_KILLER = 1 << 27           # the first killer + 2, the second + 1, the countermove + 0
    HISTORY_MAX = 16384


cdef enum:
    NO_CONTINUATION = -1                 # a continuation key for "no move" (a null move, before the root)
    CONTINUATION_KEYS = PIECE_KINDS * BOARD_POINTS   # a piece (zobrist index) and a destination point
    SEE_GENERAL = 10000                  # the general's exchange value: never the least valuable attacker
    NO_ATTACKER = 1 << 30                # above every exchange value


cdef struct OrderingTables:
    int killers[MAX_PLY + 2][2]          # quiet moves that refuted a node at this ply, the latest first
    int history[PIECE_KINDS][BOARD_SIZE]        # quiet move success by [zobrist index of the piece][destination]
    # The refutation of the previous move, by its piece and destination.
    int countermoves[PIECE_KINDS][BOARD_SIZE]
    # Quiet move success after an earlier move: [that move's continuation key][this move's key].
    int16_t continuation[CONTINUATION_KEYS][CONTINUATION_KEYS]
    # Capture success by [zobrist index of the capturer][destination][victim's type].
    int capture_history[PIECE_KINDS][BOARD_SIZE][PIECE_TYPES]


cdef inline int continuation_key(Pos* p, int move) noexcept nogil:
    """The key of a move not yet played in the continuation history: its piece and destination."""
    cdef int to_sq = move_to(move)
    return zobrist_index(p.board[move_from(move)]) * BOARD_POINTS + rank_of(to_sq) * BOARD_FILES + file_of(to_sq)


cdef void clear_killers(OrderingTables* o) noexcept nogil:
    memset(o.killers, 0, sizeof(o.killers))


cdef void forget_history(OrderingTables* o) noexcept nogil:
    """Clear the history and countermoves (a new game)."""
    memset(o.history, 0, sizeof(o.history))
    memset(o.countermoves, 0, sizeof(o.countermoves))
    memset(o.continuation, 0, sizeof(o.continuation))
    memset(o.capture_history, 0, sizeof(o.capture_history))


cdef void age_history(OrderingTables* o) noexcept nogil:
    """Halve the history at the start of a search: what was learnt still counts, but less."""
    cdef int t, sq, v
    for t in range(PIECE_KINDS):
        for sq in range(BOARD_SIZE):
            o.history[t][sq] //= 2
            for v in range(PIECE_TYPES):
                o.capture_history[t][sq][v] //= 2
    for t in range(CONTINUATION_KEYS):
        for sq in range(CONTINUATION_KEYS):
            o.continuation[t][sq] //= 2


cdef inline int* history_slot(OrderingTables* o, Pos* p, int move) noexcept nogil:
    """The history entry of a move not yet played."""
    return &o.history[zobrist_index(p.board[move_from(move)])][move_to(move)]


cdef inline int* capture_history_slot(OrderingTables* o, Pos* p, int move) noexcept nogil:
    """The capture history entry of a capture not yet played."""
    return &o.capture_history[zobrist_index(p.board[move_from(move)])][move_to(move)][PIECE_TYPE[p.board[move_to(move)]]]


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


cdef inline void update_continuation(OrderingTables* o, int earlier, int key, int bonus) noexcept nogil:
    """update_history for the continuation entry of `key` after the move `earlier` (if there was one)."""
    cdef int value
    if earlier == NO_CONTINUATION:
        return
    value = o.continuation[earlier][key]
    update_history(&value, bonus)
    o.continuation[earlier][key] = <int16_t>value


cdef inline int quiet_history(OrderingTables* o, Pos* p, int move, int earlier1, int earlier2) noexcept nogil:
    """The history of a quiet move: its own, and its continuation after the previous move (earlier1) and
    the one before that (earlier2)."""
    cdef int key = continuation_key(p, move)
    cdef int score = history_slot(o, p, move)[0]
    if earlier1 != NO_CONTINUATION:
        score += o.continuation[earlier1][key]
    if earlier2 != NO_CONTINUATION:
        score += o.continuation[earlier2][key]
    return score


cdef int SEE_VALUE[PIECE_TYPES]      # piece values by type for the exchange evaluation


cdef void init_see_values() noexcept nogil:
    """SEE_VALUE from the search parameters (see_advisor...), the general's fixed."""
    SEE_VALUE[KING] = SEE_GENERAL
    SEE_VALUE[ADVISOR] = param[SEE_ADVISOR]
    SEE_VALUE[ELEPHANT] = param[SEE_ELEPHANT]
    SEE_VALUE[HORSE] = param[SEE_HORSE]
    SEE_VALUE[ROOK] = param[SEE_CHARIOT]
    SEE_VALUE[CANNON] = param[SEE_CANNON]
    SEE_VALUE[PAWN] = param[SEE_PAWN]


cdef int see(Pos* p, int move) noexcept nogil:
    """Static exchange evaluation: the material the mover wins (SEE_VALUE units) when both sides keep
    capturing on the destination with their least valuable piece, each free to stop. The exchange is
    played on the board itself, so that pieces uncovered behind the first ones (a chariot behind a
    chariot, a cannon's new screen, a horse's or elephant's freed leg) join in; pins are ignored, and the
    general only captures where it is not then attacked. A quiet move scores 0 or the loss of the piece."""
    cdef int from_sq = move_from(move), to_sq = move_to(move)
    cdef int victim = p.board[to_sq]
    cdef int occupant = p.board[from_sq]
    cdef int gain[34]
    cdef int mover[34]
    cdef int origin[34]
    cdef int n = 0, d = 0, side, attacker, candidate, value, best_value
    cdef uint32_t attackers
    gain[0] = SEE_VALUE[PIECE_TYPE[victim]] if victim else 0
    mover[0] = occupant
    origin[0] = from_sq
    n = 1
    p.board[from_sq] = 0
    p.board[to_sq] = occupant
    p.square[occupant] = to_sq
    if victim:
        p.square[victim] = 0
    side = piece_side(occupant) ^ 1
    while True:
        d += 1
        gain[d] = SEE_VALUE[PIECE_TYPE[occupant]] - gain[d - 1]   # if the occupant is taken in turn
        if (gain[d] if gain[d] > -gain[d - 1] else -gain[d - 1]) < 0:
            break        # neither side gains by going on: the result is already decided
        attackers = attackers_of(p, to_sq, side)
        if attackers == 0:
            break
        attacker = 0
        best_value = NO_ATTACKER
        while attackers:
            candidate = first_piece(attackers)
            attackers &= attackers - 1
            value = SEE_VALUE[PIECE_TYPE[candidate]]
            if value < best_value:
                best_value = value
                attacker = candidate
        mover[n] = attacker
        origin[n] = p.square[attacker]
        n += 1
        p.board[p.square[attacker]] = 0
        p.board[to_sq] = attacker
        p.square[attacker] = to_sq
        p.square[occupant] = 0
        if PIECE_TYPE[attacker] == KING and attackers_of(p, to_sq, side ^ 1) != 0:
            n -= 1       # the general may not capture into an attack: take the capture back
            p.square[attacker] = origin[n]
            p.board[origin[n]] = attacker
            p.board[to_sq] = occupant
            p.square[occupant] = to_sq
            break
        occupant = attacker
        side ^= 1
    d -= 1
    while d > 0:
        gain[d - 1] = -(gain[d] if gain[d] > -gain[d - 1] else -gain[d - 1])
        d -= 1
    # Put every piece back: the movers on their squares, the first victim on the destination.
    while n > 0:
        n -= 1
        p.board[origin[n]] = mover[n]
        p.square[mover[n]] = origin[n]
    p.board[to_sq] = victim
    if victim:
        p.square[victim] = to_sq
    return gain[0]


cdef bint is_bad_capture(Pos* p, int move) noexcept nogil:
    """A capture that loses material by the exchange evaluation. Taking a piece worth at least the
    capturer cannot lose, and needs no exchange played out."""
    cdef int victim = p.board[move_to(move)]
    if SEE_VALUE[PIECE_TYPE[victim]] >= SEE_VALUE[PIECE_TYPE[p.board[move_from(move)]]]:
        return False
    return see(p, move) < 0


cdef void score_moves(OrderingTables* o, Pos* p, MoveList* ml, int* scores, int tt_move, int ply,
                      int earlier1, int earlier2) noexcept nogil:
    """Give each move of ml its ordering score (see the order at the top of this file)."""
    cdef int i, move, victim
    cdef int* counter_slot = countermove_slot(o, p)
    cdef int counter = counter_slot[0] if counter_slot != NULL else 0
    for i in range(ml.count):
        move = ml.moves[i]
        victim = p.board[move_to(move)]
        if move == tt_move:
            scores[i] = SCORE_TABLE_MOVE
        elif victim:
            scores[i] = param[CAPTURE_VALUE_WEIGHT] * SEE_VALUE[PIECE_TYPE[victim]] + capture_history_slot(o, p, move)[0]
            scores[i] += -SCORE_GOOD_CAPTURE if is_bad_capture(p, move) else SCORE_GOOD_CAPTURE
        elif move == o.killers[ply][0]:
            scores[i] = SCORE_KILLER + 2
        elif move == o.killers[ply][1]:
            scores[i] = SCORE_KILLER + 1
        elif move == counter:
            scores[i] = SCORE_KILLER
        else:
            scores[i] = quiet_history(o, p, move, earlier1, earlier2)


cdef inline int pick_move(MoveList* ml, int* scores, int start) noexcept nogil:
    """Move the best-scored remaining move (the first of them at equal scores) to `start` and return
    it. The best score is found first, by a loop without branches (which the compiler vectorises), then
    its first move: a search node picks many moves, and one loop that compares and branches on each
    score mispredicts where the best changes."""
    cdef int best = start, i, tmp
    cdef int best_score = scores[start]
    for i in range(start + 1, ml.count):
        best_score = scores[i] if scores[i] > best_score else best_score
    while scores[best] != best_score:
        best += 1
    if best != start:
        tmp = ml.moves[start]; ml.moves[start] = ml.moves[best]; ml.moves[best] = tmp
        tmp = scores[start]; scores[start] = scores[best]; scores[best] = tmp
    return ml.moves[start]


cdef inline int history_bonus(int depth) noexcept nogil:
    """What a cutoff at `depth` teaches the histories (and costs the moves tried before it); at most
    HISTORY_MAX, which keeps the entries within their bound whatever the parameters."""
    cdef int by_depth = depth * depth + 2 * depth
    cdef int bonus = (by_depth if by_depth < param[HISTORY_BONUS_CAP] else param[HISTORY_BONUS_CAP]) \
        * param[HISTORY_BONUS_SCALE]
    return bonus if bonus < HISTORY_MAX else HISTORY_MAX


cdef void reward_cutoff(OrderingTables* o, Pos* p, int ply, int depth, int move, int* tried,
                       int n_tried, int* captures, int n_captures, int earlier1, int earlier2) noexcept nogil:
    """A move refuted the node. A capture gains capture history. A quiet move becomes the killer of this
    ply and the countermove of the previous move, and gains history; the quiet moves tried before it
    (`tried`) lose as much. Either way the captures tried before it (`captures`) lose capture history."""
    cdef int i
    cdef int* counter_slot
    cdef int bonus = history_bonus(depth)
    for i in range(n_captures):
        update_history(capture_history_slot(o, p, captures[i]), -bonus)
    if p.board[move_to(move)] != 0:
        update_history(capture_history_slot(o, p, move), bonus)
        return
    counter_slot = countermove_slot(o, p)
    if o.killers[ply][0] != move:
        o.killers[ply][1] = o.killers[ply][0]
        o.killers[ply][0] = move
    if counter_slot != NULL:
        counter_slot[0] = move
    update_history(history_slot(o, p, move), bonus)
    update_continuation(o, earlier1, continuation_key(p, move), bonus)
    update_continuation(o, earlier2, continuation_key(p, move), bonus)
    for i in range(n_tried):
        update_history(history_slot(o, p, tried[i]), -bonus)
        update_continuation(o, earlier1, continuation_key(p, tried[i]), -bonus)
        update_continuation(o, earlier2, continuation_key(p, tried[i]), -bonus)

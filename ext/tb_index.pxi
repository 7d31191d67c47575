# Endgame tablebases, part 1: the compact index of one material (engine/tablebase, docs/tablebases.md).
#
# A table's material is split into groups, each placed on its own list of legal points:
#   group 0   Red's defence: the general (9 palace points), its advisors (5 points) and elephants (7), as one
#             list of placements without overlaps; only the placements not above their left-right mirror
#             are kept (the mirror reduction, which no Xiangqi piece breaks);
#   group 1   Black's defence, likewise (all placements);
#   group 2.. for each side and type of attacker (horse, chariot, cannon on 90 points; soldiers on their
#             55), its identical pieces as one unordered set (a combination of points).
# The index is the mixed-radix number of the groups' placement numbers, group 0 most significant. Pieces of
# different groups may overlap in the index: such entries are broken and never legal. A position whose
# group 0 is symmetric is stored as itself and as its mirror (two entries of equal value); any other is
# stored once, for itself and its mirror.
#
# The index is in "table orientation": Red is the side the table names first. A probe of a position whose
# colours are the other way round reads it colour-flipped (ranks mirrored, sides swapped): flip = 1.

from libc.math cimport sqrt

cdef enum:
    TB_MAX_GROUPS = 8
    TB_MAX_GROUP_PIECES = 5
    TB_ANY_POINTS = 8            # point list: all 90 points (lists 0..7: side * 4 + TB_PALACE.. TB_SOLDIER)
    TB_PALACE = 0
    TB_ADVISOR_POINTS = 1
    TB_ELEPHANT_POINTS = 2
    TB_SOLDIER_POINTS = 3
    TB_POINT_LISTS = 9

# Entry values (16 bits), for the side to move:
#   0 .. TB_MAX_DTM          order 0, decided by mates: the DTM in plies (odd: it wins, even: it loses; 0: it
#                            has no legal move, which loses by the rules)
#   TB_RULED ..              decided through the perpetual check and chase rulings (tb_rules.pxi): a block of
#     TB_RULED_END - 1       TB_ORDER_SLOTS values for each order 1 .. TB_MAX_ORDER (the round of the ruling
#                            the winner's line leads to). Slot k of a block:
#                              1 .. TB_KIND_MASKS - 1   lost now by the ruling: every move either loses
#                                                       otherwise or is of one of the kinds in the mask k, and
#                                                       the opponent can keep it so (TB_KIND_CHECK: a check;
#                                                       1 << type: a chase of the opponent's only piece of
#                                                       that type); distance 0
#                              TB_KIND_MASKS - 1 + d    d >= 1 plies from such a position (odd: the side to
#                                                       move wins, even: it loses)
#   TB_DRAW_RULES | sides, TB_DRAW, TB_UNKNOWN, TB_ILLEGAL: below.
cdef enum:
    TB_MAX_DTM = 0x7FFF
    TB_RULED = 0x8000
    TB_ORDER_BITS = 10
    TB_ORDER_SLOTS = 1 << TB_ORDER_BITS
    TB_KIND_MASKS = 128
    TB_KIND_CHECK = 1
    TB_MAX_ORDER = 30
    TB_MAX_RULED_DISTANCE = TB_ORDER_SLOTS - TB_KIND_MASKS
    TB_RULED_END = TB_RULED + TB_MAX_ORDER * TB_ORDER_SLOTS     # 0xF800: the first value past them
    TB_DRAW_RULES = 0xFFF8       # | 1: Red, | 2: Black may be forced to check or chase (tb_rules.pxi)
    TB_DRAW = 0xFFFD
    TB_UNKNOWN = 0xFFFE          # while generating only
    TB_ILLEGAL = 0xFFFF          # broken (overlapping pieces) or the side not to move in check


cdef inline bint tb_is_decided(int v) noexcept nogil:
    """A win or a loss (order 0 or ruled)."""
    return v < TB_RULED_END


cdef inline int tb_order(int v) noexcept nogil:
    """The order of a decided entry: 0 decided by mates, k >= 1 through a ruling of round k."""
    return 0 if v <= TB_MAX_DTM else ((v - TB_RULED) >> TB_ORDER_BITS) + 1


cdef inline int tb_distance(int v) noexcept nogil:
    """The plies of a decided entry: to mate (order 0), or to the position where the ruling applies."""
    cdef int slot
    if v <= TB_MAX_DTM:
        return v
    slot = (v - TB_RULED) & (TB_ORDER_SLOTS - 1)
    return 0 if slot < TB_KIND_MASKS else slot - TB_KIND_MASKS + 1


cdef inline int tb_ruled_kinds(int v) noexcept nogil:
    """The kinds mask of an entry lost now by a ruling (distance 0), else 0."""
    cdef int slot
    if v <= TB_MAX_DTM or v >= TB_RULED_END:
        return 0
    slot = (v - TB_RULED) & (TB_ORDER_SLOTS - 1)
    return slot if slot < TB_KIND_MASKS else 0


cdef inline int tb_value_of(int order, int distance) noexcept nogil:
    """The entry of a decided result at distance >= 1 (order 0: any distance), -1 when it cannot be held."""
    if order == 0:
        return distance if distance <= TB_MAX_DTM else -1
    if order > TB_MAX_ORDER or distance < 1 or distance > TB_MAX_RULED_DISTANCE:
        return -1
    return TB_RULED + ((order - 1) << TB_ORDER_BITS) + TB_KIND_MASKS - 1 + distance


cdef inline int tb_ruled_now(int order, int kinds) noexcept nogil:
    """The entry of a position lost now by the ruling of round `order` (1..TB_MAX_ORDER), kinds 1..127."""
    return TB_RULED + ((order - 1) << TB_ORDER_BITS) + kinds

# The distance to conversion (tb_dtc.pxi): one byte per entry and side to move beside its value.
cdef enum:
    TB_DTC_NONE = 255            # no DTC: a draw, a ruled result, or a win the natural limit may cut

# What an entry means to a prober (the search): the one place that reads the encoding above for it.
cdef enum:
    TB_WDL_LOSS = -1
    TB_WDL_DRAW = 0
    TB_WDL_WIN = 1
    TB_WDL_UNSURE = 2            # a draw the rulings might change, or an illegal entry: search on


cdef inline int tb_entry_wdl(int v) noexcept nogil:
    """The side to move's result by an entry: TB_WDL_WIN, TB_WDL_LOSS (by mates or by a ruling: both sure),
    TB_WDL_DRAW (a draw under the rules too) or TB_WDL_UNSURE."""
    if tb_is_decided(v):
        return TB_WDL_WIN if tb_distance(v) & 1 else TB_WDL_LOSS
    return TB_WDL_DRAW if v == TB_DRAW else TB_WDL_UNSURE


cdef inline int tb_entry_plies(int v) noexcept nogil:
    """The plies of an entry tb_entry_wdl calls a win or a loss: to mate (0: no legal move), or, for a
    result decided through a ruling, to the position where the ruling applies (the repetition the ruling
    then needs comes on top)."""
    return tb_distance(v)


cdef int TB_POINT_COUNT[TB_POINT_LISTS]
cdef uint8_t TB_POINT_SQ[TB_POINT_LISTS][BOARD_POINTS]     # [list][point] -> square
cdef int8_t TB_POINT_OF[TB_POINT_LISTS][BOARD_SIZE]        # [list][square] -> point, -1 when not on it
cdef int64_t TB_BINOM[BOARD_POINTS + 1][TB_MAX_GROUP_PIECES + 1]


cdef struct TbLayout:
    int ngroups
    int group_side[TB_MAX_GROUPS]
    int group_type[TB_MAX_GROUPS]       # KING for a defence group, else the attackers' type
    int group_count[TB_MAX_GROUPS]      # attackers: how many identical pieces
    int group_list[TB_MAX_GROUPS]       # attackers: their point list
    int64_t group_size[TB_MAX_GROUPS]
    int64_t stride[TB_MAX_GROUPS]
    int64_t size                        # entries per side to move
    int advisors[2]
    int elephants[2]
    int adv_combos[2]
    int ele_combos[2]
    int32_t* lookup[2]      # defence: [king point][advisor combo][elephant combo] -> placement, -1: none/not kept
    uint8_t* placement[2]   # defence placements, TB_MAX_GROUP_PIECES squares each (K, A.., B..)
    uint8_t* symmetric      # group 0 placements equal to their own mirror


cdef inline int mirror_square(int sq) noexcept nogil:
    """The left-right mirror of a square (file f -> 8 - f)."""
    return square_of(8 - file_of(sq), rank_of(sq))


cdef inline int flip_square(int sq) noexcept nogil:
    """The square seen from the other colour (rank r -> 9 - r)."""
    return square_of(file_of(sq), 9 - rank_of(sq))


cdef void tb_init_points() noexcept nogil:
    cdef int side, lst, sq, f, r, n, k
    for lst in range(TB_POINT_LISTS):
        TB_POINT_COUNT[lst] = 0
        for sq in range(BOARD_SIZE):
            TB_POINT_OF[lst][sq] = -1
    for r in range(BOARD_RANKS):
        for f in range(BOARD_FILES):
            sq = square_of(f, r)
            tb_add_point(TB_ANY_POINTS, sq)
            for side in range(2):
                # own rank: 0 at the side's back rank
                k = r if side == RED else 9 - r
                if 3 <= f <= 5 and k <= 2:
                    tb_add_point(side * 4 + TB_PALACE, sq)
                    if (f + k) % 2 == 1:        # the palace's corners and centre
                        tb_add_point(side * 4 + TB_ADVISOR_POINTS, sq)
                if k in (0, 2, 4) and (f + k) % 4 == 2:
                    tb_add_point(side * 4 + TB_ELEPHANT_POINTS, sq)
                if k >= 5 or (k >= 3 and f % 2 == 0):
                    tb_add_point(side * 4 + TB_SOLDIER_POINTS, sq)
    for n in range(BOARD_POINTS + 1):
        for k in range(TB_MAX_GROUP_PIECES + 1):
            TB_BINOM[n][k] = 1 if k == 0 else (0 if n == 0 else TB_BINOM[n - 1][k - 1] + TB_BINOM[n - 1][k])


cdef inline void tb_add_point(int lst, int sq) noexcept nogil:
    TB_POINT_OF[lst][sq] = TB_POINT_COUNT[lst]
    TB_POINT_SQ[lst][TB_POINT_COUNT[lst]] = sq
    TB_POINT_COUNT[lst] += 1


cdef inline void sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef int64_t combo_rank(int lst, int* squares, int n) noexcept nogil:
    """The rank of an unordered set of n distinct squares on a point list (combinatorial number system),
    -1 when one is not on the list or two coincide."""
    cdef int pts[TB_MAX_GROUP_PIECES]
    cdef int i, a, b
    cdef int64_t rank = 0
    if n == 1:
        return TB_POINT_OF[lst][squares[0]]
    if n == 2:                          # every attacker group of the set, advisors and elephants
        a = TB_POINT_OF[lst][squares[0]]
        b = TB_POINT_OF[lst][squares[1]]
        if a < 0 or b < 0 or a == b:
            return -1
        return a + TB_BINOM[b][2] if a < b else b + TB_BINOM[a][2]
    for i in range(n):
        pts[i] = TB_POINT_OF[lst][squares[i]]
        if pts[i] < 0:
            return -1
    sort_small(pts, n)
    for i in range(n):
        if i and pts[i] == pts[i - 1]:
            return -1
        rank += TB_BINOM[pts[i]][i + 1]
    return rank


cdef void combo_unrank(int lst, int64_t rank, int n, int* squares) noexcept nogil:
    """The squares of the combination of the given rank (the inverse of combo_rank). One or two pieces,
    as every attacker group of the set has, are read directly: the highest point c of a pair is the
    largest with c (c - 1) / 2 <= rank, which the square root gives to within one."""
    cdef int i, c
    if n == 1:
        squares[0] = TB_POINT_SQ[lst][rank]
        return
    if n == 2:
        c = <int>((1.0 + sqrt(1.0 + 8.0 * <double>rank)) / 2.0)
        while TB_BINOM[c][2] > rank:
            c -= 1
        while TB_BINOM[c + 1][2] <= rank:
            c += 1
        squares[1] = TB_POINT_SQ[lst][c]
        squares[0] = TB_POINT_SQ[lst][rank - TB_BINOM[c][2]]
        return
    for i in range(n - 1, -1, -1):
        c = i
        while TB_BINOM[c + 1][i + 1] <= rank:
            c += 1
        rank -= TB_BINOM[c][i + 1]
        squares[i] = TB_POINT_SQ[lst][c]


cdef int64_t defence_key(TbLayout* L, int side, int* squares) noexcept nogil:
    """The lookup slot of a defence group's squares (general, advisors, elephants), -1 off its points."""
    cdef int king = TB_POINT_OF[side * 4 + TB_PALACE][squares[0]]
    cdef int64_t a, b
    if king < 0:
        return -1
    a = combo_rank(side * 4 + TB_ADVISOR_POINTS, squares + 1, L.advisors[side])
    b = combo_rank(side * 4 + TB_ELEPHANT_POINTS, squares + 1 + L.advisors[side], L.elephants[side])
    if a < 0 or b < 0:
        return -1
    return (king * L.adv_combos[side] + a) * L.ele_combos[side] + b


cdef int gather(TbLayout* L, Pos* p, bint flip, int squares[TB_MAX_GROUPS][TB_MAX_GROUP_PIECES],
                bint check_material) noexcept nogil:
    """Read each group's squares off the board (in table orientation). Returns 0, or -1 when the board's
    material is not the layout's (tested only when check_material)."""
    cdef int g, gs, bs, tag, t, piece, n, i
    cdef int counts[2][PIECE_TYPES]
    if check_material:
        for i in range(2):
            for t in range(PIECE_TYPES):
                counts[i][t] = 0
        for piece in range(16, 48):
            if p.square[piece]:
                counts[piece_side(piece) ^ flip][PIECE_TYPE[piece]] += 1
    for g in range(L.ngroups):
        gs = L.group_side[g]
        bs = gs ^ flip
        tag = side_tag(bs)
        n = 0
        if L.group_type[g] == KING:
            if check_material and (counts[gs][ADVISOR] != L.advisors[gs]
                                   or counts[gs][ELEPHANT] != L.elephants[gs]):
                return -1
            for piece in range(tag, tag + SLOT_FIRST[HORSE]):
                if p.square[piece]:
                    squares[g][n] = flip_square(p.square[piece]) if flip else p.square[piece]
                    n += 1
        else:
            t = L.group_type[g]
            if check_material and counts[gs][t] != L.group_count[g]:
                return -1
            for piece in range(tag + SLOT_FIRST[t], tag + SLOT_FIRST[t] + SLOT_COUNT[t]):
                if p.square[piece]:
                    squares[g][n] = flip_square(p.square[piece]) if flip else p.square[piece]
                    n += 1
    if not check_material:
        return 0
    # Material of a type no group holds (checked through the per-side totals of the groups).
    for i in range(2):
        n = 0
        for t in range(HORSE, PIECE_TYPES):
            n += counts[i][t]
        for g in range(2, L.ngroups):
            if L.group_side[g] == i:
                n -= L.group_count[g]
        if n != 0:
            return -1
    return 0


cdef inline int64_t tb_encode(TbLayout* L, Pos* p, bint flip, int* side_out) noexcept nogil:
    """The index of the position on the board (its side to move in side_out, table orientation), or -1
    when it is not in the table (other material, a piece off its points)."""
    return encode_board(L, p, flip, side_out, True)


cdef inline int64_t tb_index_of(TbLayout* L, Pos* p, bint flip, int* side_out) noexcept nogil:
    """tb_encode for a board known to hold the layout's material (the generator's positions and their
    captures): the material is not counted again."""
    return encode_board(L, p, flip, side_out, False)


cdef int64_t encode_board(TbLayout* L, Pos* p, bint flip, int* side_out, bint check_material) noexcept nogil:
    cdef int squares[TB_MAX_GROUPS][TB_MAX_GROUP_PIECES]
    cdef int g, i, n
    cdef int64_t key, id0, index, gid
    if gather(L, p, flip, squares, check_material) < 0:
        return -1
    side_out[0] = p.side ^ flip
    key = defence_key(L, RED, squares[0])
    if key < 0:
        return -1
    id0 = L.lookup[RED][key]
    if id0 < 0:
        # Not a kept placement: read the mirrored position, whose group 0 is kept.
        for g in range(L.ngroups):
            n = group_pieces(L, g)
            for i in range(n):
                squares[g][i] = mirror_square(squares[g][i])
        id0 = L.lookup[RED][defence_key(L, RED, squares[0])]
        if id0 < 0:
            return -1
    index = id0 * L.stride[0]
    for g in range(1, L.ngroups):
        if L.group_type[g] == KING:
            key = defence_key(L, BLACK, squares[g])
            gid = L.lookup[BLACK][key] if key >= 0 else -1
        else:
            gid = combo_rank(L.group_list[g], squares[g], L.group_count[g])
        if gid < 0:
            return -1
        index += gid * L.stride[g]
    return index


cdef inline int group_pieces(TbLayout* L, int g) noexcept nogil:
    cdef int s = L.group_side[g]
    if L.group_type[g] == KING:
        return 1 + L.advisors[s] + L.elephants[s]
    return L.group_count[g]


cdef bint tb_decode(TbLayout* L, int64_t index, Pos* p) noexcept nogil:
    """Set up the position of an index (table orientation, Red to move). False when pieces overlap."""
    cdef int squares[TB_MAX_GROUP_PIECES]
    cdef int g, i, n, s
    cdef int64_t gid
    clear_pos(p)
    for g in range(L.ngroups):
        gid = (index // L.stride[g]) % L.group_size[g]
        s = L.group_side[g]
        n = group_pieces(L, g)
        if L.group_type[g] == KING:
            for i in range(n):
                squares[i] = L.placement[s][gid * TB_MAX_GROUP_PIECES + i]
        else:
            combo_unrank(L.group_list[g], gid, n, squares)
        for i in range(n):
            if p.board[squares[i]]:
                return False
            if L.group_type[g] == KING:
                add_piece(p, s, KING if i == 0 else (ADVISOR if i <= L.advisors[s] else ELEPHANT), squares[i])
            else:
                add_piece(p, s, L.group_type[g], squares[i])
    return True


cdef inline bint tb_group0_symmetric(TbLayout* L, int64_t index) noexcept nogil:
    return L.symmetric[index // L.stride[0]] != 0


cdef void tb_free_layout(TbLayout* L) noexcept nogil:
    cdef int s
    for s in range(2):
        free(L.lookup[s])
        free(L.placement[s])
        L.lookup[s] = NULL
        L.placement[s] = NULL
    free(L.symmetric)
    L.symmetric = NULL


cdef int tb_build_layout(TbLayout* L, counts) except -1:
    """Fill a layout for the material counts[side][type] (kernel types, one general each)."""
    cdef int s, g, t
    memset(L, 0, sizeof(TbLayout))
    for s in range(2):
        if counts[s][KING] != 1:
            raise ValueError("each side has exactly one general")
        L.advisors[s] = counts[s][ADVISOR]
        L.elephants[s] = counts[s][ELEPHANT]
        if L.advisors[s] > 2 or L.elephants[s] > 2:
            raise ValueError("at most two advisors and two elephants a side")
        L.adv_combos[s] = TB_BINOM[5][L.advisors[s]]
        L.ele_combos[s] = TB_BINOM[7][L.elephants[s]]
        L.group_side[s] = s
        L.group_type[s] = KING
        tb_build_defence(L, s)
    g = 2
    for s in range(2):
        for t in (HORSE, ROOK, CANNON, PAWN):
            if counts[s][t]:
                if counts[s][t] > SLOT_COUNT[t]:
                    raise ValueError("too many pieces of one type")
                if g >= TB_MAX_GROUPS:
                    raise ValueError("too many kinds of attacker for one table")
                L.group_side[g] = s
                L.group_type[g] = t
                L.group_count[g] = counts[s][t]
                L.group_list[g] = s * 4 + TB_SOLDIER_POINTS if t == PAWN else TB_ANY_POINTS
                L.group_size[g] = TB_BINOM[TB_POINT_COUNT[L.group_list[g]]][counts[s][t]]
                g += 1
    L.ngroups = g
    L.size = 1
    for g in range(L.ngroups - 1, -1, -1):
        L.stride[g] = L.size
        L.size *= L.group_size[g]
    return 0


cdef int tb_build_defence(TbLayout* L, int side) except -1:
    """Enumerate a side's defence placements (general, advisors, elephants without overlap); for Red keep
    those not above their mirror, and mark the symmetric ones."""
    cdef int na = L.advisors[side], nb = L.elephants[side]
    cdef int slots = 9 * L.adv_combos[side] * L.ele_combos[side]
    cdef int sq[TB_MAX_GROUP_PIECES]
    cdef int i, g, key, mkey
    import itertools
    palace = [TB_POINT_SQ[side * 4 + TB_PALACE][i] for i in range(9)]
    advisor_points = [TB_POINT_SQ[side * 4 + TB_ADVISOR_POINTS][i] for i in range(5)]
    elephant_points = [TB_POINT_SQ[side * 4 + TB_ELEPHANT_POINTS][i] for i in range(7)]
    found = {}
    for king in palace:
        for advisors in itertools.combinations(advisor_points, na):
            for elephants in itertools.combinations(elephant_points, nb):
                squares = (king,) + advisors + elephants
                if len(set(squares)) == len(squares):
                    for i in range(len(squares)):
                        sq[i] = squares[i]
                    found[defence_key(L, side, sq)] = squares
    kept = []
    symmetric = []
    for key in sorted(found):
        squares = found[key]
        if side == RED:
            for i in range(len(squares)):
                sq[i] = mirror_square(squares[i])
            mkey = defence_key(L, side, sq)
            if mkey < key:
                continue
            symmetric.append(mkey == key)
        kept.append((key, squares))
    L.lookup[side] = <int32_t*>malloc(slots * sizeof(int32_t))
    L.placement[side] = <uint8_t*>malloc(len(kept) * TB_MAX_GROUP_PIECES)
    if side == RED:
        L.symmetric = <uint8_t*>malloc(len(kept))
    if L.lookup[side] == NULL or L.placement[side] == NULL or (side == RED and L.symmetric == NULL):
        raise MemoryError()
    for i in range(slots):
        L.lookup[side][i] = -1
    for i, (key, squares) in enumerate(kept):
        L.lookup[side][key] = i
        for g in range(TB_MAX_GROUP_PIECES):
            L.placement[side][i * TB_MAX_GROUP_PIECES + g] = squares[g] if g < len(squares) else 0
        if side == RED:
            L.symmetric[i] = symmetric[i]
    L.group_size[side] = len(kept)
    return 0


tb_init_points()

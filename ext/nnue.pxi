# The NNUE evaluation: the network's arrays, its input features, the accumulators and the output layer.
#
# The network ("JJNN" versions 1 to 4; engine/netfile.py holds the format and its reference description):
# 1260 inputs per perspective (own/opponent's x 7 types x 90 squares, ranks counted from the perspective's
# own back rank), H hidden units per perspective as int16 accumulators, then one output from both
# perspectives' clipped accumulators, the side to move's first, by the weights of the position's output
# bucket (versions 3 and 4: one set per range of the number of pieces; versions 1 and 2 have one); in
# version 4 through a hidden layer of L clipped units between them. A move changes 2 features of each
# perspective (3 for a capture), so an accumulator is updated from its parent's with 2-3 column
# adds/subtracts instead of being summed from its ~32 pieces.
#
# Version 2 buckets those 1260 features by the perspective's own general: 6 buckets of 1260 (d/e file x
# 3 ranks of the palace), the board read in a left-right mirror when the general is on the f-file (so it
# always stands on the d- or e-file of the features). A perspective's "view" (0..11: bucket * 2 + mirror;
# always 0 for version 1) says which block of weights its pieces' features index and whether their files
# are mirrored. The view changes only when the perspective's own general moves, and then it always
# changes (each palace point has its own view): that perspective's accumulator is computed afresh, the
# other one (the opponent's general moved: an ordinary piece for it) is updated as for any move.
#
# The network is global to the process, like the hand-crafted weights (eval.pxi), and used by a Searcher
# only when told to (Searcher.use_nnue). Its arrays belong to a _NetworkArrays object: a search copies the
# NnueNetwork struct into each worker and holds a reference to the object until it ends, so that loading
# another network meanwhile (set_network) cannot free the arrays under it; it applies from the next search.
#
# Where the accumulators live: one stack per search worker (AccumulatorStack, in Worker), one entry per
# search ply, not in Pos: Pos is copied and shared with perft and the library, whose make_move must stay
# as cheap as it is. Entries are filled lazily: making a move in the search only notes the moving piece
# (note_move, one byte); the accumulator of a ply is computed when that node is evaluated, from the
# nearest computed ancestor by replaying the moves recorded in Pos.hist. Moves that are pruned right
# after being made (futility, move count), and nodes that are never evaluated (in check), then cost
# nothing; most nodes are evaluated, so the chain is nearly always one move long.

from libc.stdlib cimport free
from posix.stdlib cimport posix_memalign

# The accumulators' and the output layer's loops, in C. The same loops in Cython vectorise too (gcc -O3
# at the wheel's baseline, x86-64 = SSE2: 8 int16 lanes; checked with -fopt-info-vec and objdump: paddw,
# psubw, and pmaxsw/pminsw/pmaddwd for the output), but through pointers gcc must assume may overlap,
# so each loop is compiled twice behind a run-time overlap check, with remainder loops for an H that
# is not a multiple of 8. Here the pointers are `restrict` (an accumulator and the weights never
# overlap), H is a multiple of 16 (the loader checks it) and, on x86-64 with glibc (GCC or Clang),
# each function is also compiled for AVX2 (16 lanes) with the variant chosen once at load time by the
# CPU (target_clones, through an ifunc, which glibc provides and musl does not): no -march=native, so
# one build runs on any x86-64. Elsewhere the attribute is left out and the portable loops remain.
# -DJJ_NO_CLONES builds without the AVX2 variants (for comparing them). int16 sums wrap (two's
# complement: the build has -fwrapv, and the vector instructions wrap), as the format says.
cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute) && !defined(JJ_NO_CLONES)
    #  if __has_attribute(target_clones)
    #    define JJ_CLONES __attribute__((target_clones("avx2", "default")))
    #  endif
    #endif
    #ifndef JJ_CLONES
    #  define JJ_CLONES
    #endif
    /* H is a multiple of 16: `h & ~15` says so to the compiler (no remainder loops); the index is a
       ptrdiff_t, not an int whose wrapping (-fwrapv) the loop would have to allow for. Plain loops: a
       loop split into blocks of 16 by hand is unrolled before the vectoriser sees it, and the dot
       product then stays scalar. */

    /* child = parent - removed + added */
    JJ_CLONES static void jj_acc_move(int16_t *restrict child, const int16_t *restrict parent,
                                      const int16_t *restrict removed, const int16_t *restrict added, int h) {
        ptrdiff_t n = h & ~15;
        for (ptrdiff_t j = 0; j < n; j++)
            child[j] = (int16_t)(parent[j] - removed[j] + added[j]);
    }

    /* child = parent - removed + added - taken */
    JJ_CLONES static void jj_acc_capture(int16_t *restrict child, const int16_t *restrict parent,
                                         const int16_t *restrict removed, const int16_t *restrict added,
                                         const int16_t *restrict taken, int h) {
        ptrdiff_t n = h & ~15;
        for (ptrdiff_t j = 0; j < n; j++)
            child[j] = (int16_t)(parent[j] - removed[j] + added[j] - taken[j]);
    }

    /* acc = acc - removed + added (in place) */
    JJ_CLONES static void jj_acc_sub_add(int16_t *restrict acc, const int16_t *restrict removed,
                                         const int16_t *restrict added, int h) {
        ptrdiff_t n = h & ~15;
        for (ptrdiff_t j = 0; j < n; j++)
            acc[j] = (int16_t)(acc[j] - removed[j] + added[j]);
    }

    /* acc -= column */
    JJ_CLONES static void jj_acc_sub(int16_t *restrict acc, const int16_t *restrict column, int h) {
        ptrdiff_t n = h & ~15;
        for (ptrdiff_t j = 0; j < n; j++)
            acc[j] = (int16_t)(acc[j] - column[j]);
    }

    /* acc += column */
    JJ_CLONES static void jj_acc_add(int16_t *restrict acc, const int16_t *restrict column, int h) {
        ptrdiff_t n = h & ~15;
        for (ptrdiff_t j = 0; j < n; j++)
            acc[j] = (int16_t)(acc[j] + column[j]);
    }

    /* sum_j clamp(acc[j], 0, qa) * weights[j] (int32: the loader bounds QA * sum|Wo|) */
    JJ_CLONES static int32_t jj_clipped_dot(const int16_t *restrict acc, const int16_t *restrict weights,
                                            int h, int16_t qa) {
        ptrdiff_t n = h & ~15;
        int32_t total = 0;
        for (ptrdiff_t j = 0; j < n; j++) {
            int16_t a = acc[j];
            if (a < 0) a = 0;
            if (a > qa) a = qa;
            total += (int32_t)a * (int32_t)weights[j];
        }
        return total;
    }
    /* dst = clamp(src, 0, qa) */
    JJ_CLONES static void jj_clip(int16_t *restrict dst, const int16_t *restrict src, int h, int16_t qa) {
        ptrdiff_t n = h & ~15;
        for (ptrdiff_t j = 0; j < n; j++) {
            int16_t a = src[j];
            if (a < 0) a = 0;
            if (a > qa) a = qa;
            dst[j] = a;
        }
    }

    /* out[k] = sum_j a[j] * w[k * h + j] for the 4 rows k < 4 of w (int32: the loader bounds QA * sum|w|,
       and 0 <= a <= QA). Four rows a pass: each load of a serves four products (pmaddwd). */
    JJ_CLONES static void jj_dot4(const int16_t *restrict a, const int16_t *restrict w, int h,
                                  int32_t *restrict out) {
        ptrdiff_t n = h & ~15;
        const int16_t *w1 = w + n, *w2 = w + 2 * n, *w3 = w + 3 * n;
        int32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (ptrdiff_t j = 0; j < n; j++) {
            int32_t x = a[j];
            t0 += x * w[j];
            t1 += x * w1[j];
            t2 += x * w2[j];
            t3 += x * w3[j];
        }
        out[0] = t0; out[1] = t1; out[2] = t2; out[3] = t3;
    }
    /* JJ_REFRESH_CACHE: 0 when built with -DJJ_NO_REFRESH_CACHE (for measuring what the cache saves). */
    #ifdef JJ_NO_REFRESH_CACHE
    #  define JJ_REFRESH_CACHE 0
    #else
    #  define JJ_REFRESH_CACHE 1
    #endif
    """
    int JJ_REFRESH_CACHE
    void jj_acc_sub_add(int16_t* acc, const int16_t* removed, const int16_t* added, int h) noexcept nogil
    void jj_acc_sub(int16_t* acc, const int16_t* column, int h) noexcept nogil
    void jj_acc_move(int16_t* child, const int16_t* parent, const int16_t* removed, const int16_t* added,
                     int h) noexcept nogil
    void jj_acc_capture(int16_t* child, const int16_t* parent, const int16_t* removed, const int16_t* added,
                        const int16_t* taken, int h) noexcept nogil
    void jj_acc_add(int16_t* acc, const int16_t* column, int h) noexcept nogil
    int32_t jj_clipped_dot(const int16_t* acc, const int16_t* weights, int h, int16_t qa) noexcept nogil
    void jj_clip(int16_t* dst, const int16_t* src, int h, int16_t qa) noexcept nogil
    void jj_dot4(const int16_t* a, const int16_t* w, int h, int32_t* out) noexcept nogil

cdef enum:
    N_FEATURES = PIECE_KINDS * BOARD_POINTS   # 1260: version 1's inputs, and one king bucket's of version 2
    N_KING_BUCKETS = 6         # version 2: the own general's d/e file (after the mirror) x 3 palace ranks
    N_VIEWS = 2 * N_KING_BUCKETS   # bucket * 2 + mirror (9 of the 12 occur: a palace point each)
    NNUE_MAX_HIDDEN = 2048
    NNUE_MAX_OUTPUT_BUCKETS = 32   # engine/netfile.py MAX_OUTPUT_BUCKETS: one per number of pieces at most
    NNUE_MAX_LAYER = 256       # engine/netfile.py MAX_LAYER
    NNUE_ALIGN = 64            # bytes: the arrays start on a cache line, which helps the vectorised loops
    # AccumulatorStack.pending codes below 16 (piece ids start at 16).
    ACC_ROOT = 0               # ply 0: computed from scratch when the search starts
    ACC_AFTER_NULL = 1         # the ply was reached by a null move (same pieces as its parent)


cdef struct NnueNetwork:
    int hidden                 # H; 0 when no network is loaded
    int king_buckets           # 1 for a version 2 network (the features bucketed by the own general), 0 for version 1
    int qa                     # clipped ReLU ceiling
    int qb                     # output weight scale
    int scale                  # centipawns per unit of out / (QA * QB)
    int16_t* weights           # [N_FEATURES][H] (version 2: [N_KING_BUCKETS * N_FEATURES][H]), feature-major
    int16_t* biases            # [H]
    int output_buckets         # B: the output layer's weights and bias chosen by the number of pieces
    int16_t* out_weights       # [B][2H]: per bucket, the side to move's half, then the other side's ([B][L] with a layer)
    int32_t out_biases[NNUE_MAX_OUTPUT_BUCKETS]   # [B]
    int layer                  # L, the hidden layer's units per bucket; 0: none (the output reads the accumulators)
    int qh                     # the hidden layer's weight scale: a unit is clamp(floor(z / QH), 0, QA)
    int16_t* layer_weights     # [B][L][2H]
    int32_t* layer_biases      # [B][L]


cdef struct AccumulatorStack:
    # values[(ply * 2 + perspective) * hidden + j]; NULL until a search with the network allocates it.
    int16_t* values
    int hidden                 # the H that values is sized for (0: not allocated)
    # Per search ply: ACC_ROOT, ACC_AFTER_NULL, or the id of the piece whose move led to the ply.
    uint8_t pending[MAX_PLY + 2]
    # Per search ply, bit `perspective`: that perspective's accumulator of the ply is computed. They are
    # computed per perspective: after a move of its own general, a version 2 perspective is computed
    # afresh at the ply evaluated, and the plies between it and its last computed one are left uncomputed.
    uint8_t computed[MAX_PLY + 2]
    uint64_t refreshes         # accumulators computed afresh after an own general's move (for tests, measurements)
    # The refresh cache (Pikafish's "Finny table"), for version 2 networks: per perspective and view, an
    # accumulator of that view and the squares of the pieces (by id; 0 off the board) it sums. A refresh
    # brings the entry of the new view up to the position by the pieces that differ (the few that moved or
    # were taken since the general last stood there) and copies it, instead of summing all ~32 pieces.
    # Reset (to the biases and no pieces) at the start of each search: the network may have changed.
    int16_t* cache             # [2][N_VIEWS][hidden], allocated with values
    uint8_t cache_square[2][N_VIEWS][48]


# FEATURE_BASE[perspective][piece id]: (s * 7 + t) * 90 for the piece's side s (0: the perspective's own)
# and its type t in the file's order. FEATURE_SQUARE[perspective][mirror][square]: r' * 9 + f, or
# r' * 9 + (8 - f) mirrored. KING_VIEW[perspective][square]: the view (bucket * 2 + mirror) of a
# perspective whose own general stands on the square (0 off its palace: never used).
cdef int FEATURE_BASE[2][48]
cdef int FEATURE_SQUARE[2][2][BOARD_SIZE]
cdef int KING_VIEW[2][BOARD_SIZE]
# The file's type numbers (FEN order K, A, B, N, R, C, P) of the kernel's types.
cdef int FILE_PIECE_TYPE[PIECE_TYPES]
FILE_PIECE_TYPE[KING] = 0
FILE_PIECE_TYPE[ADVISOR] = 1
FILE_PIECE_TYPE[ELEPHANT] = 2
FILE_PIECE_TYPE[HORSE] = 3
FILE_PIECE_TYPE[ROOK] = 4
FILE_PIECE_TYPE[CANNON] = 5
FILE_PIECE_TYPE[PAWN] = 6


cdef void init_nnue() noexcept nogil:
    """Fill the feature tables (after init_tables)."""
    cdef int persp, piece, sq, rank, file, mirror
    for persp in range(2):
        for piece in range(48):
            FEATURE_BASE[persp][piece] = 0
            if PIECE_TYPE[piece] != NO_TYPE:
                FEATURE_BASE[persp][piece] = ((0 if piece_side(piece) == persp else 1) * PIECE_TYPES
                                              + FILE_PIECE_TYPE[PIECE_TYPE[piece]]) * BOARD_POINTS
        for sq in range(BOARD_SIZE):
            FEATURE_SQUARE[persp][0][sq] = FEATURE_SQUARE[persp][1][sq] = KING_VIEW[persp][sq] = 0
            if IN_BOARD[sq]:
                rank = rank_of(sq) if persp == RED else 9 - rank_of(sq)
                FEATURE_SQUARE[persp][0][sq] = rank * BOARD_FILES + file_of(sq)
                FEATURE_SQUARE[persp][1][sq] = rank * BOARD_FILES + BOARD_FILES - 1 - file_of(sq)
                file = file_of(sq)
                if 3 <= file <= 5 and rank <= 2:
                    # The e-file is its own mirror image: never mirrored (engine/netfile.py, version 2).
                    mirror = file == 5
                    KING_VIEW[persp][sq] = (rank * 2 + (8 - file if mirror else file) - 3) * 2 + mirror


cdef inline int perspective_view(NnueNetwork* net, Pos* p, int persp) noexcept nogil:
    """persp's view: 0 for a version 1 network, bucket * 2 + mirror of its own general's square for 2."""
    return KING_VIEW[persp][p.square[side_tag(persp)]] if net.king_buckets else 0


cdef inline int feature_of(int persp, int view, int piece, int sq) noexcept nogil:
    """The input index of `piece` on `sq` from `persp`'s view (`view`: perspective_view)."""
    return (view >> 1) * N_FEATURES + FEATURE_BASE[persp][piece] + FEATURE_SQUARE[persp][view & 1][sq]


cdef inline int16_t* feature_weights(NnueNetwork* net, int persp, int view, int piece, int sq) noexcept nogil:
    return net.weights + <Py_ssize_t>feature_of(persp, view, piece, sq) * net.hidden


cdef void* aligned_alloc_or_null(size_t size) noexcept nogil:
    cdef void* block = NULL
    if posix_memalign(&block, NNUE_ALIGN, size) != 0:
        return NULL
    return block


# -- the accumulators --------------------------------------------------------------------------------
# The loops are plain int16 arithmetic over H (a multiple of 16), in the C helpers above. Sums outside
# int16 wrap (two's complement); addition modulo 2**16 does not depend on the order, so an updated
# accumulator always equals a refreshed one, and the reference in tests/kernel/test_nnue.py wraps the same way.

cdef void refresh_accumulator(NnueNetwork* net, Pos* p, int persp, int16_t* acc) noexcept nogil:
    """acc = biases + the weights of every piece's feature from persp's view (from scratch)."""
    cdef int piece, sq, h = net.hidden
    cdef int view = perspective_view(net, p, persp)
    memcpy(acc, net.biases, sizeof(int16_t) * h)
    for piece in range(16, 48):
        sq = p.square[piece]
        if sq:
            jj_acc_add(acc, feature_weights(net, persp, view, piece, sq), h)


cdef void update_accumulator(NnueNetwork* net, int16_t* parent, int16_t* child, int persp, int view,
                             int piece, int from_sq, int to_sq, int captured) noexcept nogil:
    """child = parent after `piece` moved from from_sq to to_sq, capturing `captured` (0: none); persp's
    view is the same before and after (the move is not persp's own general's, in version 2)."""
    cdef int16_t* removed = feature_weights(net, persp, view, piece, from_sq)
    cdef int16_t* added = feature_weights(net, persp, view, piece, to_sq)
    if captured:
        jj_acc_capture(child, parent, removed, added, feature_weights(net, persp, view, captured, to_sq),
                       net.hidden)
    else:
        jj_acc_move(child, parent, removed, added, net.hidden)


cdef inline int16_t* stack_entry(AccumulatorStack* stack, int ply, int persp) noexcept nogil:
    return stack.values + <Py_ssize_t>(ply * 2 + persp) * stack.hidden


cdef inline void note_move(AccumulatorStack* stack, int ply, Pos* p, int move) noexcept nogil:
    """Before make_move(p, move) at search ply `ply - 1`: the accumulators of `ply` are stale."""
    stack.pending[ply] = p.board[move_from(move)]
    stack.computed[ply] = 0


cdef inline void note_null_move(AccumulatorStack* stack, int ply) noexcept nogil:
    stack.pending[ply] = ACC_AFTER_NULL
    stack.computed[ply] = 0


cdef bint stack_reserve(AccumulatorStack* stack, int hidden) noexcept nogil:
    """Size the stack for a network of `hidden` units. Returns False when out of memory."""
    if stack.hidden == hidden:
        return True
    free(stack.values)
    free(stack.cache)
    stack.values = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * (MAX_PLY + 2) * 2 * hidden)
    stack.cache = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * 2 * N_VIEWS * hidden)
    if stack.values == NULL or stack.cache == NULL:
        stack_free(stack)
        return False
    stack.hidden = hidden
    return True


cdef void stack_free(AccumulatorStack* stack) noexcept nogil:
    free(stack.values)
    free(stack.cache)
    stack.values = stack.cache = NULL
    stack.hidden = 0


cdef inline int16_t* cache_entry(AccumulatorStack* stack, int persp, int view) noexcept nogil:
    return stack.cache + <Py_ssize_t>(persp * N_VIEWS + view) * stack.hidden


cdef void cache_reset(AccumulatorStack* stack, NnueNetwork* net) noexcept nogil:
    """Every entry of the refresh cache: the biases, no pieces."""
    cdef int persp, view
    for persp in range(2):
        for view in range(N_VIEWS):
            memcpy(cache_entry(stack, persp, view), net.biases, sizeof(int16_t) * net.hidden)
    memset(stack.cache_square, 0, sizeof(stack.cache_square))


cdef void cache_refresh(AccumulatorStack* stack, NnueNetwork* net, Pos* p, int persp, int16_t* acc) noexcept nogil:
    """acc = persp's accumulator of p (as refresh_accumulator), through the refresh cache's entry of
    persp's view: that entry is brought up to p piece by piece, then copied."""
    cdef int piece, old_sq, new_sq, h = net.hidden
    cdef int view = perspective_view(net, p, persp)
    cdef int16_t* entry = cache_entry(stack, persp, view)
    cdef uint8_t* cached = stack.cache_square[persp][view]
    for piece in range(16, 48):
        old_sq = cached[piece]
        new_sq = p.square[piece]
        if old_sq != new_sq:
            if old_sq and new_sq:
                jj_acc_sub_add(entry, feature_weights(net, persp, view, piece, old_sq),
                               feature_weights(net, persp, view, piece, new_sq), h)
            elif old_sq:
                jj_acc_sub(entry, feature_weights(net, persp, view, piece, old_sq), h)
            else:
                jj_acc_add(entry, feature_weights(net, persp, view, piece, new_sq), h)
            cached[piece] = new_sq
    memcpy(acc, entry, sizeof(int16_t) * h)


cdef void stack_set_root(AccumulatorStack* stack, NnueNetwork* net, Pos* p) noexcept nogil:
    """Compute ply 0's accumulators from scratch (at the start of a search: p is its root)."""
    refresh_accumulator(net, p, RED, stack_entry(stack, 0, RED))
    refresh_accumulator(net, p, BLACK, stack_entry(stack, 0, BLACK))
    stack.pending[0] = ACC_ROOT
    stack.computed[0] = 3
    if net.king_buckets:
        cache_reset(stack, net)


cdef void stack_bring_up_to_date(AccumulatorStack* stack, NnueNetwork* net, Pos* p, int root_ply,
                                 int ply) noexcept nogil:
    """Compute the accumulators of search ply `ply` (p is its position, root_ply the root's index in
    p.hist). Per perspective: from its nearest computed ancestor, each ply from its parent's with the
    move p.hist recorded and the mover note_move noted; or, when its own general moved on the way and
    the network's features are bucketed by it, afresh from p (the plies between stay uncomputed)."""
    cdef int first, k, persp, piece, view, own_general
    cdef bint refresh
    cdef State* st
    for persp in range(2):
        if stack.computed[ply] & (1 << persp):
            continue
        first = ply
        refresh = False
        own_general = side_tag(persp)
        while first > 0 and not (stack.computed[first] & (1 << persp)):     # ply 0 is always computed
            refresh |= stack.pending[first] == own_general
            first -= 1
        if refresh and net.king_buckets:
            if JJ_REFRESH_CACHE:
                cache_refresh(stack, net, p, persp, stack_entry(stack, ply, persp))
            else:
                refresh_accumulator(net, p, persp, stack_entry(stack, ply, persp))
            stack.computed[ply] |= 1 << persp
            stack.refreshes += 1
            continue
        # The view is the same all along the chain: the own general has not moved (or version 1).
        view = perspective_view(net, p, persp)
        for k in range(first + 1, ply + 1):
            piece = stack.pending[k]
            if piece == ACC_AFTER_NULL:
                memcpy(stack_entry(stack, k, persp), stack_entry(stack, k - 1, persp),
                       sizeof(int16_t) * stack.hidden)
            else:
                st = &p.hist[root_ply + k - 1]
                update_accumulator(net, stack_entry(stack, k - 1, persp), stack_entry(stack, k, persp), persp,
                                   view, piece, move_from(st.move), move_to(st.move), st.captured)
            stack.computed[k] |= 1 << persp


# -- the output ----------------------------------------------------------------------------------------

cdef inline int output_bucket(NnueNetwork* net, Pos* p) noexcept nogil:
    """The output bucket of p: (pieces on the board - 1) * B // 32 (engine/netfile.py output_bucket)."""
    if net.output_buckets == 1:
        return 0
    cdef int piece, pieces = 0
    for piece in range(16, 48):
        pieces += p.square[piece] != 0
    return (pieces - 1) * net.output_buckets // 32


cdef inline int32_t hidden_layer_output(NnueNetwork* net, int16_t* us, int16_t* them, int bucket) noexcept nogil:
    """The output before scaling through the hidden layer: each unit k of the bucket is
    clamp(floor(z_k / QH), 0, QA) of z_k = its weights . both clipped accumulators + its bias, and the
    output is the units . the bucket's output weights + its bias (int32: the loader bounds each sum)."""
    cdef int k, h = net.hidden, units = net.layer
    cdef int16_t* weights = net.layer_weights + <Py_ssize_t>bucket * units * 2 * h
    cdef int32_t* biases = net.layer_biases + bucket * units
    cdef int16_t* out_weights = net.out_weights + bucket * units
    cdef int32_t z, unit, out = net.out_biases[bucket]
    cdef int16_t clipped[2 * NNUE_MAX_HIDDEN]       # both accumulators clamped once, for all the units
    cdef int32_t sums[NNUE_MAX_LAYER]
    jj_clip(clipped, us, h, <int16_t>net.qa)
    jj_clip(clipped + h, them, h, <int16_t>net.qa)
    for k in range(0, units, 4):                    # L is a multiple of 4 (the loader checks it)
        jj_dot4(clipped, weights + <Py_ssize_t>k * 2 * h, 2 * h, sums + k)
    for k in range(units):
        z = sums[k] + biases[k]
        # floor(z / QH) for z >= 0 is C's division; a negative z clamps to 0 either way.
        unit = 0 if z < 0 else z // net.qh
        out += (unit if unit < net.qa else net.qa) * out_weights[k]
    return out


cdef int network_output(NnueNetwork* net, int16_t* us, int16_t* them, int bucket) noexcept nogil:
    """The evaluation (centipawns, side to move's view) of the accumulators of the side to move (us) and
    of the other side with the output bucket's weights: floor(out * SCALE / (QA * QB)), rounded towards
    minus infinity like Python's // (C's / truncates towards zero, hence the correction)."""
    cdef int h = net.hidden
    cdef int16_t* weights = net.out_weights + bucket * 2 * h
    cdef int32_t out
    if net.layer:
        out = hidden_layer_output(net, us, them, bucket)
    else:
        out = (jj_clipped_dot(us, weights, h, <int16_t>net.qa)
               + jj_clipped_dot(them, weights + h, h, <int16_t>net.qa) + net.out_biases[bucket])
    cdef int64_t scaled = <int64_t>out * net.scale
    cdef int64_t divisor = <int64_t>net.qa * net.qb
    cdef int64_t quotient = scaled // divisor     # C division (the build sets cdivision)
    if scaled % divisor < 0:
        quotient -= 1
    return <int>quotient


cdef int nnue_evaluate_ply(AccumulatorStack* stack, NnueNetwork* net, Pos* p, int root_ply,
                           int ply) noexcept nogil:
    """The network's evaluation at search ply `ply` (p its position), from the lazily updated stack."""
    stack_bring_up_to_date(stack, net, p, root_ply, ply)
    return network_output(net, stack_entry(stack, ply, p.side), stack_entry(stack, ply, p.side ^ 1),
                          output_bucket(net, p))


cdef int nnue_evaluate_from_scratch(NnueNetwork* net, Pos* p, int16_t* scratch) noexcept nogil:
    """The network's evaluation of p, its accumulators computed into scratch (2 * hidden int16)."""
    refresh_accumulator(net, p, p.side, scratch)
    refresh_accumulator(net, p, p.side ^ 1, scratch + net.hidden)
    return network_output(net, scratch, scratch + net.hidden, output_bucket(net, p))


cdef inline int clamp_to_eval_range(int value) noexcept nogil:
    """Keep a network's output clear of the table wins and mates (the search's bounds assume it)."""
    if value > VALUE_EVAL_MAX:
        return VALUE_EVAL_MAX
    if value < -VALUE_EVAL_MAX:
        return -VALUE_EVAL_MAX
    return value


# -- the network's memory ------------------------------------------------------------------------------

cdef void free_network(NnueNetwork* net) noexcept nogil:
    free(net.weights)
    free(net.biases)
    free(net.out_weights)
    free(net.layer_weights)
    free(net.layer_biases)
    net.weights = net.biases = net.out_weights = net.layer_weights = NULL
    net.layer_biases = NULL
    net.hidden = 0


cdef void _copy_int16(int16_t* dst, values, Py_ssize_t count) except *:
    cdef const unsigned char[:] raw = memoryview(values).cast("B")
    if raw.shape[0] != count * 2:
        raise ValueError(f"expected {count} int16 values, got {raw.shape[0] // 2}")
    if count:
        memcpy(dst, &raw[0], count * 2)


cdef class _NetworkArrays:
    """The kernel's copy of a network's arrays (freed with the object)."""
    cdef NnueNetwork net

    def __cinit__(self):
        memset(&self.net, 0, sizeof(NnueNetwork))

    def __dealloc__(self):
        free_network(&self.net)

    cdef load(self, network):
        """Copy an engine.netfile.Network in. Raises ValueError for a bad size, MemoryError."""
        from array import array
        cdef int h = network.hidden
        cdef int version = getattr(network, "version", 1)
        cdef int buckets = getattr(network, "output_buckets", 1)
        cdef int units = getattr(network, "layer", 0)
        if version not in (1, 2):
            raise ValueError(f"JJNN version {version} is not supported (1 or 2)")
        if not 1 <= buckets <= NNUE_MAX_OUTPUT_BUCKETS:
            raise ValueError(f"{buckets} output buckets: 1..{NNUE_MAX_OUTPUT_BUCKETS} are supported")
        if not (0 <= units <= NNUE_MAX_LAYER and units % 4 == 0):
            raise ValueError(f"a hidden layer of {units} units: 0..{NNUE_MAX_LAYER}, a multiple of 4, are supported")
        biases = tuple(network.out_biases) if buckets > 1 or units else (network.out_bias,)
        if len(biases) != buckets:
            raise ValueError(f"{len(biases)} output biases for {buckets} output buckets")
        layer_biases = tuple(network.layer_biases) if units else ()
        if len(layer_biases) != buckets * units:
            raise ValueError(f"{len(layer_biases)} hidden-layer biases for {buckets} x {units} units")
        cdef Py_ssize_t n_features = N_FEATURES * (N_KING_BUCKETS if version == 2 else 1)
        cdef int width = units or 2 * h        # the output layer's inputs
        if not (0 < h <= NNUE_MAX_HIDDEN and h % 16 == 0):
            raise ValueError(f"hidden size {h} is out of range (1..{NNUE_MAX_HIDDEN}, a multiple of 16)")
        if not (0 < network.qa <= 32767 and network.qb > 0 and network.scale > 0):
            raise ValueError("QA must be 1..32767, QB and SCALE positive")
        if units and not 0 < network.qh <= 32767:
            raise ValueError("QH must be 1..32767")
        self.net.qa, self.net.qb, self.net.scale = network.qa, network.qb, network.scale
        self.net.output_buckets = buckets
        for bucket in range(buckets):
            self.net.out_biases[bucket] = biases[bucket]
        self.net.king_buckets = version == 2
        self.net.weights = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * n_features * h)
        self.net.biases = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * h)
        self.net.out_weights = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * buckets * width)
        if self.net.weights == NULL or self.net.biases == NULL or self.net.out_weights == NULL:
            raise MemoryError("cannot allocate the network")
        _copy_int16(self.net.weights, array("h", network.weights), n_features * h)
        _copy_int16(self.net.biases, array("h", network.biases), h)
        _copy_int16(self.net.out_weights, array("h", network.out_weights), buckets * width)
        _check_int32_sums(self.net.out_weights, biases, width, network.qa, "the output layer")
        if units:
            self.net.layer_weights = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * buckets * units * 2 * h)
            self.net.layer_biases = <int32_t*>aligned_alloc_or_null(sizeof(int32_t) * buckets * units)
            if self.net.layer_weights == NULL or self.net.layer_biases == NULL:
                raise MemoryError("cannot allocate the network")
            _copy_int16(self.net.layer_weights, array("h", network.layer_weights), buckets * units * 2 * h)
            for k in range(buckets * units):
                self.net.layer_biases[k] = layer_biases[k]
            _check_int32_sums(self.net.layer_weights, layer_biases, 2 * h, network.qa, "the hidden layer")
            self.net.layer, self.net.qh = units, network.qh
        self.net.hidden = h       # last: a partly loaded network stays unusable


cdef _check_int32_sums(int16_t* weights, biases, int width, int qa, str what):
    """Each row's QA * sum|w| + |bias| below 2**31: its int32 sum cannot overflow in any position."""
    for row in range(len(biases)):
        bound = qa * sum([abs(weights[row * width + j]) for j in range(width)]) + abs(biases[row])
        if bound >= 2**31:
            raise ValueError(f"{what} can overflow int32 (QA * sum|w| + |bias| >= 2**31)")


cdef _NetworkArrays loaded_network = None     # the network set_network loaded, None for none


def set_network(network):
    """Load an engine.netfile.Network into the kernel, replacing the current one. Searchers with use_nnue
    evaluate with it from their next search on (a running search keeps the network it started with).
    Raises ValueError for arrays of the wrong size, MemoryError (the current network then stays)."""
    global loaded_network
    cdef _NetworkArrays fresh = _NetworkArrays()
    fresh.load(network)
    loaded_network = fresh


def clear_network():
    """Drop the network: every Searcher evaluates with the hand-crafted evaluation from its next search on."""
    global loaded_network
    loaded_network = None


def network_hidden():
    """The hidden size H of the loaded network, 0 when none is loaded."""
    return 0 if loaded_network is None else loaded_network.net.hidden


def network_layer():
    """The units of the loaded network's hidden layer (per output bucket), 0 without one or a network."""
    return 0 if loaded_network is None else loaded_network.net.layer


def network_version():
    """The JJNN version (feature set) of the loaded network, 0 when none is loaded."""
    if loaded_network is None or not loaded_network.net.hidden:
        return 0
    return 2 if loaded_network.net.king_buckets else 1


cdef int evaluate_with(_NetworkArrays network, Pos* p, bint clamp) except? -1:
    """The network's evaluation of p from scratch; clamped clear of the mate scores when `clamp`."""
    cdef int16_t* scratch = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * 2 * network.net.hidden)
    if scratch == NULL:
        raise MemoryError()
    cdef int value = nnue_evaluate_from_scratch(&network.net, p, scratch)
    free(scratch)
    return clamp_to_eval_range(value) if clamp else value


def nnue_evaluate(Board board):
    """The loaded network's evaluation of the board's position, from scratch (centipawns, side to move's
    view; not clamped clear of the mate scores as the search's is). Raises RuntimeError without a network."""
    cdef _NetworkArrays network = loaded_network
    if network is None:
        raise RuntimeError("no network is loaded (set_network)")
    return evaluate_with(network, board.pos, False)


def nnue_output_parts(Board board):
    """The loaded network's output for the board's position split into its terms, in centipawns before
    rounding, side to move's view: (the side to move's accumulator's share, the other side's, the output
    bias's). nnue_evaluate is the floor of their sum. None for a network with a hidden layer (its output
    is not a sum of the two sides' shares). Raises RuntimeError without a network."""
    cdef _NetworkArrays network = loaded_network
    if network is None:
        raise RuntimeError("no network is loaded (set_network)")
    cdef NnueNetwork* net = &network.net
    if net.layer:
        return None
    cdef int h = net.hidden
    cdef int16_t* scratch = <int16_t*>aligned_alloc_or_null(sizeof(int16_t) * 2 * h)
    if scratch == NULL:
        raise MemoryError()
    refresh_accumulator(net, board.pos, board.pos.side, scratch)
    refresh_accumulator(net, board.pos, board.pos.side ^ 1, scratch + h)
    cdef int bucket = output_bucket(net, board.pos)
    cdef int16_t* weights = net.out_weights + bucket * 2 * h
    cdef int32_t own = jj_clipped_dot(scratch, weights, h, <int16_t>net.qa)
    cdef int32_t other = jj_clipped_dot(scratch + h, weights + h, h, <int16_t>net.qa)
    free(scratch)
    cdef double unit = net.scale / (<double>net.qa * net.qb)
    return own * unit, other * unit, net.out_biases[bucket] * unit

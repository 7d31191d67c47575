"""The small NNUE as specified for the engine: features, the float and the integer evaluation, the
quantisation and the JJNN file. This module is the reference the engine's network evaluation is checked
against (the trainer uses it; tests/tools/test_nnue_tools.py tests it).

Features, for a perspective P (0 Red, 1 Black): every piece, of colour c and type t (FEN letter index in
KABNRCP), on file f (0..8 from Red's left) and rank r (0..9 from Red's back rank) is the feature

    (s * 7 + t) * 90 + r' * 9 + f,   s = 0 if c == P else 1,   r' = r for Red, 9 - r for Black

(N_INPUTS = 1260; at most 32 active per perspective). The king-bucketed feature set (JJNN version 2,
`version=2` below; engine/netfile.py defines it) puts that index in one of 6 blocks of 1260 chosen by the
perspective's own general's palace point, with the files mirrored (f -> 8 - f) when it stands on the
f-file: N_INPUTS_V2 = 7560 inputs. The network, with H hidden units per perspective:

    acc_P = b + sum of W[i] over P's features          (W: n_inputs x H, b: H)
    a_P   = clamp(acc_P, 0, 1)
    out   = a_us . wo[:H] + a_them . wo[H:] + bo       (us: the side to move)
    eval  = out * SCALE centipawns, from the side to move's view

With a hidden layer of L units (JJNN file version 4), between the accumulators and the output:

    u     = clamp(W1 . [a_us, a_them] + b1, 0, 1)      (W1: L x 2H, b1: L)
    out   = u . wo + bo                                (wo: L)

Quantised: W_q = round(W * QA), b_q = round(b * QA) (int16), wo_q = round(wo * QB) (int16),
bo_q = round(bo * QA * QB) (int32); acc_q = b_q + sum W_q, a_q = clamp(acc_q, 0, QA),
out_q = a_q_us . wo_q[:H] + a_q_them . wo_q[H:] + bo_q, cp = floor(out_q * SCALE / (QA * QB)) (rounded
towards minus infinity, as the engine does: engine/netfile.py). The hidden layer: W1_q = round(W1 * QH)
(int16), b1_q = round(b1 * QA * QH) + QH // 2 (int32; the half step makes the engine's floor below a
rounding to the nearest), u_q = clamp(floor((W1_q . [a_q_us, a_q_them] + b1_q) / QH), 0, QA),
out_q = u_q . wo_q + bo_q. |W| and |b| are kept <= WEIGHT_LIMIT so that b_q plus the 32 W_q of a full
board fit int16 whatever the position: 33 * round(WEIGHT_LIMIT * QA) <= 32767.

The file is the engine's JJNN format, read and written by engine.netfile.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from engine import netfile
from engine.squares import parse_square

N_INPUTS = netfile.N_INPUTS
N_INPUTS_V2 = netfile.N_INPUTS_V2
N_BUCKETS = netfile.N_BUCKETS
QA = netfile.DEFAULT_QA
QB = netfile.DEFAULT_QB
QH = netfile.DEFAULT_QH
SCALE = netfile.DEFAULT_SCALE
MAX_PIECES = 32
#: The largest |W| and |b| whose quantised values cannot overflow an int16 accumulator (992 / 255 = 3.89).
WEIGHT_LIMIT = (32767 // (MAX_PIECES + 1)) / QA
#: The padding index of the (n, MAX_PIECES) feature arrays: -1, which picks the row of zeros appended to
#: W (last), whatever the number of inputs.
NO_FEATURE = -1

_SQUARE = np.arange(90)
_RANK = _SQUARE // 9
_FILE = _SQUARE % 9


def feature_indices(codes: np.ndarray, perspective: np.ndarray, version: int = 1) -> np.ndarray:
    """The active features of each position for the given perspective (0 Red, 1 Black, per position):
    an (n, MAX_PIECES) int32 array, padded with NO_FEATURE. codes: (n, 90) square codes as in
    nnue_data (0 empty, 1 + t Red, 9 + t Black); version: the feature set (1 plain, 2 king buckets)."""
    codes = np.asarray(codes)
    perspective = np.asarray(perspective, dtype=np.int32)[:, None]
    occupied = codes > 0
    colour = (codes >= 9).astype(np.int32)
    ptype = (codes & 7).astype(np.int32) - 1
    own = (colour != perspective).astype(np.int32)        # 0: the perspective's own piece
    rank = np.where(perspective == 0, _RANK, 9 - _RANK)
    file = _FILE
    bucket = 0
    if version == 2:
        # The own general's square (code 1 Red's, 9 Black's): its bucket and mirror (engine/netfile.py).
        king = np.argmax(codes == np.where(perspective == 0, 1, 9), axis=1)
        king_file = _FILE[king]
        king_rank = np.where(perspective[:, 0] == 0, _RANK[king], 9 - _RANK[king])
        if np.any((king_file < 3) | (king_file > 5) | (king_rank > 2)):
            raise ValueError("a position without its general in its palace")
        mirror = (king_file == 5)[:, None]
        bucket = (king_rank * 2 + np.where(mirror[:, 0], 8 - king_file, king_file) - 3)[:, None] * N_INPUTS
        file = np.where(mirror, 8 - _FILE, _FILE)
    elif version != 1:
        raise ValueError(f"feature set version {version}: 1 or 2")
    index = bucket + (own * 7 + ptype) * 90 + rank * 9 + file
    index = np.where(occupied, index, NO_FEATURE)
    # The occupied squares first (a stable sort keeps them in square order), then the padding.
    order = np.argsort(~occupied, axis=1, kind="stable")[:, :MAX_PIECES]
    return np.take_along_axis(index, order, axis=1).astype(np.int32)


def position_features(piece_map: dict[str, str], perspective: int, version: int = 1) -> list[int]:
    """The active features of a position given as ``Position.piece_map()`` (square -> FEN letter), one
    piece at a time through the engine's own definition (engine.netfile.feature_index, and
    feature_index_v2 for version 2): the check on the array version, feature_indices."""
    out = []
    king = "K" if perspective == 0 else "k"
    king_file, king_rank = [parse_square(s) for s, letter in piece_map.items() if letter == king][0]
    for square, letter in piece_map.items():
        file, rank = parse_square(square)
        colour = 0 if letter.isupper() else 1
        piece_type = "KABNRCP".index(letter.upper())
        if version == 2:
            out.append(netfile.feature_index_v2(perspective, colour, piece_type, file, rank, king_file, king_rank))
        else:
            out.append(netfile.feature_index(perspective, colour, piece_type, file, rank))
    return sorted(out)


def version_of(n_inputs: int) -> int:
    """The feature set (JJNN version) of a network with this many inputs."""
    if n_inputs == N_INPUTS:
        return 1
    if n_inputs == N_INPUTS_V2:
        return 2
    raise ValueError(f"{n_inputs} inputs: neither feature set's ({N_INPUTS}, {N_INPUTS_V2})")


class _Shape:
    """What FloatNet and QuantNet share: their sizes, read off the arrays."""

    W: np.ndarray
    b: np.ndarray
    wo: np.ndarray
    W1: Optional[np.ndarray]

    @property
    def hidden(self) -> int:
        return len(self.b)

    @property
    def version(self) -> int:
        return version_of(len(self.W))

    @property
    def output_buckets(self) -> int:
        return 1 if np.ndim(self.wo) == 1 else len(self.wo)

    @property
    def layer(self) -> int:
        """The hidden layer's units (per output bucket), 0 without one."""
        return 0 if self.W1 is None else self.W1.shape[1]


@dataclass
class FloatNet(_Shape):
    """The float network: W (n_inputs, H), b (H,), wo (2H,), bo (a float); n_inputs N_INPUTS (version 1)
    or N_INPUTS_V2 (version 2). With B output buckets (JJNN file version 3) wo is (B, 2H) and bo (B,).
    With a hidden layer of L units (version 4): W1 (B, L, 2H), b1 (B, L), wo (B, L), bo (B,), B >= 1."""

    W: np.ndarray
    b: np.ndarray
    wo: np.ndarray
    bo: float
    W1: Optional[np.ndarray] = None
    b1: Optional[np.ndarray] = None


@dataclass
class QuantNet(_Shape):
    """The quantised network, as the JJNN file holds it."""

    W: np.ndarray       # int16 (n_inputs, H)
    b: np.ndarray       # int16 (H,)
    wo: np.ndarray      # int16 (2H,); with B output buckets (B, 2H); with a hidden layer (B, L)
    bo: "int | np.ndarray"   # int32; with B output buckets or a hidden layer int64 (B,)
    qa: int = QA
    qb: int = QB
    scale: int = SCALE
    W1: Optional[np.ndarray] = None    # int16 (B, L, 2H)
    b1: Optional[np.ndarray] = None    # int64 (B, L)
    qh: int = QH


def output_buckets_of(us: np.ndarray, buckets: int) -> np.ndarray:
    """The output bucket (netfile.output_bucket) of each position given by a perspective's feature arrays
    (one feature per piece on the board)."""
    return netfile.output_bucket(np.sum(np.asarray(us) != NO_FEATURE, axis=1), buckets)


def output_layer(wo: np.ndarray, bo, a_us: np.ndarray, a_them: np.ndarray, bucket: np.ndarray,
                 layer: Optional[tuple] = None) -> np.ndarray:
    """The output before scaling: each position's clipped accumulators (the side to move's, the other's)
    times its bucket's output weights, plus its bias (one bucket: wo (2H,), bo a number). With `layer`
    = (W1, b1, activation), through the hidden layer: its units, activation(W1 . [a_us, a_them] + b1) of
    the position's bucket, times the bucket's output weights (wo (B, L)), plus its bias (bo (B,))."""
    h = a_us.shape[1]
    if layer is not None:
        W1, b1, activation = layer
        both = np.concatenate([a_us, a_them], axis=1)
        buckets, units = W1.shape[:2]
        every = (both @ W1.reshape(buckets * units, 2 * h).T).reshape(len(both), buckets, units)
        z = every[np.arange(len(both)), bucket] + b1[bucket]
        return np.einsum("ij,ij->i", activation(z), wo[bucket]) + np.asarray(bo)[bucket]
    if np.ndim(wo) == 1:
        return a_us @ wo[:h] + a_them @ wo[h:] + bo
    weights = wo[bucket]
    return (np.einsum("ij,ij->i", a_us, weights[:, :h]) + np.einsum("ij,ij->i", a_them, weights[:, h:])
            + np.asarray(bo)[bucket])


def float_layer(net: FloatNet) -> Optional[tuple]:
    """output_layer's `layer` for a float network: units clamped to [0, 1]."""
    if net.W1 is None:
        return None
    return np.asarray(net.W1, np.float64), np.asarray(net.b1, np.float64), lambda z: np.clip(z, 0.0, 1.0)


def quantised_layer(qnet: QuantNet) -> Optional[tuple]:
    """output_layer's `layer` for the integer network: units clamp(floor(z / QH), 0, QA)."""
    if qnet.W1 is None:
        return None
    return (qnet.W1.astype(np.int64), np.asarray(qnet.b1, np.int64),
            lambda z: np.clip(z // qnet.qh, 0, qnet.qa))


def _accumulate(weights: np.ndarray, bias: np.ndarray, features: np.ndarray, dtype: type) -> np.ndarray:
    padded = np.vstack([weights.astype(dtype), np.zeros((1, weights.shape[1]), dtype=dtype)])
    return bias.astype(dtype) + padded[features].sum(axis=1, dtype=dtype)


#: Positions evaluated at a time: the gathered rows of W take CHUNK * MAX_PIECES * H * 8 bytes.
CHUNK = 512


def _in_chunks(evaluate, net, us: np.ndarray, them: np.ndarray) -> np.ndarray:
    parts = [evaluate(net, us[i:i + CHUNK], them[i:i + CHUNK]) for i in range(0, len(us), CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0)


def evaluate_float(net: FloatNet, us: np.ndarray, them: np.ndarray) -> np.ndarray:
    """Centipawns (float64, side to move's view) for positions given by their feature arrays (us: the
    side to move's, them: the other side's; see feature_indices)."""
    return _in_chunks(_evaluate_float, net, us, them)


def _evaluate_float(net: FloatNet, us: np.ndarray, them: np.ndarray) -> np.ndarray:
    a_us = np.clip(_accumulate(net.W, net.b, us, np.float64), 0.0, 1.0)
    a_them = np.clip(_accumulate(net.W, net.b, them, np.float64), 0.0, 1.0)
    bucket = output_buckets_of(us, net.output_buckets)
    return output_layer(np.asarray(net.wo, np.float64), net.bo, a_us, a_them, bucket, float_layer(net)) * SCALE


def quantise(net: FloatNet) -> QuantNet:
    """The integer network of the spec (W and b clipped to WEIGHT_LIMIT first)."""
    w_q = np.round(np.clip(net.W, -WEIGHT_LIMIT, WEIGHT_LIMIT) * QA).astype(np.int16)
    b_q = np.round(np.clip(net.b, -WEIGHT_LIMIT, WEIGHT_LIMIT) * QA).astype(np.int16)
    wo_q = _int16_weights(net.wo, QB, "an output weight")
    bo_q = np.round(np.asarray(net.bo, np.float64) * QA * QB).astype(np.int64)
    # The engine sums in int32: the worst case over all activations must fit, in every bucket and unit.
    _check_int32(wo_q.reshape(net.output_buckets, -1), bo_q.reshape(-1), "the output layer")
    if net.W1 is None:
        return QuantNet(w_q, b_q, wo_q, int(bo_q) if bo_q.ndim == 0 else bo_q)
    w1_q = _int16_weights(net.W1, QH, "a hidden-layer weight")
    # + QH // 2: the engine floors z / QH, so the unit is z / QH rounded to the nearest.
    b1_q = np.round(np.asarray(net.b1, np.float64) * QA * QH).astype(np.int64) + QH // 2
    _check_int32(w1_q.reshape(-1, 2 * net.hidden), b1_q.reshape(-1), "the hidden layer")
    return QuantNet(w_q, b_q, wo_q, bo_q, W1=w1_q, b1=b1_q)


def _int16_weights(weights: np.ndarray, scale: int, what: str) -> np.ndarray:
    scaled = np.round(np.asarray(weights, np.float64) * scale)
    if np.abs(scaled).max(initial=0) > 32767:
        raise ValueError(f"{what} does not fit int16 after quantisation")
    return scaled.astype(np.int16)


def _check_int32(rows: np.ndarray, biases: np.ndarray, what: str) -> None:
    worst = QA * np.abs(rows.astype(np.int64)).sum(axis=1) + np.abs(biases)
    if worst.max() > 2**31 - 1:
        raise ValueError(f"{what} could overflow int32")


def calibrate_output_bias(net: FloatNet, qnet: QuantNet, us: np.ndarray, them: np.ndarray) -> QuantNet:
    """The quantised net with bo_q moved so that, over these positions, it evaluates as the float net
    does on average. Rounding the output weights to steps of 1/QB errs by a fixed amount per weight;
    weighted by the mean activations these errors add up to an offset common to all positions, tens of
    centipawns when the weights are only a few steps large. The output bias takes that offset out; what
    is left varies from position to position. With output buckets (or a hidden layer), each bucket's bias
    by its own positions (by all of them for a bucket that has none). The offset is measured on the
    float network of the integer weights (dequantise); with a hidden layer, on the integer evaluation
    itself, whose units are also floored (half a step 1/QA each on average, another common offset)."""
    if qnet.W1 is None:
        rounded = evaluate_float(dequantise(qnet), us, them)
    else:
        rounded = evaluate_quantised(qnet, us, them).astype(np.float64)
    difference = (evaluate_float(net, us, them) - rounded) / SCALE
    if np.ndim(qnet.bo) == 0:
        bo_q = qnet.bo + int(round(np.mean(difference) * qnet.qa * qnet.qb))
    else:
        bucket = output_buckets_of(us, qnet.output_buckets)
        offsets = [np.mean(difference[bucket == k]) if np.any(bucket == k) else np.mean(difference)
                   for k in range(qnet.output_buckets)]
        bo_q = qnet.bo + np.round(np.array(offsets) * qnet.qa * qnet.qb).astype(np.int64)
    return replace(qnet, bo=bo_q)


def dequantise(qnet: QuantNet) -> FloatNet:
    """The float network whose exact values the integer one holds (for testing the integer arithmetic;
    with a hidden layer the integer units are also rounded, which the float ones are not, and the half
    step quantise adds to b1 for that is taken off)."""
    bo = np.asarray(qnet.bo) / (qnet.qa * qnet.qb) if np.ndim(qnet.bo) else qnet.bo / (qnet.qa * qnet.qb)
    if qnet.W1 is None:
        return FloatNet(qnet.W / qnet.qa, qnet.b / qnet.qa, qnet.wo / qnet.qb, bo)
    return FloatNet(qnet.W / qnet.qa, qnet.b / qnet.qa, qnet.wo / qnet.qb, bo, qnet.W1 / qnet.qh,
                    (np.asarray(qnet.b1) - qnet.qh // 2) / (qnet.qa * qnet.qh))


def evaluate_quantised(qnet: QuantNet, us: np.ndarray, them: np.ndarray) -> np.ndarray:
    """Centipawns (int64, side to move's view) by the spec's integer arithmetic."""
    return _in_chunks(_evaluate_quantised, qnet, us, them).astype(np.int64)


def _evaluate_quantised(qnet: QuantNet, us: np.ndarray, them: np.ndarray) -> np.ndarray:
    a_us = np.clip(_accumulate(qnet.W, qnet.b, us, np.int64), 0, qnet.qa)
    a_them = np.clip(_accumulate(qnet.W, qnet.b, them, np.int64), 0, qnet.qa)
    bucket = output_buckets_of(us, qnet.output_buckets)
    out = output_layer(qnet.wo.astype(np.int64), np.asarray(qnet.bo, np.int64), a_us, a_them, bucket,
                       quantised_layer(qnet))
    return (out * qnet.scale) // (qnet.qa * qnet.qb)      # floor, as the engine rounds


def rounding_bound(net: FloatNet, active: int = MAX_PIECES) -> float:
    """A worst-case bound, in centipawns, on |float eval - quantised eval| for a position with `active`
    pieces: each accumulator is off by at most (active + 1) half steps of 1/QA (W and b rounded), which
    the clamp does not enlarge; each output term a * wo by that times |wo| plus a half step 1/QB of wo
    (a <= 1); bo by half a step of 1/(QA QB); the rounding down to whole centipawns by less than 1. With
    a hidden layer, a unit's error is the accumulators' times its |W1| plus half a step 1/QH per weight
    and 1/(QA QH) for its bias, plus half a step 1/QA for its rounding, and it enters the output as a
    does above. It
    holds for nets inside WEIGHT_LIMIT; being a worst case over every sign it is loose."""
    error = (active + 1) * 0.5 / QA        # of each input of the next layer
    if net.W1 is not None:
        w1 = np.reshape(net.W1, (-1, 2 * net.hidden))
        error = error * np.abs(w1).sum(axis=1).max() + w1.shape[1] * 0.5 / QH + 0.5 / (QA * QH) + 0.5 / QA
    wo = np.reshape(net.wo, (net.output_buckets, -1))        # the worst bucket's
    out_error = error * np.abs(wo).sum(axis=1).max() + wo.shape[1] * 0.5 / QB + 0.5 / (QA * QB)
    return float(out_error * SCALE + 1)


def to_network(qnet: QuantNet) -> netfile.Network:
    """The quantised net as the engine's file format holds it."""
    bias = [int(b) for b in qnet.bo] if np.ndim(qnet.bo) else int(qnet.bo)
    arrays = (np.ascontiguousarray(qnet.W, dtype=np.int16).ravel().tolist(), qnet.b.astype(np.int16).tolist(),
              qnet.wo.astype(np.int16).ravel().tolist(), bias, qnet.qa, qnet.qb, qnet.scale, qnet.version,
              qnet.output_buckets)
    if qnet.W1 is None:
        return netfile.Network(qnet.hidden, *arrays)
    return netfile.Network(qnet.hidden, *arrays, qnet.layer, qnet.W1.astype(np.int16).ravel().tolist(),
                           [int(b) for b in np.ravel(qnet.b1)], qnet.qh)


def write_jjnn(path: str, qnet: QuantNet) -> None:
    """Write the net as a JJNN file (engine.netfile)."""
    netfile.write_net(path, to_network(qnet))


def read_jjnn(path: str) -> QuantNet:
    """Read a JJNN file (engine.netfile, which checks it: NetFileError)."""
    network = netfile.read_net(path)
    h, buckets, units = network.hidden, network.output_buckets, network.layer
    W = np.array(network.weights, dtype=np.int16).reshape(network.n_inputs, h)
    b = np.array(network.biases, dtype=np.int16)
    wo = np.array(network.out_weights, dtype=np.int16)
    constants = (network.qa, network.qb, network.scale)
    if units:
        return QuantNet(W, b, wo.reshape(buckets, units), np.array(network.out_biases, np.int64), *constants,
                        W1=np.array(network.layer_weights, np.int16).reshape(buckets, units, 2 * h),
                        b1=np.array(network.layer_biases, np.int64).reshape(buckets, units), qh=network.qh)
    if buckets > 1:
        return QuantNet(W, b, wo.reshape(buckets, 2 * h), np.array(network.out_biases, np.int64), *constants)
    return QuantNet(W, b, wo, network.out_bias, *constants)


def record_features(records: np.ndarray, version: int = 1, mirrored: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(us, them) feature arrays of training records (nnue_data.RECORD): the side to move's and the
    other side's, of feature set `version`; `mirrored`: those of the positions' left-right mirror images."""
    from nnue_data import FLAG_BLACK_TO_MOVE, unpack_codes

    codes = unpack_codes(np.asarray(records["board"]))
    if mirrored:
        codes = np.ascontiguousarray(codes.reshape(len(codes), 10, 9)[:, :, ::-1].reshape(len(codes), 90))
    black = (np.asarray(records["flags"]) & FLAG_BLACK_TO_MOVE).astype(np.int32)
    return feature_indices(codes, black, version), feature_indices(codes, 1 - black, version)


def mirror_features(features: np.ndarray) -> np.ndarray:
    """The features of the left-right mirrored positions (file f -> 8 - f; the rules are symmetric, so a
    mirrored position has the mirrored value): the same shape, padding kept. Version 1's features only
    (version 2's bucket moves with the general: record_features(..., mirrored=True))."""
    features = np.asarray(features)
    file = features % 90 % 9
    return np.where(features == NO_FEATURE, NO_FEATURE, features + 8 - 2 * file).astype(features.dtype)


def evaluate_position(qnet: QuantNet, piece_map: dict[str, str], black_to_move: bool) -> int:
    """The integer evaluation (centipawns, side to move's view) of a position given as
    ``Position.piece_map()``: the reference for the engine's network evaluation of the same position."""
    us = 1 if black_to_move else 0
    padded = [position_features(piece_map, p, qnet.version) + [NO_FEATURE] * (MAX_PIECES - len(piece_map))
              for p in (us, 1 - us)]
    return int(evaluate_quantised(qnet, np.array([padded[0]]), np.array([padded[1]]))[0])


if __name__ == "__main__":
    # python tools/nnue_net.py NET.jjnn FEN [FEN ...]: the reference evaluation of each position.
    import sys

    from engine.position import Position

    network = read_jjnn(sys.argv[1])
    for fen in sys.argv[2:]:
        position = Position(fen)
        print(f"{evaluate_position(network, position.piece_map(), position.turn == 'black')} cp  {fen}")

"""NNUE network files, format "JJNN" versions 1 to 4: read, write and check them (stdlib only).

    net = read_net("nets/first.jjnn")      # NetFileError (a ValueError) says what is wrong with a bad file
    write_net("copy.jjnn", net)

The network (the engine's evaluation when a file is loaded, ext/nnue.pxi; the trainer writes it):

- Features of a perspective P (0 = Red, 1 = Black): one per piece on the board, of colour c, type t in
  FEN order (K=0, A=1, B=2, N=3, R=4, C=5, P=6), on file f (0..8 from Red's left) and rank r (0..9 from
  Red's back rank). r' = r for Red's perspective, 9 - r for Black's; s = 0 for P's own pieces, 1 for the
  opponent's. Index (s * 7 + t) * 90 + r' * 9 + f, below N_INPUTS = 1260 (feature_index below).
- Accumulator of P: acc_P[j] = b[j] + sum of W[i][j] over P's active features i, j < H; int16 (sums
  outside -32768..32767 wrap, two's complement: a trainer keeps them in range).
- Output, us = the side to move's accumulator, them = the other: with a = clamp(x, 0, QA),
  out = sum_j a(us[j]) * Wo[j] + sum_j a(them[j]) * Wo[H + j] + bo (int32), and the evaluation in
  centipawns, side to move's view, is floor(out * SCALE / (QA * QB)): rounded towards minus infinity, as
  Python's `//` and numpy.floor_divide do (not C's truncating `/`; the kernel corrects for it).

The file, little-endian: magic b"JJNN"; uint32 version (1 or 2); uint32 n_inputs (1260 for version 1,
7560 for version 2); uint32 hidden H (1..2048, a multiple of 16); int32 QA, QB, SCALE; int16
W[n_inputs][H] (feature-major: all H weights of feature 0 first); int16 b[H]; int16 Wo[2H]; int32 bo;
uint32 CRC-32 (zlib.crc32) of every byte before it. Nothing after it.

Version 2 ("king buckets"): the same network, with the features of each perspective bucketed by where
that perspective's own general stands (as Pikafish's HalfKAv2_hm feature transformer does), N_INPUTS_V2
= 6 * 1260 = 7560 inputs. With the own general on file kf and relative rank kr' (r' as above; kf 3..5,
kr' 0..2: the palace's 9 points):

- mirror = (kf == 5): when the general is on the f-file, every square's file f is read as 8 - f (the
  board seen in a left-right mirror), so that the general always stands on the d- or e-file. The
  e-file is its own mirror image, and on it the board is never mirrored: the simplest tie rule that is
  consistent (Pikafish decides the e-file by the enemy king's file and then by the material, which would
  make an enemy general's move refresh the other perspective too). The price: a position with the own
  general on the e-file and its mirror image are different inputs, which training with --mirror covers.
- bucket = kr' * 2 + (kf' - 3), kf' = 8 - kf when mirrored else kf (0..5: d/e file x 3 ranks).
- index = bucket * 1260 + (s * 7 + t) * 90 + r' * 9 + f', f' = 8 - f when mirrored, else f
  (feature_index_v2 below; king_bucket gives the bucket and the mirror).

Every move of a perspective's own general changes its bucket or its mirror (a one-step move changes
the general's rank or file, and each palace point has its own pair), so the engine computes that
perspective's accumulator afresh after it; any other move updates it incrementally as in version 1.

Output buckets (file version 3): B sets of output weights and biases, the position's set chosen by the
number n of pieces on the board (both sides, generals included, 2..32): bucket = (n - 1) * B // 32
(output_bucket below; B = 8 gives Stockfish's layer stacks' (n - 1) // 4), so that an endgame is
weighed with other weights than the opening. The header of version 3 is that of versions 1 and 2
(version 3) followed by uint32 feature set (1 plain, 2 king buckets: what Network.version means) and
uint32 B (2..32); Wo is then B * 2H int16 (bucket 0's 2H first) and bo B int32. A network of one output
bucket is written as version 1 or 2, as before there were buckets.

A hidden layer (file version 4): between the accumulators and the output, L units (1..256) of their own
weights per output bucket (L a multiple of 4). With a = clamp(x, 0, QA) as above, unit k of the position's bucket is
z_k = sum_j a(us[j]) * W1[k][j] + sum_j a(them[j]) * W1[k][H + j] + b1[k] (int32) and
h_k = clamp(floor(z_k / QH), 0, QA) (the same [0, QA] scale as a: QH is the layer's weight scale), and
out = sum_k h_k * Wo[k] + bo, the evaluation floor(out * SCALE / (QA * QB)) as before. The header of
version 4 is that of version 1 (version 4) followed by uint32 feature set, uint32 B (1..32), uint32 L
and int32 QH (1..32767); then W and b as before, int16 W1[B][L][2H], int32 b1[B][L], int16 Wo[B][L],
int32 bo[B], the CRC.

Beyond the layout, a Network must keep its arithmetic inside the kernel's integers: 1 <= QA <= 32767,
QB >= 1, QA * QB and SCALE below 2**31, SCALE >= 1, and QA * sum(|Wo|) + |bo| < 2**31 (so that the int32
output cannot overflow in any position; with output buckets, for each bucket's weights and bias); with a
hidden layer, also QA * sum(|W1[k]|) + |b1[k]| < 2**31 for each unit.
"""
from __future__ import annotations

import os
import random
import struct
import sys
import zlib
from array import array
from dataclasses import dataclass, field
from typing import Iterable, Union

__all__ = ["MAGIC", "VERSION", "VERSIONS", "N_INPUTS", "N_INPUTS_V2", "N_BUCKETS", "MAX_HIDDEN", "inputs_of",
           "BUCKETED_FILE_VERSION", "LAYERED_FILE_VERSION", "MAX_OUTPUT_BUCKETS", "MAX_LAYER", "LAYER_MULTIPLE",
           "output_bucket",
           "king_bucket", "feature_index_v2", "HIDDEN_MULTIPLE", "NetFileError", "Network",
           "feature_index", "read_net", "write_net", "encode_net", "decode_net", "random_network"]

MAGIC = b"JJNN"
#: The version of the plain feature set (the default of a Network, as files of before version 2 are).
VERSION = 1
#: The feature sets (Network.version): 1 (plain features), 2 (king buckets with the file mirror).
VERSIONS = (1, 2)
#: The file version of a network with output buckets (its feature set in the header).
BUCKETED_FILE_VERSION = 3
#: The file version of a network with a hidden layer (its feature set and output buckets in the header).
LAYERED_FILE_VERSION = 4
#: The largest hidden layer (units per output bucket); its size is a multiple of LAYER_MULTIPLE (the
#: kernel computes four units a pass).
MAX_LAYER = 256
LAYER_MULTIPLE = 4
#: Output buckets: at most one per number of pieces on the board.
MAX_OUTPUT_BUCKETS = 32
#: 2 sides (own, opponent's) x 7 piece types x 90 squares.
N_INPUTS = 1260
#: Version 2: the own general's 6 buckets (d/e file after the mirror x 3 ranks).
N_BUCKETS = 6
N_INPUTS_V2 = N_BUCKETS * N_INPUTS
MAX_HIDDEN = 2048
#: The hidden size is a multiple of this, so that the kernel's int16 loops need no remainder.
HIDDEN_MULTIPLE = 16
DEFAULT_QA = 255
DEFAULT_QB = 64
DEFAULT_SCALE = 400
#: The hidden layer's weight scale: its weights are small (a few hundredths: 2H inputs each), so a step
#: of 1/64 would round most of them by a large fraction; 1/1024 keeps each within a few percent.
DEFAULT_QH = 1024

_HEADER = struct.Struct("<4sIIIiii")     # magic, version, n_inputs, hidden, QA, QB, SCALE
_BUCKETED_HEADER = struct.Struct("<II")   # version 3, after _HEADER: feature set, output buckets
_LAYERED_HEADER = struct.Struct("<IIIi")  # version 4, after _HEADER: feature set, output buckets, L, QH
_UINT32 = struct.Struct("<I")
_INT32_LIMIT = 2**31
_INT16_MAX = 32767


class NetFileError(ValueError):
    """A network file (or Network) that is not a valid JJNN network; the message says why."""


def inputs_of(version: int) -> int:
    """The number of input features of a JJNN version."""
    if version not in VERSIONS:
        raise NetFileError(f"JJNN version {version} is not supported: this engine reads versions "
                           f"{', '.join(map(str, VERSIONS))}")
    return N_INPUTS if version == 1 else N_INPUTS_V2


def feature_index(perspective: int, color: int, piece_type: int, file: int, rank: int) -> int:
    """The input index of a piece (color 0 Red / 1 Black, piece_type in "KABNRCP" order) on (file, rank)
    from `perspective`'s view (0 Red, 1 Black)."""
    relative_rank = rank if perspective == 0 else 9 - rank
    own = 0 if color == perspective else 1
    return (own * 7 + piece_type) * 90 + relative_rank * 9 + file


def king_bucket(perspective: int, king_file: int, king_rank: int) -> tuple[int, bool]:
    """Version 2: (bucket 0..5, mirror) of `perspective` (0 Red, 1 Black) whose own general stands on
    (king_file, king_rank), board coordinates. Raises NetFileError for a point outside its palace."""
    relative_rank = king_rank if perspective == 0 else 9 - king_rank
    if not (3 <= king_file <= 5 and 0 <= relative_rank <= 2):
        raise NetFileError(f"a general on file {king_file}, rank {king_rank} is outside its palace")
    mirror = king_file == 5
    return relative_rank * 2 + ((8 - king_file) if mirror else king_file) - 3, mirror


def feature_index_v2(perspective: int, color: int, piece_type: int, file: int, rank: int, king_file: int,
                     king_rank: int) -> int:
    """Version 2: the input index of a piece (as feature_index) from `perspective`'s view, its own
    general on (king_file, king_rank)."""
    bucket, mirror = king_bucket(perspective, king_file, king_rank)
    return bucket * N_INPUTS + feature_index(perspective, color, piece_type, 8 - file if mirror else file, rank)


def output_bucket(pieces: int, output_buckets: int) -> int:
    """The output bucket of a position with `pieces` pieces on the board (2..32), of `output_buckets`."""
    return (pieces - 1) * output_buckets // 32


def _int16_array(name: str, values: Iterable[int]) -> array:
    if isinstance(values, array) and values.typecode == "h":
        return values
    try:
        return array("h", values)
    except (OverflowError, TypeError) as exc:
        raise NetFileError(f"{name}: int16 values expected ({exc})") from None


@dataclass(frozen=True)
class Network:
    """One JJNN network. weights: n_inputs * hidden int16 (n_inputs: N_INPUTS for version 1, N_INPUTS_V2
    for version 2), feature-major (weights[i * hidden + j] is W[i][j]); biases: hidden; out_weights: per
    output bucket, 2 * hidden (the side to move's half first), or with a hidden layer `layer` (L) values;
    out_bias: int32, or with several output buckets or a hidden layer a sequence of one per bucket (kept
    as a tuple; `out_biases` is that tuple in either case); version: the feature set (1 or 2). The hidden
    layer: layer_weights output_buckets * L * 2 * hidden int16 (bucket-major, then unit-major),
    layer_biases output_buckets * L int32, qh its weight scale. Any sequence of ints is accepted for the
    arrays and kept as array('h'), and a tuple of int32 for layer_biases. Raises NetFileError when the sizes or
    the quantisation constants are out of bounds (see the module docstring)."""

    hidden: int
    weights: array = field(repr=False)
    biases: array = field(repr=False)
    out_weights: array = field(repr=False)
    out_bias: int
    qa: int = DEFAULT_QA
    qb: int = DEFAULT_QB
    scale: int = DEFAULT_SCALE
    version: int = VERSION
    output_buckets: int = 1
    layer: int = 0
    layer_weights: array = field(default=(), repr=False)
    layer_biases: tuple = field(default=(), repr=False)
    qh: int = DEFAULT_QH

    def __post_init__(self) -> None:
        n_inputs = inputs_of(self.version)
        _check_hidden(self.hidden)
        _check_output_buckets(self.output_buckets)
        _check_layer(self.layer, self.qh)
        for name, length in (("weights", n_inputs * self.hidden), ("biases", self.hidden),
                             ("out_weights", self.output_buckets * self.output_width),
                             ("layer_weights", self.output_buckets * self.layer * 2 * self.hidden)):
            values = _int16_array(name, getattr(self, name))
            object.__setattr__(self, name, values)
            if len(values) != length:
                raise NetFileError(f"{name} has {len(values)} values; {self._shape()} needs {length}")
        layer_biases = _int32_tuple(self.layer_biases, self.output_buckets * self.layer, "layer_biases",
                                    f"{self._shape()} needs")
        object.__setattr__(self, "layer_biases", layer_biases)
        _check_constants(self.qa, self.qb, self.scale)
        if self.output_buckets > 1 or self.layer:
            object.__setattr__(self, "out_bias", _int32_tuple(self.out_bias, self.output_buckets, "out_bias",
                                                              f"{self.output_buckets} output buckets need"))
        elif not isinstance(self.out_bias, int):
            raise NetFileError(f"out_bias {self.out_bias!r}: one int32 expected for one output bucket")
        elif not -_INT32_LIMIT <= self.out_bias < _INT32_LIMIT:
            raise NetFileError(f"out_bias {self.out_bias} does not fit in an int32")
        for bucket, bias in enumerate(self.out_biases):
            _check_sum(self.qa, self.out_weights, bucket, self.output_width, bias, "the output layer", "Wo", "bo")
        for unit, bias in enumerate(layer_biases):
            _check_sum(self.qa, self.layer_weights, unit, 2 * self.hidden, bias, "the hidden layer", "W1", "b1")

    def _shape(self) -> str:
        parts = [f"hidden size {self.hidden}"]
        if self.output_buckets > 1:
            parts.append(f"{self.output_buckets} output buckets")
        if self.layer:
            parts.append(f"a hidden layer of {self.layer}")
        return " and ".join(parts)

    @property
    def n_inputs(self) -> int:
        return inputs_of(self.version)

    @property
    def output_width(self) -> int:
        """The inputs of the output layer: L with a hidden layer, else both accumulators (2H)."""
        return _output_width(self.hidden, self.layer)

    @property
    def out_biases(self) -> tuple[int, ...]:
        """The output bias of each output bucket."""
        return self.out_bias if isinstance(self.out_bias, tuple) else (self.out_bias,)

    @property
    def file_version(self) -> int:
        """The version of the file that holds this network: 4 with a hidden layer, 3 with output buckets,
        else its feature set's."""
        if self.layer:
            return LAYERED_FILE_VERSION
        return BUCKETED_FILE_VERSION if self.output_buckets > 1 else self.version


def _check_sum(qa: int, weights: array, row: int, width: int, bias: int, what: str, w: str, b: str) -> None:
    """QA * sum(|row's weights|) + |bias| must stay below 2**31: the kernel's int32 sums cannot overflow."""
    bound = qa * sum(abs(v) for v in weights[row * width:(row + 1) * width]) + abs(bias)
    if bound >= _INT32_LIMIT:
        raise NetFileError(f"{what} can overflow int32 (QA * sum|{w}| + |{b}| = {bound}, must stay below "
                           f"2**31): scale its weights down")


def _check_layer(layer: int, qh: int) -> None:
    if not (0 <= layer <= MAX_LAYER and layer % LAYER_MULTIPLE == 0):
        raise NetFileError(f"a hidden layer of {layer} units: it must have 1..{MAX_LAYER}, a multiple of "
                           f"{LAYER_MULTIPLE} (0: none)")
    if not 1 <= qh <= _INT16_MAX:
        raise NetFileError(f"QH = {qh}: the hidden layer's weight scale must be 1..{_INT16_MAX}")


def _check_hidden(hidden: int) -> None:
    if not (1 <= hidden <= MAX_HIDDEN and hidden % HIDDEN_MULTIPLE == 0):
        raise NetFileError(f"hidden size {hidden} is out of range: it must be 1..{MAX_HIDDEN} and a multiple "
                           f"of {HIDDEN_MULTIPLE}")


def _check_output_buckets(buckets: int) -> None:
    if not 1 <= buckets <= MAX_OUTPUT_BUCKETS:
        raise NetFileError(f"{buckets} output buckets: there must be 1..{MAX_OUTPUT_BUCKETS}")


def _int32_tuple(values: object, count: int, name: str, needs: str) -> tuple[int, ...]:
    """`values` as a tuple of `count` int32 (`needs`: what asks for them, with its verb, for the message)."""
    try:
        result = tuple(int(value) for value in values)       # type: ignore[union-attr]
    except TypeError:
        raise NetFileError(f"{name} {values!r}: a sequence of {count} int32 expected ({needs} {count})") from None
    if len(result) != count:
        raise NetFileError(f"{name} has {len(result)} values; {needs} {count}")
    for value in result:
        if not -_INT32_LIMIT <= value < _INT32_LIMIT:
            raise NetFileError(f"{name} {value} does not fit in an int32")
    return result


def _check_constants(qa: int, qb: int, scale: int) -> None:
    if not 1 <= qa <= _INT16_MAX:
        raise NetFileError(f"QA = {qa}: the clipped ReLU's ceiling must be 1..{_INT16_MAX}")
    if qb < 1 or qa * qb >= _INT32_LIMIT:
        raise NetFileError(f"QB = {qb}: it must be at least 1, with QA * QB below 2**31")
    if not 1 <= scale < _INT32_LIMIT:
        raise NetFileError(f"SCALE = {scale}: it must be a positive int32")


def _little_endian(values: array) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()


def _int16_from(data: bytes, offset: int, count: int) -> array:
    values = array("h")
    values.frombytes(data[offset:offset + 2 * count])
    if sys.byteorder != "little":
        values.byteswap()
    return values


def encode_net(network: Network) -> bytes:
    """The bytes of a JJNN file holding `network`."""
    header = _HEADER.pack(MAGIC, network.file_version, network.n_inputs, network.hidden, network.qa, network.qb,
                          network.scale)
    if network.layer:
        header += _LAYERED_HEADER.pack(network.version, network.output_buckets, network.layer, network.qh)
    elif network.output_buckets > 1:
        header += _BUCKETED_HEADER.pack(network.version, network.output_buckets)
    body = b"".join((
        header, _little_endian(network.weights), _little_endian(network.biases),
        _little_endian(network.layer_weights), _int32_bytes(network.layer_biases),
        _little_endian(network.out_weights), _int32_bytes(network.out_biases),
    ))
    return body + _UINT32.pack(zlib.crc32(body))


def _int32_bytes(values: tuple[int, ...]) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def _output_width(hidden: int, layer: int) -> int:
    """The output layer's inputs: the hidden layer's L units, or without one both accumulators (2H)."""
    return layer or 2 * hidden


def _file_size(header_size: int, n_inputs: int, hidden: int, buckets: int, layer: int) -> int:
    return (header_size + 2 * (n_inputs * hidden + hidden + buckets * layer * 2 * hidden
                               + buckets * _output_width(hidden, layer))
            + 4 * (buckets * layer + buckets) + _UINT32.size)


def _check_feature_set(file_version: int, feature_set: int) -> None:
    if feature_set not in VERSIONS:
        raise NetFileError(f"JJNN version {file_version} names feature set {feature_set}: this engine knows "
                           f"feature sets {', '.join(map(str, VERSIONS))}")


def decode_net(data: bytes) -> Network:
    """The Network in the bytes of a JJNN file. Raises NetFileError."""
    data = bytes(data)
    if data[:4] != MAGIC:
        raise NetFileError(f"not a JJNN network file: it starts with {data[:4]!r}, not {MAGIC!r}")
    if len(data) < _HEADER.size:
        raise NetFileError(f"truncated: {len(data)} bytes, shorter than the {_HEADER.size}-byte header")
    _, version, n_inputs, hidden, qa, qb, scale = _HEADER.unpack_from(data)
    header_size, buckets, layer, qh = _HEADER.size, 1, 0, DEFAULT_QH
    if version in (BUCKETED_FILE_VERSION, LAYERED_FILE_VERSION):
        extra = _BUCKETED_HEADER if version == BUCKETED_FILE_VERSION else _LAYERED_HEADER
        if len(data) < _HEADER.size + extra.size:
            raise NetFileError(f"truncated: {len(data)} bytes, shorter than version {version}'s "
                               f"{_HEADER.size + extra.size}-byte header")
        file_version = version
        if version == BUCKETED_FILE_VERSION:
            version, buckets = extra.unpack_from(data, _HEADER.size)
        else:
            version, buckets, layer, qh = extra.unpack_from(data, _HEADER.size)
        header_size += extra.size
        _check_feature_set(file_version, version)
        if file_version == BUCKETED_FILE_VERSION and buckets < 2:
            raise NetFileError(f"JJNN version 3 says {buckets} output buckets: it holds 2..{MAX_OUTPUT_BUCKETS} "
                               f"(a network of one bucket is written as version 1 or 2)")
        _check_output_buckets(buckets)
        if file_version == LAYERED_FILE_VERSION and layer < 1:
            raise NetFileError(f"JJNN version 4 says a hidden layer of 0 units: it holds 1..{MAX_LAYER} (a network "
                               f"without one is written as version 1, 2 or 3)")
        _check_layer(layer, qh)
    elif version not in VERSIONS:
        known = VERSIONS + (BUCKETED_FILE_VERSION, LAYERED_FILE_VERSION)
        raise NetFileError(f"JJNN version {version} is not supported: this engine reads versions "
                           f"{', '.join(map(str, known))}")
    expected_inputs = inputs_of(version)
    if n_inputs != expected_inputs:
        raise NetFileError(f"the network has {n_inputs} inputs; JJNN version {version}'s features need "
                           f"{expected_inputs}")
    _check_hidden(hidden)
    _check_constants(qa, qb, scale)
    expected = _file_size(header_size, n_inputs, hidden, buckets, layer)
    if len(data) < expected:
        raise NetFileError(f"truncated: {len(data)} bytes, a network of hidden size {hidden} needs {expected}")
    if len(data) > expected:
        raise NetFileError(f"{len(data) - expected} trailing bytes after the CRC (hidden size {hidden} "
                           f"needs exactly {expected} bytes)")
    stored = _UINT32.unpack_from(data, expected - 4)[0]
    computed = zlib.crc32(data[:expected - 4])
    if stored != computed:
        raise NetFileError(f"CRC mismatch: the file says {stored:08x}, its contents give {computed:08x} "
                           f"(the file is damaged)")
    offset = header_size

    def int16s(count: int) -> array:
        nonlocal offset
        values = _int16_from(data, offset, count)
        offset += 2 * count
        return values

    def int32s(count: int) -> tuple[int, ...]:
        nonlocal offset
        values = struct.unpack_from(f"<{count}i", data, offset)
        offset += 4 * count
        return values

    weights, biases = int16s(n_inputs * hidden), int16s(hidden)
    layer_weights, layer_biases = int16s(buckets * layer * 2 * hidden), int32s(buckets * layer)
    out_weights, out_biases = int16s(buckets * _output_width(hidden, layer)), int32s(buckets)
    out_bias = out_biases if buckets > 1 or layer else out_biases[0]
    return Network(hidden, weights, biases, out_weights, out_bias, qa, qb, scale, version, buckets, layer,
                   layer_weights, layer_biases, qh)


def read_net(source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]) -> Network:
    """Read a network from a file path or from the bytes of a file. Raises NetFileError (with the path
    in its message) for a file that cannot be read or is not a valid JJNN network."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_net(source)
    try:
        with open(source, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise NetFileError(f"cannot read network file {os.fspath(source)!r}: {exc.strerror or exc}") from None
    try:
        return decode_net(data)
    except NetFileError as exc:
        raise NetFileError(f"{os.fspath(source)}: {exc}") from None


def write_net(path: Union[str, "os.PathLike[str]"], network: Network) -> None:
    """Write `network` as a JJNN file (replacing the file)."""
    with open(path, "wb") as handle:
        handle.write(encode_net(network))


def random_network(hidden: int = 256, seed: int = 0, weight_range: int = 64, qa: int = DEFAULT_QA,
                   qb: int = DEFAULT_QB, scale: int = DEFAULT_SCALE, version: int = VERSION,
                   output_buckets: int = 1, layer: int = 0) -> Network:
    """A network of uniform random weights in [-weight_range, weight_range] (for tests and speed
    measurements: it plays nonsense). The range keeps an accumulator of 32 pieces inside int16 as long
    as 33 * weight_range <= 32767. With `layer`, a hidden layer of that many units per output bucket."""
    rng = random.Random(seed)
    def values(count: int) -> array:
        return array("h", [rng.randint(-weight_range, weight_range) for _ in range(count)])
    arrays = (values(inputs_of(version) * hidden), values(hidden),
              values(output_buckets * _output_width(hidden, layer)))
    biases = [rng.randint(-1000, 1000) for _ in range(output_buckets)]
    bias = biases if output_buckets > 1 or layer else biases[0]
    if not layer:
        return Network(hidden, *arrays, bias, qa, qb, scale, version, output_buckets)
    layer_weights = values(output_buckets * layer * 2 * hidden)
    layer_biases = [rng.randint(-100 * qa * DEFAULT_QH, 100 * qa * DEFAULT_QH) for _ in range(output_buckets * layer)]
    return Network(hidden, *arrays, bias, qa, qb, scale, version, output_buckets, layer, layer_weights, layer_biases)

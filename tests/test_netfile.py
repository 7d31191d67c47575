"""engine/netfile.py: the JJNN network files (version 1, version 2 with its king buckets, version 3 with
output buckets, version 4 with a hidden layer), written and read back, and every kind of malformed file rejected with a message that says what is wrong."""
from __future__ import annotations

import struct
import zlib
from array import array

import pytest

from engine.netfile import (
    MAGIC, N_INPUTS, N_INPUTS_V2, NetFileError, Network, decode_net, encode_net, feature_index,
    feature_index_v2, king_bucket, output_bucket, random_network, read_net, write_net,
)

HEADER = struct.Struct("<4sIIIiii")


@pytest.fixture(scope="module")
def net() -> Network:
    return random_network(hidden=32, seed=3)


def header(data: bytes) -> list:
    return list(HEADER.unpack_from(data))


def with_header(data: bytes, **fields: int) -> bytes:
    """`data` with header fields replaced (the CRC is left stale: the header is checked before it)."""
    names = ("magic", "version", "n_inputs", "hidden", "qa", "qb", "scale")
    values = header(data)
    for name, value in fields.items():
        values[names.index(name)] = value
    return HEADER.pack(*values) + data[HEADER.size:]


def recrc(body_and_crc: bytes) -> bytes:
    body = body_and_crc[:-4]
    return body + struct.pack("<I", zlib.crc32(body))


def test_round_trip_through_a_file(tmp_path, net):
    path = tmp_path / "net.jjnn"
    write_net(path, net)
    again = read_net(path)
    assert again == net
    assert read_net(str(path)) == net
    assert read_net(path.read_bytes()) == net
    assert again.n_inputs == N_INPUTS and again.hidden == 32
    assert (again.qa, again.qb, again.scale) == (255, 64, 400)
    assert all(isinstance(a, array) and a.typecode == "h" for a in (again.weights, again.biases, again.out_weights))


def test_the_layout_byte_by_byte(net):
    data = encode_net(net)
    h = net.hidden
    assert header(data) == [MAGIC, 1, 1260, h, 255, 64, 400]
    offset = HEADER.size
    # Feature-major weights: W[1][0] follows the H weights of feature 0.
    assert struct.unpack_from("<h", data, offset + 2 * h)[0] == net.weights[h]
    offset += 2 * N_INPUTS * h
    assert struct.unpack_from(f"<{h}h", data, offset) == tuple(net.biases)
    offset += 2 * h
    assert struct.unpack_from(f"<{2 * h}h", data, offset) == tuple(net.out_weights)
    offset += 4 * h
    assert struct.unpack_from("<i", data, offset)[0] == net.out_bias
    offset += 4
    assert struct.unpack_from("<I", data, offset)[0] == zlib.crc32(data[:offset])
    assert len(data) == offset + 4


def test_feature_index_follows_the_spec():
    # The red general on e0: own king, rank 0, file 4 (Red's view); Black sees it on its rank 9.
    assert feature_index(0, 0, 0, 4, 0) == 4
    assert feature_index(1, 0, 0, 4, 0) == (1 * 7 + 0) * 90 + 9 * 9 + 4
    # A black soldier on i6 from Black's view: own, type 6, rank 3.
    assert feature_index(1, 1, 6, 8, 6) == 6 * 90 + 3 * 9 + 8
    indices = {feature_index(p, c, t, f, r) for p in range(2) for c in range(2) for t in range(7)
               for f in range(9) for r in range(10)}
    assert indices == set(range(N_INPUTS))


@pytest.mark.parametrize("corrupt, message", [
    (lambda d: b"", "not a JJNN network file"),
    (lambda d: b"NNJJ" + d[4:], "not a JJNN network file"),
    (lambda d: d[:20], "shorter than the 28-byte header"),
    (lambda d: with_header(d, version=5), "version 5 is not supported"),
    (lambda d: with_header(d, version=0), "version 0 is not supported"),
    (lambda d: with_header(d, version=2), "1260 inputs; JJNN version 2's features need 7560"),
    (lambda d: with_header(d, n_inputs=1261), "1261 inputs"),
    (lambda d: with_header(d, hidden=0), "hidden size 0 is out of range"),
    (lambda d: with_header(d, hidden=24), "hidden size 24 is out of range"),
    (lambda d: with_header(d, hidden=4096), "hidden size 4096 is out of range"),
    (lambda d: with_header(d, qa=0), "QA = 0"),
    (lambda d: with_header(d, qa=40000), "QA = 40000"),
    (lambda d: with_header(d, qb=0), "QB = 0"),
    (lambda d: with_header(d, scale=-400), "SCALE = -400"),
    (lambda d: with_header(d, hidden=64), "truncated"),
    (lambda d: d[:-1], "truncated"),
    (lambda d: d[:HEADER.size + 100], "truncated"),
    (lambda d: d + b"\0", "1 trailing bytes after the CRC"),
    (lambda d: recrc(d + b"abcd"), "4 trailing bytes"),
    (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "CRC mismatch"),
    (lambda d: d[:-4] + bytes(4), "CRC mismatch"),
])
def test_malformed_files_are_rejected_with_their_reason(net, tmp_path, corrupt, message):
    data = corrupt(encode_net(net))
    with pytest.raises(NetFileError, match=message):
        read_net(data)
    path = tmp_path / "bad.jjnn"
    path.write_bytes(data)
    with pytest.raises(NetFileError, match=message) as caught:
        read_net(path)
    assert str(path) in str(caught.value)       # the message names the file


def test_a_missing_file_is_a_net_file_error(tmp_path):
    with pytest.raises(NetFileError, match="cannot read network file"):
        read_net(tmp_path / "none.jjnn")
    assert issubclass(NetFileError, ValueError)


def test_a_net_whose_output_can_overflow_is_refused():
    net = random_network(hidden=160, seed=2)    # 255 * 32767 * 320 > 2**31; H = 32 could never overflow
    big = array("h", [32767] * (2 * net.hidden))
    with pytest.raises(NetFileError, match="overflow int32"):
        Network(net.hidden, net.weights, net.biases, big, 0)
    # Written anyway (by hand), it is refused on reading too.
    data = bytearray(encode_net(net))
    start = HEADER.size + 2 * (N_INPUTS + 1) * net.hidden
    data[start:start + 4 * net.hidden] = big.tobytes()
    with pytest.raises(NetFileError, match="overflow int32"):
        read_net(recrc(bytes(data)))


def test_the_network_checks_its_arrays(net):
    with pytest.raises(NetFileError, match="biases has 31 values"):
        Network(32, net.weights, net.biases[:31], net.out_weights, 0)
    with pytest.raises(NetFileError, match="int16"):
        Network(32, net.weights, [40000] * 32, net.out_weights, 0)
    with pytest.raises(NetFileError, match="hidden size 20"):
        Network(20, net.weights, net.biases, net.out_weights, 0)
    with pytest.raises(NetFileError, match="out_bias"):
        Network(32, net.weights, net.biases, net.out_weights, 2**31)
    # Plain lists are accepted and kept as int16 arrays.
    listed = Network(32, list(net.weights), list(net.biases), list(net.out_weights), net.out_bias)
    assert listed == net and listed.weights.typecode == "h"


def test_other_quantisation_constants_round_trip():
    odd = random_network(hidden=16, seed=1, qa=127, qb=32, scale=600)
    assert read_net(encode_net(odd)) == odd
    assert decode_net(encode_net(odd)).scale == 600


# -- version 2: the king buckets -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def net_v2() -> Network:
    return random_network(hidden=16, seed=4, version=2)


def test_version_2_round_trip_and_layout(tmp_path, net_v2):
    path = tmp_path / "v2.jjnn"
    write_net(path, net_v2)
    again = read_net(path)
    assert again == net_v2 and again.version == 2 and again.n_inputs == N_INPUTS_V2 == 7560
    data = path.read_bytes()
    assert header(data) == [MAGIC, 2, 7560, 16, 255, 64, 400]
    assert len(data) == HEADER.size + 2 * (7560 * 16 + 16 + 32) + 4 + 4
    # A version 1 network of the same arrays is refused: its weights are 6 times too many.
    with pytest.raises(NetFileError, match="weights has 120960 values"):
        Network(16, net_v2.weights, net_v2.biases, net_v2.out_weights, 0)


@pytest.mark.parametrize("corrupt, message", [
    (lambda d: d[:-1], "truncated"),
    (lambda d: d[:HEADER.size + 2 * 1260 * 16 + 100], "truncated: .* needs 242052"),
    (lambda d: with_header(d, n_inputs=1260), "1260 inputs; JJNN version 2's features need 7560"),
    (lambda d: with_header(d, version=1), "7560 inputs; JJNN version 1's features need 1260"),
    (lambda d: d[:5000] + bytes([d[5000] ^ 4]) + d[5001:], "CRC mismatch"),
    (lambda d: recrc(d + b"xy"), "2 trailing bytes"),
])
def test_bad_version_2_files_are_refused(net_v2, corrupt, message):
    with pytest.raises(NetFileError, match=message):
        read_net(corrupt(encode_net(net_v2)))


def test_king_buckets_and_the_mirror():
    # Red's general: d0 e0 f0 / d1 e1 f1 / d2 e2 f2; the f-file mirrored onto the d-file's bucket.
    assert [king_bucket(0, f, r) for r in range(3) for f in (3, 4, 5)] == [
        (0, False), (1, False), (0, True), (2, False), (3, False), (2, True), (4, False), (5, False), (4, True)]
    # Black's ranks count from its own back rank (rank 9 is its 0).
    assert king_bucket(1, 4, 9) == (1, False) and king_bucket(1, 5, 7) == (4, True)
    with pytest.raises(NetFileError, match="outside its palace"):
        king_bucket(0, 4, 3)
    with pytest.raises(NetFileError, match="outside its palace"):
        king_bucket(1, 2, 9)
    # Every palace point gives a different (bucket, mirror): any general move changes one of them.
    assert len({king_bucket(0, f, r) for f in (3, 4, 5) for r in range(3)}) == 9


def test_feature_index_v2_follows_the_spec():
    # Own general on e0: bucket 1, not mirrored: the version 1 index moved up by one bucket.
    assert feature_index_v2(0, 1, 4, 0, 9, 4, 0) == 1260 + feature_index(0, 1, 4, 0, 9)
    # Own general on f1: bucket 2, mirrored: a chariot on a9 is read on i9.
    assert feature_index_v2(0, 1, 4, 0, 9, 5, 1) == 2 * 1260 + feature_index(0, 1, 4, 8, 9)
    # Black's general on d8 (its relative rank 1): bucket 2, not mirrored.
    assert feature_index_v2(1, 0, 6, 2, 3, 3, 8) == 2 * 1260 + feature_index(1, 0, 6, 2, 3)
    indices = {feature_index_v2(p, c, t, f, r, kf, kr) for p in range(2) for c in range(2) for t in range(7)
               for f in range(9) for r in range(10) for kf in (3, 4, 5)
               for kr in ((0, 1, 2) if p == 0 else (7, 8, 9))}
    assert indices == set(range(N_INPUTS_V2))


# -- version 3: output buckets ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def net_v3() -> Network:
    return random_network(hidden=16, seed=5, version=2, output_buckets=8)


def test_output_buckets_by_the_number_of_pieces():
    # Eight buckets: Stockfish's (pieces - 1) // 4; one bucket: always 0.
    assert [output_bucket(n, 8) for n in (2, 4, 5, 8, 9, 28, 29, 32)] == [0, 0, 1, 1, 2, 6, 7, 7]
    assert {output_bucket(n, 1) for n in range(2, 33)} == {0}
    assert sorted({output_bucket(n, 3) for n in range(2, 33)}) == [0, 1, 2]


def test_version_3_round_trip_and_layout(tmp_path, net_v3):
    path = tmp_path / "v3.jjnn"
    write_net(path, net_v3)
    again = read_net(path)
    assert again == net_v3 and again.version == 2 and again.output_buckets == 8 and again.file_version == 3
    assert len(again.out_biases) == 8 and again.out_bias == again.out_biases
    data = path.read_bytes()
    assert header(data) == [MAGIC, 3, 7560, 16, 255, 64, 400]
    assert struct.unpack_from("<II", data, HEADER.size) == (2, 8)
    offset = HEADER.size + 8 + 2 * (7560 * 16 + 16)
    # Bucket 1's output weights follow bucket 0's 2H; the biases, one int32 per bucket, follow them all.
    assert struct.unpack_from("<h", data, offset + 2 * 32)[0] == net_v3.out_weights[32]
    assert struct.unpack_from("<8i", data, offset + 2 * 8 * 32) == net_v3.out_biases
    assert len(data) == HEADER.size + 8 + 2 * (7560 * 16 + 16 + 8 * 32) + 8 * 4 + 4
    # One bucket is written as before: version 1 or 2, one int bias.
    plain = random_network(hidden=16, seed=5)
    assert header(encode_net(plain))[1] == 1 and plain.out_biases == (plain.out_bias,)


def with_bucket_header(data: bytes, features: int, buckets: int) -> bytes:
    return data[:HEADER.size] + struct.pack("<II", features, buckets) + data[HEADER.size + 8:]


@pytest.mark.parametrize("corrupt, message", [
    (lambda d: d[:HEADER.size + 4], "shorter than version 3's 36-byte header"),
    (lambda d: with_bucket_header(d, 3, 8), "names feature set 3"),
    (lambda d: with_bucket_header(d, 2, 1), "says 1 output buckets: it holds 2..32"),
    (lambda d: with_bucket_header(d, 2, 33), "33 output buckets"),
    (lambda d: with_bucket_header(d, 2, 7), "2 trailing bytes|trailing bytes"),
    (lambda d: with_bucket_header(d, 1, 8), "7560 inputs; JJNN version 1's features need 1260"),
    (lambda d: d[:-1], "truncated"),
])
def test_bad_version_3_files_are_refused(net_v3, corrupt, message):
    with pytest.raises(NetFileError, match=message):
        read_net(corrupt(encode_net(net_v3)))


def test_a_network_with_output_buckets_checks_its_biases():
    base = random_network(hidden=16, seed=6, output_buckets=4)
    with pytest.raises(NetFileError, match="out_bias has 3 values; 4 output buckets need 4"):
        Network(16, base.weights, base.biases, base.out_weights, (1, 2, 3), output_buckets=4)
    with pytest.raises(NetFileError, match="a sequence of 4 int32 expected"):
        Network(16, base.weights, base.biases, base.out_weights, 5, output_buckets=4)
    with pytest.raises(NetFileError, match="one int32 expected for one output bucket"):
        Network(16, base.weights, base.biases, base.out_weights[:32], (5,))
    with pytest.raises(NetFileError, match="out_weights has 32 values; hidden size 16 and 4 output buckets needs 128"):
        Network(16, base.weights, base.biases, base.out_weights[:32], (1, 2, 3, 4), output_buckets=4)
    with pytest.raises(NetFileError, match="does not fit in an int32"):
        Network(16, base.weights, base.biases, base.out_weights, (1, 2, 3, 2**31), output_buckets=4)


# -- version 4: a hidden layer ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def net_v4() -> Network:
    return random_network(hidden=16, seed=7, version=2, output_buckets=2, layer=8)


def test_version_4_round_trip_and_layout(tmp_path, net_v4):
    path = tmp_path / "v4.jjnn"
    write_net(path, net_v4)
    again = read_net(path)
    assert again == net_v4 and again.layer == 8 and again.qh == 1024 and again.file_version == 4
    data = path.read_bytes()
    assert header(data) == [MAGIC, 4, 7560, 16, 255, 64, 400]
    assert struct.unpack_from("<IIIi", data, HEADER.size) == (2, 2, 8, 1024)
    offset = HEADER.size + 16 + 2 * (7560 * 16 + 16)
    # W1: bucket 0's 8 units of 2H weights each, then bucket 1's; b1 (int32), Wo (L per bucket), bo.
    assert struct.unpack_from("<h", data, offset + 2 * (8 * 32 + 5))[0] == net_v4.layer_weights[8 * 32 + 5]
    offset += 2 * 2 * 8 * 32
    assert struct.unpack_from("<16i", data, offset) == net_v4.layer_biases
    offset += 4 * 16
    assert struct.unpack_from("<16h", data, offset) == tuple(net_v4.out_weights)
    assert struct.unpack_from("<2i", data, offset + 32) == net_v4.out_biases
    assert len(data) == offset + 32 + 8 + 4
    # One output bucket with a layer is still version 4, its bias a tuple of one.
    single = random_network(hidden=16, seed=7, layer=4)
    assert single.file_version == 4 and single.out_biases == single.out_bias == (single.out_bias[0],)
    assert decode_net(encode_net(single)) == single


def with_layer_header(data: bytes, features: int, buckets: int, layer: int, qh: int) -> bytes:
    return data[:HEADER.size] + struct.pack("<IIIi", features, buckets, layer, qh) + data[HEADER.size + 16:]


@pytest.mark.parametrize("corrupt, message", [
    (lambda d: d[:HEADER.size + 12], "shorter than version 4's 44-byte header"),
    (lambda d: with_layer_header(d, 3, 2, 8, 64), "version 4 names feature set 3"),
    (lambda d: with_layer_header(d, 2, 0, 8, 64), "0 output buckets"),
    (lambda d: with_layer_header(d, 2, 2, 0, 64), "a hidden layer of 0 units: it holds 1..256"),
    (lambda d: with_layer_header(d, 2, 2, 300, 64), "a hidden layer of 300 units"),
    (lambda d: with_layer_header(d, 2, 2, 8, 0), "QH = 0"),
    (lambda d: with_layer_header(d, 2, 2, 7, 64), "a hidden layer of 7 units: .* a multiple of 4"),
    (lambda d: with_layer_header(d, 2, 2, 4, 64), "trailing bytes"),
    (lambda d: with_layer_header(d, 2, 2, 12, 64), "truncated"),
    (lambda d: d[:-1], "truncated"),
])
def test_bad_version_4_files_are_refused(net_v4, corrupt, message):
    with pytest.raises(NetFileError, match=message):
        read_net(corrupt(encode_net(net_v4)))


def test_a_network_with_a_hidden_layer_checks_its_arrays(net_v4):
    n = net_v4
    def network(**changes):
        fields = dict(hidden=16, weights=n.weights, biases=n.biases, out_weights=n.out_weights,
                      out_bias=n.out_bias, version=2, output_buckets=2, layer=8, layer_weights=n.layer_weights,
                      layer_biases=n.layer_biases)
        fields.update(changes)
        return Network(**fields)
    assert network() == n
    with pytest.raises(NetFileError, match="layer_weights has 256 values; hidden size 16 and 2 output "
                                           "buckets and a hidden layer of 8 needs 512"):
        network(layer_weights=n.layer_weights[:256])
    with pytest.raises(NetFileError, match="layer_biases has 15 values; .* needs 16"):
        network(layer_biases=n.layer_biases[:15])
    with pytest.raises(NetFileError, match="out_weights has 64 values; .* needs 16"):
        network(out_weights=array("h", [0] * 64))
    with pytest.raises(NetFileError, match="layer_biases 2147483648 does not fit in an int32"):
        network(layer_biases=(2**31,) + n.layer_biases[1:])
    with pytest.raises(NetFileError, match=r"the hidden layer can overflow int32 \(QA \* sum\|W1\| \+ \|b1\|"):
        network(layer_biases=(2**31 - 1,) + n.layer_biases[1:])
    with pytest.raises(NetFileError, match="a hidden layer of 260 units"):
        network(layer=260)
    with pytest.raises(NetFileError, match="a hidden layer of 6 units: it must have 1..256, a multiple of 4"):
        network(layer=6)
    with pytest.raises(NetFileError, match="QH = 40000"):
        network(qh=40000)

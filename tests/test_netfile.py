"""engine/netfile.py: the JJNN version 1 network file, written and read back, and every kind of malformed
file rejected with a message that says what is wrong."""
from __future__ import annotations

import struct
import zlib
from array import array

import pytest

from engine.netfile import (
    MAGIC, N_INPUTS, NetFileError, Network, decode_net, encode_net, feature_index, random_network, read_net,
    write_net,
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
    (lambda d: with_header(d, version=2), "version 2 is not supported"),
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

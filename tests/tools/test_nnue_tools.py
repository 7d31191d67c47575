"""The NNUE tools: the training-position format (tools/nnue_data.py), the network of the spec
(tools/nnue_net.py), the generator (tools/gen_nnue_data.py) and the trainer (tools/train_nnue.py).

The master-game test reads ccpd-games.tar.xz from $JIANGJUN_SHARED/data, else from shared/data next to
the repository, and skips without it.
"""
from __future__ import annotations

import os
import random
import struct
import sys
import zlib
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")


import nnue_data  # noqa: E402
import nnue_net  # noqa: E402

from support import ROOT, engine_env  # noqa: E402
from engine import Position  # noqa: E402


def archive() -> Path | None:
    shared = Path(os.environ.get("JIANGJUN_SHARED") or ROOT.parent / "shared")
    path = shared / "data" / "ccpd-games.tar.xz"
    return path if path.is_file() else None


def random_positions(count: int, seed: int = 7) -> list[Position]:
    """Positions along random games (each a fresh Position from the FEN, so the record has no history)."""
    rng = random.Random(seed)
    out = []
    position = Position()
    while len(out) < count:
        moves = position.legal_moves()
        if not moves or position.outcome() is not None or len(position.move_stack) > 150:
            position = Position()
            continue
        position.push(rng.choice(moves))
        out.append(Position(position.fen()))
    return out


def records_of(positions: list[Position]) -> bytes:
    return b"".join(
        nnue_data.pack_record(p.kernel_board.pieces(), p.turn == "black", 17 * i - 300, i % 3 - 1, i, i // 5,
                              from_game_record=i % 2 == 0)
        for i, p in enumerate(positions))


# -- the format ---------------------------------------------------------------------------------------

def test_records_round_trip(tmp_path):
    positions = random_positions(40)
    path = str(tmp_path / "positions.bin")
    packed = records_of(positions)
    with nnue_data.RecordWriter(path) as writer:
        for i in range(0, len(packed), nnue_data.RECORD.itemsize):
            writer.write(packed[i:i + nnue_data.RECORD.itemsize])
    assert os.path.getsize(path) == 16 + 55 * len(positions)
    for records in (nnue_data.read_records(path), nnue_data.read_records(path, mmap=False)):
        assert len(records) == len(positions)
        for i, (record, position) in enumerate(zip(records, positions)):
            assert nnue_data.record_fen(record).split()[:2] == position.fen().split()[:2]
            assert int(record["score"]) == 17 * i - 300
            assert int(record["result"]) == i % 3 - 1
            assert int(record["ply"]) == i and int(record["game"]) == i // 5
            assert bool(record["flags"] & nnue_data.FLAG_FROM_GAME_RECORD) == (i % 2 == 0)


def test_records_append_clamp_and_torn_tail(tmp_path):
    path = str(tmp_path / "positions.bin")
    pieces = Position().kernel_board.pieces()
    with nnue_data.RecordWriter(path) as writer:
        writer.write(nnue_data.pack_record(pieces, False, 25000, 1, 70000, 2**32 - 1))
    with nnue_data.RecordWriter(path, append=True) as writer:
        writer.write(nnue_data.pack_record(pieces, True, -25000, -1, 0, 0))
    with open(path, "ab") as f:
        f.write(b"\x01\x02\x03")           # a record cut short
    records = nnue_data.read_records(path)
    assert list(records["score"]) == [10000, -10000]
    assert list(records["ply"]) == [65535, 0]
    assert int(records["game"][0]) == 2**32 - 1
    assert list(records["flags"] & 1) == [0, 1]


def test_records_reject_other_files(tmp_path):
    path = tmp_path / "other.bin"
    path.write_bytes(b"JJNN" + bytes(12))
    with pytest.raises(nnue_data.FormatError):
        nnue_data.read_records(str(path))
    path.write_bytes(struct.pack("<4sIII", b"JJTP", 2, 55, 0))
    with pytest.raises(nnue_data.FormatError):
        nnue_data.read_records(str(path))


def test_board_nibbles_follow_the_layout():
    # Red's general on e0 (square 4: byte 2, low nibble), Black's on d9 (square 84: byte 42, low nibble).
    board = nnue_data.board_codes([(0, 0, 4, 0), (1, 0, 3, 9), (0, 6, 2, 3)])
    assert board[2] == 1 and board[42] == 9
    assert board[14] == 7 << 4                # a Red soldier on c3: square 29, high nibble of byte 14
    assert sum(1 for b in board for nibble in (b & 15, b >> 4) if nibble) == 3


# -- the network --------------------------------------------------------------------------------------

def test_features_match_the_spec_by_piece_map():
    positions = random_positions(60, seed=3)
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    us, them = nnue_net.record_features(records)
    for position, u, t in zip(positions, us, them):
        black = 1 if position.turn == "black" else 0
        assert sorted(int(i) for i in u if i != nnue_net.NO_FEATURE) == \
            nnue_net.position_features(position.piece_map(), black)
        assert sorted(int(i) for i in t if i != nnue_net.NO_FEATURE) == \
            nnue_net.position_features(position.piece_map(), 1 - black)


def test_start_position_features():
    pieces = Position().piece_map()
    red = nnue_net.position_features(pieces, 0)
    black = nnue_net.position_features(pieces, 1)
    assert red == black                         # the start position is symmetric between the sides
    assert (0 * 7 + 0) * 90 + 0 * 9 + 4 in red  # own general on e0: type 0, rank 0, file 4
    assert (1 * 7 + 0) * 90 + 9 * 9 + 4 in red  # the enemy general on e9
    assert len(red) == 32 and max(red) < nnue_net.N_INPUTS


def mirrored(position: Position) -> Position:
    """The left-right mirror image (a FEN row read backwards: its runs of empty squares are one digit)."""
    placement, rest = position.fen().split(" ", 1)
    return Position(" ".join(["/".join(row[::-1] for row in placement.split("/")), rest]))


def test_mirror_features_are_the_mirrored_positions_features():
    positions = random_positions(40, seed=5)
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    us, them = nnue_net.record_features(records)
    for position, u, t in zip(positions, nnue_net.mirror_features(us), nnue_net.mirror_features(them)):
        black = 1 if position.turn == "black" else 0
        image = mirrored(position).piece_map()
        assert sorted(int(i) for i in u if i != nnue_net.NO_FEATURE) == nnue_net.position_features(image, black)
        assert sorted(int(i) for i in t if i != nnue_net.NO_FEATURE) == nnue_net.position_features(image, 1 - black)


def random_net(hidden: int, seed: int = 1) -> "nnue_net.FloatNet":
    rng = np.random.default_rng(seed)
    return nnue_net.FloatNet(rng.normal(0, 0.1, (nnue_net.N_INPUTS, hidden)), rng.normal(0.5, 0.2, hidden),
                             rng.normal(0, 0.3, 2 * hidden), -0.03)


def test_integer_evaluation_is_exact_for_the_quantised_weights():
    # The integer arithmetic against the float evaluation of the very values the file holds: they differ
    # only by the rounding down to whole centipawns (as the engine rounds), so by less than 1 cp.
    records = np.frombuffer(records_of(random_positions(200, seed=5)), dtype=nnue_data.RECORD)
    us, them = nnue_net.record_features(records)
    qnet = nnue_net.quantise(random_net(24))
    exact = nnue_net.evaluate_float(nnue_net.dequantise(qnet), us, them)
    integer = nnue_net.evaluate_quantised(qnet, us, them)
    assert np.all(np.abs(exact - integer) < 1 + 1e-6)
    assert np.all(integer == np.floor(exact + 1e-9))
    assert (integer < 0).any() and (integer > 0).any()


def test_reference_evaluation_of_a_position_matches_the_arrays():
    positions = random_positions(30, seed=11)
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    qnet = nnue_net.quantise(random_net(8))
    batch = nnue_net.evaluate_quantised(qnet, *nnue_net.record_features(records))
    for position, value in zip(positions, batch):
        assert nnue_net.evaluate_position(qnet, position.piece_map(), position.turn == "black") == value


def test_integer_division_rounds_down():
    # One hidden unit, no features: out_q = a_q * wo_q + bo_q with a_q = b_q.
    qnet = nnue_net.QuantNet(np.zeros((nnue_net.N_INPUTS, 1), np.int16), np.array([0], np.int16),
                             np.array([0, 0], np.int16), 0)
    none = np.full((1, nnue_net.MAX_PIECES), nnue_net.NO_FEATURE)
    for bo, cp in [(-41, -2), (41, 1), (-40, -1), (40, 0), (-82, -3), (16320, 400)]:
        qnet.bo = bo                             # cp = bo * 400 / 16320: -41 -> -1.004..., -40 -> -0.98
        assert int(nnue_net.evaluate_quantised(qnet, none, none)[0]) == cp


def test_quantisation_keeps_accumulators_in_int16():
    net = random_net(8)
    net.W[:] = 100.0
    qnet = nnue_net.quantise(net)
    assert int(qnet.W.max()) * (nnue_net.MAX_PIECES + 1) <= 32767


def test_jjnn_file_layout(tmp_path):
    hidden = 16
    qnet = nnue_net.quantise(random_net(hidden))
    path = str(tmp_path / "net.jjnn")
    nnue_net.write_jjnn(path, qnet)
    data = open(path, "rb").read()
    assert len(data) == 28 + 2 * (1260 * hidden + hidden + 2 * hidden) + 4 + 4
    assert struct.unpack_from("<4sIIIiii", data) == (b"JJNN", 1, 1260, hidden, 255, 64, 400)
    assert struct.unpack_from("<I", data, len(data) - 4)[0] == zlib.crc32(data[:-4])
    assert struct.unpack_from("<h", data, 28 + 2 * (5 * hidden + 3))[0] == qnet.W[5, 3]   # feature-major
    assert struct.unpack_from("<i", data, len(data) - 8)[0] == qnet.bo
    back = nnue_net.read_jjnn(path)
    assert np.array_equal(back.W, qnet.W) and np.array_equal(back.b, qnet.b)
    assert np.array_equal(back.wo, qnet.wo) and back.bo == qnet.bo
    corrupt = tmp_path / "corrupt.jjnn"
    corrupt.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    with pytest.raises(ValueError, match="CRC"):
        nnue_net.read_jjnn(str(corrupt))


# -- the generator ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def selfplay_file(tmp_path_factory):
    import gen_nnue_data

    path = str(tmp_path_factory.mktemp("nnue") / "selfplay.bin")
    assert gen_nnue_data.main(["selfplay", "-o", path, "--games", "3", "--nodes", "2000", "--seed", "3"]) == 0
    return path


def check_generated(records, from_game_record: bool):
    assert len(records) > 0
    assert set(np.unique(records["result"])) <= {-1, 0, 1}
    assert np.all(np.abs(records["score"].astype(int)) <= 10000)
    assert np.all((records["flags"] & nnue_data.FLAG_FROM_GAME_RECORD) == (2 if from_game_record else 0))
    placements = set()
    for record in records:
        fen = nnue_data.record_fen(record)
        assert not Position(fen).is_check()
        placements.add(" ".join(fen.split()[:2]))
    assert len(placements) == len(records)       # each position once
    # Results are the side to move's: within a game they alternate with the side to move unless drawn.
    for game in np.unique(records["game"]):
        one = records[records["game"] == game]
        red_view = one["result"] * np.where(one["flags"] & 1, -1, 1)
        assert len(set(red_view.tolist())) == 1


def test_selfplay_generator(selfplay_file, tmp_path):
    import gen_nnue_data

    records = nnue_data.read_records(selfplay_file)
    check_generated(records, from_game_record=False)
    assert len(np.unique(records["game"])) == 3
    again = str(tmp_path / "again.bin")
    gen_nnue_data.main(["selfplay", "-o", again, "--games", "3", "--nodes", "2000", "--seed", "3"])
    assert open(again, "rb").read() == open(selfplay_file, "rb").read()      # deterministic for a seed


def run_teachers_outside_the_checkout(tmp_path, monkeypatch) -> None:
    """A teacher runs outside the checkout with engine_env(), like every engine subprocess of the tests."""
    monkeypatch.chdir(tmp_path)
    for name, value in engine_env().items():
        monkeypatch.setenv(name, value)


@pytest.mark.slow
def test_selfplay_generator_with_a_teacher_engine(tmp_path, monkeypatch):
    # The teacher is any UCI engine; here this engine itself as a subprocess, to a fixed depth.
    import gen_nnue_data

    path = str(tmp_path / "teacher.bin")
    openings = tmp_path / "openings.txt"
    openings.write_text("h2e2 h9g7\nb2e2 b9c7\n")
    run_teachers_outside_the_checkout(tmp_path, monkeypatch)
    assert gen_nnue_data.main(["selfplay", "-o", path, "--games", "2", "--depth", "3", "--seed", "4",
                               "--teacher", f"{sys.executable} -m engine", "--openings", str(openings),
                               "--max-plies", "40"]) == 0
    records = nnue_data.read_records(path)
    check_generated(records, from_game_record=False)
    assert len(np.unique(records["game"])) == 2 and len(records) > 20


@pytest.mark.skipif(archive() is None, reason="ccpd-games.tar.xz not found (JIANGJUN_SHARED)")
def test_master_generator(tmp_path):
    import gen_nnue_data

    path = str(tmp_path / "master.bin")
    assert gen_nnue_data.main(["master", "-o", path, "--games", "3", "--nodes", "500", "--seed", "2",
                               "--archive", str(archive())]) == 0
    records = nnue_data.read_records(path)
    check_generated(records, from_game_record=True)
    assert len(records) > 30


@pytest.mark.skipif(archive() is None, reason="ccpd-games.tar.xz not found (JIANGJUN_SHARED)")
def test_master_generator_goes_on_after_a_stopped_run(tmp_path):
    # A run of 3 games, and one of 1 game followed by one that passes over it: the same records.
    import gen_nnue_data

    common = ["--nodes", "300", "--seed", "2", "--archive", str(archive())]
    whole, first, rest = (str(tmp_path / name) for name in ("whole.bin", "first.bin", "rest.bin"))
    assert gen_nnue_data.main(["master", "-o", whole, "--games", "3", *common]) == 0
    assert gen_nnue_data.main(["master", "-o", first, "--games", "1", *common]) == 0
    assert gen_nnue_data.main(["master", "-o", rest, "--games", "3", "--skip", "1", *common]) == 0
    joined = np.concatenate([nnue_data.read_records(first), nnue_data.read_records(rest)])
    assert joined.tobytes() == nnue_data.read_records(whole).tobytes()


@pytest.mark.skipif(archive() is None, reason="ccpd-games.tar.xz not found (JIANGJUN_SHARED)")
def test_master_generator_says_when_skip_leaves_nothing(tmp_path, capsys):
    import gen_nnue_data

    path = str(tmp_path / "none.bin")
    assert gen_nnue_data.main(["master", "-o", path, "--games", "2", "--skip", "2", "--nodes", "300",
                               "--archive", str(archive())]) == 0
    error = capsys.readouterr().err
    assert "2 passed over by --skip" in error
    assert "--skip 2: nothing left to score: all 2 distinct games with a result (up to --games 2)" in error


# -- the trainer --------------------------------------------------------------------------------------

def test_trainer_learns_and_writes_the_spec_file(selfplay_file, tmp_path):
    pytest.importorskip("scipy")
    import train_nnue

    records, _, _ = train_nnue.load([selfplay_file], 3000)
    data = train_nnue.data_set(records, 400.0, 0.7)
    rng = np.random.default_rng(0)
    trainer = train_nnue.Trainer(train_nnue.initial_net(16, rng), 400.0, 3e-3)
    before = trainer.loss(data)
    lines = []
    net = train_nnue.train(trainer, data, data.rows(np.arange(0)), 6, 64, 3, rng, lines.append)
    assert trainer.loss(data) < 0.8 * before
    assert len(lines) == 7 and lines[-1].startswith("epoch 6")

    qnet = train_nnue.quantised(net, data)
    path = str(tmp_path / "net.jjnn")
    nnue_net.write_jjnn(path, qnet)
    data_bytes = open(path, "rb").read()
    assert len(data_bytes) == 28 + 2 * (1260 * 16 + 16 + 2 * 16) + 4 + 4
    assert struct.unpack_from("<I", data_bytes, len(data_bytes) - 4)[0] == zlib.crc32(data_bytes[:-4])

    # Quantised against float. Without the calibration of the output bias, never beyond the worst case
    # of the rounding of W, b, wo and bo (nnue_net.rounding_bound: 33 half steps of 1/QA per accumulator
    # through |wo|, half a step of 1/QB per output weight, half a step of bo, truncation < 1 cp).
    # The calibration moves bo by the mean offset over the positions, so that on them the mean signed
    # difference is within the truncation (< 1 cp, plus half a step of bo); what is left varies by
    # position, and stays within a few centipawns here (bound: 10 cp on average).
    raw = nnue_net.quantise(net)
    biggest, _, _ = train_nnue.check(net, raw, data, lines.append)
    assert biggest <= nnue_net.rounding_bound(net)
    biggest, mean, signed = train_nnue.check(net, qnet, data, lines.append)
    assert abs(signed) < 1.1 and mean < 10


def test_factorised_training_folds_into_the_same_network(selfplay_file):
    # The trainer's factorised accumulators (square weights plus a weight per side and type) equal the
    # folded network's, which is what the file holds and the engine computes.
    pytest.importorskip("scipy")
    import train_nnue

    records, _, _ = train_nnue.load([selfplay_file], 3000)
    data = train_nnue.data_set(records[:200], 400.0, 0.7, factorise=True)
    assert data.us.shape[1] == nnue_net.N_INPUTS + train_nnue.N_VIRTUAL
    rng = np.random.default_rng(3)
    trainer = train_nnue.Trainer(train_nnue.initial_net(32, rng, factorise=True), 400.0, 1e-3)
    trainer.params["W"][nnue_net.N_INPUTS:] = rng.normal(0, 0.2, (train_nnue.N_VIRTUAL, 32))
    prediction = trainer.forward(data)["prediction"]
    folded = trainer.snapshot()
    assert folded.W.shape == (nnue_net.N_INPUTS, 32)
    us, them = nnue_net.record_features(data.records)
    expected = train_nnue.sigmoid(nnue_net.evaluate_float(folded, us, them) / 400.0)
    assert np.allclose(prediction, expected, atol=1e-5)


def test_trainer_command_line(selfplay_file, tmp_path):
    pytest.importorskip("scipy")
    import train_nnue

    path = str(tmp_path / "cli.jjnn")
    assert train_nnue.main([selfplay_file, "-o", path, "--hidden", "16", "--epochs", "2", "--batch", "128",
                            "--validation", "0.34", "--check"]) == 0
    assert nnue_net.read_jjnn(path).hidden == 16
    assert train_nnue.main([selfplay_file, "-o", path, "--hidden", "32", "--epochs", "1", "--mirror",
                            "--score-scale", "1.5", "--factorise", "--weight-decay", "0.01"]) == 0
    assert nnue_net.read_jjnn(path).hidden == 32


def test_engine_evaluates_the_trained_net_as_the_trainer_does(tmp_path):
    # The file the trainer writes, loaded by the engine: the kernel's integer evaluation equals the
    # trainer's reference exactly, and the trainer's float evaluation within the quantisation's rounding.
    from engine import _core, netfile

    net = random_net(32, seed=3)
    qnet = nnue_net.quantise(net)
    path = str(tmp_path / "net.jjnn")
    nnue_net.write_jjnn(path, qnet)
    positions = random_positions(40, seed=13)
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    floats = nnue_net.evaluate_float(net, *nnue_net.record_features(records))
    _core.set_network(netfile.read_net(path))
    try:
        for position, value in zip(positions, floats):
            engine_value = _core.nnue_evaluate(position.kernel_board)
            assert engine_value == nnue_net.evaluate_position(qnet, position.piece_map(), position.turn == "black")
            assert abs(engine_value - value) <= nnue_net.rounding_bound(net, len(position.piece_map()))
    finally:
        _core.clear_network()


# -- the king-bucketed feature set (JJNN version 2) ---------------------------------------------------

def test_v2_features_match_the_spec_by_piece_map():
    positions = random_positions(60, seed=23)
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    for mirrored_image in (False, True):
        us, them = nnue_net.record_features(records, 2, mirrored=mirrored_image)
        for position, u, t in zip(positions, us, them):
            black = 1 if position.turn == "black" else 0
            pieces = (mirrored(position) if mirrored_image else position).piece_map()
            assert sorted(int(i) for i in u if i != nnue_net.NO_FEATURE) == nnue_net.position_features(pieces, black, 2)
            assert sorted(int(i) for i in t if i != nnue_net.NO_FEATURE) == \
                nnue_net.position_features(pieces, 1 - black, 2)
    # Version 1's mirrored records are mirror_features of its features.
    us, _ = nnue_net.record_features(records)
    assert np.array_equal(np.sort(nnue_net.mirror_features(us), axis=1),
                          np.sort(nnue_net.record_features(records, mirrored=True)[0], axis=1))
    from engine import _core
    for position in positions[:20]:
        red, black = _core.testing.nnue_features(position.kernel_board, 2)
        assert red == nnue_net.position_features(position.piece_map(), 0, 2)
        assert black == nnue_net.position_features(position.piece_map(), 1, 2)


def random_net_v2(hidden: int, seed: int = 1) -> "nnue_net.FloatNet":
    rng = np.random.default_rng(seed)
    return nnue_net.FloatNet(rng.normal(0, 0.1, (nnue_net.N_INPUTS_V2, hidden)), rng.normal(0.5, 0.2, hidden),
                             rng.normal(0, 0.3, 2 * hidden), -0.03)


def test_v2_quantised_file_round_trip(tmp_path):
    qnet = nnue_net.quantise(random_net_v2(16))
    assert qnet.version == 2
    path = str(tmp_path / "v2.jjnn")
    nnue_net.write_jjnn(path, qnet)
    assert struct.unpack_from("<4sIIIiii", open(path, "rb").read()) == (b"JJNN", 2, 7560, 16, 255, 64, 400)
    back = nnue_net.read_jjnn(path)
    assert back.version == 2 and np.array_equal(back.W, qnet.W) and back.bo == qnet.bo


def test_engine_evaluates_a_trained_v2_net_as_the_trainer_does(tmp_path):
    # The kernel's integer evaluation of a version 2 file equals the trainer's reference exactly.
    from engine import _core, netfile

    net = random_net_v2(32, seed=4)
    qnet = nnue_net.quantise(net)
    path = str(tmp_path / "v2.jjnn")
    nnue_net.write_jjnn(path, qnet)
    positions = random_positions(600, seed=17)[::6]      # the later plies of its games have fewer pieces
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    batch = nnue_net.evaluate_quantised(qnet, *nnue_net.record_features(records, 2))
    floats = nnue_net.evaluate_float(net, *nnue_net.record_features(records, 2))
    _core.set_network(netfile.read_net(path))
    try:
        values = []
        for position, expected, value in zip(positions, batch, floats):
            engine_value = _core.nnue_evaluate(position.kernel_board)
            assert engine_value == expected == \
                nnue_net.evaluate_position(qnet, position.piece_map(), position.turn == "black")
            assert abs(engine_value - value) <= nnue_net.rounding_bound(net, len(position.piece_map()))
            values.append(engine_value)
        assert len(set(values)) > 30
    finally:
        _core.clear_network()


def test_factorised_king_buckets_fold_into_the_same_network(selfplay_file):
    pytest.importorskip("scipy")
    import train_nnue

    records, _, _ = train_nnue.load([selfplay_file], 3000)
    data = train_nnue.data_set(records[:200], 400.0, 0.7, mirror=True, factorise=True, version=2)
    assert data.us.shape[1] == nnue_net.N_INPUTS_V2 + nnue_net.N_INPUTS + train_nnue.N_VIRTUAL
    assert data.us[0].sum() == 3 * np.sum(nnue_net.record_features(records[:1], 2)[0][0] >= 0)   # 3 per piece
    rng = np.random.default_rng(5)
    net = train_nnue.initial_net(32, rng, factorise=True, version=2)
    trainer = train_nnue.Trainer(net, 400.0, 1e-3)
    trainer.params["W"][:] = rng.normal(0, 0.1, trainer.params["W"].shape)
    prediction = trainer.forward(data)["prediction"]
    folded = trainer.snapshot()
    assert folded.W.shape == (nnue_net.N_INPUTS_V2, 32) and folded.version == 2
    half = len(data) // 2
    us, them = nnue_net.record_features(data.records[:half], 2)
    us_m, them_m = nnue_net.record_features(data.records[:half], 2, mirrored=True)
    us, them = np.concatenate([us, us_m]), np.concatenate([them, them_m])
    expected = train_nnue.sigmoid(nnue_net.evaluate_float(folded, us, them) / 400.0)
    assert np.allclose(prediction, expected, atol=1e-5)


def test_trainer_command_line_king_buckets(selfplay_file, tmp_path):
    pytest.importorskip("scipy")
    import train_nnue
    from engine import _core, netfile

    path = str(tmp_path / "kb.jjnn")
    assert train_nnue.main([selfplay_file, "-o", path, "--hidden", "16", "--epochs", "2", "--batch", "128",
                            "--features", "king-buckets", "--mirror", "--factorise", "--validation", "0.34",
                            "--check", "--max-minutes", "10"]) == 0
    qnet = nnue_net.read_jjnn(path)
    assert qnet.hidden == 16 and qnet.version == 2
    _core.set_network(netfile.read_net(path))
    try:
        position = random_positions(1, seed=2)[0]
        assert _core.nnue_evaluate(position.kernel_board) == \
            nnue_net.evaluate_position(qnet, position.piece_map(), position.turn == "black")
    finally:
        _core.clear_network()


DYING_TEACHER = """\
import os, sys
from engine import Position
# A UCI teacher that plays the first legal move, and exits on its fifth search unless the marker exists.
marker, searches, position = sys.argv[1], 0, None
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["uci"]:
        print("id name Dying", "uciok", sep="\\n", flush=True)
    elif words[:1] == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["position", "fen"]:
        position = Position(" ".join(words[2:words.index("moves")] if "moves" in words else words[2:]))
    elif words[:1] == ["go"]:
        searches += 1
        if searches == 5 and not os.path.exists(marker):
            open(marker, "w").close()
            sys.exit(1)
        print("info depth 1 score cp 12", f"bestmove {position.legal_moves()[0]}", sep="\\n", flush=True)
    elif words[:1] == ["quit"]:
        break
"""


@pytest.mark.slow
def test_a_teacher_that_dies_abandons_its_game_and_is_started_again(tmp_path, monkeypatch, capsys):
    import gen_nnue_data

    script, marker, path = tmp_path / "dying.py", tmp_path / "died", str(tmp_path / "out.bin")
    script.write_text(DYING_TEACHER)
    openings = tmp_path / "openings.txt"
    openings.write_text("h2e2 h9g7\n")
    run_teachers_outside_the_checkout(tmp_path, monkeypatch)
    assert gen_nnue_data.main(["selfplay", "-o", path, "--games", "3", "--depth", "1", "--seed", "4",
                               "--teacher", f"{sys.executable} {script} {marker}",
                               "--openings", str(openings), "--max-plies", "12"]) == 0
    assert marker.exists()
    err = capsys.readouterr().err
    assert "game 0 abandoned" in err and "1 games abandoned (the teacher failed)" in err
    records = nnue_data.read_records(path)
    assert sorted(np.unique(records["game"])) == [1, 2]      # the other games, from the new teacher


# -- output buckets (JJNN file version 3) -------------------------------------------------------------

@pytest.mark.parametrize("buckets, version, layer", [(1, 1, 0), (8, 1, 0), (4, 2, 0), (1, 1, 8), (4, 2, 4)])
def test_the_trainers_gradients_are_the_losss_derivatives(selfplay_file, buckets, version, layer):
    # The hand-written backward pass against central differences of the loss (float64 for the check).
    pytest.importorskip("scipy")
    import train_nnue

    records, _, _ = train_nnue.load([selfplay_file], 3000)
    data = train_nnue.data_set(records[:300], 400.0, 0.7, factorise=True, version=version)
    rng = np.random.default_rng(5)
    net = train_nnue.initial_net(16, rng, True, version, buckets, layer)
    trainer = train_nnue.Trainer(net, 400.0, 1e-3)
    for name in trainer.params:
        trainer.params[name] = (trainer.params[name] + rng.normal(0, 0.05, np.shape(trainer.params[name])))
        trainer.params[name] = trainer.params[name].astype(np.float64)
    if buckets > 1:
        assert len(set(nnue_net.output_buckets_of(data.us_features, buckets))) > 1
    _, grads = trainer.gradients(data)
    assert set(grads) == set(trainer.params) == {"W", "b", "wo", "bo"} | ({"W1", "b1"} if layer else set())
    for name in grads:
        values = trainer.params[name].reshape(-1)
        gradient = np.asarray(grads[name]).reshape(-1)
        for index in rng.choice(np.flatnonzero(gradient) if np.any(gradient) else np.arange(len(values)), 4):
            saved = values[index]
            values[index] = saved + 1e-6
            up = trainer.gradients(data)[0]
            values[index] = saved - 1e-6
            down = trainer.gradients(data)[0]
            values[index] = saved
            assert gradient[index] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-9), (name, index)


@pytest.mark.parametrize("options, buckets, layer", [(["--output-buckets", "8"], 8, 0),
                                                    (["--output-buckets", "4", "--layer", "8"], 4, 8)])
def test_bucketed_and_layered_networks_from_training_to_the_engine(selfplay_file, tmp_path, options, buckets, layer):
    # Trained with output buckets (file version 3) or a hidden layer too (version 4), read back and
    # evaluated by the engine exactly as the trainer's reference does, at positions of every stage; the
    # float network of the same integers within the rounding (a floor, and with a layer its units'
    # rounding too); `eval` shows a layered network's output without the split by side.
    pytest.importorskip("scipy")
    import train_nnue
    from engine import _core, netfile
    from engine.server.evaluation import network_lines

    path = str(tmp_path / "net.jjnn")
    assert train_nnue.main([selfplay_file, "-o", path, "--hidden", "16", "--epochs", "2", "--batch", "128",
                            "--mirror", "--factorise", *options, "--validation", "0.34", "--check"]) == 0
    qnet = nnue_net.read_jjnn(path)
    assert qnet.output_buckets == buckets and qnet.layer == layer and len(qnet.bo) == buckets
    assert qnet.wo.shape == (buckets, layer or 32) and (qnet.W1 is None) == (not layer)
    assert netfile.read_net(path).file_version == (4 if layer else 3)
    positions = random_positions(600, seed=17)[::6]      # the later plies of its games have fewer pieces
    records = np.frombuffer(records_of(positions), dtype=nnue_data.RECORD)
    us, them = nnue_net.record_features(records)
    assert len(set(nnue_net.output_buckets_of(us, buckets))) >= 2
    floats = nnue_net.evaluate_float(nnue_net.dequantise(qnet), us, them)
    bound = nnue_net.rounding_bound(nnue_net.dequantise(qnet)) if layer else 1
    _core.set_network(netfile.read_net(path))
    try:
        for position, value in zip(positions, floats):
            engine_value = _core.nnue_evaluate(position.kernel_board)
            assert engine_value == nnue_net.evaluate_position(qnet, position.piece_map(), position.turn == "black")
            assert abs(engine_value - value) < bound
        split = "not a sum of the sides' halves" in network_lines(positions[0])[0]
        assert split == bool(layer)
    finally:
        _core.clear_network()


def test_the_trainer_refuses_a_hidden_layer_out_of_range(selfplay_file, tmp_path, capsys):
    pytest.importorskip("scipy")
    import train_nnue

    with pytest.raises(SystemExit):
        train_nnue.main([selfplay_file, "-o", str(tmp_path / "x.jjnn"), "--layer", "300"])
    assert "--layer 300: it must be 0..256, a multiple of 4" in capsys.readouterr().err


def test_each_data_file_may_have_a_score_scale_of_its_own(selfplay_file):
    """FILE:SCALE scales that file's scores; a plain FILE takes --score-scale (data of two teachers)."""
    import train_nnue

    assert train_nnue.data_file("a.bin:1.8", 1.0) == ("a.bin", 1.8)
    assert train_nnue.data_file("a.bin", 1.5) == ("a.bin", 1.5)
    assert train_nnue.data_file("dir:x/a.bin", 1.0) == ("dir:x/a.bin", 1.0)
    records, games, scales = train_nnue.load([f"{selfplay_file}:1.8", str(selfplay_file)], 3000, 0.5)
    half = len(records) // 2
    assert len(records) == 2 * half and set(scales[:half]) == {1.8} and set(scales[half:]) == {0.5}
    assert len(set(games[:half]) & set(games[half:])) == 0
    both = train_nnue.targets(records, 400.0, 1.0, scales)
    assert np.allclose(both[:half], train_nnue.targets(records[:half], 400.0, 1.0, 1.8))

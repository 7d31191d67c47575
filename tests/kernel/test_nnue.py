"""The NNUE evaluation in the kernel (ext/nnue.pxi) against a pure-Python reference of the JJNN spec
(engine/netfile.py), the lazily updated accumulators against recomputed ones along search-like walks,
the search with a network, and the EvalFile / Use NNUE options of both dialects."""
from __future__ import annotations

import random
import threading

import pytest

from engine import Position, _core, nets
from engine.netfile import Network, NetFileError, random_network, read_net, write_net
from engine.server.engine import Engine, EngineBusyError, EngineOptions
from engine.search_types import SearchLimits
from support.driver import EngineDriver

# -- the reference -----------------------------------------------------------------------------------
# Written from the spec alone (not from engine.netfile's helpers): the trainer's cross-check is to agree
# with it too.


def reference_features(board: _core.Board, perspective: int, version: int = 1) -> list[int]:
    """Active input indices of `perspective` (0 Red, 1 Black): (s*7 + t)*90 + r'*9 + f; version 2:
    bucket * 1260 + (s*7 + t)*90 + r'*9 + f', the bucket (kr' * 2 + kf' - 3) and the mirror (f' = 8 - f
    when the own general is on the f-file) given by the own general's point (kf, kr')."""
    pieces = board.pieces()                                  # types in "KABNRCP" order
    bucket, mirror = 0, False
    if version == 2:
        (king_file, king_rank), = [(f, r) for c, t, f, r in pieces if c == perspective and t == 0]
        king_rank = king_rank if perspective == 0 else 9 - king_rank
        mirror = king_file == 5
        bucket = king_rank * 2 + (3 if mirror else king_file) - 3
    indices = []
    for color, piece_type, file, rank in pieces:
        relative_rank = rank if perspective == 0 else 9 - rank
        own = 0 if color == perspective else 1
        file = 8 - file if mirror else file
        indices.append(bucket * 1260 + (own * 7 + piece_type) * 90 + relative_rank * 9 + file)
    return sorted(indices)


def to_int16(value: int) -> int:
    """Two's complement wrap, as the kernel's int16 accumulators do."""
    return (value + 32768) % 65536 - 32768


def reference_accumulator(net: Network, features: list[int]) -> list[int]:
    h = net.hidden
    acc = list(net.biases)
    for i in features:
        row = net.weights[i * h:(i + 1) * h]
        acc = [a + w for a, w in zip(acc, row)]
    return [to_int16(a) for a in acc]


def reference_evaluate(net: Network, board: _core.Board) -> int:
    """The evaluation in centipawns, side to move's view: floor(out * SCALE / (QA * QB))."""
    h = net.hidden
    accs = [reference_accumulator(net, reference_features(board, p, net.version)) for p in (0, 1)]
    us, them = accs[board.side], accs[1 - board.side]
    def clipped(x: int) -> int:
        return min(max(x, 0), net.qa)
    bucket = (len(board.pieces()) - 1) * net.output_buckets // 32
    inputs = [clipped(a) for a in us] + [clipped(a) for a in them]
    if net.layer:       # the hidden layer's units: clamp(floor(z / QH), 0, QA)
        units = []
        for k in range(bucket * net.layer, (bucket + 1) * net.layer):
            row = net.layer_weights[k * 2 * h:(k + 1) * 2 * h]
            z = sum(a * w for a, w in zip(inputs, row)) + net.layer_biases[k]
            units.append(min(max(z // net.qh, 0), net.qa))
        inputs = units
    width = len(inputs)
    weights = net.out_weights[bucket * width:(bucket + 1) * width]
    out = sum(a * w for a, w in zip(inputs, weights)) + net.out_biases[bucket]
    return out * net.scale // (net.qa * net.qb)      # Python's // rounds towards minus infinity


# -- fixtures ------------------------------------------------------------------------------------------


@pytest.fixture
def net():
    """A random H=32 network, loaded into the kernel for the test."""
    network = random_network(hidden=32, seed=11, weight_range=400)
    _core.set_network(network)
    yield network
    _core.clear_network()


@pytest.fixture
def net_v2():
    """A random H=32 network of version 2 (king buckets), loaded into the kernel for the test."""
    network = random_network(hidden=32, seed=12, weight_range=400, version=2)
    _core.set_network(network)
    yield network
    _core.clear_network()


@pytest.fixture
def net_file(tmp_path):
    path = tmp_path / "random32.jjnn"
    write_net(path, random_network(hidden=32, seed=5, weight_range=400))
    return path


def random_positions(count: int, seed: int, max_plies: int = 120) -> list[Position]:
    """Positions of random games: every stage from the opening to bare endgames."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position()
        for _ in range(rng.randrange(max_plies)):
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            captures = [m for m in moves if position.kernel_board.piece_at(ord(m[2]) - 97, int(m[3]))]
            position.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        found.append(position)
    return found


# -- features and the output -----------------------------------------------------------------------------


def test_features_are_the_specs(net):
    for position in random_positions(30, seed=1):
        board = position.kernel_board
        red, black = _core.testing.nnue_features(board)
        assert red == reference_features(board, 0) and black == reference_features(board, 1)
        assert len(red) == len(board.pieces())


def test_the_start_position_features():
    red, black = _core.testing.nnue_features(Position().kernel_board)
    # Both sides' setups are mirror images across the river: each perspective sees the same features.
    assert red == black and len(red) == 32
    assert 4 in red                      # own general on e0 (rank 0, file 4)
    assert 7 * 90 + 9 * 9 + 4 in red     # the opponent's general on its back rank, rank 9 for us


def test_nnue_evaluate_matches_the_reference(net):
    values = []
    for position in random_positions(60, seed=2):
        board = position.kernel_board
        value = _core.nnue_evaluate(board)
        assert value == reference_evaluate(net, board), position.fen()
        values.append(value)
    # The sample must exercise the rounding of negative values and a range of outputs.
    assert any(v < 0 for v in values) and any(v > 0 for v in values) and len(set(values)) > 30


def test_int16_wraparound_and_other_constants_match_the_reference():
    # Weights large enough that 32 pieces overflow int16: the kernel wraps as the reference does.
    network = random_network(hidden=16, seed=4, weight_range=3000, qa=127, qb=32, scale=600)
    _core.set_network(network)
    try:
        wrapped = 0
        for position in random_positions(20, seed=3):
            board = position.kernel_board
            assert _core.nnue_evaluate(board) == reference_evaluate(network, board)
            for p in (0, 1):
                features = reference_features(board, p)
                raw = [b + sum(network.weights[i * 16 + j] for i in features) for j, b in enumerate(network.biases)]
                wrapped += any(not -32768 <= x <= 32767 for x in raw)
        assert wrapped > 0
    finally:
        _core.clear_network()


def test_without_a_network():
    _core.clear_network()
    board = Position().kernel_board
    assert _core.network_hidden() == 0
    with pytest.raises(RuntimeError, match="no network"):
        _core.nnue_evaluate(board)
    with pytest.raises(RuntimeError, match="no network"):
        _core.testing.nnue_check_incremental(board, ["eval"])
    searcher = _core.Searcher(1, 1)
    searcher.use_nnue = True                           # no network: the hand-crafted evaluation
    assert searcher.evaluate(board) == _core.Searcher(1, 1).evaluate(board)


def test_set_network_checks_sizes():
    class Fake:
        hidden, qa, qb, scale, out_bias = 32, 255, 64, 400, 0
        weights, biases, out_weights = [0] * (1260 * 32), [0] * 31, [0] * 64
    with pytest.raises(ValueError, match="expected 32 int16 values"):
        _core.set_network(Fake)
    assert _core.network_hidden() == 0


# -- the incremental accumulators ----------------------------------------------------------------------


def random_walk(position: Position, rng: random.Random, steps: int,
                general_moves: float = 0.0) -> tuple[list[str], int]:
    """A search-like walk for nnue_check_incremental: moves made and taken back, null moves (not in
    check, as the search makes them), evaluations at some nodes only (so that accumulators are brought up
    over several plies at once). `general_moves`: the chance of a general's move when one is legal.
    Returns the actions and the number of captures among the moves."""
    boards = [position.kernel_board.copy()]    # the position at each ply of the walk
    actions: list[str] = []
    captures = 0
    for _ in range(steps):
        board = boards[-1]
        moves = board.legal_moves() if len(boards) < 60 else []
        roll = rng.random()
        if roll < 0.25:
            actions.append("eval")
        elif (roll < 0.45 or not moves) and len(boards) > 1:
            actions.append("undo")
            boards.pop()
        elif roll < 0.5 and not board.in_check():
            actions.append("null")
            passed = _core.Board()
            passed.set_up(board.pieces(), 1 - board.side, 0)
            boards.append(passed)
        elif moves:
            taking = [m for m in moves if board.piece_at(ord(m[2]) - 97, int(m[3]))]
            generals = [m for m in moves if board.piece_at(ord(m[0]) - 97, int(m[1]))[1] == 0]
            if generals and rng.random() < general_moves:
                move = rng.choice(generals)
            else:
                move = rng.choice(taking) if taking and rng.random() < 0.4 else rng.choice(moves)
            captures += move in taking
            actions.append(move)
            after = board.copy()
            after.push(move)
            boards.append(after)
    return actions, captures


def test_incremental_accumulators_equal_recomputed_ones(net):
    rng = random.Random(7)
    checks = captures = nulls = 0
    for position in random_positions(12, seed=5, max_plies=60):
        actions, taken = random_walk(position, rng, 400)
        results = _core.testing.nnue_check_incremental(position.kernel_board, actions)
        assert all(results), f"{position.fen()}: {actions}"
        checks += len(results)
        captures += taken
        nulls += actions.count("null")
    # Coverage floors: a walk generator that quietly stopped producing captures or nulls fails here.
    assert checks > 800 and captures > 100 and nulls > 50


def general_move_kinds(board: _core.Board, actions: list[str]) -> tuple[int, int]:
    """(general moves, general moves onto or off the f-file) among the walk's moves."""
    boards, generals, mirrors = [board.copy()], 0, 0
    for action in actions:
        if action == "eval":
            continue
        if action == "undo":
            boards.pop()
            continue
        after = boards[-1].copy()
        if action == "null":
            after.set_up(after.pieces(), 1 - after.side, 0)
        else:
            if after.piece_at(ord(action[0]) - 97, int(action[1]))[1] == 0:
                generals += 1
                mirrors += (action[0] == "f") != (action[2] == "f")
            after.push(action)
        boards.append(after)
    return generals, mirrors


def test_v2_features_are_the_specs(net_v2):
    for position in random_positions(40, seed=21):
        board = position.kernel_board
        red, black = _core.testing.nnue_features(board, 2)
        assert red == reference_features(board, 0, 2) and black == reference_features(board, 1, 2)
    red, black = _core.testing.nnue_features(Position().kernel_board, 2)
    assert red == black and min(red) >= 1260 and max(red) < 2520    # generals on e0 / e9: bucket 1
    with pytest.raises(ValueError, match="version 3"):
        _core.testing.nnue_features(Position().kernel_board, 3)


def test_v2_evaluate_matches_the_reference(net_v2):
    assert _core.network_version() == 2
    values = []
    for position in random_positions(60, seed=22):
        board = position.kernel_board
        value = _core.nnue_evaluate(board)
        assert value == reference_evaluate(net_v2, board), position.fen()
        values.append(value)
    assert any(v < 0 for v in values) and any(v > 0 for v in values) and len(set(values)) > 30


def test_v1_network_version(net):
    assert _core.network_version() == 1 and _core.network_hidden() == 32


def test_v2_incremental_accumulators_equal_recomputed_ones(net_v2):
    # Walks with many general moves (across the buckets and onto and off the f-file: each forces a
    # refresh of its side's accumulator, the other side's updated as usual), and without: every
    # evaluated node's accumulators equal a refresh.
    rng = random.Random(8)
    checks = generals = mirrors = refreshes = 0
    for number, position in enumerate(random_positions(16, seed=6, max_plies=80)):
        actions, _ = random_walk(position, rng, 400, general_moves=0.5 if number % 4 else 0.0)
        results, refreshed = _core.testing.nnue_check_incremental(position.kernel_board, actions, with_refreshes=True)
        assert all(results), f"{position.fen()}: {actions}"
        moved, mirrored = general_move_kinds(position.kernel_board, actions)
        assert refreshed <= moved
        checks += len(results)
        generals += moved
        mirrors += mirrored
        refreshes += refreshed
    assert checks > 1000 and generals > 300 and mirrors > 100 and refreshes > 100


def test_v1_walks_never_refresh(net):
    position = random_positions(1, seed=6, max_plies=80)[0]
    actions, _ = random_walk(position, random.Random(3), 300, general_moves=0.5)
    results, refreshed = _core.testing.nnue_check_incremental(position.kernel_board, actions, with_refreshes=True)
    assert all(results) and refreshed == 0 and general_move_kinds(position.kernel_board, actions)[0] > 10


def test_a_search_with_a_v2_network(net_v2):
    board = Position().kernel_board
    searcher = _core.Searcher(4, 2)
    searcher.use_nnue = True
    first = searcher.search(board, depth=5)
    assert first.bestmove in Position().legal_moves()
    assert searcher.evaluate(board) == reference_evaluate(net_v2, board)
    for position in random_positions(3, seed=14, max_plies=60):
        if position.legal_moves():
            assert searcher.search(position.kernel_board, depth=5).bestmove in position.legal_moves()


@pytest.mark.parametrize("version, buckets", [(1, 8), (2, 4), (1, 32)])
def test_output_buckets_evaluate_as_the_reference(version, buckets):
    # Positions of every number of pieces, each weighed by its own bucket's output weights and bias.
    network = random_network(hidden=32, seed=13, weight_range=400, version=version, output_buckets=buckets)
    _core.set_network(network)
    try:
        seen = set()
        for position in random_positions(80, seed=23, max_plies=200):
            board = position.kernel_board
            assert _core.nnue_evaluate(board) == reference_evaluate(network, board), position.fen()
            own, other, bias = _core.nnue_output_parts(board)
            bucket = (len(board.pieces()) - 1) * buckets // 32
            assert bias == pytest.approx(network.out_biases[bucket] * network.scale / (network.qa * network.qb))
            seen.add(bucket)
        assert len(seen) >= min(buckets, 6)
        searcher = _core.Searcher(4, 1)
        searcher.use_nnue = True
        position = random_positions(1, seed=24, max_plies=90)[0]
        assert searcher.search(position.kernel_board, depth=4).bestmove in position.legal_moves()
        assert searcher.evaluate(position.kernel_board) == reference_evaluate(network, position.kernel_board)
    finally:
        _core.clear_network()


@pytest.mark.parametrize("version, buckets, layer", [(1, 1, 16), (2, 4, 8), (1, 8, 32)])
def test_a_hidden_layer_evaluates_as_the_reference(version, buckets, layer):
    # The units of the position's bucket, floored and clamped, then the output: exactly as the reference,
    # from scratch and through the search's incremental accumulators; `eval`'s split by side does not
    # apply and says so (None).
    network = random_network(hidden=32, seed=19, weight_range=400, version=version, output_buckets=buckets,
                             layer=layer)
    _core.set_network(network)
    try:
        assert _core.network_layer() == layer
        clamped = set()
        for position in random_positions(60, seed=29, max_plies=200):
            board = position.kernel_board
            assert _core.nnue_evaluate(board) == reference_evaluate(network, board), position.fen()
            clamped.add(_core.nnue_evaluate(board) == 0)
        assert _core.nnue_output_parts(Position().kernel_board) is None
        position = random_positions(1, seed=31, max_plies=60)[0]
        actions, _ = random_walk(position, random.Random(4), 300, general_moves=0.3)
        assert all(_core.testing.nnue_check_incremental(position.kernel_board, actions))
        searcher = _core.Searcher(4, 1)
        searcher.use_nnue = True
        assert searcher.search(position.kernel_board, depth=4).bestmove in position.legal_moves()
    finally:
        _core.clear_network()
    assert _core.network_layer() == 0


def test_set_network_refuses_a_hidden_layer_that_can_overflow():
    base = random_network(hidden=16, seed=3, layer=4)
    class Fake:
        hidden, qa, qb, scale, qh, version, output_buckets, layer = 16, 255, 64, 400, 64, 1, 1, 4
        weights, biases, out_weights, out_biases = base.weights, base.biases, base.out_weights, base.out_biases
        layer_weights = base.layer_weights
        layer_biases = (2**31 - 1,) + base.layer_biases[1:]     # plus any weight's share: beyond int32
    with pytest.raises(ValueError, match="the hidden layer can overflow int32"):
        _core.set_network(Fake)
    assert _core.network_hidden() == 0


def test_set_network_checks_the_version():
    class Fake:
        hidden, qa, qb, scale, out_bias, version = 16, 255, 64, 400, 0, 3
        weights, biases, out_weights = [0] * (1260 * 16), [0] * 16, [0] * 32
    with pytest.raises(ValueError, match="version 3"):
        _core.set_network(Fake)
    Fake.version = 2                                   # version 2 needs 6 buckets of weights
    with pytest.raises(ValueError, match="expected 120960 int16 values"):
        _core.set_network(Fake)
    assert _core.network_hidden() == 0


def test_a_bad_v2_file_is_refused_with_its_reason(tmp_path):
    path = tmp_path / "v2.jjnn"
    write_net(path, random_network(hidden=16, seed=1, version=2))
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    with pytest.raises(NetFileError, match="truncated: .* a network of hidden size 16 needs"):
        read_net(path)
    path.write_bytes(data[:-8] + bytes(8))
    with pytest.raises(NetFileError, match="CRC mismatch"):
        read_net(path)
    # Through the engine facade: reported, the hand-crafted evaluation kept; a good file then loads.
    engine = Engine(EngineOptions(eval_file=str(path)))
    try:
        assert "CRC mismatch" in engine.evaluation_summary() and _core.network_hidden() == 0
        good = tmp_path / "good.jjnn"
        write_net(good, random_network(hidden=16, seed=1, version=2))
        engine.configure(eval_file=str(good))
        assert engine.evaluate() == reference_evaluate(read_net(good), Position().kernel_board)
        assert _core.network_version() == 2
        assert "(16 hidden units, king buckets) enabled" in engine.evaluation_summary()
    finally:
        engine.shutdown()
        _core.clear_network()


def test_the_walk_hook_rejects_bad_actions(net):
    board = Position().kernel_board
    with pytest.raises(ValueError, match="undo"):
        _core.testing.nnue_check_incremental(board, ["undo"])
    with pytest.raises(ValueError, match="not a legal move"):
        _core.testing.nnue_check_incremental(board, ["h2e2", "h0g2"])
    assert _core.testing.nnue_check_incremental(board, ["eval", "h2e2", "h9g7", "b0c2", "eval"]) == [True, True]


# -- the search ----------------------------------------------------------------------------------------


def test_searcher_evaluate_dispatches(net):
    position = random_positions(1, seed=9)[0]
    board = position.kernel_board
    searcher = _core.Searcher(1, 1)
    hand_crafted = searcher.evaluate(board)
    searcher.use_nnue = True
    assert searcher.evaluate(board) == _core.nnue_evaluate(board) == reference_evaluate(net, board)
    searcher.use_nnue = False
    assert searcher.evaluate(board) == hand_crafted


def test_a_search_with_the_network(net):
    board = Position().kernel_board
    searcher = _core.Searcher(4, 1)
    hce = searcher.search(board, depth=5)
    searcher.clear()
    searcher.use_nnue = True
    first = searcher.search(board, depth=5)
    searcher.clear()
    second = searcher.search(board, depth=5)
    assert first.bestmove in Position().legal_moves()
    assert (first.nodes, first.score, first.pv) == (second.nodes, second.score, second.pv)   # deterministic
    assert (first.nodes, first.score) != (hce.nodes, hce.score)
    # Quiescence evaluates with the network too: it stands pat on the evaluation (the table cleared).
    searcher.clear()
    assert searcher.quiescence(board) >= searcher.evaluate(board)


def test_helper_threads_have_their_own_accumulators(net):
    searcher = _core.Searcher(4, 2)
    searcher.use_nnue = True
    for position in random_positions(3, seed=13, max_plies=40):
        if position.legal_moves():
            found = searcher.search(position.kernel_board, depth=6)
            assert found.bestmove in position.legal_moves()


def test_loading_a_network_during_a_search_waits_for_the_next_one(net):
    # The running search keeps the network it started with (its arrays stay alive); no crash, no mix.
    searcher = _core.Searcher(4, 2)
    searcher.use_nnue = True
    board = Position().kernel_board
    done = []
    thread = threading.Thread(target=lambda: done.append(searcher.search(board, nodes=300_000)))
    thread.start()
    for seed in range(5):
        _core.set_network(random_network(hidden=16, seed=seed))
        _core.clear_network()
    thread.join(30)
    assert done and done[0].bestmove


# -- the engine facade and the protocols ----------------------------------------------------------------


def test_the_facade_loads_the_shipped_network_on_first_use():
    engine = Engine()
    try:
        assert engine.options.eval_file == nets.DEFAULT and engine.options.use_nnue
        assert _core.network_hidden() == 0                  # not at start-up
        shipped = read_net(nets.locate(nets.DEFAULT))
        assert engine.evaluate() == reference_evaluate(shipped, Position().kernel_board)
        assert _core.network_hidden() == shipped.hidden
        assert "NNUE evaluation with jiangjun.jjnn" in engine.evaluation_summary()
    finally:
        engine.shutdown()
        _core.clear_network()


def test_the_facade_loads_and_drops_the_network(net_file, tmp_path):
    engine = Engine(EngineOptions(eval_file="", use_nnue=False))
    try:
        hce = engine.evaluate()
        engine.configure(eval_file=str(net_file))
        assert engine.evaluate() == hce                    # loaded, not used yet
        engine.configure(use_nnue=True)
        nnue = engine.evaluate()
        assert nnue != hce and "enabled" in engine.evaluation_summary()
        bad = tmp_path / "bad.jjnn"
        bad.write_bytes(b"JJNN" + bytes(40))
        with pytest.raises(NetFileError, match="version 0"):
            engine.configure(eval_file=str(bad))
        assert engine.options.eval_file == str(net_file) and engine.evaluate() == nnue   # the network stays
        engine.go(SearchLimits(infinite=True), on_info=lambda info: None, on_bestmove=lambda result: None)
        with pytest.raises(EngineBusyError, match="EvalFile"):
            engine.configure(eval_file="")
        engine.configure(use_nnue=False)                   # from the next search on, as MultiPV
        engine.stop()
        engine.wait()
        engine.configure(eval_file="")
        assert engine.evaluate() == hce and _core.network_hidden() == 0
    finally:
        engine.shutdown()
        _core.clear_network()


def search_lines(eng: EngineDriver, go: str) -> tuple[list[str], str]:
    """Send a `go`; the `info depth` lines up to the answer, without their timing, and the answer."""
    eng.send(go)
    lines = eng.read_until(lambda line: line.startswith("bestmove") or line == "nobestmove", timeout=30)
    infos = [line.split(" nps ")[0] for line in lines if line.startswith("info depth")]
    return infos, lines[-1]


@pytest.mark.slow
def test_uci_a_bad_eval_file_is_reported_and_the_engine_plays_on(tmp_path):
    bad = tmp_path / "bad.jjnn"
    bad.write_bytes(b"not a network")
    with EngineDriver() as eng:
        lines = eng.handshake("uci")
        assert f"option name EvalFile type string default {nets.DEFAULT}" in lines
        assert "option name Use NNUE type check default true" in lines
        eng.send("position startpos")
        shipped, _ = search_lines(eng, "go depth 3")
        eng.send(f"setoption name EvalFile value {bad}")
        notes = eng.info_strings(eng.ping())
        assert any("not a JJNN network file" in note and str(bad) in note for note in notes), notes
        eng.send("ucinewgame")
        infos, answer = search_lines(eng, "go depth 3")
        assert infos == shipped and answer.split()[1] in Position().legal_moves()   # the network stayed


@pytest.mark.slow
def test_uci_a_good_eval_file_changes_the_evaluation(net_file):
    after_h2e2 = Position()
    after_h2e2.push("h2e2")
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("setoption name Use NNUE value false")
        eng.send("position startpos moves h2e2")
        hce, _ = search_lines(eng, "go depth 3")
        eng.send(f"setoption name EvalFile value {net_file}")
        eng.send("setoption name Use NNUE value true")
        notes = eng.info_strings(eng.ping())
        assert any("NNUE evaluation with" in note and "32 hidden units" in note for note in notes), notes
        eng.send("ucinewgame")
        nnue, answer = search_lines(eng, "go depth 3")
        assert len(nnue) == 3 and nnue[-1].startswith("info depth 3 ") and nnue != hce
        assert answer.split()[1] in after_h2e2.legal_moves()
        # Back to the hand-crafted evaluation: the first search's lines again.
        eng.send("setoption name Use NNUE value false")
        eng.send("ucinewgame")
        again, _ = search_lines(eng, "go depth 3")
        assert again == hce


@pytest.mark.slow
def test_ucci_evalfile_and_usennue(net_file, tmp_path):
    after_h2e2 = Position()
    after_h2e2.push("h2e2")
    expected = reference_evaluate(read_net(net_file), after_h2e2.kernel_board)
    with EngineDriver() as eng:
        lines = eng.handshake("ucci")
        assert f"option evalfile type string default {nets.DEFAULT}" in lines
        assert "option usennue type check default true" in lines
        eng.send("setoption usennue false")
        eng.send("position startpos moves h2e2")
        hce, _ = search_lines(eng, "go depth 0")              # UCCI depth 0: the static evaluation
        eng.send(f"setoption evalfile {tmp_path / 'missing.jjnn'}")
        assert any("cannot read network file" in note for note in eng.info_strings(eng.ping()))
        eng.send(f"setoption evalfile {net_file}")
        eng.send("setoption usennue true")
        eng.ping()
        static, answer = search_lines(eng, "go depth 0")     # and the move it prefers one ply ahead
        assert [line.split(" pv ")[0] for line in static] == [f"info depth 0 score {expected}"] != hce
        assert answer.split()[1] in after_h2e2.legal_moves() and static[0].endswith(" pv " + answer.split()[1])
        _, answer = search_lines(eng, "go depth 3")
        assert answer.split()[1] in after_h2e2.legal_moves()


def test_set_network_refuses_an_output_that_can_overflow():
    class Loud:
        hidden, qa, qb, scale, out_bias = 160, 255, 64, 400, 0
        weights, biases, out_weights = [0] * (1260 * 160), [0] * 160, [32767] * 320
    with pytest.raises(ValueError, match="overflow int32"):
        _core.set_network(Loud)
    assert _core.network_hidden() == 0

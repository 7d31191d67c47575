"""The engine facade in-process (the protocol tests drive it through a subprocess)."""
import pytest

from engine.server.engine import Engine
from engine.search_types import SearchLimits


def test_failed_hash_resize_keeps_the_old_table_and_the_engine_searches():
    engine = Engine()
    with pytest.raises(MemoryError, match="keeping 16 MB"):
        engine.configure(hash_mb=2**31 - 1)
    assert engine.options.hash_mb == 16
    results = []
    engine.set_position(None, ["h2e2"])
    engine.go(SearchLimits(depth=3), on_info=lambda info: None, on_bestmove=results.append)
    assert engine.wait(10)
    assert results and results[0].bestmove in engine.position.legal_moves()


def test_probe_reads_the_table_and_leaves_the_position():
    from engine import InvalidFenError, Position
    from engine.server.engine import EngineOptions

    engine = Engine(EngineOptions(own_book=False))
    assert engine.probe(None) is None, "an empty table"
    engine.set_position(None, ["h2e2"])
    engine.go(SearchLimits(depth=5), on_info=lambda info: None, on_bestmove=lambda result: None)
    assert engine.wait(20)
    entry = engine.probe(None, ["h2e2"])
    assert entry is not None and entry.bound in ("exact", "lower", "upper") and entry.depth >= 1
    assert entry.move in engine.position.legal_moves()
    with pytest.raises(InvalidFenError):
        engine.probe("xyz")
    after = Position()
    after.push("h2e2")
    assert engine.position.fen() == after.fen()


def answer(engine: Engine, limits: SearchLimits):
    results = []
    engine.go(limits, on_info=lambda info: None, on_bestmove=results.append)
    assert engine.wait(20)
    return results[0]


def test_a_refused_position_leaves_no_position_until_a_valid_one():
    from engine import IllegalMoveError
    from engine.server.engine import NoPositionError

    engine = Engine()
    engine.set_position(None, ["h2e2"])
    with pytest.raises(IllegalMoveError):
        engine.set_position(None, ["h2e2", "h2e2"])
    assert engine.position_error is not None and "move 2 (h2e2)" in engine.position_error
    refused = answer(engine, SearchLimits(depth=3))
    assert refused.bestmove is None and refused.score is None
    assert refused.note.startswith("no valid position was given")
    for action in (engine.evaluate, engine.flip, lambda: engine.set_banmoves(["h9g7"]),
                   lambda: engine.perft(1, print)):
        with pytest.raises(NoPositionError):
            action()
    engine.set_position(None)
    assert engine.position_error is None
    assert answer(engine, SearchLimits(depth=3)).bestmove in engine.position.legal_moves()


def test_a_ruled_position_is_searched_and_the_ruling_noted():
    from engine.server.engine import EngineOptions

    engine = Engine(EngineOptions(own_book=False))
    engine.set_position("4k4/4a4/b4a3/9/6b2/9/9/3AB3B/4A4/5K3 b")
    found = answer(engine, SearchLimits(depth=4))
    assert found.bestmove in engine.position.legal_moves() and found.depth == 4 and found.nodes > 0
    assert found.note.startswith("the rules end the game here (insufficient material: a draw)")


def test_depth_0_plays_the_static_evaluations_choice_and_a_mate_first():
    from engine import Position

    engine = Engine()
    found = answer(engine, SearchLimits(depth=0))
    assert found.static and found.bestmove in Position().legal_moves() and found.nodes == 0
    assert found.score.value == engine.evaluate()
    mate_in_one = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"       # b0b9 mates, a8f8 stalemates
    engine.set_position(mate_in_one)
    assert answer(engine, SearchLimits(depth=0)).bestmove in ("b0b9", "a8f8")

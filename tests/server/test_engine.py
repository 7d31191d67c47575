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

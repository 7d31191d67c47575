"""The hash table and the machine's memory (engine/server/memory.py): a size the free memory cannot hold
is refused before it is allocated (Linux would grant it and then kill the engine as it clears the
table), with an `info string`, and the old table is kept. Tested with the free memory faked, without
exhausting the machine's."""
from __future__ import annotations

import pytest

from engine import Position
from engine.search_types import SearchLimits
from engine.server import memory
from engine.server.engine import Engine, EngineOptions
from engine.server.options import max_hash_mb
from engine.server.protocol import Protocol
from engine.server.session import LazyEngine
from support.driver import EngineDriver


@pytest.fixture
def free_mb(monkeypatch):
    """Fake the memory free now (MB): set `free_mb.value`."""
    class Free:
        value = 1000
    monkeypatch.setattr(memory, "available_mb", lambda: Free.value)
    return Free


def test_the_machine_says_how_much_memory_it_has():
    free, total = memory.available_mb(), memory.physical_mb()
    assert total is None or max_hash_mb() == max(16, min(total // 2, 1 << 20))
    assert free is None or total is None or 0 <= free <= total


def test_a_table_fits_only_with_headroom(free_mb):
    memory.check_table_fits(1000 - memory.HEADROOM_MB)
    with pytest.raises(MemoryError, match="does not fit in the 1000 MB of memory free now"):
        memory.check_table_fits(1000 - memory.HEADROOM_MB + 1)
    free_mb.value = None                 # the system does not say: no check
    memory.check_table_fits(1 << 20)


def test_a_table_too_large_for_the_free_memory_keeps_the_old_one(free_mb):
    engine = Engine(EngineOptions(own_book=False, hash_mb=32))
    with pytest.raises(MemoryError, match="keeping 32 MB"):
        engine.configure(hash_mb=900)
    assert engine.options.hash_mb == 32
    engine.configure(hash_mb=64)         # one that fits is allocated
    assert engine.options.hash_mb == 64
    found = []
    engine.go(SearchLimits(depth=3), on_info=lambda info: None, on_bestmove=found.append)
    assert engine.wait(20) and found[0].bestmove in Position().legal_moves()


def test_setoption_hash_beyond_the_free_memory_gets_an_info_string(free_mb):
    said: list[str] = []
    engine = Engine()
    protocol = Protocol(LazyEngine(engine), said.append, lambda task: task())
    for line in ("uci", "setoption name Hash value 2000", "ucci", "setoption hashsize 2000"):
        protocol.handle_line(line)
    refusals = [line for line in said if "does not fit" in line]
    assert len(refusals) == 2 and all(line.startswith("info string ") for line in refusals), said
    assert all(line.endswith("keeping 16 MB") for line in refusals)
    assert engine.options.hash_mb == 16


@pytest.mark.slow
@pytest.mark.parametrize("dialect, setting", [("uci", "setoption name Hash value 65536"),
                                              ("ucci", "setoption hashsize 65536")])
def test_a_hash_beyond_the_machine_is_refused_and_the_engine_plays_on(dialect, setting):
    # 64 GB: more than the option offers on any machine with less than 128 GB (its maximum is half the
    # memory), so refused before any allocation; on a larger machine the free memory decides.
    with EngineDriver() as eng:
        eng.handshake(dialect)
        eng.send(setting)
        notes = eng.info_strings(eng.ping())
        assert notes and ("must be at most" in notes[-1] or "keeping 16 MB" in notes[-1]), notes
        eng.send("position startpos moves h2e2")
        eng.send("go depth 3")
        lines = eng.read_until(lambda line: line.startswith(("bestmove", "nobestmove")), timeout=20)
        after = Position()
        after.push("h2e2")
        assert lines[-1].split()[1] in after.legal_moves()
        assert eng.proc.poll() is None

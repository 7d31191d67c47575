"""engine.client.inprocess: jiangjun's protocol loop hosted on a thread, spoken to by the same conversation as a
program -- the same lines, the same answers; stop, Ctrl-C, options, two engines at once, nothing left behind.
Searches are bound by depth or nodes (deterministic with one thread), never by a clock."""
from __future__ import annotations

import shlex
import sys
import threading

import pytest

from engine import Position
from engine.client import (BUILTIN_ENTRY, EngineConfig, EngineCrashed, EngineOptionError, SearchInterrupted,
                           SimpleEngine, open_process)
from engine.client.inprocess import ThreadTransport
from engine.search_types import PvLine, SearchLimits

#: An engine whose loop raises, one whose loop returns at once, one that says nothing: entry points of this module.
BROKEN = f"{__name__}:broken_loop"
QUITTER = f"{__name__}:quitting_loop"


def broken_loop(stdin, stdout):
    raise RuntimeError("the loop is broken")


def quitting_loop(stdin, stdout):
    return 3


def opened_position() -> Position:
    position = Position()
    for move in ("h2e2", "h9g7"):
        position.push(move)
    return position


def search_events(engine: SimpleEngine, limits: SearchLimits, multipv: int = 1):
    """The info lines of one search (without their times, which are the machine's) and its result."""
    seen: list[PvLine] = []
    result = engine.search(opened_position(), limits, multipv=multipv, on_info=seen.append)
    lines = [(info.multipv, info.depth, info.score, info.bound, info.nodes, info.pv) for info in seen]
    return lines, (result.bestmove, result.ponder, result.score, result.depth, result.nodes, result.pv)


def new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread not in before]


def test_a_search_reports_its_lines_and_its_answer():
    with SimpleEngine.in_process(options={"Threads": 1, "Hash": 8}) as engine:
        assert engine.process.in_process and engine.process.pid is None and engine.protocol == "uci"
        assert engine.id["name"].startswith("jiangjun") and engine.show_wdl()
        lines, (best, _, score, depth, nodes, pv) = search_events(engine, SearchLimits(depth=6), multipv=2)
        assert {line[1] for line in lines} >= set(range(1, 7)) and {line[0] for line in lines} == {1, 2}
        assert depth == 6 and score is not None and nodes and pv[0] == best
        assert best in opened_position().legal_moves()
        result = engine.search(opened_position(), SearchLimits(depth=6), multipv=2)
        assert [line.multipv for line in result.lines] == [1, 2] and result.lines[0].pv[0] == result.bestmove
        assert result.wdl is not None and result.wdl == result.lines[0].wdl


def test_the_same_events_as_the_same_engine_in_each_protocol():
    """The three dialects through one loop: each answers a fixed-depth search with the same move."""
    answers = set()
    for protocol in ("uci", "ucci", "xboard"):
        with SimpleEngine.in_process(protocol=protocol, options={"Hash": 8} if protocol != "ucci" else {}) as engine:
            assert engine.protocol == protocol
            answers.add(engine.play(opened_position(), SearchLimits(depth=5)).bestmove)
    assert len(answers) == 1


@pytest.mark.slow
def test_the_same_events_as_a_subprocess(outside, engine_pythonpath):
    limits = SearchLimits(nodes=20_000)
    with SimpleEngine.in_process(options={"Hash": 8}) as hosted:
        hosted_events = search_events(hosted, limits, multipv=2)
    with SimpleEngine.popen_uci(shlex.join([sys.executable, "-m", "engine"]), workdir=outside,
                                options={"Hash": 8}) as program:
        program_events = search_events(program, limits, multipv=2)
    assert hosted_events == program_events


def test_stop_from_another_thread_ends_the_search_with_an_answer():
    with SimpleEngine.in_process() as engine:
        def stop_once_deep(info: PvLine) -> None:
            if info.depth is not None and info.depth >= 4:
                threading.Thread(target=engine.interrupt).start()

        result = engine.play(opened_position(), SearchLimits(depth=60), on_info=stop_once_deep)
        assert result.bestmove in opened_position().legal_moves() and result.depth < 60


def test_ctrl_c_stops_the_search_and_carries_its_answer():
    with SimpleEngine.in_process() as engine:
        def interrupted(info: PvLine) -> None:
            if info.depth is not None and info.depth >= 4:
                raise KeyboardInterrupt

        with pytest.raises(SearchInterrupted) as caught:
            engine.search(opened_position(), SearchLimits(depth=60), on_info=interrupted)
        result = caught.value.result
        assert isinstance(caught.value, KeyboardInterrupt)
        assert result is not None and result.bestmove in opened_position().legal_moves()
        assert result.lines and result.lines[0].pv[0] == result.bestmove
        again = engine.play(opened_position(), SearchLimits(depth=3))     # resynchronised, ready
        assert again.depth == 3


def test_options_are_declared_checked_and_applied():
    with SimpleEngine.in_process() as engine:
        assert engine.options["MultiPV"].maximum >= 2 and engine.option_name("hash") == "Hash"
        with pytest.raises(EngineOptionError, match="'Hash' of jiangjun.*below its minimum"):
            engine.configure({"Hash": 0})
        with pytest.raises(EngineOptionError, match="declares no option 'Contempt'"):
            engine.configure({"Contempt": 1})
        engine.configure({"MultiPV": 3})
        result = engine.search(opened_position(), SearchLimits(depth=4))
        assert len(result.lines) == 3


def test_two_engines_at_once_search_side_by_side():
    """Each hosted engine has its own position, table and search thread: two searches at once, on two
    threads, answer what either answers alone."""
    limits = SearchLimits(depth=7)
    with SimpleEngine.in_process(options={"Hash": 8}) as alone:
        expected = search_events(alone, limits)
    answers: dict[int, tuple] = {}
    engines = [SimpleEngine.in_process(options={"Hash": 8}) for _ in range(2)]
    try:
        searches = [threading.Thread(target=lambda i=i: answers.__setitem__(i, search_events(engines[i], limits)))
                    for i in range(2)]
        for search in searches:
            search.start()
        for search in searches:
            search.join()
    finally:
        for engine in engines:
            engine.quit()
    assert answers == {0: expected, 1: expected}


def test_no_thread_is_left_behind_after_quit():
    before = set(threading.enumerate())
    engine = SimpleEngine.in_process()
    engine.play(opened_position(), SearchLimits(depth=4))
    started = new_threads(before)
    assert any(thread is engine.process._transport.thread for thread in started)
    engine.quit()
    for thread in started:
        thread.join(timeout=30)     # a bound for a hang only: each ends as soon as its input does
    assert [thread.name for thread in started if thread.is_alive()] == []
    assert not engine.alive and engine.process.returncode == 0


def test_an_entry_point_is_a_name_loaded_when_the_engine_starts():
    config = EngineConfig.in_process()
    assert config.entry == BUILTIN_ENTRY and config.proto == "uci" and config.label == f"in-process {BUILTIN_ENTRY}"
    with pytest.raises(ValueError, match="not both"):
        EngineConfig("some-engine", entry=BUILTIN_ENTRY)
    for entry, message in (("engine.server.protocol", "expected 'module:function'"),
                           ("engine.no_such_module:serve", "cannot load"), ("engine.server.protocol:nothing",
                                                                            "cannot load")):
        with pytest.raises(EngineCrashed, match=message):
            open_process(EngineConfig.in_process(entry)).start()


def test_a_loop_that_fails_is_a_crash_with_its_traceback():
    with pytest.raises(EngineCrashed, match="raised RuntimeError: the loop is broken") as caught:
        open_process(EngineConfig.in_process(BROKEN)).start(timeout=5)
    assert "Traceback" in caught.value.details and "broken_loop" in caught.value.details
    with pytest.raises(EngineCrashed, match="exited with code 3"):
        open_process(EngineConfig.in_process(QUITTER)).start(timeout=5)


def test_the_transport_of_a_config():
    assert isinstance(open_process(EngineConfig.in_process())._transport, ThreadTransport)

"""engine.web.seat: one tab's engine, jiangjun hosted in the server's process by default (no process is
started: these tests are not slow, but the one of a program); its moves at a level, its analysis lines for
the page, an interruption; a hung engine killed (`kill`, and a search that does not stop), with a loop of
this module hosted in process that is stuck in its second search, and with the fake program hanger.py."""
from __future__ import annotations

import logging
import threading

import pytest

from engine import Position
from engine.web import seat as seat_module
from engine.web.seat import EngineFailure, EngineHung, EngineSeat, EngineSpec, line_json
from support.driver import fake_command

#: Seconds a test waits for a call that should end: a guard against a hang, not a bound on speed.
HANG_GUARD = 60.0
#: A UCI loop hosted in process that answers its first `go` and is stuck in the others (a bug: it reads
#: nothing more) until RELEASE is set; STUCK is set when it is stuck. The gated one, once asked for its
#: handshake (ASKED), waits for GATE before it answers.
STUCK_ENTRY = f"{__name__}:stuck_loop"
GATED_ENTRY = f"{__name__}:gated_loop"
STUCK, RELEASE, ASKED, GATE = threading.Event(), threading.Event(), threading.Event(), threading.Event()


def stuck_loop(stdin, stdout, gate: threading.Event | None = None) -> int:
    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    position, gos = Position(), 0
    for line in stdin:
        words = line.split()
        if words[:1] == ["uci"]:
            if gate is not None:
                ASKED.set()
                gate.wait()
            say("id name StuckLoop")
            say("uciok")
        elif words[:1] == ["isready"]:
            say("readyok")
        elif words[:2] == ["position", "fen"]:
            fen, _, moves = " ".join(words[2:]).partition(" moves ")
            position = Position(fen)
            for move in moves.split():
                position.push(move)
        elif words[:1] == ["go"]:
            gos += 1
            if gos > 1:
                STUCK.set()
                RELEASE.wait()
                return 0
            move = sorted(position.legal_moves())[0]
            say(f"info depth 1 score cp 0 pv {move}")
            say(f"bestmove {move}")
        elif words[:1] == ["quit"]:
            return 0
    return 0


def gated_loop(stdin, stdout) -> int:
    return stuck_loop(stdin, stdout, GATE)


def opened() -> Position:
    position = Position()
    position.push("h2e2")
    return position


@pytest.fixture
def seat():
    seat = EngineSeat(EngineSpec.builtin())
    yield seat
    seat.close()


def test_the_builtin_engine_is_hosted_in_process():
    spec = EngineSpec.builtin()
    assert spec.command is None and spec.config().entry is not None
    assert EngineSpec("/usr/games/fairy-stockfish", "uci").config().cmd == "/usr/games/fairy-stockfish"


def test_the_builtin_engine_searches_with_the_tables_the_page_shows():
    assert EngineSpec.builtin(["a", "b"]).config().options == {"TablebasePath": "a;b"}
    assert EngineSpec.builtin().config().options == {}


def test_a_move_at_a_level_and_the_lines_for_the_page(seat):
    seen = []
    result = seat.play(opened(), level=3, movetime=100, on_info=seen.append)
    assert result.bestmove in opened().legal_moves() and seat.name.startswith("jiangjun")
    lines = seat.analyse(opened(), movetime=200, multipv=2, on_info=lambda info: None)
    assert len(lines) == 2 and lines[0].pv[0] != lines[1].pv[0]
    shown = line_json(opened(), lines[0])
    assert shown["pv"] == list(lines[0].pv) and shown["chinese"][0] and shown["wdl"] is not None
    assert shown["red_score"]["cp"] == -shown["score"]["cp"]       # Black to move


def test_an_interrupted_analysis_answers_at_once(seat):
    def interrupt_once_deep(info) -> None:
        if info.depth is not None and info.depth >= 3:
            threading.Thread(target=seat.interrupt).start()

    lines = seat.analyse(opened(), movetime=600_000, multipv=1, on_info=interrupt_once_deep)
    assert lines and lines[0].pv[0] in opened().legal_moves()


def test_a_released_engine_is_started_again_and_a_closed_seat_refuses(seat):
    seat.play(opened(), movetime=50)
    seat.release()
    assert seat.name == ""
    assert seat.play(opened(), movetime=50).bestmove is not None
    seat.close()
    with pytest.raises(EngineFailure, match="closed"):
        seat.play(opened(), movetime=50)


@pytest.fixture
def stuck():
    """A seat of the stuck loop; the loops still stuck are released at the end."""
    for event in (STUCK, RELEASE, ASKED, GATE):
        event.clear()
    seat = EngineSeat(EngineSpec(entry=STUCK_ENTRY))
    yield seat
    RELEASE.set()
    GATE.set()
    seat.close()


def in_thread(call, *args):
    """Run `call(*args)` on a thread; returns the thread and a list that will hold its result or exception."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(call(*args))
        except Exception as exc:
            outcome.append(exc)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_kill_ends_a_waiting_call_at_once_and_a_stuck_loop_is_left_behind(stuck, caplog):
    assert stuck.play(opened(), movetime=50).bestmove in opened().legal_moves()       # its first go: a move
    thread, outcome = in_thread(stuck.play, opened(), 20, 600_000)    # its second: ten minutes, were it not killed
    assert STUCK.wait(HANG_GUARD)
    with caplog.at_level(logging.WARNING, logger="engine.web.seat"):
        stuck.kill("was ended by the test")
    thread.join(HANG_GUARD)
    assert not thread.is_alive() and isinstance(outcome[0], EngineHung)
    assert "was ended by the test" in str(outcome[0]) and "new one" in str(outcome[0])
    assert "left behind" in caplog.text                    # its thread cannot be killed: it is said so
    assert stuck.play(opened(), movetime=50).bestmove in opened().legal_moves()       # a new engine's first go


def test_a_search_that_does_not_stop_is_killed(stuck, monkeypatch):
    monkeypatch.setattr(seat_module, "STOP_WAIT", 0.1)
    assert stuck.analyse(opened(), movetime=50, multipv=1, on_info=lambda info: None)
    thread, outcome = in_thread(stuck.analyse, opened(), 600_000, 1, lambda info: None)
    assert STUCK.wait(HANG_GUARD)
    stuck.interrupt()
    thread.join(HANG_GUARD)
    assert not thread.is_alive() and isinstance(outcome[0], EngineHung)
    assert "did not stop within 0.1 s" in str(outcome[0])


def test_a_search_interrupted_while_its_engine_starts_does_not_begin(stuck):
    gated = EngineSeat(EngineSpec(entry=GATED_ENTRY))
    try:
        thread, outcome = in_thread(gated.play, opened(), 20, 600_000)
        assert ASKED.wait(HANG_GUARD)
        gated.interrupt()                                  # before the engine has answered its handshake
        GATE.set()
        thread.join(HANG_GUARD)
        assert not thread.is_alive() and outcome[0].bestmove is None and outcome[0].note == "interrupted"
        assert gated.play(opened(), movetime=50).bestmove in opened().legal_moves()   # the engine was kept
    finally:
        gated.close()


@pytest.mark.slow
def test_kill_ends_a_hung_program_at_once(engine_pythonpath):
    seat = EngineSeat(EngineSpec(fake_command("hanger.py"), "uci"))
    try:
        assert seat.play(opened(), movetime=50).bestmove in opened().legal_moves()
        engine = seat._engine
        thread, outcome = in_thread(seat.play, opened(), 20, 600_000)   # hanger.py: never answers its 2nd go
        while not any(line.startswith("> go") for line in list(engine.process.log)[-2:]):
            thread.join(0.01)
        seat.kill()
        thread.join(HANG_GUARD)
        assert not thread.is_alive() and isinstance(outcome[0], EngineHung) and "was ended" in str(outcome[0])
        assert engine.process.returncode is not None and engine.process.returncode < 0    # killed, not quit
    finally:
        seat.close()

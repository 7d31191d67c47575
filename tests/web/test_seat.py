"""engine.web.seat: one tab's engine, jiangjun hosted in the server's process by default (no process is
started: these tests are not slow); its moves at a level, its analysis lines for the page, an interruption."""
from __future__ import annotations

import threading

import pytest

from engine import Position
from engine.web.seat import EngineFailure, EngineSeat, EngineSpec, line_json


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

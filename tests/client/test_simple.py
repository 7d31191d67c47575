"""engine.client.SimpleEngine: any engine opened in one call, analyse/play/configure through the real protocols,
with jiangjun itself (UCI, UCCI, XBoard) as a subprocess, Fairy-Stockfish, MaxQi and Sjaak II."""
from __future__ import annotations

import pytest

from support import FSF, MAXQI, SJAAK, installed
from support.driver import ENGINE_COMMAND as JIANGJUN, fake_command
from engine import Position
from engine.client import EngineCrashed, EngineOptionError, EngineProtocolError, SimpleEngine
from engine.client.simple import search_timeout
from engine.search_types import PvLine, SearchLimits, SearchResult

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("engine_pythonpath")]


def opened_position() -> Position:
    position = Position()
    for move in ("h2e2", "h9g7"):
        position.push(move)
    return position


@pytest.mark.parametrize("opener,protocol,spin", [("popen_uci", "uci", "MultiPV"), ("popen_ucci", "ucci", "hashsize"),
                                                  ("popen_xboard", "xboard", "MultiPV")])
def test_jiangjun_in_each_protocol(opener, protocol, spin, outside):
    with getattr(SimpleEngine, opener)(JIANGJUN, workdir=outside, options={spin.lower(): 1}) as engine:
        assert engine.protocol == protocol and engine.id["name"].startswith("jiangjun")
        assert engine.options[spin].maximum >= 2
        position = opened_position()
        info = engine.analyse(position, SearchLimits(depth=4))
        assert isinstance(info, PvLine) and info.depth == 4 and info.score is not None and info.nodes
        assert info.pv and info.pv[0] in position.legal_moves()
        result = engine.play(position, SearchLimits(time=2000, opp_time=2000, increment=50, opp_increment=50))
        assert isinstance(result, SearchResult) and result.bestmove in position.legal_moves()
        with pytest.raises(EngineOptionError, match=rf"'{spin}' of jiangjun.*above its maximum"):
            engine.configure({spin: 10**9})
        with pytest.raises(EngineOptionError, match="declares no option 'Contempt'"):
            engine.configure({"Contempt": 10})
        if protocol == "uci":
            lines = engine.analyse(position, SearchLimits(depth=4), multipv=2)
            assert len(lines) == 2 and lines[0].pv[0] != lines[1].pv[0]
            assert lines[0].score.value >= lines[1].score.value
        else:
            with pytest.raises(EngineOptionError, match="one line" if protocol == "xboard" else "no MultiPV"):
                engine.analyse(position, SearchLimits(depth=2), multipv=2)
        process = engine.process
    assert not process.alive


def test_the_options_given_when_opening_are_checked(outside):
    with pytest.raises(EngineOptionError, match=r"'Hash' of jiangjun.*below its minimum"):
        SimpleEngine.popen(JIANGJUN, "uci", workdir=outside, options={"Hash": 0})
    with pytest.raises(EngineCrashed):
        SimpleEngine.popen("/nonexistent/engine", "uci")
    with pytest.raises(ValueError, match="protocol 'winboard'"):
        SimpleEngine.popen(JIANGJUN, "winboard")


def test_play_refuses_an_illegal_move_and_timeouts_follow_the_limit():
    with SimpleEngine.popen_uci(fake_command("illegal_mover.py", "--at", "1")) as engine:
        with pytest.raises(EngineProtocolError, match="illegal move"):
            engine.play(Position(), SearchLimits(depth=1))
        with pytest.raises(TypeError):
            engine.play(42, SearchLimits(depth=1))
    assert search_timeout(SearchLimits(movetime=500)) == pytest.approx(10.5)
    assert search_timeout(SearchLimits(depth=5)) == 3600


@pytest.mark.skipif(not installed(FSF), reason=f"Fairy-Stockfish not installed at {FSF}")
def test_fairy_stockfish_multipv_from_a_fen():
    with SimpleEngine.popen_uci(FSF, options={"Threads": 1}) as engine:
        assert engine.id["name"].startswith("Fairy-Stockfish")
        lines = engine.analyse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
                               SearchLimits(depth=6), multipv=3)
        assert len(lines) == 3 and len({line.pv[0] for line in lines}) == 3    # ranks 1..10 converted
        with pytest.raises(EngineOptionError, match="one of"):
            engine.configure({"UCI_Variant": "martian"})


@pytest.mark.skipif(not installed(MAXQI), reason=f"MaxQi (fairymax) not installed at {MAXQI}")
def test_maxqi():
    with SimpleEngine.popen_xboard(MAXQI) as engine:
        position = opened_position()
        info = engine.analyse(position, SearchLimits(depth=4))
        assert info.depth == 4 and info.pv[0] in position.legal_moves()
        assert engine.play(position, SearchLimits(movetime=1000)).bestmove in position.legal_moves()


@pytest.mark.skipif(not installed(SJAAK), reason=f"Sjaak II (sjaakii) not installed at {SJAAK}")
def test_sjaak_ii(sjaak_home):
    with SimpleEngine.popen(SJAAK, "cecp", options={"Level": "normal"}) as engine:
        assert engine.options["Level"].choices[-1] == "Normal"
        position = opened_position()
        info = engine.analyse(position, SearchLimits(depth=4))
        assert info.depth == 4 and len(info.pv) >= 2           # read from its SAN
        assert engine.play(position, SearchLimits(movetime=1000)).bestmove in position.legal_moves()


@pytest.mark.parametrize("opener", ["popen_uci", "popen_xboard"])
def test_interrupt_from_another_thread_ends_a_long_search(opener, outside):
    """EngineProcess.interrupt (what jiangjun web calls when a move is made during an analysis): the search
    of a minute answers at once, and the engine goes on."""
    import threading

    with getattr(SimpleEngine, opener)(JIANGJUN, workdir=outside) as engine:
        position = opened_position()
        timer = threading.Timer(0.5, engine.process.interrupt)
        timer.start()
        result = engine.play(position, SearchLimits(movetime=60_000))
        assert result.time_ms < 60_000, "cut short, not the minute it was given"
        assert result.bestmove in position.legal_moves()
        assert engine.play(position, SearchLimits(depth=2)).bestmove in position.legal_moves()

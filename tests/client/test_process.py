"""engine.client: engine processes speaking UCI / UCCI, against fake engines and Fairy-Stockfish; the codecs' lines."""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from engine import START_FEN, Position
from engine.client import (EngineConfig, EngineCrashed, EngineProcess, EngineProtocolError, EngineTimeout, UcciCodec,
                           UciCodec, open_process)
from engine.color import Color
from engine.search_types import PvLine, SearchLimits, Wdl
from engine.client.codec import parse_id, parse_option_name
from engine.client.process import _MainLine
from engine.score import Score
from support import FSF, ROOT, needs_fsf
from support.driver import fake_command

MATED_BLACK = "4k4/4R4/4P4/9/9/9/9/9/5R3/3K5 b - - 0 1"   # Black to move has no legal move

pytestmark = pytest.mark.usefixtures("engine_pythonpath")


def fake(script: str, *flags: str, proto: str = "auto", **kw) -> EngineConfig:
    return EngineConfig(fake_command(script, *flags), proto=proto, workdir=str(ROOT), **kw)


def gone(pid: int) -> bool:
    """The process no longer exists (not even as a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def play(engine: EngineProcess, plies: int, limits: SearchLimits = SearchLimits(depth=1), fen: str = START_FEN):
    """Let the engine play both sides for some plies; every answer must be legal."""
    position, moves = Position(fen), []
    for _ in range(plies):
        answer = engine.go(fen, moves, position.turn.value, limits, timeout=10)
        assert answer.bestmove in position.legal_moves(), (answer, position.fen())
        position.push(answer.bestmove)
        moves.append(answer.bestmove)
    return position, moves


# -- fake engines: handshake and normal play -------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("proto", ["uci", "ucci"])
def test_fake_plays_legal_moves(proto, tmp_path):
    log = tmp_path / "received.txt"
    engine = open_process(fake("random_mover.py", "--log", str(log), proto=proto, options={"Hash": "32"}))
    engine.start()
    try:
        assert engine.protocol == proto and engine.alive
        assert engine.name == "FakeRandom" and engine.codec.rank_base == 0
        engine.new_game()
        position, moves = play(engine, 4)
        answer = engine.go(START_FEN, moves, position.turn.value, SearchLimits(depth=1), timeout=5)
        assert answer.score.cp == 7 and answer.depth == 1 and answer.pv == (answer.bestmove,)
        assert answer.score.mate is None and not answer.resign and 0 <= answer.time_ms / 1000 < 2
    finally:
        engine.quit()
    assert gone(engine.pid)
    sent = log.read_text().splitlines()
    assert sent[0] == proto
    if proto == "uci":
        assert "setoption name Hash value 32" in sent and "ucinewgame" in sent
    else:
        assert {"setoption usemillisec true", "setoption Hash 32", "setoption newgame"} <= set(sent)
        assert answer.nodes == 20
    assert f"position fen {START_FEN} moves {' '.join(moves)}" in sent
    assert sent[-1] == "quit"


@pytest.mark.slow
def test_auto_detection(tmp_path):
    with open_process(fake("random_mover.py")) as engine:
        assert engine.protocol == "uci"
    # exits on anything but `ucci`, like ElephantEye: restarted and spoken to in UCCI
    with open_process(fake("random_mover.py", "--ucci-only", "--name", "Elephant")) as engine:
        assert engine.protocol == "ucci" and engine.name == "Elephant"
        play(engine, 2)
    # ignores `uci` silently: `ucci` follows on the same process after the probe time
    engine = open_process(fake("random_mover.py", "--silent-uci"))
    engine.uci_probe_timeout = 0.3
    with engine:
        assert engine.protocol == "ucci"
        play(engine, 1)


@pytest.mark.slow
def test_clock_commands_reach_the_engine(tmp_path):
    log = tmp_path / "received.txt"
    red = SearchLimits(time=60000, increment=1000, opp_time=59000.7, opp_increment=1000)
    black = SearchLimits(time=59000.7, increment=1000, opp_time=60000, opp_increment=1000)
    with open_process(fake("random_mover.py", "--log", str(log), proto="uci")) as engine:
        engine.go(START_FEN, [], "red", red, timeout=5)
        engine.go(START_FEN, ["h2e2"], "black", SearchLimits(movetime=250), timeout=5)
    with open_process(fake("random_mover.py", "--log", str(log), "--no-millisec", proto="ucci")) as engine:
        assert not engine.codec.millisec
        engine.go(START_FEN, ["h2e2"], "black", black, timeout=5)
    sent = log.read_text().splitlines()
    assert "go wtime 60000 btime 59000 winc 1000 binc 1000" in sent
    assert "go movetime 250" in sent
    assert "go time 59 increment 1 opptime 60 oppincrement 1" in sent


def test_go_line_syntax():
    uci = UciCodec()
    assert uci.go_line("red", SearchLimits(time=1000, opp_time=2000, movestogo=20)) == \
        "go wtime 1000 btime 2000 movestogo 20"
    assert uci.go_line(Color.BLACK, SearchLimits(time=1000, opp_time=2000, increment=5)) == \
        "go wtime 2000 btime 1000 binc 5"
    assert uci.go_line("black", SearchLimits(depth=7, nodes=5000)) == "go depth 7 nodes 5000"
    assert uci.go_line("red", SearchLimits(movetime=99.9)) == "go movetime 99"
    with pytest.raises(ValueError):
        uci.go_line("red", SearchLimits())

    ucci = UcciCodec(millisec=True)
    both = SearchLimits(time=30000, opp_time=20000, increment=500, opp_increment=0)
    assert ucci.go_line("red", both) == "go time 30000 increment 500 opptime 20000 oppincrement 0"
    assert ucci.go_line("b", SearchLimits(time=8000, opp_time=9000, movestogo=10)) == \
        "go time 8000 movestogo 10 opptime 9000"
    with pytest.raises(ValueError):
        ucci.go_line("blue", both)
    assert ucci.go_line("red", SearchLimits(time=5000)) == "go time 5000 increment 0"
    assert ucci.go_line("red", SearchLimits(movetime=1500)) == "go time 1500 movestogo 1"
    assert ucci.go_line("red", SearchLimits(depth=4, time=1000)) == "go depth 4"
    assert ucci.go_line("red", SearchLimits(nodes=100)) == "go nodes 100"
    ucci.millisec = False   # seconds, truncated, at least 1 for a clock
    assert ucci.go_line("red", SearchLimits(time=800, opp_time=61999, increment=1500)) == \
        "go time 1 increment 1 opptime 61 oppincrement 0"


def test_rank_conversion_and_output_parsing():
    fsf = UciCodec(rank_base=1)
    assert fsf.to_engine("h2e2") == "h3e3" and fsf.to_engine("a9a8") == "a10a9"
    assert fsf.from_engine("a10a9") == "a9a8" and fsf.from_engine("h10g8") == "h9g7"
    assert fsf.from_engine("a0a1") == "a0a1"            # rank 0 does not exist there: left for the caller
    assert fsf.position_line("9/9/9/9/9/9/9/9/9/4K4 r - - 0 1", ["e0e1"]) == \
        "position fen 9/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e1e2"

    ucci = UcciCodec()

    def main_line(*lines: str) -> _MainLine:
        main = _MainLine()
        for line in lines:
            info = ucci.parse_info(line)
            if info is not None:
                main.add(info)
        return main

    info = main_line("info depth 5 score 21 pv h0g2 i9h9", "info time 4100 nodes 5123456",
                     "info depth 6 multipv 2 score 400 pv a0a1", "info string score 9999 pv x",
                     "info message hello", "info depth 6 currmove h0g2")
    result = info.result(ucci.parse_bestmove("bestmove h0g2 ponder i9h9 draw"), 0.5)
    assert (result.bestmove, result.ponder, result.score.cp, result.depth, result.nodes, result.pv) == \
        ("h0g2", "i9h9", 21, 5, 5123456, ("h0g2", "i9h9"))
    assert result.offers_draw and not result.resign and result.time_ms == 500
    assert ucci.parse_bestmove("bestmove c3c4 resign").resign
    assert ucci.parse_bestmove("nobestmove").bestmove is None
    info = main_line("info depth 9 score mate -3 nodes 10 pv a0a1")
    assert (info.score.mate, info.score.cp) == (-3, None)
    for none in ("bestmove (none)", "bestmove 0000", "bestmove"):
        assert ucci.parse_bestmove(none).bestmove is None
    assert ucci.parse_bestmove("bestmove xyz").bestmove == "xyz"   # passed on: illegal for the caller


def test_info_lines_become_values():
    fsf = UciCodec(rank_base=1)
    line = "info depth 12 seldepth 15 multipv 2 score cp -35 nodes 81234 nps 900000 time 90 pv h3e3 h10g8"
    assert fsf.parse_info(line) == PvLine(multipv=2, depth=12, seldepth=15, score=Score.from_cp(-35), nodes=81234,
                                        nps=900000, time_ms=90, pv=("h2e2", "h9g7"))
    assert fsf.parse_info("info depth 3 score mate 2 pv a1a2").score == Score.from_mate(2)
    assert fsf.parse_info("info depth 7 score cp 50 lowerbound nodes 9 pv a1a2").bound == "lower"
    assert fsf.parse_info("info depth 7 score 50 upperbound").bound == "upper"
    assert fsf.parse_info("info depth 2 string score cp 1") == PvLine(depth=2)        # the rest is text
    for other in ("info string hello", "info depth x score cp 1", "info score", "bestmove a0a1", ""):
        assert fsf.parse_info(other) is None, other
    assert fsf.parse_bestmove("info depth 1") is None


def test_info_lines_with_chances_and_the_current_move():
    uci = UciCodec()
    line = ("info depth 18 seldepth 27 multipv 1 score cp 26 wdl 52 942 6 nodes 3012345 nps 1450000 hashfull 91 "
            "tbhits 0 time 2077 pv h0g2 i9h9")
    info = uci.parse_info(line)
    assert info.wdl == Wdl(52, 942, 6) and -info.wdl == Wdl(6, 942, 52)
    assert (info.score, info.nodes, info.nps, info.hashfull, info.time_ms, info.pv) == \
        (Score.from_cp(26), 3012345, 1450000, 91, 2077, ("h0g2", "i9h9"))
    assert uci.parse_info("info depth 5 score cp 1 pv a0a1").wdl is None
    # A line that only names the move being searched is not a PV report (it would clear the score).
    assert uci.parse_info("info depth 20 currmove h2e2 currmovenumber 3") is None
    assert UcciCodec().parse_info("info currmove h2e2 currmovenumber 3") is None
    for bad in ("info depth 1 score cp 5 wdl 1 2", "info depth 1 score cp 5 wdl 1 x 3 pv a0a1"):
        assert uci.parse_info(bad) is None, bad


def test_option_and_handshake_syntax():
    uci, ucci = UciCodec(), UcciCodec()
    assert uci.option_line("Hash", "64") == "setoption name Hash value 64"
    assert uci.option_line("Clear Hash", None) == "setoption name Clear Hash"
    assert ucci.option_line("hash size", "64") == "setoption hash_size 64"
    assert ucci.option_line("newgame", "") == "setoption newgame"
    assert uci.new_game_lines({}) == ["ucinewgame"]
    assert ucci.new_game_lines({}) == [] and ucci.new_game_lines({"newgame": "newgame"}) == ["setoption newgame"]
    assert parse_option_name("option name Skill Level type spin default 20") == "Skill Level"
    assert parse_option_name("option hashsize type spin min 1 max 1024") == "hashsize"
    assert parse_option_name("id name x") is None
    assert parse_id("id name Fairy-Stockfish 11.1 LB 64") == ("name", "Fairy-Stockfish 11.1 LB 64")
    assert UciCodec.default_rank_base("Fairy-Stockfish 11.1") == 1 and UciCodec.default_rank_base("Pikafish") == 0
    assert UcciCodec.default_rank_base("Fairy-Stockfish 11.1") == 0
    assert uci.setup({"uci_variant": "UCI_Variant"}, "Fairy-Stockfish", []) == [("UCI_Variant", "xiangqi")]
    assert uci.setup({"uci_variant": "UCI_Variant"}, "Fairy-Stockfish", ["uci_variant"]) == []
    seconds = UcciCodec()
    assert seconds.setup({}, "ElephantEye", []) == [] and not seconds.millisec
    assert seconds.setup({}, "Fairy-Stockfish 11.1", []) == [] and seconds.millisec


# -- misbehaving fakes -------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("proto", ["uci", "ucci"])
def test_illegal_mover(proto):
    with open_process(fake("illegal_mover.py", proto=proto)) as engine:
        position, moves = play(engine, 1)
        answer = engine.go(START_FEN, moves, position.turn.value, SearchLimits(depth=1), timeout=5)
        assert answer.bestmove is not None and not position.is_legal(answer.bestmove)


@pytest.mark.slow
def test_crasher():
    with open_process(fake("crasher.py")) as engine:
        play(engine, 1)
        with pytest.raises(EngineCrashed) as caught:
            engine.go(START_FEN, [], "red", SearchLimits(depth=1), timeout=5)
        assert "exited with code 1" in str(caught.value)
        assert "\n" not in str(caught.value) and "> go depth 1" in caught.value.details
        assert not engine.alive
        with pytest.raises(EngineCrashed):
            engine.go(START_FEN, [], "red", SearchLimits(depth=1), timeout=5)
    assert gone(engine.pid)


@pytest.mark.slow
def test_hanger_times_out_and_is_killed():
    engine = open_process(fake("hanger.py", "--stderr"))
    engine.start()
    play(engine, 1)
    with pytest.raises(EngineTimeout) as caught:
        engine.go(START_FEN, [], "red", SearchLimits(depth=1), timeout=1.0)
    assert caught.value.result is None
    assert "did not answer stop" in str(caught.value) and "stderr:" in caught.value.details
    assert engine.alive
    engine.quit()                      # it reads nothing any more: quit must kill it
    assert not engine.alive and gone(engine.pid)
    engine.quit()                      # twice is fine


@pytest.mark.slow
def test_slowpoke_overruns_then_resynchronises():
    clocks = SearchLimits(time=300, opp_time=300)
    with open_process(fake("slowpoke.py", "--at", "2", "--seed", "5")) as engine:
        play(engine, 1)
        answer = engine.go(START_FEN, [], "red", clocks, timeout=5)     # sleeps 0.7 s, then moves
        assert answer.bestmove in Position().legal_moves()
        assert answer.time_ms / 1000 > 0.6
    with open_process(fake("slowpoke.py", "--at", "1", proto="ucci")) as engine:
        engine.stop_grace = 1.5                                          # room for a slow machine
        with pytest.raises(EngineTimeout) as caught:
            engine.go(START_FEN, [], "red", clocks, timeout=0.4)          # answers 0.3 s after the stop
        late = caught.value.result
        assert late is not None and late.bestmove in Position().legal_moves() and late.time_ms > 600
        position, _ = play(engine, 3)                                    # the late answer is not reused
        assert len(position.move_stack) == 3


@pytest.mark.slow
@pytest.mark.parametrize("proto", ["uci", "ucci"])
def test_none_mover(proto):
    with open_process(fake("none_mover.py", proto=proto)) as engine:
        position, moves = play(engine, 1)
        answer = engine.go(START_FEN, moves, position.turn.value, SearchLimits(depth=1), timeout=5)
        assert answer.bestmove is None and answer.ponder is None
        play(engine, 2)                                                  # back to normal afterwards


@pytest.mark.slow
def test_start_failures():
    with pytest.raises(EngineCrashed):
        open_process(EngineConfig("/nonexistent/engine")).start()
    quitter = EngineConfig(shlex.join([sys.executable, "-c", "pass"]), proto="uci")
    with pytest.raises(EngineCrashed):
        open_process(quitter).start()
    silent = open_process(EngineConfig(shlex.join([sys.executable, "-c", "import time; time.sleep(60)"]),
                                        proto="ucci"))
    with pytest.raises(EngineTimeout):
        silent.start(timeout=0.5)
    assert gone(silent.pid)
    chatter = EngineConfig(shlex.join([sys.executable, "-c", "import time; print('hello', flush=True); "
                                       "time.sleep(60)"]), proto="uci")
    with pytest.raises(EngineProtocolError):
        open_process(chatter).start(timeout=0.5)


# -- Fairy-Stockfish -----------------------------------------------------------------------------------
@pytest.mark.slow
@needs_fsf
@pytest.mark.parametrize("proto", ["ucci", "uci"])
def test_fairy_stockfish(proto):
    with open_process(EngineConfig(FSF, proto=proto, options={"Threads": "1"})) as engine:
        assert engine.protocol == proto and "Fairy-Stockfish" in engine.name
        assert engine.codec.rank_base == (1 if proto == "uci" else 0)
        engine.new_game()
        answer = engine.go(START_FEN, [], "red", SearchLimits(depth=3), timeout=10)
        assert answer.bestmove in Position().legal_moves()
        assert answer.depth == 3 and answer.score is not None and answer.pv[0] == answer.bestmove
        # several plies, so that moves from and to ranks 0 and 9 travel both ways
        position, moves = play(engine, 6, SearchLimits(depth=2))
        answer = engine.go(START_FEN, moves, position.turn.value, SearchLimits(movetime=200), timeout=5)
        # UCCI has no time per move: it goes as a clock of 200 ms for one move, of which Fairy-Stockfish's
        # time manager may spend half (97 ms seen once).
        shortest = 0.1 if proto == "uci" else 0.05
        assert answer.bestmove in position.legal_moves() and shortest < answer.time_ms / 1000 < 1.5
        clocks = SearchLimits(time=2000, opp_time=2000, increment=100, opp_increment=100)
        answer = engine.go(START_FEN, moves, position.turn.value, clocks, timeout=5)
        assert answer.bestmove in position.legal_moves() and answer.time_ms / 1000 < 2
        answer = engine.go(MATED_BLACK, [], "black", SearchLimits(depth=3), timeout=5)
        assert answer.bestmove is None
    assert gone(engine.pid)


@pytest.mark.slow
@needs_fsf
def test_fairy_stockfish_auto_is_uci_with_ranks_from_one():
    with open_process(EngineConfig(FSF)) as engine:
        assert engine.protocol == "uci" and engine.codec.rank_base == 1
        assert any(line == "> setoption name UCI_Variant value xiangqi" for line in engine.log)
        position, _ = play(engine, 2, SearchLimits(depth=2))


@pytest.mark.slow
@needs_fsf
def test_every_multipv_line_reaches_on_info():
    with open_process(EngineConfig(FSF, proto="uci")) as engine:
        engine.set_option(engine.option_name("multipv"), "3")
        seen = []
        answer = engine.go(START_FEN, [], "red", SearchLimits(depth=4), timeout=10, on_info=seen.append)
        last = {info.multipv: info for info in seen if info.score is not None and info.depth == 4}
        assert sorted(last) == [1, 2, 3] and last[1].pv[0] == answer.bestmove
        assert len({info.pv[0] for info in last.values()}) == 3
        assert answer.score == last[1].score and answer.depth == 4


def test_no_children_left_behind():
    """Every process the tests started has been reaped (Linux: no child of ours in /proc)."""
    proc = Path("/proc")
    if not proc.is_dir():
        pytest.skip("needs /proc")
    mine = []
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            mine.append(stat.parent.name)
    assert mine == []

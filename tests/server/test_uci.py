"""UCI (and the cyclone style without handshake), driving `python -m engine` as a subprocess."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest

from engine import Position
from engine.server.protocol import serve
from support import ROOT
from support.driver import MATE_IN_ONE_FEN, MATED_FEN, START_FEN, EngineDriver, bestmove_of, mates_in_one

INFO_LINE = re.compile(
    r"^info depth (\d+) seldepth (\d+) multipv (\d+) score (cp -?\d+|mate -?\d+) nodes (\d+) nps (\d+) "
    r"hashfull (\d+) tbhits (\d+) time (\d+) pv( [a-i]\d[a-i]\d)+$"
)


@pytest.fixture
def eng():
    with EngineDriver() as driver:
        driver.handshake("uci")
        yield driver


@pytest.mark.slow
def test_handshake_lists_the_options():
    with EngineDriver() as eng:
        lines = eng.handshake("uci")
        assert lines[0].startswith("id name jiangjun")
        assert any(line.startswith("id author ") for line in lines)
        names = [re.match(r"option name (.+?) type ", line).group(1) for line in lines if line.startswith("option")]
        assert names[:6] == ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash"]
        assert "option name UCI_Variant type combo default xiangqi var xiangqi" in lines
        assert "option name Ponder type check default false" in lines
        assert "option name Clear Hash type button" in lines
        assert all(line == line.strip() for line in lines), "no trailing spaces"


@pytest.mark.slow
def test_go_depth_prints_info_lines_and_a_legal_bestmove(eng):
    eng.send("position startpos moves h2e2 h9g7")
    eng.send("go depth 4")
    lines = eng.read_until("bestmove", timeout=10)
    infos = [INFO_LINE.match(line) for line in lines if line.startswith("info depth")]
    assert all(infos), lines
    assert [int(m.group(1)) for m in infos] == [1, 2, 3, 4]
    position = Position()
    for move in ("h2e2", "h9g7"):
        position.push(move)
    assert bestmove_of(lines) in position.legal_moves()
    pv = infos[-1].group(0).split(" pv ")[1].split()
    assert pv[0] == bestmove_of(lines)


@pytest.mark.slow
def test_isready_during_search_then_stop_gives_exactly_one_bestmove(eng):
    eng.send("position startpos")
    eng.send("go infinite")
    time.sleep(0.3)
    eng.send("isready")
    answered = eng.read_until("readyok", timeout=5)     # the search goes on: answered while it runs
    quiet = eng.collect(0.3)
    assert not any(line.startswith("bestmove") for line in answered + quiet), "no bestmove before stop"
    eng.send("stop")
    bestmove_of(eng.read_until("bestmove", timeout=5))
    later = eng.ping()
    assert not any(line.startswith("bestmove") for line in later + eng.collect(0.2))


@pytest.mark.slow
def test_ponder_holds_the_bestmove_until_ponderhit(eng):
    eng.send("position startpos moves h2e2")
    eng.send("go ponder wtime 2000 btime 2000")
    assert not any(line.startswith("bestmove") for line in eng.collect(0.6))
    eng.send("ponderhit")                     # the 2 s clock now runs: the engine answers without a stop
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
def test_ponderhit_with_time_left_keeps_searching(eng):
    # 10 minutes: an optimum of some 20 s (engine.server.timeman), so the search goes on after the ponderhit
    # until the stop; however loaded the machine, it cannot have answered in the first 0.3 s.
    eng.send("go ponder wtime 600000 btime 600000")
    time.sleep(0.2)
    eng.send("ponderhit")
    assert not any(line.startswith("bestmove") for line in eng.collect(0.3))
    eng.send("stop")
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
def test_stop_and_ponderhit_straight_after_go(eng):
    # Before the search has started: neither may be lost.
    for _ in range(5):
        eng.send("go infinite")
        eng.send("stop")
        eng.expect("bestmove", timeout=5)
        eng.send("go ponder wtime 4000 btime 4000")
        eng.send("ponderhit")
        eng.expect("bestmove", timeout=5)
    assert not any(line.startswith("bestmove") for line in eng.ping())


@pytest.mark.slow
def test_one_bestmove_per_go_in_rapid_fire(eng):
    """Commands sent without waiting: a `go` during a search stops it first; each `go` is answered once."""
    forms = ["go infinite\nstop", "go ponder wtime 1000 btime 1000\nponderhit", "go depth 1", "go nodes 1",
             "go movetime 1", "go depth 30"]
    for i in range(60):
        eng.send(f"position startpos moves {'h2e2' if i % 2 else 'b2e2'}")
        eng.send(forms[i % len(forms)])
    eng.send("stop")
    for _ in range(60):
        eng.expect("bestmove", timeout=5)
    assert not any(line.startswith("bestmove") for line in eng.ping() + eng.collect(0.2))


@pytest.mark.slow
def test_ponder_then_stop_reports_once(eng):
    eng.send("position startpos")
    eng.send("go ponder depth 2")   # finishes at once, but must wait for stop/ponderhit
    assert not any(line.startswith("bestmove") for line in eng.collect(0.3))
    eng.send("stop")
    eng.expect("bestmove", timeout=1)
    assert not any(line.startswith("bestmove") for line in eng.ping() + eng.collect(0.1))


@pytest.mark.slow
def test_new_position_and_go_straight_after_bestmove(eng):
    position = Position()
    for _ in range(6):
        eng.send(f"position fen {START_FEN} moves {' '.join(position.move_stack)}".rstrip())
        eng.send("go depth 2")
        move = bestmove_of(eng.read_until("bestmove", timeout=5))
        position.push(move)
    eng.send("stop")  # idle stop: no answer
    assert not any(line.startswith("bestmove") for line in eng.ping())


@pytest.mark.slow
def test_quit_during_search_exits():
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("go infinite")
        time.sleep(0.2)
        eng.send("quit")
        assert eng.proc.wait(5) == 0          # the infinite search does not keep it alive
        assert b"Traceback" not in eng.proc.stderr.read()


@pytest.mark.slow
def test_end_of_input_during_search_exits_cleanly():
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("go infinite")
        time.sleep(0.2)
        assert eng.close() == 0
        assert b"Traceback" not in eng.stderr


@pytest.mark.slow
def test_go_nodes(eng):
    eng.send("go nodes 20000")
    lines = eng.read_until("bestmove", timeout=10)
    nodes = [int(INFO_LINE.match(line).group(5)) for line in lines if line.startswith("info depth")]
    assert nodes and nodes[-1] <= 20000 * 1.5
    bestmove_of(lines)


@pytest.mark.slow
def test_go_movetime(eng):
    eng.send("setoption name OwnBook value false")     # the time is the search's
    eng.send("go movetime 300")
    bestmove_of(eng.read_until("bestmove", timeout=5))    # ended by its time, without a stop
    eng.send("go movetime 600000")                          # ten minutes: still searching 0.3 s later
    assert not any(line.startswith("bestmove") for line in eng.collect(0.3))
    eng.send("stop")
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
@pytest.mark.parametrize("turn_moves, own, opp", [("", "wtime", "btime"), ("h2e2", "btime", "wtime")])
def test_go_clock_uses_the_side_to_moves_time(eng, turn_moves, own, opp):
    # 100 ms on the mover's clock: an answer at once. Had the engine read the opponent's ten minutes, it
    # would think for some 20 s, past the read's timeout.
    eng.send(f"position startpos moves {turn_moves}".strip())
    eng.send(f"go {own} 100 {opp} 600000 winc 0 binc 0")
    bestmove_of(eng.read_until("bestmove", timeout=5))
    eng.send("go wtime 3000 btime 3000 winc 100 binc 100 movestogo 20")
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
def test_go_with_a_negative_clock_answers(eng):
    eng.send("go wtime -50 btime 1000")       # a clock that has just run out is read as 0
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
def test_go_mate_finds_the_mate(eng):
    eng.send(f"position fen {MATE_IN_ONE_FEN}")
    eng.send("go mate 2")
    lines = eng.read_until("bestmove", timeout=10)
    assert bestmove_of(lines) in mates_in_one(MATE_IN_ONE_FEN)
    assert " score mate 1 " in [line for line in lines if line.startswith("info depth")][-1]


@pytest.mark.slow
def test_searchmoves_restricts_the_root(eng):
    eng.send("position startpos")
    eng.send("go depth 4 searchmoves a0a1 i3i4")
    assert bestmove_of(eng.read_until("bestmove", timeout=10)) in ("a0a1", "i3i4")


@pytest.mark.slow
def test_multipv_lines(eng):
    eng.send("setoption name MultiPV value 3")
    eng.send("go depth 3")
    lines = eng.read_until("bestmove", timeout=10)
    last = [INFO_LINE.match(line) for line in lines if line.startswith("info depth 3 ")]
    assert [int(m.group(3)) for m in last] == [1, 2, 3]
    firsts = [m.group(0).split(" pv ")[1].split()[0] for m in last]
    assert len(set(firsts)) == 3 and bestmove_of(lines) == firsts[0]


@pytest.mark.slow
def test_two_threads_search(eng):
    eng.send("setoption name Threads value 2")
    eng.send("go depth 6")
    bestmove_of(eng.read_until("bestmove", timeout=20))


@pytest.mark.slow
def test_go_perft_1_lists_the_legal_moves(eng):
    eng.send("position startpos moves h2e2")
    eng.send("go perft 1")
    lines = eng.read_until(lambda line: line.startswith("Nodes searched"), timeout=5)
    position = Position()
    position.push("h2e2")
    moves = [line.split(":")[0] for line in lines if re.match(r"^[a-i]\d[a-i]\d: 1$", line)]
    assert sorted(moves) == sorted(position.legal_moves())
    assert lines[-1] == f"Nodes searched: {len(position.legal_moves())}"


@pytest.mark.slow
def test_go_perft_3_total(eng):
    eng.send("go perft 3")
    lines = eng.read_until(lambda line: line.startswith("Nodes searched"), timeout=10)
    assert lines[-1] == "Nodes searched: 79666"


@pytest.mark.slow
def test_d_shows_the_board_and_fen(eng):
    eng.send("position startpos moves h2e2 h9g7")
    eng.send("d")
    lines = eng.ping()
    position = Position()
    position.push("h2e2")
    position.push("h9g7")
    assert f"Fen: {position.fen()}" in lines
    assert any(line.startswith("9 r n b a k a b . r") for line in lines)


@pytest.mark.slow
def test_no_legal_move(eng):
    eng.send(f"position fen {MATED_FEN}")
    eng.send("go depth 5")
    lines = eng.read_until("bestmove", timeout=5)
    assert lines[-2:] == ["info depth 0 score mate 0", "bestmove (none)"]


@pytest.mark.slow
def test_no_legal_move_under_infinite_waits_for_stop(eng):
    eng.send(f"position fen {MATED_FEN}")
    eng.send("go infinite")
    assert not any(line.startswith("bestmove") for line in eng.collect(0.3))
    eng.send("stop")
    assert eng.read_until("bestmove", timeout=2)[-1] == "bestmove (none)"


@pytest.mark.slow
def test_repetition_history_from_the_moves_list(eng):
    # Black chases the cannon with its elephant; a third g5e7 would lose by perpetual chase (AXF rules).
    # Without the history g5e7 is the engine's choice; with it the engine must play something else.
    fen = "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1"
    moves = "d6e6 e7g5 e6d6 g5e7 d6e6 e7g5 e6d6"
    position = Position(fen)
    for move in moves.split():
        position.push(move)
    eng.send(f"position fen {fen} moves {moves}")
    eng.send("go depth 8")
    with_history = bestmove_of(eng.read_until("bestmove", timeout=20))
    eng.send("ucinewgame")
    eng.send(f"position fen {position.fen()}")
    eng.send("go depth 8")
    without = bestmove_of(eng.read_until("bestmove", timeout=20))
    print(f"with history: {with_history}, without: {without}")
    assert with_history != "g5e7"


@pytest.mark.slow
def test_new_game_commands_are_accepted_in_uci(eng):
    for line in ("ucinewgame", "uccinewgame", "setoption newgame", "setoption name Clear Hash"):
        eng.send(line)
    assert eng.ping() == []


@pytest.mark.slow
def test_setoption_values_are_applied(eng):
    for line in ("setoption name Hash value 32", "setoption name hash value 8", "setoption name Ponder value true",
                 "setoption name Move Overhead value 50", "setoption name UCI_Variant value xiangqi"):
        eng.send(line)
    assert eng.ping() == []


@pytest.mark.slow
class TestCyclone:
    """No handshake: a bare `position`, `fen` or `startpos` line first (UCI-cyclone style)."""

    def test_bare_fen_then_go(self):
        with EngineDriver() as eng:
            eng.send(f"fen {START_FEN} moves h2e2")
            eng.send("go depth 3")
            lines = eng.read_until("bestmove", timeout=10)
            assert not any(line.startswith(("id ", "uciok")) for line in lines)
            position = Position()
            position.push("h2e2")
            assert bestmove_of(lines) in position.legal_moves()

    def test_bare_startpos_then_d(self):
        with EngineDriver() as eng:
            eng.send("startpos moves h2e2 h9g7")
            eng.send("d")
            position = Position()
            position.push("h2e2")
            position.push("h9g7")
            assert f"Fen: {position.fen()}" in eng.ping()

    def test_position_first_and_ucicyclone(self):
        with EngineDriver() as eng:
            eng.send("ucicyclone")
            eng.send("position startpos")
            eng.send("go depth 2")
            lines = eng.read_until("bestmove", timeout=10)
            assert lines[0].startswith("info depth 1 ")


@pytest.mark.slow
def test_a_terminal_gets_a_help_line():
    pty = pytest.importorskip("pty")
    env = dict(os.environ)
    if any((ROOT / "engine").glob("_core*.so")):
        env["PYTHONPATH"] = str(ROOT)
    master, slave = pty.openpty()
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.Popen([sys.executable, "-m", "engine"], cwd=workdir, env=env, stdin=slave,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(slave)
        try:
            first = proc.stdout.readline().decode()
            os.write(master, b"quit\n")
            assert proc.wait(5) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)
    assert "type 'uci', 'ucci' or 'xboard'" in first


def test_serve_in_process_with_text_streams():
    stdin = io.StringIO("uci\nposition startpos moves h2e2\ngo depth 2\nisready\nbogus\n")
    stdout = io.StringIO()
    assert serve(stdin, stdout) == 0   # end of input stops the search
    lines = stdout.getvalue().splitlines()
    assert "uciok" in lines and "readyok" in lines
    assert sum(line.startswith("bestmove") for line in lines) == 1
    assert any(line.startswith("info string unknown command 'bogus'") for line in lines)

"""UCCI 3.0, driving `python -m engine` as a subprocess."""
from __future__ import annotations

import re
import time

import pytest

from engine import Position
from engine.score import Score
from engine.server.engine import TableEntry
from engine.server.session import LazyEngine
from engine.server.ucci import UcciSession, format_pophash
from support.driver import MATE_IN_ONE_FEN, MATED_FEN, EngineDriver, bestmove_of, mates_in_one

INFO_DEPTH = re.compile(r"^info depth (\d+) score (-?\d+)( pv( [a-i]\d[a-i]\d)+)?$")
INFO_TIME = re.compile(r"^info time (\d+) nodes (\d+)$")

# Red has nothing but its general against Black's whole army.
LOST_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/9/4K4 w - - 0 1"


@pytest.fixture
def eng():
    with EngineDriver() as driver:
        driver.handshake("ucci")
        yield driver


@pytest.mark.slow
def test_handshake_lists_the_options_in_ucci_form():
    with EngineDriver() as eng:
        lines = eng.handshake("ucci")
        assert lines[0].startswith("id name jiangjun")
        options = [line for line in lines if line.startswith("option ")]
        assert not any(" name " in line for line in options)
        names = [line.split()[1] for line in options]
        for name in ("usemillisec", "hashsize", "threads", "ponder", "newgame", "batch", "debug"):
            assert name in names
        assert "option usemillisec type check default false" in options
        assert "option newgame type button" in options
        assert any(re.match(r"^option hashsize type spin min 0 max \d+ default 16$", line) for line in options)
        assert all(line == line.strip() for line in lines)


@pytest.mark.slow
def test_go_depth_output_has_bare_scores(eng):
    eng.send("position startpos moves h2e2")
    eng.send("go depth 4")
    lines = eng.read_until("bestmove", timeout=10)
    depths = [INFO_DEPTH.match(line) for line in lines if line.startswith("info depth")]
    assert all(depths), lines
    assert [int(m.group(1)) for m in depths] == [1, 2, 3, 4]
    assert all(INFO_TIME.match(line) for line in lines if line.startswith("info time"))
    assert any(line.startswith("info time") for line in lines)
    assert not any(" cp " in line for line in lines)
    position = Position()
    position.push("h2e2")
    assert bestmove_of(lines) in position.legal_moves()


@pytest.mark.slow
def test_mate_scores_are_integers_near_30000(eng):
    eng.send(f"position fen {MATE_IN_ONE_FEN}")
    eng.send("go depth 3")
    lines = eng.read_until("bestmove", timeout=10)
    assert bestmove_of(lines) in mates_in_one(MATE_IN_ONE_FEN)
    last = [INFO_DEPTH.match(line) for line in lines if line.startswith("info depth")][-1]
    assert int(last.group(2)) == 29999


@pytest.mark.slow
def test_go_time_is_in_seconds_by_default(eng):
    # 20 s on the clock: the engine thinks for a while (an optimum of some 440 ms, which the first move
    # of a game may use a few times over; the hard limit is about 3 s).
    eng.send("setoption usebook false")     # the time is the search's
    eng.send("go time 600 increment 0")       # ten minutes: an optimum of some 20 s, still searching 0.3 s later
    assert not any(line.startswith("bestmove") for line in eng.collect(0.3))
    eng.send("stop")
    bestmove_of(eng.read_until("bestmove", timeout=5))
    eng.send("go time 0.5 increment 0.1 opptime 1 oppincrement 0.1")   # decimals of a second
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
def test_go_time_in_ms_after_usemillisec(eng):
    eng.send("setoption usemillisec true")
    # 600 ms: an answer at once (read as seconds, the engine would think for some 20 s, past the timeout).
    eng.send("go time 600 increment 0")
    bestmove_of(eng.read_until("bestmove", timeout=5))
    eng.send("go time 3000 movestogo 10 opptime 3000 oppmovestogo 10")
    bestmove_of(eng.read_until("bestmove", timeout=5))


def test_go_times_are_seconds_unless_usemillisec():
    """The session's reading of `go` (in process; the subprocess tests above play it through)."""
    session = UcciSession(LazyEngine(), [].append)
    limits = session.parse_go("time 0.5 increment 0.1 opptime 600 oppincrement 2".split())
    assert (limits.time, limits.increment, limits.opp_time, limits.opp_increment) == (500, 100, 600_000, 2_000)
    session.handle(["setoption", "usemillisec", "true"])
    assert session.parse_go("time 600 increment 20".split()).time == 600
    session.handle(["setoption", "usemillisec", "false"])
    assert session.parse_go("time 600".split()).time == 600_000


@pytest.mark.slow
def test_banmoves_until_the_next_position(eng):
    eng.send(f"position fen {MATE_IN_ONE_FEN}")
    mates = mates_in_one(MATE_IN_ONE_FEN)
    eng.send("banmoves " + " ".join(sorted(mates)))
    eng.send("go depth 3")
    assert bestmove_of(eng.read_until("bestmove", timeout=10)) not in mates
    eng.send(f"position fen {MATE_IN_ONE_FEN}")
    eng.send("go depth 3")
    assert bestmove_of(eng.read_until("bestmove", timeout=10)) in mates


@pytest.mark.slow
def test_banning_every_move_gives_nobestmove(eng):
    eng.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    position = Position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    eng.send(f"banmoves {' '.join(position.legal_moves())}")
    eng.send("go depth 2")
    assert eng.read_until("nobestmove", timeout=5)[-1] == "nobestmove"


@pytest.mark.slow
def test_nobestmove_when_mated(eng):
    eng.send(f"position fen {MATED_FEN}")
    eng.send("go time 10 increment 0")
    assert eng.read_until("nobestmove", timeout=5)[-1] == "nobestmove"


@pytest.mark.slow
def test_depth_0_is_the_static_evaluation(eng):
    # The static evaluation, and a legal move all the same (the one it prefers one ply ahead).
    eng.send("go depth 0")
    lines = eng.read_until("bestmove", timeout=5)
    shown = re.match(r"^info depth 0 score -?\d+ pv ([a-i]\d[a-i]\d)$", lines[-2])
    assert shown and lines[-1] == f"bestmove {shown.group(1)}"


@pytest.mark.slow
def test_draw_offers(eng):
    eng.send(f"position fen {LOST_FEN}")
    eng.send("go draw depth 3")
    assert eng.read_until("bestmove", timeout=10)[-1].endswith(" draw")
    eng.send("go depth 3")
    assert not eng.read_until("bestmove", timeout=10)[-1].endswith(" draw")
    eng.send("position startpos moves h2e2")
    eng.send("go ponder depth 3")
    time.sleep(0.1)
    eng.send("ponderhit draw")
    bestmove_of(eng.read_until("bestmove", timeout=10), draw=True)


@pytest.mark.slow
def test_ponder_and_ponderhit(eng):
    eng.send("setoption usemillisec true")
    eng.send("position startpos moves h2e2")
    eng.send("go ponder time 3000 increment 0")
    assert not any(line.startswith("bestmove") for line in eng.collect(0.4))
    eng.send("ponderhit")                     # the 3 s clock now runs: the engine answers without a stop
    bestmove_of(eng.read_until("bestmove", timeout=5))


@pytest.mark.slow
def test_isready_during_search_and_stop(eng):
    eng.send("go infinite")
    time.sleep(0.2)
    eng.send("isready")
    answered = eng.read_until("readyok", timeout=5)     # the search goes on: answered while it runs
    assert not any(line.startswith("bestmove") for line in answered)
    assert not any(line.startswith("bestmove") for line in eng.collect(0.2))
    eng.send("stop")
    bestmove_of(eng.read_until(lambda text: text.startswith(("bestmove", "nobestmove")), timeout=5))
    assert eng.ping() == []


@pytest.mark.slow
def test_idle_stop_is_silent(eng):
    eng.send("stop")
    assert eng.ping() == []


POPHASH = re.compile(r"^pophash( bestmove ([a-i]\d[a-i]\d))?( lowerbound (-?\d+) depth (\d+))?"
                     r"( upperbound (-?\d+) depth (\d+))?$")


@pytest.mark.parametrize("entry,line", [
    (None, "pophash"),
    (TableEntry("h2e2", "exact", Score(21), 8), "pophash bestmove h2e2 lowerbound 21 depth 8 upperbound 21 depth 8"),
    (TableEntry("h2e2", "lower", Score(-5), 3), "pophash bestmove h2e2 lowerbound -5 depth 3"),
    (TableEntry(None, "upper", Score(-29997), 0), "pophash upperbound -29997 depth 0"),
])
def test_pophash_lines(entry, line):
    assert format_pophash(entry) == line


@pytest.mark.slow
def test_probe_answers_from_the_transposition_table(eng):
    eng.send("probe startpos")
    assert eng.ping() == ["pophash"], "an empty table has no entry"
    eng.send("setoption usebook false")
    eng.send("position startpos")
    eng.send("go depth 6")
    eng.read_until("bestmove", timeout=20)
    eng.send("probe startpos")
    [line] = eng.ping()
    entry = POPHASH.match(line)
    assert entry and entry.group(2) in Position().legal_moves(), line
    assert entry.group(3) or entry.group(6), f"a bound: {line}"
    if entry.group(3) and entry.group(6):   # exact: both bounds, one score and depth
        assert (entry.group(4), entry.group(5)) == (entry.group(7), entry.group(8)), line
    assert int((entry.group(5) or entry.group(8))) >= 1, line
    # A position the search has not seen: nothing but a bare pophash.
    eng.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1")
    assert eng.ping() == ["pophash"]


@pytest.mark.slow
def test_probe_with_a_bad_position_says_why_and_keeps_the_position(eng):
    eng.send("position startpos moves h2e2")
    for bad in ("probe fen xyz", "probe startpos moves h2e2 h2e2", "probe", "probe moves h2e2"):
        eng.send(bad)
    said = eng.ping()
    assert len(said) == 4 and all(line.startswith("info string ") for line in said), said
    after = Position()
    after.push("h2e2")
    eng.send("d")
    assert f"Fen: {after.fen()}" in eng.ping()
    eng.send("probe startpos moves h2e2")
    assert POPHASH.match(eng.ping()[0])


@pytest.mark.slow
def test_probe_reports_a_mate_as_ucci_scores_it(eng):
    eng.send("setoption usebook false")
    eng.send(f"position fen {MATE_IN_ONE_FEN}")
    eng.send("go depth 4")
    lines = eng.read_until("bestmove", timeout=20)
    mate = [int(m.group(2)) for m in map(INFO_DEPTH.match, lines) if m][-1]
    assert mate == 30000 - 1, lines                          # mate in one ply: 30000 - 1
    eng.send(f"probe fen {MATE_IN_ONE_FEN}")
    [line] = eng.ping()
    entry = POPHASH.match(line)
    assert entry and entry.group(2) in mates_in_one(MATE_IN_ONE_FEN), line
    assert int(entry.group(4) or entry.group(7)) == mate, line


@pytest.mark.slow
def test_new_game_forms_and_options(eng):
    for line in ("setoption newgame", "ucinewgame", "uccinewgame", "setoption hashsize 32", "setoption hashsize 0",
                 "setoption threads 2", "setoption threads 0", "setoption ponder true", "setoption batch on",
                 "setoption debug false", "setoption promotion false", "setoption usebook true",
                 "setoption bookfiles BOOK.DAT;OTHER.DAT", "setoption name hashsize value 16"):
        eng.send(line)
    said = eng.ping()
    # usebook and bookfiles say which book is in use; BOOK.DAT is not here: no book, and the engine goes on.
    assert len(said) == 2 and said[0].startswith("info string book moves from"), said
    assert said[1].startswith("info string cannot open book BOOK.DAT") and "without a book" in said[1], said
    eng.send("go depth 3")
    bestmove_of(eng.read_until("bestmove", timeout=10))


@pytest.mark.slow
def test_quit_says_bye_and_exits(eng):
    eng.send("go infinite")
    time.sleep(0.1)
    eng.send("quit")
    lines = eng.read_until("bye", timeout=5)
    assert sum(line.startswith("bestmove") for line in lines) == 1
    assert eng.proc.wait(5) == 0


@pytest.mark.slow
def test_league_style_dialogue():
    """What the UCCI league simulator sends (protocols.md 1.6), for a few moves."""
    with EngineDriver() as eng:
        eng.handshake("ucci")
        for line in ("setoption promotion false", "setoption ponder false", "setoption newgame",
                     "setoption usemillisec true"):
            eng.send(line)
        position = Position()
        for _ in range(4):
            moves = " ".join(position.move_stack)
            eng.send(f"position fen {position.starting_fen} moves {moves}".rstrip())
            eng.send("go time 5000 increment 100 opptime 5000 oppincrement 100")
            move = bestmove_of(eng.read_until("bestmove", timeout=5))
            position.push(move)
        eng.send("quit")
        assert eng.read_until("bye", timeout=3)[-1] == "bye"

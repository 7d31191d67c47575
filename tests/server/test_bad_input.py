"""Bad input, in both dialects: every malformed line gets `info string ...`, is ignored as a whole, and the
engine keeps its position and options and goes on answering. Nothing crashes, hangs or exits."""
from __future__ import annotations

import time

import pytest

from engine import Position
from support.driver import EngineDriver

pytestmark = pytest.mark.slow
SETUP = "position startpos moves h2e2 h9g7"
KEPT = Position()
KEPT.push("h2e2")
KEPT.push("h9g7")

COMMON = [
    "foo bar",
    "位置 startpos",
    "position",
    "position foo",
    "position fen",
    "position fen xyz",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1",       # 9 ranks
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",  # side letter
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - zero 1",
    "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",   # generals face each other: Black is "in check"
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKQBNR w - - 0 1",  # unknown piece
    "position startpos moves h2e2 h2e2",          # the second is illegal
    "position startpos moves h2e2 h9g7 zz99",     # unparsable
    "position startpos moves e0e1 e9e8 e1e0 e8e9 h2e2 h9g7 i0i1 k9k8",
    "position startpos garbage",
    "fen xyz",
    "startpos h2e2",
    "banmoves xyz",
    "banmoves a0a5",                               # not legal here
    "ponderhit now",
    "go perft x",
    "go perft 99",
    "go searchmoves",
    "go depth 3 searchmoves a0a5",                 # not legal here
    "go depth 3 searchmoves h2",
]
UCI_ONLY = [
    "go depth x",
    "go depth -1",
    "go wtime abc btime 1000",
    "go movetime",
    "go nodes 12.5",
    "go mate 0",
    "go bogus 5",
    "go depth 99999999999999999999999999999999999999999999999999",
    "setoption name Hash value abc",
    "setoption name Hash value 0",
    "setoption name Threads value 100000",
    "setoption name MultiPV value",
    "setoption name MultiPV value -3",
    "setoption name Nope value 1",
    "setoption name UCI_Variant value chess",
    "setoption name Ponder value maybe",
    "setoption foo",
    "setoption",
]
UCCI_ONLY = [
    "go depth x",
    "go time abc",
    "go time 10 increment",
    "go time nan",
    "go nodes -5",
    "go wtime 1000 btime 1000",
    "go foo",
    "setoption hashsize abc",
    "setoption hashsize -1",
    "setoption threads 100000",
    "setoption usemillisec maybe",
    "setoption nosuch 1",
    "setoption",
    "probe fen xyz",
]
JUNK = [
    bytes(b for b in range(256) if b != 10),
    b"\xff\xfe\x00\x01go depth 1",
    b"\x00" * 100,
    b"go depth \xff\xff",
    b"position startpos moves h2e2\xc3\x28",
    b"x" * 100_000,
    b"position startpos moves " + b"h2e2 h9g7 " * 10_000,
]
SILENT = [b"", b"   ", b"\t", b"\r", b" \r"]


def check_kept(eng: EngineDriver) -> list[str]:
    """The engine answers, its position is the SETUP one, and no bestmove appeared; returns the lines."""
    eng.send("d")
    lines = eng.ping()
    assert f"Fen: {KEPT.fen()}" in lines, "\n".join(lines)
    assert not any(line.startswith(("bestmove", "nobestmove")) for line in lines)
    return lines


def _engine(dialect: str):
    with EngineDriver() as driver:
        driver.handshake(dialect)
        yield driver
        assert driver.proc.poll() is None, "the engine exited"
        driver.send("quit")
        assert driver.proc.wait(5) == 0
        driver.close()
        assert b"Traceback" not in driver.stderr, driver.stderr.decode(errors="replace")


@pytest.fixture(scope="module")
def uci_engine():
    yield from _engine("uci")


@pytest.fixture(scope="module")
def ucci_engine():
    yield from _engine("ucci")


@pytest.fixture(params=["uci", "ucci"])
def eng(request):
    """The module's UCI engine, then its UCCI engine (one process each, shared by the tests)."""
    return request.getfixturevalue(f"{request.param}_engine")


def _bad(eng: EngineDriver, line) -> None:
    eng.send(SETUP)
    eng.send(line)
    lines = check_kept(eng)
    strings = [text for text in lines if text.startswith("info string ")]
    assert strings, f"no info string for {line!r}: {lines}"
    assert all(len(text) < 1000 for text in lines)
    # The ignored command left no search behind.
    assert not any(text.startswith("bestmove") for text in eng.collect(0.05))


@pytest.mark.parametrize("line", COMMON)
def test_common_bad_lines(eng, line):
    _bad(eng, line)


@pytest.mark.parametrize("line", UCI_ONLY)
def test_bad_uci_lines(uci_engine, line):
    _bad(uci_engine, line)


@pytest.mark.parametrize("line", UCCI_ONLY)
def test_bad_ucci_lines(ucci_engine, line):
    _bad(ucci_engine, line)


@pytest.mark.parametrize("data", JUNK, ids=["all-bytes", "bom-nul", "nuls", "bad-utf8-go", "bad-utf8-move",
                                            "100KB-x", "100KB-position"])
def test_binary_junk_and_long_lines(eng, data):
    eng.send(SETUP)
    eng.send(data)
    lines = check_kept(eng)                   # answered within its ping's timeout: the junk did not stall it
    assert any(text.startswith("info string ") for text in lines)


@pytest.mark.parametrize("data", SILENT, ids=["empty", "spaces", "tab", "cr", "space-cr"])
def test_empty_lines_are_ignored_quietly(eng, data):
    eng.send(SETUP)
    eng.send(data)
    lines = check_kept(eng)
    assert not any(text.startswith("info string") for text in lines)


def test_options_survive_bad_values():
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("setoption name MultiPV value 2")
        for bad in ("setoption name MultiPV value x", "setoption name MultiPV value 0",
                    "setoption name MultiPV value 1000"):
            eng.send(bad)
        assert len(eng.info_strings(eng.ping())) == 3
        eng.send("go depth 2")
        lines = eng.read_until("bestmove", timeout=10)
        assert sum(line.startswith("info depth 2 ") for line in lines) == 2


def test_usemillisec_survives_a_bad_value():
    with EngineDriver() as eng:
        eng.handshake("ucci")
        eng.send("setoption usemillisec true")
        eng.send("setoption usemillisec maybe")
        assert len(eng.info_strings(eng.ping())) == 1
        # Still ms: 600 ms, an answer at once (read as seconds, the engine would think for some 20 s).
        eng.send("go time 600 increment 0")
        eng.read_until("bestmove", timeout=5)


@pytest.mark.parametrize("dialect", ["uci", "ucci"])
def test_bad_input_during_a_search(dialect):
    with EngineDriver() as eng:
        eng.handshake(dialect)
        eng.send(SETUP)
        eng.send("go infinite")
        time.sleep(0.1)
        for line in ("position fen xyz", "go depth x", "setoption name Hash value 64" if dialect == "uci"
                     else "setoption hashsize 64", "blah", "go perft 2"):
            eng.send(line)
        lines = eng.ping()
        assert len(eng.info_strings(lines)) == 5, lines
        assert not any(line.startswith("bestmove") for line in lines)
        eng.send("stop")
        eng.expect("bestmove", timeout=2)
        check_kept(eng)


@pytest.mark.parametrize("dialect", ["uci", "ucci"])
def test_end_of_input_after_junk_exits_cleanly(dialect):
    eng = EngineDriver()
    eng.handshake(dialect)
    eng.send(b"\xff\x00 junk")
    eng.send("go depth 2")
    assert eng.close() == 0
    assert b"Traceback" not in eng.stderr

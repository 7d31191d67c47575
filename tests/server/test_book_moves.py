"""The opening book through the protocols, with the engine as a subprocess: the shipped book answers at
once from the start position, varies, is switched off by OwnBook/usebook, reads ElephantEye's BOOK.DAT
and a BHGUI .obk, and a bad book file is reported while the engine goes on without a book."""
from __future__ import annotations

import re
import tarfile

import pytest

from engine import Position
from engine.book import default_book
from engine.book import obk
from support.driver import EngineDriver, bestmove_of
from support.books import ELEEYE_ARCHIVE, make_keys, make_obk

pytestmark = pytest.mark.slow

BOOK_MOVE = re.compile(r"^info string book move ([a-i]\d[a-i]\d) \(")
CLOCK = "go wtime 60000 btime 60000 winc 1000 binc 1000"


def book_moves(*moves: str) -> set[str]:
    position = Position()
    for move in moves:
        position.push(move)
    return {m.move for m in default_book().moves(position)}


def answer(eng: EngineDriver, go: str = CLOCK, timeout: float = 10.0) -> list[str]:
    eng.send(go)
    return eng.read_until("bestmove", timeout)


@pytest.fixture
def uci():
    with EngineDriver() as driver:
        driver.handshake("uci")
        yield driver


def test_options_are_advertised():
    with EngineDriver() as eng:
        lines = eng.handshake("uci")
        assert "option name OwnBook type check default true" in lines
        assert "option name BookFile type string default ccpd.jjbk" in lines
    with EngineDriver() as eng:
        lines = eng.handshake("ucci")
        assert "option usebook type check default true" in lines
        assert "option bookfiles type string default ccpd.jjbk" in lines


def test_the_book_answers_at_once_from_the_start_with_a_book_move(uci):
    uci.send("position startpos")
    lines = answer(uci)
    found = [BOOK_MOVE.match(line) for line in lines if BOOK_MOVE.match(line)]
    assert len(found) == 1, lines
    move = bestmove_of(lines)
    assert move == found[0].group(1) and move in book_moves()
    # At once: no search at all (how long the answer takes: benchmarks/protocol_latency.py).
    assert not any(line.startswith("info depth") for line in lines)
    uci.send("position startpos moves h2e2")
    assert bestmove_of(answer(uci, "go movetime 5000")) in book_moves("h2e2")


def test_book_moves_vary_between_games(uci):
    played = set()
    for _ in range(30):
        uci.send("ucinewgame")
        uci.send("position startpos")
        lines = answer(uci)
        played.add(bestmove_of(lines))
    assert len(played) >= 2 and played <= book_moves()


def test_analysis_searches_instead(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    uci.expect(lambda line: line.startswith("info depth"), timeout=10)
    uci.send("stop")
    lines = uci.read_until("bestmove", timeout=10)
    assert not any(BOOK_MOVE.match(line) for line in lines)
    lines = answer(uci, "go depth 3")
    assert any(line.startswith("info depth 3") for line in lines)


def test_searchmoves_and_banmoves_are_obeyed(uci):
    uci.send("position startpos")
    for _ in range(5):
        lines = answer(uci, CLOCK + " searchmoves b0c2 a0a1")
        assert bestmove_of(lines) in ("b0c2", "a0a1")
    banned = sorted(book_moves())[:-1]                 # every book move but one
    left = sorted(book_moves())[-1]
    uci.send("position startpos")
    uci.send("banmoves " + " ".join(banned))
    lines = answer(uci)
    assert bestmove_of(lines) == left


def test_ownbook_false_searches(uci):
    uci.send("setoption name OwnBook value false")
    assert uci.ping() == ["info string own book off: every move is searched"]
    uci.send("position startpos")
    lines = answer(uci, "go movetime 300")
    assert not any(BOOK_MOVE.match(line) for line in lines)
    assert any(line.startswith("info depth") for line in lines)


def test_ucci_usebook_false_searches():
    with EngineDriver() as eng:
        eng.handshake("ucci")
        eng.send("position startpos")
        lines = answer(eng, "go time 60 increment 1")
        assert any(BOOK_MOVE.match(line) for line in lines)
        assert lines[-1].split()[1] in book_moves()
        eng.send("setoption usebook false")
        assert eng.ping() == ["info string own book off: every move is searched"]
        # A depth, not the clock: a 60 s clock may be given 10 s and more for its first move.
        lines = answer(eng, "go depth 6")
        assert not any(BOOK_MOVE.match(line) for line in lines)
        assert any(line.startswith("info depth") for line in lines)


@pytest.fixture
def eleeye_book(tmp_path):
    if not ELEEYE_ARCHIVE.exists():
        pytest.skip("ElephantEye's sources are not here")
    with tarfile.open(ELEEYE_ARCHIVE) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("BOOK/BOOK.DAT"))
        (tmp_path / "BOOK.DAT").write_bytes(archive.extractfile(member).read())
    return tmp_path / "BOOK.DAT"


def test_elephanteye_book(eleeye_book):
    with EngineDriver() as eng:
        eng.handshake("ucci")
        eng.send(f"setoption bookfiles {eleeye_book}")
        said = eng.ping()
        assert said == [f"info string book moves from ElephantEye BOOK.DAT book {eleeye_book}"]
        eng.send("position startpos moves h2e2")
        lines = answer(eng, "go time 60 increment 1")
        assert lines[-1].split()[1] in ("h9g7", "b9c7", "h7e7", "b7e7")   # ElephantEye's answers to 炮二平五


def test_bhgui_obk_book(tmp_path, monkeypatch):
    keys = make_keys(tmp_path / "keys.bin")
    monkeypatch.setenv(obk.KEYS_ENV, str(tmp_path / "keys.bin"))
    start = Position()
    make_obk(tmp_path / "mine.obk", keys, [(start, "g3g4", 10, 2, 1, False), (start, "c0e2", 5, 0, 0, False)])
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send(f"setoption name BookFile value {tmp_path / 'mine.obk'}")
        assert eng.ping() == [f"info string book moves from BHGUI .obk book {tmp_path / 'mine.obk'}"]
        eng.send("position startpos")
        played = set()
        for _ in range(12):
            lines = answer(eng)
            played.add(bestmove_of(lines))
        assert played <= {"g3g4", "c0e2"} and "g3g4" in played


@pytest.mark.parametrize("content, reason", [
    (None, "cannot open book"),
    (b"this is not a book\n", "is not an opening book"),
    (b"JJBK\x01\x00\x10\x00", "too short"),
])
def test_a_bad_book_file_is_reported_and_the_engine_goes_on_without_a_book(tmp_path, content, reason):
    path = tmp_path / "bad.book"
    if content is not None:
        path.write_bytes(content)
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send(f"setoption name BookFile value {path}")
        said = eng.ping()
        assert len(said) == 1 and reason in said[0] and said[0].endswith("playing without a book"), said
        eng.send("position startpos")
        lines = answer(eng, "go movetime 200")
        assert not any(BOOK_MOVE.match(line) for line in lines)
        assert any(line.startswith("info depth") for line in lines) and bestmove_of(lines)


def test_cecp_plays_a_book_reply():
    with EngineDriver() as eng:
        eng.send("xboard")
        eng.send("protover 2")
        lines = eng.read_until("feature done=1", timeout=5)
        assert 'feature option="OwnBook -check 1"' in lines
        eng.send("new")
        eng.send("level 0 5 0")
        eng.send("usermove h2e2")
        line, _ = eng.expect(lambda text: text.startswith("move "), timeout=10)
        assert line.split()[1] in book_moves("h2e2")

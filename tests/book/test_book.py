"""The opening book: keys and mirror images, the jiangjun format, building from PGN, the weighted choice,
ElephantEye's BOOK.DAT and BHGUI's .obk, and the shipped book."""
from __future__ import annotations

import logging
import random
import sqlite3
from collections import Counter

import pytest

from engine import Position
from engine.book import BookError, default_book, open_book
from engine.book.build import BuildSettings, build_book
from engine.book.choose import choose, playable
from engine.book.format import Record, write_book
from engine.book import eleeye, obk
from engine.book.keys import canonical_key, decode_move, encode_move, mirror_key, mirror_move
from engine.pgn import Game, likeliest_text
from support.books import ELEEYE_ARCHIVE, make_keys, make_obk
from support.samplewriters import xqf_with_move



def pgn(moves: str, result: str, ecco: str = "") -> str:
    tags = f'[Game "Chinese Chess"]\n[Result "{result}"]\n' + (f'[ECCO "{ecco}"]\n' if ecco else "")
    return f"{tags}\n{moves} {result}\n\n"


# -- keys -----------------------------------------------------------------------------------------------
def test_mirror_move_and_move_codes():
    assert mirror_move("h2e2") == "b2e2" and mirror_move("a0a1") == "i0i1"
    for move in ("a0a1", "h2e2", "i9h7", "e0e1"):
        assert decode_move(encode_move(move)) == move
    with pytest.raises(ValueError):
        decode_move(8100)


def test_a_position_and_its_mirror_image_share_a_key():
    left, right = Position(), Position()
    left.push("h2e2")
    right.push("b2e2")
    assert left.key != right.key
    assert canonical_key(left)[0] == canonical_key(right)[0]
    assert canonical_key(left)[1] != canonical_key(right)[1]      # one of them is stored mirrored
    start = Position()
    assert mirror_key(start) == start.key and canonical_key(start) == (start.key, False)


# -- format ---------------------------------------------------------------------------------------------
def test_write_and_probe_a_book(tmp_path):
    start = Position()
    key = start.key
    path = tmp_path / "small.jjbk"
    write_book(path, [Record(key, encode_move("h2e2"), 30, 20, 30), Record(key, encode_move("b0c2"), 10, 8, 10)],
               {key: "开局"})
    book = open_book(str(path))
    moves = book.moves(start)
    assert [m.move for m in moves] == ["h2e2", "b0c2"]
    assert moves[0].games == 20 and moves[0].score == pytest.approx(0.75)
    assert book.opening_name(start) == "开局"
    after = start.copy()
    after.push("h2e2")
    assert book.moves(after) == [] and book.opening_name(after) is None


def test_damaged_and_foreign_files_are_refused(tmp_path):
    good = tmp_path / "good.jjbk"
    write_book(good, [Record(Position().key, encode_move("h2e2"), 1, 1, 1)], {})
    data = good.read_bytes()
    cases = {"short.jjbk": data[:-3], "empty.bin": b"", "text.txt": b"hello, this is not a book\n",
             "odd.dat": b"\x01" * 13}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(BookError):
            open_book(str(tmp_path / name))
    with pytest.raises(BookError, match="cannot open"):
        open_book(str(tmp_path / "missing.jjbk"))


# -- building -------------------------------------------------------------------------------------------
GAMES = (pgn("1. h2e2 h9g7 2. h0g2 i9h9", "0-1", "C00")
         + pgn("1. b2e2 b9c7 2. b0c2 a9b9", "1/2-1/2", "C00")      # the mirror image of the first line
         + pgn("1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0", "1-0", "C00")    # (the same moves would be the same game)
         + pgn("1. c3c4 g6g5", "0-1", "E00"))                       # a losing first move for Red


def built(tmp_path, **settings):
    (tmp_path / "games.pgn").write_text(GAMES, encoding="utf-8")
    (tmp_path / "copy.pgn").write_text(pgn("1. c3c4 g6g5", "0-1", "E00"), encoding="utf-8")   # a duplicate
    out = tmp_path / "book.jjbk"
    report = build_book([str(tmp_path)], str(out), BuildSettings(**settings))
    return report, open_book(str(out))


def test_build_counts_games_merges_mirror_images_and_keeps_moves_that_scored(tmp_path):
    report, book = built(tmp_path, min_games=1, max_ply=4, min_score=0.35)
    assert report.games == 4 and report.skipped["duplicates"] == 1
    start = Position()
    moves = {m.move: m for m in book.moves(start)}
    assert set(moves) == {"h2e2", "b2e2"}                # the start is symmetric: both kept; c3c4 lost
    assert moves["h2e2"].games == 2 and moves["h2e2"].score == pytest.approx(0.5)
    assert moves["h2e2"].weight == 2 * moves["b2e2"].weight      # weight: points (2 wins + draws)
    after = start.copy()
    after.push("h2e2")
    reply = book.moves(after)
    assert [m.move for m in reply] == ["h9g7"] and reply[0].games == 3      # the mirrored game too
    mirrored = start.copy()
    mirrored.push("b2e2")
    assert [m.move for m in book.moves(mirrored)] == ["b9c7"]              # read back mirrored
    after.push("h9g7")
    assert [m.move for m in book.moves(after)] == ["h0g2"]
    after.push("h0g2")
    assert [m.move for m in book.moves(after)] == ["i9h9"]
    assert book.opening_name(after) == "中炮局 C00"     # ECCO C: a central-cannon opening


def test_build_limits_depth_and_games(tmp_path):
    _, shallow = built(tmp_path, min_games=1, max_ply=1, min_score=0.35)
    after = Position()
    after.push("h2e2")
    assert shallow.moves(Position()) and not shallow.moves(after)
    _, popular = built(tmp_path, min_games=3, max_ply=4, min_score=0.35)
    assert not popular.moves(Position()) and [m.move for m in popular.moves(after)] == ["h9g7"]


def test_build_counts_a_damaged_game_as_far_as_it_reads_and_says_so_once(tmp_path, caplog):
    # PGN: the first game's 2. h2h9 is illegal (the cannon has left h2); nothing of the second reads.
    (tmp_path / "damaged.pgn").write_text(pgn("1. h2e2 h9g7 2. h2h9 i9h9", "1/2-1/2") + pgn("1. a0a5", "0-1"),
                                          encoding="utf-8")
    # XQF: the third move of 1. c3c4 g6g5 2. b0c2 replaced by an illegal one.
    game = Game(headers={"Result": "0-1"}, moves=["c3c4", "g6g5", "b0c2"], result="0-1")
    (tmp_path / "damaged.xqf").write_bytes(xqf_with_move(game, 2, "a0a5"))
    with caplog.at_level(logging.WARNING):
        report = build_book([str(tmp_path)], str(tmp_path / "book.jjbk"), BuildSettings(min_games=1, max_ply=4))
    assert report.games == 2 and report.read_in_part == 2 and report.skipped["games that do not read"] == 1
    assert "2 of them as far as they read" in report.summary() and len(report.unread) == 3
    warnings = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(warnings) == 1 and warnings[0].name == "engine.book.build", caplog.text   # none per file
    assert warnings[0].getMessage().startswith("3 games could not be read whole")
    book = open_book(str(tmp_path / "book.jjbk"))
    after = Position()
    after.push("h2e2")
    assert [m.move for m in book.moves(after)] == ["h9g7"]          # the moves before the damage count
    after.push("h9g7")
    assert book.moves(after) == []                                  # and nothing after it
    opened = Position()
    opened.push("c3c4")
    assert [m.move for m in book.moves(opened)] == ["g6g5"]


def test_big5_and_gbk_files_are_told_apart():
    text = '[Game "Chinese Chess"]\n\n1. 炮二平五 馬８進７ 1-0\n'
    assert likeliest_text(text.encode("cp950")) == text
    simplified = '[Game "Chinese Chess"]\n\n1. 炮二平五 马8进7 1-0\n'
    assert likeliest_text(simplified.encode("gbk")) == simplified
    assert likeliest_text(simplified.encode("utf-8")) == simplified


# -- choosing -------------------------------------------------------------------------------------------
def two_move_book(tmp_path):
    key = Position().key
    path = tmp_path / "two.jjbk"
    write_book(path, [Record(key, encode_move("h2e2"), 300, 300, 300),
                      Record(key, encode_move("b0c2"), 100, 100, 100)], {})
    return open_book(str(path))


def test_choice_follows_the_weights_and_the_exclusions(tmp_path):
    book = two_move_book(tmp_path)
    rng = random.Random(1)
    picks = Counter(choose(book, Position(), rng=rng).move.move for _ in range(2000))
    assert set(picks) == {"h2e2", "b0c2"} and 0.68 < picks["h2e2"] / 2000 < 0.82
    assert choose(book, Position(), banmoves=["h2e2"], rng=rng).move.move == "b0c2"
    assert choose(book, Position(), searchmoves=["b0c2", "a0a1"], rng=rng).move.move == "b0c2"
    assert choose(book, Position(), banmoves=["h2e2", "b0c2"], rng=rng) is None


def test_no_book_move_into_a_repetition_ruling(tmp_path):
    # Chariots shuffle: after a0a1 a9a8 a1a0 a8a9 twice, a0a1 brings a position back a third time.
    position = Position()
    for move in ["a0a1", "a9a8", "a1a0", "a8a9"] * 2:
        position.push(move)
    repeated = position.copy()
    repeated.push("a0a1")
    assert repeated.outcome() is not None                  # the repetition ruling (a draw)
    path = tmp_path / "rep.jjbk"
    key = canonical_key(position)[0]
    write_book(path, [Record(key, encode_move("a0a1"), 10, 10, 10), Record(key, encode_move("h2e2"), 1, 1, 1)], {})
    book = open_book(str(path))
    assert {m.move for m in book.moves(position)} == {"a0a1", "h2e2"}
    assert [m.move for m in playable(book, position)] == ["h2e2"]


# -- ElephantEye ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def eleeye_book(tmp_path_factory):
    if not ELEEYE_ARCHIVE.exists():
        pytest.skip("ElephantEye's sources are not here")
    import tarfile
    folder = tmp_path_factory.mktemp("eleeye")
    with tarfile.open(ELEEYE_ARCHIVE) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("BOOK/BOOK.DAT"))
        (folder / "BOOK.DAT").write_bytes(archive.extractfile(member).read())
    return folder / "BOOK.DAT"


def test_eleeye_keys_follow_its_rc4_table():
    side, table = eleeye.lock_tables()
    assert len(table) == 14 and all(len(row) == 256 for row in table)
    # The RC4 keystream of a four-byte zero key starts de 18 89 41 (the first 32-bit number, little-endian).
    assert eleeye._rc4_numbers(1) == [0x418918DE]
    assert eleeye.square_code(0, 9) == 0x33 and eleeye.square_code(8, 0) == 0xCB
    assert eleeye.decode_move(0x33 + 0x43 * 256) == "a9a8"


def test_eleeye_book_answers_the_start_and_its_replies(eleeye_book):
    book = open_book(str(eleeye_book))
    assert book.format_name == "ElephantEye BOOK.DAT"
    start = Position()
    moves = [m.move for m in book.moves(start)]
    assert {"h2e2", "b2e2", "c3c4", "g3g4", "g0e2", "c0e2", "h0g2", "b0c2"} <= set(moves)
    after = start.copy()
    after.push("h2e2")
    assert book.moves(after)[0].move == "h9g7"              # 马8进7 against the central cannon
    mirrored = start.copy()
    mirrored.push("b2e2")                                    # found as the mirror image of the entry above
    assert book.moves(mirrored)[0].move == "b9c7"


# -- BHGUI .obk -----------------------------------------------------------------------------------------
def test_obk_move_codes():
    assert obk.decode_move(obk.encode_move("h2e2")) == "h2e2"
    assert obk.square_code(0, 9) == 0x33 and obk.square_code(8, 0) == 0xCB


def test_obk_book_is_read_with_its_key_table(tmp_path, monkeypatch):
    keys = make_keys(tmp_path / "keys.bin")
    monkeypatch.setenv(obk.KEYS_ENV, str(tmp_path / "keys.bin"))
    start = Position()
    after = start.copy()
    after.push("b2e2")
    make_obk(tmp_path / "small.obk", keys, [(start, "h2e2", 30, 10, 10, False), (start, "c3c4", 5, 5, 5, False),
                                            (after, "b9c7", 20, 0, 0, True)])
    book = open_book(str(tmp_path / "small.obk"))
    assert book.format_name == "BHGUI .obk"
    moves = book.moves(start)
    assert [m.move for m in moves] == ["h2e2", "c3c4"] and moves[0].games == 50
    assert [m.move for m in book.moves(after)] == ["b9c7"]


def test_obk_without_a_key_table_is_refused_with_a_reason(tmp_path, monkeypatch):
    monkeypatch.delenv(obk.KEYS_ENV, raising=False)
    monkeypatch.setattr(obk, "KEYS_FILE", tmp_path / "absent.bin")
    make_obk(tmp_path / "small.obk", tuple(range(obk.KEY_COUNT)), [])
    with pytest.raises(BookError, match="Zobrist table"):
        open_book(str(tmp_path / "small.obk"))


def test_an_sqlite_file_that_is_not_a_bhgui_book(tmp_path, monkeypatch):
    make_keys(tmp_path / "keys.bin")
    monkeypatch.setenv(obk.KEYS_ENV, str(tmp_path / "keys.bin"))
    db = sqlite3.connect(tmp_path / "other.obk")
    db.execute("CREATE TABLE t(x)")
    db.commit()
    db.close()
    with pytest.raises(BookError, match="not a BHGUI book"):
        open_book(str(tmp_path / "other.obk"))


# -- the shipped book -----------------------------------------------------------------------------------
def test_the_shipped_book_knows_the_main_openings():
    """(How long a probe takes: benchmarks/protocol_latency.py.)"""
    book = default_book()
    start = Position()
    moves = [m.move for m in book.moves(start)]
    assert moves[0] in ("h2e2", "b2e2") and {"h2e2", "c3c4", "g0e2", "b0c2"} <= set(moves)
    after = start.copy()
    after.push("h2e2")
    assert "h9g7" in [m.move for m in book.moves(after)]
    assert book.opening_name(after) is not None

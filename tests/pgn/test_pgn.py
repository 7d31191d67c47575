"""Tests for engine.pgn: reading and writing Xiangqi PGN.

The sample files in tests/data/pgn hold one opening line written in ICCS
(xqbase style, H2-E2), WXF, simplified Chinese in GBK with CRLF line ends and
traditional Chinese in UTF-8 with a BOM; all must read to the same moves.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import List, Optional

import pytest

from engine import START_FEN, Position
from engine.pgn import (NOTATIONS, SEVEN_TAG_ROSTER, Game, PgnError, Variation, iter_games, read_games,
                        write_game, write_games)
from engine.pgn.writer import FORMAT_TAGS
from support import DATA

PGN_DIR = DATA / "pgn"

# The line in every sample file: 中炮过河车对屏风马, 15 moves each side.
OPENING = ("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 b0c2 d9e8 c2d4 i8g8 "
           "g6f6 g7h5 b2c2 a9b9 a0b0 b7b3 f6f4 c6c5 e3e4 c9e7 e4e5 e6e5 d4e6 h5g3").split()
OPENING_FEN = "1r2kabr1/4a1c2/2n1b4/p3N3p/2p1p1p2/2P2R3/Pc4n1P/2C1C1N2/9/1RBAKAB2 w - - 0 16"
MATE_FEN = "4k4/R8/9/9/9/9/9/9/9/3K4R b - - 0 1"


def data(name: str) -> Path:
    return PGN_DIR / name


# ---------------------------------------------------------------------------
# Reading the sample files
# ---------------------------------------------------------------------------

def test_xqbase_iccs_file() -> None:
    games = read_games(data("xqbase_iccs.pgn"))
    assert len(games) == 2
    first, second = games
    assert list(first.headers) == ["Game", "Event", "Site", "Date", "Round", "Red", "Black",
                                   "Result", "Opening", "ECCO", "Format"]
    assert first.headers["Red"] == "Wang Tianyi"
    assert first.moves == OPENING
    assert first.comments == [None] * len(OPENING)
    assert first.result == "*"
    assert first.start_comment is None
    assert first.end_position().fen() == OPENING_FEN
    assert first.starting_fen() == START_FEN
    assert second.moves == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert second.result == "0-1"
    assert second.headers["TimeControl"] == "900+10"
    assert second.headers["Termination"] == "resignation"


def test_wxf_file_reads_to_the_same_moves() -> None:
    (game,) = read_games(data("wxf.pgn"))
    assert game.headers["Format"] == "WXF"
    assert game.moves == OPENING


def test_gbk_and_traditional_utf8_read_to_the_same_moves() -> None:
    (gbk,) = read_games(data("chinese_gbk.pgn"))
    (trad,) = read_games(data("chinese_traditional_utf8.pgn"))
    assert gbk.moves == trad.moves == OPENING
    assert gbk.headers["Event"] == "全国象棋个人赛"
    assert trad.headers["Event"] == "全國象棋個人賽"
    assert list(trad.headers)[0] == "Game"  # the BOM is not part of the first tag
    assert gbk.start_comment == "中炮过河车对屏风马平炮兑车。"
    assert trad.start_comment == "中炮過河車對屏風馬平炮兌車。"
    assert gbk.end_position() == trad.end_position()


def test_encoding_override_and_source_kinds() -> None:
    raw = data("chinese_gbk.pgn").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")  # the file really is GBK
    text = raw.decode("gbk")
    path = data("chinese_gbk.pgn")
    sources = [path, str(path), raw, bytearray(raw), text, io.BytesIO(raw), io.StringIO(text)]
    for source in sources:
        (game,) = read_games(source)  # type: ignore[arg-type]
        assert game.moves == OPENING, type(source)
        assert game.headers["Red"] == "王天一"
    assert read_games(raw, encoding="gbk")[0].moves == OPENING
    assert read_games(raw, encoding="gb18030")[0].headers["Black"] == "郑惟桐"
    with pytest.raises(PgnError, match="ascii"):
        read_games(raw, encoding="ascii")


def test_undecodable_bytes_and_missing_file() -> None:
    with pytest.raises(PgnError, match="none of the encodings tried: UTF-8 .*, GBK .*, Big5 "):
        read_games(b'[Event "\x81\x30\x81"]')
    with pytest.raises(FileNotFoundError):
        read_games("no/such/file.pgn")
    with pytest.raises(TypeError):
        read_games(42)  # type: ignore[arg-type]


def test_utf16_with_bom() -> None:
    text = write_game(Game(headers={"Event": "测试"}, moves=["h2e2"]), "chinese")
    (game,) = read_games(text.encode("utf-16"))
    assert game.moves == ["h2e2"] and game.headers["Event"] == "测试"


def test_empty_sources() -> None:
    assert read_games("") == []
    assert read_games(b"\xef\xbb\xbf\n\n") == []
    assert read_games("{just a stray comment}") == []


# ---------------------------------------------------------------------------
# Movetext details
# ---------------------------------------------------------------------------

def test_comments_nags_variations_and_escapes_are_handled() -> None:
    (game,) = read_games(data("annotated.pgn"))
    assert game.headers["Event"] == 'Annotated "classic"'
    assert game.moves == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "g6g5", "h0h6", "b9c7"]
    assert game.start_comment == "The central cannon opening."
    assert game.comments == ["Red takes the centre.", None, None, "Black develops the chariot",
                             None, "Blocks the horse's path. A second comment.", None, None]
    assert game.result == "1-0"
    assert game.variations == {1: [Variation(["h7e7", "h0g2", "h9g7"], ["Same-direction cannons.", None, None],
                                             {1: [Variation(["b0c2"], ["a sideline"])]}),
                                   Variation(["b9c7"])]}
    assert game.errors == []


def test_variations_are_read_as_the_writer_writes_them() -> None:
    # An alternative to a variation's first move is a line beside it; a comment before a variation's first
    # move is that move's.
    (game,) = read_games("1. h2e2 (1. b2e2 (1. c3c4) 1... h9g7) (1. {other} h0g2 {horse}) h9g7 2. h0g2 *")
    assert game.moves == ["h2e2", "h9g7", "h0g2"]
    assert game.variations == {0: [Variation(["b2e2", "h9g7"]), Variation(["c3c4"]),
                                   Variation(["h0g2"], ["other horse"])]}
    again = Game(moves=game.moves, variations=game.variations)
    assert read_games(write_game(again, notation="chinese"))[0].variations == game.variations


def test_fen_start_game_replays_to_mate() -> None:
    (game,) = read_games(data("fen_mate.pgn"))
    assert game.starting_fen() == MATE_FEN
    assert game.moves == ["e9f9", "i0i9"]
    assert game.start_comment == "Black's general has one move."
    assert game.comments == [None, "Mate on the back rank."]
    end = game.end_position()
    outcome = end.outcome()
    assert outcome is not None and outcome.reason == "checkmate" and outcome.result == game.result
    text = write_game(game, "chinese")
    assert "1... 将5平6 2. 车一进九" in text
    assert read_games(text)[0].moves == game.moves


@pytest.mark.parametrize("movetext, moves", [
    ("1.h2e2 1...h9g7 2.H0-G2", ["h2e2", "h9g7", "h0g2"]),
    ("1. h2e2 ... h9g7", ["h2e2", "h9g7"]),
    ("1 h2e2 h9g7", ["h2e2", "h9g7"]),
    ("１．炮二平五 马８进７", ["h2e2", "h9g7"]),
    ("1. h2-e2+ h9g7?? 2. C8=6!!", ["h2e2", "h9g7", "b2d2"]),
    ("1. C2.5 $2 $13 H8+7", ["h2e2", "h9g7"]),
    ("1. h2e2 (1. b2e2 (1. c3c4) 1... h9g7) (1. h0g2) h9g7", ["h2e2", "h9g7"]),
    ("1. 炮二平五\u3000馬８進７", ["h2e2", "h9g7"]),
])
def test_movetext_forms(movetext: str, moves: List[str]) -> None:
    (game,) = read_games(movetext)
    assert game.moves == moves


def test_wxf_tandem_soldier_is_not_a_move_number() -> None:
    fen = "5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1"  # three Red soldiers on file 7
    (game,) = read_games(f'[FEN "{fen}"]\n1. 77.6 f9f8 2.7+.8 *')
    assert game.moves == ["c6d6", "f9f8", "c7b7"]


def test_result_from_token_or_tag() -> None:
    assert read_games("1. h2e2 h9g7 1/2-1/2")[0].result == "1/2-1/2"
    assert read_games('[Result "0-1"]\n1. h2e2 h9g7')[0].result == "0-1"
    assert read_games('[Result "0-1"]\n1. h2e2 h9g7 *')[0].result == "0-1"
    assert read_games("1. h2e2")[0].result == "*"


def test_games_without_result_tokens_split_at_tags() -> None:
    games = read_games('[Event "a"]\n1. h2e2\n[Event "b"]\n1. b2e2 h9g7\n')
    assert [g.headers["Event"] for g in games] == ["a", "b"]
    assert [g.moves for g in games] == [["h2e2"], ["b2e2", "h9g7"]]


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_illegal_move_names_game_line_move_number_and_token() -> None:
    with pytest.raises(PgnError) as info:
        read_games(data("illegal.pgn"), errors="raise")
    err = info.value
    assert (err.game_number, err.event, err.line) == (2, "Bad game", 13)
    assert (err.move_number, err.side, err.token) == (3, "black", "马8进7")
    message = str(err)
    assert "illegal.pgn" in message and "game 2" in message and 'Event "Bad game"' in message
    assert "move 3 (Black) '马8进7'" in message
    assert "no Black horse on file 8" in message
    # the good game before it is still delivered by the generator
    games = iter_games(data("illegal.pgn"), errors="raise")
    assert next(games).moves == ["h2e2", "h9g7"]
    with pytest.raises(PgnError):
        next(games)


def test_an_illegal_main_line_move_keeps_the_moves_before_it(caplog: pytest.LogCaptureFixture) -> None:
    good, bad = read_games(data("illegal.pgn"))
    assert good.moves == ["h2e2", "h9g7"] and good.errors == []
    assert bad.moves == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"] and bad.result == "*"
    (error,) = bad.errors
    assert (error.game_number, error.line, error.move_number, error.side, error.token) == (2, 13, 3, "black",
                                                                                          "马8进7")
    with pytest.raises(PgnError) as strict:
        read_games(data("illegal.pgn"), errors="raise")
    assert str(error) == str(strict.value)
    assert [r.getMessage() for r in caplog.records] == [
        f"{data('illegal.pgn')}: 1 of 2 games could not be read whole, kept as far as they read; the first: "
        f"{error.in_file()}"]
    # What follows the illegal move is passed over, variations too; the result is still read.
    (game,) = read_games("1. h2e2 h9g7 2. h0h5 {lost} (2. h0g2) i9h9 3. b0c2 1-0")
    assert game.moves == ["h2e2", "h9g7"] and game.variations == {} and game.comments == [None, None]
    assert game.result == "1-0" and game.errors[0].token == "h0h5"
    failures: list = []
    assert [g.number for g in read_games(data("illegal.pgn"), errors="skip", failures=failures)] == [1]
    assert [f.game_number for f in failures] == [2]


def test_a_broken_variation_keeps_the_main_line() -> None:
    text = ('[Event "v"]\n1. h2e2 h9g7 (1... h7e7 2. h0g2 h7h0 3. b0c2) (1... b9c7) 2. h0g2 '
            '(2. b0c2 (2. h2h9) b9c7) i9h9 1-0')
    (game,) = read_games(text)
    assert game.moves == ["h2e2", "h9g7", "h0g2", "i9h9"] and game.result == "1-0"
    assert game.variations == {1: [Variation(["h7e7", "h0g2"]), Variation(["b9c7"])],
                               2: [Variation(["b0c2", "b9c7"])]}          # 2. h2h9 had no legal first move
    first, second = game.errors
    assert (first.move_number, first.side, first.token) == (2, "black", "h7h0")
    assert first.reason.endswith("(a variation of Black's move 1)")
    assert (second.move_number, second.side, second.token) == (2, "red", "h2h9")
    assert second.reason.endswith("(a variation of Red's move 2)")
    with pytest.raises(PgnError, match=r"move 2 \(Black\) 'h7h0'.*a variation of Black's move 1"):
        read_games(text, errors="raise")


@pytest.mark.parametrize("text, fragment, moves", [
    ("1. h2e2 {never closed", "line 1: a comment '{' is never closed", ["h2e2"]),
    ("[Event \"x\"]\n\n1. h2e2 (1. b2e2\n", "line 3: a variation '(' is never closed", ["h2e2"]),
    ("1. h2e2 ) h9g7", "')' closes a variation that was never opened", ["h2e2", "h9g7"]),
    ('[FEN "9/9/9 w"]\n1. h2e2', "invalid FEN tag", []),
    ("[Event no end\n1. h2e2", "malformed tag", ["h2e2"]),
    ("1. h2e2 ] h9g7", "a ']' outside a tag", ["h2e2", "h9g7"]),
    ("(1. c3c4) 1. h2e2", "a variation '(' before any move", ["h2e2"]),
    ("1. h2e2 h9g7 2. zz", "move 2 (Red) 'zz'", ["h2e2", "h9g7"]),
    ("1. h2e2 h2e2", "move 1 (Black) 'h2e2'", ["h2e2"]),
])
def test_malformed_input(text: str, fragment: str, moves: List[str]) -> None:
    with pytest.raises(PgnError, match=None) as info:
        read_games(text, errors="raise")
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)
    (game,) = read_games(text)             # by default, what reads
    assert game.moves == moves and fragment in str(game.errors[0])


def test_text_that_is_no_token_stays_with_its_game() -> None:
    text = '[Event "a"]\n1. h2e2 *\n[Event "b"\n[Red "r"]\n1. b2e2 *\n[Event "c"]\n1. c3c4 {open'
    a, b, c = read_games(text)
    assert (a.errors, a.moves) == ([], ["h2e2"])
    assert b.headers == {"Red": "r"} and b.moves == ["b2e2"] and "malformed tag" in b.errors[0].reason
    assert b.errors[0].game_number == 2 and b.errors[0].line == 3
    assert c.moves == ["c3c4"] and "never closed" in c.errors[0].reason and c.comments == [None]


def test_games_of_another_variant_come_back_without_moves() -> None:
    (game,) = read_games('[Variant "janggi"]\n1. h2e2 *')
    assert game.moves == [] and game.headers["Variant"] == "janggi" and "not a Xiangqi game" in str(game.errors[0])


def test_errors_says_what_it_accepts() -> None:
    with pytest.raises(ValueError, match="'keep', 'skip', 'raise'"):
        read_games("1. h2e2", errors="strict")


def test_game_checks_its_comment_list() -> None:
    assert Game(moves=["h2e2"]).comments == [None]
    with pytest.raises(ValueError):
        Game(moves=["h2e2"], comments=["a", "b"])


def test_write_rejects_bad_games() -> None:
    with pytest.raises(ValueError, match="notation"):
        write_game(Game(), "algebraic")
    with pytest.raises(PgnError, match="move 2"):
        write_game(Game(moves=["h2e2", "h9g7", "h2e2"]), "iccs")
    with pytest.raises(PgnError, match="move 2"):
        write_game(Game(moves=["h2e2", "h9g7", "e2e2"]), "wxf")
    with pytest.raises(PgnError, match="result"):
        write_game(Game(result="2-0"))
    with pytest.raises(PgnError) as info:
        Game(moves=["h2e2", "h2e2"]).end_position()
    assert info.value.move_number == 1 and info.value.side == "black"


# ---------------------------------------------------------------------------
# Writing and round trips
# ---------------------------------------------------------------------------

COMMENT_POOL = ["好棋!", ("A long comment " * 8).strip(), "two\nlines", "", "braces { inside",
                "引号 \"quoted\""]


def random_game(seed: int, fen: str = START_FEN, plies: int = 70) -> Game:
    """A game of random legal moves with random comments."""
    rng = random.Random(seed)
    position = Position(fen)
    moves: List[str] = []
    comments: List[Optional[str]] = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal or position.outcome() is not None:
            break
        move = rng.choice(sorted(legal))
        position.push(move)
        moves.append(move)
        comments.append(rng.choice(COMMENT_POOL) if rng.random() < 0.15 else None)
    headers = {"Game": "Chinese Chess", "Event": f'Random "{seed}" \\ test', "Site": "上海",
               "Date": "2024.01.02", "Round": "1", "Red": "红方", "Black": "黑方",
               "Result": "1/2-1/2", "Annotator": "jiangjun"}
    if fen != START_FEN:
        headers["FEN"] = fen
    return Game(headers, moves, comments, "1/2-1/2", start_comment="开局 comment")


ROUND_TRIP_GAMES = [random_game(1), random_game(2),
                    random_game(3, "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR b - - 4 3")]


@pytest.mark.parametrize("notation", sorted(NOTATIONS))
def test_round_trip_in_every_notation(notation: str) -> None:
    for game in ROUND_TRIP_GAMES:
        text = write_game(game, notation)
        (back,) = read_games(text)
        assert back.moves == game.moves
        assert back.comments == game.comments
        assert back.result == game.result
        assert back.start_comment == game.start_comment
        if notation == "san":  # XBoard's tags: White for Red, Variant, no Game or Format (test_xboard.py)
            assert back.headers["White"] == game.headers.get("Red", back.headers["White"])
        else:
            assert back.headers == {**game.headers, "Format": FORMAT_TAGS[notation]}
        assert back.end_position() == game.end_position()


def test_written_layout() -> None:
    game = read_games(data("xqbase_iccs.pgn"))[0]
    game.headers = {"Opening": "x", "Black": "B", "Format": "WXF", "Event": "E", "Red": "R",
                    "FEN": START_FEN}
    text = write_game(game, "chinese")
    header_lines = text.split("\n\n")[0].splitlines()
    names = [line[1:].split(" ")[0] for line in header_lines]
    assert names == ["Game", "Event", "Red", "Black", "Result", "FEN", "Format", "Opening"]
    assert '[Format "Chinese"]' in header_lines and '[Game "Chinese Chess"]' in header_lines
    movetext = text.split("\n\n")[1]
    assert movetext.startswith("1. 炮二平五 马8进7 2. 马二进三 车9平8")
    assert movetext.rstrip().endswith("*")
    for notation in NOTATIONS:
        for line in write_game(game, notation).splitlines():
            width = sum(2 if "\u4e00" <= ch <= "\u9fff" else 1 for ch in line)
            assert width <= 80, line
    iccs = write_game(game, "iccs")
    assert "1. h2e2 h9g7" in iccs and '[Format "ICCS"]' in iccs
    assert "1. C2.5 H8+7" in write_game(game, "wxf")


def test_comment_numbering_and_closing_brace() -> None:
    game = Game(moves=["h2e2", "h9g7", "h0g2"], comments=["after red", "x}y", None])
    text = write_game(game)
    assert "1. h2e2 {after red} 1... h9g7 {x\uff5dy} 2. h0g2 *" in text
    assert read_games(text)[0].comments == ["after red", "x\uff5dy", None]


def test_write_games_append_and_gbk(tmp_path: Path) -> None:
    games = read_games(data("chinese_gbk.pgn")) + read_games(data("xqbase_iccs.pgn"))
    target = tmp_path / "out.pgn"
    assert write_games(target, games[:1], notation="chinese", encoding="gbk") == 1
    assert write_games(target, games[1:], notation="wxf", encoding="gbk", append=True) == 2
    raw = target.read_bytes()
    raw.decode("gbk")  # really GBK
    back = read_games(target)
    assert [g.moves for g in back] == [g.moves for g in games]
    assert [g.headers["Format"] for g in back] == ["Chinese", "WXF", "WXF"]
    assert back[0].headers["Event"] == "全国象棋个人赛"
    write_games(str(target), games, notation="iccs")  # overwrite, UTF-8
    assert [g.moves for g in read_games(str(target))] == [g.moves for g in games]
    assert list(read_games(target)[0].headers)[:len(SEVEN_TAG_ROSTER)] == \
        ["Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result"]

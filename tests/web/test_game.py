"""engine.web.game: one tab's game, without a browser or a server (the page's part: test_browser.py)."""
from __future__ import annotations

import pytest

from support import DATA
from engine import START_FEN, Position
from engine.web.game import MAX_UPLOAD_BYTES, WebGame, WebInputError


def test_moves_in_any_notation_and_their_texts():
    game = WebGame()
    assert game.play("炮二平五") == "h2e2"
    assert game.play("H8+7") == "h9g7"
    state = game.state()
    assert [m["chinese"] for m in state["moves"]] == ["炮二平五", "马8进7"]
    assert [m["wxf"] for m in state["moves"]] == ["C2.5", "H8+7"]
    assert state["last"] == "h9g7" and state["turn"] == "red"
    assert state["moves"][-1]["fen"] == state["fen"]
    assert "e1" in state["targets"]["e2"]     # the cannon can move on


def test_an_illegal_move_is_refused_and_the_game_kept():
    game = WebGame()
    game.play("h2e2")
    with pytest.raises(WebInputError, match="illegal move"):
        game.play("h2e2")
    assert game.position.move_stack == ["h2e2"]


def test_a_bad_fen_keeps_the_game():
    game = WebGame()
    game.play("h2e2")
    with pytest.raises(WebInputError, match="bad FEN"):
        game.new("rnbakabnr/9 w")
    assert game.position.move_stack == ["h2e2"]
    game.new("3k5/9/9/9/9/9/9/9/9/4K4 w")
    assert game.position.fen().startswith("3k5/")


def test_check_and_the_ruling_shown():
    game = WebGame("3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1")
    game.play("f1e1")
    game.play("f2e2")                             # Black's soldier checks
    assert game.state()["check"] == "e1"
    for move in "e1f1 e2f2 f1e1 f2e2 e1f1 e2f2".split():
        game.play(move)
    assert game.state()["outcome"] == {"result": "1-0", "reason": "perpetual_check", "words": "perpetual check",
                                       "winner": "red"}
    assert game.state()["targets"] == {}
    with pytest.raises(WebInputError, match="over"):
        game.play("f1e1")


def test_take_back_truncate_and_play_line():
    game = WebGame()
    game.play_line(["h2e2", "h9g7", "h0g2"])
    assert game.take_back(2) == 2 and game.position.move_stack == ["h2e2"]
    with pytest.raises(WebInputError):
        game.play_line(["h9g7", "h9g7"])          # the second is illegal: nothing is played
    assert game.position.move_stack == ["h2e2"]
    game.truncate(0)
    assert game.position.move_stack == []


def test_book_moves_and_the_opening_name():
    game = WebGame()
    game.play("h2e2")
    book = game.state()["book"]
    assert book["name"] and book["moves"][0]["chinese"] == "马8进7"


def test_pgn_files_several_games_and_limits():
    data = (DATA / "pgn" / "chinese_gbk.pgn").read_bytes()
    game = WebGame()
    count = game.load_pgn(data).games
    assert count >= 1 and game.position.move_stack
    two = data + b"\n\n" + data
    assert game.load_pgn(two).games == 2 * count
    assert len(game.state()["games"]) == 2 * count
    game.choose(1)
    with pytest.raises(WebInputError, match="no game"):
        game.choose(99)
    with pytest.raises(WebInputError, match="too large"):
        game.load_pgn(b" " * (MAX_UPLOAD_BYTES + 1))
    kept = list(game.position.move_stack)
    for unreadable in (b"1. zz *", b"garbage", b'[Event "x"]\n[FEN "bad"]\n\n1. h2e2 *'):
        with pytest.raises(WebInputError, match="cannot read"):
            game.load_pgn(unreadable)
        assert game.position.move_stack == kept


def test_a_file_that_reads_in_part_is_opened_as_far_as_it_reads_with_a_note():
    game = WebGame()
    reading = game.load_pgn((DATA / "pgn" / "illegal.pgn").read_bytes())   # its 2nd game has an illegal move
    assert reading.games == 2 and game.position.move_stack == ["h2e2", "h9g7"]
    assert reading.note == "1 other game of the file did not read whole"
    note = game.choose(1)
    assert game.position.move_stack == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    assert note.startswith("the game was read up to what could not be: ") and "马8进7" in note
    assert game.load_text("1. h2e2 h9g7 2. zz").startswith("the game was read up to")
    assert game.position.move_stack == ["h2e2", "h9g7"]
    assert game.load_text("1. h2e2 } h9g7 *") is not None          # a stray brace: read, not looped on
    assert game.position.move_stack == ["h2e2", "h9g7"]


def test_the_move_texts_kept_between_changes_are_those_of_the_game():
    game = WebGame()
    for move in ["h2e2", "h9g7", "h0g2", "i9h9"]:
        game.play(move)
    first = game.state()["moves"]
    game.take_back(2)
    game.play("b0c2")
    game.play("b9c7")
    again = WebGame()
    again.play_line(["h2e2", "h9g7", "b0c2", "b9c7"])
    assert game.state()["moves"] == again.state()["moves"] != first
    game.new("4k4/9/9/9/9/9/9/9/R8/3K5 w")                     # another start: nothing kept of the first
    game.play("a1a2")
    assert [m["iccs"] for m in game.state()["moves"]] == ["a1a2"]
    assert game.state()["moves"][0]["fen"].startswith("4k4/9/9/9/9/9/9/R8/9/3K5 b")


def test_pasted_text_and_saved_files():
    game = WebGame()
    game.load_text("1. 炮二平五 马8进7 2. 马二进三")
    assert game.position.move_stack == ["h2e2", "h9g7", "h0g2"]
    assert "1. 炮二平五 马8进7" in game.pgn("chinese")
    assert "Che2" in game.pgn("san")
    game.load_text(START_FEN)
    assert game.position.move_stack == [] and game.position == Position()
    assert game.svg().lstrip().startswith("<?xml")
    with pytest.raises(WebInputError):
        game.load_text("   ")

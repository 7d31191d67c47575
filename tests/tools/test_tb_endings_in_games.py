"""tools/tb_endings_in_games.py: the endings of the tablebase set a game reaches after its captures, each
once, in the order reached; a game file of such games counted."""
from engine import START_FEN
from engine.pgn import Game, write_games

import tb_endings_in_games  # noqa: E402

# Red's chariot takes Black's two cannons in turn: KRKC, then KRK.
FEN = "3k5/9/9/9/9/9/2c1c4/9/4R4/4K4 w - - 0 1"
MOVES = ["e1e3", "d9d8", "e3c3"]


def test_a_game_reaches_the_endings_of_the_set_after_its_captures():
    in_set = {"KRKC", "KRK"}
    reached = tb_endings_in_games.endings_of_game(MOVES, FEN, in_set)
    assert reached == ["KRKC", "KRK"]
    assert tb_endings_in_games.endings_of_game(["h2e2"], START_FEN, in_set) == []


def test_a_file_of_games_is_counted(tmp_path):
    game = Game()
    game.headers["FEN"] = FEN
    game.moves[:] = MOVES
    path = tmp_path / "games.pgn"
    write_games(path, [game, Game()])
    reaching, first, games_read, damaged = tb_endings_in_games.count(path)
    assert games_read == 2 and damaged == 0
    assert reaching["KRKC"] == 1 and first["KRKC"] == 1 and reaching["KRK"] == 1 and first["KRK"] == 0

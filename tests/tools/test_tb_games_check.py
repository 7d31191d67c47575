"""tools/tb_games_check.py: games from tablebase positions labelled with the shipped tables, conversions and
losses counted per ending, and a failure's first worsening move found; tools/tb_openings.py: the options
of the positions inside the set (colours swapped, draws every second)."""
import lzma

from engine import Position
from engine.pgn import Game, write_games
from engine.tablebase import Wdl, open_tablebase

import tb_games_check  # noqa: E402
import tb_openings  # noqa: E402

WON = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"          # KRK, Red mates at once (e1e8)
DRAWN = "4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1"         # KRK, Black draws only by taking the chariot


def played(fen: str, first: list[str], red: str, black: str) -> Game:
    """The game from fen: the moves first, then the tables' best moves to the end."""
    tables, position = open_tablebase(), Position(fen)
    for move in first:
        position.push(move)
    while position.legal_moves() and len(position.move_stack) < 40:
        position.push(tables.best_moves(position)[0][0])
    winner = 1 - position.kernel_board.side if not position.legal_moves() else None
    result = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]
    headers = {"Red": red, "Black": black, "FEN": fen, "Result": result, "Termination": "test"}
    return Game(headers=headers, moves=position.move_stack, result=result)


def test_the_starts_are_what_the_tests_take_them_for():
    tables = open_tablebase()
    assert tables.probe(Position(WON)).wdl is Wdl.WIN
    assert tables.probe(Position(DRAWN)).wdl is Wdl.DRAW


def test_conversions_and_losses_are_counted_and_a_slip_found(tmp_path):
    tables = open_tablebase()
    losing = next(move for move, value in tables.best_moves(Position(DRAWN)) if value.wdl is Wdl.LOSS)
    games = [played(WON, [], "jiangjun x", "other"),                # converted
             played(DRAWN, [], "other", "jiangjun x"),              # held
             played(DRAWN, [losing], "other", "jiangjun x")]        # lost: the slip at ply 1
    path = tmp_path / "games.pgn"
    write_games(path, games)
    packed = tmp_path / "games.pgn.xz"
    packed.write_bytes(lzma.compress(path.read_bytes()))
    report = tb_games_check.check_games(tb_games_check.load_games(packed), tables, "jiangjun")
    player = report.tallies["KRK"]["player"]
    assert (player.won, player.converted, player.within, player.mates) == (1, 1, 1, 1)
    assert (player.drawn, player.lost) == (2, 1)
    assert report.tallies["KRK"]["opponent"].gained == 1
    [failure] = report.failures
    assert (failure.game, failure.role, failure.side) == (3, "player", 1)
    assert (failure.slip.ply, failure.slip.move) == (1, losing)
    assert failure.slip.before.wdl is Wdl.DRAW and failure.slip.after.wdl is Wdl.WIN
    assert "| KRK | 1/1 (1/1) | – | 1/2 | 0/2 |" in tb_games_check.format_report(report)
    assert tb_games_check.main([str(packed)]) == 1


def test_positions_inside_the_set_with_the_colours_swapped():
    choice = tb_openings.Choice(inside=True, draws_every=2, flip=True)
    lines = tb_openings.make_openings(4, (9, 2), 3, choice)
    tables = open_tablebase()
    for number, line in enumerate(lines):
        fen, why = line.split(" ; ")
        value = tables.probe(Position(fen))
        assert (value.wdl is Wdl.DRAW) == (number % 2 == 1), line
        assert ("colours swapped" in why) == (number >= 2), line
        assert "+" not in why
    swapped = Position(lines[2].split(" ; ")[0])
    assert any(side == 1 and ptype in (3, 4, 5, 6) for side, ptype, _f, _r in swapped.kernel_board.pieces())

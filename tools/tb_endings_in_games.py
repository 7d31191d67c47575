"""Which endings of the tablebase set master games reach: for the choice of the tables worth shipping
(issue 44: "the common endings") and of the tables to build first.

    python tools/tb_endings_in_games.py ../shared/data/ccpd-games.tar.xz [--top 40] [--markdown]

Each game of the Chinese Chess Practical Dataset is replayed; every ending of the set (at most two
attackers in all: engine.tablebase.catalog) that it reaches after a capture counts once for the game, and
so does the first one it reaches. The table printed: each ending, the games that reach it, the games
whose first ending of the set it is, whether the package ships its table, and its entries per side.
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import ccpd
from engine import Position
from engine.pgn import PgnError, read_games
from engine.tablebase.catalog import the_set
from engine.tablebase.material import Material
from engine.tablebase.shipped import shipped_names


def endings_of_game(moves: list[str], start_fen: str, in_set: set[str]) -> list[str]:
    """The endings of the set a game reaches after its captures, in the order reached (each once)."""
    try:
        position = Position(start_fen)
    except ValueError:
        return []
    board = position.kernel_board
    reached: list[str] = []
    pieces = len(board.pieces())
    for move in moves:
        try:
            position.push(move)
        except ValueError:
            break                                  # a record that goes wrong: what came before counts
        now = board.pieces()
        if len(now) == pieces:
            continue
        pieces = len(now)
        name = Material.of_pieces(now).canonical()[0].name
        if name in in_set and name not in reached:
            reached.append(name)
    return reached


def count(source: Path) -> tuple[collections.Counter, collections.Counter, int, int]:
    """(games reaching each ending, games whose first ending of the set it is, games read, games read only
    in part: their moves count as far as they read)."""
    in_set = {entry.name for entry in the_set()}
    reaching, first = collections.Counter(), collections.Counter()
    games_read = 0
    damaged: list[PgnError] = []
    for _name, data in ccpd.pgn_files(source):
        try:
            games = read_games(ccpd.decode(data), failures=damaged)
        except (UnicodeDecodeError, PgnError):
            continue
        for game in games:
            games_read += 1
            reached = endings_of_game(game.moves, game.starting_fen(), in_set)
            reaching.update(reached)
            if reached:
                first[reached[0]] += 1
    return reaching, first, games_read, len(damaged)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the dataset's tar.xz, a folder or a .pgn file")
    parser.add_argument("--top", type=int, default=40, help="the endings printed, most reached first")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    reaching, first, games_read, damaged = count(args.source)
    shipped = set(shipped_names())
    sizes = {entry.name: entry.entries for entry in the_set()}
    rows = [(name, games, first[name], "yes" if name in shipped else "", f"{sizes[name]:,}")
            for name, games in reaching.most_common(args.top)]
    columns = ("ending", "games reaching it", "first of the set", "shipped", "entries/side")
    if args.markdown:
        print("| " + " | ".join(columns) + " |")
        print("|---|---:|---:|---|---:|")
        for row in rows:
            print("| " + " | ".join(str(cell) for cell in row) + " |")
    else:
        for row in [columns, *rows]:
            print(f"{row[0]:<14}{row[1]:>18}{row[2]:>18}  {row[3]:<8}{row[4]:>14}")
    print(f"{games_read:,} games read ({damaged:,} only in part); {sum(first.values()):,} reach an ending of "
          f"the set ({ccpd.CREDIT})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

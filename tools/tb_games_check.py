"""Checks games played from tablebase positions (issue 44): does a player win every won start and lose no
drawn one? Reads the games of a PGN (as `jiangjun match -pgnout` writes them, `.xz` too), labels each
game's start position (its FEN tag) with the tables, and counts per ending, for the player named and for
its opponents:

* **won starts**: the games where it had the winning side, those it won (converted), and of those, the
  ones it won within the table's distance (game plies <= the start's plies to mate: the winner played
  the table's quickest mate, or the loser defended worse);
* **drawn starts**: the games it played, those it lost (and those it won from the opponent's mistakes).

Each failure (a won start not won, a drawn start lost) is listed with the first move of the failing side
that worsened the table's value for it (a win left for a draw or a loss, a draw for a loss), the values
before and after, and how the game ended. A start outside the tables (or whose table is missing) is
counted apart.

    python tools/tb_games_check.py benchmarks/matches/tb-positions-pikafish-hce-SHA.pgn.xz \\
        --tables DIR --player jiangjun

--tables: folders of more tables (the two-attacker ones the games used), read before the shipped ones.
"""
from __future__ import annotations

import argparse
import lzma
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence

from engine import Position
from engine.pgn import Game, read_games
from engine.tablebase import Tablebase, TablebaseError, TableValue, Wdl, canonical_name, open_tablebase

RED, BLACK = 0, 1
COLOURS = ("red", "black")
#: The game result that is a win for each side.
WIN_RESULT = ("1-0", "0-1")


@dataclass(frozen=True)
class Slip:
    """The first move of a side that worsened the table's value for it."""

    ply: int                 # 1 for the game's first move
    move: str
    before: TableValue       # for the mover, before the move
    after: TableValue        # for the opponent, to move after it

    def __str__(self) -> str:
        return f"ply {self.ply} {self.move}: {self.before}, then for the opponent to move: {self.after}"


@dataclass(frozen=True)
class Failure:
    """A won start not won, or a drawn start lost, by the side named."""

    game: int                # the game's number in the file, from 1
    ending: str
    fen: str
    side: int                # the failing side's colour
    role: str                # "player" or "opponent"
    player: str
    result: str
    termination: str
    start: str               # the start's value, in words
    slip: Optional[Slip]     # None: no move of the side worsened the value the tables know

    def __str__(self) -> str:
        where = str(self.slip) if self.slip else "no move worsened the table's value (left the tables, or a ruling)"
        return (f"game {self.game} {self.ending} `{self.fen}` ({self.start}): {self.player} as "
                f"{COLOURS[self.side]}, {self.result} {{{self.termination}}}; {where}")


@dataclass
class Tally:
    """One player's counts in one ending."""

    won: int = 0             # won starts played as the winner
    converted: int = 0
    within: int = 0          # converted within the table's distance to mate (mates only)
    mates: int = 0           # won starts with a distance to mate (not decided by a ruling)
    drawn: int = 0           # drawn starts played (either side)
    lost: int = 0
    gained: int = 0          # drawn starts won

    def add(self, other: "Tally") -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Report:
    """The counts of a game file, by ending, for the player and for its opponents."""

    player: str
    tallies: dict[str, dict[str, Tally]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(Tally)))
    failures: list[Failure] = field(default_factory=list)
    outside: list[int] = field(default_factory=list)   # games whose start the tables do not hold
    opponents: set[str] = field(default_factory=set)

    def total(self, role: str) -> Tally:
        total = Tally()
        for by_role in self.tallies.values():
            total.add(by_role[role])
        return total


def table_value(tables: Tablebase, position: Position) -> Optional[TableValue]:
    """The position's value for its side to move, or None when no table holds it."""
    try:
        return tables.probe(position)
    except TablebaseError:
        return None


def first_slip(tables: Tablebase, game: Game, side: int) -> Optional[Slip]:
    """The first move of `side` after which its value by the tables is worse than before it."""
    position = Position(game.starting_fen())
    for ply, move in enumerate(game.moves, start=1):
        mover = position.kernel_board.side
        before = table_value(tables, position) if mover == side else None
        position.push(move)
        if before is None:
            continue
        after = table_value(tables, position)
        if after is None:
            return None
        if -after.wdl < before.wdl:
            return Slip(ply, move, before, after)
    return None


def sides_of(game: Game, player: str) -> tuple[Optional[int], str]:
    """(the colour the player had, the other side's name); None when the player is not in the game."""
    names = (game.headers.get("Red", ""), game.headers.get("Black", ""))
    for side in (RED, BLACK):
        if player.lower() in names[side].lower():
            return side, names[1 - side]
    return None, ""


def check_game(report: Report, tables: Tablebase, game: Game, number: int) -> None:
    """Counts one game into the report."""
    side, opponent = sides_of(game, report.player)
    start = Position(game.starting_fen())
    value = table_value(tables, start)
    if side is None or value is None:
        report.outside.append(number)
        return
    report.opponents.add(opponent)
    ending = canonical_name(start.fen())
    names = {side: report.player, 1 - side: opponent}
    roles = {side: "player", 1 - side: "opponent"}
    if value.wdl is Wdl.DRAW:
        for colour in (RED, BLACK):
            tally = report.tallies[ending][roles[colour]]
            tally.drawn += 1
            if game.result == WIN_RESULT[1 - colour]:
                tally.lost += 1
                report.failures.append(_failure(tables, game, number, ending, colour, (roles[colour], names[colour]),
                                                value))
            elif game.result == WIN_RESULT[colour]:
                tally.gained += 1
        return
    winner = start.kernel_board.side if value.wdl is Wdl.WIN else 1 - start.kernel_board.side
    tally = report.tallies[ending][roles[winner]]
    tally.won += 1
    tally.mates += not value.ruled
    if game.result == WIN_RESULT[winner]:
        tally.converted += 1
        tally.within += not value.ruled and len(game.moves) <= value.plies
    else:
        report.failures.append(_failure(tables, game, number, ending, winner, (roles[winner], names[winner]),
                                        value))


def _failure(tables: Tablebase, game: Game, number: int, ending: str, side: int, who: tuple[str, str],
             value: TableValue) -> Failure:
    """who: (the failing side's role, its name)."""
    owner = Position(game.starting_fen()).kernel_board.side
    start = f"{COLOURS[owner]} to move: {value}"
    return Failure(number, ending, game.starting_fen(), side, *who, game.result,
                   game.headers.get("Termination", "?"), start, first_slip(tables, game, side))


def check_games(games: Iterable[Game], tables: Tablebase, player: str) -> Report:
    """The report of the games for the player (a part of its name)."""
    report = Report(player)
    for number, game in enumerate(games, start=1):
        check_game(report, tables, game, number)
    return report


def format_report(report: Report) -> str:
    """Markdown: a table of the endings, the totals, then every failure."""
    opponent = ", ".join(sorted(report.opponents)) or "the opponents"
    lines = [f"player: {report.player}; opponent: {opponent}", "",
             "| ending | won starts: player converted (within the table's distance) | opponent converted "
             "(within) | drawn starts: player lost | opponent lost |",
             "|---|---:|---:|---:|---:|"]
    for ending in sorted(report.tallies):
        lines.append(_row(ending, report.tallies[ending]["player"], report.tallies[ending]["opponent"]))
    lines.append(_row("**all**", report.total("player"), report.total("opponent")))
    lines.append("")
    if report.outside:
        lines.append(f"outside the tables or without the player: games {', '.join(map(str, report.outside))}")
    lines.append(f"failures: {len(report.failures)}")
    lines += [f"* {failure}" for failure in report.failures]
    return "\n".join(lines)


def _row(ending: str, player: Tally, opponent: Tally) -> str:
    def won(tally: Tally) -> str:
        return f"{tally.converted}/{tally.won} ({tally.within}/{tally.mates})" if tally.won else "–"

    def drawn(tally: Tally) -> str:
        return f"{tally.lost}/{tally.drawn}" if tally.drawn else "–"
    return f"| {ending} | {won(player)} | {won(opponent)} | {drawn(player)} | {drawn(opponent)} |"


def load_games(path: Path) -> list[Game]:
    """The games of a PGN file, xz-compressed or not."""
    if path.suffix == ".xz":
        return read_games(lzma.decompress(path.read_bytes()), errors="raise")
    return read_games(path, errors="raise")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, help="the games (.pgn or .pgn.xz)")
    parser.add_argument("--tables", type=Path, action="append", default=[],
                        help="a folder of more tables, read before the shipped ones; may be repeated")
    parser.add_argument("--player", default="jiangjun", help="a part of the player's name (default jiangjun)")
    args = parser.parse_args(argv)
    report = check_games(load_games(args.pgn), open_tablebase(args.tables), args.player)
    print(format_report(report))
    return 1 if any(failure.role == "player" for failure in report.failures) else 0


if __name__ == "__main__":
    sys.exit(main())

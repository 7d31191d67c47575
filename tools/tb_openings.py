"""Endgame starting positions for the tablebase matches (issue 44), written as EPD for `jiangjun match
-openings file=F`: for the SPRT (jiangjun with its tables against itself without them), game pairs from
positions inside the shipped tables of one bare attacker (BARE_ATTACKER_ENDINGS) or one capture above
them; for the games against another engine, positions inside the set only, some of them from two-attacker
tables built into a folder.

    python tools/tb_openings.py -o benchmarks/tb-openings.epd --count 400
    python tools/tb_openings.py -o benchmarks/tb-positions.epd --count 200 --inside --draws-every 2 --flip \
        --min-plies 15 --tables DIR --endings KRKN KRKNA KRKCA KNKP KPKP KCKP

They are made from the tables' own positions, not from master games: a master game rarely reaches the
set at all (docs/tablebases.md, "Which endings games reach"), and the tables say which positions need
their knowledge. A position of one of these tables (Red the stronger side), drawn at random, is kept when
its value for the side to move is

* a win or a loss by mate at least --min-plies away (the winner has a long mate to find within the natural
  limit, the loser a long defence): two positions in three (every position but each --draws-every-th), or
* a sure draw (not one the check/chase rulings might change) from which at least --min-losing moves lose
  (the side to move has to find the drawing moves): one in three (each --draws-every-th), or
* with --ruled N, for the last N positions: a win or a loss decided through a perpetual check or chase
  ruling (none in the shipped set; KRKN has some: the loser must check for ever);

and half of the positions are then taken one capture above the set (not with --inside): Black gets a horse,
cannon or soldier more, on a free point where Red cannot take it at once, so that the game's first captures
lead into the tables (the search's probes below the root). --tables and --endings add tables built by
`jiangjun tb build -o DIR` (the two-attacker ones); the ending of each position is drawn at random from the
bare-attacker ones and those. --flip swaps the colours of every second pair of positions (Black then the
stronger side). Each line names its ending and how it was kept.
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from engine import Position
from engine.errors import InvalidFenError
from engine.fen import format_board
from engine.tablebase import SHIPPED_DIRECTORY, Material, Wdl, open_tablebase
from engine.tablebase.build import load_table, table_path
from engine.tablebase.material import flip_pieces
from engine.tablebase.material import dependencies

#: Extra pieces for Black one capture above the set: (kernel type, FEN letter, the points it may take).
#: The shipped endings positions are drawn from (with the tables they depend on): one attacker, with no
#: advisor or elephant of its own, against any defence; the files of the SPRT and of the games against
#: Pikafish-HCE were made from these.
BARE_ATTACKER_ENDINGS = ("KRKAABB", "KNKAABB", "KCKAABB", "KPKAABB")
EXTRA_PIECES = ((3, "n"), (5, "c"), (6, "p"))
ATTEMPTS = 5_000         # random entries tried per table and kind before the pair is given up


@dataclass(frozen=True)
class Choice:
    """Where the positions come from and how they are turned; the defaults make the SPRT's file.

    tables: folders of more tables (also probed before the shipped ones); endings: their endings drawn from,
    beside the shipped ones; inside: no position one capture above the set; draws_every: each n-th position
    is a draw; flip: every second group of draws_every positions with the colours swapped; ruled: the last
    positions, that many, decided through a ruling."""

    tables: tuple[Path, ...] = ()
    endings: tuple[str, ...] = ()
    inside: bool = False
    draws_every: int = 3
    flip: bool = False
    ruled: int = 0

    def kind(self, number: int, count: int) -> str:
        """The kind of the position numbered so (from 0) of count: "decided", "draw" or "ruled"."""
        if number >= count - self.ruled:
            return "ruled"
        return "draw" if number % self.draws_every == self.draws_every - 1 else "decided"

    def flips(self, number: int) -> bool:
        return self.flip and (number // self.draws_every) % 2 == 1


def black_points(letter: str) -> list[tuple[int, int]]:
    """The (file, rank) points a black piece of that letter may stand on (soldiers: their legal points)."""
    points = [(f, r) for f in range(9) for r in range(10)]
    if letter == "p":
        return [(f, r) for f, r in points if r <= 4 or (r <= 6 and f % 2 == 0)]
    return points


def inside_position(tables, table, name: str, kind: str, rng: random.Random,
                    limits: tuple[int, int]) -> Optional[tuple[str, str]]:
    """(FEN, why it was kept) of a random position of the table of that kind that needs the tables, or
    None."""
    for _ in range(ATTEMPTS):
        index, side = rng.randrange(table.size), rng.randrange(2)
        pieces = table.position_of(index)
        if pieces is None:
            continue
        try:
            position = Position(f"{format_board(pieces)} {'wb'[side]} - - 0 1")
        except InvalidFenError:
            continue
        why = needs_tables(tables, position, kind, limits)
        if why is not None:
            return position.fen(), f"{name} {why}"
    return None


def needs_tables(tables, position: Position, kind: str, limits: tuple[int, int]) -> Optional[str]:
    """Why the position needs the tables (a long mate; a draw with losing moves; a ruling), else None.
    limits: the shortest mate, the fewest losing moves."""
    min_plies, min_losing = limits
    value = tables.probe(position)
    if kind == "ruled":
        ok = value.wdl is not Wdl.DRAW and value.ruled
        return f"{value.wdl.name.lower()} by a ruling in {value.plies} (order {value.order})" if ok else None
    if kind == "decided":
        ok = value.wdl is not Wdl.DRAW and not value.ruled and value.plies >= min_plies
        return f"{value.wdl.name.lower()} {value.plies}" if ok else None
    if value.wdl is not Wdl.DRAW or value.at_risk:
        return None
    losing = sum(1 for _, after in tables.best_moves(position) if after.wdl is Wdl.LOSS)
    return f"draw, {losing} losing moves" if losing >= min_losing else None


def one_capture_above(fen: str, rng: random.Random) -> Optional[tuple[str, str]]:
    """The position with one more black horse, cannon or soldier on a free point Red cannot take at once."""
    ptype, letter = rng.choice(EXTRA_PIECES)
    board_text, side = fen.split()[:2]
    occupied = {(f, r) for _s, _t, f, r in Position(fen).kernel_board.pieces()}
    free = [point for point in black_points(letter) if point not in occupied]
    rng.shuffle(free)
    pieces = list(Position(fen).kernel_board.pieces())
    for file, rank in free[:40]:
        board = format_board(pieces + [(1, ptype, file, rank)])
        try:
            red_to_move = Position(f"{board} w - - 0 1")
            position = Position(f"{board} {side} - - 0 1")
        except InvalidFenError:
            continue
        square = f"{'abcdefghi'[file]}{rank}"
        if any(move[2:] == square for move in red_to_move.legal_moves()):
            continue
        if not position.legal_moves() or position.outcome() is not None:
            continue
        return position.fen(), f"+{letter}"
    return None


def colours_swapped(fen: str) -> str:
    """The position with the colours swapped (ranks mirrored, the other side to move)."""
    pieces = flip_pieces(Position(fen).kernel_board.pieces())
    side = "b" if fen.split()[1] == "w" else "w"
    return Position(f"{format_board(pieces)} {side} - - 0 1").fen()


def load_tables(choice: Choice) -> dict:
    """{name: table in memory} of the shipped tables and the endings of choice, each from its folder."""
    found = {material.name: SHIPPED_DIRECTORY for ending in BARE_ATTACKER_ENDINGS
             for material in dependencies(Material.parse(ending))}
    for name in choice.endings:
        material = Material.parse(name).canonical()[0]
        folders = [folder for folder in choice.tables if table_path(folder, material).is_file()]
        if not folders:
            raise SystemExit(f"{material.name}: no table in {', '.join(map(str, choice.tables)) or 'no folder'}")
        found[material.name] = folders[0]
    return {name: load_table(table_path(folder, Material.parse(name)), Material.parse(name))
            for name, folder in found.items()}


def make_openings(count: int, limits: tuple[int, int], seed: int, choice: Choice = Choice()) -> list[str]:
    """`count` EPD lines, half inside the set and half one capture above it (all inside with
    choice.inside), spread over the tables and the kinds. limits: the shortest mate, the fewest losing moves
    of a draw."""
    rng = random.Random(seed)
    tables = open_tablebase(choice.tables)
    loaded = load_tables(choice)
    lines, barren = [], set()
    while len(lines) < count:
        kind = choice.kind(len(lines), count)
        left = sorted(name for name in loaded if (name, kind) not in barren)
        if not left:
            break
        name = rng.choice(left)
        found = inside_position(tables, loaded[name], name, kind, rng, limits)
        if found is None:
            barren.add((name, kind))
            continue
        fen, why = found
        if len(lines) % 2 and not choice.inside:
            above = one_capture_above(fen, rng)
            if above is None:
                continue
            fen, why = above[0], f"{why}, {above[1]}"
        if choice.flips(len(lines)):
            fen, why = colours_swapped(fen), f"{why}, colours swapped"
        lines.append(f"{' '.join(fen.split()[:2])} ; id \"{why}\"")
    return lines


def describe(choice: Choice) -> str:
    where = "inside the shipped tablebase set"
    if choice.endings:
        where += " and " + ", ".join(Material.parse(name).canonical()[0].name for name in choice.endings)
    return where if choice.inside else f"{where} or one capture above it"


def options_text(choice: Choice) -> str:
    """The options of choice as the command line gives them (folders by name only: no machine paths)."""
    words: list[str] = []
    words += [f"--tables {folder.name}" for folder in choice.tables]
    words += ["--endings", *choice.endings] if choice.endings else []
    words += ["--inside"] if choice.inside else []
    words += [f"--draws-every {choice.draws_every}"] if choice.draws_every != 3 else []
    words += ["--flip"] if choice.flip else []
    words += [f"--ruled {choice.ruled}"] if choice.ruled else []
    return "".join(f" {word}" for word in words)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--count", type=int, default=400, help="positions to write (default 400)")
    parser.add_argument("--min-plies", type=int, default=21,
                        help="the shortest mate kept, in plies (default 21)")
    parser.add_argument("--min-losing", type=int, default=2,
                        help="the fewest losing moves of a draw kept (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=Path, action="append", default=[],
                        help="a folder of more tables (jiangjun tb build -o DIR); may be repeated")
    parser.add_argument("--endings", nargs="+", default=[],
                        help="endings of the --tables folders to draw positions from too")
    parser.add_argument("--inside", action="store_true", help="no position one capture above the set")
    parser.add_argument("--draws-every", type=int, default=3,
                        help="each n-th position is a draw, the others won or lost (default 3)")
    parser.add_argument("--flip", action="store_true",
                        help="swap the colours of every second group of --draws-every positions")
    parser.add_argument("--ruled", type=int, default=0,
                        help="the last positions, this many of --count, decided through a ruling")
    args = parser.parse_args(argv)
    choice = Choice(tuple(args.tables), tuple(args.endings), args.inside, args.draws_every, args.flip,
                    args.ruled)
    lines = make_openings(args.count, (args.min_plies, args.min_losing), args.seed, choice)
    header = [f"# {len(lines)} endgame positions {describe(choice)} (tools/tb_openings.py --count "
              f"{args.count} --min-plies {args.min_plies} --min-losing {args.min_losing} --seed {args.seed}"
              f"{options_text(choice)})."]
    args.output.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Endgame starting positions for the tablebase SPRT (issue 44): jiangjun with its tables against itself
without them, game pairs from positions inside the shipped one-attacker set or one capture above it,
written as EPD for `jiangjun match -openings file=F`.

    python tools/tb_openings.py -o benchmarks/tb-openings.epd --count 400

They are made from the tables' own positions, not from master games: a master game rarely reaches the
shipped set (its stronger side keeps its advisors and elephants, which the shipped tables do not have), and
the tables say which positions need their knowledge. A position of a shipped table (Red the stronger side),
drawn at random, is kept when its value for the side to move is

* a win or a loss by mate at least --min-plies away (the winner has a long mate to find within the natural
  limit, the loser a long defence): two positions in three, or
* a sure draw (not one the check/chase rulings might change) from which at least --min-losing moves lose
  (the defender has to find the drawing moves): one in three;

and half of the positions are then taken one capture above the set: Black gets a horse, cannon or soldier
more, on a free point where Red cannot take it at once, so that the game's first captures lead into the
tables (the search's probes below the root). Each line names its ending and how it was kept.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Optional

from engine import Position
from engine.errors import InvalidFenError
from engine.fen import format_board
from engine.tablebase import SHIPPED_DIRECTORY, Material, Wdl, open_tablebase
from engine.tablebase.build import load_table, table_path
from engine.tablebase.shipped import shipped_names

#: Extra pieces for Black one capture above the set: (kernel type, FEN letter, the points it may take).
EXTRA_PIECES = ((3, "n"), (5, "c"), (6, "p"))
ATTEMPTS = 5_000         # random entries tried per table and kind before the pair is given up
KINDS = ("decided", "decided", "draw")     # the kinds of position, in turn


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
    """Why the position needs the tables (a long mate; a draw with losing moves), else None. limits: the
    shortest mate, the fewest losing moves."""
    min_plies, min_losing = limits
    value = tables.probe(position)
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


def make_openings(count: int, limits: tuple[int, int], seed: int) -> list[str]:
    """`count` EPD lines, half inside the set and half one capture above it, spread over the tables and
    the kinds. limits: the shortest mate, the fewest losing moves of a draw."""
    rng = random.Random(seed)
    tables = open_tablebase()
    loaded = {name: load_table(table_path(SHIPPED_DIRECTORY, Material.parse(name)), Material.parse(name))
              for name in shipped_names()}
    lines, barren = [], set()
    while len(lines) < count and len(barren) < len(loaded) * len(set(KINDS)):
        kind = KINDS[len(lines) % len(KINDS)]
        left = sorted(name for name in loaded if (name, kind) not in barren)
        if not left:
            break
        name = rng.choice(left)
        found = inside_position(tables, loaded[name], name, kind, rng, limits)
        if found is None:
            barren.add((name, kind))
            continue
        fen, why = found
        if len(lines) % 2:
            above = one_capture_above(fen, rng)
            if above is None:
                continue
            fen, why = above[0], f"{why}, {above[1]}"
        lines.append(f"{' '.join(fen.split()[:2])} ; id \"{why}\"")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--count", type=int, default=400, help="positions to write (default 400)")
    parser.add_argument("--min-plies", type=int, default=21,
                        help="the shortest mate kept, in plies (default 21)")
    parser.add_argument("--min-losing", type=int, default=2,
                        help="the fewest losing moves of a draw kept (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    lines = make_openings(args.count, (args.min_plies, args.min_losing), args.seed)
    header = [f"# {len(lines)} endgame positions inside the shipped tablebase set or one capture above it "
              f"(tools/tb_openings.py --count {args.count} --min-plies {args.min_plies} --min-losing "
              f"{args.min_losing} --seed {args.seed})."]
    args.output.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

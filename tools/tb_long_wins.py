"""The longest wins of some endings, as EPD for `jiangjun match -openings file=F`: the positions whose mate
is furthest away with the winner to move, for games that the natural limit could decide (issue 44: a win
longer than 120 plies must be converted, a capture first, before the limit draws it).

    python tools/tb_long_wins.py KNPKAABB KNPKAAB --tables DIR --count 20 -o benchmarks/tb-long-wins.epd

Every entry of each table is read (the winner Red, to move); the --count longest mates are kept, at most
--per-group of them sharing the placement of the defending side's men (so that they differ in more than
the attackers' and the general's paths), longest first. Each line names its ending, the plies to mate and the distance to conversion.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine._core import TB_VALUE_MAX_DTM
from engine.fen import format_board
from engine.tablebase.build import load_table, table_path
from engine.tablebase.material import Material


def longest_wins(table, count: int, per_group: int) -> list[tuple[int, int]]:
    """(plies to mate, index) of the longest wins with Red to move, longest first."""
    values = memoryview(table.values_bytes(0)).cast("H")      # the entries with Red to move, read in place
    wins = sorted(((value, index) for index, value in enumerate(values)
                   if value <= TB_VALUE_MAX_DTM and value % 2 == 1), reverse=True)   # mates, Red winning
    chosen, groups = [], {}
    for plies, index in wins:
        defence = tuple(piece for piece in table.position_of(index) if piece[0] == 1)     # Black's men
        if groups.get(defence, 0) < per_group:
            groups[defence] = groups.get(defence, 0) + 1
            chosen.append((plies, index))
            if len(chosen) == count:
                break
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("endings", nargs="+", help="ending names, as the tables are named (KNPKAABB)")
    parser.add_argument("--tables", type=Path, required=True, help="the folder of the tables")
    parser.add_argument("--count", type=int, default=20, help="positions per ending")
    parser.add_argument("--per-group", type=int, default=2, help="positions per placement of the defending side")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    lines = [f"# The longest wins of {', '.join(args.endings)}, Red to move (tools/tb_long_wins.py --count "
             f"{args.count} --per-group {args.per_group})."]
    for ending in args.endings:
        material = Material.parse(ending).canonical()[0]
        table = load_table(table_path(args.tables, material), material)
        for plies, index in longest_wins(table, args.count, args.per_group):
            board = format_board(table.position_of(index))
            lines.append(f'{board} w ; id "{material.name} mate in {plies}, a capture in {table.dtc(index, 0)}"')
    args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines) - 1} positions to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

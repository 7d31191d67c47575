"""`jiangjun tb`: build endgame tables, show a position's table values.

    jiangjun tb build ENDING... [-o DIR] [--verify]     ENDING: a name (KRKAABB) or a FEN
    jiangjun tb show FEN [--tables DIR ...]            the shipped tables, and those of the folders given
    jiangjun tb info FILE...                            what a table file's header records
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Optional, Sequence

from ..errors import InvalidFenError
from ..notation import to_chinese
from ..position import Position
from .build import BuildReport, build_tables
from .errors import TablebaseError
from .fileformat import TableFile
from .probe import open_tablebase

DEFAULT_DIRECTORY = "tablebases"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jiangjun tb", description="Endgame tablebases: build tables, or show "
                                     "the table values of a position and of each of its moves.")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the tables of endings, and those they depend on")
    build.add_argument("endings", nargs="+", help="ending names (KRKAABB: each side's K then R N C P A B) or FENs")
    build.add_argument("-o", "--output", default=DEFAULT_DIRECTORY,
                       help=f"the folder of the tables (default {DEFAULT_DIRECTORY}); tables there are reused")
    build.add_argument("--verify", action="store_true",
                       help="check every new table against one ply of minimax before writing it")
    show = sub.add_parser("show", help="print a position's value and every legal move's")
    show.add_argument("fen", help="the position")
    show.add_argument("--tables", nargs="+", default=[],
                      help=f"folders or files of tables, read before the tables shipped in the package "
                           f"(default: {DEFAULT_DIRECTORY} when that folder exists)")
    info = sub.add_parser("info", help="print what table files record: rules, counts, longest win")
    info.add_argument("files", nargs="+", help="table files (.jjtb)")
    return parser


def main(argv: Optional[Sequence[str]] = None, out: IO[str] = sys.stdout, err: IO[str] = sys.stderr) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "build":
            return _build(args, out, err)
        if args.command == "info":
            return _info(args, out)
        return _show(args, out)
    except BrokenPipeError:
        return 1
    except (TablebaseError, InvalidFenError, OSError) as exc:
        print(f"jiangjun tb: {exc}", file=err)
        return 2


def _build(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    reports = build_tables(args.endings, args.output, verify=args.verify,
                           progress=lambda text: print(text, file=err, flush=True))
    print(f"{'table':<12}{'entries':>10}{'seconds':>9}{'pos/s':>10}{'bytes':>10}  "
          f"{'red to move W/D/L':<24}longest", file=out)
    for report in reports:
        print(_report_line(report), file=out)
    return 0


def _report_line(report: BuildReport) -> str:
    red = report.statistics[0] if report.statistics else {}
    wdl = f"{red.get('win', 0)}/{red.get('draw', 0)}/{red.get('loss', 0)}"
    longest = red.get("longest", -1)
    speed = "reused" if report.reused else f"{report.positions_per_second:,.0f}"
    seconds = "" if report.reused else f"{report.seconds:.2f}"
    return (f"{report.name:<12}{report.entries:>10,}{seconds:>9}{speed:>10}{report.file_bytes:>10,}  "
            f"{wdl:<24}{longest if longest >= 0 else '-'}")


def _show(args: argparse.Namespace, out: IO[str]) -> int:
    position = Position(args.fen)
    tables = args.tables or [path for path in [DEFAULT_DIRECTORY] if Path(path).is_dir()]
    tablebase = open_tablebase(tables)
    print(f"position  {position.fen()}", file=out)
    print(f"value     {tablebase.probe(position)} ({position.turn.value} to move)", file=out)
    for move, value in tablebase.best_moves(position):
        text = to_chinese(position, move)
        print(f"{move:<6}{text:<8}{value}", file=out)
    return 0


def _info(args: argparse.Namespace, out: IO[str]) -> int:
    for path in args.files:
        header = TableFile(path).header
        rules = header["rules"]
        print(f"{header['material']}  ({path}): format {header['format_version']}, index scheme "
              f"{header['index_scheme']}, {header['entries']:,} entries per side, {header['metric']}", file=out)
        print(f"  rules: {rules['rule_set']}; cycles: {rules['cycles']}; move limit: {rules['move_limit']}", file=out)
        for side, stats in zip(("red", "black"), header["statistics"]):
            longest = f", longest win {stats['longest']} plies: {stats['longest_fen']}" if stats["longest"] >= 0 else ""
            print(f"  {side} to move: {stats.get('positions', 0):,} positions; entries {stats['win']:,} won, "
                  f"{stats['draw']:,} drawn ({stats.get('draw_rules', 0):,} marked), {stats['loss']:,} lost"
                  f"{longest}", file=out)
    return 0

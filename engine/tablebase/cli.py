"""`jiangjun tb`: build endgame tables, show a position's table values.

    jiangjun tb build [ENDING...] [-o DIR] [--verify] [--threads N] [-cluster tcp://HOST:8786 | local:N]
                                                        ENDING: a name (KRKAABB) or a FEN; none: the set
    jiangjun tb list [--all] [--built DIR] [--markdown]  the set: each ending's size and memory; --all: and
                                                        the endings left out, with why; --built: the figures
                                                        of the builds into DIR
    jiangjun tb show FEN [--tables DIR ...]            the shipped tables, and those of the folders given
    jiangjun tb info FILE...                            what a table file's header records
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import IO, Optional, Sequence

from ..errors import InvalidFenError
from ..notation import to_chinese
from ..position import Position
from ..cluster import ClusterError
from .build import BuildReport
from .catalog import MEMORY_BUDGET, catalog
from .errors import TablebaseError
from .fileformat import TableFile
from .plan import BuildPlan
from .probe import open_tablebase
from .runner import run_build
from .shipped import shipped_names
from .state import BuildState

DEFAULT_DIRECTORY = "tablebases"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jiangjun tb", description="Endgame tablebases: build tables, or show "
                                     "the table values of a position and of each of its moves.")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the tables of endings, and those they depend on (no ending: "
                           "the whole set, as `jiangjun tb list` shows it)")
    build.add_argument("endings", nargs="*", help="ending names (KRKAABB: each side's K then R N C P A B) or FENs")
    build.add_argument("--shipped", action="store_true",
                       help="the tables the package ships (engine.tablebase.shipped), with the endings named")
    build.add_argument("-o", "--output", default=DEFAULT_DIRECTORY,
                       help=f"the folder of the tables (default {DEFAULT_DIRECTORY}); tables there are reused")
    build.add_argument("--verify", action="store_true",
                       help="check every new table against one ply of minimax before writing it")
    build.add_argument("-cluster", "--cluster", metavar="SPEC",
                       help="build independent tables on a Dask cluster: tcp://HOST:8786 (a running scheduler "
                            "whose workers see the output folder under the same path) or local:N (N worker "
                            "processes here); needs pip install 'jiangjun[cluster]'")
    build.add_argument("--threads", type=int, metavar="N",
                       help="threads each table is built with (default: every core of this machine, or 1 per "
                            "worker with -cluster, whose workers build tables side by side)")
    listing = sub.add_parser("list", help="print the set of endings `tb build` builds with no ending named")
    listing.add_argument("--all", action="store_true", help="also the endings left out, and why")
    listing.add_argument("--built", metavar="DIR", help="with each ending, the figures of its build in DIR "
                         "(from DIR's build-state.json, over every run that built into DIR)")
    listing.add_argument("--only-built", action="store_true", help="with --built: only the endings built in DIR")
    listing.add_argument("--markdown", action="store_true", help="a Markdown table")
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
        if args.command == "list":
            return _list(args, out)
        return _show(args, out)
    except BrokenPipeError:
        return 1
    except (TablebaseError, InvalidFenError, OSError, ClusterError, ValueError) as exc:
        print(f"jiangjun tb: {exc}", file=err)
        return 2


def _build(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    endings = [*args.endings, *(shipped_names() if args.shipped else ())]
    plan = BuildPlan.of_endings(endings) if endings else BuildPlan.of_set()
    if args.threads is not None and args.threads < 1:
        raise ValueError(f"--threads {args.threads}: at least 1")
    threads = args.threads or (1 if args.cluster else os.cpu_count() or 1)
    result = run_build(plan, args.output, verify=args.verify, cluster=args.cluster, stream=err, threads=threads)
    print(f"{'table':<12}{'entries':>10}{'seconds':>9}{'pos/s':>10}{'bytes':>10}  "
          f"{'red to move W/D/L':<24}longest", file=out)
    for report in result.reports:
        print(_report_line(report), file=out)
    if result.complete:
        return 0
    for name, error in result.failed.items():
        print(f"jiangjun tb: {name} failed: {error}", file=err)
    if result.waiting:
        print(f"jiangjun tb: {len(result.waiting)} tables not built, waiting for those that failed: "
              f"{', '.join(result.waiting[:10])}{' ...' if len(result.waiting) > 10 else ''}", file=err)
    print("jiangjun tb: run the same command again to retry (the tables built are kept)", file=err)
    return 1


def _report_line(report: BuildReport) -> str:
    red = report.statistics[0] if report.statistics else {}
    wdl = f"{red.get('win', 0)}/{red.get('draw', 0)}/{red.get('loss', 0)}"
    longest = red.get("longest", -1)
    speed = "reused" if report.reused else f"{report.positions_per_second:,.0f}"
    seconds = "" if report.reused else f"{report.seconds:.2f}"
    return (f"{report.name:<12}{report.entries:>10,}{seconds:>9}{speed:>10}{report.file_bytes:>10,}  "
            f"{wdl:<24}{longest if longest >= 0 else '-'}")


def _list(args: argparse.Namespace, out: IO[str]) -> int:
    """The set, each ending with its entries and estimated peak memory (and, with --built DIR, the figures
    of its build from DIR's state file); --all: the endings left out too, with why."""
    entries = catalog()
    members = [entry for entry in entries if entry.in_set]
    built = BuildState(Path(args.built)).tables if args.built else None
    columns = ["ending", "entries/side", "estimated peak MiB"]
    columns += ["seconds", "positions/s", "peak MiB", "bytes"] if built is not None else ["needs"]
    shown = [entry for entry in members if not args.only_built or (built is not None and entry.name in built)]
    rows = [_list_row(entry, built) for entry in shown]
    if args.all:
        rows += [[entry.name, f"{entry.entries:,}", f"{entry.peak_bytes / 2**20:,.0f}", f"left out: {entry.why_left_out}"]
                 + [""] * (len(columns) - 4) for entry in entries if not entry.in_set]
    _print_rows(columns, rows, args.markdown, out)
    left = len(entries) - len(members)
    print(f"{len(members):,} endings in the set, {sum(e.entries for e in members):,} entries per side; {left:,} "
          f"left out (their build needs more than {MEMORY_BUDGET / 2**30:g} GiB)"
          + ("" if args.all else ": --all lists them"), file=out)
    if built is not None:
        done = [built[entry.name] for entry in members if entry.name in built]
        peaks = [figures["peak_rss_mb"] for figures in done if figures.get("peak_rss_mb")]
        print(f"built in {args.built}: {len(done):,} of {len(members):,}, {sum(f['seconds'] for f in done):,.0f} s of "
              f"generation, {sum(f['file_bytes'] for f in done):,} bytes, peak {max(peaks, default=0):,.0f} MiB", file=out)
    return 0


def _list_row(entry, built: Optional[dict]) -> list[str]:
    row = [entry.name, f"{entry.entries:,}", f"{entry.peak_bytes / 2**20:,.0f}"]
    if built is None:
        return row + [" ".join(entry.sub_tables)]
    figures = built.get(entry.name)
    if figures is None:
        return row + ["not built", "", "", ""]
    peak = figures.get("peak_rss_mb")
    return row + [f"{figures['seconds']:,.2f}", f"{figures['positions_per_second']:,}",
                  "" if peak is None else f"{peak:,.0f}", f"{figures['file_bytes']:,}"]


def _print_rows(columns: list[str], rows: list[list[str]], markdown: bool, out: IO[str]) -> None:
    """Aligned text, or a Markdown table (--markdown, for docs/tablebases.md)."""
    if markdown:
        print("| " + " | ".join(columns) + " |", file=out)
        print("|---|" + "---:|" * (len(columns) - 2) + "---|", file=out)
        for row in rows:
            print("| " + " | ".join(row) + " |", file=out)
        return
    widths = [14] + [max(len(column), 12) for column in columns[1:]]
    for row in [columns] + rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:-1], widths[1:])]
        print("  ".join(cells + [row[-1]]).rstrip(), file=out)


def _show(args: argparse.Namespace, out: IO[str]) -> int:
    position = Position(args.fen)
    tables = args.tables or [path for path in [DEFAULT_DIRECTORY] if Path(path).is_dir()]
    tablebase = open_tablebase(tables)
    print(f"position  {position.fen()}", file=out)
    value = tablebase.probe(position)
    print(f"value     {value}{_conversion(value)} ({position.turn.value} to move)", file=out)
    for move, value in tablebase.best_moves(position):
        text = to_chinese(position, move)
        print(f"{move:<6}{text:<8}{value}{_conversion(value)}", file=out)
    return 0


def _conversion(value) -> str:
    """The distance to conversion of a win or loss by mates, when it differs from its mate's."""
    if value.dtc is None or value.dtc == value.plies:
        return ""
    return f"; a capture in {value.dtc} {'ply' if value.dtc == 1 else 'plies'} at most"


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

"""The `jiangjun` command: the engine protocol on stdin/stdout by default, plus tool subcommands.

Each command imports what it uses when it runs (the protocol server: only its dialect; a tool: its
own modules), so that the engine's handshake is not slowed by the tools.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    import argparse


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        from .server.protocol import serve

        return serve(sys.stdin, sys.stdout)
    if args[0] == "match":  # cutechess-style single-dash options: parsed by the match tool itself
        from .match.cli import main as match_main

        return match_main(args[1:])
    if args[0] == "analyze":  # its own parser: a positional game file, --moves lists, repeatable --option
        from .analyze.cli import main as analyze_main

        return analyze_main(args[1:])
    if args[0] == "book":  # build and show opening books
        from .book.cli import main as book_main

        return book_main(args[1:])
    if args[0] == "tb":  # endgame tablebases: build tables, show a position's values
        from .tablebase.cli import main as tb_main

        return tb_main(args[1:])
    if args[0] == "web":  # play and analyse in the browser (the [web] extra)
        from .web.cli import main as web_main

        return web_main(args[1:])
    return _tool(args)


def _tool(args: list[str]) -> int:
    """perft and bench, and the help that lists every command."""
    import argparse

    from .fen import START_FEN
    from .server import bench

    parser = argparse.ArgumentParser(
        prog="jiangjun",
        description="jiangjun (将军), a Xiangqi engine. Without a subcommand it speaks UCCI/UCI on stdin/stdout.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    perft_parser = sub.add_parser("perft", help="count the leaves of the legal move tree, and time it")
    perft_parser.add_argument("depth", type=int, nargs="?", default=5, help="depth in plies (default 5)")
    perft_parser.add_argument("--fen", default=START_FEN, help="position (default: the start position)")
    perft_parser.add_argument("--moves", nargs="*", default=[], help="ICCS moves played from the FEN first")
    perft_parser.add_argument("--divide", action="store_true", help="print the count below each root move")
    bench_parser = sub.add_parser("bench", help="search fixed positions to a fixed depth: total nodes and speed")
    bench_parser.add_argument("depth", type=int, nargs="?", default=None,
                              help=f"depth in plies (default {bench.DEFAULT_DEPTH})")
    bench_parser.add_argument("--hash", type=int, default=16, help="hash table size in MB (default 16)")
    bench_parser.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    evaluation = bench_parser.add_mutually_exclusive_group()
    evaluation.add_argument("--evalfile", default=None,
                            help="evaluate with this NNUE network file (JJNN; default: the shipped network)")
    evaluation.add_argument("--hce", action="store_true", help="evaluate with the hand-crafted evaluation")
    sub.add_parser("match", add_help=False,
                   help="play engines against each other (jiangjun match -h lists the options)")
    sub.add_parser("analyze", add_help=False,
                   help="analyse a position or annotate a game (jiangjun analyze -h lists the options)")
    sub.add_parser("book", add_help=False,
                   help="build an opening book from PGN games, or show a position's book moves (jiangjun book -h)")
    sub.add_parser("tb", add_help=False,
                   help="build endgame tablebases, or show a position's table values (jiangjun tb -h)")
    sub.add_parser("web", add_help=False,
                   help="play and analyse in the browser (jiangjun web -h; needs the [web] extra)")
    options = parser.parse_args(args)
    if options.command == "perft":
        return _perft(options)
    if options.command == "bench":
        return bench.main(options.depth, options.hash, options.threads, options.evalfile, options.hce)
    return 2


def _perft(options: argparse.Namespace) -> int:
    import time

    from .errors import IllegalMoveError, InvalidFenError
    from .position import Position

    try:
        position = Position(options.fen)
        for move in options.moves:
            position.push(move)
    except (InvalidFenError, IllegalMoveError) as exc:
        print(f"jiangjun perft: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if options.divide:
        split = position.divide(options.depth)
        for move, count in sorted(split.items()):
            print(f"{move}: {count}")
        nodes = sum(split.values())
    else:
        nodes = position.perft(options.depth)
    seconds = time.perf_counter() - start
    rate = nodes / seconds if seconds > 0 else float("inf")
    print(f"perft {options.depth}: {nodes} nodes in {seconds:.3f} s ({rate / 1e6:.1f} M nodes/s)")
    return 0

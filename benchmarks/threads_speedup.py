"""Lazy SMP check: time to reach a fixed depth on the bench positions with 1 and with 2 threads.

    python benchmarks/threads_speedup.py [depth] [--set NAME=VALUE ...]

Prints, per position and in total, the wall time each thread count needs to complete the depth, and
the speed-up (time with 1 thread / time with 2), then the nodes and nodes per second of each (all
threads). --set changes a search parameter (ext/params.pxi, such as helper_depth_skip=1) for both runs.
On a 2-core machine with other load the figure is noisy: run it twice, on an idle machine.
"""
from __future__ import annotations

import argparse
import time

from engine import Position
from engine._core import Searcher, set_search_parameter
from engine.server.bench import BENCH_FENS


def time_to_depth(threads: int, depth: int) -> tuple[list[float], int]:
    """The seconds to complete `depth` on each bench position, and the nodes of all of them."""
    searcher = Searcher(hash_mb=64, threads=threads)
    times = []
    nodes = 0
    for fen in BENCH_FENS:
        searcher.clear()
        start = time.perf_counter()
        found = searcher.search(Position(fen).kernel_board, depth=depth)
        times.append(time.perf_counter() - start)
        nodes += found.nodes
    return times, nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depth", nargs="?", type=int, default=11)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a search parameter for both runs")
    args = parser.parse_args()
    for setting in args.set:
        name, _, value = setting.partition("=")
        set_search_parameter(name, int(value))
    one, one_nodes = time_to_depth(1, args.depth)
    two, two_nodes = time_to_depth(2, args.depth)
    print(f"time to depth {args.depth} (s)      1 thread   2 threads")
    for index, (a, b) in enumerate(zip(one, two), 1):
        print(f"  position {index:2d}            {a:8.2f}   {b:8.2f}")
    print(f"  total                  {sum(one):8.2f}   {sum(two):8.2f}   speed-up {sum(one) / sum(two):.2f}x")
    print(f"  nodes             {one_nodes:13,} {two_nodes:13,}")
    print(f"  nodes per second  {one_nodes / sum(one):13,.0f} {two_nodes / sum(two):13,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Lazy SMP check: time to reach a fixed depth on the bench positions with 1 and with 2 threads.

    python benchmarks/threads_speedup.py [depth]

Prints, per position and in total, the wall time each thread count needs to complete the depth, and
the speed-up (time with 1 thread / time with 2). On a 2-core machine with other load the figure is
noisy: run it twice.
"""
from __future__ import annotations

import sys
import time

from engine import Position
from engine._core import Searcher
from engine.server.bench import BENCH_FENS


def time_to_depth(threads: int, depth: int) -> list[float]:
    searcher = Searcher(hash_mb=64, threads=threads)
    times = []
    for fen in BENCH_FENS:
        searcher.clear()
        start = time.perf_counter()
        searcher.search(Position(fen).kernel_board, depth=depth)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    one = time_to_depth(1, depth)
    two = time_to_depth(2, depth)
    print(f"time to depth {depth} (s)      1 thread   2 threads")
    for index, (a, b) in enumerate(zip(one, two), 1):
        print(f"  position {index:2d}            {a:8.2f}   {b:8.2f}")
    print(f"  total                  {sum(one):8.2f}   {sum(two):8.2f}   speed-up {sum(one) / sum(two):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

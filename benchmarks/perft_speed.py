#!/usr/bin/env python3
"""Perft speed: jiangjun's kernel against Fairy-Stockfish, start position, same run.

    python benchmarks/perft_speed.py            # depth 5, best of 3 runs each
    python benchmarks/perft_speed.py --runs 5 --depth 4 --fsf /path/to/fairy-stockfish

jiangjun: ``Position().perft(depth)``, timed in-process.
Fairy-Stockfish (UCI, through engine.client, which sets ``UCI_Variant xiangqi``): ``position startpos``
(needed after the variant is set), ``isready``/``readyok``; then the time from sending ``go perft <depth>``
until the ``Nodes searched:`` line. Both are single-threaded. The best (shortest) of the runs is reported.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_FSF = "/usr/games/fairy-stockfish"


class FairyStockfish:
    """Fairy-Stockfish through the engine client, which does the UCI handshake and sets the variant."""

    def __init__(self, path: str) -> None:
        from engine.client import EngineConfig, open_process

        self.process = open_process(EngineConfig(path, proto="uci"))
        self.process.start()
        self.name = self.process.name

    def perft(self, depth: int) -> tuple[int, float]:
        """(nodes, seconds) of `go perft depth` from the start position."""
        self.process.command(["position startpos", "isready"], lambda line: line.strip() == "readyok")
        start = time.perf_counter()
        lines = self.process.command([f"go perft {depth}"], lambda line: line.startswith("Nodes searched:"),
                                     timeout=3600)
        elapsed = time.perf_counter() - start
        return int(lines[-1].split(":", 1)[1]), elapsed

    def close(self) -> None:
        self.process.quit()


def best_of(runs: int, measure) -> tuple[int, float]:
    results = [measure() for _ in range(runs)]
    nodes = {n for n, _ in results}
    if len(nodes) != 1:
        raise SystemExit(f"node counts differ between runs: {sorted(nodes)}")
    return results[0][0], min(t for _, t in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", "-n", type=int, default=3, help="runs of each engine; the best is kept (default 3)")
    parser.add_argument("--depth", "-d", type=int, default=5, help="perft depth (default 5)")
    parser.add_argument(
        "--fsf",
        default=os.environ.get("JIANGJUN_FSF") or shutil.which("fairy-stockfish") or DEFAULT_FSF,
        help=f"Fairy-Stockfish binary (default: $JIANGJUN_FSF, fairy-stockfish on PATH, or {DEFAULT_FSF})",
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or args.depth < 1:
        parser.error("--runs and --depth must be at least 1")

    if not (os.path.isfile(args.fsf) and os.access(args.fsf, os.X_OK)):
        print(
            f"error: Fairy-Stockfish binary not found or not executable: {args.fsf}\n"
            "Install it (Debian/Ubuntu: apt-get install fairy-stockfish) or pass --fsf PATH / set JIANGJUN_FSF.",
            file=sys.stderr,
        )
        return 2

    from engine import Position

    def jiangjun() -> tuple[int, float]:
        position = Position()
        start = time.perf_counter()
        nodes = position.perft(args.depth)
        return nodes, time.perf_counter() - start

    fsf = FairyStockfish(args.fsf)
    try:
        jj_nodes, jj_time = best_of(args.runs, jiangjun)
        fsf_nodes, fsf_time = best_of(args.runs, lambda: fsf.perft(args.depth))
    finally:
        fsf.close()

    jj_rate, fsf_rate = jj_nodes / jj_time / 1e6, fsf_nodes / fsf_time / 1e6
    print(f"perft({args.depth}) of the start position, best of {args.runs} runs each")
    print(f"{'engine':<28} {'nodes':>14} {'seconds':>9} {'M nodes/s':>10}")
    print(f"{'jiangjun':<28} {jj_nodes:>14,} {jj_time:>9.3f} {jj_rate:>10.2f}")
    print(f"{fsf.name:<28} {fsf_nodes:>14,} {fsf_time:>9.3f} {fsf_rate:>10.2f}")
    print(f"ratio jiangjun/FSF (speed): {jj_rate / fsf_rate:.2f}x")
    if hasattr(os, "getloadavg"):
        print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    if jj_nodes != fsf_nodes:
        print(f"WARNING: node counts differ: jiangjun {jj_nodes}, FSF {fsf_nodes}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Effective branching factor: the nodes and the time each engine needs to complete each depth on the bench
positions (engine/server/bench.py), through UCI, one thread each, a fresh game (`ucinewgame`) per position.

    python benchmarks/ebf.py --depth 14 --engine jiangjun=jiangjun --engine pikafish=$PIKAFISH
    python benchmarks/ebf.py --movetime 1000 --engine jiangjun=jiangjun --engine pikafish=$PIKAFISH

With --depth every engine searches each position to that depth (`go depth D`); the table gives, per depth,
the nodes summed over the positions at the end of that iteration, and the effective branching factor
(nodes(d) / nodes(d - 2)) ** (1/2), whose two-ply span cancels the odd/even oscillation, as a geometric mean
over the positions (node counts are heavy-tailed). With --movetime each engine searches each
position for that long (`go movetime T`) and the table gives the depth, selective depth and nodes reached,
and the speed. Node counts at a fixed depth do not depend on the machine's load (one thread is
deterministic); times do: measure those on an idle machine.

NAME=COMMAND: the command is split as a shell would (shlex) and driven through engine.client (UCI; OwnBook
off, as the client sets it, when the engine has the option). Prints the table to stdout and, with --json
FILE, writes the raw figures.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.client import SimpleEngine  # noqa: E402
from engine.search_types import PvLine, SearchLimits  # noqa: E402
from engine.server.bench import BENCH_FENS  # noqa: E402  (the positions only: no engine is imported)


class UciEngine:
    """A UCI engine (engine.client), one thread and 16 MB of hash where it has the options."""

    def __init__(self, name: str, command: str) -> None:
        self.name = name
        self.engine = SimpleEngine.popen_uci(command, name=name)
        settings = {self.engine.option_name(option): value for option, value in (("Threads", 1), ("Hash", 16))}
        self.engine.configure({option: value for option, value in settings.items() if option is not None})

    def search(self, fen: str, limits: SearchLimits) -> dict[int, dict]:
        """The last exact line 1 of each completed depth: {depth: {nodes, time_ms, seldepth}}."""
        self.engine.new_game()
        by_depth: dict[int, dict] = {}

        def seen(info: PvLine) -> None:
            if info.multipv == 1 and info.pv and info.bound is None and None not in (info.depth, info.nodes,
                                                                                     info.time_ms):
                by_depth[info.depth] = {"nodes": info.nodes, "time_ms": int(info.time_ms),
                                        "seldepth": info.seldepth or info.depth}

        self.engine.play(fen, limits, on_info=seen)
        return by_depth

    def close(self) -> None:
        self.engine.quit()


def geometric_mean(values: list[float]) -> Optional[float]:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def depth_table(results: dict[str, list[dict[int, dict]]], depth: int) -> str:
    names = list(results)
    header = ["depth"] + [f"{n} nodes" for n in names] + [f"{n} EBF" for n in names] + \
        [f"{n} ms" for n in names]
    rows = [header]
    for d in range(1, depth + 1):
        row = [str(d)]
        for n in names:
            done = [p[d]["nodes"] for p in results[n] if d in p]
            row.append(str(sum(done)) if len(done) == len(results[n]) else "-")
        for n in names:
            ratios = [(p[d]["nodes"] / p[d - 2]["nodes"]) ** 0.5 for p in results[n] if d in p and d - 2 in p]
            ebf = geometric_mean(ratios)
            row.append(f"{ebf:.2f}" if ebf else "-")
        for n in names:
            times = [p[d]["time_ms"] for p in results[n] if d in p]
            row.append(str(sum(times)) if len(times) == len(results[n]) else "-")
        rows.append(row)
    return format_rows(rows)


def movetime_table(results: dict[str, list[dict[int, dict]]]) -> str:
    rows = [["engine", "mean depth", "mean seldepth", "nodes", "ms", "nodes/s"]]
    for name, positions in results.items():
        last = [p[max(p)] for p in positions if p]
        depths = [max(p) for p in positions if p]
        nodes = sum(entry["nodes"] for entry in last)
        time_ms = sum(entry["time_ms"] for entry in last)
        rows.append([name, f"{sum(depths) / len(depths):.1f}",
                     f"{sum(e['seldepth'] for e in last) / len(last):.1f}", str(nodes), str(time_ms),
                     str(nodes * 1000 // max(1, time_ms))])
    return format_rows(rows)


def format_rows(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(row, widths)) for row in rows)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", required=True, metavar="NAME=COMMAND")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=int, help="search each position to this depth")
    limit.add_argument("--movetime", type=int, help="search each position for this many ms")
    parser.add_argument("--json", help="write the raw figures to this file")
    args = parser.parse_args(argv)
    go = f"go depth {args.depth}" if args.depth else f"go movetime {args.movetime}"
    limits = SearchLimits(depth=args.depth) if args.depth else SearchLimits(movetime=args.movetime)
    results: dict[str, list[dict[int, dict]]] = {}
    for spec in args.engine:
        name, _, command = spec.partition("=")
        engine = UciEngine(name, command)
        try:
            results[name] = [engine.search(fen, limits) for fen in BENCH_FENS]
        finally:
            engine.close()
    print(f"{len(BENCH_FENS)} bench positions, {go}, 1 thread, Hash 16 MB")
    print(depth_table(results, args.depth) if args.depth else movetime_table(results))
    if args.json:
        Path(args.json).write_text(json.dumps({"go": go, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

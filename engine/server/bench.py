"""`jiangjun bench`: search fixed positions to a fixed depth, and report the nodes and the speed.

The total node count is a signature of the search: with one thread it is deterministic (each
position starts from a cleared searcher), so any change to the search or the evaluation that
changes it shows up, and a change that should not (a refactoring, a speed-up) can be checked
against it. Nodes per second measure the speed of this machine and build.

The evaluation is the engine's default one, the shipped network (engine.nets.DEFAULT); `jiangjun bench
--evalfile NET` searches with another network file, `--hce` with the hand-crafted evaluation.
"""
from __future__ import annotations

import sys
import time
from typing import Optional, Sequence

from .._core import Searcher, clear_network, set_network
from .. import nets
from ..netfile import Network, NetFileError, read_net
from ..position import Position

__all__ = ["BENCH_FENS", "DEFAULT_DEPTH", "run_bench", "main"]

#: Depth of `jiangjun bench` without an argument: about 6-7 s on the development machine (1 thread).
DEFAULT_DEPTH = 10

#: The bench positions: the start, four openings (named opening lines, replayed from the start), four middlegames and
#: three endgames (from the perft suite). Keep them fixed: the node count is only comparable on the same set.
BENCH_FENS: tuple[str, ...] = (
    # start position
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    # 中炮过河车对屏风马: h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 h0h6 g6g5
    "r1bakabr1/9/1cn3nc1/p1p1p2Rp/6p2/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 8 5",
    # 五七炮对屏风马: h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 b2c2 c6c5
    "r1bakabr1/9/1cn3nc1/p3p1p1p/2p6/9/P1P1P1P1P/2C1C1N2/9/RNBAKABR1 w - - 8 5",
    # 中炮对反宫马: h2e2 b9c7 h0g2 h7f7 i0h0 h9g7
    "r1bakab1r/9/1cn2cn2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    # 仙人指路对卒底炮: c3c4 b7c7 h2e2 c9e7
    "rn1akabnr/9/2c1b2c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR w - - 4 3",
    # middlegames
    "2bakar2/9/6n2/1rp3p1p/p5b2/8C/P1P1P2R1/2NR5/9/2BAKABN1 w - - 5 16",
    "2bC1k3/3c5/r3b4/6p2/4p4/p8/P1P1N1P1R/B3R4/9/1N1AKAB2 b - - 2 23",
    "1nb1kCb2/4a1rcr/9/p1p1p3p/6p2/P1P4C1/1R2P1P1c/4B3R/9/1NBAKA1N1 w - - 0 11",
    "2bk1ar2/5r3/3cb4/8p/P1p1P1p2/2B6/4NcP1P/8B/R4N2R/3AKA3 b - - 2 23",
    # endgames
    "4r4/4k4/b6R1/p3n1p1p/2p1p4/9/2P3P2/8B/5K3/7N1 w - - 13 31",
    "3ak4/r8/9/2p6/1PP1P4/8p/6P2/5A3/4A4/4K4 w - - 6 31",
    "3a1k3/9/1n2b4/P6Pp/9/9/1p7/4NA3/3K5/9 w - - 23 41",
)


def run_bench(depth: int = DEFAULT_DEPTH, hash_mb: int = 16, threads: int = 1,
              positions: Optional[Sequence[str]] = None, *, verbose: bool = True,
              network: Optional[Network] = None) -> dict:
    """Search each position (FEN) to `depth` with one fresh Searcher, cleared before each position,
    evaluating with `network` when one is given (it is the process's network during the bench, dropped
    at the end), else with the hand-crafted evaluation.

    Prints a line per position and the totals (`Total nodes: N`, `Time: T ms`, `Nodes/second: NPS`)
    to stdout unless `verbose` is false. Returns {"depth", "hash_mb", "threads", "positions": [{"fen",
    "bestmove", "score", "depth", "nodes", "qnodes", "time_ms"}, ...], "nodes", "qnodes", "time_ms", "nps",
    "nnue"} (qnodes: the nodes of quiescence among them); times are wall
    time of the searches alone. Raises ValueError for a depth below 1 and InvalidFenError for a bad FEN.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"bench depth must be a positive integer, not {depth!r}")
    fens = list(BENCH_FENS if positions is None else positions)
    boards = [Position(fen) for fen in fens]  # all FENs checked before any search
    searcher = Searcher(hash_mb=hash_mb, threads=threads)
    if network is not None:
        set_network(network)
        searcher.use_nnue = True
    try:
        return _run(searcher, depth, hash_mb, fens, boards, verbose, network)
    finally:
        if network is not None:
            clear_network()


def _run(searcher: Searcher, depth: int, hash_mb: int, fens: list[str], boards: list[Position], verbose: bool,
         network: Optional[Network]) -> dict:
    """The bench proper (run_bench has checked the arguments and set the evaluation up)."""
    out = sys.stdout
    results = []
    total_nodes = total_qnodes = 0
    total_seconds = 0.0
    for index, (fen, position) in enumerate(zip(fens, boards), start=1):
        searcher.clear()
        start = time.perf_counter()
        found = searcher.search(position.kernel_board, depth=depth)
        seconds = time.perf_counter() - start
        total_nodes += found.nodes
        total_qnodes += searcher.quiescence_nodes
        total_seconds += seconds
        entry = {"fen": fen, "bestmove": found.bestmove, "score": found.score, "depth": found.depth,
                 "nodes": found.nodes, "qnodes": searcher.quiescence_nodes, "time_ms": seconds * 1000}
        results.append(entry)
        if verbose:
            print(f"Position {index}/{len(fens)}: {fen}", file=out)
            print(f"  bestmove {entry['bestmove'] or '(none)'} score {entry['score']} depth {entry['depth']} "
                  f"nodes {entry['nodes']} time {entry['time_ms']:.0f} ms", file=out, flush=True)
    time_ms = total_seconds * 1000
    nps = int(total_nodes / total_seconds) if total_seconds > 0 else 0
    if verbose:
        print("=" * 40, file=out)
        print(f"Depth: {depth}  Hash: {hash_mb} MB  Threads: {searcher.threads}  Positions: {len(fens)}", file=out)
        if network is not None:
            kind = ", king buckets" if network.version == 2 else ""
            print(f"Evaluation: NNUE, {network.hidden} hidden units{kind}", file=out)
        print(f"Total nodes: {total_nodes}", file=out)
        print(f"Quiescence nodes: {total_qnodes} ({100 * total_qnodes / max(1, total_nodes):.1f}%, "
              f"{total_qnodes / max(1, total_nodes - total_qnodes):.2f} per main-search node)", file=out)
        print(f"Time: {time_ms:.0f} ms", file=out)
        print(f"Nodes/second: {nps}", file=out, flush=True)
    return {"depth": depth, "hash_mb": hash_mb, "threads": searcher.threads, "positions": results,
            "nodes": total_nodes, "qnodes": total_qnodes, "time_ms": time_ms, "nps": nps, "nnue": network is not None}


def main(depth: Optional[int] = None, hash_mb: int = 16, threads: int = 1, evalfile: Optional[str] = None,
         hce: bool = False) -> int:
    """`jiangjun bench [depth] [--hash MB] [--threads N] [--evalfile NET | --hce]`: exit status 0, or 2 on
    bad arguments (a network file that cannot be read included)."""
    depth = DEFAULT_DEPTH if depth is None else depth
    for name, value in (("depth", depth), ("--hash", hash_mb), ("--threads", threads)):
        if value < 1:
            print(f"jiangjun bench: {name} must be at least 1, not {value}", file=sys.stderr)
            return 2
    try:
        network = None if hce else read_net(nets.locate(evalfile or nets.DEFAULT))
        run_bench(depth, hash_mb, threads, network=network)
    except (MemoryError, NetFileError) as exc:
        print(f"jiangjun bench: {exc}", file=sys.stderr)
        return 2
    return 0

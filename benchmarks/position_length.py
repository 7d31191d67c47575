"""How the time to read one `position startpos moves ...` line grows with the game's length, and how soon a
long game is answered.

    python benchmarks/position_length.py                 # 125 .. 3000 plies, best of 7 runs each
    python benchmarks/position_length.py --runs 15 --plies 500 1000 2000

Part 1, in-process: the protocol's handling of the line (engine.server.protocol.Protocol.handle_line:
splitting, parsing every move, replaying the game with the rules' bookkeeping) for games of each length,
the best of `--runs` runs, and the time per ply; a line whose time grows linearly has a flat time per
ply. The time is the CPU time of the thread that reads the line (all of the work is done there): on a
loaded machine the wall clock of a longer line is likelier to include another process's time slice. Part 2, through the engine process: the 1,000-ply game sent as one line, then `go movetime 100`;
the time from sending the `position` line to the `bestmove`.

The games are legal random playouts from the start position (seeded, so every run reads the same lines),
which never leave the side to move without a move; the kernel keeps at most MAX_HISTORY - 512 = 3,584
plies of record, so 3,000 is about the longest game it takes.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Position  # noqa: E402
from engine.server.protocol import Protocol  # noqa: E402
from engine.server.session import LazyEngine  # noqa: E402

DEFAULT_PLIES = (125, 250, 500, 1000, 2000, 3000)


def random_game(plies: int, seed: int = 43) -> list[str]:
    """A legal game of `plies` moves from the start position, random but never ending in a position
    without a move for the side to move."""
    rng = random.Random(seed)
    position = Position()
    moves: list[str] = []
    while len(moves) < plies:
        candidates = position.legal_moves()
        rng.shuffle(candidates)
        for move in candidates:
            position.push(move)
            if position.legal_moves():
                moves.append(move)
                break
            position.pop()
        else:
            raise RuntimeError(f"no move keeps the game going after {len(moves)} plies")
    return moves


def read_time(protocol: Protocol, line: str, runs: int) -> float:
    """The best of `runs` timings (s, the CPU time of this thread) of the protocol carrying out `line`."""
    best = float("inf")
    for _ in range(runs):
        start = time.thread_time()
        protocol.handle_line(line)
        best = min(best, time.thread_time() - start)
    return best


def in_process(plies: list[int], runs: int) -> None:
    said: list[str] = []
    protocol = Protocol(LazyEngine(), said.append, lambda task: task())
    protocol.handle_line("uci")
    protocol.handle_line("isready")       # the facade and the kernel loaded before the clock runs
    game = random_game(max(plies))
    print(f"{'plies':>6} {'bytes':>7} {'read ms':>9} {'us/ply':>8}")
    for n in plies:
        line = "position startpos moves " + " ".join(game[:n])
        seconds = read_time(protocol, line, runs)
        errors = [text for text in said if text.startswith("info string")]
        if errors:
            raise RuntimeError(f"the line of {n} plies was refused: {errors[-1]}")
        print(f"{n:>6} {len(line):>7} {seconds * 1000:>9.2f} {seconds / n * 1e6:>8.1f}")


def through_the_process(plies: int = 1000, movetime_ms: int = 100) -> None:
    game = random_game(plies)
    process = subprocess.Popen([sys.executable, "-m", "engine"], cwd=ROOT, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None

    def send(line: str) -> None:
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def wait_for(prefix: str) -> str:
        for text in process.stdout:
            if text.startswith(prefix):
                return text.strip()
        raise RuntimeError(f"the engine ended without {prefix!r}")

    send("uci")
    send("isready")
    wait_for("readyok")
    start = time.perf_counter()
    send("position startpos moves " + " ".join(game))
    send(f"go movetime {movetime_ms}")
    answer = wait_for("bestmove")
    elapsed = time.perf_counter() - start
    send("quit")
    process.stdin.close()
    process.wait(10)
    print(f"\n{plies} plies, then go movetime {movetime_ms}: {answer!r} after {elapsed * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, nargs="+", default=list(DEFAULT_PLIES))
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    in_process(sorted(args.plies), args.runs)
    through_the_process()
    return 0


if __name__ == "__main__":
    sys.exit(main())

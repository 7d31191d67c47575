"""Depth and time per move by phase of the game, for each engine of a match, from the PGN's move comments
(`{+0.80/16 0.546s}`: score/depth and time, as `jiangjun match -pgnout` writes them).

    python benchmarks/phases.py benchmarks/matches/pikafish-hce-10s-5a2f245.pgn.xz

The phases count each engine's own moves after the opening line (the moves marked `{book}`): 1-20,
21-40, 41 and later. Prints one row per engine and phase: moves, mean depth, mean seconds per move.
"""
from __future__ import annotations

import argparse
import lzma
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.pgn import player_name, read_games  # noqa: E402

_SEARCHED = re.compile(r"^[+-]?(?:\d+\.\d+|M\d+|-M\d+)?/(\d+) (\d+(?:\.\d+)?)s$")
PHASES = ((1, 20), (21, 40), (41, 10 ** 6))


def phase_name(first: int, last: int) -> str:
    return f"{first}-{last}" if last < 10 ** 6 else f"{first}+"


PHASE_ORDER = {phase_name(first, last): index for index, (first, last) in enumerate(PHASES)}


def read(path: Path):
    if path.suffix != ".xz":
        return read_games(path)
    with tempfile.TemporaryDirectory() as workdir:
        unpacked = Path(workdir) / path.stem
        unpacked.write_bytes(lzma.decompress(path.read_bytes()))
        return read_games(unpacked)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", type=Path)
    args = parser.parse_args(argv)
    moves = defaultdict(list)          # (engine, phase) -> [(depth, seconds)]
    for path in args.pgn:
        for game in read(path):
            names = {0: player_name(game.headers, "red"), 1: player_name(game.headers, "black")}
            own = [0, 0]
            for ply, comment in enumerate(game.comments):
                match = _SEARCHED.match((comment or "").strip())
                if match is None:
                    continue
                side = ply % 2
                own[side] += 1
                for first, last in PHASES:
                    if first <= own[side] <= last:
                        moves[(names[side], phase_name(first, last))].append(
                            (int(match.group(1)), float(match.group(2))))
    print(f"{'engine':40} {'phase':>9} {'moves':>7} {'depth':>6} {'s/move':>7}")
    for (engine, phase), rows in sorted(moves.items(), key=lambda kv: (kv[0][0], PHASE_ORDER[kv[0][1]])):
        depth = sum(d for d, _ in rows) / len(rows)
        seconds = sum(s for _, s in rows) / len(rows)
        print(f"{engine:40} {phase:>9} {len(rows):7} {depth:6.1f} {seconds:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

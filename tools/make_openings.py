"""Opening lines for engine matches, taken from master games: the first plies of each game, one line per
distinct position reached, balanced by a short search.

    python tools/make_openings.py ../shared/data/ccpd-games.tar.xz -o benchmarks/openings-ccpd.txt \
        --plies 10 --count 2000

The games are the Chinese Chess Practical Dataset's (Yu-Han Tseng, CC BY 4.0): a tar.xz of Big5-encoded
PGN files. A folder of PGN files, or a single PGN file, may be given instead. The output is the match
runner's book format (`name ; ICCS moves`, `jiangjun match -openings file=F format=book`).

Self-play at a fixed node count is deterministic: the same opening gives the same game, so a test of an
engine change needs at least as many distinct openings as game pairs. The built-in book has 38.

The balance search is this engine's, hosted in process (engine.client's SimpleEngine.in_process: one
thread, the hand-crafted evaluation), from a fresh table for each opening.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import ccpd
from engine import START_FEN, Position
from engine.client import SimpleEngine
from engine.pgn import PgnError, read_games
from engine.search_types import SearchLimits

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="tar archive, folder or file of PGN games")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--plies", type=int, default=10, help="plies of each game to keep (default 10)")
    parser.add_argument("--count", type=int, default=2000, help="openings to write (default 2000)")
    parser.add_argument("--depth", type=int, default=6, help="depth of the balance search (default 6)")
    parser.add_argument("--balance", type=int, default=80,
                        help="keep openings whose score is within this many centipawns (default 80)")
    parser.add_argument("--seed", type=int, default=1, help="order in which the games are sampled")
    args = parser.parse_args(argv)

    lines = []
    seen = set()
    files = list(ccpd.pgn_files(args.source))
    random.Random(args.seed).shuffle(files)
    engine = SimpleEngine.in_process(options={"Threads": 1, "Hash": 16, "Use NNUE": False})
    unreadable = 0
    for name, data in files:
        if len(lines) >= args.count:
            break
        try:
            # strict, as the openings were made: a damaged record leaves its file out (reproducible runs)
            games = read_games(ccpd.decode(data), errors="raise")
        except (UnicodeDecodeError, PgnError):
            unreadable += 1
            continue
        for game in games:
            if game.starting_fen().split()[:2] != START_FEN.split()[:2] or len(game.moves) < args.plies + 10:
                continue
            position = Position()
            for move in game.moves[:args.plies]:
                position.push(move)
            key = position.fen().split()[:2]
            if tuple(key) in seen or position.outcome() is not None:
                continue
            seen.add(tuple(key))
            engine.new_game()
            score = engine.play(position, SearchLimits(depth=args.depth)).score.value
            if abs(score) > args.balance:
                continue
            label = (game.headers.get("ECCO") or "game").strip() or "game"
            lines.append(f"{label} {len(lines) + 1} ; {' '.join(game.moves[:args.plies])}")
            if len(lines) % 200 == 0:
                print(f"{len(lines)} openings", file=sys.stderr, flush=True)
    header = [f"# {len(lines)} openings: the first {args.plies} plies of master games, balanced within "
              f"{args.balance} cp at depth {args.depth} (tools/make_openings.py).",
              f"# Games: {ccpd.CREDIT}."]
    engine.quit()
    args.output.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} openings to {args.output} ({unreadable} files unreadable)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

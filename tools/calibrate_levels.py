"""Measure the strength levels: play them against each other and against fixed anchors, fit one Elo per
player by maximum likelihood, and print the README's table and strength.MEASURED_ELO.

    python tools/calibrate_levels.py play --out calib/ --games 10 --anchor-games 6   # all of SCHEDULE
    python tools/calibrate_levels.py play --out calib/ --games 8 --pairs L00-fsf-s0 L19-eleeye-d5
    python tools/calibrate_levels.py fit calib/*.pgn                    # the table, from the PGN files
    python tools/calibrate_levels.py fit benchmarks/levels-calibration.pgn.xz   # the README's games

Players: `Lnn` is jiangjun at Skill Level nn (with a clock of 60 s + 1 s, which no level comes near
using: every level is bound by its own depth and node caps, so the games do not depend on the machine's
load); `fsf-sK` is Fairy-Stockfish 11.1 at Skill Level K searching to depth K + 1 (the depth at which its
skill picks its move, so deeper would change nothing); `eleeye-dD` is ElephantEye at depth D. Each pair
plays `--games` games from random master-game openings (benchmarks/openings-ccpd.txt), each opening
twice with the colours swapped.

The fit: each player i has a rating r_i; a game between i and j is scored s (1, 1/2, 0 for i) with
the logistic expectation E = 1 / (1 + 10^((r_j - r_i) / 400)); the ratings maximise
sum s log E + (1 - s) log (1 - E) (a draw counts as half a win and half a loss). One player, the anchor,
is fixed; the error bars are 1.96 standard errors from the inverse of the observed information matrix
(relative to the anchor).
"""
from __future__ import annotations

import argparse
import lzma
import math
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.pgn import read_games  # noqa: E402
from engine.pgn.game import player_name  # noqa: E402

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
#: ElephantEye's command: the ELEEYE path that ../shared/anchors/build.sh prints, in the environment.
ELEPHANTEYE = os.environ.get("ELEEYE", "ELEEYE.EXE")
OPENINGS = ROOT / "benchmarks" / "openings-ccpd.txt"

#: The levels played against their neighbours two apart (and 18 against 19); the odd levels up to 7
#: are played against their direct neighbours, the others (9 to 17) are interpolated.
LEVELS = (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 19)
ODD_LEVELS = (1, 3, 5, 7)
#: The anchor whose rating is fixed, and its rating: the zero point of the scale is a convention.
ANCHOR, ANCHOR_ELO = "fsf-s0", 1000.0

#: The pairs of the README's table: the levels against each other, and each anchor against the levels
#: near it (placed by trial games).
SCHEDULE: tuple[tuple[str, str], ...] = (
    *((f"L{a:02d}", f"L{b:02d}") for a, b in zip(LEVELS, LEVELS[1:])),
    *((f"L{odd - 1:02d}", f"L{odd:02d}") for odd in ODD_LEVELS),
    *((f"L{odd:02d}", f"L{odd + 1:02d}") for odd in ODD_LEVELS),
    ("L00", "fsf-s0"), ("L02", "fsf-s0"),
    ("L02", "fsf-s2"), ("L04", "fsf-s2"), ("L06", "fsf-s2"),
    ("L02", "eleeye-d1"), ("L04", "eleeye-d1"), ("L06", "eleeye-d1"),
    ("L06", "fsf-s4"), ("L08", "fsf-s4"), ("L10", "fsf-s4"),
    ("L10", "eleeye-d3"), ("L12", "eleeye-d3"), ("L14", "eleeye-d3"),
    ("L10", "fsf-s7"), ("L12", "fsf-s7"), ("L14", "fsf-s7"),
    ("L14", "eleeye-d5"), ("L16", "eleeye-d5"),
    ("L19", "fsf-s10"),
)


def engine_args(player: str) -> list[str]:
    """The `-engine` settings of a player of the schedule."""
    if player.startswith("L"):
        level = int(player[1:])
        return ["cmd=python -m engine", f"dir={ROOT}", f"name={player}", f"option.Skill Level={level}",
                "tc=60+1"]
    if player.startswith("fsf-s"):
        skill = int(player[5:])
        return [f"cmd={FAIRY_STOCKFISH}", f"name={player}", "proto=uci", f"option.Skill Level={skill}",
                f"tc=depth={skill + 1}"]
    if player.startswith("eleeye-d"):
        return [f"cmd={ELEPHANTEYE}", f"name={player}", "proto=ucci", f"tc=depth={int(player[8:])}"]
    raise ValueError(f"unknown player {player!r}")


def play(out: Path, games: int, anchor_games: int, pairs: Sequence[tuple[str, str]], seed: int) -> None:
    """Play each pair's games with `jiangjun match`, one game at a time, into out/A_vs_B.pgn: `games`
    for two levels, `anchor_games` for a level and an anchor."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for number, (a, b) in enumerate(pairs):
        pgn = out / f"{a}_vs_{b}.pgn"
        n = games if a.startswith("L") and b.startswith("L") else anchor_games
        command = [sys.executable, "-m", "engine", "match", "-engine", *engine_args(a), "-engine",
                   *engine_args(b), "-games", "2", "-rounds", str(max(1, n // 2)), "-repeat",
                   "-concurrency", "1", "-openings", f"file={OPENINGS}", "format=book", "order=random",
                   "-seed", str(seed + number), "-pgnout", str(pgn)]
        print("$", " ".join(_quoted(command)), flush=True)
        finished = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
        summary = [line for line in finished.stdout.splitlines() if line.startswith("  ")]
        print("\n".join(summary[:2]) or finished.stdout[-500:] + finished.stderr[-500:], flush=True)


def _quoted(words: Iterable[str]) -> list[str]:
    return [f'"{word}"' if " " in word else word for word in words]


def results(paths: Iterable[Path]) -> list[tuple[str, str, float]]:
    """(red, black, Red's score) of every finished game in the PGN files (.pgn, or .pgn.xz)."""
    scores = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    games = []
    for path in paths:
        source = lzma.decompress(path.read_bytes()) if path.suffix == ".xz" else str(path)
        for game in read_games(source):
            if game.result in scores:
                games.append((player_name(game.headers, "red"), player_name(game.headers, "black"),
                              scores[game.result]))
    return games


def fit(games: Sequence[tuple[str, str, float]], anchor: str = ANCHOR, anchor_elo: float = ANCHOR_ELO,
        iterations: int = 100) -> dict[str, tuple[float, float]]:
    """{player: (Elo, 95% error relative to the anchor)}: see fit_with_covariance."""
    ratings, _ = fit_with_covariance(games, anchor, anchor_elo, iterations)
    return ratings


def fit_with_covariance(games: Sequence[tuple[str, str, float]], anchor: str = ANCHOR,
                        anchor_elo: float = ANCHOR_ELO, iterations: int = 100
                        ) -> tuple[dict[str, tuple[float, float]], dict[tuple[str, str], float]]:
    """The ratings by maximum likelihood (Newton's method on the log-likelihood), the anchor fixed, and
    the covariance of every two ratings (Elo^2; 0 for the anchor). A player who won or lost every game
    has no finite maximum: a weak pull towards the anchor's rating (the curvature of 1/250 of a game
    between equals) keeps it finite and moves the others very little."""
    players = sorted({p for red, black, _ in games for p in (red, black)})
    if anchor not in players:
        raise ValueError(f"the anchor {anchor} played no game")
    index = {p: i for i, p in enumerate(players)}
    free = [p for p in players if p != anchor]
    keep = [index[p] for p in free]
    k = math.log(10) / 400
    r = np.zeros(len(players))
    pairs = np.array([(index[a], index[b]) for a, b, _ in games])
    s = np.array([score for _, _, score in games])
    prior = 1e-3 * k * k
    hess = np.zeros((len(players), len(players)))
    for _ in range(iterations):
        diff = r[pairs[:, 0]] - r[pairs[:, 1]]
        e = 1 / (1 + np.exp(-k * diff))
        grad = np.zeros(len(players))
        np.add.at(grad, pairs[:, 0], k * (s - e))
        np.add.at(grad, pairs[:, 1], -k * (s - e))
        w = k * k * e * (1 - e)
        hess = np.zeros((len(players), len(players)))
        np.add.at(hess, (pairs[:, 0], pairs[:, 0]), -w)
        np.add.at(hess, (pairs[:, 1], pairs[:, 1]), -w)
        np.add.at(hess, (pairs[:, 0], pairs[:, 1]), w)
        np.add.at(hess, (pairs[:, 1], pairs[:, 0]), w)
        grad -= prior * (r - r[index[anchor]])
        hess -= prior * np.eye(len(players))
        step = np.linalg.solve(hess[np.ix_(keep, keep)], -grad[keep])
        r[keep] += step
        if np.max(np.abs(step)) < 1e-6:
            break
    cov = np.linalg.inv(-hess[np.ix_(keep, keep)])
    covariance = {(a, b): 0.0 for a in players for b in players}
    for i, a in enumerate(free):
        for j, b in enumerate(free):
            covariance[a, b] = float(cov[i, j])
    ratings = {p: (anchor_elo + r[index[p]] - r[index[anchor]], 1.96 * math.sqrt(covariance[p, p]))
               for p in players}
    return ratings, covariance


def step_error(covariance: dict[tuple[str, str], float], a: str, b: str) -> float:
    """The 95% error of the difference of two ratings."""
    return 1.96 * math.sqrt(max(0.0, covariance[a, a] + covariance[b, b] - 2 * covariance[a, b]))


def table(games: Sequence[tuple[str, str, float]], ratings: dict[str, tuple[float, float]],
          covariance: Optional[dict[tuple[str, str], float]] = None) -> str:
    """The README's markdown table: each player with its Elo and error (relative to the anchor), games
    and points; for a level, also its step from the level measured below it, with that step's own error
    (given the covariance)."""
    count: dict[str, int] = defaultdict(int)
    points: dict[str, float] = defaultdict(float)
    for red, black, score in games:
        count[red] += 1
        count[black] += 1
        points[red] += score
        points[black] += 1 - score
    rows = ["| player | Elo | step from the level below | games | points |", "|---|---|---|---|---|"]
    levels = sorted(p for p in ratings if p.startswith("L"))
    below = dict(zip(levels[1:], levels))
    for player, (elo, error) in sorted(ratings.items(), key=lambda item: item[1][0]):
        name = f"level {int(player[1:])}" if player.startswith("L") else player
        shown = f"{elo:.0f}" + (" (anchor)" if error == 0 else f" ± {error:.0f}")
        step = ""
        if player in below and covariance is not None:
            lower = below[player]
            step = (f"{elo - ratings[lower][0]:+.0f} ± {step_error(covariance, player, lower):.0f} "
                    f"(from {int(lower[1:])})")
        rows.append(f"| {name} | {shown} | {step} | {count[player]} | {points[player]:g} |")
    return "\n".join(rows)


def rising(points: Sequence[tuple[int, float, float]]) -> list[tuple[int, float]]:
    """The closest non-falling sequence to (level, Elo, weight) points, by pooling adjacent violators
    (weighted least squares under the order: the Elo of a level is at least that of the level below)."""
    blocks: list[list[float]] = []       # [weighted sum, weight, count]
    for _, elo, weight in sorted(points):
        blocks.append([elo * weight, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, weight, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += weight
            blocks[-1][2] += count
    values = [block[0] / block[1] for block in blocks for _ in range(int(block[2]))]
    return [(level, value) for (level, _, _), value in zip(sorted(points), values)]


def measured_elo(ratings: dict[str, tuple[float, float]]) -> str:
    """strength.MEASURED_ELO as Python source: the levels' Elo made non-falling (see rising), each
    weighted by the inverse square of its error."""
    points = [(int(p[1:]), elo, 1 / max(error, 1.0) ** 2) for p, (elo, error) in ratings.items()
              if p.startswith("L")]
    entries = ", ".join(f"{level}: {elo:.0f}.0" for level, elo in rising(points))
    return "MEASURED_ELO: dict[int, float] = {\n    " + entries + ",\n}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_play = sub.add_parser("play", help="play the schedule's games")
    p_play.add_argument("--out", type=Path, required=True)
    p_play.add_argument("--games", type=int, default=20, help="games per pair of levels (even)")
    p_play.add_argument("--anchor-games", type=int, default=12, help="games per pair with an anchor (even)")
    p_play.add_argument("--pairs", nargs="*", help="only these pairs, as A-B (e.g. L00-fsf-s0)")
    p_play.add_argument("--seed", type=int, default=1)
    p_fit = sub.add_parser("fit", help="fit the Elo table from PGN files")
    p_fit.add_argument("pgn", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "play":
        pairs = list(SCHEDULE)
        if args.pairs:     # A-B; the first "-" ends A (a level's name has none)
            pairs = [tuple(pair.split("-", 1)) for pair in args.pairs]
        play(args.out, args.games, args.anchor_games, pairs, args.seed)
        return 0
    games = results(args.pgn)
    ratings, covariance = fit_with_covariance(games)
    print(f"{len(games)} games\n")
    print(table(games, ratings, covariance))
    print()
    print(measured_elo(ratings))
    return 0


if __name__ == "__main__":
    sys.exit(main())

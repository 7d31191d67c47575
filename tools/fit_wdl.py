"""Fit the win/draw/loss model (engine/wdl.py) to the project's games, by maximum likelihood.

    python tools/fit_wdl.py benchmarks/matches/*.pgn.xz [--write engine/wdl.py] [--table]

The data: every move of jiangjun's in the games (a player whose name starts with "jiangjun"; both
sides of a game between two builds), after the opening book, with the score its comment gives
(`{+0.37/19 0.841s}`: the mover's score in pawns, as `jiangjun match` writes it), paired with the
material count M of the position it was searched in and with the game's result from the mover's
view. Mates and scores beyond ±MAX_CP are left out (the game is decided there; they would only
sharpen the curve's tails), and so are games without a result.

The model (engine/wdl.py): win(v) = 1 / (1 + exp((a - v) / b)), loss(v) = win(-v), draw the rest,
with a and b cubic in m = clamp(M) / MATERIAL_REFERENCE. It is the model of a game between equals;
most games were played against other engines, weaker or stronger, so each file's games against
another engine get a shift of their own, a number of centipawns added to every score of the file
(the opponent's strength on the score's scale: positive against a weaker one), while games between
two builds of jiangjun have none. The fit, as Stockfish's WDL_model does it, plus the shifts:

1. for each bucket of material counts, the (a, b) of most likelihood, without shifts (a start for
   step 3, and a check that a cubic can follow them);
2. cubics fitted to those (a, b), weighted by the bucket's positions (constants, the one (a, b)
   of all positions, when the cubics make a or b negative somewhere in the data's range);
3. the eight coefficients and the shifts of most likelihood over all positions at once
   (scipy.optimize.minimize, L-BFGS-B, from step 2's and no shift).

Prints the steps, the coefficients and shifts, and with --table the calibration tables (predicted
against observed wins, draws and losses by material and score) that docs/wdl.md shows. --write puts
the coefficients into engine/wdl.py (between its BEGIN/END lines). Needs numpy and scipy (the
[train] extra).
"""
from __future__ import annotations

import argparse
import datetime
import lzma
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine import wdl  # noqa: E402
from engine.pgn import player_name, read_games  # noqa: E402
from engine.position import Position  # noqa: E402

#: The comment after a searched move: the mover's score in pawns, /depth, the time (mates, M5, do not match).
_SCORED = re.compile(r"^([+-]?\d+\.\d+)/(\d+)(?: [\d.]+s)?$")
#: Scores beyond this (centipawns, either way) are left out.
MAX_CP = 1000
#: The players whose moves are fitted: the project's engine under any build's name.
PLAYER_PREFIX = "jiangjun"
#: The game's result from Red's view.
RED_RESULT = {"1-0": 1, "1/2-1/2": 0, "0-1": -1}
#: The group of a game between two builds of jiangjun: no shift.
SELF_PLAY = "self-play"
#: Buckets of material counts for step 1: [low, high).
MATERIAL_BUCKETS = ((0, 15), (15, 20), (20, 25), (25, 30), (30, 35), (35, 40), (40, 45), (45, 50), (50, 55),
                    (55, 60), (60, 65), (65, 70), (70, 75), (75, 80), (80, 85), (85, 90), (90, 95), (95, 100),
                    (100, 105), (105, 111))
#: Coarser ones for the calibration tables.
TABLE_MATERIAL_BUCKETS = ((0, 20), (20, 30), (30, 45), (45, 60), (60, 75), (75, 90), (90, 100), (100, 111))
#: Score buckets (centipawns, the mover's) of the calibration tables: [low, high).
SCORE_BUCKETS = ((-1000, -300), (-300, -150), (-150, -75), (-75, -25), (-25, 25), (25, 75), (75, 150),
                 (150, 300), (300, 1001))
#: Fewer positions than this in a bucket: no per-bucket fit (step 1) and no row in a table.
MIN_BUCKET = 200


@dataclass
class Samples:
    """One row per move fitted: the mover's score (cp), the material count, the result (+1/0/-1, the
    mover's view) and the group of its game (its file, or SELF_PLAY)."""

    score: np.ndarray
    material: np.ndarray
    result: np.ndarray
    group: np.ndarray

    def __len__(self) -> int:
        return len(self.score)

    def subset(self, keep: np.ndarray) -> "Samples":
        return Samples(self.score[keep], self.material[keep], self.result[keep], self.group[keep])

    def scale(self) -> np.ndarray:
        """engine.wdl.material_scale of each row."""
        return np.array([wdl.material_scale(int(m)) for m in self.material])


def read_pgn(path: Path):
    data = path.read_bytes()
    return read_games(lzma.decompress(data) if path.suffix == ".xz" else data)


def collect(paths: list[Path]) -> Samples:
    scores, materials, results, groups = [], [], [], []
    for path in paths:
        for game in read_pgn(path):
            red_result = RED_RESULT.get(game.result)
            if red_result is None:
                continue
            ours = [player_name(game.headers, side).lower().startswith(PLAYER_PREFIX) for side in ("red", "black")]
            group = SELF_PLAY if all(ours) else path.name
            position = Position(game.starting_fen())
            for move, comment in zip(game.moves, game.comments):
                side = position.turn.index
                match = _SCORED.match((comment or "").strip())
                if ours[side] and match is not None:
                    cp = round(float(match.group(1)) * 100)
                    if abs(cp) <= MAX_CP:
                        scores.append(cp)
                        materials.append(wdl.material_count(position.piece_map().values()))
                        results.append(red_result if side == 0 else -red_result)
                        groups.append(group)
                position.push(move)
    return Samples(np.array(scores, float), np.array(materials, int), np.array(results, int), np.array(groups))


@dataclass
class Model:
    """The fitted model: a's and b's cubic (highest power first) and each group's shift (cp)."""

    a: np.ndarray
    b: np.ndarray
    shifts: dict

    def shift_of(self, samples: Samples) -> np.ndarray:
        return np.array([self.shifts.get(group, 0.0) for group in samples.group])

    def probabilities(self, samples: Samples, shifted: bool = True) -> np.ndarray:
        """Each row's predicted (win, draw, loss), shape (n, 3); with its group's shift unless not `shifted`."""
        m = samples.scale()
        score = samples.score + (self.shift_of(samples) if shifted else 0.0)
        return probabilities(score, np.polyval(self.a, m), np.polyval(self.b, m))


def win_chance(v: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """engine.wdl.win_chance, vectorised (the same formula)."""
    return 1.0 / (1.0 + np.exp(np.clip((a - v) / b, -700, 700)))


def probabilities(score: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    win = win_chance(score, a, b)
    loss = win_chance(-score, a, b)
    return np.stack([win, 1.0 - win - loss, loss], axis=1)


def negative_log_likelihood(p: np.ndarray, result: np.ndarray) -> float:
    """The mean negative log-likelihood of the results (+1/0/-1) under the predictions p (n, 3)."""
    observed = p[np.arange(len(p)), 1 - result]      # result +1 -> column 0 (win), 0 -> 1, -1 -> 2
    return float(-np.mean(np.log(np.clip(observed, 1e-12, None))))


def fit_constant(samples: Samples) -> tuple[float, float]:
    """Step 1: the one (a, b) of most likelihood for these samples, without shifts."""
    found = minimize(lambda x: negative_log_likelihood(probabilities(samples.score, x[0], x[1]), samples.result),
                     np.array([150.0, 100.0]), method="L-BFGS-B", bounds=[(1.0, 3000.0), (5.0, 3000.0)])
    return float(found.x[0]), float(found.x[1])


def fit_buckets(samples: Samples) -> list[tuple[str, float, int, float, float]]:
    """Step 1 for each material bucket: (its range of material counts, mean m, positions, a, b)."""
    rows = []
    m = samples.scale()
    for low, high in MATERIAL_BUCKETS:
        keep = (samples.material >= low) & (samples.material < high)
        if keep.sum() < MIN_BUCKET:
            continue
        a, b = fit_constant(samples.subset(keep))
        rows.append((f"{low}-{high - 1}", float(m[keep].mean()), int(keep.sum()), a, b))
    return rows


def fit_model(samples: Samples, buckets) -> Model:
    """Steps 2 and 3: cubics through the buckets' (a, b), then the eight coefficients and the shifts by
    likelihood."""
    ms = np.array([row[1] for row in buckets])
    weights = np.sqrt(np.array([row[2] for row in buckets], float))
    degree = min(3, len(buckets) - 1)
    start_a = np.pad(np.polyfit(ms, [row[3] for row in buckets], degree, w=weights), (3 - degree, 0))
    start_b = np.pad(np.polyfit(ms, [row[4] for row in buckets], degree, w=weights), (3 - degree, 0))
    groups = sorted(set(samples.group) - {SELF_PLAY})
    index = np.array([groups.index(g) if g != SELF_PLAY else len(groups) for g in samples.group])
    m = samples.scale()

    def loss(x: np.ndarray) -> float:
        a, b = np.polyval(x[:4], m), np.polyval(x[4:8], m)
        if np.any(a <= 0) or np.any(b <= 0):
            return 1e6
        shift = np.append(x[8:], 0.0)[index]
        return negative_log_likelihood(probabilities(samples.score + shift, a, b), samples.result)

    start = np.concatenate([start_a, start_b, np.zeros(len(groups))])
    if loss(start) >= 1e6:     # the cubics through the buckets leave the data's range: start flat instead
        a0, b0 = fit_constant(samples)
        start = np.concatenate([[0, 0, 0, a0], [0, 0, 0, b0], np.zeros(len(groups))])
    found = minimize(loss, start, method="L-BFGS-B")
    if not np.isfinite(found.fun) or found.fun >= 1e6:
        raise SystemExit("the fit failed: a or b is not positive over the data's material")
    return Model(found.x[:4], found.x[4:8], {g: float(x) for g, x in zip(groups, found.x[8:])})


def calibration(samples: Samples, model: Model, shifted: bool) -> list[str]:
    """The table of predicted against observed (win, draw, loss) in per cent, per material and score bucket."""
    p = model.probabilities(samples, shifted)
    lines = ["| material | score (cp) | positions | predicted W / D / L % | observed W / D / L % |",
             "|---|---|---|---|---|"]
    for mlow, mhigh in TABLE_MATERIAL_BUCKETS:
        for slow, shigh in SCORE_BUCKETS:
            keep = ((samples.material >= mlow) & (samples.material < mhigh)
                    & (samples.score >= slow) & (samples.score < shigh))
            n = int(keep.sum())
            if n < MIN_BUCKET:
                continue
            predicted = 100 * p[keep].mean(axis=0)
            observed = 100 * np.array([(samples.result[keep] == r).mean() for r in (1, 0, -1)])
            lines.append(f"| {mlow}-{mhigh - 1} | {slow} to {shigh - 1} | {n} | "
                         f"{' / '.join(f'{x:.0f}' for x in predicted)} | "
                         f"{' / '.join(f'{x:.0f}' for x in observed)} |")
    return lines


def by_group(samples: Samples, model: Model) -> list[str]:
    """Per group: positions, its shift, the mean -log L, and the mean predicted against observed score."""
    lines = ["| games | positions | shift (cp) | mean -log L | predicted score % | observed score % |",
             "|---|---|---|---|---|---|"]
    for group in sorted(set(samples.group)):
        part = samples.subset(samples.group == group)
        p = model.probabilities(part)
        predicted = 100 * float(np.mean(p[:, 0] + 0.5 * p[:, 1]))
        observed = 100 * float(np.mean((part.result + 1) / 2))
        lines.append(f"| {group} | {len(part)} | {model.shifts.get(group, 0.0):+.0f} | "
                     f"{negative_log_likelihood(p, part.result):.4f} | {predicted:.1f} | {observed:.1f} |")
    return lines


def coefficient_block(model: Model, paths: list[Path], count: int) -> str:
    """The lines between engine/wdl.py's BEGIN and END markers: where they came from, and the coefficients."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    source = (f"Fitted {datetime.date.today().isoformat()} at commit {commit} by `python tools/fit_wdl.py "
              f"--write engine/wdl.py FILES` (docs/wdl.md) to {count} moves of jiangjun's in the FILES "
              + ", ".join(str(path) for path in paths) + ".")
    a = ", ".join(f"{x:.8f}" for x in model.a)
    b = ", ".join(f"{x:.8f}" for x in model.b)
    return ("\n".join(textwrap.wrap(source, 110, initial_indent="# ", subsequent_indent="# ",
                                    break_on_hyphens=False)) + "\n"
            f"#: a(m) and b(m), highest power first (m**3, m**2, m, 1).\n"
            f"A_COEFFICIENTS = ({a})\n"
            f"B_COEFFICIENTS = ({b})\n")


def write(path: Path, block: str) -> None:
    text = path.read_text()
    begin = text.index("# BEGIN fitted coefficients")
    begin = text.index("\n", begin) + 1
    end = text.index("# END fitted coefficients")
    path.write_text(text[:begin] + block + text[end:])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", type=Path, help="match PGNs (.pgn or .pgn.xz)")
    parser.add_argument("--write", type=Path, metavar="PY", help="put the coefficients into this file (engine/wdl.py)")
    parser.add_argument("--table", action="store_true", help="print the calibration tables (markdown)")
    args = parser.parse_args(argv)
    samples = collect(args.pgn)
    counts = {r: int((samples.result == r).sum()) for r in (1, 0, -1)}
    print(f"{len(samples)} moves: {counts[1]} in won games, {counts[0]} drawn, {counts[-1]} lost")
    print("step 1: (a, b) per material bucket")
    buckets = fit_buckets(samples)
    for span, _, n, a, b in buckets:
        print(f"  M {span:>7} ({n:5} moves): a {a:6.1f}  b {b:6.1f}")
    model = fit_model(samples, buckets)
    a0, b0 = fit_constant(samples)
    print(f"step 3: mean -log L {negative_log_likelihood(model.probabilities(samples), samples.result):.4f} "
          f"(one (a, b) for all material and no shifts: {a0:.1f}, {b0:.1f}: "
          f"{negative_log_likelihood(probabilities(samples.score, a0, b0), samples.result):.4f})")
    for material in (wdl.MATERIAL_MIN, 40, 65, 90, wdl.MATERIAL_MAX):
        scale = wdl.material_scale(material)
        print(f"  M {material:3}: a {np.polyval(model.a, scale):7.1f}  b {np.polyval(model.b, scale):7.1f}")
    for group, shift in model.shifts.items():
        print(f"  shift {shift:+6.1f} cp: {group}")
    block = coefficient_block(model, args.pgn, len(samples))
    print(block, end="")
    if args.table:
        print("\nAll games, each with its shift:\n")
        print("\n".join(calibration(samples, model, shifted=True)))
        self_play = samples.group == SELF_PLAY
        if self_play.sum() >= MIN_BUCKET:
            print("\nGames between two builds of jiangjun (no shift: the model as the engine uses it):\n")
            print("\n".join(calibration(samples.subset(self_play), model, shifted=False)))
        print()
        print("\n".join(by_group(samples, model)))
    if args.write:
        write(args.write, block)
        print(f"wrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

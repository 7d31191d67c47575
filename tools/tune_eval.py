"""Tune the evaluation weights on game records (Texel's method).

    python tools/tune_eval.py games.pgn [more.pgn ...] [--skip 10] [--iterations 200]

Every position of the games (after the first --skip plies, not in check, and quiet: its quiescence
score equals its static evaluation) is labelled with the game's result. The evaluation is, up to
integer rounding, linear in the weights of ext/eval.pxi: eval = constant + sum(weight_i * feature_i).
The features are measured once per position by finite differences (each weight raised by STEP), and
then the weights are fitted to minimise the mean squared error between the result and
sigmoid(eval) with a fixed scale K (itself fitted first on the current weights). Materials stay
anchored: the chariot's weight is kept, so that the scale of centipawns does not drift.

Prints the fitted weights as the line to paste into EVAL_WEIGHTS. Needs numpy (a development tool
only; the engine itself has no dependencies). The result is a proposal: measure it in self-play.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from engine import _core
from engine.pgn import read_games
from engine.position import Position

STEP = 50
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
FIXED = {"rook", "advisor", "elephant"}   # the chariot anchors the scale; the defenders overlap with missing_defender


def collect(paths: list[str], skip: int) -> tuple[np.ndarray, np.ndarray]:
    """(features with a leading constant column, results) of the quiet positions, Red's view."""
    base = _core.eval_weights()
    searcher = _core.Searcher(16, 1)
    rows, results = [], []
    for path in paths:
        for game in read_games(path):
            if game.result not in RESULTS:
                continue
            position = Position(game.starting_fen())
            for ply, move in enumerate(game.moves):
                board = position._board
                if ply >= skip and not position.is_check():
                    static = searcher.evaluate(board)
                    if searcher.quiescence(board) == static:
                        sign = 1 if board.side == 0 else -1
                        row = [sign * static]
                        for i in range(len(base)):
                            raised = list(base)
                            raised[i] += STEP
                            _core.set_eval_weights(raised)
                            row.append(sign * (searcher.evaluate(board) - static) / STEP)
                        _core.set_eval_weights(base)
                        rows.append(row)
                        results.append(RESULTS[game.result])
                position.push(move)
    features = np.array(rows, dtype=float)
    # eval = constant + w . f  =>  constant = eval_at_base - base . f
    constant = features[:, 0] - features[:, 1:] @ np.array(base, dtype=float)
    return np.column_stack([constant, features[:, 1:]]), np.array(results)


def error(features: np.ndarray, results: np.ndarray, weights: np.ndarray, k: float) -> float:
    evals = features[:, 0] + features[:, 1:] @ weights
    return float(np.mean((results - 1.0 / (1.0 + 10.0 ** (-k * evals / 400.0))) ** 2))


def fit_k(features: np.ndarray, results: np.ndarray, weights: np.ndarray) -> float:
    best_k, best = 1.0, error(features, results, weights, 1.0)
    for k in np.arange(0.1, 3.0, 0.02):
        e = error(features, results, weights, k)
        if e < best:
            best_k, best = float(k), e
    return best_k


def tune(features: np.ndarray, results: np.ndarray, weights: np.ndarray, k: float, iterations: int,
         free: list[int]) -> np.ndarray:
    """Coordinate descent with integer steps that shrink when no single step helps."""
    best = error(features, results, weights, k)
    step = 8
    for _ in range(iterations):
        improved = False
        for i in free:
            for delta in (step, -step):
                trial = weights.copy()
                trial[i] = max(0, trial[i] + delta)
                e = error(features, results, trial, k)
                if e < best:
                    best, weights, improved = e, trial, True
                    break
        if not improved:
            if step == 1:
                break
            step //= 2
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--skip", type=int, default=10, help="opening plies left out (default 10)")
    parser.add_argument("--iterations", type=int, default=200)
    options = parser.parse_args(argv)
    names = _core.EVAL_WEIGHT_NAMES
    base = np.array(_core.eval_weights(), dtype=float)
    features, results = collect(options.pgn, options.skip)
    print(f"{len(results)} quiet positions", file=sys.stderr)
    k = fit_k(features, results, base)
    print(f"K = {k:.2f}, error {error(features, results, base, k):.6f}", file=sys.stderr)
    free = [i for i, name in enumerate(names) if name not in FIXED]
    tuned = tune(features, results, base, k, options.iterations, free)
    print(f"tuned error {error(features, results, tuned, k):.6f}", file=sys.stderr)
    for name, old, new in zip(names, base, tuned):
        print(f"  {name:18} {int(old):5} -> {int(new):5}", file=sys.stderr)
    print("EVAL_WEIGHTS[:] = [" + ", ".join(str(int(v)) for v in tuned) + "]")
    return 0


if __name__ == "__main__":
    sys.exit(main())

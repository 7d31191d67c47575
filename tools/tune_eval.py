"""Fit the evaluation weights to labelled positions.

    python tools/tune_eval.py --labels labels.txt [--epochs 300] [--write ext/eval_weights.pxi]
    python tools/tune_eval.py --games games.pgn [more.pgn ...] [--skip 10] [--write ...]

Targets, one of:
- ``--labels``: positions scored by a reference engine (tools/label_positions.py writes them,
  ``FEN;centipawns from Red's view``); each score becomes a win probability sigmoid(score / REF_SCALE);
- ``--games``: the quiet positions of game records (not in check, quiescence score equal to the static
  evaluation), each labelled with its game's result (Texel's method).

The evaluation is linear in its weights (``_core.eval_features``: eval = sum(weight * feature) up to
rounding), so the fit is a logistic regression: minimise the mean squared error between the target
and sigmoid(eval / K), K fitted first on the current weights (it converts our centipawns to the
target's), by gradient descent (Adam) with a small pull towards the current weights, which keeps
rarely seen piece-square values where they were. The chariot's material anchors the scale.

Prints the change in error on the fitted and on held-out positions; ``--write`` writes the weights
file the kernel is built with. Needs numpy (a development tool; the engine has no dependencies). The
result is a proposal: measure it in games.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from engine import _core
from engine.pgn import read_games
from engine.position import Position

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
REF_SCALE = 250.0          # reference centipawns per unit of the logistic: +100 is a 60 % chance
FIXED = {"rook"}           # anchors the scale
N_SCALAR = _core.EVAL_WEIGHT_NAMES.index("king_mg_a0")


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def red_features(position: Position) -> list[float]:
    """The position's features from Red's point of view."""
    features = _core.eval_features(position.kernel_board)
    return features if position.turn.value == "red" else [-f for f in features]


def from_labels(path: str) -> tuple[np.ndarray, np.ndarray]:
    rows, targets = [], []
    with open(path) as lines:
        for line in lines:
            fen, score = line.rstrip("\n").rsplit(";", 1)
            rows.append(red_features(Position(fen)))
            targets.append(float(score))
    return np.array(rows), sigmoid(np.array(targets) / REF_SCALE)


def from_games(paths: list[str], skip: int) -> tuple[np.ndarray, np.ndarray]:
    searcher = _core.Searcher(16, 1)
    rows, targets = [], []
    for path in paths:
        for game in read_games(path):
            if game.result not in RESULTS:
                continue
            position = Position(game.starting_fen())
            for ply, move in enumerate(game.moves):
                board = position.kernel_board
                if ply >= skip and not position.is_check() \
                        and searcher.quiescence(board) == searcher.evaluate(board):
                    rows.append(red_features(position))
                    targets.append(RESULTS[game.result])
                position.push(move)
    return np.array(rows), np.array(targets)


def error(features: np.ndarray, targets: np.ndarray, weights: np.ndarray, k: float) -> float:
    return float(np.mean((targets - sigmoid(features @ weights / k)) ** 2))


def fit_k(features: np.ndarray, targets: np.ndarray, weights: np.ndarray) -> float:
    """The scale that best fits the current weights to the targets."""
    candidates = np.arange(50.0, 1500.0, 5.0)
    return float(min(candidates, key=lambda k: error(features, targets, weights, k)))


def fit(features: np.ndarray, targets: np.ndarray, weights: np.ndarray, k: float, free: np.ndarray,
        epochs: int, pull: float, rate: float = 1.0) -> np.ndarray:
    """Adam on the mean squared error plus pull * mean((w - w0)^2) over the free weights."""
    start = weights.copy()
    w = weights.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, epochs + 1):
        p = sigmoid(features @ w / k)
        residual = (p - targets) * p * (1 - p) / k
        grad = 2 * features.T @ residual / len(targets) + 2 * pull * (w - start) / len(w)
        grad[~free] = 0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-12)
    return w


def weights_file(weights: list[int]) -> str:
    """The text of ext/eval_weights.pxi for these weights."""
    names = _core.EVAL_WEIGHT_NAMES
    lines = ["# The evaluation's weights, in the order of EVAL_WEIGHT_NAMES (eval.pxi). Written by",
             "# tools/tune_eval.py --write.", "", "DEFAULT_SCALAR_WEIGHTS = ("]
    lines += [f"    {weights[i]},  # {names[i]}" for i in range(N_SCALAR)]
    lines += [")", "# Piece-square values per type and phase: rank 0 (the side's own back rank) first, each",
              "# rank from file a to the central file e (f..i mirror d..a).",
              "DEFAULT_PIECE_SQUARE_WEIGHTS = ("]
    for table in range(N_SCALAR, len(weights), 50):
        piece, phase = names[table].split("_")[:2]
        lines.append(f"    # {piece}, {'middlegame' if phase == 'mg' else 'endgame'}")
        for rank in range(10):
            values = ", ".join(f"{weights[table + rank * 5 + f]:4}" for f in range(5))
            lines.append(("    (" if rank == 0 else "     ") + values + (")," if rank == 9 else ","))
    lines += [")", "DEFAULT_EVAL_WEIGHTS = DEFAULT_SCALAR_WEIGHTS + tuple(",
              "    value for table in DEFAULT_PIECE_SQUARE_WEIGHTS for value in table)", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--labels", help="FEN;score lines (tools/label_positions.py)")
    source.add_argument("--games", nargs="+", help="game records, labelled by their results")
    parser.add_argument("--skip", type=int, default=10, help="--games: opening plies left out (default 10)")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--pull", type=float, default=1e-6, help="pull towards the current weights")
    parser.add_argument("--rate", type=float, default=1.0, help="Adam step, in centipawns")
    parser.add_argument("--write", metavar="PXI", help="write the weights file (ext/eval_weights.pxi)")
    options = parser.parse_args(argv)
    names = _core.EVAL_WEIGHT_NAMES
    base = np.array(_core.eval_weights(), dtype=float)
    if options.labels:
        features, targets = from_labels(options.labels)
    else:
        features, targets = from_games(options.games, options.skip)
    # Every tenth block of 500 consecutive positions (mostly whole games) is held out for validation.
    held_out = np.arange(len(targets)) // 500 % 10 == 9
    train_x, train_y = features[~held_out], targets[~held_out]
    test_x, test_y = features[held_out], targets[held_out]
    k = fit_k(train_x, train_y, base)
    print(f"{len(targets)} positions, K = {k:.0f}; error {error(train_x, train_y, base, k):.6f} "
          f"(held out {error(test_x, test_y, base, k):.6f})", file=sys.stderr)
    free = np.array([name not in FIXED and np.any(features[:, i]) for i, name in enumerate(names)])
    tuned = np.round(fit(train_x, train_y, base, k, free, options.epochs, options.pull, options.rate))
    print(f"tuned: error {error(train_x, train_y, tuned, k):.6f} "
          f"(held out {error(test_x, test_y, tuned, k):.6f})", file=sys.stderr)
    for i in range(N_SCALAR):
        print(f"  {names[i]:18} {int(base[i]):5} -> {int(tuned[i]):5}", file=sys.stderr)
    if options.write:
        with open(options.write, "w") as out:
            out.write(weights_file([int(v) for v in tuned]))
        print(f"wrote {options.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The win/draw/loss model: the chances that a score stands for a win, a draw or a loss of the side it
belongs to, given the material on the board (UCI_ShowWDL's `wdl W D L`, `jiangjun analyze`).

The model has Pikafish's (and Stockfish's) form, fitted to this project's own games by
tools/fit_wdl.py (docs/wdl.md: the data, the fit, the calibration):

    win(v)  = 1 / (1 + exp((a - v) / b))        v: the score in centipawns, side to move's view
    loss(v) = win(-v)
    draw(v) = 1 - win(v) - loss(v)

where a (the score at which the side is as likely to win as not) and b (how fast its chances grow
with the score) are cubic polynomials of the material

    m = clamp(M, MATERIAL_MIN, MATERIAL_MAX) / MATERIAL_REFERENCE

and M counts both sides' pieces as Pikafish does: 10 per chariot, 5 per horse or cannon, 3 per
elephant, 2 per advisor, 1 per soldier (110 at the start).

The scores themselves are not normalised to the model (Pikafish prints 100 cp where its model gives a
50 % chance to win): the engine's centipawns stay those of its evaluation, which its strength levels,
draw offers and the analysis thresholds are measured in. docs/wdl.md says why, and what a centipawn
is worth in the model.
"""
from __future__ import annotations

import math
from typing import Iterable, Tuple

from .score import Score
from .search_types import Wdl

#: The material count's value per piece letter (FEN letters; H and E are the horse's and elephant's
#: aliases); the generals count nothing.
MATERIAL_VALUES = {"r": 10, "n": 5, "h": 5, "c": 5, "b": 3, "e": 3, "a": 2, "p": 1, "k": 0}
#: The material count is clamped to this range before the polynomials read it: 110 is a full board, and
#: below 20 (a few pieces each) a cubic cannot follow the games' results, which fit best when the
#: material is clamped at 20 (tried: 10, 15, 20, 25, 30; docs/wdl.md).
MATERIAL_MIN = 20
MATERIAL_MAX = 110
#: The material count at which m = 1.
MATERIAL_REFERENCE = 65

# BEGIN fitted coefficients (tools/fit_wdl.py --write; do not edit by hand)
# Fitted 2026-12-02 at commit 975ea3b by `python tools/fit_wdl.py --write engine/wdl.py FILES` (docs/wdl.md)
# to 68567 moves of jiangjun's in the FILES benchmarks/matches/eleeye-10s-5a2f245.pgn.xz,
# benchmarks/matches/fsf-10s-5a2f245.pgn.xz, benchmarks/matches/pikafish-hce-10s-2f254ad.pgn.xz,
# benchmarks/matches/pikafish-hce-10s-5a2f245.pgn.xz, benchmarks/matches/pikafish-hce-40s-5a2f245.pgn.xz,
# benchmarks/matches/tm-sprt-10s-bb0dea3-dc8e294.pgn.xz.
#: a(m) and b(m), highest power first (m**3, m**2, m, 1).
A_COEFFICIENTS = (304.29793794, -812.06690961, 315.64980262, 450.98228351)
B_COEFFICIENTS = (197.46469079, -698.11687977, 756.64027883, -104.38983586)
# END fitted coefficients


def material_count(pieces: Iterable[str]) -> int:
    """The material count M of the pieces given by their FEN letters (either case, both sides)."""
    return sum(MATERIAL_VALUES[letter.lower()] for letter in pieces)


def material_of(position) -> int:
    """The material count M of a Position (engine.position; anything with its piece_map())."""
    return material_count(position.piece_map().values())


def material_scale(material: int) -> float:
    """The model's m: the material count clamped to [MATERIAL_MIN, MATERIAL_MAX], over MATERIAL_REFERENCE."""
    return min(max(material, MATERIAL_MIN), MATERIAL_MAX) / MATERIAL_REFERENCE


def _polynomial(coefficients: Tuple[float, ...], x: float) -> float:
    value = 0.0
    for coefficient in coefficients:
        value = value * x + coefficient
    return value


def win_rate_params(material: int) -> Tuple[float, float]:
    """(a, b) at the material count `material`: a is the score (centipawns) at which the chance to win
    is 50 %, b the score's scale (b > 0)."""
    m = material_scale(material)
    return _polynomial(A_COEFFICIENTS, m), _polynomial(B_COEFFICIENTS, m)


def win_chance(centipawns: float, material: int) -> float:
    """The chance (0..1) that the side with score `centipawns` wins."""
    a, b = win_rate_params(material)
    x = (a - centipawns) / b
    if x > 700:        # exp would overflow: no chance
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def chances(score: Score, material: int) -> Wdl:
    """The chances per mille (rounded; the draw takes the rest, so they sum to 1000) that the side whose
    score it is wins, draws or loses, at material count `material`. A mate found is a certain win or
    loss."""
    if score.is_mate:
        return Wdl(1000, 0, 0) if score.value > 0 else Wdl(0, 0, 1000)
    win = round(1000 * win_chance(score.value, material))
    loss = round(1000 * win_chance(-score.value, material))
    return Wdl(win, 1000 - win - loss, loss)

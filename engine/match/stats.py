"""Match statistics: score, Elo difference with its error margin, LOS, draw ratio, and the SPRT.

The Elo estimate, its 95 % margin, the LOS and the draw ratio follow cutechess-cli (logistic Elo
model, trinomial variance of the per-game score).  :class:`Sprt` is the GSPRT of fastchess and
fishtest for game (trinomial) results with logistic Elo bounds: the log-likelihood ratio of the
maximum-likelihood win/draw/loss distributions whose expected scores correspond to ``elo1`` and
``elo0`` (M. Van den Bergh, "Comments on Normalized Elo", proposition 1.1).

Games played in pairs with the colours swapped (``-repeat``) are judged with the **pentanomial** model, as
fastchess and fishtest do: the unit is the pair, scored 0, 0.5, 1, 1.5 or 2 points, and the five counts
(:class:`PairCounts`) carry the correlation between the two games of a pair (one opening, both colours)
that the trinomial model ignores, so its margin is honest, usually narrower.  :func:`pair_elo_difference`
and :meth:`Sprt.llr_pairs` are the pentanomial forms of :func:`elo_difference` and :meth:`Sprt.llr`.

Counts are win/draw/loss from the point of view of the first engine.  With no games, the score is
0.5, the Elo difference 0 with an infinite margin, the LOS 0.5 and the LLR 0.  A score of 0 % or
100 % gives an Elo difference of -inf or +inf, and a margin reaching past 0 % or 100 % is inf.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Optional, Sequence, Tuple

__all__ = [
    "score",
    "elo_difference",
    "likelihood_of_superiority",
    "draw_ratio",
    "PairCounts",
    "pair_elo_difference",
    "Sprt",
]

_Z975 = NormalDist().inv_cdf(0.975)  # 1.959963984540054


def _counts(*counts: float) -> Tuple[float, ...]:
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, (int, float)) or not count >= 0 or math.isinf(count):
            raise ValueError(f"game counts must be finite numbers >= 0, not {count!r}")
    return counts


def score(wins: float, draws: float, losses: float) -> float:
    """The score as a fraction of the points: (wins + draws / 2) / games; 0.5 with no games."""
    wins, draws, losses = _counts(wins, draws, losses)
    games = wins + draws + losses
    return (wins + draws / 2) / games if games else 0.5


def _elo(fraction: float) -> float:
    """The logistic Elo difference that gives an expected score of ``fraction``."""
    if fraction <= 0:
        return -math.inf
    if fraction >= 1:
        return math.inf
    return -400 * math.log10(1 / fraction - 1) + 0.0  # + 0.0: no -0.0 at a 50 % score


def _score_of_elo(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def elo_difference(wins: float, draws: float, losses: float) -> Tuple[float, float]:
    """(Elo difference, 95 % error margin), as cutechess-cli computes them.

    The Elo is the logistic model's difference for the observed score; the margin is half the
    width of the Elo interval for score +/- 1.96 standard errors, the per-game variance being that
    of the trinomial win/draw/loss distribution.
    """
    wins, draws, losses = _counts(wins, draws, losses)
    games = wins + draws + losses
    if not games:
        return 0.0, math.inf
    mu = (wins + draws / 2) / games
    if mu <= 0 or mu >= 1:
        return _elo(mu), math.inf
    variance = (wins * (1 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu ** 2) / games
    stdev = math.sqrt(variance / games)
    low, high = _elo(mu - _Z975 * stdev), _elo(mu + _Z975 * stdev)
    return _elo(mu), (high - low) / 2


def likelihood_of_superiority(wins: float, losses: float) -> float:
    """The probability that the first engine is the stronger one, from the decisive games (cutechess)."""
    wins, losses = _counts(wins, losses)
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def draw_ratio(wins: float, draws: float, losses: float) -> float:
    """The fraction of games drawn; 0 with no games."""
    wins, draws, losses = _counts(wins, draws, losses)
    games = wins + draws + losses
    return draws / games if games else 0.0


#: The score of a game pair, as a fraction of its two points, for each of the five counts of PairCounts.
_PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


class PairCounts(tuple):
    """The pentanomial counts of game pairs: how many pairs the first engine scored 0, 0.5, 1, 1.5 and 2
    points in (LL, LD, DD or WL, WD, WW), from the first engine's point of view."""

    def __new__(cls, *counts: int) -> "PairCounts":
        if len(counts) == 1 and not isinstance(counts[0], (int, float)):
            counts = tuple(counts[0])
        if len(counts) != 5:
            raise ValueError(f"pentanomial counts are five numbers (pairs scoring 0, 0.5, 1, 1.5, 2), "
                             f"not {len(counts)}")
        return super().__new__(cls, _counts(*counts))

    @classmethod
    def of_scores(cls, pair_points: Sequence[float]) -> "PairCounts":
        """The counts of these pair scores (each 0, 0.5, 1, 1.5 or 2 points)."""
        counts = [0] * 5
        for points in pair_points:
            counts[_pair_index(points)] += 1
        return cls(*counts)

    @property
    def pairs(self) -> float:
        return sum(self)

    def add(self, points: float) -> "PairCounts":
        """These counts with one more pair that scored `points`."""
        counts = list(self)
        counts[_pair_index(points)] += 1
        return PairCounts(*counts)

    def __repr__(self) -> str:
        return "PairCounts(%s)" % ", ".join(f"{c:g}" for c in self)


def _pair_index(points: float) -> int:
    """The index in PairCounts of a pair that scored `points`."""
    if points not in (0, 0.5, 1, 1.5, 2):
        raise ValueError(f"a game pair scores 0, 0.5, 1, 1.5 or 2 points, not {points!r}")
    return int(points * 2)


def pair_elo_difference(counts: PairCounts) -> Tuple[float, float]:
    """(Elo difference, 95 % error margin) of game pairs: the logistic Elo of the mean pair score, and the
    half-width of the Elo interval for that mean +/- 1.96 standard errors of the pentanomial
    distribution (fastchess's pentanomial Elo)."""
    pairs = counts.pairs
    if not pairs:
        return 0.0, math.inf
    mu = sum(c * a for c, a in zip(counts, _PAIR_SCORES)) / pairs
    if mu <= 0 or mu >= 1:
        return _elo(mu), math.inf
    variance = sum(c * (a - mu) ** 2 for c, a in zip(counts, _PAIR_SCORES)) / pairs
    stdev = math.sqrt(variance / pairs)
    low, high = _elo(mu - _Z975 * stdev), _elo(mu + _Z975 * stdev)
    return _elo(mu), (high - low) / 2


class Sprt:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1 (logistic Elo).

    ``alpha`` is the chance of accepting H1 when H0 holds, ``beta`` that of accepting H0 when H1
    holds.  Play on while ``lower < llr < upper``.
    """

    _REGULARIZE = 1e-3  # a zero count is replaced by this (as fastchess does), so the MLE exists

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05):
        for name, value in (("elo0", elo0), ("elo1", elo1)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"SPRT {name} must be a finite number, not {value!r}")
        if not elo0 < elo1:
            raise ValueError(f"SPRT elo0 ({elo0}) must be less than elo1 ({elo1})")
        for name, value in (("alpha", alpha), ("beta", beta)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
                raise ValueError(f"SPRT {name} must be between 0 and 1, not {value!r}")
        if alpha + beta >= 1:
            raise ValueError(f"SPRT alpha + beta must be less than 1, not {alpha + beta}")
        self.elo0, self.elo1 = float(elo0), float(elo1)
        self.alpha, self.beta = float(alpha), float(beta)
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self._s0 = _score_of_elo(self.elo0)
        self._s1 = _score_of_elo(self.elo1)

    def llr(self, wins: float, draws: float, losses: float) -> float:
        """The GSPRT log-likelihood ratio of H1 against H0 for these results (0 with no games)."""
        return self._llr((0.0, 0.5, 1.0), _counts(losses, draws, wins))

    def llr_pairs(self, counts: PairCounts) -> float:
        """The GSPRT log-likelihood ratio of H1 against H0 for game pairs (the pentanomial model: the pair
        is the unit, its score a fraction of two points; 0 with no pairs)."""
        return self._llr(_PAIR_SCORES, tuple(counts))

    def _llr(self, scores: Sequence[float], counts: Sequence[float]) -> float:
        """The log-likelihood ratio of the multinomial `counts` over `scores` (a game's or a pair's score
        as a fraction of its points): the empirical distribution's likelihood under the maximum-likelihood
        distributions of mean score s1 and s0."""
        if sum(counts) == 0:
            return 0.0
        counts = [c if c > 0 else self._REGULARIZE for c in counts]
        total = sum(counts)
        probs = [c / total for c in counts]
        p0 = _mle(scores, probs, self._s0)
        p1 = _mle(scores, probs, self._s1)
        return total * sum(p * (math.log(a) - math.log(b)) for p, a, b in zip(probs, p1, p0))

    def status(self, wins: float, draws: float, losses: float) -> Optional[str]:
        """``"H1 accepted"``, ``"H0 accepted"``, or None to play on."""
        return self.verdict(self.llr(wins, draws, losses))

    def status_pairs(self, counts: PairCounts) -> Optional[str]:
        """The verdict on game pairs (pentanomial): ``"H1 accepted"``, ``"H0 accepted"`` or None."""
        return self.verdict(self.llr_pairs(counts))

    def verdict(self, llr: float) -> Optional[str]:
        """``"H1 accepted"`` at or above the upper bound, ``"H0 accepted"`` at or below the lower one, else
        None."""
        if llr >= self.upper:
            return "H1 accepted"
        if llr <= self.lower:
            return "H0 accepted"
        return None

    def __repr__(self) -> str:
        return f"Sprt(elo0={self.elo0:g}, elo1={self.elo1:g}, alpha={self.alpha:g}, beta={self.beta:g})"


def _mle(scores: Sequence[float], probs: Sequence[float], s: float) -> list:
    """The distribution over ``scores`` with mean ``s`` that maximizes the likelihood of the
    empirical distribution ``probs``: p_i = probs_i / (1 + theta (a_i - s)), theta solving
    sum probs_i (a_i - s) / (1 + theta (a_i - s)) = 0 (a decreasing function of theta on the
    interval where every denominator is positive), found by bisection."""
    lo = -1 / (max(scores) - s)
    hi = -1 / (min(scores) - s)

    def f(theta: float) -> float:
        return sum(p * (a - s) / (1 + theta * (a - s)) for p, a in zip(probs, scores))

    for _ in range(200):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2
    return [p / (1 + theta * (a - s)) for p, a in zip(probs, scores)]

"""Pentanomial statistics of game pairs (engine.match.stats): the counts, Elo with its margin, the SPRT."""
import math
import random

import pytest

from engine.match.stats import PairCounts, Sprt, elo_difference, pair_elo_difference


def test_pair_counts_are_five_counts():
    assert PairCounts(1, 2, 3, 4, 5).pairs == 15
    assert PairCounts([1, 2, 3, 4, 5]) == PairCounts(1, 2, 3, 4, 5)
    assert PairCounts.of_scores([0, 0.5, 1, 1, 2]) == PairCounts(1, 1, 2, 0, 1)
    assert PairCounts(0, 0, 0, 0, 0).add(1.5) == PairCounts(0, 0, 0, 1, 0)
    with pytest.raises(ValueError, match="five numbers"):
        PairCounts(1, 2, 3)
    with pytest.raises(ValueError, match="0, 0.5, 1, 1.5 or 2"):
        PairCounts.of_scores([0.75])
    with pytest.raises(ValueError, match=">= 0"):
        PairCounts(1, -1, 0, 0, 0)


def test_pair_elo_is_the_game_score_elo():
    """The mean score of the pairs is the mean score of their games: the same Elo as the trinomial's."""
    rng = random.Random(3)
    games = [(rng.choice((1, 0.5, 0, 1)), rng.choice((1, 0.5, 0))) for _ in range(300)]
    pairs = PairCounts.of_scores([a + b for a, b in games])
    flat = [g for pair in games for g in pair]
    trinomial = elo_difference(flat.count(1), flat.count(0.5), flat.count(0))
    assert pair_elo_difference(pairs)[0] == pytest.approx(trinomial[0])


def test_pair_margin_reflects_the_correlation_within_pairs():
    # Every decisive pair a win and a loss (the opening decides, not the engines): the pairs vary less than
    # their games, so the pentanomial margin is narrower than the trinomial one of the same games.
    split = PairCounts(0, 0, 100, 0, 0)
    assert pair_elo_difference(split) == (0.0, 0.0)
    balanced = PairCounts(5, 20, 50, 20, 5)
    elo, margin = pair_elo_difference(balanced)
    assert elo == 0.0
    # the variance of a pair's score (fraction of 2 points): (5*0.25^2*2 ... ) by hand
    variance = (2 * 5 * 0.5 ** 2 + 2 * 20 * 0.25 ** 2) / 100
    stdev = math.sqrt(variance / 100)
    half = (-400 * math.log10(1 / (0.5 + 1.959964 * stdev) - 1))
    assert margin == pytest.approx(half, abs=1e-3)
    assert pair_elo_difference(PairCounts(0, 0, 0, 0, 0)) == (0.0, math.inf)
    assert pair_elo_difference(PairCounts(0, 0, 0, 0, 3)) == (math.inf, math.inf)


def test_pentanomial_sprt():
    sprt = Sprt(0, 10)
    assert sprt.llr_pairs(PairCounts(0, 0, 0, 0, 0)) == 0.0
    assert sprt.status_pairs(PairCounts(10, 40, 100, 40, 10)) is None
    assert sprt.llr_pairs(PairCounts(10, 40, 100, 40, 10)) < 0          # an even score favours elo0 = 0
    assert sprt.status_pairs(PairCounts(20, 150, 400, 250, 60)) == "H1 accepted"
    assert sprt.status_pairs(PairCounts(60, 250, 400, 150, 20)) == "H0 accepted"
    # Mirrored results give opposite verdicts about mirrored hypotheses.
    counts = PairCounts(3, 30, 60, 40, 7)
    assert Sprt(-5, 5).llr_pairs(counts) == pytest.approx(-Sprt(-5, 5).llr_pairs(PairCounts(*reversed(counts))))

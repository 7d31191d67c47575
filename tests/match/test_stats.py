"""Match statistics: score, Elo with its margin, LOS, draw ratio and the SPRT."""
import math

import pytest

from engine.match.stats import (Sprt, draw_ratio, elo_difference, likelihood_of_superiority,
                                score)


def test_score_and_draw_ratio():
    assert score(60, 20, 20) == pytest.approx(0.7)
    assert score(0, 10, 0) == 0.5
    assert score(0, 0, 0) == 0.5
    assert draw_ratio(60, 20, 20) == pytest.approx(0.2)
    assert draw_ratio(0, 0, 0) == 0.0


def test_elo_known_values():
    elo, margin = elo_difference(60, 20, 20)
    assert elo == pytest.approx(147.19, abs=0.01)  # -400 log10(1/0.7 - 1)
    # stdev of the mean 0.04 (per-game variance 0.16): Elo of 0.7 -/+ 1.96 * 0.04, half the width
    low, high = (-400 * math.log10(1 / (0.7 + z) - 1) for z in (-1.959964 * 0.04, 1.959964 * 0.04))
    assert margin == pytest.approx((high - low) / 2, abs=1e-3)
    assert margin == pytest.approx(66.01, abs=0.01)
    elo, margin = elo_difference(20, 20, 60)
    assert elo == pytest.approx(-147.19, abs=0.01) and margin == pytest.approx(66.01, abs=0.01)


def test_elo_symmetric_and_degenerate_results():
    assert elo_difference(30, 40, 30)[0] == 0.0
    assert elo_difference(0, 50, 0) == (0.0, 0.0)
    assert elo_difference(0, 0, 0) == (0.0, math.inf)
    assert elo_difference(10, 0, 0) == (math.inf, math.inf)
    assert elo_difference(0, 0, 10) == (-math.inf, math.inf)
    assert elo_difference(2, 0, 0)[0] == math.inf
    assert elo_difference(5, 0, 1)[1] == math.inf  # the interval reaches past 100 %
    with pytest.raises(ValueError):
        elo_difference(-1, 0, 0)


def test_elo_margin_shrinks_with_games():
    assert elo_difference(600, 200, 200)[1] < elo_difference(60, 20, 20)[1] / 3


def test_likelihood_of_superiority():
    assert likelihood_of_superiority(10, 10) == 0.5
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(60, 20) == pytest.approx(0.5 * (1 + math.erf(40 / math.sqrt(160))))
    assert likelihood_of_superiority(12, 8) == pytest.approx(0.8144, abs=1e-4)
    assert likelihood_of_superiority(8, 12) == pytest.approx(1 - 0.8144, abs=1e-4)


def test_sprt_bounds():
    sprt = Sprt(0, 5)
    assert sprt.lower == pytest.approx(-2.944, abs=1e-3)
    assert sprt.upper == pytest.approx(2.944, abs=1e-3)
    sprt = Sprt(0, 5, alpha=0.05, beta=0.1)
    assert sprt.lower == pytest.approx(math.log(0.1 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.9 / 0.05))


@pytest.mark.parametrize("args", [(5, 0), (5, 5), (0, 5, 0, 0.1), (0, 5, 0.5, 0.5), (0, 5, 1, 0.1), (math.nan, 5)])
def test_sprt_rejects_bad_parameters(args):
    with pytest.raises(ValueError):
        Sprt(*args)


def approximate_llr(wins, draws, losses, elo0, elo1):
    """The normal approximation of the trinomial GSPRT (older fastchess, OpenBench)."""
    games = wins + draws + losses
    w, d = wins / games, draws / games
    mean, second = w + d / 2, w + d / 4
    variance = second - mean ** 2
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    return (s1 - s0) * (2 * mean - s0 - s1) / (variance / games) / 2


@pytest.mark.parametrize("results", [(4307, 8620, 4063), (1200, 2000, 1100), (500, 1000, 560)])
def test_llr_matches_the_normal_approximation_for_large_samples(results):
    assert Sprt(0, 3).llr(*results) == pytest.approx(approximate_llr(*results, 0, 3), abs=0.02)
    assert Sprt(-2, 4).llr(*results) == pytest.approx(approximate_llr(*results, -2, 4), abs=0.02)


def test_llr_sign_and_symmetry():
    sprt = Sprt(0, 10)
    assert sprt.llr(0, 0, 0) == 0.0
    assert sprt.llr(300, 400, 200) > 0  # clearly stronger: evidence for H1
    assert sprt.llr(200, 400, 300) < 0  # clearly weaker: evidence for H0
    # the score half-way between the hypotheses is neutral
    assert sprt.llr(1, 0, 1) < 0 < sprt.llr(60, 0, 40)
    symmetric = Sprt(-10, 10)
    assert symmetric.llr(300, 400, 200) == pytest.approx(-symmetric.llr(200, 400, 300))
    assert symmetric.llr(250, 500, 250) == pytest.approx(0, abs=1e-9)
    # more of the same evidence means a larger LLR
    assert sprt.llr(600, 800, 400) > sprt.llr(300, 400, 200)


def test_llr_with_zero_counts_is_finite():
    sprt = Sprt(0, 10)
    for results in [(10, 0, 0), (0, 10, 0), (0, 0, 10), (5, 0, 3), (3, 4, 0), (1, 0, 0)]:
        assert math.isfinite(sprt.llr(*results))
    assert sprt.llr(10, 0, 0) > 0 > sprt.llr(0, 0, 10)


def test_status_transitions():
    sprt = Sprt(0, 10)
    assert sprt.status(0, 0, 0) is None
    # a much stronger engine: H1 is accepted, and not before the LLR reaches the upper bound
    wins = draws = losses = 0
    verdicts = []
    for game in range(5000):
        outcome = game % 10
        if outcome < 5:
            wins += 1
        elif outcome < 8:
            draws += 1
        else:
            losses += 1
        verdict = sprt.status(wins, draws, losses)
        if verdict is not None:
            verdicts.append(verdict)
            break
    assert verdicts == ["H1 accepted"]
    assert sprt.llr(wins, draws, losses) >= sprt.upper
    assert game < 1000
    # an equal engine: H0 (elo 0) is accepted against elo 10
    assert sprt.status(400, 1200, 400) is None  # llr about -2.07: not yet
    assert sprt.status(1000, 3000, 1000) == "H0 accepted"
    assert sprt.llr(1000, 3000, 1000) <= sprt.lower
    assert sprt.status(40, 120, 40) is None
    # a weaker one, quickly
    assert sprt.status(200, 300, 500) == "H0 accepted"

"""tools/calibrate_levels.py: the maximum-likelihood Elo fit recovers known ratings from simulated games,
and its table and MEASURED_ELO source are well formed."""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")


import calibrate_levels  # noqa: E402


def simulate(ratings: dict[str, float], pairs, games: int, seed: int = 5):
    rng = random.Random(seed)
    played = []
    for a, b in pairs:
        for n in range(games):
            red, black = (a, b) if n % 2 == 0 else (b, a)
            expected = 1 / (1 + 10 ** ((ratings[black] - ratings[red]) / 400))
            u = rng.random()
            score = 1.0 if u < expected - 0.05 else 0.5 if u < expected + 0.05 else 0.0
            played.append((red, black, score))
    return played


def test_the_fit_recovers_known_ratings_within_its_error_bars():
    truth = {"fsf-s0": 1000.0, "L00": 950.0, "L02": 1150.0, "L04": 1400.0, "eleeye-d1": 1300.0}
    pairs = [("L00", "L02"), ("L02", "L04"), ("L00", "fsf-s0"), ("L02", "fsf-s0"), ("L02", "eleeye-d1"),
             ("L04", "eleeye-d1")]
    games = simulate(truth, pairs, 400)
    fitted = calibrate_levels.fit(games)
    assert fitted["fsf-s0"] == (1000.0, 0.0)
    for player, rating in truth.items():
        elo, error = fitted[player]
        assert abs(elo - rating) <= max(error, 1.0), (player, elo, error, rating)
        assert error < 60


def test_a_player_who_won_every_game_gets_a_finite_rating_above_the_loser():
    games = [("L00", "fsf-s0", 0.5), ("fsf-s0", "L00", 0.5), ("L02", "L00", 1.0), ("L00", "L02", 0.0)]
    fitted = calibrate_levels.fit(games)
    assert np.isfinite(fitted["L02"][0]) and fitted["L02"][0] > fitted["L00"][0] + 200


def test_the_table_and_the_source_list_the_levels():
    games = [("L00", "fsf-s0", 1.0), ("fsf-s0", "L00", 0.5), ("L02", "L00", 1.0), ("L00", "L02", 0.5)]
    fitted = calibrate_levels.fit(games)
    text = calibrate_levels.table(games, fitted)
    assert "| level 0 |" in text and "| level 2 |" in text and "fsf-s0 | 1000 (anchor)" in text
    source = calibrate_levels.measured_elo(fitted)
    assert source.startswith("MEASURED_ELO") and "0: " in source and "2: " in source
    assert calibrate_levels.engine_args("L05")[3] == "option.Skill Level=5"
    assert "tc=depth=3" in calibrate_levels.engine_args("fsf-s2")


def test_rising_pools_the_levels_that_fall():
    rising = calibrate_levels.rising
    assert rising([(0, 10.0, 1.0), (2, 30.0, 1.0), (4, 20.0, 1.0)]) == [(0, 10.0), (2, 25.0), (4, 25.0)]
    assert rising([(0, 10.0, 1.0), (2, 40.0, 3.0), (4, 20.0, 1.0)]) == [(0, 10.0), (2, 35.0), (4, 35.0)]
    assert calibrate_levels.rising([(0, 1.0, 1.0), (1, 2.0, 1.0)]) == [(0, 1.0), (1, 2.0)]

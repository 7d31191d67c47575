"""The strength levels' table and mappings (engine/server/strength.py), without an engine."""
from __future__ import annotations

import random

import pytest

from engine.score import MATE_BOUND
from engine.server import strength
from engine.server.strength import (
    ELO_MAX, ELO_MIN, FULL_STRENGTH, LEVELS, MEASURED_ELO, LevelLimits, elo_to_level, level_limits, level_of,
    level_to_elo, pick,
)


def test_the_table_weakens_as_the_level_falls():
    assert len(LEVELS) == FULL_STRENGTH == 20
    for weaker, stronger in zip(LEVELS, LEVELS[1:]):
        assert weaker.depth <= stronger.depth
        assert weaker.nodes <= stronger.nodes
        assert weaker.noise_cp >= stronger.noise_cp
        assert weaker.candidates >= stronger.candidates
    assert all(level.depth >= 1 and level.candidates >= 2 for level in LEVELS)


def test_the_measured_table_rises_and_gives_the_elo_range():
    levels = sorted(MEASURED_ELO)
    assert levels[0] == 0 and levels[-1] == FULL_STRENGTH - 1
    elos = [MEASURED_ELO[level] for level in levels]
    assert elos == sorted(elos) and elos[-1] > elos[0] + 500
    assert ELO_MIN == round(elos[0]) and ELO_MAX == round(elos[-1])


def test_elo_to_level_inverts_level_to_elo_where_the_table_rises():
    levels = sorted(MEASURED_ELO)
    for low, high in zip(levels, levels[1:]):
        if MEASURED_ELO[high] > MEASURED_ELO[low]:
            for step in range(10):
                level = low + (high - low) * step / 10
                assert elo_to_level(level_to_elo(level)) == pytest.approx(level)


def test_elo_to_level_interpolates_and_clamps():
    table = {0: 1000.0, 2: 1200.0, 4: 1600.0}
    assert elo_to_level(1100, table) == pytest.approx(1.0)
    assert elo_to_level(1300, table) == pytest.approx(2.5)
    assert elo_to_level(500, table) == 0.0
    assert elo_to_level(9000, table) == 4.0
    assert level_to_elo(3, table) == pytest.approx(1400)
    lo, hi = ELO_MIN, ELO_MAX
    steps = [elo_to_level(elo) for elo in range(lo, hi + 1, max(1, (hi - lo) // 50))]
    assert steps == sorted(steps)


def test_a_falling_table_is_refused_and_a_flat_stretch_maps_to_its_top():
    with pytest.raises(ValueError, match="fall"):
        elo_to_level(1000, {0: 1000.0, 2: 900.0})
    flat = {0: 1000.0, 2: 1200.0, 4: 1200.0, 6: 1400.0}
    assert elo_to_level(1200, flat) == 4.0
    assert elo_to_level(1199, flat) == pytest.approx(1.99)
    assert elo_to_level(1300, flat) == pytest.approx(5.0)


def test_limit_strength_makes_uci_elo_win_over_skill_level():
    assert level_of(5, False, ELO_MIN) == 5.0
    assert level_of(20, False, ELO_MIN) == 20.0
    assert level_of(20, True, ELO_MIN) == 0.0
    assert level_of(0, True, ELO_MAX) == pytest.approx(FULL_STRENGTH - 1)
    middle = (ELO_MIN + ELO_MAX) // 2
    assert level_of(20, True, middle) == pytest.approx(elo_to_level(middle))


def test_full_strength_has_no_limits_and_whole_levels_are_the_table():
    assert level_limits(20) is None and level_limits(25) is None
    for number, limits in enumerate(LEVELS):
        assert level_limits(number) == limits
    assert level_limits(-3) == LEVELS[0]
    assert level_limits(19.7) == LEVELS[19]     # only 20 itself is full strength


def test_a_fractional_level_lies_between_its_neighbours():
    a, b, mid = LEVELS[10], LEVELS[11], level_limits(10.5)
    assert mid is not None
    assert a.depth <= mid.depth <= b.depth
    assert min(a.nodes, b.nodes) <= mid.nodes <= max(a.nodes, b.nodes)
    assert b.noise_cp <= mid.noise_cp <= a.noise_cp
    assert mid.candidates == a.candidates


def test_the_fractional_depth_is_drawn_per_search():
    rng = random.Random(3)
    limits = LevelLimits(depth=2.25, nodes=1000, candidates=4, noise_cp=50)
    depths = [limits.search_depth(rng) for _ in range(4000)]
    assert set(depths) == {2, 3}
    assert depths.count(3) / len(depths) == pytest.approx(0.25, abs=0.03)
    assert {LevelLimits(3.0, 1000, 4, 50).search_depth(rng) for _ in range(50)} == {3}


def test_pick_without_noise_plays_the_best_and_with_noise_varies():
    rng = random.Random(1)
    quiet = LevelLimits(depth=3, nodes=1000, candidates=3, noise_cp=0)
    assert {pick([40, 30, -20], quiet, rng) for _ in range(50)} == {0}
    noisy = LevelLimits(depth=3, nodes=1000, candidates=3, noise_cp=200)
    picks = [pick([40, 30, -20], noisy, rng) for _ in range(2000)]
    assert set(picks) == {0, 1, 2}
    assert picks.count(0) > picks.count(1) > picks.count(2)   # the better, the likelier


def test_pick_never_prefers_a_forced_loss_and_always_takes_a_mate():
    rng = random.Random(2)
    wild = LevelLimits(depth=1, nodes=1000, candidates=6, noise_cp=10_000)
    lost = -(MATE_BOUND + 10)     # mated, or lost by a repetition ruling
    assert {pick([-500, lost, lost], wild, rng) for _ in range(200)} == {0}
    assert {pick([lost, lost], wild, rng) for _ in range(20)} <= {0, 1}
    assert {pick([MATE_BOUND + 20, 900, 800], LEVELS[0], rng) for _ in range(200)} == {0}
    with pytest.raises(ValueError):
        pick([], wild, rng)


def test_describe_names_the_limits():
    text = LEVELS[4].describe()
    assert str(LEVELS[4].nodes) in text and "noise" in text and "candidate" in text
    assert strength.ELO_MIN < strength.ELO_MAX

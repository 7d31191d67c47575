"""Time allocation (engine/server/timeman.py): unit tests, and whole games on a simulated clock.

The simulated games use the match runner's own Clock (engine/match/timecontrol.py), which subtracts
the time a move took, checks for a flag, then adds the increment and, after the last move of a stage,
the next stage's time. The engine is assumed to spend its hard limit on every move (the worst case),
or its soft limit, or something in between, plus a lag that stays below the Move Overhead.
"""
from __future__ import annotations

import math
import random

import pytest

from engine.search_types import SearchLimits
from engine.match.timecontrol import Clock, TimeControl
from engine.server.timeman import allocate

OVERHEAD = 10.0


def clock(time, increment=None, movestogo=None, **extra):
    return SearchLimits(time=time, increment=increment, movestogo=movestogo, **extra)


# ---------------------------------------------------------------------------------------------- no clock


@pytest.mark.parametrize("limits", [
    SearchLimits(),
    SearchLimits(depth=10),
    SearchLimits(nodes=100000),
    SearchLimits(mate=3),
    SearchLimits(infinite=True),
    SearchLimits(infinite=True, time=60000.0),   # infinite wins over a clock
    SearchLimits(ponder=True, depth=5),
    SearchLimits(movestogo=10, increment=1000.0),  # no time: nothing to allocate
])
def test_no_time_limit(limits):
    assert allocate(limits) == (0, 0)


# ---------------------------------------------------------------------------------------------- movetime


@pytest.mark.parametrize("movetime, overhead, expected", [
    (1000.0, 10.0, 990.0),
    (5000.0, 0.0, 5000.0),
    (100.0, 30.0, 70.0),
    (10.0, 10.0, 1.0),
    (5.0, 10.0, 1.0),
    (0.0, 10.0, 1.0),
    (-50.0, 10.0, 1.0),
])
def test_movetime(movetime, overhead, expected):
    assert allocate(SearchLimits(movetime=movetime), overhead) == (expected, expected)


def test_movetime_wins_over_clock_and_depth():
    assert allocate(SearchLimits(movetime=2000.0, time=100.0, depth=3)) == (1990.0, 1990.0)


# ---------------------------------------------------------------------------------------------- clock


def test_sudden_death_typical():
    soft, hard = allocate(clock(300000.0))
    assert 300000 / 80 < soft < 300000 / 30       # about 1/40 of the clock (less the reserve)
    assert 2.5 <= hard / soft <= 3.5
    assert hard < 300000 / 10


def test_increment_adds_time():
    soft0, hard0 = allocate(clock(180000.0))
    soft2, hard2 = allocate(clock(180000.0, 2000.0))
    assert soft2 > soft0 and hard2 > hard0
    assert soft2 - soft0 == pytest.approx(0.8 * 2000 * 39 / 40 + 0.8 * 100 * 11 / 40, rel=0.01)


def test_movestogo_spreads_the_stage():
    soft, hard = allocate(clock(5400000.0, movestogo=40))
    base = (5400000 - 41 * OVERHEAD) / 40
    assert soft == pytest.approx(0.8 * base)
    assert hard == pytest.approx(2.4 * base)
    # fewer moves to go: more per move
    values = [allocate(clock(600000.0, movestogo=n)) for n in (30, 20, 10, 5, 2, 1)]
    softs = [s for s, _ in values]
    hards = [h for _, h in values]
    assert softs == sorted(softs) and hards == sorted(hards)


def test_movestogo_one_uses_most_but_not_all():
    for time in (100.0, 1000.0, 60000.0, 900000.0):
        soft, hard = allocate(clock(time, movestogo=1))
        assert 0.6 * (time - OVERHEAD) <= hard <= 0.8 * (time - OVERHEAD)
        assert time - OVERHEAD - hard >= 0.2 * (time - OVERHEAD)   # a safety reserve remains
        assert soft <= hard


def test_large_movestogo_is_capped():
    assert allocate(clock(600000.0, movestogo=500)) == allocate(clock(600000.0, movestogo=50))


@pytest.mark.parametrize("movestogo", [0, -3])
def test_bad_movestogo_is_sudden_death(movestogo):
    assert allocate(clock(60000.0, movestogo=movestogo)) == allocate(clock(60000.0))


def test_ponder_enabled_lengthens_soft_only():
    soft, hard = allocate(clock(300000.0))
    psoft, phard = allocate(clock(300000.0), ponder_enabled=True)
    assert psoft == pytest.approx(1.25 * soft)
    assert phard == hard


def test_go_ponder_allocates_like_go():
    # the limits are armed at ponderhit; `go ponder` with a clock gets the same numbers
    assert allocate(clock(300000.0, ponder=True)) == allocate(clock(300000.0))


def test_overhead_reduces_time():
    assert allocate(clock(10000.0), 100.0)[1] < allocate(clock(10000.0), 10.0)[1]


@pytest.mark.parametrize("overhead", [-5.0, math.nan, None])
def test_bad_overhead_is_zero(overhead):
    assert allocate(clock(10000.0), overhead) == allocate(clock(10000.0), 0.0)


@pytest.mark.parametrize("time", [50.0, 30.0, 20.0, 12.0])
@pytest.mark.parametrize("movestogo", [None, 1, 10])
def test_tiny_clock(time, movestogo):
    soft, hard = allocate(clock(time, movestogo=movestogo))
    assert 1 <= soft <= hard
    assert hard + OVERHEAD < time   # the move, lag included, still fits


@pytest.mark.parametrize("time", [10.0, 5.0, 0.0, -100.0, math.nan])
def test_clock_below_overhead_moves_at_once(time):
    assert allocate(clock(time)) == (1.0, 1.0)
    assert allocate(clock(time, 5000.0, 1)) == (1.0, 1.0)


def test_increment_larger_than_clock():
    for time, inc in [(100.0, 5000.0), (1000.0, 30000.0), (40.0, 100.0)]:
        for movestogo in (None, 1, 5):
            soft, hard = allocate(clock(time, inc, movestogo))
            assert 1 <= soft <= hard <= 0.75 * (time - OVERHEAD)


def test_huge_and_infinite_clock():
    soft, hard = allocate(clock(math.inf))
    assert math.isfinite(hard) and 0 < soft <= hard


def test_invariants_over_a_grid():
    """soft <= hard, both >= 1, and the hard limit plus the overhead never exceeds the clock."""
    times = [0.0, 1.0, 9.0, 11.0, 15.0, 25.0, 60.0, 150.0, 500.0, 1000.0, 3000.0, 10000.0, 60000.0,
             300000.0, 5400000.0]
    for time in times:
        for inc in (None, 0.0, 5.0, 33.0, 2000.0, 100000.0):
            for movestogo in (None, 1, 2, 3, 10, 30, 40, 100):
                for overhead in (0.0, 10.0, 50.0):
                    for ponder in (False, True):
                        soft, hard = allocate(clock(time, inc, movestogo), overhead, ponder)
                        assert 1 <= soft <= hard, (time, inc, movestogo, overhead)
                        if time - overhead > 1:
                            assert hard <= 0.75 * (time - overhead), (time, inc, movestogo, overhead)
                        else:
                            assert (soft, hard) == (1.0, 1.0)


def test_monotonic_in_time():
    for inc, movestogo in [(None, None), (2000.0, None), (None, 40), (None, 1), (500.0, 10)]:
        previous = (0.0, 0.0)
        for time in range(0, 200000, 331):
            soft, hard = allocate(clock(float(time), inc, movestogo))
            assert soft >= previous[0] - 1e-9 and hard >= previous[1] - 1e-9, (time, inc, movestogo)
            previous = (soft, hard)


# ---------------------------------------------------------------------------------------------- simulated games

SCHEMES = ["cn-90-40", "cn-60-30", "cn-rapid", "cn-5-30", "300", "180+2"]


def play(tc_text: str, scale: float, spend: str, moves: int = 150, lag=(5.0, 9.9), overhead: float = OVERHEAD,
         seed: int = 0):
    """One side's clock through `moves` moves; returns (lowest time left at a move in ms, per-move times in ms)."""
    rng = random.Random(seed)
    game_clock = Clock(TimeControl.parse(tc_text, scale))
    lowest = math.inf
    used = []
    for _ in range(moves):
        remaining = game_clock.remaining * 1000
        increment = game_clock.increment() * 1000
        limits = SearchLimits(time=remaining, increment=increment or None, movestogo=game_clock.moves_to_go())
        soft, hard = allocate(limits, overhead)
        assert 1 <= soft <= hard
        if spend == "hard":
            think = hard
        elif spend == "soft":
            think = soft
        else:  # an iteration that ends somewhere between the two
            think = rng.uniform(soft, hard)
        elapsed = think + rng.uniform(*lag)
        lowest = min(lowest, remaining - elapsed)
        used.append(elapsed)
        game_clock.punch(elapsed / 1000)
        assert not game_clock.flagged()
    return lowest, used


@pytest.mark.parametrize("scale", [1.0, 1 / 60], ids=["full", "1/60"])
@pytest.mark.parametrize("spend", ["hard", "soft", "mixed"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_never_loses_on_time(scheme, scale, spend):
    for seed in range(3):
        lowest, _ = play(scheme, scale, spend, seed=seed)
        assert lowest > 0, (scheme, scale, spend, seed, lowest)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_never_loses_on_time_with_lag_at_the_overhead(scheme):
    """Every move lags just under the overhead, at 1/60 scale, spending the hard limit each time."""
    lowest, _ = play(scheme, 1 / 60, "hard", lag=(9.99, 9.99))
    assert lowest > 0


@pytest.mark.parametrize("scheme", SCHEMES)
def test_larger_overhead_and_lag_at_full_scale(scheme):
    lowest, _ = play(scheme, 1.0, "hard", lag=(5.0, 29.9), overhead=30.0)
    assert lowest > 0


@pytest.mark.parametrize("scale", [1.0, 1 / 60], ids=["full", "1/60"])
@pytest.mark.parametrize("scheme, moves, stage_seconds", [
    ("cn-90-40", 40, 5400), ("cn-60-30", 30, 3600), ("cn-rapid", 40, 600), ("cn-5-30", 30, 300)])
def test_first_stage_uses_most_of_its_time(scheme, moves, stage_seconds, scale):
    """Spending soft (or between soft and hard), the first stage uses most of its time, never more."""
    stage_ms = stage_seconds * 1000 * scale
    for spend in ("soft", "mixed"):
        _, used = play(scheme, scale, spend)
        assert 0.85 * stage_ms < sum(used[:moves]) < stage_ms
    _, used = play(scheme, scale, "hard")
    assert sum(used[:moves]) < stage_ms


@pytest.mark.parametrize("scale", [1.0, 1 / 60], ids=["full", "1/60"])
def test_stage_time_is_spread_evenly(scale):
    """90 min / 40 moves spending soft: no move of the first stage takes more than 3x the average one."""
    _, used = play("cn-90-40", scale, "soft")
    first = used[:40]
    average = sum(first) / 40
    assert max(first) < 3 * average and min(first) > average / 3


@pytest.mark.parametrize("scale", [1.0, 1 / 60], ids=["full", "1/60"])
@pytest.mark.parametrize("scheme", ["300", "180+2"])
def test_sudden_death_keeps_time_for_a_long_game(scheme, scale):
    """Sudden death spending soft: the first 40 moves take a fair share, not nearly all of the clock,
    and the time per move shrinks as the clock does."""
    stage = TimeControl.parse(scheme, scale).stages[0]
    total_ms = (stage.seconds + 40 * stage.increment) * 1000   # the clock and the increments of 40 moves
    _, used = play(scheme, scale, "soft")
    assert 0.25 * total_ms < sum(used[:40]) < 0.75 * total_ms
    assert used[0] > used[100]


# Formula 7: the stability rule between iterations (IterationRule).

def _old_share(instability: float, score: int, score_before: int) -> float:
    """The rule as the searcher wrote it before it moved here."""
    scale = 0.7 + 0.5 * instability
    if score < score_before - 30:
        scale *= 1.25
    return scale if scale < 2.0 else 2.0


def test_iteration_rule_is_the_searchers_old_rule():
    from engine.server.timeman import ITERATION_RULE
    for instability in (0.0, 0.25, 1.0, 1.5, 2.5, 4.0):
        for score, before in ((0, 0), (-31, 0), (-30, 0), (100, 20), (-500, -100)):
            assert ITERATION_RULE.soft_share(instability, score, before) == _old_share(instability, score, before)


def test_iteration_rule_bounds():
    from engine.server.timeman import IterationRule
    rule = IterationRule()
    assert rule.soft_share(0.0, 0, 0) == rule.base_share
    assert rule.soft_share(100.0, -1000, 0) == rule.max_share
    assert rule.soft_share(0.0, -31, 0) == rule.base_share * rule.falling_factor

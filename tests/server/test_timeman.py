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
from engine.server.timeman import MAX_CLOCK_SHARE, GameTimeState, IterationTimer, allocate

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


@pytest.mark.parametrize("time, increment, ply, expected", [
    # Pikafish master's optimum and maximum for these clocks (its timeman.cpp, worked by hand)
    (10000.0, 100.0, 0, (296, 1953)), (40000.0, 400.0, 0, (1509, 10570)),
])
def test_sudden_death_is_pikafishs(time, increment, ply, expected):
    soft, hard = allocate(clock(time, increment), 10.0, ply=ply)
    assert soft == pytest.approx(expected[0], rel=0.01) and hard == pytest.approx(expected[1], rel=0.01)


def test_front_loaded():
    """With the clock of a game's first move fixed, the optimum grows with the ply (the opening and
    middlegame get more) while the clock lasts; the maximum's multiple of it grows too."""
    game = GameTimeState()
    first = allocate(clock(10000.0, 100.0), 10.0, ply=0, game=game)
    later = allocate(clock(10000.0, 100.0), 10.0, ply=30, game=game)
    assert later[0] > 1.3 * first[0] and later[1] / later[0] > first[1] / first[0]


def test_the_games_first_clock_fixes_the_adjustment():
    game = GameTimeState()
    allocate(clock(10000.0, 100.0), 10.0, ply=0, game=game)
    adjust = game.adjust
    allocate(clock(3000.0, 100.0), 10.0, ply=60, game=game)
    assert game.adjust == adjust and 0.85 < adjust < 0.95
    game.starting(60)
    game.starting(0)          # a lower ply than the last: another game
    assert game.adjust is None


def test_increment_adds_time():
    soft0, hard0 = allocate(clock(180000.0))
    soft2, hard2 = allocate(clock(180000.0, 2000.0))
    assert soft2 > soft0 and hard2 > hard0


def test_movestogo_spreads_the_stage():
    soft, hard = allocate(clock(5400000.0, movestogo=40))
    left = 5400000 + 0 - 42 * OVERHEAD
    assert soft == pytest.approx(0.88 / 40 * left)
    assert hard == pytest.approx((1.3 + 0.11 * 40) * soft)
    # fewer moves to go: more per move
    values = [allocate(clock(600000.0, movestogo=n)) for n in (30, 20, 10, 5, 2, 1)]
    softs = [s for s, _ in values]
    hards = [h for _, h in values]
    assert softs == sorted(softs) and hards == sorted(hards)


def test_movestogo_one_uses_most_but_not_all():
    for time in (100.0, 1000.0, 60000.0, 900000.0):
        soft, hard = allocate(clock(time, movestogo=1))
        assert 0.6 * (time - OVERHEAD) <= hard <= MAX_CLOCK_SHARE * time - OVERHEAD
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
            assert 1 <= soft <= hard <= max(1.0, MAX_CLOCK_SHARE * time - OVERHEAD)


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
                            assert hard <= max(1.0, MAX_CLOCK_SHARE * time - overhead), (time, inc, movestogo,
                                                                                         overhead)
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
    game = GameTimeState()
    for move in range(moves):
        remaining = game_clock.remaining * 1000
        increment = game_clock.increment() * 1000
        limits = SearchLimits(time=remaining, increment=increment or None, movestogo=game_clock.moves_to_go())
        soft, hard = allocate(limits, overhead, ply=2 * move, game=game)
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
def test_sudden_death_keeps_time_for_a_long_game(scale):
    """Sudden death spending soft: the first 40 moves take most of the clock (front-loaded, as Pikafish
    plans a game), not all of it, and the time per move shrinks as the clock does; with an increment,
    the late moves live on it."""
    _, used = play("300", scale, "soft")
    assert 0.25 * 300000 * scale < sum(used[:40]) < 0.9 * 300000 * scale
    assert used[10] > used[100]
    _, used = play("180+2", scale, "soft")
    assert min(used[100:]) > 0.8 * 2000 * scale


# Formula 7: the rule between iterations (IterationTimer).

def timer(**game) -> IterationTimer:
    return IterationTimer(GameTimeState(**game), soft_ms=300.0)


def iteration(t: IterationTimer, depth: int, best_move: int = 1, score: int = 0, changes: int = 0,
              effort: float = 0.5, root_moves: int = 40) -> float:
    return t.soft_share(depth=depth, best_move=best_move, score=score, best_move_changes=changes,
                        best_move_effort=effort, root_moves=root_moves)


def test_a_stable_best_move_gets_less_and_less():
    t = timer(previous_average_score=0.0)
    shares = [iteration(t, d) for d in range(1, 25)]
    assert shares == sorted(shares, reverse=True)
    # not falling, stable for 17 iterations or more, one move taking most of the nodes: Pikafish's 0.43
    assert iteration(t, 25, effort=0.99) == pytest.approx(0.61 * (2.1 + 0.85) / (2.48 * 1.44) * 0.96 * 0.74,
                                                          rel=1e-6)


def test_changes_and_a_falling_score_ask_for_more():
    stable, changing, falling = (timer(previous_average_score=0.0) for _ in range(3))
    for d in range(1, 12):
        a = iteration(stable, d)
        b = iteration(changing, d, best_move=d % 3, changes=2)
        c = iteration(falling, d, score=-8 * d)
    assert b > 2 * a and c > 2 * a


def test_the_first_move_of_a_game_and_a_single_move():
    assert iteration(timer(), 1) > iteration(timer(previous_average_score=0.0), 1)   # no earlier score: 1.86
    assert iteration(timer(), 5, root_moves=1) <= 500 / 300


def test_finish_hands_the_search_to_the_next_move():
    t = timer()
    for d in range(1, 20):
        iteration(t, d, score=40)
    t.finish()
    assert t.game.previous_average_score == pytest.approx(40) and t.game.previous_time_reduction == 1.44

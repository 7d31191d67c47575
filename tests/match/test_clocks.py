"""engine.match.clocks: the two clocks of a game, fed the times the engines took in ms (no waiting, no wall
clock)."""
import pytest

from engine.color import Color
from engine.match.clocks import GRACE_S, GameClocks
from engine.match.timecontrol import TimeControl

RED, BLACK = Color.RED, Color.BLACK


def clocks(red: str, black: str | None = None, margin: float = 0.1, stall: float = 60.0) -> GameClocks:
    return GameClocks(TimeControl.parse(red), TimeControl.parse(black or red), margin, stall)


def test_each_side_is_sent_its_own_clock_and_its_opponents():
    game = clocks("10+0.1", "20+0.2")          # time odds: each engine its own clock
    limits = game.limits(RED)
    assert (limits.time, limits.increment, limits.opp_time, limits.opp_increment) == (10_000, 100, 20_000, 200)
    assert game.punch(RED, 1500) is None
    limits = game.limits(BLACK)
    assert (limits.time, limits.opp_time, limits.opp_increment) == (20_000, 8_600, 100)
    assert game.timeout(BLACK) == pytest.approx(20 + 0.1 + GRACE_S)
    assert game.log_entry(RED, 7) == (7, "red", pytest.approx(8.6), None)


def test_stages_count_moves_to_go_and_add_their_time():
    game = clocks("2/6:1/3")
    sent = []
    for _ in range(4):
        sent.append((game.limits(RED).movestogo, game.limits(RED).time))
        game.punch(RED, 1000)
    assert sent == [(2, 6000), (1, 5000), (1, 7000), (1, 9000)]


def test_an_overrun_beyond_the_margin_forfeits():
    game = clocks("5+0", margin=0.1)
    assert game.punch(RED, 5050) is None                  # within the margin
    assert game.punch(BLACK, 5300) == "lost on time (0.300 s over)"
    fixed = clocks("st=1", margin=0.1)
    assert fixed.limits(RED).movetime == 1000 and fixed.timeout(RED) == pytest.approx(1 + 0.1 + GRACE_S)
    assert fixed.punch(RED, 1050) is None
    assert fixed.punch(RED, 1250) == "took 1.250 s for a 1 s move"


def test_an_engine_without_a_clock():
    game = clocks("depth=3", "10+0.1", stall=7.0)
    assert not game.on_clock(RED) and game.on_clock(BLACK)
    assert game.limits(RED).depth == 3 and game.limits(RED).time is None and game.timeout(RED) == 7.0
    assert game.punch(RED, 1_000_000) is None             # no time to overrun
    black = game.limits(BLACK)
    assert black.time == 10_000 and black.opp_time is None and black.opp_increment is None
    assert game.log_entry(RED, 0) == (0, "red", -1.0, None)

"""CECP's wire values (engine.server.cecp_codec): time controls, clocks, scores and output lines."""
from __future__ import annotations

import pytest

from engine import Color
from engine.outcome import Outcome, Termination
from engine.score import Score
from engine.server.cecp_codec import (
    TimeControl, clock_limits, format_result, format_stat01, format_thinking, moves_to_go, option_feature,
    parse_base, parse_centiseconds, parse_level, parse_option_assignment, parse_seconds, xboard_score,
)
from engine.server.commands import CommandError
from engine.search_types import PvLine
from engine.server.options import FEATURE, EngineOption, OptionKind
from engine.server.timeman import allocate


@pytest.mark.parametrize("text, ms", [("5", 300_000), ("0:30", 30_000), ("1:30", 90_000), ("0.5", 30_000),
                                      ("90", 5_400_000), ("25+5", 1_500_000), ("0:05.5", 5_500)])
def test_level_base_is_minutes_or_min_sec(text, ms):
    assert parse_base(text) == pytest.approx(ms)


@pytest.mark.parametrize("args, control", [
    (["40", "5", "0"], TimeControl(40, 300_000, 0)),
    (["0", "0:30", "0.3"], TimeControl(0, 30_000, 300)),
    (["40", "90", "0"], TimeControl(40, 5_400_000, 0)),      # the rules' 40 moves in 90 minutes
    (["0", "2", "12"], TimeControl(0, 120_000, 12_000)),
])
def test_parse_level(args, control):
    assert parse_level(args) == control


@pytest.mark.parametrize("args", [[], ["40", "5"], ["40", "5", "0", "1"], ["x", "5", "0"], ["40", "x", "0"],
                                  ["40", ":5", "0"], ["40", "5", "-1"], ["-1", "5", "0"], ["40", "5", "nan"]])
def test_bad_levels(args):
    with pytest.raises(CommandError):
        parse_level(args)


def test_clock_units():
    assert parse_centiseconds("2950", "time") == 29_500
    assert parse_centiseconds("-30", "time") == 0          # a clock that has run out
    assert parse_seconds("2.5", "st") == 2_500
    with pytest.raises(CommandError):
        parse_seconds("0", "st")


@pytest.mark.parametrize("made, left", [(0, 40), (1, 39), (39, 1), (40, 40), (41, 39), (79, 1), (80, 40)])
def test_moves_to_go_counts_down_each_session(made, left):
    assert moves_to_go(TimeControl(40, 300_000, 0), made) == left


def test_no_moves_to_go_in_sudden_death():
    assert moves_to_go(TimeControl(0, 300_000, 2_000), 12) is None


def test_clock_limits_from_the_clock_or_the_base():
    control = TimeControl(40, 60_000, 0)
    limits = clock_limits(control, 29_500, 30_000, moves_made=39)
    assert (limits.time, limits.opp_time, limits.movestogo, limits.increment) == (29_500, 30_000, 1, None)
    assert clock_limits(control, None, None, 0).time == 60_000        # no `time` yet: the base
    sudden = clock_limits(TimeControl(0, 30_000, 300), 1_000, 2_000, 50)
    assert (sudden.increment, sudden.opp_increment, sudden.movestogo) == (300, 300, None)
    exact = clock_limits(control, 29_500, 30_000, 3, st_ms=2_000, depth=7)
    assert (exact.movetime, exact.time, exact.depth) == (2_000, None, 7)


def test_the_last_move_of_a_session_keeps_time_in_hand():
    # level 40 1 0 with 5 s left before move 40: the time manager may use most, never all, of it.
    soft, hard = allocate(clock_limits(TimeControl(40, 60_000, 0), 5_000, 5_000, moves_made=39), 10.0)
    assert 0 < soft <= hard < 5_000


@pytest.mark.parametrize("score, shown", [(Score(35), 35), (Score(-120), -120), (Score.from_mate(1), 100_001),
                                          (Score.from_mate(3), 100_003), (Score.from_mate(-2), -100_002),
                                          (Score.mated(), -100_000)])
def test_scores_in_xboards_units(score, shown):
    assert xboard_score(score) == shown


def test_thinking_line():
    info = PvLine(depth=9, seldepth=14, multipv=1, score=Score(-21), nodes=2210454, time_ms=4128,
                      nps=536000, hashfull=3, pv=("h9g7", "h0g2", "i9h9"))
    assert format_thinking(info) == "9 -21 412 2210454 14 536000 0\th9g7 h0g2 i9h9"
    assert format_thinking(info, ("h2e2",)) == "9 -21 412 2210454 14 536000 0\th2e2 h9g7 h0g2 i9h9"
    assert format_stat01(1234.5, info, 44) == "stat01: 123 2210454 9 0 44"
    assert format_stat01(0, None, 44) == "stat01: 0 0 0 0 44"


@pytest.mark.parametrize("outcome, line", [
    (Outcome(Color.RED, Termination.CHECKMATE), "1-0 {Red mates}"),
    (Outcome(Color.BLACK, Termination.CHECKMATE), "0-1 {Black mates}"),
    (Outcome(Color.RED, Termination.STALEMATE), "1-0 {Red wins, Black cannot move}"),
    (Outcome(Color.BLACK, Termination.PERPETUAL_CHECK), "0-1 {Black wins, perpetual check by Red}"),
    (Outcome(Color.RED, Termination.PERPETUAL_CHASE), "1-0 {Red wins, perpetual chase by Black}"),
    (Outcome(None, Termination.REPETITION), "1/2-1/2 {repetition}"),
    (Outcome(None, Termination.SIXTY_MOVES), "1/2-1/2 {60-move rule}"),
    (Outcome(None, Termination.INSUFFICIENT_MATERIAL), "1/2-1/2 {insufficient material}"),
])
def test_result_lines(outcome, line):
    assert format_result(outcome) == line
    assert "resign" not in line and "Draw" not in line


def feature(name: str, kind: OptionKind, **row: object) -> str:
    return option_feature(EngineOption(kind, "", uci=name, cecp=FEATURE, **row))  # type: ignore[arg-type]


def test_option_features():
    assert feature("MultiPV", "spin", default=1, minimum=1, maximum=128) == 'feature option="MultiPV -spin 1 1 128"'
    assert feature("Use NNUE", "check", default=True) == 'feature option="Use NNUE -check 1"'
    assert feature("Clear Hash", "button") == 'feature option="Clear Hash -button"'
    assert feature("EvalFile", "file", default="") == 'feature option="EvalFile -file "'
    assert feature("Name", "string", default="x") == 'feature option="Name -string x"'
    assert (feature("Style", "combo", default="normal", choices=("solid", "normal"))
            == 'feature option="Style -combo solid /// *normal"')


def test_option_assignment():
    assert parse_option_assignment(["Move", "Overhead=50"]) == ("Move Overhead", "50")
    assert parse_option_assignment(["Clear", "Hash"]) == ("Clear Hash", None)
    assert parse_option_assignment(["EvalFile="]) == ("EvalFile", "")
    with pytest.raises(CommandError):
        parse_option_assignment([])

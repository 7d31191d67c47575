"""Time control parsing, PGN tags and descriptions, and the clock through the Chinese-rules schemes."""
import math

import pytest

from engine.match.timecontrol import SCHEMES, Clock, Stage, TimeControl, TimeControlError

S = Stage


@pytest.mark.parametrize(
    "text, stages",
    [
        # sudden death, seconds / m:ss / h:mm:ss, with and without increment
        ("300", (S(None, 300),)),
        ("300+2", (S(None, 300, 2),)),
        ("0.5+0.05", (S(None, 0.5, 0.05),)),
        ("2:30+1", (S(None, 150, 1),)),
        ("5:00", (S(None, 300),)),
        ("90:00", (S(None, 5400),)),
        ("1:30:00", (S(None, 5400),)),
        ("1:30:00+30", (S(None, 5400, 30),)),
        # cutechess moves/time+inc
        ("40/60", (S(40, 60),)),
        ("40/60+0.5", (S(40, 60, 0.5),)),
        ("40/2:30", (S(40, 150),)),
        ("40/2:30+1", (S(40, 150, 1),)),
        ("tc=40/60", (S(40, 60),)),
        # PGN stages
        ("40/5400:10/900", (S(40, 5400), S(10, 900))),
        ("40/5400:10/900+5", (S(40, 5400), S(10, 900, 5))),
        ("40/5400:900", (S(40, 5400), S(None, 900))),
        ("40/5400+30:1800+30", (S(40, 5400, 30), S(None, 1800, 30))),
        ("40/5400:20/3600:900", (S(40, 5400), S(20, 3600), S(None, 900))),
        ("40/1:30:00:20/30:00", (S(40, 5400), S(20, 1800))),
        ("40/60:0:30", (S(40, 60), S(None, 30))),  # a short sudden death after a counted stage
        ("40/60:30.0", (S(40, 60), S(None, 30))),
        ("40/60:5", (S(40, 60), S(None, 5))),
        # case and whitespace
        (" 40 / 60 + 0.5 ", (S(40, 60, 0.5),)),
        ("TC=40/60", (S(40, 60),)),
    ],
)
def test_clock_forms(text, stages):
    tc = TimeControl.parse(text)
    assert tc.stages == stages
    assert (tc.movetime, tc.depth, tc.nodes) == (None, None, None)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("inf", TimeControl()),
        ("INFINITE", TimeControl()),
        ("st=5", TimeControl(movetime=5.0)),
        ("movetime=0.25", TimeControl(movetime=0.25)),
        ("MoveTime=2", TimeControl(movetime=2.0)),
        ("depth=12", TimeControl(depth=12)),
        ("nodes=100000", TimeControl(nodes=100000)),
        ("depth=8,nodes=5000", TimeControl(depth=8, nodes=5000)),
        ("st=1,depth=10", TimeControl(movetime=1.0, depth=10)),
        ("300+2,depth=20", TimeControl((S(None, 300, 2),), depth=20)),
        ("inf,nodes=10", TimeControl(nodes=10)),
    ],
)
def test_limit_forms(text, expected):
    assert TimeControl.parse(text) == expected


@pytest.mark.parametrize(
    "name, stages",
    [
        ("cn-90-40", (S(40, 5400), S(10, 900))),
        ("cn-60-30", (S(30, 3600), S(10, 600))),
        ("cn-rapid", (S(40, 600), S(30, 300))),
        ("cn-5-30", (S(30, 300),)),
    ],
)
def test_schemes(name, stages):
    assert TimeControl.parse(name).stages == stages
    assert TimeControl.parse(name.upper()).stages == stages
    assert TimeControl.parse(SCHEMES[name][0]).stages == stages


def test_scale_multiplies_times_increments_and_movetime():
    tc = TimeControl.parse("cn-90-40", scale=1 / 60)
    assert [s.moves for s in tc.stages] == [40, 10]
    assert [s.seconds for s in tc.stages] == pytest.approx([90, 15])
    tc = TimeControl.parse("40/60+2", scale=0.5)
    assert (tc.stages[0].seconds, tc.stages[0].increment) == pytest.approx((30, 1))
    assert TimeControl.parse("st=4", scale=0.25).movetime == pytest.approx(1)
    assert TimeControl.parse("depth=5", scale=0.1).depth == 5  # limits other than time are not scaled


@pytest.mark.parametrize(
    "text, tag, words",
    [
        ("cn-90-40", "40/5400:10/900", "40 moves in 90 min, then 10 moves in 15 min (repeating)"),
        ("300+2", "300+2", "5 min for the game + 2 s per move"),
        ("40/60+0.5", "40/60+0.5", "40 moves in 1 min + 0.5 s per move (repeating)"),
        ("2:30", "150", "2 min 30 s for the game"),
        ("40/5400:900", "40/5400:900", "40 moves in 90 min, then 15 min for the rest of the game"),
        ("40/60:0:30", "40/60:30.0", "40 moves in 1 min, then 30 s for the rest of the game"),
        ("st=5", "5/move", "5 s per move"),
        ("depth=12", "-", "depth 12"),
        ("inf", "-", "no limit (infinite)"),
        ("300,depth=3,nodes=99", "300", "5 min for the game; depth 3; 99 nodes"),
    ],
)
def test_pgn_tag_and_describe(text, tag, words):
    tc = TimeControl.parse(text)
    assert tc.pgn_tag() == tag
    assert tc.describe() == words


@pytest.mark.parametrize(
    "text", ["cn-90-40", "cn-60-30", "cn-rapid", "cn-5-30", "300+2", "40/5400:900", "40/60:0:30",
             "40/5400+30:1800+30", "2:30+1", "40/60:59"]
)
@pytest.mark.parametrize("scale", [1.0, 1 / 60, 0.1])
def test_pgn_tag_parses_back(text, scale):
    tc = TimeControl.parse(text, scale)
    back = TimeControl.parse(tc.pgn_tag())
    assert [s.moves for s in back.stages] == [s.moves for s in tc.stages]
    assert [s.seconds for s in back.stages] == pytest.approx([s.seconds for s in tc.stages], rel=1e-4)
    assert [s.increment for s in back.stages] == pytest.approx([s.increment for s in tc.stages], rel=1e-4)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("fast", "not a time"),
        ("-5", "not a time"),
        ("1e3", "not a time"),
        ("nan", "not a time"),
        ("2:5", "two-digit seconds"),
        ("2:60", "two-digit seconds"),
        ("1:60:00", "two-digit seconds"),
        ("300:40/60", "only the last stage may be sudden death"),
        ("0", "first stage needs some time"),
        ("0+1", "first stage needs some time"),
        ("0/60", "move count must be positive"),
        ("40//60", "cannot read"),
        ("40/60++1", "cannot read"),
        ("40/60+x", "not a number"),
        ("40/60,st=5", "cannot be combined"),
        ("40/60,300", "more than one clock"),
        ("st=1,movetime=2", "given twice"),
        ("st=0", "must be positive"),
        ("depth=0", "positive integer"),
        ("nodes=1.5", "positive integer"),
        ("depth=", "positive integer"),
        ("ponder=1", "unknown limit"),
        ("40/60,", "empty item"),
        ("cn-90-41", "not a time"),
    ],
)
def test_errors_name_the_problem_and_the_forms(text, fragment):
    with pytest.raises(TimeControlError) as info:
        TimeControl.parse(text)
    message = str(info.value)
    assert fragment in message
    assert "accepted time controls" in message and "cn-90-40" in message and "40/5400:10/900" in message
    assert isinstance(info.value, ValueError)


def test_bad_scale_and_direct_construction_are_checked():
    for scale in (0, -1, math.inf, math.nan):
        with pytest.raises(TimeControlError):
            TimeControl.parse("300", scale)
    with pytest.raises(TimeControlError):
        TimeControl((S(None, 300), S(40, 60)))  # sudden death before another stage
    with pytest.raises(TimeControlError):
        TimeControl((S(40, 60),), movetime=1.0)
    with pytest.raises(TimeControlError):
        Stage(0, 60)
    with pytest.raises(TimeControlError):
        Stage(None, -1)
    with pytest.raises(TimeControlError):
        TimeControl(depth=0)


# ---------------------------------------------------------------------------- the clock


def play(clock, seconds_per_move, moves):
    """Punch `moves` moves; return [(moves_played, remaining, moves_to_go)] after each."""
    log = []
    for _ in range(moves):
        clock.punch(seconds_per_move)
        log.append((clock.moves_played, clock.remaining, clock.moves_to_go()))
    return log


def expected_remaining(stages, move_time, moves):
    """Remaining time after `moves` moves, written out from the rules independently of Clock."""
    remaining = stages[0][1]
    stage, in_stage = 0, 0
    for _ in range(moves):
        remaining -= move_time
        in_stage += 1
        if in_stage == stages[stage][0]:
            in_stage = 0
            stage = min(stage + 1, len(stages) - 1)
            remaining += stages[stage][1]
    return remaining


def test_cn_90_40_at_scale():
    clock = Clock(TimeControl.parse("cn-90-40", scale=1 / 60))  # 40 moves in 90 s, then 10 per 15 s
    assert clock.remaining == pytest.approx(90) and clock.moves_to_go() == 40 and clock.increment() == 0
    log = play(clock, 1.0, 100)
    # move 39: 51 s left, 1 move to go; move 40 completes the stage: 50 s + 15 s, 10 to go
    assert log[38][1:] == (pytest.approx(51), 1)
    assert log[39][1:] == (pytest.approx(65), 10)
    assert log[48][1:] == (pytest.approx(56), 1)
    assert log[49][1:] == (pytest.approx(70), 10)  # after move 50: again +15
    assert log[59][1:] == (pytest.approx(75), 10)  # after move 60
    for played, remaining, to_go in log:
        assert remaining == pytest.approx(expected_remaining([(40, 90), (10, 15)], 1.0, played))
        assert to_go == (40 - played if played < 40 else 10 - (played - 40) % 10)
    assert log[-1][1] == pytest.approx(90 - 100 + 7 * 15)
    assert not clock.flagged()


def test_cn_60_30_at_scale():
    clock = Clock(TimeControl.parse("cn-60-30", scale=1 / 60))  # 30 moves in 60 s, then 10 per 10 s
    log = play(clock, 1.0, 100)
    assert log[29][1:] == (pytest.approx(30 + 10), 10)
    assert log[39][1:] == (pytest.approx(40), 10)  # 10 s used, 10 s added
    for played, remaining, to_go in log:
        assert remaining == pytest.approx(expected_remaining([(30, 60), (10, 10)], 1.0, played))
    assert not clock.flagged()


def test_cn_rapid_at_scale():
    clock = Clock(TimeControl.parse("cn-rapid", scale=1 / 60))  # 40 moves in 10 s, then 30 per 5 s
    log = play(clock, 0.1, 130)
    assert log[39][1:] == (pytest.approx(10 - 4 + 5), 30)
    assert log[69][1:] == (pytest.approx(11 - 3 + 5), 30)
    assert log[99][1:] == (pytest.approx(13 - 3 + 5), 30)
    for played, remaining, to_go in log:
        assert remaining == pytest.approx(expected_remaining([(40, 10), (30, 5)], 0.1, played))
    assert not clock.flagged()
    # 0.3 s a move runs out before move 40: 9.9 s after 33 moves, 10.2 s after 34
    clock = Clock(TimeControl.parse("cn-rapid", scale=1 / 60))
    play(clock, 0.3, 33)
    assert not clock.flagged()
    clock.punch(0.3)
    assert clock.flagged()


def test_cn_5_30_repeats():
    clock = Clock(TimeControl.parse("cn-5-30", scale=1 / 60))  # 5 s every 30 moves
    log = play(clock, 0.1, 95)
    for played, remaining, to_go in log:
        assert to_go == 30 - played % 30
        assert remaining == pytest.approx(5 * (1 + played // 30) - 0.1 * played)
    assert clock.stage_index == 0


def test_sudden_death_after_counted_stage():
    clock = Clock(TimeControl.parse("40/5400:900", scale=1 / 60))
    log = play(clock, 1.0, 60)
    assert log[39][1:] == (pytest.approx(50 + 15), None)
    assert log[59][1:] == (pytest.approx(45), None)
    assert clock.stage == Stage(None, 15.0)


def test_increments():
    clock = Clock(TimeControl.parse("10+1"))
    assert clock.increment() == 1 and clock.moves_to_go() is None
    play(clock, 1.5, 10)
    assert clock.remaining == pytest.approx(5)
    # per-stage increments: the move that ends a stage gets that stage's increment
    clock = Clock(TimeControl.parse("2/10+1:5+3"))
    clock.punch(2)
    assert (clock.remaining, clock.increment(), clock.moves_to_go()) == (9, 1, 1)
    clock.punch(2)
    assert (clock.remaining, clock.increment(), clock.moves_to_go()) == (8 + 5, 3, None)
    clock.punch(2)
    assert clock.remaining == 14


def test_flag_detection_and_margin():
    clock = Clock(TimeControl.parse("10"))
    play(clock, 1.0, 10)
    assert clock.remaining == pytest.approx(0) and not clock.flagged()
    clock.punch(0.3)
    assert clock.flagged() and clock.flagged(0.2) and not clock.flagged(0.5)


def test_increment_and_new_stage_do_not_undo_a_flag():
    clock = Clock(TimeControl.parse("1+5"))
    clock.punch(2.0)  # the flag fell during the move; the increment comes too late
    assert clock.remaining == pytest.approx(4)
    assert clock.flagged()
    clock = Clock(TimeControl.parse("1/1:1/100"))
    clock.punch(1.5)
    assert clock.remaining == pytest.approx(99.5) and clock.flagged()
    clock.punch(0.1)
    assert clock.flagged()  # it stays flagged


def test_fixed_time_per_move_clock():
    clock = Clock(TimeControl.parse("st=2"))
    assert clock.remaining == 2 and clock.moves_to_go() is None and clock.increment() == 0
    clock.punch(1.9)
    assert clock.remaining == 2 and not clock.flagged()
    clock.punch(2.4)
    assert clock.remaining == 2 and clock.flagged() and not clock.flagged(0.5)
    assert clock.moves_played == 2


def test_no_clock():
    for text in ("inf", "depth=5", "nodes=1000"):
        clock = Clock(TimeControl.parse(text))
        play(clock, 1000.0, 3)
        assert clock.remaining == math.inf and not clock.flagged()
        assert clock.moves_to_go() is None and clock.increment() == 0 and clock.moves_played == 3


def test_punch_rejects_bad_elapsed():
    clock = Clock(TimeControl.parse("300"))
    for bad in (-1, math.nan, "1"):
        with pytest.raises(ValueError):
            clock.punch(bad)

"""engine.match.referee: the rulings of a match game, each from a position and an answer to a Verdict, with
no engine process."""
import pytest

from engine import Position
from engine.client import EngineCrashed, EngineProtocolError, EngineTimeout
from engine.color import Color
from engine.match.endings import MatchTermination
from engine.match.referee import (Adjudication, Mover, Referee, Scores, adjudicate, answer_ruling,
                                  draw_adjudication, fault_ruling, judge_claim, move_limit, resign_adjudication,
                                  rules_ruling, time_forfeit)
from engine.outcome import Termination
from engine.score import Score
from engine.search_types import SearchResult

MATE = "3k5/9/9/9/9/9/9/9/4R4/3RK4 b"                     # Black to move, mated
BARE = "4k4/4a4/b4a3/9/6b2/9/9/3AB3B/4A4/5K3 b"           # no attacking piece left: 9 legal moves
SIXTY = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 120 80"          # 120 plies without a capture
LIVE = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80"
RULES_ONLY = Adjudication(rules_only=True)
RED, BLACK = Mover(Color.RED, "one"), Mover(Color.BLACK, "two")


def repeated_three_times() -> Position:
    position = Position()
    for move in ["h0g2", "h9g7", "g2h0", "g7h9"] * 2:
        position.push(move)
    return position


def test_the_rules_rulings_end_the_game():
    verdict = rules_ruling(Position(MATE), Adjudication())
    assert (verdict.result, verdict.reason, verdict.detail, verdict.loser) == \
        ("1-0", Termination.CHECKMATE, "Red wins by checkmate", None)
    assert rules_ruling(Position(BARE), Adjudication()).reason is Termination.INSUFFICIENT_MATERIAL
    assert rules_ruling(Position(SIXTY), Adjudication()).detail == "draw by 60-move rule"
    assert rules_ruling(Position(LIVE), Adjudication()) is None


def test_without_adjudication_only_mate_stalemate_and_repetition_end_the_game():
    assert rules_ruling(Position(MATE), RULES_ONLY).reason is Termination.CHECKMATE
    assert rules_ruling(repeated_three_times(), RULES_ONLY).reason is Termination.REPETITION
    assert rules_ruling(Position(BARE), RULES_ONLY) is None
    assert rules_ruling(Position(SIXTY), RULES_ONLY) is None


def test_an_engine_that_answers_no_move_forfeits():
    answer = SearchResult(bestmove=None)
    verdict = answer_ruling(answer, Position(LIVE), RED, Adjudication())
    assert (verdict.result, verdict.reason, verdict.loser) == ("0-1", MatchTermination.NO_MOVE, 0)
    assert verdict.detail == "Red (one) gave no move in a live position"
    # Under -noadjudicate the detail names the ruling the engine may have taken for the game's end.
    verdict = answer_ruling(answer, Position(BARE), BLACK, RULES_ONLY)
    assert (verdict.result, verdict.reason, verdict.loser) == ("1-0", MatchTermination.NO_MOVE, 1)
    assert "9 legal moves" in verdict.detail and "draw by insufficient material" in verdict.detail


def test_resignations_and_illegal_moves():
    verdict = answer_ruling(SearchResult(bestmove="e1e2", resign=True), Position(LIVE), RED, Adjudication())
    assert (verdict.result, verdict.reason, verdict.loser) == ("0-1", MatchTermination.RESIGNATION, None)
    verdict = answer_ruling(SearchResult(bestmove="a0a1"), Position(LIVE), RED, Adjudication())
    assert (verdict.reason, verdict.loser) == (MatchTermination.ILLEGAL_MOVE, 0)
    assert verdict.detail == "Red (one) played the illegal move a0a1"
    assert answer_ruling(SearchResult(bestmove="e1e5"), Position(LIVE), RED, Adjudication()) is None


@pytest.mark.parametrize("error,on_clock,reason", [
    (EngineCrashed("exited with code 1"), True, MatchTermination.CRASH),
    (EngineProtocolError("Illegal move: h2e2"), True, MatchTermination.PROTOCOL_ERROR),
    (EngineTimeout("no bestmove in 3.1 s"), True, MatchTermination.TIME_FORFEIT),
    (EngineTimeout("no bestmove in 60 s"), False, MatchTermination.HANG),
])
def test_an_engine_that_gives_no_answer_loses(error, on_clock, reason):
    verdict = fault_ruling(error, BLACK, on_clock)
    assert (verdict.result, verdict.reason, verdict.loser) == ("1-0", reason, 1)
    assert verdict.detail.startswith("Black (two)") and str(error) in verdict.detail


def test_a_move_after_its_time_forfeits():
    verdict = time_forfeit(RED, "lost on time (0.300 s over)")
    assert (verdict.result, verdict.reason, verdict.loser) == ("0-1", MatchTermination.TIME_FORFEIT, 0)
    assert verdict.detail == "Red (one) lost on time (0.300 s over)"


def test_claims_are_judged_by_the_rules():
    live = Position(LIVE)
    # A claim of one's own loss is a resignation; a win or draw the rules do not give loses.
    verdict = judge_claim(SearchResult(bestmove=None, claim="0-1", note="Red resigns"), live, "one")
    assert (verdict.result, verdict.reason, verdict.loser) == ("0-1", MatchTermination.RESIGNATION, None)
    verdict = judge_claim(SearchResult(bestmove=None, claim="1/2-1/2", note="draw"), live, "one")
    assert (verdict.result, verdict.reason, verdict.loser) == ("0-1", MatchTermination.INVALID_CLAIM, 0)
    assert verdict.detail == "Red (one) claims 1/2-1/2 {draw}, which the rules do not give"
    # With its move, the claimer is the side that moved. A draw the rules give (a ruling the runner does not
    # apply by itself under -noadjudicate) ends the game by that ruling.
    verdict = judge_claim(SearchResult(bestmove="e1e2", claim="1/2-1/2"), Position(BARE), "two")
    assert (verdict.result, verdict.reason) == ("1/2-1/2", Termination.INSUFFICIENT_MATERIAL)
    assert verdict.detail == "draw by insufficient material, claimed by Red (two)"


def test_the_referee_reads_a_claim_made_with_a_move():
    referee = Referee(RULES_ONLY)
    position = Position(BARE)
    move = position.legal_moves()[0]
    position.push(move)
    verdict = referee.after_move(SearchResult(bestmove=move, claim="1/2-1/2"), position, BLACK)
    assert verdict.reason is Termination.INSUFFICIENT_MATERIAL
    assert referee.after_move(SearchResult(bestmove=move), position, BLACK) is None


def scores_of(red, black) -> Scores:
    scores = Scores()
    for side, values in ((Color.RED, red), (Color.BLACK, black)):
        for value in values:
            scores.add(side, None if value is None else Score(value))
    return scores


def test_resign_adjudication():
    rule = Adjudication(resign_movecount=3, resign_score=500)
    assert resign_adjudication(rule, scores_of([0, -600, -700, -900], [600, 700, 800]), Color.RED) == \
        adjudicate(rule, scores_of([0, -600, -700, -900], [600, 700, 800]), Color.RED, Position(LIVE))
    verdict = resign_adjudication(rule, scores_of([-600, -700, -900], []), Color.RED)
    assert (verdict.result, verdict.reason, verdict.loser) == ("0-1", MatchTermination.RESIGN_ADJUDICATION, None)
    assert resign_adjudication(rule, scores_of([-600, -400, -900], []), Color.RED) is None
    assert resign_adjudication(rule, scores_of([-600, None, -900], []), Color.RED) is None
    assert resign_adjudication(rule, scores_of([-700, -900], []), Color.RED) is None
    twosided = Adjudication(resign_movecount=2, resign_score=500, resign_twosided=True)
    assert resign_adjudication(twosided, scores_of([-600, -700], [600, 400]), Color.RED) is None
    assert resign_adjudication(twosided, scores_of([-600, -700], [600, 700]), Color.RED) is not None
    # A mate is beyond every threshold.
    mated = scores_of([], [])
    mated.add(Color.BLACK, Score.from_mate(-3))
    assert resign_adjudication(Adjudication(resign_movecount=1, resign_score=100_000), mated, Color.BLACK)


def test_draw_adjudication_and_the_move_limit():
    rule = Adjudication(draw_movenumber=40, draw_movecount=2, draw_score=10)
    early, late = Position("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), Position()
    for move in ["h0g2", "h9g7", "g2h0", "g7h9"] * 20:
        late.push(move)
    assert draw_adjudication(rule, scores_of([5, -3], [0, 10]), early) is None    # before move 40
    verdict = draw_adjudication(rule, scores_of([5, -3], [0, 10]), late)
    assert (verdict.result, verdict.reason) == ("1/2-1/2", MatchTermination.DRAW_ADJUDICATION)
    assert draw_adjudication(rule, scores_of([5, -30], [0, 10]), late) is None
    assert move_limit(Adjudication(max_moves=40), late).detail == "draw: the 40-move limit of the match"
    assert move_limit(Adjudication(max_moves=41), late) is None and move_limit(Adjudication(), late) is None
    # -noadjudicate adjudicates nothing, whatever else is set.
    everything = Adjudication(draw_movenumber=0, draw_movecount=1, draw_score=100, max_moves=1, rules_only=True)
    assert adjudicate(everything, scores_of([0], [0]), Color.BLACK, late) is None

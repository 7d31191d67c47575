"""The vocabulary of endings: Termination (the rules' reasons), Outcome, and the match runner's own endings."""
import json

from engine import Outcome, Position, Termination, _core
from engine.match.endings import TERMINATIONS, MatchTermination
from engine.position import Outcome as PositionOutcome

MATE = "3k5/9/9/9/9/9/9/9/4R4/3RK4 b"  # Black to move, mated


def test_every_kernel_verdict_is_a_termination():
    kernel_names = {name for name in _core.VERDICT_NAMES.values() if name is not None}
    assert kernel_names == {termination.value for termination in Termination}


def test_a_termination_is_its_key_string():
    reason = Termination.SIXTY_MOVES
    assert reason == "sixty_moves" and str(reason) == "sixty_moves" and f"{reason}" == "sixty_moves"
    assert reason in {"sixty_moves"} and {"sixty_moves": 1}[reason] == 1
    assert json.dumps({"reason": reason}) == '{"reason": "sixty_moves"}'
    assert Termination("sixty_moves") is reason and reason.words == "60-move rule"


def test_outcome_reason_is_a_termination():
    outcome = Position(MATE).outcome()
    assert outcome == Outcome("red", "checkmate")
    assert outcome.reason is Termination.CHECKMATE and outcome.reason.words == "checkmate"
    assert outcome.result == "1-0" and PositionOutcome is Outcome


def test_match_terminations_extend_the_rules_ones():
    assert not {t.value for t in Termination} & {t.value for t in MatchTermination}
    assert list(TERMINATIONS) == [t.value for t in Termination] + [t.value for t in MatchTermination]
    assert TERMINATIONS["time_forfeit"] is MatchTermination.TIME_FORFEIT
    assert TERMINATIONS["perpetual_chase"].words == "perpetual chase"

"""The kernel's tuning hooks (used by tools/tune_eval.py): weights in and out, quiescence score."""
import pytest

from engine import Position, _core


def test_weights_round_trip_and_change_the_evaluation():
    searcher = _core.Searcher(1, 1)
    position = Position("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1")     # a lone soldier at home
    original = _core.eval_weights()
    assert len(original) == len(_core.EVAL_WEIGHT_NAMES)
    pawn = _core.EVAL_WEIGHT_NAMES.index("pawn")
    before = searcher.evaluate(position._board)
    try:
        raised = list(original)
        raised[pawn] += 100
        _core.set_eval_weights(raised)
        assert _core.eval_weights() == raised
        assert searcher.evaluate(position._board) == before + 100
    finally:
        _core.set_eval_weights(original)
    assert searcher.evaluate(position._board) == before


def test_wrong_number_of_weights_is_refused():
    with pytest.raises(ValueError, match="expected 18 weights"):
        _core.set_eval_weights([1, 2, 3])


def test_quiescence_resolves_captures():
    searcher = _core.Searcher(1, 1)
    quiet = Position()
    assert searcher.quiescence(quiet._board) == searcher.evaluate(quiet._board)
    hanging = Position("4k4/9/9/9/5r3/9/9/9/9/3K1R3 w - - 0 1")   # Red's chariot takes the loose one
    assert searcher.quiescence(hanging._board) > searcher.evaluate(hanging._board) + 500

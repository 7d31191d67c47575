"""The kernel's tuning hooks (used by tools/tune_eval.py): weights in and out, the evaluation's
features, quiescence score."""
import pytest

from engine import Position, _core


def test_weights_round_trip_and_change_the_evaluation():
    searcher = _core.Searcher(1, 1)
    position = Position("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1")     # a lone soldier at home
    original = _core.eval_weights()
    assert len(original) == len(_core.EVAL_WEIGHT_NAMES)
    pawn = _core.EVAL_WEIGHT_NAMES.index("pawn")
    before = searcher.evaluate(position.kernel_board)
    try:
        raised = list(original)
        raised[pawn] += 100
        _core.set_eval_weights(raised)
        assert _core.eval_weights() == raised
        assert searcher.evaluate(position.kernel_board) == before + 100
    finally:
        _core.set_eval_weights(original)
    assert searcher.evaluate(position.kernel_board) == before


def test_wrong_number_of_weights_is_refused():
    expected = len(_core.EVAL_WEIGHT_NAMES)
    with pytest.raises(ValueError, match=f"expected {expected} weights"):
        _core.set_eval_weights([1, 2, 3])


@pytest.mark.parametrize("fen", [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3n2/p1p1p1p1p/4P4/9/P1P3PcP/1C2C1N2/9/RNBAKABR1 b - - 9 5",
    "3k5/4a4/4b4/9/2p6/6R2/9/4C4/4A4/3AK4 w - - 0 40",
    "4k4/4a4/9/9/9/9/9/4n4/3r5/4K4 b - - 0 60",
])
def test_the_evaluation_is_linear_in_its_weights(fen):
    searcher = _core.Searcher(1, 1)
    board = Position(fen).kernel_board
    weights = _core.eval_weights()
    features = _core.eval_features(board)
    assert len(features) == len(weights)
    # Up to the rounding of each integer division in the kernel.
    assert sum(w * f for w, f in zip(weights, features)) == pytest.approx(searcher.evaluate(board), abs=4)


def test_piece_square_weights_are_named_by_type_phase_and_square():
    names = _core.EVAL_WEIGHT_NAMES
    assert len(set(names)) == len(names)
    assert {"rook", "king_mg_a0", "pawn_eg_e9", "cannon_mg_e2"} <= set(names)


def test_quiescence_resolves_captures():
    searcher = _core.Searcher(1, 1)
    quiet = Position()
    assert searcher.quiescence(quiet.kernel_board) == searcher.evaluate(quiet.kernel_board)
    hanging = Position("4k4/9/9/9/5r3/9/9/9/9/3K1R3 w - - 0 1")   # Red's chariot takes the loose one
    assert searcher.quiescence(hanging.kernel_board) > searcher.evaluate(hanging.kernel_board) + 500

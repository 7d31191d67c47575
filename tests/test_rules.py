"""Game end by the rules: no legal move, repetition rulings, the natural move limit, bare boards."""
import pytest

from support import read_table
from engine import Position

TERMINAL = read_table("terminal.txt")
REPETITION = read_table("repetition.txt")


def winner_of(text: str):
    return {"red wins": "red", "black wins": "black", "draw": None}[text]


@pytest.mark.parametrize("fen,kind,result", TERMINAL, ids=[f"{r[1]}-{i}" for i, r in enumerate(TERMINAL)])
def test_no_legal_move_loses_for_the_side_to_move(fen, kind, result):
    position = Position(fen)
    assert position.legal_moves() == []
    assert position.is_check() == (kind == "checkmate")
    outcome = position.outcome()
    assert outcome is not None
    assert outcome.reason == kind
    assert outcome.winner == winner_of(result)
    assert outcome.winner == position.turn.other


@pytest.mark.parametrize("fen,moves,result", REPETITION, ids=[f"line{i + 1}" for i in range(len(REPETITION))])
def test_repetition_rulings(fen, moves, result):
    position = Position(fen)
    moves = moves.split()
    decided_at = None
    for index, move in enumerate(moves):
        position.push(move)
        if decided_at is None and position.outcome() is not None:
            decided_at = index
    outcome = position.outcome()
    assert outcome is not None, "the cycle should be judged after the last move"
    assert outcome.winner == winner_of(result)
    if outcome.winner is None:
        assert outcome.reason == "repetition"
    else:
        assert outcome.reason in ("perpetual_check", "perpetual_chase")
    if len(moves) != 12:  # rules.md line 2 deliberately plays on past the decision
        assert decided_at == len(moves) - 1, "the ruling comes with the third occurrence, not before"


def test_perpetual_check_by_a_soldier_loses():
    position = Position("3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1")
    for move in "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2".split():
        position.push(move)
    outcome = position.outcome()
    assert outcome.reason == "perpetual_check" and outcome.winner == "red"


def test_plain_repetition_draws_on_the_third_occurrence():
    position = Position()
    cycle = "h0g2 h9g7 g2h0 g7h9".split()
    for move in cycle:
        position.push(move)
    assert position.outcome() is None  # second occurrence
    for move in cycle:
        position.push(move)
    assert position.outcome().reason == "repetition"
    assert position.outcome().winner is None


# -- The natural move limit (120 plies without capture) ---------------------------------------------


def test_limit_not_reached_at_100_plies():
    position = Position("r2k5/9/9/9/9/9/9/9/9/4K3R w - - 99 60")
    position.push("i0i1")
    assert position.halfmove_clock == 100
    assert position.outcome() is None


def test_limit_reached_at_120_plies():
    position = Position("r2k5/9/9/9/9/9/9/9/9/4K3R w - - 119 60")
    position.push("i0i1")
    outcome = position.outcome()
    assert outcome.reason == "sixty_moves" and outcome.winner is None


def test_soldier_move_does_not_reset_the_count():
    position = Position("r2k5/9/9/9/9/9/P8/9/9/4K3R w - - 119 60")
    position.push("a3a4")
    assert position.outcome().reason == "sixty_moves"


def test_capture_resets_the_count():
    position = Position("3k4r/9/9/9/9/9/9/9/9/4K3R w - - 118 60")
    position.push("i0i9")
    assert position.halfmove_clock == 0
    assert position.outcome() is None


def test_stalemate_at_the_limit_still_loses():
    outcome = Position("4k4/4a4/9/9/9/9/9/9/3r1r3/4K4 w - - 120 60").outcome()
    assert outcome.reason == "stalemate" and outcome.winner == "black"


def test_checkmate_at_the_limit_still_wins():
    outcome = Position("4k4/9/9/9/9/9/9/9/4Ar3/2r1K4 w - - 120 60").outcome()
    assert outcome.reason == "checkmate" and outcome.winner == "black"


def test_checks_beyond_ten_and_their_replies_are_not_counted():
    # Red checks on every move it can; Black only answers. From Red's 11th check on, neither the
    # check nor the reply counts towards the limit.
    position = Position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    red_checks = 0
    expected = 0
    for _ in range(16):
        checking = []
        for move in sorted(position.legal_moves()):
            if position.piece_at(move[2:]) is not None:
                continue  # a capture would reset the count
            position.push(move)
            if position.is_check():
                checking.append(move)
            position.pop()
        assert checking, "the test line needs a check on every Red move"
        position.push(checking[len(position.move_stack) % len(checking)])
        red_checks += 1
        expected += 0 if red_checks > 10 else 1
        reply = sorted(position.legal_moves())[0]
        position.push(reply)
        expected += 0 if red_checks > 10 else 1
        assert position.halfmove_clock == expected
    assert red_checks == 16 and position.halfmove_clock == 20


# -- Bare boards ------------------------------------------------------------------------------------


def test_no_attacking_piece_on_either_side_is_a_draw():
    outcome = Position("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").outcome()
    assert outcome.reason == "insufficient_material" and outcome.winner is None


def test_one_soldier_is_enough_to_play_on():
    assert Position("3ak4/4a4/4b4/9/9/9/4P4/4B4/4A4/3AK4 w - - 0 1").outcome() is None


def test_the_check_flag_of_each_move_is_the_full_attack_test():
    """After a move the kernel looks only for the attacks the move created (gives_check). Along random
    games, every legal move of every third position is played and its flag compared with the full test
    of the general: checks of every kind (discovered through a horse's leg and cannon screens among
    them) come up."""
    import random

    def compare_every_move(position):
        found = 0
        for move in position.legal_moves():
            position.push(move)
            board = position.kernel_board
            assert board.in_check() == board.general_attacked(board.side), (position.fen(), move)
            found += board.in_check()
            position.pop()
        return found

    # The rare kinds, set up: a horse's leg vacated (the chariot on d8 leaves it: 7 checks, and 6 more
    # along the rank), a cannon's screen removed (the chariot on e5 leaves the file: 8, and its capture on
    # e7), the generals' file kept shut (the horse on e6 may not leave it).
    for fen, expected in [("4k4/2NR5/9/9/9/9/9/9/9/3K5 w - - 0 1", 13),
                          ("4k4/9/4b4/9/4R4/9/4C4/9/9/3K5 w - - 0 1", 9),
                          ("4k4/9/9/4n4/9/9/9/9/9/4K4 b - - 0 1", 0)]:
        assert compare_every_move(Position(fen)) == expected, fen
    rng = random.Random(7)
    checks = 0
    for _ in range(60):
        position = Position()
        for ply in range(150):
            moves = position.legal_moves()
            if not moves:
                break
            if ply % 3 == 0:
                checks += compare_every_move(position)
            position.push(rng.choice(moves))
    assert checks > 2000

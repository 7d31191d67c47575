"""The search's two tests of whether a move gives check: move_gives_check, read off the board before the
move is made (a move the shallow pruning drops is kept when it checks), and gives_check once it is made
(the rules' state). They must agree on every legal move: on the perft positions, and on the positions of
random games, where checks by every piece, discovered checks and new cannon screens occur."""
import random
from pathlib import Path

from engine import Position, _core

PERFT_EPD = Path(__file__).resolve().parents[1] / "data" / "perft.epd"


def positions():
    for line in PERFT_EPD.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            yield Position(line.split(";")[0].strip())
    rng = random.Random(7)
    for _ in range(60):
        position = Position()
        for _ in range(rng.randrange(10, 160)):
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            position.push(rng.choice(moves))
            yield position.copy()


def test_a_move_checks_before_it_is_made_as_after():
    checks = 0
    for position in positions():
        for move, (before, after) in _core.testing.checks_both_ways(position.kernel_board).items():
            assert before == after, (position.fen(), move)
            checks += after
    assert checks > 100

"""The static exchange evaluation (ext/movepick.pxi `see`), through the test API's exchange_value: the material a
move wins when both sides keep capturing on its destination with their least valuable piece."""
import pytest

from engine import Position, _core

# Values: soldier 100, advisor 200, elephant 200, horse 450, cannon 450, chariot 1000.
CASES = [
    # An undefended soldier, a defended one, and a defended one with a second chariot behind the first
    # (the recapture then comes from the x-ray; the exchange stops once the result is decided).
    ("5k3/9/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 100),
    ("5k3/9/9/4p4/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", -900),
    ("5k3/9/9/4p4/4p4/9/9/9/4R4/3KR4 w - - 0 1", "e1e5", -900),
    # Chariot takes chariot; an undefended cannon; a horse defended by a chariot.
    ("5k3/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 1000),
    ("5k3/9/9/9/4c4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 450),
    ("5k3/9/4r4/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", -550),
    # A cannon captures over a screen and is taken back; the chariot behind it has no line through the
    # black soldier that screened the cannon.
    ("5k3/9/4r4/9/4n4/9/9/4p4/4C4/3KR4 w - - 0 1", "e1e5", 0),
    # Quiet moves: to a safe square, and next to a soldier that takes the chariot.
    ("5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 0),
    ("5k3/9/9/9/9/9/4p4/9/4R4/3K5 w - - 0 1", "e1e2", -1000),
    # The general recaptures only where it is not then attacked: after the chariot on e9 has taken
    # back, it may; with a black horse defending as well, it may not.
    ("4rk3/9/9/9/9/9/9/9/R3c4/4K4 w - - 0 1", "a1e1", 450),
    ("4rk3/9/9/9/9/9/3n5/9/R3c4/4K4 w - - 0 1", "a1e1", -550),
]


@pytest.mark.parametrize("fen, move, value", CASES)
def test_exchange_value(fen, move, value):
    assert _core.testing.exchange_value(Position(fen).kernel_board, move) == value


def test_illegal_move_is_refused():
    with pytest.raises(ValueError):
        _core.testing.exchange_value(Position().kernel_board, "a0a5")

"""FEN input, output and the messages for FENs that describe no legal position."""
import pytest

from engine import START_FEN, InvalidFenError, Position


def test_start_position_round_trip():
    assert Position().fen() == START_FEN
    assert Position(START_FEN).fen() == START_FEN


@pytest.mark.parametrize(
    "fen",
    [
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",  # H/E aliases
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",  # r for Red
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",  # counters optional
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",  # no placeholders
    ],
)
def test_accepted_spellings_give_the_canonical_fen(fen):
    assert Position(fen).fen() == START_FEN


def test_black_to_move_and_counters():
    fen = "2bk2rc1/9/4r4/p1p1p1p2/8p/P7P/2P1P1P2/3AB3N/9/2B2K3 b - - 12 23"
    position = Position(fen)
    assert position.turn == "black"
    assert position.fen() == fen


@pytest.mark.parametrize(
    "fen,words",
    [
        ("", "empty"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "8 files"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "10 files"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece letter 'X'"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "no side to move"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "halfmove clock"),
        ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "Black has 0 generals"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "Red has 2 generals"),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "Red general on a0 is outside its palace"),
        ("3k5/9/9/9/9/9/9/9/4A4/4K4 w", None),
        ("3k5/9/9/9/9/9/9/9/3A5/3K5 w", "Red advisor on d1"),
        ("3k5/9/9/9/9/9/9/4B4/9/4K4 w", None),
        ("3k5/9/9/9/9/9/9/3B5/9/3K5 w", "Red elephant on d2"),
        ("3k5/9/9/9/9/2b6/9/9/9/4K4 w", "Black elephant on c4"),
        ("3k5/9/9/9/9/9/9/9/P8/3K5 w", "Red soldier on a1"),
        ("3k5/9/9/9/9/9/1P7/9/9/3K5 w", "Red soldier on b3"),
        ("3k5/9/9/9/9/9/9/9/9/RRR1K4 w", "3 chariots"),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 b", None),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", "Black is not to move but its general is in check"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "generals facing"),
    ],
)
def test_invalid_fens_say_what_is_wrong(fen, words):
    if words is None:
        Position(fen)
        return
    with pytest.raises(InvalidFenError) as info:
        Position(fen)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)

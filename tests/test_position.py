"""The Position API: moves in and out, push/pop, copies, and the errors it raises."""
import pytest

from engine import START_FEN, IllegalMoveError, Position


def test_start_position_basics():
    position = Position()
    assert position.turn == "red"
    assert len(position.legal_moves()) == 44
    assert "h2e2" in position.legal_moves()
    assert not position.is_check()
    assert position.outcome() is None


@pytest.mark.parametrize("spelling", ["h2e2", "H2-E2", "h2-e2", " h2e2 "])
def test_move_spellings(spelling):
    position = Position()
    position.push(spelling)
    assert position.move_stack == ["h2e2"]
    assert position.turn == "black"


def test_push_pop_restores_everything():
    position = Position()
    key = position.key
    for move in ["h2e2", "h9g7", "h0g2", "i9h9"]:
        position.push(move)
    assert position.pop() == "i9h9"
    assert position.pop() == "h0g2"
    position.pop()
    position.pop()
    assert position.fen() == START_FEN and position.key == key
    with pytest.raises(IndexError):
        position.pop()


@pytest.mark.parametrize(
    "move,words",
    [("h2e3", "cannot move there"), ("e5e6", "no piece on e5"), ("h7e7", "not red's"), ("zz", "malformed"),
     ("h2e2e", "malformed"), ("j0j1", "malformed")],
)
def test_illegal_moves_raise_and_change_nothing(move, words):
    position = Position()
    with pytest.raises(IllegalMoveError) as info:
        position.push(move)
    assert words in str(info.value)
    assert position.fen() == START_FEN and position.move_stack == []


def test_move_out_of_check_is_required():
    position = Position("3k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1")
    assert position.is_check()
    with pytest.raises(IllegalMoveError, match="in check"):
        position.push("d9d8")
    assert sorted(position.legal_moves()) == ["d9e9"]


def test_pinned_piece_between_generals_cannot_leave_the_file():
    position = Position("4k4/9/9/9/4n4/9/9/9/9/4K4 b - - 0 1")
    assert not [move for move in position.legal_moves() if move.startswith("e5")]
    position = Position("4k4/9/9/9/4r4/9/9/9/9/3K5 w - - 0 1")
    position.push("d0d1")
    assert {m for m in position.legal_moves() if m.startswith("e5")} >= {"e5d5", "e5e4"}


def test_copy_is_independent():
    position = Position()
    clone = position.copy()
    clone.push("h2e2")
    assert position.move_stack == [] and clone.move_stack == ["h2e2"]
    assert clone.copy().fen() == clone.fen()


def test_piece_at_and_board_text():
    position = Position()
    assert position.piece_at("e0") == "K" and position.piece_at("e9") == "k" and position.piece_at("e5") is None
    assert position.board_text().splitlines()[0] == "9 r n b a k a b n r"


def test_piece_map_agrees_with_piece_at_and_follows_moves():
    position = Position()
    pieces = position.piece_map()
    assert len(pieces) == 32 and pieces["e0"] == "K" and pieces["e9"] == "k" and pieces["h2"] == "C"
    every_square = [f"{f}{r}" for f in "abcdefghi" for r in range(10)]
    assert pieces == {sq: position.piece_at(sq) for sq in every_square if position.piece_at(sq)}
    position.push("h2e2")
    position.push("h9g7")
    moved = position.piece_map()
    assert "h2" not in moved and moved["e2"] == "C" and moved["g7"] == "n" and "h9" not in moved
    moved["a0"] = "k"  # a copy: changing it changes nothing
    assert position.piece_at("a0") == "R"
    position.push("e2e6")  # the cannon takes the soldier
    assert len(position.piece_map()) == 31 and position.piece_map()["e6"] == "C"


def test_divide_sums_to_perft():
    position = Position()
    split = position.divide(3)
    assert len(split) == 44 and sum(split.values()) == position.perft(3) == 79666


def test_fullmove_number_and_halfmove_clock():
    position = Position()
    position.push("h2e2")
    assert position.fen().endswith(" b - - 1 1")
    position.push("h7e7")
    assert position.fen().endswith(" w - - 2 2")


def test_mirror_swaps_top_and_bottom_and_the_colours():
    position = Position()
    for move in ("h2e2", "h9g7", "h0g2"):
        position.push(move)
    mirror = position.mirror()
    assert mirror.fen() == "rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 3 2"
    assert mirror.turn != position.turn and mirror.move_stack == [] and mirror.halfmove_clock == 3
    assert mirror.mirror().fen() == position.fen()
    assert sorted(mirror.legal_moves()) == sorted(m[0] + str(9 - int(m[1])) + m[2] + str(9 - int(m[3]))
                                                  for m in position.legal_moves())
    in_check = Position("3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1")   # not in check: the file is d
    assert in_check.mirror().fen() == "4k4/4r4/9/9/9/9/9/9/9/3K5 w - - 0 1"

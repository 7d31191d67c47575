import random
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from engine import START_FEN, InvalidFenError, Position
from engine.pictures.diagram import PIECE_CHARS, board_svg, text_board

SVG = "{http://www.w3.org/2000/svg}"


def fen_pieces(fen: str) -> dict[str, str]:
    """Square -> FEN letter, read straight from the FEN's board field."""
    pieces = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
            else:
                pieces[f"{'abcdefghi'[file]}{9 - row}"] = char
                file += 1
    return pieces


def svg_pieces(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return {g.get("data-square"): g.get("data-piece") for g in root.iter(f"{SVG}g") if g.get("class") == "piece"}


def piece_centre(svg: str, square: str) -> tuple[float, float]:
    root = ET.fromstring(svg.encode("utf-8"))
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "piece" and g.get("data-square") == square:
            circle = g.find(f"{SVG}circle")
            return float(circle.get("cx")), float(circle.get("cy"))
    raise AssertionError(f"no piece on {square}")


def played(moves: list[str]) -> str:
    position = Position()
    for move in moves:
        position.push(move)
    return position.fen()


def random_game_fen(seed: int, plies: int) -> str:
    rng = random.Random(seed)
    position = Position()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    return position.fen()


POSITIONS = [
    START_FEN,
    played(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "h7h3"]),
    random_game_fen(1, 40),
    random_game_fen(2, 70),
    "3k5/9/9/9/9/9/9/9/9/4K4 w",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_svg_pieces_read_back(fen):
    svg = board_svg(fen)
    assert svg.startswith("<?xml")
    assert svg_pieces(svg) == fen_pieces(fen)


@pytest.mark.parametrize("fen", POSITIONS)
def test_svg_flipped_pieces_read_back(fen):
    assert svg_pieces(board_svg(fen, flip=True, caption="x")) == fen_pieces(fen)


def test_svg_board_furniture():
    svg = board_svg(START_FEN)
    root = ET.fromstring(svg.encode("utf-8"))
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for char in "楚河汉界一二三四五六七八九123456789":
        assert char in texts
    assert "KaiTi" in root.get("font-family")


def test_svg_piece_characters():
    root = ET.fromstring(board_svg(START_FEN).encode("utf-8"))
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "piece":
            assert g.find(f"{SVG}text").text == PIECE_CHARS[g.get("data-piece")]


def test_svg_move_and_arrows():
    fen = played(["h2e2"])
    root = ET.fromstring(board_svg(fen, move="h2e2", arrows=["h9g7", "B9-C7"]).encode("utf-8"))
    groups = [g for g in root.iter(f"{SVG}g") if "arrow" in (g.get("class") or "").split()]
    moves = {g.get("data-move"): g.get("class") for g in groups}
    assert moves == {"h2e2": "arrow move", "h9g7": "arrow", "b9c7": "arrow"}
    move_colour = next(g for g in groups if g.get("data-move") == "h2e2").find(f"{SVG}polygon").get("fill")
    other_colour = next(g for g in groups if g.get("data-move") == "h9g7").find(f"{SVG}polygon").get("fill")
    assert move_colour != other_colour
    highlighted = {r.get("data-square") for r in root.iter() if "highlight" in (r.get("class") or "")}
    assert highlighted == {"h2", "e2"}


def test_svg_arrow_points_from_origin_to_destination():
    svg = board_svg(START_FEN, move="h2e2")  # drawn on the position before the move as well
    root = ET.fromstring(svg.encode("utf-8"))
    line = next(g for g in root.iter(f"{SVG}g") if g.get("data-move") == "h2e2").find(f"{SVG}line")
    x1, y1, x2, y2 = (float(line.get(name)) for name in ("x1", "y1", "x2", "y2"))
    origin_x, origin_y = piece_centre(svg, "h2")
    target_x, _ = piece_centre(svg, "b2")  # the other cannon: e2 lies between them, h2 -> e2 runs left
    assert y1 == y2 == origin_y
    assert target_x < x2 < x1 < origin_x


def test_svg_flip_puts_red_general_at_top():
    plain, flipped = board_svg(START_FEN), board_svg(START_FEN, flip=True)
    assert piece_centre(plain, "e0")[1] > piece_centre(plain, "e9")[1]
    assert piece_centre(flipped, "e0")[1] < piece_centre(flipped, "e9")[1]
    assert piece_centre(plain, "a0")[0] < piece_centre(plain, "i0")[0]
    assert piece_centre(flipped, "a0")[0] > piece_centre(flipped, "i0")[0]


def test_svg_size_and_caption_escaped():
    svg = board_svg(START_FEN, size=300, caption="Red <to move> & wins")
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.get("width") == "300"
    caption = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "caption")
    assert caption.text == "Red <to move> & wins"


@pytest.mark.parametrize("function", [board_svg, text_board])
def test_invalid_fen(function):
    with pytest.raises(InvalidFenError):
        function("rnbakabnr/9/9 w")


@pytest.mark.parametrize("move", ["h2", "z2e2", "h2e2e", "h2h2", "炮二平五", ""])
@pytest.mark.parametrize("function", [board_svg, text_board])
def test_invalid_move(function, move):
    with pytest.raises(ValueError, match="move"):
        function(START_FEN, move=move)


@pytest.mark.parametrize("arrows", [["h2x2"], "h2e2"])
def test_invalid_arrows(arrows):
    with pytest.raises(ValueError):
        board_svg(START_FEN, arrows=arrows)


def display_width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("ascii", [False, True])
@pytest.mark.parametrize("fen", POSITIONS)
def test_text_board_lines_align(fen, flip, ascii):
    lines = text_board(fen, move="h2e2", flip=flip, ascii=ascii).splitlines()
    assert len({display_width(line) for line in lines}) == 1
    assert len(lines) == 10 + 9 + 3  # ranks, the links between them (river included), three label rows


def test_text_board_content():
    text = text_board(START_FEN)
    for piece in fen_pieces(START_FEN).values():
        assert PIECE_CHARS[piece] in text
    assert "楚  河" in text and "汉  界" in text
    assert "九  八  七  六  五  四  三  二  一" in text
    assert "a   b   c   d   e   f   g   h   i" in text
    lines = text.splitlines()
    assert lines[1].startswith("9  車") and lines[-3].startswith("0  俥")


def test_text_board_ascii_is_ascii():
    text = text_board(POSITIONS[1], ascii=True)
    assert text.isascii()
    for piece in fen_pieces(POSITIONS[1]).values():
        assert piece in text


def test_text_board_flip():
    lines = text_board(START_FEN, flip=True).splitlines()
    assert lines[1].startswith("0  俥") and lines[-3].startswith("9  車")
    assert lines[-1].split() == list("ihgfedcba")


def test_text_board_marks_move():
    fen = played(["h2e2"])
    line = next(line for line in text_board(fen, move="h2e2").splitlines() if line.startswith("2 "))
    assert "[炮]" in line and "(┼ )" in line
    line = next(line for line in text_board(fen, move="h2e2", ascii=True).splitlines() if line.startswith("2 "))
    assert "[C ]" in line and "(+ )" in line


def test_notebooks_show_a_position_and_a_game_with_the_last_move():
    from engine.pgn import Game

    position = Position()
    root = ET.fromstring(position._repr_svg_().encode("utf-8"))
    assert not [r for r in root.iter(f"{SVG}rect") if "highlight" in (r.get("class") or "")]   # no move yet
    position.push("h2e2")
    svg = position._repr_svg_()
    assert svg_pieces(svg) == fen_pieces(position.fen())
    marked = {r.get("data-square") for r in ET.fromstring(svg.encode("utf-8")).iter(f"{SVG}rect")
              if "highlight" in (r.get("class") or "")}
    assert marked == {"h2", "e2"}
    game = Game(moves=["h2e2", "h9g7"])
    svg = game._repr_svg_()
    marked = {r.get("data-square") for r in ET.fromstring(svg.encode("utf-8")).iter(f"{SVG}rect")
              if "highlight" in (r.get("class") or "")}
    assert marked == {"h9", "g7"} and svg_pieces(svg)["g7"] == "n"

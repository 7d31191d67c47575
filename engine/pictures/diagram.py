"""Board diagrams: a standalone SVG picture of a position, and a text board for the terminal.

    >>> from engine import START_FEN
    >>> from engine.pictures.diagram import board_svg, text_board
    >>> svg = board_svg(START_FEN, move="h2e2", caption="炮二平五")
    >>> text = text_board(START_FEN, move="h2e2")

Both draw a traditional board: Red at the bottom (Black with `flip=True`), the river with 楚河 汉界, the
palace diagonals, Red's files numbered 一..九 and Black's 1..9, each counted from its own right. `move`
is only drawn, never played: pass the position after it (the last move) or before it (a suggestion).
In the SVG every piece is a `<g class="piece" data-square="e0" data-piece="K">`, so the position can be
read back from the picture. The SVG uses no element ids, so several can be inlined in one HTML page.
"""
from __future__ import annotations

import unicodedata
from typing import Callable, Optional, Sequence
from xml.sax.saxutils import escape, quoteattr

from ..errors import IllegalMoveError
from ..fen import PIECE_LETTERS, parse_fen
from ..squares import FILES, parse_iccs

PIECE_CHARS = {
    "K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
    "k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒",
}
RED_NUMERALS = "一二三四五六七八九"
FONT_FAMILY = "KaiTi, STKaiti, 'Noto Serif CJK SC', 'Noto Sans CJK SC', serif"

Point = tuple[int, int]  # (file 0..8, rank 0..9)


def _parse_move(move: str) -> tuple[Point, Point]:
    """The two points of an ICCS move ("h2e2" or "H2-E2"). Raises IllegalMoveError (a ValueError)."""
    points = parse_iccs(move.strip()) if isinstance(move, str) else None
    if points is None:
        raise IllegalMoveError(f"malformed move {move!r}: expected ICCS coordinates such as 'h2e2' or 'H2-E2'")
    origin, target = points
    if origin == target:
        raise IllegalMoveError(f"move {move!r} goes nowhere: its origin and destination are the same point")
    return origin, target


def _board(fen: str) -> dict[Point, str]:
    """The pieces of a FEN by point, as FEN letters (upper case Red). parse_fen raises InvalidFenError for a
    bad FEN. (The rules library's Position is not used: it shows itself with this module, _repr_svg_.)"""
    return {(file, rank): PIECE_LETTERS[kind] if side == 0 else PIECE_LETTERS[kind].lower()
            for side, kind, file, rank in parse_fen(fen).pieces}


def _file_numbers(file: int) -> tuple[str, str]:
    """The printed numbers of a file: Red's (一 on file i) and Black's (1 on file a)."""
    return RED_NUMERALS[8 - file], str(file + 1)


def _display(point: Point, flip: bool) -> tuple[int, int]:
    """Column (0 = left) and row (0 = top) of a point in the picture."""
    file, rank = point
    return (8 - file, rank) if flip else (file, 9 - rank)


# ---------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------

BOARD_FILL = "#f1d29b"
LINE_COLOUR = "#5b3a1c"
PIECE_FILL = "#fbecd0"
SIDE_COLOURS = {True: "#b3141b", False: "#1b1b1b"}  # keyed by "is Red"
HIGHLIGHT_COLOUR = "#f5c400"
MOVE_ARROW_COLOUR = "#2e8b3a"
EXTRA_ARROW_COLOUR = "#1f63c6"

BORDER = 1.25  # cells from the top and bottom edges to the outer ranks: room for the file numbers

# Cannon and soldier starting points, which printed boards mark with small corner ticks.
_MARKED_POINTS = [(f, r) for f in (1, 7) for r in (2, 7)] + [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 6)]


def _n(value: float) -> str:
    """A coordinate, rounded to keep the SVG small."""
    return f"{round(value, 1):g}"


def board_svg(
    fen: str,
    *,
    move: Optional[str] = None,
    arrows: Sequence[str] = (),
    flip: bool = False,
    caption: Optional[str] = None,
    size: int = 450,
) -> str:
    """A standalone SVG document of the position, `size` pixels wide.

    `move` (ICCS) is drawn as an arrow with both points highlighted; `arrows` (ICCS moves, e.g. the best
    move) in another colour. `flip` puts Black at the bottom; `caption` is a line of text under the board.
    Raises InvalidFenError for a bad FEN and IllegalMoveError (a ValueError) for a malformed move.
    """
    board = _board(fen)
    if isinstance(arrows, str):
        raise ValueError(f"arrows must be a list of moves such as ['h2e2'], not the string {arrows!r}")
    marked = _parse_move(move) if move is not None else None
    extra = [_parse_move(arrow) for arrow in arrows]

    cell = size / 10  # the grid spans 8 x 9 cells, with a cell of margin on the left and right
    board_height = (9 + 2 * BORDER) * cell
    height = board_height + (0.7 * cell if caption else 0)

    def xy(point: Point) -> tuple[float, float]:
        column, row = _display(point, flip)
        return cell * (column + 1), cell * (row + BORDER)

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(size)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(size)} {_n(height)}" font-family={quoteattr(FONT_FAMILY)}>',
        f"<title>{escape(fen)}</title>",
        f'<rect width="100%" height="100%" fill="{BOARD_FILL}"/>',
    ]
    out += _grid(cell, flip)
    if marked:
        for point, kind in zip(marked, ("from", "to")):
            x, y = xy(point)
            out.append(
                f'<rect class="highlight {kind}" data-square="{FILES[point[0]]}{point[1]}" x="{_n(x - 0.48 * cell)}" '
                f'y="{_n(y - 0.48 * cell)}" width="{_n(0.96 * cell)}" height="{_n(0.96 * cell)}" '
                f'rx="{_n(0.12 * cell)}" fill="{HIGHLIGHT_COLOUR}" fill-opacity="0.55"/>'
            )
    for point, piece in sorted(board.items()):
        out.append(_piece(piece, f"{FILES[point[0]]}{point[1]}", *xy(point), cell))
    if marked:
        out.append(_arrow(*marked, xy, cell, MOVE_ARROW_COLOUR, "arrow move"))
    out += [_arrow(*points, xy, cell, EXTRA_ARROW_COLOUR, "arrow") for points in extra]
    if caption:
        out.append(
            f'<text class="caption" x="{_n(size / 2)}" y="{_n(board_height + 0.2 * cell)}" '
            f'font-size="{_n(0.4 * cell)}" text-anchor="middle" dominant-baseline="central" '
            f'fill="{LINE_COLOUR}">{escape(caption)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _grid(cell: float, flip: bool) -> list[str]:
    """The lines, river, palaces, point marks and file numbers (everything but the pieces)."""
    left, right, top, bottom = cell, 9 * cell, BORDER * cell, (9 + BORDER) * cell
    river_top, river_bottom = top + 4 * cell, top + 5 * cell
    lines = [f"M{_n(left)} {_n(top + cell * row)}H{_n(right)}" for row in range(10)]
    lines += [f"M{_n(left)} {_n(top)}V{_n(bottom)}", f"M{_n(right)} {_n(top)}V{_n(bottom)}"]
    for column in range(1, 8):  # the inner files stop at the river
        x = _n(cell * (column + 1))
        lines += [f"M{x} {_n(top)}V{_n(river_top)}", f"M{x} {_n(river_bottom)}V{_n(bottom)}"]
    for row in (0, 7):  # palace diagonals: columns 3..5, rows 0..2 and 7..9 in either orientation
        y0, y2 = _n(top + cell * row), _n(top + cell * (row + 2))
        lines += [f"M{_n(4 * cell)} {y0}L{_n(6 * cell)} {y2}", f"M{_n(6 * cell)} {y0}L{_n(4 * cell)} {y2}"]

    ticks = []
    gap, arm = 0.08 * cell, 0.2 * cell
    for point in _MARKED_POINTS:
        column, row = _display(point, flip)
        x, y = cell * (column + 1), top + cell * row
        for dx in (-1, 1):
            if not 0 <= column + dx <= 8:
                continue
            for dy in (-1, 1):
                ticks.append(f"M{_n(x + dx * gap)} {_n(y + dy * (gap + arm))}"
                             f"V{_n(y + dy * gap)}H{_n(x + dx * (gap + arm))}")

    frame = 0.12 * cell
    stroke = max(1.0, cell / 40)
    out = [
        f'<rect x="{_n(left - frame)}" y="{_n(top - frame)}" width="{_n(8 * cell + 2 * frame)}" '
        f'height="{_n(9 * cell + 2 * frame)}" fill="none" stroke="{LINE_COLOUR}" stroke-width="{_n(3 * stroke)}"/>',
        f'<path class="grid" d="{"".join(lines)}" fill="none" stroke="{LINE_COLOUR}" stroke-width="{_n(stroke)}"/>',
        f'<path class="marks" d="{"".join(ticks)}" fill="none" stroke="{LINE_COLOUR}" stroke-width="{_n(stroke)}"/>',
    ]
    river_y = _n(top + 4.5 * cell)
    for char, column in zip("楚河汉界", (1.5, 2.5, 5.5, 6.5)):
        out.append(
            f'<text class="river" x="{_n(cell * (column + 1))}" y="{river_y}" font-size="{_n(0.55 * cell)}" '
            f'text-anchor="middle" dominant-baseline="central" fill="{LINE_COLOUR}">{char}</text>'
        )
    red_y, black_y = 0.45 * cell, bottom + (BORDER - 0.45) * cell
    if not flip:
        red_y, black_y = black_y, red_y
    for file in range(9):
        x = _n(cell * (_display((file, 0), flip)[0] + 1))
        for label, y in zip(_file_numbers(file), (red_y, black_y)):
            out.append(
                f'<text class="file-number" x="{x}" y="{_n(y)}" font-size="{_n(0.32 * cell)}" '
                f'text-anchor="middle" dominant-baseline="central" fill="{LINE_COLOUR}">{label}</text>'
            )
    return out


def _piece(piece: str, square: str, x: float, y: float, cell: float) -> str:
    colour = SIDE_COLOURS[piece.isupper()]
    return (
        f'<g class="piece" data-square="{square}" data-piece="{piece}">'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.44 * cell)}" fill="{PIECE_FILL}" stroke="{colour}" '
        f'stroke-width="{_n(0.05 * cell)}"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.36 * cell)}" fill="none" stroke="{colour}" '
        f'stroke-width="{_n(0.02 * cell)}"/>'
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(0.5 * cell)}" font-weight="bold" text-anchor="middle" '
        f'dominant-baseline="central" fill="{colour}">{PIECE_CHARS[piece]}</text></g>'
    )


def _arrow(origin: Point, target: Point, xy: Callable[[Point], tuple[float, float]], cell: float, colour: str,
           css_class: str) -> str:
    """An arrow from point to point: a shaft and a triangular head (no SVG markers, so no ids)."""
    (x0, y0), (x1, y1) = xy(origin), xy(target)
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    head, half_width = 0.4 * cell, 0.2 * cell
    start_x, start_y = x0 + ux * 0.2 * cell, y0 + uy * 0.2 * cell
    tip_x, tip_y = x1 - ux * 0.15 * cell, y1 - uy * 0.15 * cell
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    corners = [(tip_x, tip_y), (base_x - uy * half_width, base_y + ux * half_width),
               (base_x + uy * half_width, base_y - ux * half_width)]
    move = f"{FILES[origin[0]]}{origin[1]}{FILES[target[0]]}{target[1]}"
    return (
        f'<g class="{css_class}" data-move="{move}" opacity="0.8">'
        f'<line x1="{_n(start_x)}" y1="{_n(start_y)}" x2="{_n(base_x)}" y2="{_n(base_y)}" stroke="{colour}" '
        f'stroke-width="{_n(0.13 * cell)}" stroke-linecap="round"/>'
        f'<polygon points="{" ".join(f"{_n(x)},{_n(y)}" for x, y in corners)}" fill="{colour}"/></g>'
    )


# ---------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------

# Width. A terminal shows CJK characters (piece names, 楚河, 一..九) two columns wide, and box-drawing
# characters (East Asian width "ambiguous") one column wide, as Western-locale terminals and
# unicodedata do. So every point of the board is a two-column slot: a Chinese piece fills it, an empty
# point is a box-drawing glyph plus one column of line or space. Each slot has one more column on either
# side, holding the line to the neighbouring point or a move marker, so a rank is 9 x 4 columns and all
# lines have the same width. A terminal that draws ambiguous characters two columns wide (some CJK-locale
# settings) misaligns the box characters; `ascii=True` is safe everywhere.
_BOX = {  # (up, down, left, right) -> glyph
    (False, True, False, True): "┌", (False, True, True, True): "┬", (False, True, True, False): "┐",
    (True, True, False, True): "├", (True, True, True, True): "┼", (True, True, True, False): "┤",
    (True, False, False, True): "└", (True, False, True, True): "┴", (True, False, True, False): "┘",
}
_UNICODE_STYLE = {"across": "─", "down": "│", "falling": "╲", "rising": "╱"}
_ASCII_STYLE = {"across": "-", "down": "|", "falling": "\\", "rising": "/"}
_MARKERS = {"from": "()", "to": "[]"}


def _width(text: str) -> int:
    """Display width in a terminal: wide and full-width characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _centre(text: str, width: int) -> str:
    spare = width - _width(text)
    return " " * (spare // 2) + text + " " * (spare - spare // 2)


def text_board(fen: str, *, move: Optional[str] = None, flip: bool = False, ascii: bool = False) -> str:
    """A text board for a terminal: Chinese pieces on a box-drawn grid, or FEN letters on an ASCII one.

    Ranks are labelled 0..9 on the left, files with the printed numbers above and below and the ICCS
    letters at the bottom. The points of `move` are marked: ( ) around the origin, [ ] around the
    destination. Raises InvalidFenError for a bad FEN and IllegalMoveError for a malformed move.
    """
    board = _board(fen)
    markers = {}
    if move is not None:
        origin, target = _parse_move(move)
        markers = {_display(origin, flip): _MARKERS["from"], _display(target, flip): _MARKERS["to"]}
    style = _ASCII_STYLE if ascii else _UNICODE_STYLE
    across = style["across"]
    # Files and ranks in display order, left to right and top to bottom.
    files = range(8, -1, -1) if flip else range(9)
    ranks = range(10) if flip else range(9, -1, -1)

    def label_row(labels: list[str]) -> str:
        return "  " + "".join(f" {_centre(label, 2)} " for label in labels)

    def point_row(row: int, rank: int) -> str:
        cells = []
        for column, file in enumerate(files):
            piece = board.get((file, rank))
            if piece:
                point = piece if ascii else PIECE_CHARS[piece]
            else:
                up = row > 0 and not (row == 5 and 0 < column < 8)
                down = row < 9 and not (row == 4 and 0 < column < 8)
                point = "+" if ascii else _BOX[(up, down, column > 0, column < 8)]
            marker = markers.get((column, row))
            if _width(point) == 1:
                point += across if column < 8 and not marker else " "
            left, right = marker or (across if column > 0 else " ", across if column < 8 else " ")
            cells.append(left + point + right)
        return f"{rank} " + "".join(cells)

    def link_row(row: int) -> str:
        """The vertical lines between display row `row` and the row below, with palace diagonals."""
        cells = [[" ", style["down"] + " ", " "] for _ in range(9)]
        if row in (0, 1, 7, 8):
            centre_below = row in (0, 7)
            cells[3][2] = style["falling" if centre_below else "rising"]
            cells[4][2] = style["rising" if centre_below else "falling"]
        return "  " + "".join("".join(cell) for cell in cells)

    def river_row() -> str:
        left, right = ("Chu He", "Han Jie") if ascii else ("楚  河", "汉  界")
        inside = _centre(left, 14) + "   " + _centre(right, 14)
        return f"   {style['down']}{inside}{style['down']}  "

    red_numbers = [str(9 - file) if ascii else _file_numbers(file)[0] for file in files]
    black_numbers = [_file_numbers(file)[1] for file in files]
    lines = [label_row(red_numbers if flip else black_numbers)]
    for row, rank in enumerate(ranks):
        lines.append(point_row(row, rank))
        if row == 4:
            lines.append(river_row())
        elif row < 9:
            lines.append(link_row(row))
    lines.append(label_row(black_numbers if flip else red_numbers))
    lines.append(label_row([FILES[file] for file in files]))
    return "\n".join(lines)

"""Reading and writing Xiangqi FEN, with the checks that make a FEN describe a reachable position.

FEN in: ranks from 9 (Black's back rank) down to 0, upper case for Red, letters KABNRCP with H (horse)
and E (elephant) accepted as aliases; side letter w or r for Red, b for Black; the `- -` placeholders and
the two counters are optional. FEN out is canonical: N, B and w.
"""
from __future__ import annotations

from dataclasses import dataclass

from .color import Color
from .errors import InvalidFenError
from .squares import square_name

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

PIECE_LETTERS = "KABNRCP"  # index = piece type in the kernel
ALIASES = {"H": "N", "E": "B"}
PIECE_NAMES = ("general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier")
MAX_COUNT = (1, 2, 2, 2, 2, 2, 5)
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(7)


def _mirror(squares: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(f, 9 - r) for f, r in squares}


# Squares each piece can ever stand on, for Red; Black's are the mirror images.
_PALACE = {(f, r) for f in (3, 4, 5) for r in (0, 1, 2)}
_ADVISOR_SQUARES = {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
_ELEPHANT_SQUARES = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
_PAWN_SQUARES = {(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 4)} | {(f, r) for f in range(9) for r in range(5, 10)}
REACHABLE = {
    KING: (_PALACE, _mirror(_PALACE)),
    ADVISOR: (_ADVISOR_SQUARES, _mirror(_ADVISOR_SQUARES)),
    ELEPHANT: (_ELEPHANT_SQUARES, _mirror(_ELEPHANT_SQUARES)),
    PAWN: (_PAWN_SQUARES, _mirror(_PAWN_SQUARES)),
}
_WHERE = {
    KING: "outside its palace",
    ADVISOR: "on a point advisors can never reach (they stay on the palace diagonals)",
    ELEPHANT: "on a point elephants can never reach (seven points on their own side of the river)",
    PAWN: "on a point soldiers can never reach (behind their starting rank, or beside it before the river)",
}


@dataclass(frozen=True)
class FenData:
    """The content of a FEN: pieces as (side, type, file, rank), side to move (0 Red, 1 Black), counters."""

    pieces: tuple[tuple[int, int, int, int], ...]
    side: int
    halfmove: int
    fullmove: int


def parse_fen(fen: str) -> FenData:
    """Parse and check a FEN. Raises InvalidFenError saying what is wrong.

    The check that the side not to move is not in check needs the kernel and is made by Position.
    """
    if not isinstance(fen, str):
        raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
    fields = fen.split()
    if not fields:
        raise InvalidFenError("empty FEN: expected a board such as " + START_FEN)
    pieces = _parse_board(fields[0])
    side = _parse_side(fields[1] if len(fields) > 1 else None)
    counters = [f for f in fields[2:] if f != "-"]
    if len(counters) > 2:
        raise InvalidFenError(f"unexpected text after the FEN counters: {' '.join(counters[2:])!r}")
    numbers = []
    for name, text in zip(("halfmove clock", "move number"), counters):
        if not text.isdigit():
            raise InvalidFenError(f"the {name} must be a non-negative whole number, not {text!r}")
        numbers.append(int(text))
    halfmove = numbers[0] if numbers else 0
    fullmove = max(1, numbers[1]) if len(numbers) > 1 else 1
    _check_pieces(pieces)
    return FenData(tuple(pieces), side, halfmove, fullmove)


def _parse_board(text: str) -> list[tuple[int, int, int, int]]:
    rows = text.split("/")
    if len(rows) != 10:
        raise InvalidFenError(f"the board has {len(rows)} ranks; a Xiangqi FEN has 10, separated by '/'")
    pieces = []
    for index, row in enumerate(rows):
        rank = 9 - index
        file = 0
        for ch in row:
            if ch in "123456789":
                file += int(ch)
                continue
            letter = ALIASES.get(ch.upper(), ch.upper())
            if not ch.isascii() or letter not in PIECE_LETTERS:
                raise InvalidFenError(
                    f"unknown piece letter {ch!r} in rank {rank} (FEN rank {index + 1}); "
                    f"use K A B N R C P (or E, H), upper case for Red"
                )
            if file < 9:
                pieces.append((0 if ch.isupper() else 1, PIECE_LETTERS.index(letter), file, rank))
            file += 1
        if file != 9:
            raise InvalidFenError(f"rank {rank} (FEN rank {index + 1}, {row!r}) describes {file} files; it must describe 9")
    return pieces


def _parse_side(text: str | None) -> int:
    if text is None:
        raise InvalidFenError("the FEN has no side to move: add ' w' (Red) or ' b' (Black) after the board")
    if text in ("w", "r", "W", "R"):
        return 0
    if text in ("b", "B"):
        return 1
    raise InvalidFenError(f"unknown side to move {text!r}: use 'w' or 'r' for Red, 'b' for Black")


def _check_pieces(pieces: list[tuple[int, int, int, int]]) -> None:
    counts = [[0] * 7, [0] * 7]
    for side, ptype, file, rank in pieces:
        counts[side][ptype] += 1
        allowed = REACHABLE.get(ptype)
        if allowed is not None and (file, rank) not in allowed[side]:
            raise InvalidFenError(
                f"{Color.of_index(side).label} {PIECE_NAMES[ptype]} on {square_name(file, rank)} is {_WHERE[ptype]}"
            )
    for side in (0, 1):
        name = Color.of_index(side).label
        if counts[side][KING] != 1:
            raise InvalidFenError(f"{name} has {counts[side][KING]} generals; each side has exactly one")
        for ptype in range(1, 7):
            if counts[side][ptype] > MAX_COUNT[ptype]:
                raise InvalidFenError(
                    f"{name} has {counts[side][ptype]} {PIECE_NAMES[ptype]}s; "
                    f"the most a side can have is {MAX_COUNT[ptype]}"
                )


def format_board(pieces: list[tuple[int, int, int, int]]) -> str:
    """The board field of a canonical FEN."""
    grid = [[""] * 9 for _ in range(10)]
    for side, ptype, file, rank in pieces:
        letter = PIECE_LETTERS[ptype]
        grid[rank][file] = letter if side == 0 else letter.lower()
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for cell in grid[rank]:
            if cell:
                row += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)

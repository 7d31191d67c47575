"""Positions as the book stores them: the library's 64-bit Zobrist key (Position.key), with a position
and its left-right mirror image merged into one entry.

A position and its mirror image (files a..i read as i..a) are the same opening, so the book keeps one
of them, the canonical one: the one with the smaller key. Its moves are stored as they are played in
the canonical orientation; a position whose canonical form is its mirror image reads them mirrored.
A symmetric position (the start, for instance) is its own mirror image and keeps its moves as played.
"""
from __future__ import annotations

from .. import _core
from ..position import Position
from ..squares import parse_iccs, square_name

#: A move as the book file stores it: origin * 90 + destination, a point being rank * 9 + file.
NO_MOVE = 0xFFFF


def mirror_move(move: str) -> str:
    """The move in the mirror image: mirror_move("h2e2") == "b2e2"."""
    squares = parse_iccs(move)
    if squares is None:
        raise ValueError(f"not an ICCS move: {move!r}")
    (ff, fr), (tf, tr) = squares
    return square_name(8 - ff, fr) + square_name(8 - tf, tr)


def mirror_key(position: Position) -> int:
    """The key of the position's mirror image (same side to move)."""
    board = position.kernel_board
    image = _core.Board()
    image.set_up([(side, kind, 8 - file, rank) for side, kind, file, rank in board.pieces()], board.side, 0)
    return image.key()


def canonical_key(position: Position) -> tuple[int, bool]:
    """(the book key of the position, whether the book stores it as its mirror image)."""
    key, image = position.key, mirror_key(position)
    return (image, True) if image < key else (key, False)


def encode_move(move: str) -> int:
    """The 16-bit code of an ICCS move (origin * 90 + destination; points rank * 9 + file)."""
    squares = parse_iccs(move)
    if squares is None:
        raise ValueError(f"not an ICCS move: {move!r}")
    (ff, fr), (tf, tr) = squares
    return (fr * 9 + ff) * 90 + tr * 9 + tf


def decode_move(code: int) -> str:
    """The ICCS move of a 16-bit code; raises ValueError for a code that is no move."""
    if not 0 <= code < 8100:
        raise ValueError(f"bad move code {code}")
    origin, destination = divmod(code, 90)
    return square_name(origin % 9, origin // 9) + square_name(destination % 9, destination // 9)

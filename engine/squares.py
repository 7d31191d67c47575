"""Squares and ICCS moves: the coordinates the whole library speaks.

A square is a file letter a..i, counted from Red's left, and a rank digit 0..9, counted from Red's back
rank: "e0" is Red's general at the start. An ICCS move is its origin and its destination: "h2e2". Input may
also be upper case or hyphenated ("H2-E2", "h2-e2"); output is always the lower-case form without hyphen.
As numbers, a square is (file, rank) with file 0..8 and rank 0..9.

Every module that reads coordinates uses the pattern and the helpers here, so they all accept the same
texts. (The engine client's reader of engine output, engine/client/codec.py, keeps its own wider pattern:
some engines print ranks 1..10.)
"""
from __future__ import annotations

import re
from typing import Optional

FILES = "abcdefghi"

Square = tuple[int, int]  # (file 0..8 from Red's left, rank 0..9 from Red's back rank)

# ASCII letters in both cases rather than re.IGNORECASE: with IGNORECASE, Unicode look-alikes such as the
# dotless "ı" would match [a-i] too.
ICCS_MOVE = re.compile(r"([a-iA-I])([0-9])-?([a-iA-I])([0-9])")


def square_name(file: int, rank: int) -> str:
    """The name of a square: square_name(4, 0) == "e0"."""
    return f"{FILES[file]}{rank}"


def parse_square(name: str) -> Square:
    """(file, rank) of a square name such as "e0". Raises ValueError for anything else."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES or name[1] not in "0123456789":
        raise ValueError(f"bad square {name!r}: expected a file a-i and a rank 0-9, such as 'e0'")
    return FILES.index(name[0]), int(name[1])


def parse_iccs(text: str) -> Optional[tuple[Square, Square]]:
    """(origin, destination) of an ICCS move, "h2e2", "H2-E2" or "h2-e2", or None if `text` (all of it,
    without surrounding spaces) is not one. The move need not be legal, nor go anywhere."""
    match = ICCS_MOVE.fullmatch(text)
    if match is None:
        return None
    from_file, from_rank, to_file, to_rank = match.groups()
    return ((FILES.index(from_file.lower()), int(from_rank)),
            (FILES.index(to_file.lower()), int(to_rank)))


def is_iccs(text: str) -> bool:
    """Whether `text` is written as an ICCS move ("h2e2", "H2-E2", "h2-e2")."""
    return ICCS_MOVE.fullmatch(text) is not None


def move_name(origin: Square, destination: Square) -> str:
    """The canonical ICCS text of a move: move_name((7, 2), (4, 2)) == "h2e2"."""
    return square_name(*origin) + square_name(*destination)

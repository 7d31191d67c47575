"""What every book format gives: the moves of a position (BookMove) and, when it knows it, the name of
the opening; and BookError for a file that is not a book."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Optional

from ..position import Position


class BookError(ValueError):
    """A book file that cannot be read: missing, of no known format, or damaged. The message says why."""


@dataclass(frozen=True)
class BookMove:
    """One book move of a position: ICCS, its weight (the chance of playing it is its share of the
    position's total), and where the format records them the games that played it and their score for
    the side that moved (0..1)."""

    move: str
    weight: int
    games: Optional[int] = None
    score: Optional[float] = None


class Book(ABC):
    """An opening book, opened from a file."""

    #: The format's name ("jiangjun", "ElephantEye BOOK.DAT", "BHGUI .obk").
    format_name: str = ""

    def __init__(self, path: str) -> None:
        self.path = path

    @abstractmethod
    def _lookup(self, position: Position) -> list[BookMove]:
        """The stored moves of the position, not yet checked for legality (any order)."""

    def moves(self, position: Position) -> list[BookMove]:
        """The book's legal moves in the position, heaviest first (moves of weight 0 left out)."""
        legal = set(position.legal_moves())
        found: dict[str, BookMove] = {}
        for entry in self._lookup(position):
            if entry.move in legal and entry.weight > 0 and entry.move not in found:
                found[entry.move] = entry
        return sorted(found.values(), key=lambda e: (-e.weight, e.move))

    def opening_name(self, position: Position) -> Optional[str]:
        """The name of the opening the position belongs to, when the book records one."""
        return None

    def describe(self) -> str:
        """One line for an `info string`: the format and the file."""
        return f"{self.format_name} book {self.path}"

    def close(self) -> None:
        """Release the file."""

"""The engine's book policy: which book it plays from (opened on first use), in which searches it
answers from the book at all, and the move it then plays.

    shelf = BookShelf(DEFAULT)
    book = shelf.book                          # opened now; None without a book
    choice = book_answer(book, limits, position, banmoves, searchmoves, rng)   # a BookChoice or None
"""
from __future__ import annotations

import random
from typing import Optional, Sequence

from ..position import Position
from ..search_types import SearchLimits
from . import BookError, DEFAULT, default_book, default_book_if_open, open_book
from .base import Book
from .choose import BookChoice, choose


def answers_from_book(limits: SearchLimits) -> bool:
    """Whether a `go` is a move of a game, on a clock or a time per move, which a book move answers at
    once. Searches of another kind are analyses and are searched (as Stockfish did with its book):
    `infinite`, `ponder`, `mate`, and a fixed `depth` or `nodes` (what analysis tools, tests and
    node-count matches ask for); so is a draw offer, which the search's score answers."""
    return not (limits.infinite or limits.ponder or limits.mate or limits.depth is not None
                or limits.nodes is not None or limits.draw_offer
                or (limits.time is None and limits.movetime is None))


def book_answer(book: Optional[Book], limits: SearchLimits, position: Position, banmoves: Sequence[str],
                rng: random.Random) -> Optional[BookChoice]:
    """The book move to play for this `go`, or None when the search should answer."""
    if book is None or not answers_from_book(limits):
        return None
    try:
        return choose(book, position, banmoves, limits.searchmoves, rng)
    except Exception:  # a damaged book must not cost the move: search instead
        return None


class BookShelf:
    """The book of the `BookFile` option: opened when first asked for (the shipped one is memory-mapped,
    so that is quick), or at once by `select`. A file that is not a book leaves the engine without one,
    and `summary` says why."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._book: Optional[Book] = None
        self._pending = bool(name)
        self._error: Optional[str] = None

    def select(self, name: str) -> None:
        """Open the book `name` now ("" for none), closing the one in use (unless it is the shared
        shipped book)."""
        if self._book is not None and self._book is not default_book_if_open():
            self._book.close()
        self._name, self._book, self._error, self._pending = name, None, None, False
        if not name:
            return
        try:
            self._book = default_book() if name == DEFAULT else open_book(name)
        except BookError as exc:
            self._error = str(exc)

    @property
    def book(self) -> Optional[Book]:
        """The book in use (opened now if still pending), or None."""
        if self._pending:
            self.select(self._name)
        return self._book

    def summary(self, own_book: bool) -> str:
        """Which book the engine plays from, in words (for an `info string` after OwnBook or BookFile)."""
        book = self.book
        if self._error:
            return f"{self._error}: playing without a book"
        if not own_book:
            return "own book off: every move is searched"
        if book is not None:
            return f"book moves from {book.describe()}"
        return "no book file set (BookFile): playing without a book"

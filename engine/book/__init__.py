"""Opening books: the book shipped with the package (built from master games), books built with
`jiangjun book build`, and the books users already own (ElephantEye's BOOK.DAT, BHGUI's .obk).

    from engine.book import open_book, default_book
    book = default_book()                   # the shipped book, opened on first use
    book.moves(position)                    # [BookMove(move='h2e2', weight=..., games=..., score=...), ...]
    book.opening_name(position)             # '中炮局 C45', or None
    open_book("BOOK.DAT")                   # any of the three formats, told apart by their content

The modules, one job each: keys (the book's position keys and mirror images), format (the jiangjun
file), build (counting games into a book), sources and names (game files and opening names), choose
(picking a book move for the engine), policy (the engine's book: when it answers from it, and which
book it opens), eleeye and obk (the foreign formats), cli (`jiangjun book`).
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Optional

from .base import Book, BookError, BookMove
from .format import MAGIC, JiangjunBook

__all__ = ["Book", "BookError", "BookMove", "DEFAULT", "DIRECTORY", "default_book", "locate", "open_book"]

#: Where the shipped book is, and its file name (the BookFile option's default value).
DIRECTORY = Path(__file__).resolve().parent
DEFAULT = "ccpd.jjbk"

_default: Optional[Book] = None
_default_lock = threading.Lock()


def locate(name: str) -> str:
    """The path of book `name`: `name` itself when it exists, else the shipped book of that file name,
    else `name` unchanged (so that opening it fails with the name the user gave)."""
    if os.path.exists(name):
        return name
    shipped = DIRECTORY / os.path.basename(name)
    return str(shipped) if os.path.basename(name) == name and shipped.is_file() else name


def open_book(name: str) -> Book:
    """Open a book file of any supported format, told apart by content: a jiangjun book (JJBK header),
    a BHGUI .obk (an SQLite database) or an ElephantEye BOOK.DAT (sorted 8-byte records). Raises
    BookError saying why a file is not a book."""
    path = locate(name)
    try:
        with open(path, "rb") as handle:
            head = handle.read(16)
    except OSError as exc:
        raise BookError(f"cannot open book {name}: {exc.strerror or exc}") from None
    if head.startswith(MAGIC):
        return JiangjunBook(path)
    from . import obk
    if head.startswith(obk.SQLITE_MAGIC):
        return obk.ObkBook(path)
    from . import eleeye
    data = Path(path).read_bytes()
    if eleeye.looks_like(data):
        return eleeye.EleeyeBook(path, data)
    raise BookError(f"{name} is not an opening book (neither a jiangjun book, a BHGUI .obk nor an "
                    "ElephantEye BOOK.DAT)")


def default_book() -> Book:
    """The shipped book, opened on the first call (the file stays memory-mapped). Raises BookError."""
    global _default
    with _default_lock:
        if _default is None:
            _default = open_book(str(DIRECTORY / DEFAULT))
        return _default


def default_book_if_open() -> Optional[Book]:
    """The shipped book if it has been opened, else None (it is shared and never closed)."""
    return _default

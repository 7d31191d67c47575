"""Opening positions for matches: the built-in book, and EPD files, game files (PGN, XQF, CBR, CBL, CBF,
DhtmlXQ: engine.pgn reads them all) or book files."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..fen import START_FEN
from ..pgn.source import AUTO, codec_for
from ..position import Position

BOOK_FILE = Path(__file__).with_name("book.txt")
FORMATS = ("epd", "pgn", "book")


class OpeningError(ValueError):
    """An opening file that cannot be read, with the file and line at fault."""


@dataclass(frozen=True)
class Opening:
    """A starting position: a FEN and moves played from it."""

    name: str
    fen: str = START_FEN
    moves: tuple[str, ...] = ()

    def position(self) -> Position:
        position = Position(self.fen)
        for move in self.moves:
            position.push(move)
        return position


def default_book() -> list[Opening]:
    """The built-in balanced openings (central cannon, elephant, pawn and horse openings and replies)."""
    return load_openings(BOOK_FILE, "book")


def load_openings(path: str | Path, fmt: Optional[str] = None, encoding: Optional[str] = None) -> list[Opening]:
    """Read openings from a file. fmt: "epd" (a FEN per line), "pgn" (games: their start and moves, from
    any game file engine.pgn.read_games reads: PGN, XQF, CBR, CBL, CBF, DhtmlXQ), or "book" (`name ; ICCS
    moves` per line); by default chosen from the file's extension, or else from its content (a game file
    in one of the binary formats, CBF or DhtmlXQ is one whatever its name). encoding: the file's (games:
    detected when None or "auto", see engine.pgn.read_games; the others: UTF-8 by default)."""
    path = Path(path)
    if not path.is_file():
        raise OpeningError(f"opening file {str(path)!r} does not exist")
    fmt = (fmt or _format_of(path)).lower()
    if fmt not in FORMATS:
        raise OpeningError(f"unknown opening format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt == "pgn":
        return _load_pgn(path, encoding)
    codec = "utf-8-sig" if encoding in AUTO else codec_for(str(encoding))
    try:
        text = path.read_text(encoding=codec)
    except (UnicodeDecodeError, LookupError) as exc:
        raise OpeningError(f"{path}: cannot read it as {encoding or 'UTF-8'}: {exc}") from None
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            opening = _parse_epd(line, number) if fmt == "epd" else _parse_book(line, number)
            opening.position()  # validates the FEN and the moves
        except ValueError as exc:
            raise OpeningError(f"{path}:{number}: {exc}") from None
        openings.append(opening)
    if not openings:
        raise OpeningError(f"opening file {str(path)!r} holds no openings")
    return openings


def _format_of(path: Path) -> str:
    from ..pgn import SUFFIXES, detect_format

    suffix = path.suffix.lower()
    if suffix in (".epd", ".fen"):
        return "epd"
    if suffix in SUFFIXES:
        return "pgn"
    with open(path, "rb") as handle:
        head = handle.read(65536)
    return "pgn" if detect_format(head) != "pgn" else "book"


def _parse_book(line: str, number: int) -> Opening:
    name, _, moves = line.rpartition(";")
    return Opening(name.strip() or f"line {number}", START_FEN, tuple(moves.split()))


def _parse_epd(line: str, number: int) -> Opening:
    fields = line.split(";")[0].split()
    if len(fields) < 2:
        raise ValueError("an EPD line needs at least a board and a side to move")
    fen = " ".join(fields[:2])
    name_match = re.search(r'\bid\s+"([^"]*)"', line)
    return Opening(name_match.group(1) if name_match else f"position {number}", fen)


def _load_pgn(path: Path, encoding: Optional[str]) -> list[Opening]:
    from ..pgn import PgnError, read_games

    openings, unread = [], []
    try:   # a damaged game is read as far as it goes (engine.pgn logs one warning line for the file)
        games = read_games(path, encoding=encoding)
    except PgnError as exc:
        raise OpeningError(str(exc)) from None
    for index, game in enumerate(games, 1):
        if game.errors and not game.moves:   # neither its start nor its first move reads: it opens nothing
            unread.append(game.errors[0])
            continue
        name = (game.headers.get("Opening") or game.headers.get("Event") or game.headers.get("Title")
                or f"game {index}")
        openings.append(Opening(name, game.starting_fen(), tuple(game.moves)))
    if not openings:
        raise OpeningError(str(unread[0]) if unread else f"opening file {str(path)!r} holds no games")
    return openings

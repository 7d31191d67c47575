"""`jiangjun book`: build a book from game files, show the book moves of a position.

    jiangjun book build FILES... -o FILE [--min-games N] [--max-ply P] [--min-score S]
    jiangjun book show [--book FILE] [--fen FEN] [--moves MOVE ...]
"""
from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from typing import IO, Optional, Sequence

from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN
from ..notation import NotationError, parse_move, to_chinese
from ..position import Position
from . import DEFAULT, BookError, open_book
from .build import DEFAULT_MAX_PLY, DEFAULT_MIN_GAMES, DEFAULT_MIN_SCORE, BuildSettings, build_book

_NUMBER = re.compile(r"^\d+\.+")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jiangjun book", description="Opening books: build one from "
                                     "games, or show the book moves of a position.")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build a book from game files, folders of them or tar archives")
    build.add_argument("files", nargs="+", help="game files (PGN in UTF-8, GBK or Big5; XQF, CBR, CBL, CBF, "
                       "DhtmlXQ pages), folders, .tar/.tar.xz archives")
    build.add_argument("-o", "--output", required=True, help="the book file to write")
    build.add_argument("--min-games", type=int, default=DEFAULT_MIN_GAMES,
                       help=f"keep moves played in at least N games (default {DEFAULT_MIN_GAMES})")
    build.add_argument("--max-ply", type=int, default=DEFAULT_MAX_PLY,
                       help=f"count positions up to P plies into each game (default {DEFAULT_MAX_PLY})")
    build.add_argument("--min-score", type=float, default=DEFAULT_MIN_SCORE,
                       help=f"keep moves scoring at least S for their side, 0..1 (default {DEFAULT_MIN_SCORE})")
    show = sub.add_parser("show", help="print the book moves of a position")
    show.add_argument("--book", default=DEFAULT, help="the book (any format; default: the shipped book)")
    show.add_argument("--fen", default=START_FEN, help="the position (default: the start position)")
    show.add_argument("--moves", nargs="*", default=[], help="moves from it (ICCS, WXF or Chinese)")
    return parser


def main(argv: Optional[Sequence[str]] = None, out: IO[str] = sys.stdout, err: IO[str] = sys.stderr) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "build":
            return _build(args, out, err)
        return _show(args, out)
    except BrokenPipeError:        # e.g. piped into `head`
        return 1
    except (BookError, OSError, InvalidFenError, IllegalMoveError, NotationError, ValueError) as exc:
        print(f"jiangjun book: {exc}", file=err)
        return 2


def _build(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    if args.min_games < 1 or args.max_ply < 1 or not 0 <= args.min_score <= 1:
        raise ValueError("--min-games and --max-ply must be at least 1, --min-score within 0..1")
    settings = BuildSettings(args.min_games, args.max_ply, args.min_score)
    report = build_book(args.files, args.output, settings, progress=lambda text: print(text, file=err, flush=True))
    print(f"wrote {args.output}: {report.summary()}", file=out)
    return 0


def _position(fen: str, moves: Sequence[str]) -> Position:
    position = Position(fen)
    for arg in moves:
        for word in unicodedata.normalize("NFKC", arg).split():
            word = _NUMBER.sub("", word)
            if word and word not in ("1-0", "0-1", "1/2-1/2", "*"):
                position.push(parse_move(position, word))
    return position


def _show(args: argparse.Namespace, out: IO[str]) -> int:
    book = open_book(args.book)
    position = _position(args.fen, args.moves)
    moves = book.moves(position)
    name = book.opening_name(position)
    print(f"book      {book.describe()}", file=out)
    print(f"position  {position.fen()}" + (f"  ({name})" if name else ""), file=out)
    if not moves:
        print("no book moves", file=out)
        return 0
    total = sum(m.weight for m in moves)
    print(f"{'move':<10}{'iccs':<6}{'games':>7}{'score':>7}{'weight':>8}", file=out)
    for entry in moves:
        games = "" if entry.games is None else str(entry.games)
        score = "" if entry.score is None else f"{100 * entry.score:.0f}%"
        text = to_chinese(position, entry.move)
        print(f"{text}{' ' * max(1, 10 - _width(text))}{entry.move:<6}{games:>7}{score:>7}"
              f"{100 * entry.weight / total:>7.1f}%", file=out)
    return 0


def _width(text: str) -> int:
    """Columns on a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

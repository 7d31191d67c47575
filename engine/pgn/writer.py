"""Writing PGN: the tags in roster order, and movetext in ICCS, WXF, Chinese or XBoard's SAN wrapped at 80
columns, variations in parentheses (SAN games in XBoard's dialect of PGN, :mod:`.xboard`); and writing a
game file in the format its name says (XQF and CBF by their modules)."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple, Union

from ..errors import IllegalMoveError
from ..fen import START_FEN
from ..notation import CHINESE, ICCS, NOTATIONS, SAN, WXF, to_notation
from ..position import Position
from .game import RESULTS, SEVEN_TAG_ROSTER, Game, GameFileError, PgnError, Variation, push_checked, start_position
from .xboard import xboard_headers

#: The value of the ``Format`` tag of a game written in each notation of engine.notation's NOTATIONS
#: (None: no Format tag; a SAN game says what it is with XBoard's Variant tag).
FORMAT_TAGS = {ICCS: "ICCS", WXF: "WXF", CHINESE: "Chinese", SAN: None}

_GAME_TAG_VALUE = "Chinese Chess"
_LINE_WIDTH = 80


def _escape_tag(value: str) -> str:
    value = " ".join(str(value).splitlines())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_unit(comment: str) -> str:
    """``{comment}``; a ``}`` inside would end the comment, so it becomes ``｝``."""
    return "{" + comment.replace("}", "\uff5d") + "}"


def _width(text: str) -> int:
    """Display width: CJK and full-width characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _wrap(units: Iterable[str], width: int = _LINE_WIDTH) -> List[str]:
    """Lay out units separated by spaces in lines of at most ``width`` columns.

    A unit is never broken (a long comment may make a longer line); line
    breaks inside a unit (multi-line comments) are kept.
    """
    lines: List[str] = []
    current = ""
    for unit in units:
        first, *rest = unit.split("\n")
        if current and _width(current) + 1 + _width(first) > width:
            lines.append(current)
            current = first
        else:
            current = f"{current} {first}" if current else first
        if rest:
            lines.append(current)
            lines.extend(rest[:-1])
            current = rest[-1]
    if current:
        lines.append(current)
    return lines


def _ordered_headers(game: Game, notation: str) -> List[Tuple[str, str]]:
    """The tags to write, in order: roster, FEN, Format, then the rest as given; XBoard's for SAN."""
    if notation == "san":
        fen: Optional[str] = game.starting_fen()
        same_start = fen is not None and fen.split()[:2] == START_FEN.split()[:2]
        return xboard_headers(game.headers, game.result, None if same_start else fen)
    headers = dict(game.headers)
    headers.setdefault("Game", _GAME_TAG_VALUE)
    headers["Result"] = game.result
    headers["Format"] = str(FORMAT_TAGS[notation])
    order = list(SEVEN_TAG_ROSTER) + ["FEN", "Format"]
    out = [(name, headers[name]) for name in order if name in headers]
    out += [(name, value) for name, value in headers.items() if name not in order]
    return out


def write_game(game: Game, notation: str = "iccs") -> str:
    """The PGN text of one game, ending with a newline.

    ``notation`` is ``"iccs"`` (``h2e2``), ``"wxf"`` (``C2.5``),
    ``"chinese"`` (``炮二平五``) or ``"san"`` (XBoard's ``Che2``); the
    ``Format`` tag says which.  Tags: the roster ``Game Event Site Date Round
    Red Black Result`` (those present; ``Game`` defaults to ``"Chinese
    Chess"`` and ``Result`` is always :attr:`Game.result`), then ``FEN``,
    ``Format`` and the other tags in their order.  A SAN game is written as
    XBoard writes one, so that XBoard opens it: ``Event Site Date Round White
    Black Result``, ``Variant "xiangqi"``, ``FEN`` (XBoard's letters) with
    ``SetUp "1"`` for another start, the other tags (see :mod:`.xboard`).
    Movetext is wrapped at 80 columns; comments are written in braces (a
    ``}`` in a comment becomes ``｝``).

    Raises:
        PgnError: an illegal move or invalid FEN tag, or an unknown result.
        ValueError: an unknown notation, or more comments than moves.
    """
    key = notation.lower()
    if key not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}: use {', '.join(repr(name) for name in NOTATIONS)}")
    if game.result not in RESULTS:
        raise PgnError(f"unknown result {game.result!r}: use one of {', '.join(RESULTS)}",
                       event=game.headers.get("Event"))
    if len(game.comments) > len(game.moves):
        raise ValueError(f"{len(game.comments)} comments for {len(game.moves)} moves")

    lines = [f'[{name} "{_escape_tag(value)}"]' for name, value in _ordered_headers(game, key)]

    units: List[str] = []
    if game.start_comment is not None:
        units.append(_comment_unit(game.start_comment))
    _movetext(units, start_position(game), game.moves, game.comments, game.variations, key,
              game.headers.get("Event"))
    units.append(game.result)
    return "\n".join(lines) + "\n\n" + "\n".join(_wrap(units)) + "\n"


def _movetext(units: List[str], position: Position, moves: List[str], comments: List[Optional[str]],
              variations: Dict[int, List[Variation]], key: str, event: Optional[str]) -> None:
    """Append the units of a line (moves with their numbers, comments, and each variation in parentheses
    after the move it replaces) to ``units``, playing the moves on ``position``."""
    need_number = True  # a Black move needs "n..." first, and after a comment or a variation
    for index, move in enumerate(moves):
        number, red = position.fullmove_number, position.turn == "red"
        try:
            text = to_notation(position, move, key)
        except IllegalMoveError as exc:
            raise PgnError(str(exc), event=event, move_number=number, side=str(position.turn),
                           token=move) from None
        before = position.copy() if variations.get(index) else None
        push_checked(position, move, event)
        if red:
            units.append(f"{number}. {text}")
        elif need_number:
            units.append(f"{number}... {text}")
        else:
            units.append(text)
        comment = comments[index] if index < len(comments) else None
        need_number = comment is not None
        if comment is not None:
            units.append(_comment_unit(comment))
        for variation in variations.get(index, []):
            assert before is not None
            inner: List[str] = []
            _movetext(inner, before.copy(), variation.moves, variation.comments, variation.variations, key, event)
            if inner:
                inner[0] = "(" + inner[0]
                inner[-1] += ")"
                units.extend(inner)
                need_number = True


#: The formats :func:`write_games` writes, and the file name endings that choose them.
WRITTEN_FORMATS = {"pgn": ".pgn", "xqf": ".xqf", "cbf": ".cbf"}


def write_games(path: Union[str, "os.PathLike[str]"], games: Iterable[Game], notation: str = "iccs",
                encoding: str = "utf-8", append: bool = False, format: Optional[str] = None) -> int:
    """Write games to a file; return how many.

    ``format`` is ``"pgn"``, ``"xqf"`` (XQStudio's, :func:`.xqf.write_game`) or ``"cbf"`` (CCBridge's XML,
    :func:`.cbf.write_game`); by default the path's ending chooses (``.xqf``, ``.cbf``), and anything else
    is PGN. An XQF or CBF file holds one game. PGN games are separated by blank lines, in ``encoding``
    (``"utf-8"`` by default; ``"gbk"`` or ``"gb18030"`` for Chinese Windows software); with
    ``append=True`` they are added at the end of an existing file (no byte order mark is repeated).
    """
    target = Path(path)
    kind = (format or next((name for name, ending in WRITTEN_FORMATS.items()
                            if target.suffix.lower() == ending), "pgn")).lower()
    if kind not in WRITTEN_FORMATS:
        raise ValueError(f"format={format!r}: use one of {', '.join(WRITTEN_FORMATS)}")
    if kind != "pgn":
        return _write_single(target, list(games), kind, append)
    texts = [write_game(game, notation) for game in games]
    prefix = ""
    codec = encoding
    if append and target.exists() and target.stat().st_size > 0:
        if codec.lower().replace("_", "-") in ("utf-8-sig", "utf8-sig"):
            codec = "utf-8"
        with open(target, "rb") as existing:
            existing.seek(max(0, target.stat().st_size - 2))
            tail = existing.read()
        prefix = "" if tail.endswith(b"\n\n") else ("\n" if tail.endswith(b"\n") else "\n\n")
    with open(target, "a" if append else "w", encoding=codec, newline="\n") as out:
        out.write(prefix + "\n".join(texts))
    return len(texts)


def _write_single(target: Path, games: List[Game], kind: str, append: bool) -> int:
    from . import cbf, xqf

    if append:
        raise GameFileError(f"an {kind.upper()} file holds one game: games cannot be appended to one",
                            source=str(target))
    if len(games) != 1:
        raise GameFileError(f"an {kind.upper()} file holds one game, and {len(games)} were given: write each "
                            "to its own file, or write PGN", source=str(target))
    if kind == "xqf":
        target.write_bytes(xqf.write_game(games[0]))
    else:
        target.write_text(cbf.write_game(games[0]), encoding="utf-8", newline="\n")
    return 1

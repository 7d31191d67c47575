"""Reading and writing Xiangqi PGN, as exported by XQStudio, ChessDB and xqbase.

A Xiangqi PGN game looks like chess PGN::

    [Game "Chinese Chess"]
    [Event "National Championship"]
    [Red "Hu Ronghua"]
    [Black "Liu Dahua"]
    [Result "1-0"]
    [Format "Chinese"]

    1. 炮二平五 马8进7 2. 马二进三 {the main line} 车9平8 ... 1-0

Reading (:func:`read_games`, :func:`iter_games`):

* tags ``[Name "value"]`` are kept in file order in :attr:`Game.headers`
  (``\\"`` and ``\\\\`` escapes understood); a ``FEN`` tag sets the starting
  position;
* movetext may use move numbers (``1.``, ``1...``, attached or not:
  ``1.h2e2``), moves in ICCS (``h2e2``, ``H2-E2``), WXF (``C2.5``, ``C2=5``,
  ``H8+7``, ``R+.3``) or Chinese (``炮二平五``, ``马8进7``, traditional
  characters, full-width digits), whatever the ``Format`` tag says.  Every
  move is read with :func:`engine.notation.parse_move` against the position
  replayed so far, and stored as ICCS (``"h2e2"``);
* ``{comments}`` and ``;`` line comments become :attr:`Game.comments` (the
  comment after each move) or :attr:`Game.start_comment`; NAGs (``$1``),
  ``!``/``?`` suffixes and ``%`` escape lines are skipped; variations
  ``( ... )``, nested or not, are checked for balance and skipped;
* a result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) ends a game;
* bytes are decoded as UTF-8 (with or without BOM) and, failing that, as GBK
  (through its superset GB18030), unless ``encoding=`` says otherwise.

Anything that cannot be read raises :class:`PgnError`, whose message names the
file, the game (number and Event), the line, the move number and the token.

Writing (:func:`write_game`, :func:`write_games`) produces the seven-tag
roster first, then ``FEN``, ``Format`` and the other tags, and movetext
wrapped at 80 columns in ICCS (``h2e2``), WXF (``C2.5``) or Chinese
(``炮二平五``).
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator, List, Optional, Tuple, Union

from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN
from ..notation import parse_move, to_chinese, to_wxf
from ..position import Position
from ..squares import is_iccs

__all__ = [
    "Game",
    "PgnError",
    "RESULTS",
    "SEVEN_TAG_ROSTER",
    "NOTATIONS",
    "read_games",
    "iter_games",
    "write_game",
    "write_games",
]

#: The results a game can have: Red wins, Black wins, draw, unknown/unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: Tags written first, in this order (the chess roster with ``Game`` in front).
SEVEN_TAG_ROSTER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result")

#: Accepted values of ``notation`` in :func:`write_game` -> value of the ``Format`` tag.
NOTATIONS = {"iccs": "ICCS", "wxf": "WXF", "chinese": "Chinese"}

#: What a PGN source may be; see :func:`read_games`.
PgnSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[str], IO[bytes]]

_GAME_TAG_VALUE = "Chinese Chess"
_LINE_WIDTH = 80


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class PgnError(ValueError):
    """PGN text that cannot be read (or a game that cannot be written).

    The message starts with where the problem is and ends with why, e.g.::

        games.pgn, game 2 [Event "Final"], line 14, move 3 (Black) '马8退7':
        '马8退7' is not a legal move for Black: ...

    The parts are also available as attributes (``None`` when unknown):
    ``reason``, ``source``, ``game_number`` (1-based), ``event``, ``line``
    (1-based), ``move_number`` (the full-move number), ``side`` (``"red"`` or
    ``"black"``) and ``token`` (the text as written in the file).
    """

    def __init__(self, reason: str, *, source: Optional[str] = None,
                 game_number: Optional[int] = None, event: Optional[str] = None,
                 line: Optional[int] = None, move_number: Optional[int] = None,
                 side: Optional[str] = None, token: Optional[str] = None) -> None:
        self.reason = reason
        self.source = source
        self.game_number = game_number
        self.event = event
        self.line = line
        self.move_number = move_number
        self.side = side
        self.token = token
        super().__init__(self._compose())

    def _compose(self) -> str:
        where: List[str] = []
        if self.source:
            where.append(self.source)
        if self.game_number is not None:
            game = f"game {self.game_number}"
            if self.event:
                game += f' [Event "{self.event}"]'
            where.append(game)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.move_number is not None:
            move = f"move {self.move_number}"
            if self.side:
                move += f" ({self.side.capitalize()})"
            if self.token is not None:
                move += f" {self.token!r}"
            where.append(move)
        elif self.token is not None:
            where.append(f"token {self.token!r}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


# ---------------------------------------------------------------------------
# The game record
# ---------------------------------------------------------------------------

@dataclass
class Game:
    """One game: tags, moves (ICCS), the comment after each move, the result.

    ``comments[i]`` is the comment written after ``moves[i]`` (``None`` for
    none), so both lists have the same length; when ``comments`` is left empty
    it is filled with ``None``.  ``start_comment`` is a comment before the
    first move.  ``result`` is one of :data:`RESULTS`.
    """

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: list[Optional[str]] = field(default_factory=list)
    result: str = "*"
    start_comment: Optional[str] = None

    def __post_init__(self) -> None:
        if not self.comments and self.moves:
            self.comments = [None] * len(self.moves)
        if len(self.comments) != len(self.moves):
            raise ValueError(
                f"a Game needs one comment (or None) per move: {len(self.moves)} moves, "
                f"{len(self.comments)} comments")

    def starting_fen(self) -> str:
        """The FEN of the starting position: the ``FEN`` tag, or :data:`START_FEN`."""
        fen = self.headers.get("FEN", "").strip()
        return fen or START_FEN

    def end_position(self) -> Position:
        """The position after all the moves, replayed from :meth:`starting_fen`.

        Raises:
            PgnError: the FEN tag is invalid or a move is illegal (the message
                names the move number).
        """
        position = _start_position(self)
        for move in self.moves:
            _push_checked(position, move, self.headers.get("Event"))
        return position


def _start_position(game: Game) -> Position:
    """The starting position of ``game``; a bad FEN tag raises PgnError."""
    fen = game.starting_fen()
    try:
        return Position(fen)
    except InvalidFenError as exc:
        raise PgnError(f"invalid FEN tag {fen!r}: {exc}",
                       event=game.headers.get("Event")) from None


def _push_checked(position: Position, move: str, event: Optional[str]) -> None:
    """Push ``move``, turning an illegal move into a PgnError naming its move number."""
    number, side = position.fullmove_number, str(position.turn)
    try:
        position.push(move)
    except IllegalMoveError as exc:
        raise PgnError(str(exc), event=event, move_number=number, side=side, token=move) from None


# ---------------------------------------------------------------------------
# Reading: sources and encodings
# ---------------------------------------------------------------------------

def _decode(data: bytes, encoding: Optional[str], label: Optional[str]) -> str:
    """Bytes -> text: the given encoding, else UTF-8 (BOM or not), else GB18030."""
    if encoding is not None:
        codec = encoding
        if codec.lower().replace("_", "-") in ("utf-8", "utf8"):
            codec = "utf-8-sig"  # a BOM is not part of the text
        try:
            return data.decode(codec)
        except UnicodeDecodeError as exc:
            raise PgnError(f"cannot decode the text as {encoding}: {exc}", source=label) from None
        except LookupError:
            raise PgnError(f"unknown encoding {encoding!r}", source=label) from None
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise PgnError(f"the text starts with a UTF-16 byte order mark but is not UTF-16: {exc}",
                           source=label) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError as exc:
        raise PgnError(f"the text is neither UTF-8 nor GBK/GB18030 ({exc}); "
                       "pass encoding=... to read it", source=label) from None


def _looks_like_file_name(text: str) -> bool:
    """A one-line string naming a .pgn file (used to report a missing file)."""
    return ("\n" not in text and "[" not in text and "{" not in text
            and text.strip().lower().endswith(".pgn"))


def _read_source(source: PgnSource, encoding: Optional[str]) -> Tuple[str, Optional[str]]:
    """The text of ``source`` and a label for messages (the file name, if any)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _decode(bytes(source), encoding, None), None
    if isinstance(source, os.PathLike):
        path = Path(source)
        return _decode(path.read_bytes(), encoding, str(path)), str(path)
    if isinstance(source, str):
        if "\n" not in source and len(source) < 4096 and os.path.exists(source):
            return _decode(Path(source).read_bytes(), encoding, source), source
        if _looks_like_file_name(source):
            raise FileNotFoundError(f"no such PGN file: {source!r} "
                                    "(a string that is not an existing path is read as PGN text)")
        return source, None
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        label = getattr(source, "name", None)
        label = label if isinstance(label, str) else None
        if isinstance(data, (bytes, bytearray)):
            return _decode(bytes(data), encoding, label), label
        if isinstance(data, str):
            return data, label
        raise TypeError(f"{type(source).__name__}.read() returned {type(data).__name__}, "
                        "expected str or bytes")
    raise TypeError("a PGN source is a path (str or os.PathLike), bytes, PGN text or an open file, "
                    f"not {type(source).__name__}")


# ---------------------------------------------------------------------------
# Reading: tokens
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Token:
    """A lexical unit of PGN.

    ``kind`` is one of ``tag`` (``text`` = name, ``value`` = value),
    ``comment``, ``open``, ``close``, ``nag``, ``result`` or ``symbol``.
    """

    kind: str
    text: str
    line: int
    value: str = ""


_TAG_RE = re.compile(r'\[[ \t]*([^\s\[\]"]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_LOOSE_TAG_RE = re.compile(r'\[[ \t]*([^\s\[\]"]+)[ \t]*(?:"(.*)"|([^\]\n]*?))[ \t]*\]')
_TAG_ESCAPE_RE = re.compile(r"\\(.)")
_SYMBOL_END = set("{}()[];")
_RESULT_ALIASES = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2",
                   "*": "*"}
_NAG_RE = re.compile(r"\$\d+")


class _LexError(Exception):
    """A lexical problem, before the game it belongs to is known."""

    def __init__(self, reason: str, line: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def _tokens(text: str) -> Iterator[_Token]:
    """Split PGN text (newlines already normalised to ``\\n``) into tokens."""
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
            continue
        if ch.isspace():
            i += 1
            continue
        if ch == "%" and (i == 0 or text[i - 1] == "\n"):  # escape line
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise _LexError("a comment '{' is never closed with '}'", line)
            body = text[i + 1:end]
            yield _Token("comment", body.strip(), line)
            line += body.count("\n")
            i = end + 1
            continue
        if ch == ";":
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield _Token("comment", text[i + 1:end].strip(), line)
            i = end
            continue
        if ch == "(":
            yield _Token("open", ch, line)
            i += 1
            continue
        if ch == ")":
            yield _Token("close", ch, line)
            i += 1
            continue
        if ch == "[":
            match = _TAG_RE.match(text, i) or _LOOSE_TAG_RE.match(text, i)
            if match is None:
                end = text.find("\n", i)
                shown = text[i:n if end < 0 else end]
                raise _LexError(f"malformed tag {shown!r}: expected [Name \"value\"]", line)
            name = match.group(1)
            if match.re is _TAG_RE:
                value = _TAG_ESCAPE_RE.sub(r"\1", match.group(2))
            else:
                value = match.group(2) if match.group(2) is not None else match.group(3)
            yield _Token("tag", name, line, value.strip())
            i = match.end()
            continue
        if ch == "]":
            raise _LexError("a ']' outside a tag", line)
        start = i
        while i < n and not text[i].isspace() and text[i] not in _SYMBOL_END:
            i += 1
        word = text[start:i]
        if _NAG_RE.fullmatch(word):
            yield _Token("nag", word, line)
        elif word in _RESULT_ALIASES:
            yield _Token("result", _RESULT_ALIASES[word], line)
        else:
            yield _Token("symbol", word, line)


@dataclass
class _RawGame:
    """The tokens of one game, split into tags and movetext."""

    tags: List[_Token] = field(default_factory=list)
    movetext: List[_Token] = field(default_factory=list)

    def has_content(self) -> bool:
        return bool(self.tags) or any(t.kind in ("symbol", "result") for t in self.movetext)


def _split_games(text: str, source: Optional[str]) -> Iterator[_RawGame]:
    """Group the tokens of ``text`` into games.

    A game ends with a result token outside variations, or where a tag
    follows movetext.  Stray comments between games are dropped.
    """
    current, depth, count = _RawGame(), 0, 0
    tokens = _tokens(text)
    while True:
        try:
            token = next(tokens)
        except StopIteration:
            break
        except _LexError as exc:
            raise PgnError(exc.reason, source=source, game_number=count + 1,
                           line=exc.line) from None
        if token.kind == "tag" and current.movetext:
            if any(t.kind in ("symbol", "result") for t in current.movetext):
                count += 1
                yield current
                current, depth = _RawGame(), 0
            elif not current.tags:  # stray comments between games
                current = _RawGame()
        if token.kind == "tag":
            current.tags.append(token)
            continue
        current.movetext.append(token)
        if token.kind == "open":
            depth += 1
        elif token.kind == "close":
            depth -= 1
        elif token.kind == "result" and depth <= 0:
            if current.has_content():
                count += 1
                yield current
            current, depth = _RawGame(), 0
    if current.has_content():
        yield current


# ---------------------------------------------------------------------------
# Reading: movetext
# ---------------------------------------------------------------------------

_MOVE_NUMBER_RE = re.compile(r"^(\d+)(\.+)(.*)$")
_ANNOTATION_RE = re.compile(r"[!?]+$")


def _move_text(symbol: str) -> Optional[str]:
    """The move in a movetext symbol, or None for a bare move number/annotation.

    ``1.``, ``12...``, ``...``, ``!?`` -> None; ``1.h2e2`` -> ``h2e2``;
    ``h2e2!?`` and ``h2e2+`` -> ``h2e2``.  ``33.4`` (a WXF tandem-soldier move) is kept whole,
    since a move number is never followed by a lone digit.
    """
    text = unicodedata.normalize("NFKC", symbol)
    match = _MOVE_NUMBER_RE.match(text)
    if match is not None:
        rest = match.group(3)
        if not rest:
            return None
        if not rest.isdigit():
            text = rest
    if text.isdigit() or not text.strip("."):
        return None
    text = _ANNOTATION_RE.sub("", text)
    if not text:
        return None
    if text.endswith(("+", "#")) and is_iccs(text[:-1]):  # a check or mate mark after an ICCS move
        return text[:-1]
    return text


def _join_comment(old: Optional[str], new: str) -> str:
    """Two comments on the same place, as one."""
    if old is None:
        return new
    if not old:
        return new
    return f"{old} {new}" if new else old


def _build_game(raw: _RawGame, number: int, source: Optional[str]) -> Game:
    """Turn the tokens of one game into a :class:`Game`, replaying every move."""
    headers: dict[str, str] = {}
    for tag in raw.tags:
        headers[tag.text] = tag.value
    event = headers.get("Event")
    first_line = (raw.tags or raw.movetext)[0].line

    def error(reason: str, line: int, move_number: Optional[int] = None,
              side: Optional[str] = None, token: Optional[str] = None) -> PgnError:
        return PgnError(reason, source=source, game_number=number, event=event, line=line,
                        move_number=move_number, side=side, token=token)

    game = Game(headers=headers)
    fen = game.starting_fen()
    try:
        position = Position(fen)
    except InvalidFenError as exc:
        line = next((t.line for t in raw.tags if t.text == "FEN"), first_line)
        raise error(f"invalid FEN tag {fen!r}: {exc}", line=line) from None

    depth = 0
    variation_line = first_line
    token_result: Optional[str] = None
    for token in raw.movetext:
        kind = token.kind
        if kind == "open":
            if depth == 0:
                variation_line = token.line
            depth += 1
            continue
        if kind == "close":
            if depth == 0:
                raise error("')' closes a variation that was never opened", line=token.line)
            depth -= 1
            continue
        if depth > 0 or kind == "nag":
            continue
        if kind == "comment":
            if game.moves:
                game.comments[-1] = _join_comment(game.comments[-1], token.text)
            else:
                game.start_comment = _join_comment(game.start_comment, token.text)
            continue
        if kind == "result":
            token_result = token.text
            continue
        text = _move_text(token.text)
        if text is None:
            continue
        move_number, side = position.fullmove_number, str(position.turn)
        try:
            move = parse_move(position, text)
            position.push(move)
        except IllegalMoveError as exc:
            raise error(str(exc), line=token.line, move_number=move_number, side=side,
                        token=token.text) from None
        game.moves.append(move)
        game.comments.append(None)
    if depth > 0:
        raise error("a variation '(' is never closed with ')'", line=variation_line)

    tag_result = headers.get("Result", "").strip()
    tag_result = _RESULT_ALIASES.get(tag_result, "")
    if token_result is not None and token_result != "*":
        game.result = token_result
    elif tag_result:
        game.result = tag_result
    else:
        game.result = token_result or "*"
    return game


def iter_games(source: PgnSource, encoding: Optional[str] = None) -> Iterator[Game]:
    """Yield the games of a PGN source one by one (see :func:`read_games`).

    Games before a faulty one are yielded before its :class:`PgnError` is raised.
    """
    text, label = _read_source(source, encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for number, raw in enumerate(_split_games(text, label), start=1):
        yield _build_game(raw, number, label)


def read_games(source: PgnSource, encoding: Optional[str] = None) -> List[Game]:
    """Read every game of a Xiangqi PGN source.

    ``source`` may be:

    * a :class:`pathlib.Path` (or any ``os.PathLike``): the file is read;
    * ``bytes``: decoded as described below;
    * a ``str`` that is an existing path: the file is read; a one-line ``str``
      ending in ``.pgn`` that does not exist raises :class:`FileNotFoundError`;
      any other ``str`` is the PGN text itself;
    * an open file (text or binary).

    Bytes are decoded with ``encoding`` when given; otherwise as UTF-8 (a
    byte order mark is dropped), falling back to GB18030 (a superset of GBK,
    the encoding of Chinese Windows software); UTF-16 is recognised by its
    byte order mark.

    Raises:
        PgnError: undecodable bytes, a malformed tag or comment, unbalanced
            variations, an invalid FEN tag, or a move that cannot be read or
            is illegal; the message names the game, line, move number and
            token.
    """
    return list(iter_games(source, encoding))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

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
    """The tags to write, in order: roster, FEN, Format, then the rest as given."""
    headers = dict(game.headers)
    headers.setdefault("Game", _GAME_TAG_VALUE)
    headers["Result"] = game.result
    headers["Format"] = NOTATIONS[notation]
    order = list(SEVEN_TAG_ROSTER) + ["FEN", "Format"]
    out = [(name, headers[name]) for name in order if name in headers]
    out += [(name, value) for name, value in headers.items() if name not in order]
    return out


def write_game(game: Game, notation: str = "iccs") -> str:
    """The PGN text of one game, ending with a newline.

    ``notation`` is ``"iccs"`` (``h2e2``), ``"wxf"`` (``C2.5``) or
    ``"chinese"`` (``炮二平五``); the ``Format`` tag says which.  Tags: the
    roster ``Game Event Site Date Round Red Black Result`` (those present;
    ``Game`` defaults to ``"Chinese Chess"`` and ``Result`` is always
    :attr:`Game.result`), then ``FEN``, ``Format`` and the other tags in their
    order.  Movetext is wrapped at 80 columns; comments are written in braces
    (a ``}`` in a comment becomes ``｝``).

    Raises:
        PgnError: an illegal move or invalid FEN tag, or an unknown result.
        ValueError: an unknown notation, or more comments than moves.
    """
    key = notation.lower()
    if key not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}: use 'iccs', 'wxf' or 'chinese'")
    if game.result not in RESULTS:
        raise PgnError(f"unknown result {game.result!r}: use one of {', '.join(RESULTS)}",
                       event=game.headers.get("Event"))
    if len(game.comments) > len(game.moves):
        raise ValueError(f"{len(game.comments)} comments for {len(game.moves)} moves")

    lines = [f'[{name} "{_escape_tag(value)}"]' for name, value in _ordered_headers(game, key)]

    position = _start_position(game)
    units: List[str] = []
    if game.start_comment is not None:
        units.append(_comment_unit(game.start_comment))
    need_number = True  # a Black move needs "n..." first, and after a comment
    for index, move in enumerate(game.moves):
        number, red = position.fullmove_number, position.turn == "red"
        try:
            if key == "wxf":
                text = to_wxf(position, move)
            elif key == "chinese":
                text = to_chinese(position, move)
            else:
                text = move.lower().replace("-", "")
        except IllegalMoveError as exc:
            raise PgnError(str(exc), event=game.headers.get("Event"), move_number=number,
                           side=str(position.turn), token=move) from None
        _push_checked(position, move, game.headers.get("Event"))
        if red:
            units.append(f"{number}. {text}")
        elif need_number:
            units.append(f"{number}... {text}")
        else:
            units.append(text)
        comment = game.comments[index] if index < len(game.comments) else None
        need_number = comment is not None
        if comment is not None:
            units.append(_comment_unit(comment))
    units.append(game.result)
    return "\n".join(lines) + "\n\n" + "\n".join(_wrap(units)) + "\n"


def write_games(path: Union[str, "os.PathLike[str]"], games: Iterable[Game], notation: str = "iccs",
                encoding: str = "utf-8", append: bool = False) -> int:
    """Write games to a PGN file, separated by blank lines; return how many.

    ``encoding`` is ``"utf-8"`` by default; ``"gbk"`` (or ``"gb18030"``)
    writes files for Chinese Windows software.  With ``append=True`` the games
    are added at the end of an existing file (no byte order mark is repeated).
    """
    texts = [write_game(game, notation) for game in games]
    target = Path(path)
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

"""Reading PGN: the text split into tokens, the tokens into games, and each game's moves replayed."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

from ..errors import IllegalMoveError, InvalidFenError
from ..notation import parse_move
from ..position import Position
from ..squares import is_iccs
from .game import Game, PgnError
from .source import Decoding, PgnSource, decodings, read_source
from .xboard import VARIANT, is_xiangqi


# ---------------------------------------------------------------------------
# Tokens
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
# Movetext
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

    variant = headers.get("Variant", "").strip()
    if variant and not is_xiangqi(variant):  # an XBoard file of chess or another game
        line = next(t.line for t in raw.tags if t.text == "Variant")
        raise error(f'[Variant "{variant}"]: not a Xiangqi game (expected "{VARIANT}")', line=line)
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
            reason = str(exc)
            if not position.legal_moves():  # records that go on after a mate say so
                how = "checkmated" if position.is_check() else "stalemated"
                reason = f"the game is already over: {side.capitalize()} is {how} and has no move ({reason})"
            raise error(reason, line=token.line, move_number=move_number, side=side,
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


def _games_of(text: str, label: Optional[str]) -> Iterator[Game]:
    """The games of PGN text, one by one."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for number, raw in enumerate(_split_games(text, label), start=1):
        yield _build_game(raw, number, label)


def _what_failed(error: PgnError) -> str:
    """A short account of why a reading failed, for the list of readings tried."""
    if error.move_number is None or error.token is None:
        return error.reason
    return f"game {error.game_number}, move {error.move_number} {error.token!r} does not read"


def _first_readable(readings: List[Decoding], undecodable: List[str],
                    label: Optional[str]) -> Tuple[List[Game], Optional[PgnError]]:
    """The games of the first reading under which every game reads, or, when there is none, the games
    read under the reading that went furthest and its error, which then names every encoding tried."""
    attempts = []
    for reading in readings:
        games: List[Game] = []
        try:
            for game in _games_of(reading.text, label):
                games.append(game)
        except PgnError as exc:
            progress = sum(len(g.moves) for g in games) + 2 * (exc.move_number or 0)
            attempts.append((progress, reading, games, exc))
            continue
        return games, None
    _, best, games, error = max(attempts, key=lambda attempt: attempt[0])
    others = [f"{reading.name} ({_what_failed(exc)})" for _, reading, _, exc in attempts if reading is not best]
    return games, _with_readings(error, best.name, others + undecodable)


def _with_readings(error: PgnError, name: str, others: List[str]) -> PgnError:
    """``error`` with the encoding it was read in, and the others tried, added to its reason."""
    note = f" [read as {name}" + (f"; also tried: {'; '.join(others)}]" if others else "]")
    return PgnError(error.reason + note, source=error.source, game_number=error.game_number, event=error.event,
                    line=error.line, move_number=error.move_number, side=error.side, token=error.token)


def iter_games(source: PgnSource, encoding: Optional[str] = None) -> Iterator[Game]:
    """Yield the games of a PGN source one by one (see :func:`read_games`).

    Games before a faulty one are yielded before its :class:`PgnError` is raised. When the encoding of
    bytes has to be found, every game is read before the first is yielded.
    """
    content, label = read_source(source)
    if isinstance(content, str):
        yield from _games_of(content, label)
        return
    readings, undecodable = decodings(content, encoding, label)
    if len(readings) == 1:
        try:
            yield from _games_of(readings[0].text, label)
        except PgnError as exc:
            if not undecodable:  # the encoding was given, or there was nothing to choose
                raise
            raise _with_readings(exc, readings[0].name, undecodable) from None
        return
    games, error = _first_readable(readings, undecodable, label)
    yield from games
    if error is not None:
        raise error


def read_games(source: PgnSource, encoding: Optional[str] = None) -> List[Game]:
    """Read every game of a Xiangqi PGN source.

    ``source`` may be:

    * a :class:`pathlib.Path` (or any ``os.PathLike``): the file is read;
    * ``bytes``: decoded as described below;
    * a ``str`` that is an existing path: the file is read; a one-line ``str``
      ending in ``.pgn`` that does not exist raises :class:`FileNotFoundError`;
      any other ``str`` is the PGN text itself;
    * an open file (text or binary).

    Bytes are decoded with ``encoding`` when given (``"utf-8"``, ``"gbk"``,
    ``"big5"`` or any Python codec; ``None`` or ``"auto"`` detects it).
    Detected: valid UTF-8 is read as UTF-8 (a byte order mark is dropped;
    UTF-16 is recognised by its own); other bytes as GBK (through its
    superset GB18030), Big5 (cp950) or Big5-HKSCS, the first under which
    every move reads, tried in the order their text looks likelier.  When no
    reading works, the error is the one of the reading that got furthest,
    and names the others tried.

    Raises:
        PgnError: undecodable bytes, a malformed tag or comment, unbalanced
            variations, an invalid FEN tag, or a move that cannot be read or
            is illegal; the message names the game, line, move number and
            token.
    """
    return list(iter_games(source, encoding))

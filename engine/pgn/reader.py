"""Reading PGN: the text split into tokens, the tokens into games, each game's moves replayed, and the
encoding under which the moves read."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Union

from ..errors import IllegalMoveError, InvalidFenError
from ..notation import parse_move
from ..position import Position
from ..squares import is_iccs
from .game import Game, PgnError
from .source import decodings
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


def _text_outcomes(text: str, label: Optional[str]) -> Iterator[Union[Game, PgnError]]:
    """Each game of PGN text, or for a game that cannot be read its error; a lexical error (an unclosed
    comment, a malformed tag) ends the text's games, since what follows cannot be split into games."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        for number, raw in enumerate(_split_games(text, label), start=1):
            try:
                game = _build_game(raw, number, label)
            except PgnError as exc:
                yield exc
                continue
            game.number = number
            yield game
    except PgnError as exc:
        yield exc


def _what_failed(error: PgnError) -> str:
    """A short account of why a reading failed, for the list of readings tried."""
    if error.move_number is None or error.token is None:
        return error.reason
    return f"game {error.game_number}, move {error.move_number} {error.token!r} does not read"


def _with_readings(error: PgnError, name: str, others: List[str]) -> PgnError:
    """``error`` with the encoding it was read in, and the others tried, added to its reason."""
    note = f" [read as {name}" + (f"; also tried: {'; '.join(others)}]" if others else "]")
    return PgnError(error.reason + note, source=error.source, game_number=error.game_number, event=error.event,
                    line=error.line, move_number=error.move_number, side=error.side, token=error.token)


def games_of(content: Union[str, bytes], label: Optional[str],
             encoding: Optional[str]) -> Iterator[Union[Game, PgnError]]:
    """Each game of a PGN source's content, or its error (see :mod:`.formats`).

    Bytes are decoded with ``encoding`` when given, else as :func:`.source.decodings` proposes: when
    several readings are possible, the first under which every game reads is taken; failing that, the one
    that got furthest (the moves read before its first error), whose errors then name every encoding
    tried. Text and a single reading are read lazily, game by game.
    """
    if isinstance(content, str):
        yield from _text_outcomes(content, label)
        return
    readings, undecodable = decodings(content, encoding, label)
    if len(readings) == 1:
        for item in _text_outcomes(readings[0].text, label):
            if isinstance(item, PgnError) and undecodable:  # detected, not given: say what else was tried
                item = _with_readings(item, readings[0].name, undecodable)
            yield item
        return
    attempts = []
    for reading in readings:
        items = list(_text_outcomes(reading.text, label))
        failed = [index for index, item in enumerate(items) if isinstance(item, PgnError)]
        if not failed:
            yield from items
            return
        first = items[failed[0]]
        assert isinstance(first, PgnError)
        progress = sum(len(item.moves) for item in items[:failed[0]] if isinstance(item, Game))
        attempts.append((progress + 2 * (first.move_number or 0), reading, items, first))
    _, best, items, _ = max(attempts, key=lambda attempt: attempt[0])
    others = [f"{reading.name} ({_what_failed(first)})" for _, reading, _, first in attempts if reading is not best]
    for item in items:
        yield _with_readings(item, best.name, others + undecodable) if isinstance(item, PgnError) else item

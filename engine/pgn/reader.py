"""Reading PGN: the text split into tokens, the tokens into games, each game's moves and variations
replayed, and the encoding under which the moves read.

What does not read is recorded on its game (``Game.errors``) and the reading goes on, as python-chess
reads chess PGN: a line (the main line or a variation) stops before a move that does not read or is not
legal, and its later moves and variations are passed over; a broken variation leaves the line around it
whole; a malformed tag is passed over to the end of its line, a stray ``]`` or ``)`` is passed over, and a
comment never closed ends the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Tuple, Union

from ..errors import IllegalMoveError, InvalidFenError
from ..notation import parse_move
from ..position import Position
from ..squares import is_iccs
from .game import Game, PgnError, Variation, variation_place
from .source import decodings
from .xboard import VARIANT, is_xiangqi


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Token:
    """A lexical unit of PGN.

    ``kind`` is one of ``tag`` (``text`` = name, ``value`` = value),
    ``comment``, ``open``, ``close``, ``nag``, ``result``, ``symbol``, or
    ``error`` (``text`` = what is wrong: text that is no token, passed over).
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


def _tokens(text: str) -> Iterator[_Token]:
    """Split PGN text (newlines already normalised to ``\\n``) into tokens; text that is no token gives an
    ``error`` token and is passed over (a malformed tag to the end of its line; a comment never closed
    ends the text)."""
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
                yield _Token("error", "a comment '{' is never closed with '}'", line)
                return
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
                end = n if end < 0 else end
                yield _Token("error", f"malformed tag {text[i:end]!r}: expected [Name \"value\"]", line)
                i = end
                continue
            name = match.group(1)
            if match.re is _TAG_RE:
                value = _TAG_ESCAPE_RE.sub(r"\1", match.group(2))
            else:
                value = match.group(2) if match.group(2) is not None else match.group(3)
            yield _Token("tag", name, line, value.strip())
            i = match.end()
            continue
        if ch == "]":
            yield _Token("error", "a ']' outside a tag", line)
            i += 1
            continue
        if ch == "}":                       # not a word's end: a word would be empty and never advance
            yield _Token("error", "a '}' outside a comment", line)
            i += 1
            continue
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
    """The tokens of one game, split into tags and movetext, and the text in it that is no token."""

    tags: List[_Token] = field(default_factory=list)
    movetext: List[_Token] = field(default_factory=list)
    errors: List[_Token] = field(default_factory=list)

    def has_content(self) -> bool:
        return (bool(self.tags) or bool(self.errors)
                or any(t.kind in ("symbol", "result") for t in self.movetext))


def _split_games(text: str) -> Iterator[_RawGame]:
    """Group the tokens of ``text`` into games.

    A game ends with a result token outside variations, or where a tag
    follows movetext.  Stray comments between games are dropped.
    """
    current, depth = _RawGame(), 0
    for token in _tokens(text):
        if token.kind == "error":
            current.errors.append(token)
            continue
        if token.kind == "tag" and current.movetext:
            if any(t.kind in ("symbol", "result") for t in current.movetext):
                yield current
                current, depth = _RawGame(), 0
            elif not current.tags:  # stray comments between games
                current = _RawGame(errors=current.errors)
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


@dataclass
class _Line:
    """A line being read: the game's main line or a variation (``line``), the position after its moves so
    far, how messages name it, and, for a variation, the list it is in (``home[0][home[1]]``)."""

    line: Union[Game, Variation]
    position: Position
    where: str = ""
    home: Optional[Tuple[Dict[int, List[Variation]], int]] = None
    opened: int = 0              # the text line of its '('
    broken: bool = False         # a move did not read: the rest of the line is passed over
    before: Optional[str] = None  # a comment before a variation's first move


class _Movetext:
    """Reads a game's movetext into its main line, comments and variations, recording what does not read
    on the game and going on (see the module's docstring)."""

    def __init__(self, game: Game, position: Position, error: Callable[..., PgnError]) -> None:
        self.game = game
        self.lines = [_Line(game, position)]
        self.error = error          # (reason, line, move number, side, token) -> the game's PgnError
        self.passing = 0            # the depth of parentheses being passed over
        self.result: Optional[str] = None

    def read(self, tokens: List[_Token]) -> None:
        for token in tokens:
            if self.passing:
                self.passing += {"open": 1, "close": -1}.get(token.kind, 0)
                continue
            current = self.lines[-1]
            if token.kind == "open":
                self._open(current, token)
            elif token.kind == "close":
                self._close(token)
            elif token.kind == "result":
                if len(self.lines) == 1:
                    self.result = token.text
            elif token.kind == "comment" and not current.broken:
                self._comment(current, token.text)
            elif token.kind == "symbol" and not current.broken:
                text = _move_text(token.text)
                if text is not None:
                    self._move(current, text, token)
        if len(self.lines) > 1:
            self.game.errors.append(self.error("a variation '(' is never closed with ')'", self.lines[1].opened))
            while len(self.lines) > 1:
                self._end_variation(self.lines.pop())

    def _move(self, current: _Line, text: str, token: _Token) -> None:
        position = current.position
        move_number, side = position.fullmove_number, str(position.turn)
        try:
            move = parse_move(position, text)
            position.push(move)
        except IllegalMoveError as exc:
            reason = str(exc)
            if not position.legal_moves():  # records that go on after a mate say so
                how = "checkmated" if position.is_check() else "stalemated"
                reason = f"the game is already over: {side.capitalize()} is {how} and has no move ({reason})"
            if current.where:
                reason += f" ({current.where})"
            self.game.errors.append(self.error(reason, token.line, move_number, side, token.text))
            current.broken = True
            return
        current.line.moves.append(move)
        current.line.comments.append(current.before)
        current.before = None

    def _comment(self, current: _Line, text: str) -> None:
        line = current.line
        if line.moves:
            line.comments[-1] = _join_comment(line.comments[-1], text)
        elif isinstance(line, Game):
            line.start_comment = _join_comment(line.start_comment, text)
        else:   # a variation has no comment before its first move: it becomes that move's
            current.before = _join_comment(current.before, text)

    def _open(self, current: _Line, token: _Token) -> None:
        """A '(': a variation of the line's last move, played from the position before it; of a
        variation's first move, a line beside that variation. A broken line's variations are passed over,
        as is a variation before any move."""
        if current.broken or not current.line.moves:
            if not current.broken:
                self.game.errors.append(self.error("a variation '(' before any move it could be played instead "
                                                   "of", token.line))
            self.passing = 1
            return
        position = current.position.copy()
        position.pop()
        if current.home is not None and len(current.line.moves) == 1:
            home, where = current.home, current.where
        else:
            home = (current.line.variations, len(current.line.moves) - 1)
            where = variation_place(position, current.where)
        variation = Variation()
        home[0].setdefault(home[1], []).append(variation)
        self.lines.append(_Line(variation, position, where, home, token.line))

    def _close(self, token: _Token) -> None:
        if len(self.lines) == 1:
            self.game.errors.append(self.error("')' closes a variation that was never opened", token.line))
            return
        self._end_variation(self.lines.pop())

    @staticmethod
    def _end_variation(ended: _Line) -> None:
        """A variation without a move (none read) is dropped."""
        if ended.line.moves or ended.home is None:
            return
        variations, key = ended.home
        others = [line for line in variations[key] if line is not ended.line]
        if others:
            variations[key] = others
        else:
            del variations[key]


def _build_game(raw: _RawGame, number: int, source: Optional[str]) -> Game:
    """Turn the tokens of one game into a :class:`Game`, replaying every move; what does not read is in
    its ``errors``, the text that is no token first."""
    headers: dict[str, str] = {}
    for tag in raw.tags:
        headers[tag.text] = tag.value
    event = headers.get("Event")
    first_line = (raw.tags or raw.movetext or raw.errors)[0].line

    def error(reason: str, line: int, move_number: Optional[int] = None,
              side: Optional[str] = None, token: Optional[str] = None) -> PgnError:
        return PgnError(reason, source=source, game_number=number, event=event, line=line,
                        move_number=move_number, side=side, token=token)

    game = Game(headers=headers, number=number, errors=[error(t.text, t.line) for t in raw.errors])
    variant = headers.get("Variant", "").strip()
    if variant and not is_xiangqi(variant):  # an XBoard file of chess or another game
        line = next(t.line for t in raw.tags if t.text == "Variant")
        game.errors.append(error(f'[Variant "{variant}"]: not a Xiangqi game (expected "{VARIANT}")', line))
        return game
    fen = game.starting_fen()
    try:
        position = Position(fen)
    except InvalidFenError as exc:
        line = next((t.line for t in raw.tags if t.text == "FEN"), first_line)
        game.errors.append(error(f"invalid FEN tag {fen!r}: {exc}", line))
        return game
    movetext = _Movetext(game, position, error)
    movetext.read(raw.movetext)

    tag_result = headers.get("Result", "").strip()
    tag_result = _RESULT_ALIASES.get(tag_result, "")
    if movetext.result is not None and movetext.result != "*":
        game.result = movetext.result
    elif tag_result:
        game.result = tag_result
    else:
        game.result = movetext.result or "*"
    return game


def _text_games(text: str, label: Optional[str]) -> Iterator[Game]:
    """Each game of PGN text, with what of it does not read in its ``errors``."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for number, raw in enumerate(_split_games(text), start=1):
        yield _build_game(raw, number, label)


def _what_failed(error: PgnError) -> str:
    """A short account of why a reading failed, for the list of readings tried."""
    if error.move_number is None or error.token is None:
        return error.reason
    return f"game {error.game_number}, move {error.move_number} {error.token!r} does not read"


def _with_readings(game: Game, name: str, others: List[str]) -> Game:
    """``game`` with the encoding it was read in, and the others tried, added to its errors' reasons."""
    note = f" [read as {name}" + (f"; also tried: {'; '.join(others)}]" if others else "]")
    game.errors = [PgnError(error.reason + note, source=error.source, game_number=error.game_number,
                            event=error.event, line=error.line, move_number=error.move_number, side=error.side,
                            token=error.token) for error in game.errors]
    return game


def games_of(content: Union[str, bytes], label: Optional[str], encoding: Optional[str]) -> Iterator[Game]:
    """Each game of a PGN source's content, with what of it does not read in its ``errors`` (see
    :mod:`.formats`).

    Bytes are decoded with ``encoding`` when given, else as :func:`.source.decodings` proposes: when
    several readings are possible, the first under which every game reads whole is taken; failing that,
    the one that got furthest (the moves read before its first error), whose errors then name every
    encoding tried. Text and a single reading are read lazily, game by game.
    """
    if isinstance(content, str):
        yield from _text_games(content, label)
        return
    readings, undecodable = decodings(content, encoding, label)
    if len(readings) == 1:
        for game in _text_games(readings[0].text, label):
            if game.errors and undecodable:  # detected, not given: say what else was tried
                game = _with_readings(game, readings[0].name, undecodable)
            yield game
        return
    attempts = []
    for reading in readings:
        games = list(_text_games(reading.text, label))
        failed = next((index for index, game in enumerate(games) if game.errors), None)
        if failed is None:
            yield from games
            return
        first = games[failed].errors[0]
        progress = sum(len(game.moves) for game in games[:failed])
        attempts.append((progress + 2 * (first.move_number or 0), reading, games, first))
    _, best, games, _ = max(attempts, key=lambda attempt: attempt[0])
    others = [f"{reading.name} ({_what_failed(first)})" for _, reading, _, first in attempts if reading is not best]
    for game in games:
        yield _with_readings(game, best.name, others + undecodable) if game.errors else game

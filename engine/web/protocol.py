"""What the page may send over its WebSocket, checked whole before anything is done.

A request is one JSON object ``{"type": ..., field: value, ...}`` in a text frame. Each type has its fields,
each field a kind with its bounds (text of at most so many characters, a whole number in a range, one of a
few words, a flag, a list of moves); a field the type does not have, a missing required field, a value of
the wrong kind or out of its bounds refuses the whole request with a BadRequest that says which and why.
The sizes are bounded before the JSON is parsed: a request beyond MAX_MESSAGE_CHARS is refused as it is, and
the server (engine.web.cli) closes a connection whose frame is beyond MAX_FRAME_BYTES without reading it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Union

from ..notation import NOTATIONS
from ..server.strength import FULL_STRENGTH
from .game import MAX_LISTED_GAMES, MAX_UPLOAD_BYTES

#: A request longer than this is refused with a message: a PGN file (base64) and a little more.
MAX_MESSAGE_CHARS = MAX_UPLOAD_BYTES * 4 // 3 + 4096
#: A frame larger than this (bytes) is not read at all: the server closes the connection (WebSocket code
#: 1009, "message too big"). Room for a request of MAX_MESSAGE_CHARS and the UTF-8 of some Chinese text.
MAX_FRAME_BYTES = 2 * MAX_MESSAGE_CHARS
#: Frames received but not yet served, per tab: beyond, the server stops reading the tab's connection (the
#: sender waits), so that a flood holds at most this many frames in memory.
MAX_QUEUED_FRAMES = 8
#: Bounds of the fields: one move in any notation, a FEN, the moves of a clicked analysis line.
MAX_MOVE_CHARS = 32
MAX_FEN_CHARS = 256
MAX_LINE_MOVES = 256
#: The longest game a position can hold (engine.pgn's record): a bound for the plies of `truncate`.
MAX_PLIES = 4096
#: The limits the page may choose within (ms per move, analysis lines).
MOVETIME_RANGE = (50, 60_000)
MULTIPV_RANGE = (1, 5)
#: At most this much of a value the page sent is quoted back in a message.
QUOTED_CHARS = 40


class BadRequest(ValueError):
    """The request cannot be used as it is; the message says why, for a person (and for a fuzzer)."""


def quoted(value: Any) -> str:
    """`value` as the page would recognise it, cut to QUOTED_CHARS: a message never echoes a whole upload."""
    if isinstance(value, str):
        text = repr(value[:QUOTED_CHARS + 1])              # repr: a control or lone surrogate is escaped
    elif value is None or isinstance(value, (bool, int, float)):
        text = json.dumps(value)
    else:
        text = "a list" if isinstance(value, list) else "an object"
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "…"


# -- the kinds of field ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Text:
    max_chars: int

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str):
            raise BadRequest(f"{name} must be text, not {quoted(value)}")
        if len(value) > self.max_chars:
            raise BadRequest(f"{name} is too long ({len(value)} characters; at most {self.max_chars})")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BadRequest(f"{name} is not text: it holds a lone surrogate (\\ud800-\\udfff)") from None
        return value


@dataclass(frozen=True)
class Whole:
    low: int
    high: int

    def check(self, name: str, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadRequest(f"{name} must be a whole number, not {quoted(value)}")
        if not self.low <= value <= self.high:
            raise BadRequest(f"{name} must be from {self.low} to {self.high}, not {quoted(value)}")
        return value


@dataclass(frozen=True)
class Choice:
    words: tuple[str, ...]

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or value not in self.words:
            raise BadRequest(f"{name} must be one of {', '.join(self.words)}, not {quoted(value)}")
        return value


@dataclass(frozen=True)
class Flag:
    def check(self, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise BadRequest(f"{name} must be true or false, not {quoted(value)}")
        return value


@dataclass(frozen=True)
class Moves:
    max_moves: int

    def check(self, name: str, value: Any) -> list[str]:
        if not isinstance(value, list):
            raise BadRequest(f"{name} must be a list of moves, not {quoted(value)}")
        if len(value) > self.max_moves:
            raise BadRequest(f"{name} has too many moves ({len(value)}; at most {self.max_moves})")
        return [Text(MAX_MOVE_CHARS).check(f"{name}[{i}]", move) for i, move in enumerate(value)]


Kind = Union[Text, Whole, Choice, Flag, Moves]


@dataclass(frozen=True)
class RequestType:
    """The fields a request of one type may have, and those it must have."""

    fields: Mapping[str, Kind] = field(default_factory=dict)
    required: frozenset = frozenset()


SETTINGS = {
    "mode": Choice(("play", "analyse", "free")),
    "engine_color": Choice(("red", "black")),
    "level": Whole(0, FULL_STRENGTH),
    "movetime": Whole(*MOVETIME_RANGE),
    "analysis_ms": Whole(*MOVETIME_RANGE),
    "multipv": Whole(*MULTIPV_RANGE),
}
REQUESTS: dict[str, RequestType] = {
    "hello": RequestType(SETTINGS),
    "settings": RequestType(SETTINGS),
    "move": RequestType({"move": Text(MAX_MOVE_CHARS)}, frozenset({"move"})),
    "play_line": RequestType({"moves": Moves(MAX_LINE_MOVES)}, frozenset({"moves"})),
    "undo": RequestType(),
    "new": RequestType({"fen": Text(MAX_FEN_CHARS)}),
    "load_text": RequestType({"text": Text(MAX_UPLOAD_BYTES)}, frozenset({"text"})),
    "load_pgn": RequestType({"data": Text(MAX_MESSAGE_CHARS)}, frozenset({"data"})),
    "choose": RequestType({"index": Whole(0, MAX_LISTED_GAMES - 1)}, frozenset({"index"})),
    "truncate": RequestType({"plies": Whole(0, MAX_PLIES)}, frozenset({"plies"})),
    "engine_move": RequestType(),
    "review": RequestType(),
    "save_pgn": RequestType({"notation": Choice(NOTATIONS)}),
    "save_svg": RequestType({"flip": Flag()}),
    "tablebase": RequestType({"fen": Text(MAX_FEN_CHARS)}, frozenset({"fen"})),
}


# -- reading a frame ---------------------------------------------------------------------------------------
def _no_constant(word: str) -> None:
    raise BadRequest(f"the request is not JSON the page sends ({word} is not a number)")


def decode(text: Optional[str], data: Optional[bytes] = None) -> dict:
    """The checked request of one WebSocket frame (text, or bytes for a binary frame): a dict with its
    `type` and only the fields that type has, each of its kind. Raises BadRequest."""
    if text is None:
        size = len(data or b"")
        raise BadRequest(f"a binary frame ({size} bytes) is not a request: the page sends JSON text")
    if len(text) > MAX_MESSAGE_CHARS:
        raise BadRequest(f"the request is too large ({len(text)} characters; at most {MAX_MESSAGE_CHARS}: a "
                         f"file of at most {MAX_UPLOAD_BYTES} bytes)")
    try:
        message = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadRequest("the request is nested too deeply to be one the page sends") from None
    except ValueError as exc:
        if isinstance(exc, BadRequest):
            raise
        raise BadRequest(f"the request is malformed: not JSON ({exc})") from None
    return checked(message)


def checked(message: Any) -> dict:
    """`message` (JSON already read) checked against its type's fields."""
    if not isinstance(message, dict):
        raise BadRequest(f"the request is malformed: a JSON object with a type is expected, not "
                         f"{type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        raise BadRequest(f"unknown request type {quoted(kind)}: one of {', '.join(REQUESTS)}")
    spec = REQUESTS[kind]
    unknown = [name for name in message if name != "type" and name not in spec.fields]
    if unknown:
        raise BadRequest(f"{kind}: unknown field {quoted(unknown[0])}" +
                         (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))
    missing = sorted(spec.required - set(message))
    if missing:
        raise BadRequest(f"{kind}: the field {missing[0]} is missing")
    return {"type": kind, **{name: spec.fields[name].check(f"{kind}: {name}", value)
                             for name, value in message.items() if name != "type"}}

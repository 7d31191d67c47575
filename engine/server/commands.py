"""Parsing shared by the protocol dialects: tokens to values, with messages that say what was wrong.

Every parser here raises CommandError (a ValueError) for malformed input; the protocol answers it with
`info string <message>` and ignores the whole command.
"""
from __future__ import annotations

import math
from typing import NamedTuple, Optional, Sequence

from ..squares import move_name, parse_iccs

#: Largest value accepted for a count (depth, nodes, ...); larger numbers are clamped by their users.
BIG = 10**18


class CommandError(ValueError):
    """A malformed or unacceptable command. The message is meant for the user."""


def quote(text: str, limit: int = 40) -> str:
    """`text` shortened to `limit` characters and made printable ASCII, in quotes, for messages."""
    short = text if len(text) <= limit else text[:limit] + "..."
    return ascii(short)


def parse_int(text: str, what: str, minimum: Optional[int] = None, maximum: Optional[int] = None) -> int:
    """A whole number in [minimum, maximum]."""
    try:
        if len(text) > 40:
            raise ValueError
        value = int(text, 10)
    except ValueError:
        raise CommandError(f"{what} must be a whole number, not {quote(text)}") from None
    if minimum is not None and value < minimum:
        raise CommandError(f"{what} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise CommandError(f"{what} must be at most {maximum}, not {value}")
    return value


def parse_number(text: str, what: str) -> float:
    """A finite decimal number (for times, which UCCI may send in seconds)."""
    try:
        if len(text) > 40:
            raise ValueError
        value = float(text)
    except ValueError:
        raise CommandError(f"{what} must be a number, not {quote(text)}") from None
    if not math.isfinite(value):
        raise CommandError(f"{what} must be a finite number, not {quote(text)}")
    return value


_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")


def parse_bool(text: str, what: str) -> bool:
    """true/false (also on/off, yes/no, 1/0), case-insensitive."""
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise CommandError(f"{what} must be true or false, not {quote(text)}")


def parse_moves(words: Sequence[str], what: str) -> tuple[str, ...]:
    """ICCS moves in canonical form ("h2e2"; "H2-E2" accepted). Legality is checked by their user."""
    moves = []
    for word in words:
        squares = parse_iccs(word.strip())
        if squares is None:
            raise CommandError(f"{what}: {quote(word)} is not a move (expected ICCS such as h2e2)")
        moves.append(move_name(*squares))
    return tuple(moves)


class SetOptionCommand(NamedTuple):
    """`setoption name N [value V]` (UCI) or `setoption N [V]` (UCCI): value None when none is given."""

    name: str
    value: Optional[str]


def parse_setoption(words: Sequence[str], usage: str) -> SetOptionCommand:
    """Parse the arguments of `setoption` in either dialect's form: `name <words...> [value <words...>]`
    (UCI: names and values may hold spaces), else `<name> [<value words...>]` (UCCI). `usage` is the
    message for a command without a name."""
    words = list(words)
    if not words:
        raise CommandError(usage)
    if words[0] == "name":
        if "value" in words:
            cut = words.index("value")
            return SetOptionCommand(" ".join(words[1:cut]), " ".join(words[cut + 1:]))
        return SetOptionCommand(" ".join(words[1:]), None)
    return SetOptionCommand(words[0], " ".join(words[1:]) if len(words) > 1 else None)


class PositionCommand(NamedTuple):
    """`position {startpos | fen F} [moves ...]`: fen None means the start position."""

    fen: Optional[str]
    moves: tuple[str, ...]


def parse_position(words: Sequence[str]) -> PositionCommand:
    """Parse the arguments of `position` (also a bare `fen ...`/`startpos ...` line, cyclone style).

    `words` starts with `startpos` or `fen`; the FEN runs up to `moves` (its counters are optional).
    """
    if not words:
        raise CommandError("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
    if "moves" in words:
        cut = list(words).index("moves")
        head, tail = list(words[:cut]), list(words[cut + 1:])
    else:
        head, tail = list(words), []
    kind = head[0]
    if kind == "startpos":
        if len(head) > 1:
            raise CommandError(f"unexpected {quote(head[1])} after 'startpos' (expected 'moves')")
        fen = None
    elif kind == "fen":
        if len(head) < 2:
            raise CommandError("'fen' must be followed by a FEN such as "
                               "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        fen = " ".join(head[1:])
    else:
        raise CommandError(f"position needs 'startpos' or 'fen <FEN>', not {quote(kind)}")
    return PositionCommand(fen, parse_moves(tail, "position moves"))

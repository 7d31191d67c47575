"""CECP (the XBoard protocol, version 2) from the interface's side of the wire: the engine's lines read into
values, and the time-control commands written. Pure functions, tested on their own; the conversation is
:mod:`.cecp`'s. (The engine's side of the same protocol is engine.server.cecp_codec; the scores, which both
sides need, are engine.wire.cecp's.)

    parse_features('feature ping=1 myname="MaxQi 4.8G" done=0')
                                            # [('ping', '1'), ('myname', 'MaxQi 4.8G'), ('done', '0')]
    parse_thinking("9 21 41 2210454 14 536000 0\\th9g7 h0g2")
                                            # Thinking(9, Score(21), 410.0 ms, 2210454, 14, 536000, 'h9g7 h0g2')
    parse_claim("0-1 {Black mates}")                               # ('0-1', 'Black mates')
    level_line(moves=0, base_ms=10_000, increment_ms=100)          # 'level 0 0:10 0.1'

Units at the wire (engine-intf.html, sections 8 and 10): `time`/`otim` and the thinking output's time in
centiseconds, `st` and the `level` increment in seconds, the `level` base in minutes or `min:sec`.
Scores are centipawns from the engine's side, a mate in N moves ±(100000 + N).
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from ..score import Score
from ..wire.cecp import xboard_to_score

_FEATURE = re.compile(r'([A-Za-z_][\w-]*)=(?:"([^"]*)"|(\S*))')
# ply score time nodes, then (before a tab) seldepth nps tbhits; XBoard lets the ply end in '.' or '&'.
_THINKING = re.compile(r"^\s*(-?\d+)[.&]?\s+(-?\d+)\s+(-?\d+)\s+(\d+)(?:\s+|$)")
_RESULT = re.compile(r"^(1-0|0-1|1/2-1/2|\*)(?:\s+\{(.*?)\}?)?\s*$")
_MOVE_LINE = re.compile(r"^(?:move\s+|my\s+move\s+is\s*:\s*)(\S+)", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"^\d+\.+$|^\.\.\.$")

#: The features this interface uses (and so accepts); every other one is answered `rejected`.
ACCEPTED_FEATURES = frozenset({
    "ping", "setboard", "usermove", "time", "draw", "sigint", "sigterm", "reuse", "analyze", "myname",
    "variants", "colors", "ics", "name", "memory", "smp", "option", "done", "debug", "myversion",
})


def parse_features(line: str) -> list[tuple[str, str]]:
    """The `name=value` pairs of a `feature` line, in order (a value in quotes may hold spaces)."""
    _, _, rest = line.partition("feature")
    return [(m.group(1), m.group(2) if m.group(2) is not None else m.group(3)) for m in _FEATURE.finditer(rest)]


class Thinking(NamedTuple):
    """One line of thinking output, its PV still in the engine's notation."""

    depth: int
    score: Score
    time_ms: float
    nodes: int
    seldepth: Optional[int]
    nps: Optional[int]
    pv: str
    tbhits: Optional[int] = None


def parse_thinking(line: str) -> Optional[Thinking]:
    """``ply score time nodes [seldepth nps tbhits]<TAB>pv`` (the extra numbers only before a tab, as XBoard
    reads them), or ``ply score time nodes pv`` (MaxQi, Sjaak II). None for other lines and for a ply below 1
    (MaxQi's preliminary lines)."""
    m = _THINKING.match(line)
    if m is None:
        return None
    depth, score, centis, nodes = (int(g) for g in m.groups())
    if depth < 1:
        return None
    rest = line[m.end():]
    seldepth = nps = tbhits = None
    if "\t" in line:
        head, _, pv = rest.partition("\t")
        extra = head.split()
        if all(word.lstrip("-").isdigit() for word in extra):
            seldepth = int(extra[0]) if extra else None
            nps = int(extra[1]) if len(extra) > 1 else None
            tbhits = int(extra[2]) if len(extra) > 2 else None
        else:
            pv = rest
    else:
        pv = rest
    return Thinking(depth, xboard_to_score(score), max(0, centis) * 10.0, nodes, seldepth, nps, pv.strip(),
                    tbhits)


def pv_tokens(text: str) -> list[str]:
    """The moves of a thinking line's PV, without move numbers (``1.``, ``2...``, ``...``); stops at the first
    word that is not a move's (``{``, ``(``, ``<``, a result)."""
    tokens = []
    for word in text.split():
        if _MOVE_NUMBER.match(word):
            continue
        if word[:1] in "{(<[" or _RESULT.match(word):
            break
        tokens.append(word)
    return tokens


def parse_claim(line: str) -> Optional[tuple[str, str]]:
    """(result, comment) of a result line, ``1-0 {White mates}``; None for other lines. ``*`` (an aborted
    game) is not a claim of a result and is not returned."""
    m = _RESULT.match(line.strip())
    if m is None or m.group(1) == "*":
        return None
    return m.group(1), (m.group(2) or "").strip()


def parse_move_line(line: str) -> Optional[str]:
    """The move of ``move h9g7`` (or protocol 1's ``My move is: h9g7``), else None."""
    m = _MOVE_LINE.match(line.strip())
    return None if m is None else m.group(1)


def is_refusal(line: str, sent: str) -> bool:
    """Whether `line` refuses the move command `sent` (``usermove h2e2`` or ``h2e2``): ``Illegal move: h2e2``
    (MaxQi writes ``Illegal move:h2e2``, some engines put a reason in parentheses; without a colon it names
    no move and refuses the last one), or an ``Error (...): [usermove] h2e2`` naming it (Sjaak II)."""
    text = line.strip()
    move = sent.split()[-1] if sent.split() else sent
    named = text.rsplit(":", 1)[-1].split()[-1:] if ":" in text else []
    if text.lower().startswith("illegal move"):
        return not named or named == [move]
    return text.startswith("Error") and named == [move]


def _seconds(seconds: float) -> str:
    """Seconds as written in `st` and the level's increment: ``1``, ``0.1``, ``2.5``."""
    return f"{round(seconds, 3):g}"


def level_line(moves: int, base_ms: float, increment_ms: float) -> str:
    """``level MPS BASE INC``: `moves` per session (0: all the game), the base in whole minutes or
    ``min:sec`` (whole seconds, at least 1), the increment in seconds."""
    base_s = max(1, int(round(base_ms / 1000)))
    minutes, seconds = divmod(base_s, 60)
    base = f"{minutes}:{seconds:02d}" if seconds else str(minutes)
    return f"level {max(0, int(moves))} {base} {_seconds(max(0.0, increment_ms) / 1000)}"


def st_line(movetime_ms: float) -> str:
    """``st SECONDS``: this long a move, in whole seconds (engines read an integer), at least 1."""
    return f"st {max(1, int(round(movetime_ms / 1000)))}"


def centiseconds(ms: float) -> int:
    """A clock reading for `time`/`otim`, never negative."""
    return max(0, int(ms // 10))


def quote_option(name: str, value: str, kind: str) -> str:
    """The `option` command of a declared option: ``option NAME=VALUE``, a check as 1/0, a button bare."""
    if kind == "button":
        return f"option {name}"
    if kind == "check":
        value = "1" if value == "true" else "0"
    return f"option {name}={value}"

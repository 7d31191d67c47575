"""CECP (the xboard protocol) on the wire: its arguments read into values, and its output lines.

Pure functions, no engine and no state, so that every unit conversion is tested on its own:

    parse_level(["40", "5", "0"])        # TimeControl(moves=40, base_ms=300000.0, increment_ms=0.0)
    parse_level(["0", "0:30", "0.3"])    # 30 s sudden death plus 0.3 s a move
    clock_limits(control, own_cs=2950, opp_cs=3000, moves_made=12)   # -> SearchLimits in ms
    format_thinking(info)                # '9 21 41 2210454 14 536000 0\th9g7 h0g2 i9h9'

Units at the wire (engine-intf.html, section 11): `time`/`otim` in centiseconds, `st` and the
`level` increment in seconds, the `level` base in minutes or `min:sec`; SearchLimits is in ms.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

from ..outcome import Outcome, Termination
from ..search_types import PvLine, SearchLimits
from ..wire.cecp import xboard_score
from .commands import CommandError, parse_int, parse_number, quote
from .options import EngineOption

#: XBoard's defaults when no `level` has been sent: 40 moves in 5 minutes.
DEFAULT_MOVES, DEFAULT_BASE_MS = 40, 300_000.0

_BASE = re.compile(r"^(\d+(?:\.\d*)?)(?::(\d+(?:\.\d*)?))?")


@dataclass(frozen=True)
class TimeControl:
    """`level MPS BASE INC`: `moves` per session (0: the whole game), the time of a session and the
    increment, in ms."""

    moves: int = DEFAULT_MOVES
    base_ms: float = DEFAULT_BASE_MS
    increment_ms: float = 0.0


def parse_base(text: str) -> float:
    """The BASE of `level` in ms: minutes ("5", "0.5") or minutes:seconds ("0:30", "1:30"). Characters
    after the number are ignored, as the protocol asks ("25+5" is 25 minutes)."""
    match = _BASE.match(text)
    if match is None:
        raise CommandError(f"level base must be minutes or min:sec, not {quote(text)}")
    minutes = float(match.group(1))
    seconds = float(match.group(2)) if match.group(2) is not None else 0.0
    return (minutes * 60.0 + seconds) * 1000.0


def parse_level(args: Sequence[str]) -> TimeControl:
    """`level MPS BASE INC` (INC in seconds, may be fractional: XBoard sends `level 0 0:10 0.1`)."""
    if len(args) != 3:
        raise CommandError("level needs 3 values: moves per session, base (min or min:sec), increment (s)")
    moves = parse_int(args[0], "level moves per session", 0, 10_000)
    base_ms = parse_base(args[1])
    increment = parse_number(args[2], "level increment")
    if increment < 0:
        raise CommandError(f"level increment must not be negative, not {args[2]}")
    return TimeControl(moves, base_ms, increment * 1000.0)


def parse_seconds(text: str, what: str) -> float:
    """A positive number of seconds (`st`), in ms."""
    seconds = parse_number(text, what)
    if seconds <= 0:
        raise CommandError(f"{what} must be more than 0 seconds, not {text}")
    return seconds * 1000.0


def parse_centiseconds(text: str, what: str) -> float:
    """A clock reading of `time`/`otim` in centiseconds, in ms. A clock that has run out may be
    negative: it reads as 0."""
    value = parse_number(text, what)
    return max(0.0, value) * 10.0


def moves_to_go(control: TimeControl, moves_made: int) -> Optional[int]:
    """Moves until the next session's time is added, counting this one: `MPS - made % MPS`, where
    `made` is the number of moves the side to move has made in the game. None without sessions."""
    if control.moves <= 0:
        return None
    return control.moves - moves_made % control.moves


def clock_limits(control: TimeControl, own_ms: Optional[float], opp_ms: Optional[float], moves_made: int,
                 st_ms: Optional[float] = None, depth: Optional[int] = None) -> SearchLimits:
    """The limits of the engine's search for its move. `st` (an exact time a move) wins over the
    clock; without a `time` reading the clock is the session's base. `sd` is a depth cap on top."""
    if st_ms is not None:
        return SearchLimits(movetime=st_ms, depth=depth)
    own = control.base_ms if own_ms is None else own_ms
    opp = control.base_ms if opp_ms is None else opp_ms
    increment = control.increment_ms or None
    return SearchLimits(
        time=own, increment=increment, movestogo=moves_to_go(control, moves_made),
        opp_time=opp, opp_increment=increment, depth=depth,
    )


def parse_option_assignment(args: Sequence[str]) -> tuple[str, Optional[str]]:
    """`option NAME=VALUE` (or `option NAME` for a button): the name and the value (None if absent)."""
    text = " ".join(args)
    if not text:
        raise CommandError("option needs NAME=VALUE, e.g. option MultiPV=2")
    name, sep, value = text.partition("=")
    return name.strip(), (value.strip() if sep else None)


# -- output ------------------------------------------------------------------------------------
def format_thinking(info: PvLine, prefix: Sequence[str] = ()) -> str:
    """`ply score time nodes seldepth nps tbhits<TAB>pv`, time in centiseconds. The three optional
    numbers are all given (XBoard reads the last number before the tab as tbhits, so seldepth and nps
    alone would be misread). `prefix`: moves put before the PV (the predicted move when pondering)."""
    pv = " ".join((*prefix, *info.pv))
    return (f"{info.depth} {xboard_score(info.score)} {info.time_ms // 10} {info.nodes} "
            f"{info.seldepth} {info.nps} {info.tbhits or 0}\t{pv}")


def format_stat01(elapsed_ms: float, info: Optional[PvLine], legal_moves: int) -> str:
    """The answer to `.` in analysis: `stat01: time nodes ply mvleft mvtot` (time in centiseconds),
    from the last completed iteration (the kernel reports only those), so `mvleft` is 0."""
    nodes = info.nodes if info is not None else 0
    depth = info.depth if info is not None else 0
    return f"stat01: {max(0, int(elapsed_ms // 10))} {nodes} {depth} 0 {legal_moves}"


def format_result(outcome: Outcome) -> str:
    """`1-0 {...}`, `0-1 {...}` or `1/2-1/2 {...}`, Red being XBoard's White. The comment avoids the
    words XBoard reads in result comments ("resign", "Draw" is only read outside them)."""
    reason = outcome.reason
    if outcome.winner is None:
        return f"{outcome.result} {{{reason.words}}}"
    winner, loser = outcome.winner.label, outcome.winner.other.label
    if reason is Termination.CHECKMATE:
        text = f"{winner} mates"
    elif reason is Termination.STALEMATE:
        text = f"{winner} wins, {loser} cannot move"
    elif reason in (Termination.PERPETUAL_CHECK, Termination.PERPETUAL_CHASE):
        text = f"{winner} wins, {reason.words} by {loser}"
    else:
        text = f"{winner} wins by {reason.words}"
    return f"{outcome.result} {{{text}}}"


def option_feature(option: EngineOption) -> str:
    """The `feature option="NAME -TYPE ..."` line of an engine option (engine-intf.html, section 9),
    under its UCI name; a file name is CECP's type `file`."""
    name = option.name("cecp")
    if option.kind == "button":
        body = f"{name} -button"
    elif option.kind == "check":
        body = f"{name} -check {1 if option.default else 0}"
    elif option.kind == "spin":
        body = f"{name} -spin {option.default} {option.minimum} {option.maximum}"
    elif option.kind == "combo":
        choices = [f"*{c}" if c == option.default else c for c in option.choices]
        body = f"{name} -combo {' /// '.join(choices)}"
    else:
        body = f"{name} -{option.kind} {option.default or ''}"   # XBoard wants the value, even empty
    return f'feature option="{body}"'

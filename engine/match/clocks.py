"""The two clocks of a game (each engine its own time control, engine.match.timecontrol's Clock): what each
`go` sends, how long to wait for the move, and the time check after it.

The clocks are kept from the times the engines took as the client measured them (SearchResult.time_ms,
from the `go` to the `bestmove`), given to :meth:`GameClocks.punch`; nothing here reads the wall clock, so
a test gives the times it wants. Times are in ms where they come and go (SearchResult, SearchLimits),
in seconds inside (timecontrol's Clock and TimeControl).
"""
from __future__ import annotations

import math
from typing import Optional

from ..color import Color
from ..search_types import SearchLimits
from .record import ClockEntry
from .timecontrol import Clock, TimeControl

#: How much longer than its time (and the margin) the runner waits for a move before the engine is hung:
#: a move that comes late is judged by the clock (a time forfeit), not lost as a silence.
GRACE_S = 1.0


class GameClocks:
    """Red's and Black's clocks, each of its own time control. `margin` (seconds) is how far an engine
    may overrun its time before it forfeits; `stall_timeout` how long to wait for a move under a depth or
    node limit."""

    def __init__(self, red: TimeControl, black: TimeControl, margin: float, stall_timeout: float) -> None:
        self._clocks = (Clock(red), Clock(black))
        self.margin = margin
        self.stall_timeout = stall_timeout

    def control(self, side: Color) -> TimeControl:
        return self._clocks[side.index].tc

    def on_clock(self, side: Color) -> bool:
        """Whether `side` plays on a clock (stages), rather than a fixed time, depth or node count."""
        return bool(self.control(side).stages)

    def limits(self, side: Color) -> SearchLimits:
        """What `go` sends the side to move: its clock and its opponent's in ms (an opponent without a
        clock, at a depth or node count, sends none), a time per move, or a depth and node count."""
        tc = self.control(side)
        if tc.stages:
            own, opp = self._clocks[side.index], self._clocks[side.other.index]
            own_time, opp_time = _ms(own), _ms(opp)
            return SearchLimits(
                time=own_time, increment=own.increment() * 1000 if own_time is not None else None,
                opp_time=opp_time, opp_increment=opp.increment() * 1000 if opp_time is not None else None,
                movestogo=own.moves_to_go(),
            )
        if tc.movetime is not None:
            return SearchLimits(movetime=tc.movetime * 1000)
        return SearchLimits(depth=tc.depth, nodes=tc.nodes)

    def timeout(self, side: Color) -> float:
        """Seconds to wait for `side`'s move before its engine is declared hung."""
        tc = self.control(side)
        if tc.stages:
            return max(0.0, self._clocks[side.index].remaining) + self.margin + GRACE_S
        if tc.movetime is not None:
            return tc.movetime + self.margin + GRACE_S
        return self.stall_timeout

    def log_entry(self, side: Color, ply: int) -> ClockEntry:
        """What is sent with this `go`, for the record: remaining seconds (-1 without a clock), movestogo."""
        clock = self._clocks[side.index]
        return ply, side.value, clock.remaining if clock.tc.stages else -1.0, clock.moves_to_go()

    def punch(self, side: Color, elapsed_ms: float) -> Optional[str]:
        """Count a move of `side` that took `elapsed_ms` (SearchResult.time_ms); how it overran its time
        beyond the margin, in words, or None when it was in time (always, under a depth or node limit)."""
        clock = self._clocks[side.index]
        tc = clock.tc
        elapsed = elapsed_ms / 1000
        over = elapsed - clock.remaining
        clock.punch(elapsed)
        if tc.stages and over > self.margin:
            return f"lost on time ({over:.3f} s over)"
        if tc.movetime is not None and elapsed > tc.movetime + self.margin:
            return f"took {elapsed:.3f} s for a {tc.movetime:g} s move"
        return None


def _ms(clock: Clock) -> Optional[float]:
    """A clock's time left in ms, as sent (never below 0); None for no clock."""
    return None if math.isinf(clock.remaining) else max(0.0, clock.remaining) * 1000

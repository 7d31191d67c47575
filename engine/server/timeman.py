"""Time management: how long to think about one move. Pure arithmetic, no clock of its own.

:func:`allocate` turns a :class:`SearchLimits` into two limits counted from the start of the search:

- **soft**: no new iteration of iterative deepening starts after it (checked between iterations);
- **hard**: the search stops at once (polled inside the kernel), whatever it is doing.

Since the iteration running at the soft limit goes on until it completes or reaches the hard limit,
a move typically takes somewhat more than ``soft`` and never more than ``hard`` (plus the lag that
``Move Overhead`` stands for: process start-up, pipes, the GUI's own clock handling).

Forms of ``go`` (all times in ms, converted at the wire by each protocol):

- ``infinite`` (and no clock): ``(0, 0)``, no time limit; ``depth``/``nodes``/``mate`` alone likewise.
- ``movetime M``: both limits ``max(1, M - overhead)``.
- a clock (``time`` [``increment``] [``movestogo``]): the formulas below. ``depth``/``nodes`` given as
  well still apply, in the searcher.
- ``ponder``: the limits are the same as without it; the caller arms them at ``ponderhit``
  (``Searcher.set_deadlines``), because both UCI and UCCI send the clock as it will stand when the
  predicted move is played.

The opponent's clock (``opp_time``...) is not used.

Formulas (``T`` = remaining time, ``I`` = increment, ``O`` = move overhead, all ms):

1. Horizon ``H``, the number of moves the time is planned over: ``min(movestogo, 50)`` when the GUI
   sends moves to go (each stage of a multi-stage control, e.g. 40/5400 then 10/900: at the end of
   the stage the next stage's time is added, and unused time carries over); in sudden death
   (with or without increment) ``H = 40``, so each move takes about 1/40 of what is left and the
   clock decays geometrically instead of running out.
2. Reserve ``R`` (sudden death only): the clock kept back for the moves beyond the horizon, each of
   which costs at least the overhead not paid back by the increment:
   ``R = 100 * max(0, O + 1 - I)`` (1.1 s with a 10 ms overhead and no increment: nothing at 5 min,
   but at a 1/60 scale it is what lets a 5-second game last 150 moves and more).
   With moves to go the next stage refills the clock: ``R = 0``.
3. Budget for the next ``H`` moves: the clock plus the increments that arrive before the last of
   them, minus the overhead of each of them (this one included) and the reserve:
   ``B = T + I * (H - 1) - O * (H + 1) - R``.
   When ``B`` is smaller, the clock is down to the reserve and only a thin slice of it is used,
   so that it decays slowly while the lags eat it: ``B' = 0.25 * (T - O) * H / (H + 100)``.
4. Base time per move: ``base = max(B, B') / H``; ``soft = 0.8 * base`` (an iteration that starts
   just before the soft limit overshoots it, so moves average about ``base``), 25 % more when
   pondering is enabled; ``hard = 2.4 * base``: ``soft = hard / 3`` (``hard / 2.4`` pondering).
5. Cap, so that the engine never loses on time: ``hard <= (T - O) * F`` with ``F = 0.75`` when
   ``movestogo`` is 1 (the last move of a stage may use most, never all, of what is left: the next
   stage's time is only added after that move is made) and ``F = 0.5`` otherwise (this binds only
   in the last few moves of a stage, or when the increment is larger than the clock). Whatever the engine spends up to ``hard``, plus a
   lag below ``O``, leaves ``(1 - F) * (T - O) >= 0`` on the clock.
6. Floors: both limits are at least 1 ms and ``soft <= hard``; with less than ``O`` left (a clock
   that is about to fall) both are 1 ms: move at once.

Between iterations the searcher asks :class:`IterationRule` (``Searcher.search``'s ``soft_share``)
how much of ``soft`` to use before starting another one:

7. Stability: ``share = 0.7 + 0.5 * instability``, where ``instability`` counts the changes of the best
   move, each worth 1 and halved at every iteration since (a move that has stood for several
   iterations leaves 0.7 of ``soft``; one that changed in the last iteration 1.2); times 1.25 when
   the score fell by more than 30 centipawns in the last iteration; at most 2.0. ``hard`` still
   bounds the iteration that starts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ..search_types import SearchLimits

__all__ = ["allocate", "IterationRule", "ITERATION_RULE"]

SUDDEN_DEATH_HORIZON = 40   # moves the clock is planned over without movestogo
MAX_HORIZON = 50            # movestogo beyond this is planned as 50 moves
RESERVE_MOVES = 100         # sudden death: moves beyond the horizon whose overhead is kept in reserve
THIN_SCALE = 0.25           # within the reserve: base = THIN_SCALE * (time - overhead) / (horizon + RESERVE_MOVES)
SOFT_SCALE = 0.8            # soft = SOFT_SCALE * base
HARD_SCALE = 2.4            # hard = HARD_SCALE * base
PONDER_BONUS = 1.25         # soft is longer when pondering: the opponent's time is also ours
LAST_MOVE_FRACTION = 0.75   # movestogo 1: at most this share of (time - overhead)
MAX_FRACTION = 0.5          # otherwise: at most this share of (time - overhead)
MIN_MS = 1.0


def _ms(value: Optional[float]) -> float:
    """A time in ms as a finite number >= 0 (None, NaN and negatives as 0)."""
    if value is None:
        return 0.0
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    if math.isnan(number) or number < 0:
        return 0.0
    return min(number, 1e12)  # inf and absurd values: a very long time


def allocate(limits: SearchLimits, move_overhead_ms: float = 10.0,
             ponder_enabled: bool = False) -> tuple[float, float]:
    """(soft_ms, hard_ms): soft = don't start a new iteration after it; hard = stop at once.

    (0, 0) = no time limit (depth/nodes/mate/infinite only). See the module docstring for the formulas.
    """
    overhead = _ms(move_overhead_ms)
    if limits.infinite:
        return 0.0, 0.0
    if limits.movetime is not None:
        movetime = max(MIN_MS, _ms(limits.movetime) - overhead)
        return movetime, movetime
    if limits.time is None:
        return 0.0, 0.0

    time = _ms(limits.time)
    inc = _ms(limits.increment)
    movestogo = limits.movestogo if limits.movestogo is not None and limits.movestogo > 0 else None
    usable = time - overhead  # what this move can spend without the lag flagging us
    if usable <= MIN_MS:
        return MIN_MS, MIN_MS

    # 1-2. Horizon and reserve.
    if movestogo is not None:
        horizon = min(int(movestogo), MAX_HORIZON)
        reserve = 0.0
    else:
        horizon = SUDDEN_DEATH_HORIZON
        reserve = RESERVE_MOVES * max(0.0, overhead + 1.0 - inc)
    # 3. Budget for the next `horizon` moves; when down to the reserve, spread the rest thinly.
    budget = time + inc * (horizon - 1) - overhead * (horizon + 1) - reserve
    thin = usable * horizon / (horizon + RESERVE_MOVES) * THIN_SCALE
    # 4. Base time per move, soft and hard limits.
    base = max(budget, thin) / horizon
    soft = SOFT_SCALE * base * (PONDER_BONUS if ponder_enabled else 1.0)
    hard = HARD_SCALE * base
    # 5. Never more than a share of what is left.
    fraction = LAST_MOVE_FRACTION if movestogo == 1 else MAX_FRACTION
    hard = min(hard, usable * fraction)
    # 6. Floors.
    hard = max(MIN_MS, hard)
    soft = max(MIN_MS, min(soft, hard))
    return soft, hard


@dataclass(frozen=True)
class IterationRule:
    """Formula 7: the share of the soft limit to use before another iteration starts."""

    base_share: float = 0.7         # a best move that has stood for several iterations
    share_per_change: float = 0.5   # more per recent change of the best move (instability)
    falling_score: int = 30         # a score that fell by more than this (centipawns) in an iteration...
    falling_factor: float = 1.25    # ...asks for this much more time
    max_share: float = 2.0          # never more than twice the soft limit

    def soft_share(self, instability: float, score: int, score_before: int) -> float:
        """The share for a search whose best move changed `instability` times lately (see formula 7),
        with the best line's score now and an iteration before."""
        share = self.base_share + self.share_per_change * instability
        if score < score_before - self.falling_score:
            share *= self.falling_factor
        return min(share, self.max_share)


ITERATION_RULE = IterationRule()

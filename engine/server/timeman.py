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
- a clock (``time`` [``increment``] [``movestogo``]): the formulas below, which depend on the game's ply
  (front-loaded: more in the opening and middlegame). ``depth``/``nodes`` given as well still apply,
  in the searcher.
- ``ponder``: the limits are the same as without it; the caller arms them at ``ponderhit``
  (``Searcher.set_deadlines``), because both UCI and UCCI send the clock as it will stand when the
  predicted move is played.

The opponent's clock (``opp_time``...) is not used.

The formulas are Stockfish's, with the constants Pikafish fitted for Xiangqi (Pikafish master's
``timeman.cpp`` and the stop rule of its ``search.cpp``). ``T`` = remaining time, ``I`` = increment,
``O`` = move overhead (ms), ``ply`` = the game's ply (0 at the start of the game, as its FEN counts it):

1. Horizon ``H``: ``min(movestogo, 50)``, or 50 in sudden death; under 1 s, ``H = 0.05 T`` (at least 1).
2. ``left = max(1, T + I (H - 1) - O (H + 2))``: the clock, the increments to come, less the lags.
3. Sudden death, with ``L = log10(T / 1 s)``:
   ``opt = left * adjust * min(0.017244 + (ply + 2.71111) ** 0.43433 * min(0.0034013 + 0.00020657 L,
   0.004536), 0.20577 T / left)`` and ``max_scale = min(7.002, max(3.7803 + 2.8003 L, 2.547) + ply /
   13.184)``; ``adjust = 0.3356 log10(left) - 0.4903`` is fixed at the game's first search
   (GameTimeState; about 0.9 at 10 s + 0.1 s and 1.1 at 40 s + 0.4 s).
   With moves to go: ``opt = left * min(0.88 / H, 0.88 T / left)``, ``max_scale = 1.3 + 0.11 H``.
   (Stockfish's optimum has ``0.88 + ply / 116.4`` for 0.88: it front-loads each stage by the game's
   ply, which in the Chinese rules' stages of 40 or 30 moves leaves the stage's last moves a tenth of
   the others' time; here a stage is spread evenly.)
4. ``hard = max(opt, min(0.8237 T - O, max_scale * opt))`` and ``soft = opt``, 25 % more when pondering.
5. The reserve (sudden death only, this project's own rule: the formulas above would let a game
   without increment run its clock down to the lag): ``R = 150 max(0, O + 1 - I)`` is kept back (1.65 s
   with a 10 ms overhead and no increment: nothing at 10 s + 0.1 s), so ``T - R`` stands for ``T`` in
   1-4; within the reserve a thin slice is spent, ``soft = 0.8 b``, ``hard = 2.4 b`` with ``b = 0.25 (T -
   O) / (40 + 150)``, which keeps a game going for hundreds of moves however long each search runs.
   With moves to go the next stage refills the clock, but the stage's other moves must still pay their
   overhead: ``hard <= T - O - (H - 1) (O + 1)`` (a move then costs at most its search and a lag below
   ``O``, so the last move of the stage always has ``O`` + 1 ms left).
6. Caps and floors: ``soft <= hard <= 0.8237 T - O`` (the optimum too: with a large increment and few
   moves to go it could reach the whole clock), both at least 1 ms; with less than ``O`` left both are
   1 ms: move at once.

Between iterations the search asks :class:`IterationTimer` (``Searcher.search``'s ``soft_share``) how
much of ``soft`` it may use: the product of four factors, from the best move's instability, a falling
evaluation, how long the best move has stood, and the share of the nodes spent on it:

7. ``falling = clamp((17 + 11 (previous move's average score - score) + 3.2 (the score 4 iterations ago -
   score)) / 100, 0.61, 1.86)`` (Pikafish's 16.93, 2.73 and 0.8 per internal unit, about a quarter of a
   centipawn); ``reduction = (2.1 + previous move's time_reduction) / (2.48 time_reduction)`` with
   ``time_reduction`` from 0.67 (the best move changed at most 8 iterations ago) to 1.44 (17 or more);
   ``instability = 0.96 + 1.63 changes / threads``, ``changes`` counting each change of the best move,
   halved at every iteration; ``effort`` from 0.96 (at most 78 % of the nodes spent below the best move)
   to 0.74 (94 % or more). A single legal move gets at most 500 ms. ``hard`` still bounds every iteration.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from ..search_types import SearchLimits

__all__ = ["allocate", "GameTimeState", "IterationTimer"]

# Formulas 1-5: the limits of one move.
HORIZON = 50                    # moves the clock is planned over (at most, with movestogo)
SHORT_CLOCK_MS = 1000.0         # below this, the horizon is SHORT_CLOCK_HORIZON moves per ms left...
SHORT_CLOCK_HORIZON = 0.05      # ...so that a nearly empty clock is spread over fewer moves
LAG_MOVES = 2                   # the overhead is kept back for the horizon's moves and this many more
ADJUST_SLOPE, ADJUST_OFFSET = 0.3356, -0.4903          # adjust = slope log10(left) + offset
OPT_BASE, OPT_PLY_OFFSET, OPT_PLY_EXPONENT = 0.017244, 2.71111, 0.43433
OPT_CONSTANT, OPT_CONSTANT_PER_DECADE, OPT_CONSTANT_MAX = 0.0034013, 0.00020657, 0.004536
OPT_CLOCK_CAP = 0.20577         # opt <= this share of the clock (times adjust)
MAX_CONSTANT, MAX_CONSTANT_PER_DECADE, MAX_CONSTANT_MIN = 3.7803, 2.8003, 2.547
MAX_SCALE_CAP, MAX_SCALE_PLY_DIVISOR = 7.002, 13.184
MTG_OPT, MTG_CLOCK_CAP = 0.88, 0.88
MTG_MAX_BASE, MTG_MAX_PER_MOVE = 1.3, 0.11
MAX_CLOCK_SHARE = 0.8237        # hard <= this share of the clock, less the overhead
RESERVE_MOVES = 150             # sudden death: moves whose overhead (less the increment) is kept back
THIN_SCALE, THIN_HORIZON = 0.25, 40   # within the reserve: b = THIN_SCALE (T - O) / (THIN_HORIZON + RESERVE_MOVES)
THIN_SOFT, THIN_HARD = 0.8, 2.4       # soft = THIN_SOFT b, hard = THIN_HARD b
PONDER_BONUS = 1.25             # soft is longer when pondering: the opponent's time is also ours
MIN_MS = 1.0

# Formula 7: the share of soft an iteration may start within.
FALLING_BASE, FALLING_PER_CP_MOVE, FALLING_PER_CP_ITERATIONS = 17.0, 11.0, 3.2
FALLING_MIN, FALLING_MAX = 0.61, 1.86
FALLING_ITERATIONS = 4          # the score this many iterations ago
STABLE_DEPTHS = (8, 17)         # iterations since the best move changed: time_reduction...
TIME_REDUCTIONS = (0.67, 1.44)  # ...goes from the first to the second over that span
REDUCTION_BASE, REDUCTION_SCALE = 2.1, 2.48
NEW_GAME_TIME_REDUCTION = 0.85
INSTABILITY_BASE, INSTABILITY_PER_CHANGE = 0.96, 1.63
EFFORT_SPAN = (0.78, 0.94)      # the share of the nodes below the best move: the effort factor...
EFFORT_FACTORS = (0.96, 0.74)   # ...goes from the first to the second over that span
SINGLE_MOVE_MS = 500.0


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


def _interpolate(x: float, xs: tuple[float, float], ys: tuple[float, float]) -> float:
    """The straight line through (xs[0], ys[0]) and (xs[1], ys[1]) at x, held at its ends."""
    t = min(max((x - xs[0]) / (xs[1] - xs[0]), 0.0), 1.0)
    return ys[0] + t * (ys[1] - ys[0])


@dataclass
class GameTimeState:
    """What the time manager carries from one move of a game to the next (the engine keeps one, and
    starts a new one with each game): the clock adjustment fixed at the game's first search, and what
    the last search left (its best move's average score, its time reduction)."""

    adjust: Optional[float] = None
    previous_average_score: Optional[float] = None
    previous_time_reduction: float = NEW_GAME_TIME_REDUCTION
    last_ply: int = -1

    def starting(self, ply: int) -> None:
        """A search at game ply `ply`: a ply lower than the last one's is another game."""
        if ply < self.last_ply:
            self.adjust, self.previous_average_score = None, None
            self.previous_time_reduction = NEW_GAME_TIME_REDUCTION
        self.last_ply = ply


def allocate(limits: SearchLimits, move_overhead_ms: float = 10.0, ponder_enabled: bool = False,
             ply: int = 0, game: Optional[GameTimeState] = None) -> tuple[float, float]:
    """(soft_ms, hard_ms): soft = the optimum (an iteration starts within the share of it that
    IterationTimer grants); hard = stop at once. `ply`: the game's ply; `game`: the game's state (its
    clock adjustment is fixed at the first search; without one it is computed for this move).

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
    if time - overhead <= MIN_MS:
        return MIN_MS, MIN_MS
    soft, hard = MIN_MS, MIN_MS
    if movestogo is None:
        # 5. The reserve, and the thin slice spent within it.
        reserve = RESERVE_MOVES * max(0.0, overhead + 1.0 - inc)
        thin = THIN_SCALE * (time - overhead) / (THIN_HORIZON + RESERVE_MOVES)
        soft, hard = THIN_SOFT * thin, THIN_HARD * thin
        time -= reserve
    if time - overhead > MIN_MS:
        opt, most = _optimum(time, inc, overhead, max(0, int(ply)), movestogo, game)
        soft, hard = max(soft, opt), max(hard, most)
    if movestogo is not None:
        hard = min(hard, time - overhead - (min(movestogo, HORIZON) - 1) * (overhead + MIN_MS))
    soft *= PONDER_BONUS if ponder_enabled else 1.0
    # 6. Never more than a share of the clock, and floors.
    hard = max(MIN_MS, min(hard, MAX_CLOCK_SHARE * _ms(limits.time) - overhead))
    soft = max(MIN_MS, min(soft, hard))
    return soft, hard


def _optimum(time: float, inc: float, overhead: float, ply: int, movestogo: Optional[int],
             game: Optional[GameTimeState]) -> tuple[float, float]:
    """Formulas 1-4: (opt, hard) for a clock of `time` ms (the reserve taken off in sudden death)."""
    # 1-2. Horizon, and the time left for it.
    horizon = min(int(movestogo), HORIZON) if movestogo is not None else HORIZON
    if time < SHORT_CLOCK_MS:
        horizon = max(1, min(horizon, int(SHORT_CLOCK_HORIZON * time)))
    left = max(1.0, time + inc * (horizon - 1) - overhead * (horizon + LAG_MOVES))
    # 3. The optimum's and the maximum's scales.
    if movestogo is None:
        adjust = ADJUST_SLOPE * math.log10(left) + ADJUST_OFFSET
        if game is not None:
            if game.adjust is None:
                game.adjust = adjust
            adjust = game.adjust
        decades = math.log10(time / 1000)
        opt_constant = min(OPT_CONSTANT + OPT_CONSTANT_PER_DECADE * decades, OPT_CONSTANT_MAX)
        max_constant = max(MAX_CONSTANT + MAX_CONSTANT_PER_DECADE * decades, MAX_CONSTANT_MIN)
        opt_scale = max(0.0, adjust) * min(OPT_BASE + (ply + OPT_PLY_OFFSET) ** OPT_PLY_EXPONENT * opt_constant,
                                           OPT_CLOCK_CAP * time / left)
        max_scale = min(MAX_SCALE_CAP, max_constant + ply / MAX_SCALE_PLY_DIVISOR)
    else:
        opt_scale = min(MTG_OPT / horizon, MTG_CLOCK_CAP * time / left)
        max_scale = MTG_MAX_BASE + MTG_MAX_PER_MOVE * horizon
    # 4. The limits.
    opt = max(MIN_MS, opt_scale * left)
    return opt, max(opt, min(MAX_CLOCK_SHARE * time - overhead, max_scale * opt))


@dataclass
class IterationTimer:
    """Formula 7 for one search: after each iteration, the share of the soft limit the search may start
    another iteration within (Searcher.search's `soft_share`). `finish()` hands what the search left to
    the game's state, for the next move's search."""

    game: GameTimeState
    soft_ms: float
    threads: int = 1
    changes: float = 0.0                    # best-move changes, halved at every iteration
    best_move: int = 0
    best_move_depth: int = 0                # the iteration at which the best move last changed
    average_score: Optional[float] = None   # of the best move, over the iterations (Stockfish's)
    scores: list = field(default_factory=list)
    time_reduction: float = NEW_GAME_TIME_REDUCTION

    def soft_share(self, *, depth: int, best_move: int, score: int, best_move_changes: int,
                   best_move_effort: float, root_moves: int) -> float:
        if best_move != self.best_move:
            self.best_move, self.best_move_depth = best_move, depth
            self.average_score = None
        self.average_score = score if self.average_score is None else (2 * score + self.average_score) / 3
        self.changes = self.changes / 2 + best_move_changes
        self.scores.append(score)
        previous = self.game.previous_average_score
        if len(self.scores) > FALLING_ITERATIONS:
            earlier = self.scores[-1 - FALLING_ITERATIONS]
        else:   # as Stockfish fills its ring: with the last move's score
            earlier = previous if previous is not None else score
        falling = FALLING_MAX if previous is None else min(max(
            (FALLING_BASE + FALLING_PER_CP_MOVE * (previous - score) + FALLING_PER_CP_ITERATIONS * (earlier - score))
            / 100, FALLING_MIN), FALLING_MAX)
        self.time_reduction = _interpolate(depth - self.best_move_depth, STABLE_DEPTHS, TIME_REDUCTIONS)
        reduction = (REDUCTION_BASE + self.game.previous_time_reduction) / (REDUCTION_SCALE * self.time_reduction)
        instability = INSTABILITY_BASE + INSTABILITY_PER_CHANGE * self.changes / max(1, self.threads)
        effort = _interpolate(best_move_effort, EFFORT_SPAN, EFFORT_FACTORS)
        share = falling * reduction * instability * effort
        if root_moves == 1:
            share = min(share, SINGLE_MOVE_MS / max(MIN_MS, self.soft_ms))
        return share

    def finish(self) -> None:
        """The search is over: its best move's average score and time reduction are the next one's."""
        if self.average_score is not None:
            self.game.previous_average_score = self.average_score
            self.game.previous_time_reduction = self.time_reduction

"""Strength levels: `Skill Level` 0..20 and `UCI_Elo`, as a weaker search and a chosen sub-optimal move.

A level below full strength (20) changes three things, and nothing else (the rules, the repetition
rulings, `searchmoves` and `banmoves` are the search's, as at full strength):

1. The search is capped at the level's depth (fractional: see LEVELS) and node count, on top of
   whatever the `go` and the time manager allow: the time limits are full strength's, and the caps
   only ever stop the search sooner, so under a clock, `movetime` or `nodes` a level never answers
   later than full strength would. (Under `go depth D` within the level's own depth, the candidate
   lines cost a few times one line of that depth.)
2. It searches a few root candidates (MultiPV lines) instead of one.
3. It plays the candidate whose score plus a random push, uniform in [0, noise) centipawns, is the
   highest. The noise grows as the level falls, so weak levels often prefer a move that is worse by up
   to a few pawns; a candidate that loses by force (a mate or a repetition ruling against it) is never
   preferred to one that does not.

    limits = level_limits(level_of(skill_level=5, limit_strength=False, elo=1500))
    limits.depth, limits.nodes     # (2.5, 8000)
    pick(candidates, limits, random.Random())

The engine facade asks two things: `capped_limits` (1 and 2) before a search, `choose_line` (3) after it.

`UCI_Elo` maps to a fractional level through the measured table `MEASURED_ELO` (README, "Strength
levels"; tools/calibrate_levels.py plays the games and prints it); a fractional level interpolates the
caps of the two levels around it.
"""
from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass
from typing import Optional, Protocol, Sequence

from ..score import MATE_BOUND

class Line(Protocol):
    """What choose_line reads of a line of the kernel's search (its SearchReport)."""

    depth: int
    bestmove: Optional[str]
    score: int


#: Full strength: no cap, no candidates, no noise.
FULL_STRENGTH = 20


@dataclass(frozen=True)
class LevelLimits:
    """How one level below full strength searches and chooses."""

    depth: float      # iterations at most; a fraction is the chance of one more (see search_depth)
    nodes: int        # nodes at most (all lines together)
    candidates: int   # root lines searched (MultiPV)
    noise_cp: int     # the random push on each candidate's score is uniform in [0, noise_cp)

    def search_depth(self, rng: random.Random) -> int:
        """The depth of one search: the whole part of `depth`, plus one with the fraction's probability."""
        whole = int(self.depth)
        return whole + (1 if rng.random() < self.depth - whole else 0)

    def describe(self) -> str:
        return (f"depth {self.depth:g}, at most {self.nodes} nodes, {self.candidates} candidate moves, "
                f"noise {self.noise_cp} cp")


#: Levels 0..19, laid out after trial games (10 to 12 a pair). At these depths one more ply is worth
#: 200 to 400 Elo (depth 2 against depth 3 went 10-0), far more than a step between two levels should
#: be, so the depth is fractional: 2.5 searches to depth 2 or 3, each with probability 1/2, drawn afresh
#: for each move. The bottom levels are depth 1 (a one-ply look with the captures after it: a beginner
#: who sees what hangs now but no threat) with less and less noise: 300 cp of noise cost about 150 Elo
#: there. Up to level 14 the node cap is about twice what the level's deeper depth costs with its
#: candidates in a typical middlegame (measured over master-game openings), so it binds only in
#: unusually wide positions; from level 15 the node cap binds first, and it doubles about every three
#: levels from 13 on (with caps of 30,000 to 56,000 nodes, levels 12 to 18 of an earlier table were
#: at most 60 Elo apart a step). Level 19 searches at most 130,000 nodes: 0.2 to 0.6 s a move on this
#: machine, as loaded. More candidates at the bottom let the noise reach clearly bad moves; three at
#: the top let it choose only between near-equal ones.
LEVELS: tuple[LevelLimits, ...] = (
    LevelLimits(depth=1.0, nodes=2_000, candidates=6, noise_cp=500),      # 0
    LevelLimits(depth=1.0, nodes=2_000, candidates=5, noise_cp=250),      # 1
    LevelLimits(depth=1.0, nodes=2_000, candidates=5, noise_cp=120),      # 2
    LevelLimits(depth=1.5, nodes=4_000, candidates=5, noise_cp=110),      # 3
    LevelLimits(depth=2.0, nodes=4_000, candidates=5, noise_cp=100),      # 4
    LevelLimits(depth=2.5, nodes=8_000, candidates=4, noise_cp=95),       # 5
    LevelLimits(depth=3.0, nodes=8_000, candidates=4, noise_cp=90),       # 6
    LevelLimits(depth=3.5, nodes=12_000, candidates=4, noise_cp=85),      # 7
    LevelLimits(depth=4.0, nodes=12_000, candidates=4, noise_cp=80),      # 8
    LevelLimits(depth=4.5, nodes=20_000, candidates=4, noise_cp=75),      # 9
    LevelLimits(depth=5.0, nodes=20_000, candidates=4, noise_cp=70),      # 10
    LevelLimits(depth=5.5, nodes=30_000, candidates=3, noise_cp=65),      # 11
    LevelLimits(depth=6.0, nodes=30_000, candidates=3, noise_cp=60),      # 12
    LevelLimits(depth=6.5, nodes=40_000, candidates=3, noise_cp=50),      # 13
    LevelLimits(depth=7.0, nodes=50_000, candidates=3, noise_cp=40),      # 14
    LevelLimits(depth=8.0, nodes=60_000, candidates=3, noise_cp=30),      # 15
    LevelLimits(depth=9.0, nodes=75_000, candidates=3, noise_cp=20),      # 16
    LevelLimits(depth=10.0, nodes=90_000, candidates=3, noise_cp=12),     # 17
    LevelLimits(depth=11.0, nodes=110_000, candidates=3, noise_cp=6),     # 18
    LevelLimits(depth=12.0, nodes=130_000, candidates=3, noise_cp=3),     # 19
)
assert len(LEVELS) == FULL_STRENGTH

#: Elo of the measured levels (README, "Strength levels": 287 games, fitted and printed by
#: tools/calibrate_levels.py), on a scale where Fairy-Stockfish 11.1 at Skill Level 0 (depth 1) is 1000.
#: Levels 9, 11, 13, 15 and 17 were not played: UCI_Elo interpolates between the measured ones. Two
#: pairs of levels measured in the wrong order within their error bars (1 and 2, 18 and 19) are pooled
#: to their weighted mean. Level 20, full strength, is not in the table: its strength depends on the
#: clock (it is the same search without the caps, the extra candidates and the noise), so UCI_Elo
#: always limits the strength.
MEASURED_ELO: dict[int, float] = {
    0: 845.0, 1: 1041.0, 2: 1041.0, 3: 1204.0, 4: 1378.0, 5: 1790.0, 6: 1817.0, 7: 2015.0, 8: 2020.0,
    10: 2257.0, 12: 2673.0, 14: 2863.0, 16: 3255.0, 18: 3407.0, 19: 3407.0,
}

#: The range of UCI_Elo: the measured table's ends.
ELO_MIN = int(math.ceil(min(MEASURED_ELO.values())))
ELO_MAX = int(math.floor(max(MEASURED_ELO.values())))


def level_of(skill_level: int, limit_strength: bool, elo: int) -> float:
    """The level to play at: UCI_Elo's when UCI_LimitStrength is set (it wins over Skill Level, as in
    Stockfish), else Skill Level. A fractional level lies between two levels of the table."""
    if limit_strength:
        return elo_to_level(elo)
    return float(min(max(skill_level, 0), FULL_STRENGTH))


def elo_to_level(elo: float, table: Optional[dict[int, float]] = None) -> float:
    """The fractional level whose interpolated Elo is `elo`, by the measured table (piecewise linear
    between measured levels; clamped to the table's ends). The table must not fall as the level rises;
    on a flat stretch (levels measured as equal) the Elo maps to the stretch's highest level."""
    table = MEASURED_ELO if table is None else table
    levels = sorted(table)
    elos = [table[level] for level in levels]
    if any(b < a for a, b in zip(elos, elos[1:])):
        raise ValueError(f"the Elo table must not fall as the level rises: {table}")
    if elo <= elos[0]:
        return float(levels[0])
    if elo >= elos[-1]:
        return float(levels[-1])
    i = bisect.bisect_right(elos, elo)       # elos[i - 1] <= elo < elos[i], so they differ
    t = (elo - elos[i - 1]) / (elos[i] - elos[i - 1])
    return levels[i - 1] + t * (levels[i] - levels[i - 1])


def level_to_elo(level: float, table: Optional[dict[int, float]] = None) -> float:
    """The Elo of a (fractional) level, interpolated linearly in the measured table."""
    table = MEASURED_ELO if table is None else table
    levels = sorted(table)
    level = min(max(level, levels[0]), levels[-1])
    i = max(1, bisect.bisect_left(levels, level))
    lo, hi = levels[i - 1], levels[i]
    t = (level - lo) / (hi - lo)
    return table[lo] + t * (table[hi] - table[lo])


def level_limits(level: float) -> Optional[LevelLimits]:
    """The limits of a (fractional) level; None for full strength.

    Between two levels the node cap is interpolated geometrically (the levels' caps grow by a factor)
    and the depth and noise linearly; the candidates are the lower level's. Above 19 and below 20 the
    limits are level 19's: only level 20 itself is full strength.
    """
    if level >= FULL_STRENGTH:
        return None
    level = max(0.0, level)
    low = int(level)
    high = min(low + 1, FULL_STRENGTH - 1)
    t = level - low if high > low else 0.0
    a, b = LEVELS[low], LEVELS[high]
    if t == 0.0:
        return a
    return LevelLimits(
        depth=round(a.depth + t * (b.depth - a.depth), 2),
        nodes=round(a.nodes * (b.nodes / a.nodes) ** t),
        candidates=a.candidates,
        noise_cp=round(a.noise_cp + t * (b.noise_cp - a.noise_cp)),
    )


def summary(level: float, limit_strength: bool, elo: int) -> str:
    """The strength level in use, in words (for an `info string` after Skill Level or UCI_Elo)."""
    limits = level_limits(level)
    if limits is None:
        return "full strength"
    how = f"UCI_Elo {elo}: " if limit_strength else ""
    return f"{how}strength level {level:.2f} ({limits.describe()})"


def pick(scores: Sequence[int], limits: LevelLimits, rng: random.Random) -> int:
    """The index of the candidate to play, given the candidates' scores (side to move's view, in the
    kernel's units: mates beyond ±MATE_BOUND). Candidates that lose by force are skipped while any
    other is left; mates for the side to move keep their huge scores, so no noise passes them over."""
    if not scores:
        raise ValueError("no candidate to pick from")
    allowed = [i for i, score in enumerate(scores) if score >= -MATE_BOUND] or list(range(len(scores)))
    return max(allowed, key=lambda i: scores[i] + rng.random() * limits.noise_cp)


def capped_limits(level: Optional[LevelLimits], depth: int, nodes: int, multipv: int,
                  rng: random.Random) -> tuple[int, int, int]:
    """The (depth, nodes, multipv) to search with at `level` (None: full strength), given the `go`'s
    depth and nodes (0: no limit) and the MultiPV option: the level's caps on top of the `go`'s, and at
    least its candidates as lines (which the GUI is not shown)."""
    if level is None:
        return depth, nodes, multipv
    level_depth = level.search_depth(rng)
    return (min(depth or level_depth, level_depth), min(nodes or level.nodes, level.nodes),
            max(multipv, level.candidates))


def choose_line(level: Optional[LevelLimits], iteration: Sequence[Line], best: Line,
                rng: random.Random) -> Line:
    """The line to play at `level`: one of its candidates, the first lines of the last completed
    iteration (`iteration`, best first), when that iteration is the one `best` (the search's answer)
    came from; else `best`. A line is anything with the kernel's `depth`, `bestmove` and `score`."""
    if level is None or not iteration or iteration[0].depth != best.depth \
            or iteration[0].bestmove != best.bestmove:
        return best
    candidates = iteration[:level.candidates]
    return candidates[pick([line.score for line in candidates], level, rng)]

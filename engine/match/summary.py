"""The match's running score and final table, formatted in this one place (the statistics are
engine.match.stats'):

    Score of A vs B: 6 - 2 - 2  [0.700] 10   Elo +147.2 +/- 215.0
    Results (10 games)
      A vs B: W 6  D 2  L 2  score 0.700  Elo +147.2 +/- 215.0  LOS 92.1%  draws 20.0%
        endings: checkmate 7, resignation 2, repetition 1

A match of game pairs (-repeat: each opening with both colours) also counts the pairs by their score, as
fastchess does, and states the Elo of the pentanomial model, which is the one to read for such a match:

    Score of A vs B: 6 - 2 - 2  [0.700] 10   Elo +147.2 +/- 215.0   Ptnml(0-2) [0, 1, 1, 2, 1]
      ...
        pairs: Ptnml(0-2) [0, 1, 1, 2, 1]  Elo +147.2 +/- 190.4 (pentanomial)
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Hashable, Optional

from .endings import TERMINATIONS, Reason
from .stats import PairCounts, draw_ratio, elo_difference, likelihood_of_superiority, pair_elo_difference


@dataclass
class PairScore:
    """The results of one pair of engines, from the first engine's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    terminations: Counter = field(default_factory=Counter)
    # Game pairs (a match with -repeat): the counts of the finished pairs by their score, and the points of
    # the pairs of which one game is finished so far (games finish in any order).
    pentanomial: Optional[PairCounts] = None
    half_pairs: dict = field(default_factory=dict)

    def add(self, points: float, termination: Reason, pair: Optional[Hashable] = None) -> None:
        """Count a game the first engine scored `points` (1, 0.5 or 0) in; `pair`: the game pair it
        belongs to, when the match plays pairs."""
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1
        self.terminations[termination] += 1
        if pair is None:
            return
        if self.pentanomial is None:
            self.pentanomial = PairCounts(0, 0, 0, 0, 0)
        if pair in self.half_pairs:
            self.pentanomial = self.pentanomial.add(self.half_pairs.pop(pair) + points)
        else:
            self.half_pairs[pair] = points

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games


def score_line(first: str, second: str, pair: PairScore) -> str:
    """The running score of a pair, printed after each of its games (cutechess's line, with the Elo)."""
    elo, error = elo_difference(pair.wins, pair.draws, pair.losses)
    line = (f"Score of {first} vs {second}: {pair.wins} - {pair.losses} - {pair.draws}  "
            f"[{pair.score:.3f}] {pair.games}   Elo {format_elo(elo)} +/- {format_elo(error, signed=False)}")
    return line + (f"   {pentanomial_text(pair.pentanomial)}" if pair.pentanomial is not None else "")


def pentanomial_text(counts: PairCounts) -> str:
    """``Ptnml(0-2) [LL, LD, DD+WL, WD, WW]``, fastchess's notation of the pair counts."""
    return "Ptnml(0-2) [" + ", ".join(f"{count:g}" for count in counts) + "]"


def results_table(scores: dict[tuple[int, int], PairScore], name: Callable[[int], str], finished: int,
                  sprt_verdict: Optional[str] = None, gauntlet: bool = False) -> str:
    """The final table: per pair W/D/L, score, Elo with its 95% margin, LOS, draw ratio, and the endings
    in the order of TERMINATIONS (the rules' first); `name(index)` is an engine's display name.

    A gauntlet (engine 0 against each other, every pair from engine 0's side) adds engine 0's total over
    all its opponents, its pairs pooled when every opponent played pairs:

        A vs all 3 opponents: W 14  D 4  L 12  score 0.533  Elo +23.2 +/- 110.3  LOS 65.0%  draws 13.3%
    """
    lines = [f"Results ({finished} games)"]
    if not scores:
        lines.append("  no game was finished")
    for (i, j), pair in sorted(scores.items()):
        lines += _pair_lines(f"{name(i)} vs {name(j)}", pair)
    if gauntlet and scores:
        lines += _pair_lines(f"{name(0)} vs all {len(scores)} opponents", pooled(list(scores.values())))
    if sprt_verdict:
        lines.append("  " + sprt_verdict)
    return "\n".join(lines)


def pooled(pairs: list[PairScore]) -> PairScore:
    """The results of several pairs added up (from their first engine's side); pair counts only when every
    one has them."""
    total = PairScore()
    for pair in pairs:
        total.wins += pair.wins
        total.draws += pair.draws
        total.losses += pair.losses
        total.terminations.update(pair.terminations)
    if pairs and all(pair.pentanomial is not None for pair in pairs):
        total.pentanomial = PairCounts(*(sum(counts) for counts in zip(*(pair.pentanomial for pair in pairs))))
    return total


def _pair_lines(title: str, pair: PairScore) -> list[str]:
    elo, error = elo_difference(pair.wins, pair.draws, pair.losses)
    los = likelihood_of_superiority(pair.wins, pair.losses)
    lines = [f"  {title}: W {pair.wins}  D {pair.draws}  L {pair.losses}  "
             f"score {pair.score:.3f}  Elo {format_elo(elo)} +/- {format_elo(error, signed=False)}  "
             f"LOS {los * 100:.1f}%  draws {draw_ratio(pair.wins, pair.draws, pair.losses) * 100:.1f}%"]
    order = list(TERMINATIONS)
    endings = ", ".join(f"{TERMINATIONS[key].words} {count}" for key, count in
                        sorted(pair.terminations.items(), key=lambda kv: order.index(kv[0])))
    lines.append(f"    endings: {endings}")
    if pair.pentanomial is not None:
        elo, error = pair_elo_difference(pair.pentanomial)
        lines.append(f"    pairs: {pentanomial_text(pair.pentanomial)}  Elo {format_elo(elo)} +/- "
                     f"{format_elo(error, signed=False)} (pentanomial)")
    return lines


def format_elo(value: float, signed: bool = True) -> str:
    """``+147.2``; ``inf`` or ``-inf`` for a score of 100% or 0% (a margin, unsigned, is ``inf``)."""
    if not math.isfinite(value):
        return "inf" if value > 0 or not signed else "-inf"
    return f"{value:+.1f}" if signed else f"{value:.1f}"

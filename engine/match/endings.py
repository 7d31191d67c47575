"""How a match game ends: the runner's own endings beside the rules' (engine.outcome.Termination), and the
Verdict that ends a game (result, reason, what happened, the engine at fault).

Every ending is an engine.outcome.Ending: a str enum whose member is its key (``"time_forfeit"``, which the
journal writes and compares equal to the plain string) and carries its ``words`` (``"time forfeit"``, which
the PGN's Termination tag and the result tables write). The keys and the words are defined here and in
engine/outcome.py only; :data:`TERMINATIONS` lists them all, the rules' first, in the order the tables
list endings, and :func:`ending_of` reads a key back (the journal).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from ..color import Color
from ..outcome import Ending, Outcome, Termination


class MatchTermination(Ending):
    """The endings the match runner decides, where the rules (engine.outcome.Termination) did not end the
    game: an engine at fault, or adjudication."""

    TIME_FORFEIT = "time_forfeit", "time forfeit"
    ILLEGAL_MOVE = "illegal_move", "illegal move"
    CRASH = "crash", "crash"
    HANG = "hang", "hang"
    NO_MOVE = "no_move", "no move in a live position"
    RESIGNATION = "resignation", "resignation"   # the engine's own `bestmove ... resign` (CECP `resign`, or a
                                                 # claim of its own loss)
    INVALID_CLAIM = "invalid_claim", "invalid result claim"   # CECP: a win or draw the rules do not give
    PROTOCOL_ERROR = "protocol_error", "protocol error"       # e.g. a move of the game refused as illegal
    RESIGN_ADJUDICATION = "resign_adjudication", "adjudicated: resignation"
    DRAW_ADJUDICATION = "draw_adjudication", "adjudicated: draw"
    MAX_MOVES = "max_moves", "adjudicated: move limit"


#: Why a game ended: a rule, or the runner.
Reason = Union[Termination, MatchTermination]

#: Every ending of a match game by its key, in the order tables list them: the rules' first.
TERMINATIONS: dict[str, Reason] = {ending.value: ending for ending in (*Termination, *MatchTermination)}

#: The endings after which the engine at fault is replaced by a new process before its next game.
PROCESS_FAULTS = frozenset({MatchTermination.CRASH, MatchTermination.HANG, MatchTermination.TIME_FORFEIT,
                            MatchTermination.PROTOCOL_ERROR})


def ending_of(key: Optional[str]) -> Optional[Reason]:
    """The ending of a key as the journal wrote it; None for none (``""``: an unfinished game)."""
    if not key:
        return None
    try:
        return TERMINATIONS[key]
    except KeyError:
        raise ValueError(f"unknown game ending {key!r}") from None


def loss_for(side: Color) -> str:
    """The PGN result of a loss for `side`."""
    return "0-1" if side is Color.RED else "1-0"


@dataclass(frozen=True)
class Verdict:
    """The end of a game: its PGN result, why, what happened in words (the PGN's result comment) and,
    when an engine failed, which side was at fault (0 Red, 1 Black). `reason` is None only for a game
    that was interrupted (result ``*``)."""

    result: str
    reason: Optional[Reason]
    detail: str
    loser: Optional[int] = None

    @classmethod
    def loss(cls, side: Color, reason: Reason, detail: str, at_fault: bool = True) -> "Verdict":
        """`side` loses; `at_fault` when its engine failed (rather than gave up or was adjudicated)."""
        return cls(loss_for(side), reason, detail, side.index if at_fault else None)

    @classmethod
    def of_outcome(cls, outcome: Outcome, note: str = "") -> "Verdict":
        """The rules ended the game: ``Red wins by checkmate``, ``draw by repetition``."""
        words = outcome.reason.words
        detail = f"{outcome.winner.label} wins by {words}" if outcome.winner is not None else f"draw by {words}"
        return cls(outcome.result, outcome.reason, detail + note)


#: A game stopped before its end (Ctrl-C, an SPRT decision): not counted.
INTERRUPTED = Verdict("*", None, "interrupted")

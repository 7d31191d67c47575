"""How a game ends: the vocabulary of endings, the rules' reasons (Termination) and a game's Outcome.

    >>> from engine import Position
    >>> outcome = Position("3k5/9/9/9/9/9/9/9/4R4/3RK4 b").outcome()
    >>> outcome.reason, outcome.reason.words, outcome.result
    (<Termination.CHECKMATE: 'checkmate'>, 'checkmate', '1-0')

An ending is a str enum: each member is its key ("sixty_moves"), so it compares and hashes equal to the
plain string, JSON writes it as that string, and code that compared with strings keeps working. Each member
also carries `words`, how people write it ("60-move rule"): the PGN Termination tag and the match tables
use them.

Termination holds only what the rules decide (the kernel's verdicts). The match runner decides other
endings (time forfeit, a crash, adjudication...); they are members of engine.match.endings.MatchTermination,
an Ending of the same kind, so one game record and one table speak both.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional

from .color import Color


class Ending(str, Enum):
    """The base of the enums of endings. A member is declared as `NAME = "key", "words"`."""

    words: str

    def __new__(cls, key: str, words: str) -> "Ending":
        member = str.__new__(cls, key)
        member._value_ = key
        member.words = words
        return member

    def __str__(self) -> str:
        return self.value


class Termination(Ending):
    """Why the rules ended a game: the `reason` of an Outcome. The keys are the kernel's verdict names."""

    CHECKMATE = "checkmate", "checkmate"
    STALEMATE = "stalemate", "stalemate"  # no legal move, not in check: a loss, like checkmate
    PERPETUAL_CHECK = "perpetual_check", "perpetual check"
    PERPETUAL_CHASE = "perpetual_chase", "perpetual chase"
    REPETITION = "repetition", "repetition"
    SIXTY_MOVES = "sixty_moves", "60-move rule"  # 120 plies without capture
    INSUFFICIENT_MATERIAL = "insufficient_material", "insufficient material"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (Color.RED, Color.BLACK, or None for a draw) and the rule that decided it."""

    winner: Optional[Color]
    reason: Termination

    @property
    def result(self) -> str:
        """The result in PGN form: "1-0" (Red wins), "0-1" or "1/2-1/2"."""
        return {Color.RED: "1-0", Color.BLACK: "0-1", None: "1/2-1/2"}[self.winner]

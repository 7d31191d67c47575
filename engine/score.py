"""An engine score, in centipawns or as a mate, from one side's point of view.

The value is kept in the search kernel's units: centipawns, or ``±(MATE - plies)`` for a mate found
``plies`` half-moves ahead (positive: the viewing side mates). One integer makes flipping the point of
view exact, including the mate already on the board (``-MATE``: the viewing side is mated now).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ._core import MATE

#: Values beyond this (in either direction) are mates: mates up to 500 moves, more than the kernel's
#: search reaches, so that another engine's long mates are still read as mates.
MATE_BOUND = MATE - 1000


@dataclass(frozen=True)
class Score:
    """A score from one side's view. Build it with :meth:`from_cp`, :meth:`from_mate` or :meth:`mated`."""

    value: int

    @classmethod
    def from_cp(cls, cp: int) -> "Score":
        """Centipawns (clamped inside the mate bound)."""
        return cls(max(-MATE_BOUND, min(MATE_BOUND, int(cp))))

    @classmethod
    def from_mate(cls, moves: int) -> "Score":
        """A mate in ``moves`` (UCI ``score mate``): positive, the viewing side mates in that many of its
        own moves; negative, it is mated after that many; 0, it is mated now."""
        moves = int(moves)
        if moves > 0:
            return cls(MATE - (2 * moves - 1))
        return cls(-(MATE - 2 * -moves))

    @classmethod
    def mated(cls) -> "Score":
        """The viewing side is mated (or has lost by the rules) on the board."""
        return cls(-MATE)

    @property
    def is_mate(self) -> bool:
        return abs(self.value) > MATE_BOUND

    @property
    def cp(self) -> Optional[int]:
        """Centipawns, or None for a mate."""
        return None if self.is_mate else self.value

    @property
    def mate(self) -> Optional[int]:
        """Moves to mate, signed as in UCI (negative: being mated; 0 with a negative value: mated now),
        or None for a centipawn score. The moves counted are the mating side's: a mate `plies` half-moves
        ahead takes (plies + 1) // 2 of them, whether or not the viewing side is the one to move."""
        if not self.is_mate:
            return None
        plies = MATE - abs(self.value)
        moves = (plies + 1) // 2
        return moves if self.value > 0 else -moves

    @property
    def winning_mate(self) -> bool:
        return self.is_mate and self.value > 0

    def __neg__(self) -> "Score":
        """The same score from the other side's view."""
        return Score(-self.value)

    def pov(self, flip: bool) -> "Score":
        return -self if flip else self

    def capped(self, cap: int) -> int:
        """The value clamped to ±cap centipawns; a mate counts as ±cap."""
        return max(-cap, min(cap, self.value))

    def text(self) -> str:
        """``+35``, ``-120``, ``0``; ``#5`` (mates in 5), ``-#3`` (mated in 3), ``-#0`` (mated)."""
        if self.is_mate:
            moves = self.mate or 0
            return f"#{moves}" if self.value > 0 else f"-#{-moves}"
        return "0" if self.value == 0 else f"{self.value:+d}"

    def to_json(self) -> dict:
        """``{"cp": 35, "mate": null, "text": "+35"}`` or ``{"cp": null, "mate": -3, "text": "-#3"}``. A mate
        on the board has mate 0; its text says who: ``#0`` (the viewing side has mated), ``-#0`` (it is
        mated)."""
        return {"cp": self.cp, "mate": self.mate, "text": self.text()}

    def __str__(self) -> str:
        return self.text()

"""The value of a position in a table, as the library gives it: win, draw or loss for the side to move, and
the distance to mate in plies."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from .._core import TB_VALUE_DRAW, TB_VALUE_DRAW_RULES, TB_VALUE_ILLEGAL, TB_VALUE_MAX_DTM

DRAW_ENTRY = TB_VALUE_DRAW
#: A draw by plain minimax that the perpetual check or chase rules might change, | 1 when Red, | 2 when
#: Black might be forced to check or chase to hold it (docs/tablebases.md).
DRAW_RULES_ENTRY = TB_VALUE_DRAW_RULES
ILLEGAL_ENTRY = TB_VALUE_ILLEGAL
MAX_DTM = TB_VALUE_MAX_DTM


class Wdl(enum.IntEnum):
    """Win, draw or loss for the side to move."""

    LOSS = -1
    DRAW = 0
    WIN = 1


@dataclass(frozen=True, order=False)
class TableValue:
    """A position's value for its side to move: wdl, and plies to mate (None when drawn; 0 when the side
    to move has no legal move, which loses).

    at_risk: for a draw, the sides (0 Red, 1 Black) that might be forced to check or chase to hold it, so
    that the perpetual check and chase rulings (not yet inside the tables) might make it a loss for them;
    empty when the draw is a draw under the rules too. Wins and losses are forced mates: never at risk."""

    wdl: Wdl
    plies: Optional[int]
    at_risk: tuple[int, ...] = ()

    @classmethod
    def of_entry(cls, entry: int, flipped: bool = False) -> "TableValue":
        """The value of a table entry; flipped: the table is read with the board's colours swapped."""
        if entry == DRAW_ENTRY:
            return cls(Wdl.DRAW, None)
        if entry & ~3 == DRAW_RULES_ENTRY:
            sides = tuple(side ^ flipped for side in (0, 1) if entry & (1 << side))
            return cls(Wdl.DRAW, None, tuple(sorted(sides)))
        if entry > MAX_DTM:
            raise ValueError(f"entry {entry:#x} holds no value")
        return cls(Wdl.WIN if entry % 2 else Wdl.LOSS, entry)

    @property
    def rules_may_change(self) -> bool:
        """A draw that the perpetual check or chase rulings might turn into a win or a loss."""
        return bool(self.at_risk)

    @property
    def dtm(self) -> Optional[int]:
        """Signed plies to mate: +n the side to move mates in n, -n it is mated in n (0: now); None: draw."""
        if self.plies is None:
            return None
        return self.plies if self.wdl is Wdl.WIN else -self.plies

    def after_move(self) -> "TableValue":
        """The value for the mover of a move leading to a position of this value (for the opponent)."""
        if self.plies is None:
            return self
        return TableValue(Wdl(-self.wdl), self.plies + 1)

    def rank(self) -> tuple[int, int]:
        """A sort key, best first: quicker wins, then draws, then slower losses."""
        if self.wdl is Wdl.WIN:
            return (0, self.plies or 0)
        if self.wdl is Wdl.DRAW:
            return (1, 0)
        return (2, -(self.plies or 0))

    def __str__(self) -> str:
        if self.wdl is Wdl.DRAW:
            if not self.at_risk:
                return "draw"
            sides = " and ".join(("red", "black")[side] for side in self.at_risk)
            return f"draw, unless the perpetual check/chase rules decide it ({sides} may be forced to chase or check)"
        if self.wdl is Wdl.WIN:
            return f"win, mate in {self.plies} {_plies(self.plies)}"
        return "loss, no legal move" if self.plies == 0 else f"loss, mated in {self.plies} {_plies(self.plies)}"


def _plies(n: int) -> str:
    return "ply" if n == 1 else "plies"

"""The value of a position in a table, as the library gives it: win, draw or loss for the side to move, the
plies to mate, or, for a result decided through the perpetual check and chase rulings, the plies to the
position where the ruling applies (docs/tablebases.md#the-rules-assumed); and the plies to the next capture
or mate (the distance to conversion), which say whether the natural limit can draw a win."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from .._core import MATE, TB_WIN
from ..score import Score
from .._core import TB_VALUE_DRAW, TB_VALUE_DRAW_RULES, TB_VALUE_ILLEGAL, TB_VALUE_KIND_CHECK, tb_entry_fields
from .._core import TB_DTC_NO_VALUE, TB_NATURAL_LIMIT

DRAW_ENTRY = TB_VALUE_DRAW
#: A draw that the perpetual check or chase rulings might still change, | 1 when Red, | 2 when Black
#: might be forced to check or chase to hold it (docs/tablebases.md).
DRAW_RULES_ENTRY = TB_VALUE_DRAW_RULES
ILLEGAL_ENTRY = TB_VALUE_ILLEGAL
#: The pieces a ruled side may have to chase, by the kernel's piece type (the bit 1 << type of an entry's
#: kinds); TB_VALUE_KIND_CHECK is a check.
CHASED_PIECES = {1: "advisor", 2: "elephant", 3: "horse", 4: "chariot", 5: "cannon", 6: "soldier"}


class Wdl(enum.IntEnum):
    """Win, draw or loss for the side to move."""

    LOSS = -1
    DRAW = 0
    WIN = 1


@dataclass(frozen=True, order=False)
class TableValue:
    """A position's value for its side to move.

    wdl: win, draw or loss. plies (None when drawn): with order 0, the plies to mate (0: the side to move
    has no legal move, which loses); with order k >= 1, the result is decided through the k-th round of the
    perpetual check and chase rulings, and plies counts the plies to the position where the ruling applies
    (the repetition the ruling then needs comes on top). kinds, at such a position (plies 0, a loss): what
    the side to move cannot escape, "check" and/or the opponent's piece it would have to chase ("chariot",
    ...): every move either loses otherwise or checks (chases that piece), and the opponent can keep it so
    for ever.

    at_risk: for a draw, the sides (0 Red, 1 Black) that might be forced to check or chase to hold it, so
    that a ruling the tables do not decide might make it a loss for them; empty when the draw is a draw under
    the rules too.

    dtc: for a win or loss by mates, the plies to the next capture or mate (the distance to conversion,
    ext/tb_dtc.pxi) when the winner hastens it and the loser delays it; None when there is none within the
    natural limit (such a win is one only if the limit is ignored: see sure_within), and for draws and
    results decided through a ruling."""

    wdl: Wdl
    plies: Optional[int]
    at_risk: tuple[int, ...] = ()
    order: int = 0
    kinds: tuple[str, ...] = ()
    dtc: Optional[int] = None

    @classmethod
    def of_entry(cls, entry: int, flipped: bool = False, dtc: int = TB_DTC_NO_VALUE) -> "TableValue":
        """The value of a table entry and its distance to conversion byte; flipped: the table is read with the
        board's colours swapped."""
        if entry == DRAW_ENTRY:
            return cls(Wdl.DRAW, None)
        if entry & ~3 == DRAW_RULES_ENTRY:
            sides = tuple(side ^ flipped for side in (0, 1) if entry & (1 << side))
            return cls(Wdl.DRAW, None, tuple(sorted(sides)))
        fields = tb_entry_fields(entry)
        if fields is None:
            raise ValueError(f"entry {entry:#x} holds no value")
        wdl, order, plies, kinds = fields
        return cls(Wdl(wdl), plies, order=order, kinds=_kind_names(kinds),
                   dtc=None if dtc == TB_DTC_NO_VALUE else dtc)

    @property
    def rules_may_change(self) -> bool:
        """A draw that a perpetual check or chase ruling might turn into a win or a loss."""
        return bool(self.at_risk)

    @property
    def ruled(self) -> bool:
        """A win or a loss decided through a perpetual check or chase ruling (order >= 1)."""
        return self.order > 0

    @property
    def dtm(self) -> Optional[int]:
        """Signed plies to mate: +n the side to move mates in n, -n it is mated in n (0: now); None: a draw,
        or a result decided through a ruling (no mate distance: see plies and order)."""
        if self.plies is None or self.ruled:
            return None
        return self.plies if self.wdl is Wdl.WIN else -self.plies

    def after_move(self, capture: bool = False) -> "TableValue":
        """The value for the mover of a move leading to a position of this value (for the opponent); a capture
        is a conversion in 1 ply when the position it reaches has a distance to conversion."""
        if self.plies is None:
            return self
        if capture:
            dtc = None if self.dtc is None else 1
        else:
            dtc = None if self.dtc is None or self.dtc >= TB_NATURAL_LIMIT else self.dtc + 1
        return TableValue(Wdl(-self.wdl), self.plies + 1, order=self.order, dtc=dtc)

    @property
    def beyond_limit(self) -> bool:
        """A win or loss by mates that the natural limit may draw even from a fresh count: its mate lies
        beyond the limit, and so does every capture the winner can force (a mate within the limit always
        has a distance to conversion)."""
        return (self.wdl is not Wdl.DRAW and not self.ruled and self.plies > TB_NATURAL_LIMIT
                and self.dtc is None)

    def sure_within(self, plies_left: int) -> bool:
        """Whether the natural limit, `plies_left` plies away (120 less the plies counted so far), leaves the
        result as it is: a draw, or a win or loss whose mate or next capture comes first (a result decided
        through a ruling: its ruling's position). When not, the limit may draw it."""
        if self.wdl is Wdl.DRAW:
            return True
        return self.plies <= plies_left or (self.dtc is not None and self.dtc <= plies_left)

    def rank(self, plies_left: Optional[int] = None) -> tuple[int, int, int, int]:
        """A sort key, best first: wins by mate, quicker first, then wins through the rulings (lower order,
        then quicker), draws, then losses through the rulings (higher order, then slower), losses by mate
        (slower first). Given the plies left before the natural limit, the wins it cannot draw come first
        (by mate before it, quicker first, then by a capture before it, sooner first), and the losses it
        may draw."""
        beyond = plies_left is not None and not self.sure_within(plies_left)
        if self.wdl is Wdl.WIN:
            if beyond:
                return (0, self.order, 2, self.plies or 0)
            if plies_left is not None and self.plies > plies_left:
                return (0, self.order, 1, self.dtc)
            return (0, self.order, 0, self.plies or 0)
        if self.wdl is Wdl.DRAW:
            return (1, 0, 0, 0)
        return (2, -self.order, 0 if beyond else 1, -(self.plies or 0))

    def __str__(self) -> str:
        if self.wdl is Wdl.DRAW:
            if not self.at_risk:
                return "draw"
            sides = " and ".join(("red", "black")[side] for side in self.at_risk)
            return f"draw, unless the perpetual check/chase rules decide it ({sides} may be forced to chase or check)"
        if self.ruled:
            return self._ruled_text()
        if self.wdl is Wdl.WIN:
            return f"win, mate in {self.plies} {_plies(self.plies)}{self._limit_text()}"
        if self.plies == 0:
            return "loss, no legal move"
        return f"loss, mated in {self.plies} {_plies(self.plies)}{self._limit_text()}"

    def _limit_text(self) -> str:
        """What the natural limit does to a result by mates whose mate lies beyond it."""
        if self.beyond_limit:
            return f" (no capture within {TB_NATURAL_LIMIT} plies: the natural limit may draw it)"
        if not self.ruled and self.plies > TB_NATURAL_LIMIT:
            return f" (a capture in {self.dtc} {_plies(self.dtc)} restarts the natural limit)"
        return ""

    def _ruled_text(self) -> str:
        if self.plies == 0:
            return f"loss by the {_ruling(self.kinds)} ruling: every move loses otherwise or {_forced(self.kinds)}"
        result = "win" if self.wdl is Wdl.WIN else "loss"
        return (f"{result} by the perpetual check/chase ruling in {self.plies} {_plies(self.plies)} "
                f"(order {self.order})")


def _kind_names(kinds: int) -> tuple[str, ...]:
    names = ("check",) if kinds & TB_VALUE_KIND_CHECK else ()
    return names + tuple(name for ptype, name in CHASED_PIECES.items() if kinds & (1 << ptype))


def _ruling(kinds: tuple[str, ...]) -> str:
    return "perpetual check" if "check" in kinds else "perpetual chase"


def _forced(kinds: tuple[str, ...]) -> str:
    """What every move of the ruled side does (each kind of the mask, all at once)."""
    return " and ".join("checks" if kind == "check" else f"chases the {kind}" for kind in kinds)


def _plies(n: int) -> str:
    return "ply" if n == 1 else "plies"


def table_score(value: TableValue) -> Score:
    """A table value as an engine score for the side it belongs to: a mate in its plies, or a draw. A result
    decided through a perpetual check or chase ruling has no mate distance (its plies lead to where the
    ruling applies, and the repetition comes on top): it scores as the search scores a table win, below the
    mates, in centipawns."""
    if value.wdl is Wdl.DRAW or value.plies is None:
        return Score(0)
    best = (TB_WIN if value.ruled else MATE) - value.plies
    return Score(best if value.wdl is Wdl.WIN else -best)

"""What a `go` command asks for, in one form for every protocol: times in milliseconds."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class SearchLimits:
    """The limits of one search. Times are in ms, converted at the wire by each protocol.

    The clock fields are the side to move's (`time`, `increment`, `movestogo`) and its opponent's
    (`opp_time`, `opp_increment`, `opp_movestogo`); None means "not given".
    """

    time: Optional[float] = None           # remaining clock of the side to move
    increment: Optional[float] = None
    movestogo: Optional[int] = None        # moves until the next time control
    opp_time: Optional[float] = None
    opp_increment: Optional[float] = None
    opp_movestogo: Optional[int] = None
    movetime: Optional[float] = None       # exactly this long per move
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None             # search for a mate in this many moves
    infinite: bool = False                 # until `stop`
    ponder: bool = False                   # pondering: until `ponderhit` or `stop`
    searchmoves: tuple[str, ...] = field(default_factory=tuple)
    draw_offer: bool = False               # UCCI `go draw`: the opponent offers a draw

    @property
    def has_clock(self) -> bool:
        return self.time is not None

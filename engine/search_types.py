"""The vocabulary of a search, one name per concept for the engine (engine.server) and the client of
external engines (engine.client), and so for the match runner and the analysis tool built on them:

* :class:`SearchLimits` -- what one `go` asks for;
* :class:`PvLine` -- one principal variation as reported during a search (an `info ... pv` line);
* :class:`SearchResult` -- the answer to one `go` (the `bestmove` line and what is known with it);
* :class:`TableEntry` -- what the transposition table holds for a position (UCCI `probe`).

One unit everywhere: times in milliseconds, converted at the wire by each protocol. Moves are ICCS with
ranks 0..9; scores are from the side to move's point of view. A field that an engine may leave out
(another engine's `info` need not give a depth) is None when not given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional

from .score import Score


@dataclass(frozen=True)
class SearchLimits:
    """The limits of one search. Times in ms.

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
    searchmoves: tuple[str, ...] = ()
    draw_offer: bool = False               # UCCI `go draw`: the opponent offers a draw

    @property
    def has_clock(self) -> bool:
        return self.time is not None


@dataclass(frozen=True)
class PvLine:
    """One principal variation of one iteration: line `multipv` (1 is the best), its score and the
    search's counters when it was reported. `bound` is "lower" or "upper" when the score is only a bound."""

    multipv: int = 1
    depth: Optional[int] = None
    seldepth: Optional[int] = None
    score: Optional[Score] = None
    bound: Optional[str] = None
    nodes: Optional[int] = None
    time_ms: Optional[float] = None        # since the `go`
    nps: Optional[int] = None
    hashfull: Optional[int] = None         # permille
    pv: tuple[str, ...] = ()
    wdl: Optional[tuple[int, int, int]] = None   # win, draw, loss per mille for the side to move, if given


@dataclass(frozen=True)
class SearchResult:
    """The answer to one `go`: the move and the main line (multipv 1) it was chosen from.

    bestmove None: no move to play (UCCI `nobestmove`, UCI `(none)`); `note` may say why, and the score
    ``Score.mated()`` then means that the side to move has lost (checkmate, stalemate, or a loss by the
    repetition rulings).
    """

    bestmove: Optional[str]
    ponder: Optional[str] = None
    score: Optional[Score] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    time_ms: float = 0                     # from the `go` to the `bestmove`
    pv: tuple[str, ...] = ()
    resign: bool = False                   # `bestmove m resign`: the engine gives the game up
    offers_draw: bool = False              # `bestmove m draw`: it offers a draw, or accepts the one offered
    note: Optional[str] = None             # why there is no move, or where it came from (a book move); the
                                           # comment of a claim
    static: bool = False                   # `go depth 0`: the score is the static evaluation, no move searched
    claim: Optional[str] = None            # a result the engine claimed ("1-0", "0-1", "1/2-1/2": CECP's
                                           # `1-0 {...}` lines), with or without a move; the referee judges it


class TableEntry(NamedTuple):
    """What the transposition table holds for a position (UCCI `probe`): the move (None: none, or not
    legal there), whether the score is "exact", a "lower" or an "upper" bound, the score (side to
    move's view) and the depth it was searched to (0: a quiescence result)."""

    move: Optional[str]
    bound: str
    score: Score
    depth: int

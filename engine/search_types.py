"""The vocabulary of a search, one name per concept for the engine (engine.server) and the client that
drives engines (engine.client), and so for the match runner, the analysis tool, the browser board and the
tools built on them:

* :class:`SearchLimits` -- what one `go` asks for;
* :class:`PvLine` -- one principal variation as reported during a search (an `info ... pv` line);
* :class:`Wdl` -- the chances of a win, a draw and a loss that a score stands for (engine.wdl's model);
* :class:`CurrentMove` -- the root move a long search is on (an `info currmove` line);
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


class Wdl(NamedTuple):
    """The chances of a win, a draw and a loss for the side whose score it is, per mille, summing to
    1000 (UCI's `wdl W D L`)."""

    win: int
    draw: int
    loss: int

    def __neg__(self) -> "Wdl":
        """The same chances from the other side's view."""
        return Wdl(self.loss, self.draw, self.win)

    def pov(self, flip: bool) -> "Wdl":
        return -self if flip else self

    def text(self) -> str:
        """``W 12.3% D 80.0% L 7.7%``."""
        return f"W {self.win / 10:.1f}% D {self.draw / 10:.1f}% L {self.loss / 10:.1f}%"


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
    tbhits: Optional[int] = None           # probes of endgame tables that gave a value
    pv: tuple[str, ...] = ()
    wdl: Optional[Wdl] = None              # the chances the score stands for, side to move's view


class CurrentMove(NamedTuple):
    """The root move a search has started on (UCI `info depth D currmove M currmovenumber N`): in the
    iteration of `depth`, the `number`-th move searched (counting the moves of earlier MultiPV lines)."""

    depth: int
    move: str
    number: int


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
    wdl: Optional[Wdl] = None              # the chances the score stands for, when the engine gave them
    lines: tuple[PvLine, ...] = ()         # every line of the search's last report, best first (the
                                           # client's SimpleEngine: each PV cut to its legal moves); () when
                                           # not collected


class TableEntry(NamedTuple):
    """What the transposition table holds for a position (UCCI `probe`): the move (None: none, or not
    legal there), whether the score is "exact", a "lower" or an "upper" bound, the score (side to
    move's view) and the depth it was searched to (0: a quiescence result)."""

    move: Optional[str]
    bound: str
    score: Score
    depth: int

"""The values the engine client deals in: how to run an engine, what to ask it, what it answers, how it failed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..score import Score

PROTOCOLS = ("uci", "ucci", "auto")


@dataclass
class EngineConfig:
    """How to run one engine."""

    cmd: str                        # command line (shlex-split; no shell)
    name: Optional[str] = None      # display name (default: the engine's `id name`, else the command)
    proto: str = "auto"             # "uci", "ucci" or "auto" (try `uci` for ~2 s, then `ucci`)
    options: Dict[str, str] = field(default_factory=dict)  # sent after the handshake in the protocol's syntax
    workdir: Optional[str] = None
    rank_base: Optional[int] = None  # 0 or 1 in move strings; None = the codec's default for the engine


@dataclass
class Limits:
    """What the caller asks for one move. All times in ms; clocks are the time remaining."""

    red_time: Optional[float] = None
    black_time: Optional[float] = None
    red_inc: Optional[float] = None
    black_inc: Optional[float] = None
    movestogo: Optional[int] = None
    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None


@dataclass(frozen=True)
class Info:
    """One `info` line. Moves are ICCS with ranks 0..9; the score is from the side to move's view."""

    multipv: int = 1
    depth: Optional[int] = None
    seldepth: Optional[int] = None
    score: Optional[Score] = None
    bound: Optional[str] = None     # "lower" or "upper" when the score is only a bound
    nodes: Optional[int] = None
    time_ms: Optional[int] = None
    pv: Tuple[str, ...] = ()


@dataclass(frozen=True)
class BestMove:
    """One `bestmove` (or UCCI `nobestmove`) line."""

    move: Optional[str]             # ICCS with ranks 0..9; None for nobestmove, (none) or 0000. A string that is
                                    # not a pair of squares is passed through unchanged (the caller finds it illegal).
    ponder: Optional[str] = None
    resign: bool = False            # UCCI "bestmove m resign"
    draw_offer: bool = False        # UCCI "bestmove m draw"


@dataclass
class SearchResult:
    """The answer to one `go`: the best move and the last main-line (multipv 1) information before it."""

    bestmove: Optional[str]         # as BestMove.move
    ponder: Optional[str]
    score: Optional[Score]          # from the side to move's view
    depth: Optional[int]
    nodes: Optional[int]
    pv: List[str]
    elapsed: float                  # seconds from sending go to receiving bestmove
    resign: bool = False
    draw_offer: bool = False


class EngineError(Exception):
    """An engine failed. ``kind`` is "crash" (it exited or closed its output, or could not be started),
    "hang" (no answer in time) or "protocol" (it answered with something unusable).
    ``str(error)`` is one line; ``details`` holds the last lines exchanged and the engine's last stderr lines.
    ``result`` holds the late answer when an engine that timed out still answered ``stop``."""

    KINDS = ("crash", "hang", "protocol")

    def __init__(self, kind: str, message: str, result: Optional[SearchResult] = None,
                 details: str = "") -> None:
        assert kind in self.KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.result = result
        self.details = details

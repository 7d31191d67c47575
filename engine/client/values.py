"""How to run an external engine, and its `bestmove` line as read from the wire.

What is asked and answered beyond that is the vocabulary every layer shares (engine.search_types:
SearchLimits, PvLine, SearchResult); how an engine fails is engine.client.errors."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional

PROTOCOLS = ("uci", "ucci", "xboard", "cecp", "auto")
#: The names of CECP (the XBoard protocol, version 2): the same protocol either way.
XBOARD_NAMES = ("xboard", "cecp")


def canonical_protocol(proto: str) -> str:
    """"xboard" for either of CECP's names; the others as given."""
    return "xboard" if proto in XBOARD_NAMES else proto


@dataclass
class EngineConfig:
    """How to run one engine."""

    cmd: str                        # command line (shlex-split; no shell)
    name: Optional[str] = None      # display name (default: the engine's `id name`, else the command)
    proto: str = "auto"             # "uci", "ucci", "xboard" (or "cecp") or "auto" (try `uci` for ~2 s, then
                                    # `ucci`; an XBoard engine must be named)
    options: Dict[str, str] = field(default_factory=dict)  # sent after the handshake in the protocol's syntax
    workdir: Optional[str] = None
    rank_base: Optional[int] = None  # 0 or 1 in move strings; None = the codec's default for the engine (UCI,
                                     # UCCI), found by a probe at the start (XBoard)


@dataclass(frozen=True)
class BestMove:
    """One `bestmove` (or UCCI `nobestmove`) line."""

    move: Optional[str]             # ICCS with ranks 0..9; None for nobestmove, (none) or 0000. A string that is
                                    # not a pair of squares is passed through unchanged (the caller finds it illegal).
    ponder: Optional[str] = None
    resign: bool = False            # "bestmove m resign"
    offers_draw: bool = False       # "bestmove m draw"

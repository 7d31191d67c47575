"""How to run an engine: a program's command, or an entry point hosted in this process.

What is asked and answered beyond that is the vocabulary every layer shares (engine.search_types:
SearchLimits, PvLine, SearchResult); how an engine fails is engine.client.errors."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional

PROTOCOLS = ("uci", "ucci", "xboard", "cecp", "auto")
#: The names of CECP (the XBoard protocol, version 2): the same protocol either way.
XBOARD_NAMES = ("xboard", "cecp")
#: jiangjun's own engine as an entry point: its protocol loop (``serve(stdin, stdout)``), hosted in this
#: process by engine.client.inprocess. A name, not an import: the client imports nothing of the engine.
BUILTIN_ENTRY = "engine.server.protocol:serve"


def canonical_protocol(proto: str) -> str:
    """"xboard" for either of CECP's names; the others as given."""
    return "xboard" if proto in XBOARD_NAMES else proto


@dataclass
class EngineConfig:
    """How to run one engine: the program `cmd`, or with `entry` the protocol loop of a Python engine run on a
    thread of this process (``EngineConfig.in_process()``: jiangjun's)."""

    cmd: str                        # command line (shlex-split; no shell); "" with an entry point
    name: Optional[str] = None      # display name (default: the engine's `id name`, else the command)
    proto: str = "auto"             # "uci", "ucci", "xboard" (or "cecp") or "auto" (try `uci` for ~2 s, then
                                    # `ucci`; an XBoard engine must be named)
    options: Dict[str, str] = field(default_factory=dict)  # sent after the handshake in the protocol's syntax
    workdir: Optional[str] = None   # the program's working directory (an entry point runs in this process's)
    rank_base: Optional[int] = None  # 0 or 1 in move strings; None = the codec's default for the engine (UCI,
                                     # UCCI), found by a probe at the start (XBoard)
    entry: Optional[str] = None     # "module:function", a protocol loop called as function(stdin, stdout)
                                    # on a thread (engine.client.inprocess); then no program is run

    def __post_init__(self) -> None:
        if self.entry is not None and (self.cmd or self.workdir):
            raise ValueError("an engine is either a program (cmd, workdir) or an entry point hosted in this "
                             "process (entry), not both")

    @classmethod
    def in_process(cls, entry: str = BUILTIN_ENTRY, **fields: object) -> "EngineConfig":
        """An engine hosted in this process: jiangjun's by default, spoken to in UCI unless `proto` says
        otherwise; `fields` are the other fields (name, options, rank_base)."""
        fields.setdefault("proto", "uci")
        return cls("", entry=entry, **fields)  # type: ignore[arg-type]

    @property
    def label(self) -> str:
        """The command, or ``in-process engine.server.protocol:serve``: how the engine is run, in words."""
        return self.cmd if self.entry is None else f"in-process {self.entry}"

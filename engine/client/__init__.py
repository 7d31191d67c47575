"""The client for external engines: one process supervisor, one codec per dialect.

* :mod:`.values` -- what is asked and answered: EngineConfig, Limits, Info, BestMove, SearchResult, EngineError;
* :mod:`.transport` -- the pipes: spawn in a process group, read with a deadline, kill, exit status;
* :mod:`.codec` -- what UCI and UCCI share on the wire (``position``, ``info``, ``bestmove``, rank numbering);
* :mod:`.uci`, :mod:`.ucci` -- each dialect's handshake, option syntax, new-game command and ``go`` line;
* :mod:`.process` -- EngineProcess: the conversation, with the ``auto`` probe, timeouts and resynchronisation.

Used by the match runner (engine.match), the analysis tool (engine.analyze), the tools, benchmarks and tests.
"""
from .codec import Codec
from .process import CODECS, EngineProcess
from .uci import UciCodec
from .ucci import UcciCodec
from .values import PROTOCOLS, BestMove, EngineConfig, EngineError, Info, Limits, SearchResult

__all__ = ["BestMove", "CODECS", "Codec", "EngineConfig", "EngineError", "EngineProcess", "Info", "Limits",
           "PROTOCOLS", "SearchResult", "UcciCodec", "UciCodec"]

"""The client for external engines: one process supervisor, one codec per dialect.

* :mod:`.values` -- how to run an engine (EngineConfig) and its `bestmove` line (BestMove); what is asked and
  answered is engine.search_types' (SearchLimits, PvLine, SearchResult);
* :mod:`.errors` -- how an engine fails: EngineError and its EngineCrashed, EngineTimeout, EngineProtocolError;
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
from .errors import EngineCrashed, EngineError, EngineProtocolError, EngineTimeout
from .values import PROTOCOLS, BestMove, EngineConfig

__all__ = ["BestMove", "CODECS", "Codec", "EngineConfig", "EngineCrashed", "EngineError", "EngineProcess",
           "EngineProtocolError", "EngineTimeout", "PROTOCOLS", "UcciCodec", "UciCodec"]

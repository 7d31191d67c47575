"""The client for external engines: one process supervisor per protocol family, one codec per dialect, and
on top of them a python-chess-style API.

* :mod:`.values` -- how to run an engine (EngineConfig) and its `bestmove` line (BestMove); what is asked and
  answered is engine.search_types' (SearchLimits, PvLine, SearchResult);
* :mod:`.errors` -- how an engine fails: EngineError and its EngineCrashed, EngineTimeout, EngineProtocolError,
  EngineOptionError;
* :mod:`.transport` -- the pipes: spawn in a process group, read with a deadline, kill, exit status;
* :mod:`.options` -- the options an engine declares (any protocol's syntax) and the check of a value;
* :mod:`.base` -- EngineProcess: what every process has, and the factory ``EngineProcess(config)`` that makes
  the one of the config's protocol;
* :mod:`.codec` -- what UCI and UCCI share on the wire (``position``, ``info``, ``bestmove``, rank numbering);
* :mod:`.uci`, :mod:`.ucci` -- each dialect's handshake, option syntax, new-game command and ``go`` line;
* :mod:`.process` -- UciProcess: the UCI/UCCI conversation, with the ``auto`` probe, timeouts and
  resynchronisation;
* :mod:`.cecp_codec`, :mod:`.cecp` -- CECP (XBoard) on the wire, and CecpProcess, its conversation;
* :mod:`.simple` -- SimpleEngine: open any engine in one call, ``analyse``, ``play``, ``configure``.

Used by the match runner (engine.match), the analysis tool (engine.analyze), the tools, benchmarks and tests.
"""
from .base import EngineProcess
from .codec import Codec
from .errors import EngineCrashed, EngineError, EngineOptionError, EngineProtocolError, EngineTimeout
from .options import DeclaredOption
from .process import CODECS, UciProcess
from .cecp import CecpProcess
from .simple import SimpleEngine
from .uci import UciCodec
from .ucci import UcciCodec
from .values import PROTOCOLS, XBOARD_NAMES, BestMove, EngineConfig, canonical_protocol

__all__ = ["BestMove", "CODECS", "CecpProcess", "Codec", "DeclaredOption", "EngineConfig", "EngineCrashed",
           "EngineError", "EngineOptionError", "EngineProcess", "EngineProtocolError", "EngineTimeout",
           "PROTOCOLS", "SimpleEngine", "UciProcess", "UcciCodec", "UciCodec", "XBOARD_NAMES",
           "canonical_protocol"]

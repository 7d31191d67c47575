"""The client of engines: the one way the project drives an engine, a program (any UCI, UCCI or XBoard
engine) or jiangjun itself hosted in this process, with a python-chess-style API on top.

* :mod:`.values` -- how to run an engine (EngineConfig: a command, or an entry point hosted in process;
  BUILTIN_ENTRY, jiangjun's); what is asked and answered is engine.search_types' (SearchLimits, PvLine,
  SearchResult);
* :mod:`.errors` -- how an engine fails: EngineError and its EngineCrashed, EngineTimeout, EngineProtocolError,
  EngineOptionError; SearchInterrupted, Ctrl-C during a search;
* :mod:`.transport` -- the lines to and from an engine, read with a deadline; a program's pipes
  (ProcessTransport: spawn in a process group, kill, exit status);
* :mod:`.inprocess` -- an engine's protocol loop on a thread of this process, over OS pipes (ThreadTransport);
* :mod:`.options` -- the options an engine declares (any protocol's syntax) and the check of a value;
* :mod:`.base` -- EngineProcess: what every engine has, whatever its protocol and its transport;
* :mod:`.codec` -- what UCI and UCCI share on the wire (``position``, ``info``, ``bestmove``, rank numbering);
* :mod:`.uci`, :mod:`.ucci` -- each dialect's handshake, option syntax, new-game command and ``go`` line;
* :mod:`.process` -- UciProcess: the UCI/UCCI conversation, with the ``auto`` probe, timeouts and
  resynchronisation;
* :mod:`.cecp_codec`, :mod:`.cecp` -- CECP (XBoard) on the wire, and CecpProcess, its conversation;
* :mod:`.factory` -- ``open_process(config)``: the process of the config's protocol;
* :mod:`.simple` -- SimpleEngine: open any engine in one call (``popen``, ``in_process``), ``search``,
  ``analyse``, ``play``, ``configure``.

Used by the match runner (engine.match), the analysis tool (engine.analyze), the browser board (engine.web),
the tools, benchmarks and tests. It imports nothing of the engine process (engine.server): jiangjun in
process is named by its entry point, a string; what both sides of a wire need is engine.wire's.
"""
from .base import EngineProcess
from .cecp import CecpProcess
from .codec import Codec
from .errors import (EngineCrashed, EngineError, EngineOptionError, EngineProtocolError, EngineTimeout,
                     SearchInterrupted)
from .factory import open_process
from .options import DeclaredOption
from .process import CODECS, UciProcess
from .simple import SimpleEngine
from .uci import UciCodec
from .ucci import UcciCodec
from .values import BUILTIN_ENTRY, PROTOCOLS, XBOARD_NAMES, EngineConfig, canonical_protocol

__all__ = ["BUILTIN_ENTRY", "CODECS", "CecpProcess", "Codec", "DeclaredOption", "EngineConfig", "EngineCrashed",
           "EngineError", "EngineOptionError", "EngineProcess", "EngineProtocolError", "EngineTimeout",
           "PROTOCOLS", "SearchInterrupted", "SimpleEngine", "UciProcess", "UcciCodec", "UciCodec",
           "XBOARD_NAMES", "canonical_protocol", "open_process"]

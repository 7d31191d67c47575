"""Any external engine in one call, in the style of python-chess's ``chess.engine.SimpleEngine``:

    from engine import Position
    from engine.client import SimpleEngine
    from engine.search_types import SearchLimits

    with SimpleEngine.popen_uci("/usr/games/fairy-stockfish", options={"Threads": 1}) as eng:
        position = Position()
        position.push("h2e2")
        info = eng.analyse(position, SearchLimits(depth=10))           # a PvLine
        info.score, info.wdl, info.depth, info.nodes, info.pv           # pv: ICCS moves, legal from position
        lines = eng.analyse(position, SearchLimits(depth=10), multipv=3)   # a list of PvLines, best first
        result = eng.play(position, SearchLimits(movetime=500))        # a SearchResult
        result.bestmove, result.ponder
        eng.configure({"Hash": 64})                                    # checked against the declaration

``popen(command, protocol)`` opens any of the three protocols (``"uci"``, ``"ucci"``, ``"xboard"`` or its alias
``"cecp"``, ``"auto"``: UCI, else UCCI); ``popen_uci``, ``popen_ucci`` and ``popen_xboard`` name one. The
engine is an EngineProcess underneath (:mod:`.base`), the layer the match runner and the analysis tool use:
one client. The vocabulary is engine.search_types': SearchLimits asks (times in ms), PvLine and
SearchResult answer; scores are the side to move's.

Errors are engine.client.errors': EngineOptionError (an option the engine did not declare, or a value
outside what it declared: the message names the option and what it takes; nothing is sent),
EngineTimeout, EngineCrashed, EngineProtocolError (also for an illegal move played), all EngineErrors; a
limit the protocol cannot express is a ValueError.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, List, Mapping, Optional, Union

from ..position import Position, legal_prefix
from ..search_types import PvLine, SearchLimits, SearchResult
from .base import EngineProcess
from .errors import EngineOptionError, EngineProtocolError
from .options import DeclaredOption
from .values import EngineConfig, canonical_protocol

#: Seconds an engine may take beyond the time a search asks for before it counts as hung.
GRACE = 10.0
#: Seconds a search limited by depth (or nodes) alone may take.
NO_TIME_LIMIT = 3600.0

PositionLike = Union[Position, str]     # a Position, or a FEN


class SimpleEngine:
    """One engine process, opened and ready. Used by one thread at a time; ``quit()`` (or ``with``) ends it."""

    def __init__(self, process: EngineProcess, timeout: float = 10.0) -> None:
        self.process = process
        self.timeout = timeout          # for the handshake, options and new games
        self._multipv = 1

    # -- opening ---------------------------------------------------------------------------------------
    @classmethod
    def popen(cls, command: str, protocol: str = "auto", *, options: Optional[Mapping[str, object]] = None,
              name: Optional[str] = None, workdir: Optional[str] = None, ranks: Optional[int] = None,
              timeout: float = 10.0) -> "SimpleEngine":
        """Start `command` (split as a shell would, run without one) and do the handshake. `options` are set
        after it, each checked against the engine's declaration (EngineOptionError, the engine then ended);
        `ranks` forces the engine's rank numbering (0 or 1; default: known or probed)."""
        config = EngineConfig(command, name=name, proto=protocol, workdir=workdir, rank_base=ranks)
        process = EngineProcess(config)
        process.start(timeout)
        engine = cls(process, timeout)
        try:
            if options:
                engine.configure(options)
            process.new_game(timeout)
        except BaseException:
            engine.quit()
            raise
        return engine

    @classmethod
    def popen_uci(cls, command: str, **kwargs) -> "SimpleEngine":
        return cls.popen(command, "uci", **kwargs)

    @classmethod
    def popen_ucci(cls, command: str, **kwargs) -> "SimpleEngine":
        return cls.popen(command, "ucci", **kwargs)

    @classmethod
    def popen_xboard(cls, command: str, **kwargs) -> "SimpleEngine":
        return cls.popen(command, "xboard", **kwargs)

    # -- what the engine said about itself ---------------------------------------------------------------
    @property
    def id(self) -> Dict[str, str]:
        """``name`` (UCI/UCCI `id name`, CECP `myname`) and ``author`` when given."""
        fields = {"name": self.process.id_name, "author": self.process.id_author}
        return {key: value for key, value in fields.items() if value}

    @property
    def name(self) -> str:
        return self.process.name

    @property
    def protocol(self) -> str:
        return canonical_protocol(self.process.protocol or "")

    @property
    def options(self) -> Dict[str, DeclaredOption]:
        """The options the engine declared, by its spelling."""
        return {option.name: option for option in self.process.declared.values()}

    # -- settings ------------------------------------------------------------------------------------------
    def configure(self, options: Mapping[str, object]) -> None:
        """Set options (names in any case). All are checked against the engine's declarations before any is
        sent: EngineOptionError names the first that cannot be set and what it takes."""
        checked = [self.process.checked_option(name, value, strict=True) for name, value in options.items()]
        for name, value in checked:
            self.process.set_option(name, value, self.timeout, strict=True)
            if name.lower() == "multipv":
                self._multipv = int(value)

    def new_game(self) -> None:
        """Tell the engine that the next position is of another game (ucinewgame, CECP new)."""
        self.process.new_game(self.timeout)

    # -- searching -------------------------------------------------------------------------------------------
    def play(self, position: PositionLike, limit: SearchLimits,
             on_info: Optional[Callable[[PvLine], None]] = None) -> SearchResult:
        """The engine's move in `position` (its moves since the start are sent, so that the engine knows the
        game's repetitions). ``bestmove`` None: no move (with ``resign`` or a ``claim`` when it said so).
        An illegal move is an EngineProtocolError."""
        position = _position(position)
        result = self._go(position, limit, on_info)
        if result.bestmove is not None and not position.is_legal(result.bestmove):
            raise EngineProtocolError(f"{self.name} played the illegal move {result.bestmove} in {position.fen()}")
        return result

    def analyse(self, position: PositionLike, limit: SearchLimits, *, multipv: Optional[int] = None,
                on_info: Optional[Callable[[PvLine], None]] = None) -> Union[PvLine, List[PvLine]]:
        """The engine's view of `position` when `limit` is reached: the main line as a PvLine (score, wdl
        when the engine gives it, depth, nodes, PV cut to its legal moves), or with `multipv` a list of
        that many lines at most, best first. `on_info` sees every line as it comes."""
        position = _position(position)
        wanted = 1 if multipv is None else int(multipv)
        if wanted < 1:
            raise ValueError(f"multipv must be 1 or more, not {multipv}")
        self._set_multipv(wanted)
        latest: Dict[int, PvLine] = {}

        def seen(info: PvLine) -> None:
            if info.pv and info.bound is None and info.score is not None:
                latest[info.multipv] = info
            if on_info is not None:
                on_info(info)

        result = self._go(position, limit, seen)
        lines = [replace(line, pv=legal_prefix(position, line.pv)) for _, line in sorted(latest.items())]
        if result.bestmove is not None and (not lines or lines[0].pv[:1] != (result.bestmove,)):
            # The move can be newer than the last line 1 (a search stopped inside an iteration).
            main = PvLine(depth=result.depth, score=result.score, nodes=result.nodes, time_ms=result.time_ms,
                          pv=legal_prefix(position, result.pv if result.pv[:1] == (result.bestmove,)
                                          else (result.bestmove,)))
            lines = [main] + [line for line in lines if line.pv[:1] != (result.bestmove,)]
        lines = lines[:wanted] or [PvLine()]
        if lines[0].nodes is None and result.nodes is not None:    # UCCI prints the nodes on a line of their own
            lines[0] = replace(lines[0], nodes=result.nodes)
        return lines[0] if multipv is None else lines

    def _set_multipv(self, wanted: int) -> None:
        if wanted == self._multipv:
            return
        name = self.process.option_name("multipv")
        if name is None or (wanted > 1 and self.protocol == "xboard"):
            # CECP's thinking lines carry no line number: several lines cannot be told apart.
            raise EngineOptionError(f"{self.name} cannot show {wanted} lines: "
                                    + ("it declares no MultiPV option" if name is None else
                                       "an XBoard engine's thinking output has one line"), "MultiPV")
        self.process.set_option(name, wanted, self.timeout, strict=True)
        self._multipv = wanted

    def _go(self, position: Position, limit: SearchLimits,
            on_info: Optional[Callable[[PvLine], None]]) -> SearchResult:
        return self.process.go(position.starting_fen, position.move_stack, position.turn, limit,
                               timeout=search_timeout(limit), on_info=on_info)

    # -- ending ------------------------------------------------------------------------------------------------
    def quit(self) -> None:
        """End the engine (quit, then a kill after a grace). Never raises."""
        self.process.quit()

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.name!r} {self.protocol or '?'} pid={self.process.pid}>"


def search_timeout(limit: SearchLimits) -> float:
    """How long a search with `limit` may take before the engine counts as hung (seconds)."""
    if limit.movetime is not None:
        return limit.movetime / 1000 + GRACE
    if limit.time is not None:
        return limit.time / 1000 + GRACE
    return NO_TIME_LIMIT


def _position(position: PositionLike) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position(position)
    raise TypeError(f"expected a Position or a FEN, not {type(position).__name__}")

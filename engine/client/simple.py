"""Any engine in one call, in the style of python-chess's ``chess.engine.SimpleEngine``:

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

    with SimpleEngine.in_process(options={"Threads": 2}) as jiangjun:  # jiangjun itself, on a thread
        result = jiangjun.search(position, SearchLimits(depth=8), multipv=2)
        result.bestmove, result.score, result.lines                     # the move and every line, best first

``popen(command, protocol)`` opens a program in any of the three protocols (``"uci"``, ``"ucci"``,
``"xboard"`` or its alias ``"cecp"``, ``"auto"``: UCI, else UCCI); ``popen_uci``, ``popen_ucci`` and
``popen_xboard`` name one. ``in_process()`` hosts a Python engine's protocol loop on a thread of this process
(jiangjun's by default; :mod:`.inprocess`): the same conversation and the same answers, without a process.
``open(config)`` opens any EngineConfig. The engine is an EngineProcess underneath (:mod:`.base`), the layer
the match runner uses: one client. The vocabulary is engine.search_types': SearchLimits asks (times in ms),
PvLine and SearchResult answer; scores are the side to move's.

Errors are engine.client.errors': EngineOptionError (an option the engine did not declare, or a value
outside what it declared: the message names the option and what it takes; nothing is sent),
EngineTimeout, EngineCrashed, EngineProtocolError (also for an illegal move answered), all EngineErrors; a
limit the protocol cannot express is a ValueError. Ctrl-C during a search raises SearchInterrupted (a
KeyboardInterrupt) whose ``result`` is the engine's answer to the request to stop, completed as
``search`` completes its results.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Union

from ..position import Position, legal_prefix
from ..search_types import PvLine, SearchLimits, SearchResult
from .base import EngineProcess
from .errors import EngineOptionError, EngineProtocolError, SearchInterrupted
from .factory import open_process
from .options import DeclaredOption
from .values import BUILTIN_ENTRY, EngineConfig, canonical_protocol

#: Seconds an engine may take beyond the time a search asks for before it counts as hung.
GRACE = 10.0
#: Seconds a search limited by depth (or nodes) alone may take.
NO_TIME_LIMIT = 3600.0
#: The options that show an engine's win/draw/loss chances in its info lines (UCI, UCCI).
SHOW_WDL = ("UCI_ShowWDL", "showwdl")

PositionLike = Union[Position, str]     # a Position, or a FEN


class SimpleEngine:
    """One engine, opened and ready. Used by one thread at a time (except ``interrupt``); ``quit()`` (or
    ``with``) ends it."""

    def __init__(self, process: EngineProcess, timeout: float = 10.0) -> None:
        self.process = process
        self.timeout = timeout          # for the handshake, options and new games
        self._multipv = 1

    # -- opening ---------------------------------------------------------------------------------------
    @classmethod
    def open(cls, config: EngineConfig, *, options: Optional[Mapping[str, object]] = None,
             timeout: float = 10.0) -> "SimpleEngine":
        """Start the engine of `config` and do the handshake. `options` are set after it, each checked against
        the engine's declaration (EngineOptionError, the engine then ended)."""
        process = open_process(config)
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
    def popen(cls, command: str, protocol: str = "auto", *, options: Optional[Mapping[str, object]] = None,
              name: Optional[str] = None, workdir: Optional[str] = None, ranks: Optional[int] = None,
              timeout: float = 10.0) -> "SimpleEngine":
        """Start the program `command` (split as a shell would, run without one); `ranks` forces the engine's
        rank numbering (0 or 1; default: known or probed)."""
        config = EngineConfig(command, name=name, proto=protocol, workdir=workdir, rank_base=ranks)
        return cls.open(config, options=options, timeout=timeout)

    @classmethod
    def popen_uci(cls, command: str, **kwargs) -> "SimpleEngine":
        return cls.popen(command, "uci", **kwargs)

    @classmethod
    def popen_ucci(cls, command: str, **kwargs) -> "SimpleEngine":
        return cls.popen(command, "ucci", **kwargs)

    @classmethod
    def popen_xboard(cls, command: str, **kwargs) -> "SimpleEngine":
        return cls.popen(command, "xboard", **kwargs)

    @classmethod
    def in_process(cls, entry: str = BUILTIN_ENTRY, protocol: str = "uci", *,
                   options: Optional[Mapping[str, object]] = None, name: Optional[str] = None,
                   timeout: float = 10.0) -> "SimpleEngine":
        """Host the protocol loop `entry` ("module:function", jiangjun's by default) on a thread of this
        process, spoken to in `protocol`."""
        return cls.open(EngineConfig.in_process(entry, proto=protocol, name=name), options=options,
                        timeout=timeout)

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

    @property
    def alive(self) -> bool:
        return self.process.alive

    def option_name(self, *names: str) -> Optional[str]:
        """The engine's spelling of the first of `names` (any case) it offers, or None."""
        return self.process.option_name(*names)

    # -- settings ------------------------------------------------------------------------------------------
    def configure(self, options: Mapping[str, object]) -> None:
        """Set options (names in any case). All are checked against the engine's declarations before any is
        sent: EngineOptionError names the first that cannot be set and what it takes."""
        checked = [self.process.checked_option(name, value, strict=True) for name, value in options.items()]
        for name, value in checked:
            self.process.set_option(name, value, self.timeout, strict=True)
            if name.lower() == "multipv":
                self._multipv = int(value)

    def show_wdl(self) -> bool:
        """Ask for the win/draw/loss chances in the engine's lines, when it offers them (UCI_ShowWDL, UCCI
        showwdl). Returns whether it does."""
        name = self.option_name(*SHOW_WDL)
        if name is None:
            return False
        self.configure({name: True})
        return True

    def new_game(self) -> None:
        """Tell the engine that the next position is of another game (ucinewgame, CECP new)."""
        self.process.new_game(self.timeout)

    # -- searching -------------------------------------------------------------------------------------------
    def play(self, position: PositionLike, limit: SearchLimits,
             on_info: Optional[Callable[[PvLine], None]] = None) -> SearchResult:
        """The engine's move in `position` (its moves since the start are sent, so that the engine knows the
        game's repetitions), searching one line. ``bestmove`` None: no move (with ``resign`` or a ``claim``
        when it said so). An illegal move is an EngineProtocolError."""
        return self.search(position, limit, multipv=1, on_info=on_info)

    def analyse(self, position: PositionLike, limit: SearchLimits, *, multipv: Optional[int] = None,
                on_info: Optional[Callable[[PvLine], None]] = None) -> Union[PvLine, List[PvLine]]:
        """The engine's view of `position` when `limit` is reached: the main line as a PvLine (score, wdl
        when the engine gives it, depth, nodes, PV cut to its legal moves), or with `multipv` a list of
        that many lines at most, best first. `on_info` sees every line as it comes."""
        result = self.search(position, limit, multipv=1 if multipv is None else multipv, on_info=on_info)
        lines = list(result.lines) or [PvLine()]
        return lines[0] if multipv is None else lines

    def search(self, position: PositionLike, limit: SearchLimits, *, multipv: Optional[int] = None,
               on_info: Optional[Callable[[PvLine], None]] = None) -> SearchResult:
        """The whole answer: the move, and the lines of the search's last report in ``lines``, best first (the
        best move's line first, one line per first move, each PV cut to its legal moves); the result's score,
        chances, depth and PV are the first line's. `multipv` sets the number of lines (None: as it is, 1
        unless configured). An illegal move is an EngineProtocolError."""
        position = _position(position)
        if multipv is not None:
            if multipv < 1:
                raise ValueError(f"multipv must be 1 or more, not {multipv}")
            self._set_multipv(multipv)
        latest: Dict[int, PvLine] = {}

        def seen(info: PvLine) -> None:
            if info.pv and info.bound is None and info.score is not None:
                latest[info.multipv] = info
            if on_info is not None:
                on_info(info)

        try:
            result = self._go(position, limit, seen)
        except SearchInterrupted as stopped:
            if stopped.result is not None and _is_legal(position, stopped.result):
                stopped.result = self._complete(position, stopped.result, latest.values())
            raise
        if not _is_legal(position, result):
            raise EngineProtocolError(f"{self.name} answered the illegal move {result.bestmove} in {position.fen()}")
        return self._complete(position, result, latest.values())

    def _complete(self, position: Position, result: SearchResult, lines: Iterable[PvLine]) -> SearchResult:
        ordered = best_first(position, lines, result)[:self._multipv]
        if not ordered:
            return replace(result, pv=legal_prefix(position, result.pv))
        main = ordered[0]
        return replace(result, lines=ordered, score=main.score, wdl=main.wdl, depth=main.depth, pv=main.pv,
                       nodes=main.nodes if result.nodes is None else result.nodes)

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

    def interrupt(self) -> None:
        """Ask the engine to end the search under way and answer now (from another thread than the search's:
        the search then returns as usual). Never raises."""
        self.process.interrupt()

    # -- ending ------------------------------------------------------------------------------------------------
    def quit(self) -> None:
        """End the engine (quit, then a kill after a grace). Never raises."""
        self.process.quit()

    close = quit

    def kill(self) -> None:
        """End the engine at once, without quit's grace, from any thread: a search waiting for it raises
        EngineCrashed (engine.client.base.EngineProcess.kill). Never raises."""
        self.process.kill()

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __repr__(self) -> str:
        where = "in-process" if self.process.in_process else f"pid={self.process.pid}"
        return f"<SimpleEngine {self.name!r} {self.protocol or '?'} {where}>"


def legal_lines(position: Position, lines: Iterable[PvLine]) -> List[PvLine]:
    """Lines ordered by multipv, each PV cut to its legal moves; a line left without a move is dropped, and so
    is one starting with the same move as an earlier one (left over from an earlier iteration)."""
    out, seen = [], set()
    for line in sorted(lines, key=lambda line: line.multipv):
        pv = legal_prefix(position, line.pv)
        if pv and pv[0] not in seen:
            seen.add(pv[0])
            out.append(replace(line, pv=pv))
    return out


def best_first(position: Position, lines: Iterable[PvLine], result: SearchResult) -> tuple[PvLine, ...]:
    """The legal lines with the best move's first, numbered from 1. The move can be newer than the last line
    that starts with it (a search stopped inside an iteration): its line is then the result's own figures."""
    ordered = legal_lines(position, lines)
    best = result.bestmove
    if best is not None and (not ordered or ordered[0].pv[0] != best):
        match = next((line for line in ordered if line.pv[0] == best), None)
        ordered = [line for line in ordered if line is not match]
        if match is None or result.pv[:1] == (best,):
            match = PvLine(depth=result.depth, score=result.score, wdl=result.wdl, nodes=result.nodes,
                           time_ms=result.time_ms,
                           pv=legal_prefix(position, result.pv if result.pv[:1] == (best,) else (best,)))
        ordered.insert(0, match)
    if ordered and ordered[0].nodes is None and result.nodes is not None:   # UCCI: nodes on a line of their own
        ordered[0] = replace(ordered[0], nodes=result.nodes)
    return tuple(replace(line, multipv=number) for number, line in enumerate(ordered, 1))


def search_timeout(limit: SearchLimits) -> float:
    """How long a search with `limit` may take before the engine counts as hung (seconds)."""
    if limit.movetime is not None:
        return limit.movetime / 1000 + GRACE
    if limit.time is not None:
        return limit.time / 1000 + GRACE
    return NO_TIME_LIMIT


def _is_legal(position: Position, result: SearchResult) -> bool:
    """Whether the result's move is legal in `position` (no move is legal: the engine has none to play)."""
    return result.bestmove is None or position.is_legal(result.bestmove)


def _position(position: PositionLike) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position(position)
    raise TypeError(f"expected a Position or a FEN, not {type(position).__name__}")

"""One tab's engine, through the project's client (engine.client.SimpleEngine): jiangjun hosted in the
server's process (the default: one engine of its own per tab, on threads), or the program given with
`jiangjun web --engine`; started on first use, ended with the tab, and started afresh after it crashed or hung.

The command comes only from the server's own configuration (`EngineSpec`, from the `jiangjun web`
command line): nothing the page sends is ever run. Calls block; the server makes them from a worker
thread, one at a time per seat, except `interrupt`, which another thread may call to end a search early.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, List, Optional

from ..client import EngineConfig, EngineError, SimpleEngine
from ..notation import to_chinese_list, to_wxf_list
from ..position import Position, legal_prefix
from ..search_types import PvLine, SearchLimits, SearchResult
from ..server.strength import FULL_STRENGTH

#: Seconds the handshake of a starting engine may take.
START_TIMEOUT = 20.0


@dataclass(frozen=True)
class EngineSpec:
    """How the server runs engines: jiangjun in its own process (no command), or a program's command (split
    as a shell would, run without one) and protocol."""

    command: Optional[str] = None
    proto: str = "auto"

    @classmethod
    def builtin(cls) -> "EngineSpec":
        """jiangjun itself, hosted in the server's process (engine.client.inprocess): the build the server
        runs, whatever folder it was started from."""
        return cls()

    def config(self) -> EngineConfig:
        if self.command is None:
            return EngineConfig.in_process()
        return EngineConfig(self.command, proto=self.proto)

    def open(self) -> SimpleEngine:
        """A started engine showing its win/draw/loss chances when it offers them. Raises EngineFailure."""
        try:
            engine = SimpleEngine.open(self.config(), timeout=START_TIMEOUT)
        except (EngineError, OSError) as exc:
            raise EngineFailure(f"the engine could not be started: {exc}") from None
        try:
            engine.show_wdl()
        except EngineError:
            pass
        return engine


class EngineFailure(RuntimeError):
    """The engine crashed, hung or misbehaved; the message is for the page. The next call starts a new one."""


class EngineSeat:
    """One engine for one tab."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self._engine: Optional[SimpleEngine] = None
        self._level: Optional[int] = None
        self._lock = threading.Lock()     # guards _engine against close() from another thread
        self.closed = False

    @property
    def name(self) -> str:
        return self._engine.name if self._engine is not None else ""

    def _ready(self) -> SimpleEngine:
        with self._lock:
            if self.closed:
                raise EngineFailure("the tab is closed")
            if self._engine is None or not self._engine.alive:
                if self._engine is not None:
                    self._engine.quit()
                self._engine, self._level = None, None
                self._engine = self.spec.open()
            return self._engine

    def _failed(self, exc: Exception) -> EngineFailure:
        """End the engine after a failure, so that the next call starts a new one."""
        with self._lock:
            if self._engine is not None:
                self._engine.quit()
            self._engine = None
        return EngineFailure(f"the engine failed ({exc}); a new one is started for the next move")

    def _set_level(self, engine: SimpleEngine, level: int) -> None:
        if level == self._level:
            return
        name = engine.option_name("Skill Level")
        if name is not None:
            engine.configure({name: level})
        self._level = level

    def play(self, position: Position, level: int = FULL_STRENGTH, movetime: int = 1000,
             on_info: Optional[Callable[[PvLine], None]] = None) -> SearchResult:
        """The engine's move at `level` (its Skill Level, when it has one) with `movetime` ms; `on_info` sees
        its lines as it thinks."""
        engine = self._ready()
        try:
            self._set_level(engine, level)
            return engine.play(position, SearchLimits(movetime=movetime), on_info=on_info)
        except EngineError as exc:
            raise self._failed(exc) from None

    def analyse(self, position: Position, movetime: int, multipv: int,
                on_info: Callable[[PvLine], None]) -> List[PvLine]:
        """Analyse at full strength for `movetime` ms (or until interrupted), `multipv` lines."""
        engine = self._ready()
        try:
            self._set_level(engine, FULL_STRENGTH)
            if not engine.option_name("MultiPV"):
                multipv = 1
            return engine.analyse(position, SearchLimits(movetime=movetime), multipv=multipv, on_info=on_info)
        except EngineError as exc:
            raise self._failed(exc) from None

    def interrupt(self) -> None:
        engine = self._engine
        if engine is not None:
            engine.interrupt()

    def release(self) -> None:
        """End the engine for now (the next call starts a new one)."""
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            engine.quit()

    def close(self) -> None:
        with self._lock:
            self.closed = True
            engine, self._engine = self._engine, None
        if engine is not None:
            engine.quit()


def line_json(position: Position, line: PvLine) -> dict:
    """One analysis line for the page: its score from the side to move's view and from Red's (the bar), the
    chances, the depth and the PV in each notation (cut to its legal moves)."""
    pv = legal_prefix(position, line.pv)
    red_view = position.turn.value == "red"
    score = line.score.to_json() if line.score is not None else None
    red_score = (line.score if red_view else -line.score).to_json() if line.score is not None else None
    wdl = line.wdl
    return {
        "multipv": line.multipv, "depth": line.depth, "seldepth": line.seldepth, "nodes": line.nodes,
        "score": score, "red_score": red_score, "bound": line.bound,
        "wdl": list(wdl) if wdl is not None else None,
        "red_wdl": list(wdl if red_view else -wdl) if wdl is not None else None,
        "pv": list(pv), "chinese": to_chinese_list(position, pv), "wxf": to_wxf_list(position, pv),
    }


__all__ = ["EngineFailure", "EngineSeat", "EngineSpec", "line_json"]

"""One tab's engine, through the project's client (engine.client.SimpleEngine): jiangjun hosted in the
server's process (the default: one engine of its own per tab, on threads), or the program given with
`jiangjun web --engine`; started on first use, ended with the tab, and started afresh after it crashed or hung.

The command comes only from the server's own configuration (`EngineSpec`, from the `jiangjun web`
command line): nothing the page sends is ever run. Calls block; the server makes them from a worker
thread, one at a time per seat, except `interrupt` (end the search now) and `kill` (end the engine now),
which any thread may call while a call waits.

A hang is found where the seat knows that an answer is due: a search asked to stop that has not answered
within STOP_WAIT is killed (its call raises EngineHung at once), and so is an engine after any failure
(no quit grace: it has had its chance); a search that is never stopped is bounded by the client's deadline
(its time and engine.client.simple.GRACE). A program is killed with its process group. An engine hosted in
the server's process has its input closed, which ends a healthy loop; a loop stuck in a bug cannot be
killed (a thread cannot be): its call still ends at once and the next call starts a new engine, but the
stuck thread is left behind (a daemon thread, logged) until the server ends.
"""
from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Sequence

from ..client import BUILTIN_ENTRY, EngineConfig, EngineError, SimpleEngine
from ..notation import to_chinese_list, to_wxf_list
from ..position import Position, legal_prefix
from ..search_types import PvLine, SearchLimits, SearchResult
from ..server.strength import FULL_STRENGTH

logger = logging.getLogger(__name__)
#: Seconds the handshake of a starting engine may take.
START_TIMEOUT = 20.0
#: Seconds a search may take to answer once asked to stop, before its engine counts as hung and is killed.
STOP_WAIT = 5.0


@dataclass(frozen=True)
class EngineSpec:
    """How the server runs engines: a Python engine's protocol loop hosted in its own process (no command:
    jiangjun's by default, `entry` another's), or a program's command (split as a shell would, run without
    one) and protocol."""

    command: Optional[str] = None
    proto: str = "auto"
    entry: str = BUILTIN_ENTRY
    options: tuple[tuple[str, str], ...] = ()      # set at the handshake

    @classmethod
    def builtin(cls, table_folders: Sequence[str] = ()) -> "EngineSpec":
        """jiangjun itself, hosted in the server's process (engine.client.inprocess): the build the server
        runs, whatever folder it was started from; searching with the endgame tables of `table_folders`
        (before the shipped ones), those the page shows."""
        options = (("TablebasePath", ";".join(map(str, table_folders))),) if table_folders else ()
        return cls(options=options)

    def config(self) -> EngineConfig:
        if self.command is None:
            return EngineConfig.in_process(self.entry, options=dict(self.options))
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


class EngineHung(EngineFailure):
    """The engine was killed (EngineSeat.kill) because it did not answer when it should have, e.g. within
    STOP_WAIT of being asked to stop: the call that waited for it raises this at once."""


@dataclass(eq=False)
class _Call:
    """One call of the seat under way: its engine once ready, whether it was asked to stop (and whether the
    request was repeated at the search's first line), why it was killed, and the timer that kills it."""

    engine: Optional[SimpleEngine] = None
    interrupted: bool = False
    repeated: bool = False
    killed: Optional[str] = None
    watchdog: Optional[threading.Timer] = None


class EngineSeat:
    """One engine for one tab. Its calls block and come one at a time; `interrupt` and `kill` may come from
    any thread while one is under way."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self._engine: Optional[SimpleEngine] = None
        self._level: Optional[int] = None
        self._call: Optional[_Call] = None
        self._lock = threading.Lock()     # guards the fields above against interrupt, kill and close
        self.closed = False

    @property
    def name(self) -> str:
        engine = self._engine
        return engine.name if engine is not None else ""

    # -- calls ---------------------------------------------------------------------------------------------
    def play(self, position: Position, level: int = FULL_STRENGTH, movetime: int = 1000,
             on_info: Optional[Callable[[PvLine], None]] = None,
             cancelled: Optional[Callable[[], bool]] = None) -> SearchResult:
        """The engine's move at `level` (its Skill Level, when it has one) with `movetime` ms; `on_info` sees
        its lines as it thinks. No move when it was interrupted before its search began, or `cancelled()` was
        already true when the call began (an interrupt meant for it that came before it)."""
        with self._calling(cancelled) as call:
            engine = self._ready(call)
            self._set_level(engine, level)
            if call.interrupted:
                return SearchResult(bestmove=None, note="interrupted")
            return engine.play(position, SearchLimits(movetime=movetime), on_info=self._watching(call, on_info))

    def analyse(self, position: Position, movetime: int, multipv: int, on_info: Callable[[PvLine], None],
                cancelled: Optional[Callable[[], bool]] = None) -> List[PvLine]:
        """Analyse at full strength for `movetime` ms (or until interrupted), `multipv` lines; none when
        interrupted or cancelled before the search began (as `play`)."""
        with self._calling(cancelled) as call:
            engine = self._ready(call)
            self._set_level(engine, FULL_STRENGTH)
            if not engine.option_name("MultiPV"):
                multipv = 1
            if call.interrupted:
                return []
            return engine.analyse(position, SearchLimits(movetime=movetime), multipv=multipv,
                                  on_info=self._watching(call, on_info))

    @contextlib.contextmanager
    def _calling(self, cancelled: Optional[Callable[[], bool]]) -> Iterator[_Call]:
        """One call under way: an engine's failure turned into EngineFailure (its engine ended), the call's
        watchdog disarmed when it ends. `cancelled` is asked once the call is registered, so that an interrupt
        that came before is not lost: its caller made `cancelled()` true before it interrupted."""
        call = _Call()
        with self._lock:
            self._call = call
        if cancelled is not None and cancelled():
            call.interrupted = True
        try:
            yield call
        except EngineError as exc:
            raise self._failed(call, exc) from None
        finally:
            with self._lock:
                if self._call is call:
                    self._call = None
                if call.watchdog is not None:
                    call.watchdog.cancel()

    def _ready(self, call: _Call) -> SimpleEngine:
        """The seat's engine, started if it has none or it died; started outside the lock, so that interrupt
        and kill never wait for a handshake."""
        with self._lock:
            if self.closed:
                raise EngineFailure("the tab is closed")
            engine = self._engine
            if engine is not None and engine.alive:
                call.engine = engine
                return engine
            self._engine, self._level = None, None
        if engine is not None:
            engine.quit()
        engine = self.spec.open()
        with self._lock:
            dropped = self.closed or call.killed is not None
            if not dropped:
                self._engine = call.engine = engine
        if dropped:
            engine.quit()
            raise self._ended(call) if call.killed is not None else EngineFailure("the tab is closed")
        return engine

    def _watching(self, call: _Call, on_info: Optional[Callable[[PvLine], None]]) -> Callable[[PvLine], None]:
        """`on_info`, after asking the engine once more to stop at the first line after an interrupt: a
        request sent just before the search's `go` reached the engine between two searches, where it means
        nothing (a second one while the engine stops is ignored, as the protocols say of an idle engine)."""
        def seen(info: PvLine) -> None:
            if call.interrupted and not call.repeated and call.engine is not None:
                call.repeated = True
                call.engine.interrupt()
            if on_info is not None:
                on_info(info)
        return seen

    def _set_level(self, engine: SimpleEngine, level: int) -> None:
        if level == self._level:
            return
        name = engine.option_name("Skill Level")
        if name is not None:
            engine.configure({name: level})
        self._level = level

    def _failed(self, call: _Call, exc: Exception) -> EngineFailure:
        """End the call's engine after a failure (at once: it has had its chance), so that the next call
        starts a new one."""
        with self._lock:
            if self._engine is call.engine:
                self._engine = None
        if call.killed is not None:
            return self._ended(call)
        if call.engine is not None:
            _end(call.engine)
        return EngineFailure(f"the engine failed ({exc}); a new one is started for the next move")

    @staticmethod
    def _ended(call: _Call) -> EngineHung:
        return EngineHung(f"the engine {call.killed}; a new one is started for the next search")

    # -- from any thread -----------------------------------------------------------------------------------
    def interrupt(self) -> None:
        """Ask the engine to end the search under way and answer now. A search that has not answered STOP_WAIT
        seconds later is hung: its engine is killed, and the call raises EngineHung."""
        with self._lock:
            call = self._call
            if call is None or call.interrupted:
                return
            call.interrupted = True
            engine = call.engine
            call.watchdog = threading.Timer(STOP_WAIT, self._kill_if_still, (call,))
            call.watchdog.daemon = True
            call.watchdog.start()
        if engine is not None:
            engine.interrupt()

    def _kill_if_still(self, call: _Call) -> None:
        self._kill(f"did not stop within {STOP_WAIT:g} s and was ended", call)

    def kill(self, why: str = "was ended") -> None:
        """End the engine at once, without quit's grace (engine.client's kill): the call waiting for it raises
        EngineHung saying that the engine `why`, and the next call starts a new engine. A program is killed.
        An engine hosted in this process has its input closed and its call ends, but a thread cannot be
        killed: a loop stuck in a search runs on, left behind on its thread (logged). Blocks for at most the
        client's quit grace: call it off an event loop."""
        self._kill(why, None)

    def _kill(self, why: str, only: Optional[_Call]) -> None:
        """kill(why); with `only`, only while that call is under way."""
        with self._lock:
            call = self._call
            if only is not None and call is not only:
                return
            if call is not None:
                call.killed = why
            engine, self._engine, self._level = self._engine, None, None
        if engine is not None:
            _end(engine)

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


def _end(engine: SimpleEngine) -> None:
    """Kill `engine`; one hosted in this process whose loop does not end within the client's quit grace (quit
    waits that long for its thread) is left behind, and said so in the server's log."""
    engine.kill()
    if engine.process.in_process:
        engine.quit()
        if engine.process.returncode is None:
            logger.warning("jiangjun web: the engine %s hosted in this process did not end when its input was "
                           "closed: its thread is left behind", engine.name)


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

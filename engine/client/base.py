"""What every engine process has, whatever it speaks: its transport, its name and declared options, the checks
of an option's value, a context manager, and the interface of a conversation.

:func:`~.factory.open_process` makes the process of a config's protocol: a :class:`~.process.UciProcess` for
UCI, UCCI and ``auto`` (one conversation, two codecs), a :class:`~.cecp.CecpProcess` for XBoard (CECP).
Every caller (the match runner, :class:`~.simple.SimpleEngine` and through it the analysis tool, the browser
board and the tools) talks to it through the methods below and never needs to know which:

    start(timeout)                           handshake, options, ready
    new_game(timeout)                        before each game
    go(fen, moves, side, limits, timeout, on_info) -> SearchResult
    set_option(name, value)                  between searches, checked against the declaration
    game_over(result, comment)               after each game (CECP's `result`; nothing in UCI/UCCI)
    interrupt()                              from another thread: answer now
    quit()                                   never raises
    kill()                                   from any thread: ended at once, no grace

The transport is the config's: a program (:class:`~.transport.ProcessTransport`) or an engine hosted in this
process (:class:`~.inprocess.ThreadTransport`, for a config with an entry point).
"""
from __future__ import annotations

import time
import weakref
from typing import Callable, Dict, List, Optional, Sequence

from ..color import Color
from ..search_types import PvLine, SearchLimits, SearchResult
from .errors import EngineError, EngineOptionError, EngineTimeout
from .inprocess import ThreadTransport
from .options import DeclaredOption
from .transport import ProcessTransport, Stamped, Transport
from .values import PROTOCOLS, EngineConfig

InfoCallback = Callable[[PvLine], None]


class EngineProcess:
    """One engine (the interface; :func:`~.factory.open_process` makes one). ``start()`` (or ``with``) before
    use, ``quit()`` after (never raises)."""

    stop_grace = 0.5            # after a timeout or Ctrl-C: how long to wait for an answer to `stop` (CECP: `?`)
    quit_grace = 1.0            # how long `quit` waits before killing

    def __init__(self, config: EngineConfig) -> None:
        if type(self) is EngineProcess:
            raise TypeError("EngineProcess is the interface: open_process(config) makes the process of the "
                            "config's protocol")
        if config.proto not in PROTOCOLS:
            raise ValueError(f"protocol {config.proto!r}: expected one of {', '.join(PROTOCOLS)}")
        if config.rank_base not in (None, 0, 1):
            raise ValueError(f"rank_base {config.rank_base!r}: expected 0, 1 or None")
        self.config = config
        self.id_name: Optional[str] = None
        self.id_author: Optional[str] = None
        self.advertised: Dict[str, str] = {}    # option name in lower case -> as the engine spells it
        self.declared: Dict[str, DeclaredOption] = {}   # ... -> its declaration (type, range, choices)
        self.warnings: List[str] = []           # unexpected lines seen while setting options
        self.options_set: Dict[str, str] = {}   # every option sent (the client's and the user's), as sent
        self._transport = _transport_for(config, _name_of(self))

    # -- properties ----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.config.name or self.id_name or self.config.label

    @property
    def protocol(self) -> Optional[str]:
        """"uci", "ucci" or "xboard" once started."""
        raise NotImplementedError

    @property
    def alive(self) -> bool:
        return self._transport.alive

    @property
    def pid(self) -> Optional[int]:
        """The engine's process id; None for an engine hosted in this process (and before start)."""
        return self._transport.pid

    @property
    def in_process(self) -> bool:
        """Whether the engine runs on a thread of this process (an entry point) rather than as a program."""
        return isinstance(self._transport, ThreadTransport)

    @property
    def returncode(self) -> Optional[int]:
        return self._transport.returncode

    @property
    def log(self):
        """The last lines exchanged: "> sent", "< received"."""
        return self._transport.log

    @property
    def stderr_tail(self) -> str:
        return "\n".join(self._transport.stderr)

    def log_tail(self, lines: int = 12) -> str:
        return "\n".join(list(self.log)[-lines:])

    # -- context manager / cleanup ---------------------------------------------------------------
    def __enter__(self) -> "EngineProcess":
        if not self._transport.started:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __del__(self) -> None:
        try:
            self._transport.kill()
        except Exception:
            pass

    def __repr__(self) -> str:
        state = "alive" if self.alive else "not running"
        return f"<{type(self).__name__} {self.name!r} {self.protocol or '?'} pid={self.pid} {state}>"

    # -- lines -------------------------------------------------------------------------------------
    def _send(self, line: str) -> None:
        self._transport.send(line)

    def _expect(self, wanted: Callable[[str], bool], deadline: float, what: str,
                seen: Optional[Callable[[str], None]] = None) -> str:
        """Read until a line satisfies `wanted`; other lines go to `seen`."""
        while True:
            got = self._transport.read(deadline)
            if got is None:
                raise EngineTimeout(f"{self.name} did not answer {what} in time", details=self._transport.context())
            stamp, line = got
            if line is None:
                raise self._transport.crash(f"while waiting for {what}")
            if wanted(line):
                return line
            if seen is not None:
                seen(line)

    # -- the conversation ---------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        """Spawn the engine, do the handshake, send the options, wait until it is ready."""
        if self._transport.started:
            raise RuntimeError(f"{self.name}: already started")
        try:
            self._start(timeout)
        except BaseException:
            self._transport.kill()
            raise

    def _start(self, timeout: float) -> None:
        raise NotImplementedError

    def new_game(self, timeout: float = 10.0) -> None:
        """Tell the engine a new game starts."""
        raise NotImplementedError

    def set_option(self, name: str, value: Optional[object] = None, timeout: float = 10.0,
                   strict: bool = False) -> None:
        """Set one option between searches, in the protocol's syntax, and wait until the engine is ready.
        A value the engine's declaration refuses raises EngineOptionError (nothing is sent), and so does a
        name it did not declare when `strict`."""
        raise NotImplementedError

    def go(self, fen: str, moves: Sequence[str], side: Color, limits: SearchLimits, timeout: float,
           on_info: Optional[InfoCallback] = None) -> SearchResult:
        """Search `fen` + `moves` (ICCS, ranks 0..9) for `side`, the side to move, whose clock `limits.time`
        is. Waits for the answer for up to `timeout` seconds, then raises EngineTimeout (with .result if the
        engine still answered the request to stop). Ctrl-C while it waits asks the engine to stop as well,
        and raises SearchInterrupted (a KeyboardInterrupt) with its answer, if one came, as .result.
        ValueError, before anything is sent, for limits the protocol cannot express."""
        raise NotImplementedError

    #: What asks a searching engine to answer now (UCI/UCCI `stop`; CECP's "move now" is `?`).
    interrupt_line = "stop"

    def interrupt(self) -> None:
        """Ask the engine to end the search that `go` is waiting for and answer now; `go` then returns the
        answer as usual. The one call that may come from another thread than the one in `go` (a writer of
        one line to the engine's input). Never raises."""
        try:
            self._send(self.interrupt_line)
        except Exception:
            pass

    def kill(self) -> None:
        """End the engine at once, without `quit`'s grace; from any thread. A program is killed (its process
        group); an engine hosted in this process has its input closed (a thread cannot be killed: a loop that
        does not end with its input runs on). Either way a `go` waiting for it on another thread raises
        EngineCrashed at once. Never raises."""
        self._transport.kill()

    def _collect_late(self, take: Callable[[Stamped], Optional[SearchResult]]) -> Optional[SearchResult]:
        """Ask the engine to answer now (after a timeout, or Ctrl-C) and read for up to `stop_grace` seconds
        until `take` makes the answer of a line. None when no answer came (or the engine went away)."""
        try:
            self._send(self.interrupt_line)
            end = time.monotonic() + self.stop_grace
            while True:
                got = self._transport.read(end)
                if got is None or got[1] is None:
                    return None
                answer = take(got)
                if answer is not None:
                    return answer
        except EngineError:
            return None

    def command(self, lines: Sequence[str], until: Callable[[str], bool], timeout: float = 10.0) -> List[str]:
        """Send `lines` as they are and return the engine's output up to and including the first line for
        which `until` is true (commands beyond the protocol, such as Fairy-Stockfish's `go perft` and `d`);
        moves in them are in the engine's numbering."""
        self._require_started()
        self._between_searches(timeout)
        for line in lines:
            self._send(line)
        out: List[str] = []
        out.append(self._expect(until, time.monotonic() + timeout, repr(lines[-1]), out.append))
        self._after_command()
        return out

    def _require_started(self) -> object:
        """Raise EngineError unless the handshake is done (the protocol's own state)."""
        raise NotImplementedError

    def _between_searches(self, timeout: float) -> None:
        """Wait until no search of the engine's is running, so that a command is not mistaken for an answer."""
        raise NotImplementedError

    def _after_command(self) -> None:
        """What a command beyond the protocol may have changed in the engine (nothing known by default)."""

    def game_over(self, result: str, comment: str = "") -> None:
        """The game ended with `result` ("1-0", "0-1", "1/2-1/2", "*"). Never raises."""

    def quit(self) -> None:
        """Ask the engine to exit, give it `quit_grace` seconds, then kill it. Never raises."""
        transport = self._transport
        if not transport.started:
            return
        try:
            if transport.returncode is None:
                try:
                    for line in self._quit_lines():
                        self._send(line)
                except Exception:
                    pass
                transport.close_input(self.quit_grace)
        except Exception:
            pass
        finally:
            transport.kill()
            transport.eof = True

    def _quit_lines(self) -> List[str]:
        return ["quit"]

    # -- options -------------------------------------------------------------------------------------
    def option_name(self, *names: str) -> Optional[str]:
        """The engine's spelling of the first of `names` (any case) it advertises, or None."""
        for name in names:
            spelled = self.advertised.get(name.lower())
            if spelled is not None:
                return spelled
        return None

    def checked_option(self, name: str, value: object, strict: bool = False) -> tuple[str, str]:
        """(the engine's spelling of `name`, the value as sent) after checking the value against what the
        engine declared. A name it did not declare passes unchecked, as given, unless `strict`: then it
        raises EngineOptionError, as does a value outside the declaration."""
        declared = self.declared.get(name.strip().lower())
        if declared is None:
            if strict:
                known = ", ".join(sorted(option.name for option in self.declared.values())) or "none"
                raise EngineOptionError(f"{self.name} declares no option {name!r} (its options: {known})", name)
            return name, "" if value is None else str(value)
        return declared.name, declared.validate(value, self.name)


def _name_of(process: EngineProcess) -> Callable[[], str]:
    """`process.name`, for the transport's messages, without a reference that would keep the process alive
    (its __del__ kills the engine)."""
    ref = weakref.ref(process)
    label = process.config.label

    def name() -> str:
        alive = ref()
        return label if alive is None else alive.name
    return name




def _transport_for(config: EngineConfig, name: Callable[[], str]) -> Transport:
    """The transport of `config`: its entry point hosted on a thread, else its command run as a program."""
    if config.entry is not None:
        return ThreadTransport(config.entry, name)
    return ProcessTransport(config.cmd, config.workdir, name)

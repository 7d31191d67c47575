"""The engine's text protocol on stdin/stdout: the reader loop, the writer, and dialect detection.

The dialect is chosen by the first command, and again by any later handshake:

* `ucci` -> UCCI 3.0 (engine.server.ucci), `uci` -> UCI (engine.server.uci), both answered at once;
* `xboard` (then `protover 2`, answered with the feature list), or `protover` first -> CECP, the xboard
  protocol (engine.server.cecp); a later `xboard` in CECP changes nothing;
* `ucicyclone`, or anything else first (typically a bare `position`, `fen` or `startpos` line, the
  "cyclone" style of many Chinese GUIs) -> UCI without a handshake.

Only the chosen dialect's module is imported, when its first line arrives, and the engine facade (with
the search kernel) is created by the first command that needs it (session.LazyEngine): the handshake
answers about as fast as the interpreter starts.

The reader loop only parses and dispatches: searches run on the engine facade's background thread, so
`isready`, `stop` and `quit` are answered while it thinks. Input is read by a reader thread into a queue
that the protocol thread works through; a session can also post work to that queue from a search thread
(CECP plays its move and starts pondering on the protocol thread). No input ends or crashes the process:
a line that cannot be carried out gets `info string <what was wrong>` (CECP: `Error (...): ...`) and is
otherwise ignored. End of input stops any search and ends the loop.

Every line read (by the protocol thread, before it is carried out) and written (by the writer) also
goes to the debug log when the option `Debug Log File` names one (engine.server.debuglog).
"""
from __future__ import annotations

import queue
import threading
from typing import IO, Callable, Iterator, NamedTuple, Optional, Union

from .commands import quote
from .debuglog import DebugLog
from .session import BaseSession, LazyEngine, Post, Say

HELP_LINE = "jiangjun, a Xiangqi engine: type 'uci', 'ucci' or 'xboard' to start, 'quit' to leave."
#: Longest input line accepted (bytes): far more than a `position` with a whole game's moves.
MAX_LINE = 64 * 1024


class Writer:
    """The one writer: whole lines, flushed one by one, from any thread, each also to the debug log."""

    def __init__(self, stream: IO[str], log: Optional[DebugLog] = None) -> None:
        self._stream = stream
        self._log = log
        self._binary = getattr(stream, "buffer", None)
        self._lock = threading.Lock()
        self.closed = False

    def say(self, line: str) -> None:
        """Write one line. A line break inside `line` becomes a space; a closed output is ignored."""
        text = line.replace("\r", " ").replace("\n", " ") + "\n"
        with self._lock:
            if self.closed:
                return
            try:
                if self._binary is not None:
                    self._binary.write(text.encode("utf-8", "replace"))
                    self._binary.flush()
                else:
                    self._stream.write(text)
                    self._stream.flush()
            except (OSError, ValueError):  # the GUI has gone away
                self.closed = True
                return
            if self._log is not None:
                self._log.outgoing(text)


class OverlongLine(NamedTuple):
    """A line longer than MAX_LINE, skipped without being kept in memory."""

    length: int


def read_lines(stream: IO[str]) -> Iterator[Union[str, OverlongLine]]:
    """The input lines, decoded as UTF-8 with bad bytes replaced; overlong lines as OverlongLine."""
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text stream (tests, embedding)
        for line in stream:
            yield OverlongLine(len(line)) if len(line) > MAX_LINE else line
        return
    while True:
        chunk = binary.readline(MAX_LINE + 1)
        if not chunk:
            return
        if len(chunk) > MAX_LINE and not chunk.endswith(b"\n"):
            length = len(chunk)
            while True:  # skip to the end of the line
                more = binary.readline(MAX_LINE)
                length += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield OverlongLine(length)
            continue
        yield chunk.decode("utf-8", errors="replace")


class Protocol:
    """Dispatches input lines to the session of the current dialect, over one engine."""

    def __init__(self, engine: LazyEngine, say: Say, post: Post, log: Optional[DebugLog] = None) -> None:
        """`post` queues work for the protocol thread (run it with run_posted between input lines); `log`
        is the debug log the input goes to (and that the option `Debug Log File` opens)."""
        self.engine = engine
        self.say = say
        self.post = post
        self.log = log if log is not None else DebugLog()
        self.session: Optional[BaseSession] = None

    def handle_line(self, line: Union[str, OverlongLine]) -> bool:
        """Carry out one input line; never raises. Returns False when the engine should exit."""
        self.log.incoming(f"(a line of {line.length} bytes, skipped)" if isinstance(line, OverlongLine) else line)
        if isinstance(line, OverlongLine):
            self._error(f"ignored a line of {line.length} bytes: longer than {MAX_LINE}", "")
            return True
        words = line.split()
        if not words:
            return True
        try:
            return self._dispatch(words)
        except (ValueError, MemoryError) as exc:
            # CommandError, InvalidFenError, IllegalMoveError, OptionError are ValueErrors.
            self._error(str(exc), line.strip())
        except Exception as exc:
            from .engine import EngineBusyError   # raised by the facade, so loaded already

            if isinstance(exc, EngineBusyError):
                self._error(str(exc), line.strip())
            else:  # a bug: report it and carry on
                self._error(f"internal error on {quote(line.strip())}: {exc!r}", line.strip())
        return True

    def run_posted(self, task: Callable[[], None]) -> None:
        """Carry out work a session posted from another thread; never raises."""
        try:
            task()
        except Exception as exc:  # a bug: report it and carry on
            self._error(f"internal error: {exc!r}", "")

    def close(self) -> None:
        if self.session is not None:
            self.session.close()

    def _error(self, message: str, line: str) -> None:
        if self.session is None:
            self.say(f"info string {message}")
        else:
            self.session.report_error(message, line)

    def _switch(self, session: BaseSession) -> BaseSession:
        if self.session is not None:
            self.session.close()
        self.session = session
        return session

    def _dispatch(self, words: list[str]) -> bool:
        first = words[0]
        if first in ("uci", "ucicyclone"):
            session = self._switch(self._new_session("uci"))
            if first == "uci":
                session.handshake()
            return True
        if first == "ucci":
            self._switch(self._new_session("ucci")).handshake()
            return True
        if first in ("xboard", "protover") and (self.session is None or self.session.dialect != "cecp"):
            self._switch(self._new_session("cecp"))
            if first == "xboard":
                return True
        if self.session is None:
            self.session = self._new_session("uci")
        return self.session.handle(words)

    def _new_session(self, dialect: str) -> BaseSession:
        """A session of `dialect`, whose module is imported only now: a process loads one dialect."""
        if dialect == "ucci":
            from .ucci import UcciSession

            return UcciSession(self.engine, self.say, self.log)
        if dialect == "cecp":
            from .cecp import CecpSession

            return CecpSession(self.engine, self.say, self.post, self.log)
        from .uci import UciSession

        return UciSession(self.engine, self.say, self.log)


def serve(stdin: IO[str], stdout: IO[str]) -> int:
    """Read commands until `quit` or end of input. Never raises on bad input. Returns the exit status."""
    log = DebugLog()
    writer = Writer(stdout, log)
    try:
        interactive = stdin.isatty()
    except (AttributeError, ValueError, OSError):
        interactive = False
    if interactive:
        writer.say(HELP_LINE)
    engine = LazyEngine()
    inbox: "queue.Queue[object]" = queue.Queue()
    protocol = Protocol(engine, writer.say, inbox.put, log)
    end_of_input = object()

    def reader() -> None:
        try:
            for line in read_lines(stdin):
                inbox.put(line)
        except (OSError, ValueError):  # the input was closed under us
            pass
        inbox.put(end_of_input)

    threading.Thread(target=reader, name="stdin", daemon=True).start()
    try:
        while True:
            item = inbox.get()
            if item is end_of_input:
                break
            if callable(item):
                protocol.run_posted(item)
            elif not protocol.handle_line(item):  # type: ignore[arg-type]
                break
    except KeyboardInterrupt:
        pass
    finally:
        protocol.close()
        engine.shutdown()
        log.close()
    return 0

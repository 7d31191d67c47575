"""An engine hosted in this process: its protocol loop run on a thread, connected by two OS pipes.

An entry point names the loop, ``"module:function"``; the function is called as ``function(stdin, stdout)``
with two text files (UTF-8) that behave like ``sys.stdin`` and ``sys.stdout`` of a process (lines, ``buffer``,
``fileno``), and returns when its input ends or it is told to quit (its return value, an int, is the exit
status). jiangjun's own is :data:`~.values.BUILTIN_ENTRY`, ``engine.server.protocol:serve``; any Python engine
with such a function can be hosted so. The module is imported when the engine is started, not before: the
client imports nothing of an engine it hosts.

The conversation is then the same as with a program (the same process classes, the same lines, the same
events); only the transport differs:

* no process: ``pid`` is None, and a ``kill`` closes the engine's input instead of killing it. An engine
  that does not end when its input does (a bug) leaves its thread behind (a daemon thread);
* an exception the loop raises (or ``SystemExit``) ends it as a crash would, its traceback kept as the
  "stderr" of the error's details;
* the engine shares the process: whatever it keeps in globals is shared by every engine hosted at once.
  Several jiangjun engines can run side by side (each has its own position, options, hash table and search
  threads), but the kernel's NNUE network is one per process (ext/nnue.pxi): the last ``EvalFile`` loaded is
  the network of every hosted engine from its next search on, and so are the search parameters that
  ``JIANGJUN_TUNE`` exposes as options. A process signal (Ctrl-C) goes to this process's main thread, never to
  the engine's: the client asks the engine to stop instead (engine.client.errors.SearchInterrupted).
"""
from __future__ import annotations

import importlib
import os
import threading
import time
import traceback
from typing import IO, Callable, Optional

from .errors import EngineCrashed
from .transport import Transport

#: The protocol loop of a hosted engine: (stdin, stdout) -> exit status.
EntryPoint = Callable[[IO[str], IO[str]], Optional[int]]


def load_entry(entry: str) -> EntryPoint:
    """The function an entry point ``"module:function"`` names. Raises EngineCrashed when it cannot be
    loaded."""
    module_name, sep, function_name = entry.partition(":")
    if not sep or not module_name or not function_name:
        raise EngineCrashed(f"entry point {entry!r}: expected 'module:function'")
    try:
        function = getattr(importlib.import_module(module_name), function_name)
    except (ImportError, AttributeError) as exc:
        raise EngineCrashed(f"cannot load the entry point {entry!r}: {exc}") from None
    if not callable(function):
        raise EngineCrashed(f"entry point {entry!r} is not a function")
    return function


class ThreadTransport(Transport):
    """The pipes to an engine whose protocol loop `entry` runs on a thread of this process."""

    def __init__(self, entry: str, name: Callable[[], str]) -> None:
        super().__init__(name)
        self.entry = entry
        self._thread: Optional[threading.Thread] = None
        self._input: Optional[IO[str]] = None       # our end of the engine's stdin
        self._code: Optional[int] = None            # the loop's exit status, once it has returned
        self._failure: Optional[str] = None         # what it raised

    @property
    def started(self) -> bool:
        return self._thread is not None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self.eof

    @property
    def returncode(self) -> Optional[int]:
        return None if self._thread is None or self._thread.is_alive() else self._code

    @property
    def thread(self) -> Optional[threading.Thread]:
        """The thread the engine's loop runs on (None before start)."""
        return self._thread

    def _how_it_ended(self) -> Optional[str]:
        if self._thread is not None:
            self._thread.join(0.5)
        if self._failure is not None:
            return f"raised {self._failure}"
        code = self.returncode
        return None if code is None else f"exited with code {code}"

    def start(self) -> None:
        serve = load_entry(self.entry)
        to_engine, from_engine = os.pipe(), os.pipe()
        engine_in = open(to_engine[0], "r", encoding="utf-8", errors="replace")
        engine_out = open(from_engine[1], "w", encoding="utf-8", errors="replace")
        self._input = open(to_engine[1], "w", encoding="utf-8", errors="replace")
        self._code = self._failure = None
        self._begin_reading(open(from_engine[0], "rb"), self.entry, close=True)
        self._thread = threading.Thread(target=self._host, args=(serve, engine_in, engine_out), daemon=True,
                                        name=f"engine {self.entry}")
        self._thread.start()

    def _host(self, serve: EntryPoint, engine_in: IO[str], engine_out: IO[str]) -> None:
        """The engine's thread: run the loop, then close its output (our reader's end of file)."""
        try:
            code = serve(engine_in, engine_out)
            self._code = code if isinstance(code, int) else 0
        except SystemExit as exc:
            self._code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException as exc:     # a bug of the engine's: reported as its crash
            self._failure = f"{type(exc).__name__}: {exc}"
            self.stderr.extend(line.rstrip("\n") for line in traceback.format_exception(exc)[-self.stderr_size:])
            self._code = 1
        finally:
            _close(engine_out)
            # The loop's own reader may still be reading its input: this waits until that input is closed
            # (close_input, kill), which ends the read.
            _close(engine_in)

    def _write(self, text: str) -> None:
        if self._input is None:
            raise ValueError("no input")
        self._input.write(text)
        self._input.flush()

    def close_input(self, grace: float) -> None:
        stream, self._input = self._input, None
        if stream is not None:
            _close(stream)
        if self._thread is not None:
            self._thread.join(grace)

    def kill(self) -> None:
        """Close the engine's input: a thread cannot be killed, but an engine ends with its input. Does not
        wait for it. A read waiting for the engine's output (a `go` on another thread) ends at once, at an end
        of file: a loop that does not end with its input (a bug) never closes its output."""
        self.close_input(0)
        self.eof = True
        self._batches.put([(time.monotonic(), None)])

    def __del__(self) -> None:
        try:
            self.kill()
        except Exception:
            pass


def _close(stream: IO) -> None:
    try:
        stream.close()
    except (OSError, ValueError):
        pass

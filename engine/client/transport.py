"""The lines to and from one engine, whatever runs it: read with a deadline, written whole, logged.

:class:`Transport` is what every engine's pipes have: a daemon thread moves the engine's output lines into a
queue, stamped with their arrival time, so that every read waits (blocking, no polling) exactly until its
deadline. It passes on whatever one read returned as one batch of lines: an engine prints dozens of lines at
a time (``d``, ``go perft``, MultiPV), and one queue hand-over per line would cost more than the engine takes
to answer. Every line sent and received is kept in a short exchange log for error messages.

Two kinds fill in how the engine runs:

* :class:`ProcessTransport` (here) -- a program: spawned in its own process group (so that Ctrl-C in the
  terminal does not reach it and a kill takes its children too), its stderr's last lines kept (so that it can
  never fill up and block the engine); processes still running when the interpreter exits are killed;
* :class:`~.inprocess.ThreadTransport` -- an engine hosted in this process, on a thread.
"""
from __future__ import annotations

import atexit
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from typing import IO, Callable, Deque, List, Optional, Tuple

from .errors import EngineCrashed

#: A line as read: (arrival time on the monotonic clock, the line without its end, or None at EOF).
Stamped = Tuple[float, Optional[str]]

_LIVE: "weakref.WeakSet[Transport]" = weakref.WeakSet()


@atexit.register
def _kill_leftovers() -> None:
    for transport in list(_LIVE):
        transport.kill()


class Transport:
    """The lines of one engine. ``start()`` runs it (again after ``kill()``, keeping the log); a subclass says
    how it runs, how it is ended and how it ended (``_write``, ``_how_it_ended``).

    ``name`` gives the engine's current display name for error messages."""

    log_size = 60               # lines of the exchange kept for error messages
    stderr_size = 20

    def __init__(self, name: Callable[[], str]) -> None:
        self.name = name
        self.log: Deque[str] = deque(maxlen=self.log_size)     # "> sent" / "< received"
        self.stderr: Deque[str] = deque(maxlen=self.stderr_size)
        self._batches: "queue.Queue[List[Stamped]]" = queue.Queue()
        self._ready: Deque[Stamped] = deque()     # lines of a batch taken from the queue, not yet read
        self._send_lock = threading.Lock()        # `interrupt` may send from another thread than `go`'s
        self.eof = False

    # -- what each kind says ---------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        raise NotImplementedError

    @property
    def alive(self) -> bool:
        raise NotImplementedError

    @property
    def pid(self) -> Optional[int]:
        """The process id (None: not a process of its own)."""
        return None

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the engine has ended (negative: killed by that signal), else None."""
        raise NotImplementedError

    def start(self) -> None:
        """Run the engine. Raises EngineCrashed when it cannot be started."""
        raise NotImplementedError

    def kill(self) -> None:
        """End the engine at once and release what it holds. Never raises."""
        raise NotImplementedError

    def close_input(self, grace: float) -> None:
        """Close the engine's input and wait up to `grace` seconds for it to end. Never raises."""
        raise NotImplementedError

    def _write(self, text: str) -> None:
        """Write `text` to the engine's input and flush it (OSError or ValueError when it is closed)."""
        raise NotImplementedError

    def _how_it_ended(self) -> Optional[str]:
        """"exited with code 1", "was killed by SIGKILL", ...: how the engine ended, None if it is not known."""
        raise NotImplementedError

    # -- state ----------------------------------------------------------------------------------------
    def context(self) -> str:
        """The last lines exchanged and the last stderr lines, for an EngineError's details."""
        parts = []
        if self.log:
            parts.append("last lines:\n  " + "\n  ".join(list(self.log)[-8:]))
        if self.stderr:
            parts.append("stderr:\n  " + "\n  ".join(list(self.stderr)[-8:]))
        return "\n".join(parts)

    def crash(self, when: str) -> EngineCrashed:
        """The error for an engine that went away (`when`: "while ...", or "")."""
        self.eof = True
        how = self._how_it_ended() or "closed its output"
        return EngineCrashed(f"{self.name()} {how} {when}".rstrip(), details=self.context())

    # -- lines ----------------------------------------------------------------------------------------
    def _begin_reading(self, stream: IO[bytes], label: str, close: bool = False) -> None:
        """Start the thread that reads the engine's output `stream` into the queue (a fresh one); `close`: it
        closes the stream at the end."""
        self._batches = queue.Queue()
        self._ready = deque()
        self.eof = False
        threading.Thread(target=_read_lines, args=(stream, self._batches, close), daemon=True,
                         name=f"engine-out-{label}").start()

    def send(self, line: str) -> None:
        if not self.started:
            raise EngineCrashed(f"{self.name()}: the engine is not running")
        with self._send_lock:
            self.log.append(f"> {line}")
            try:
                self._write(line + "\n")
            except (OSError, ValueError):
                raise self.crash(f"while sending {line!r}") from None

    def read(self, deadline: float) -> Optional[Stamped]:
        """The next line, or None at the `deadline` (time.monotonic()); (stamp, None) at EOF, once.
        Raises EngineCrashed when called again after EOF."""
        if self.eof:
            raise self.crash("")
        if not self._ready:
            remaining = deadline - time.monotonic()
            try:
                self._ready.extend(self._batches.get(timeout=remaining) if remaining > 0
                                   else self._batches.get_nowait())
            except queue.Empty:
                return None
        stamp, line = self._ready.popleft()
        if line is None:
            self.eof = True
            return stamp, None
        self.log.append(f"< {line}")
        return stamp, line

    def drain(self, seen: Optional[Callable[[str], None]] = None) -> None:
        """Discard the lines already received (late output of an earlier search), showing each to `seen`
        first if given; raise at EOF."""
        while True:
            if not self._ready:
                try:
                    self._ready.extend(self._batches.get_nowait())
                except queue.Empty:
                    return
            stamp, line = self._ready.popleft()
            if line is None:
                self.eof = True
                raise self.crash("between searches")
            self.log.append(f"< {line}")
            if seen is not None:
                seen(line)


class ProcessTransport(Transport):
    """The pipes to one engine program, run from `cmd` (split as a shell would, run without one) in
    `workdir`."""

    def __init__(self, cmd: str, workdir: Optional[str], name: Callable[[], str]) -> None:
        super().__init__(name)
        self.cmd = cmd
        self.workdir = workdir
        self._proc: Optional[subprocess.Popen] = None

    @property
    def started(self) -> bool:
        return self._proc is not None

    @property
    def alive(self) -> bool:
        return self._proc is not None and exit_code(self._proc) is None and not self.eof

    @property
    def pid(self) -> Optional[int]:
        return None if self._proc is None else self._proc.pid

    @property
    def returncode(self) -> Optional[int]:
        return None if self._proc is None else exit_code(self._proc)

    def _how_it_ended(self) -> Optional[str]:
        code = None if self._proc is None else wait_exit(self._proc, 0.5)
        if code is None:
            return None
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                pass
        return f"exited with code {code}"

    def start(self) -> None:
        try:
            argv = shlex.split(self.cmd)
        except ValueError as exc:
            raise EngineCrashed(f"cannot parse the command {self.cmd!r}: {exc}") from None
        if not argv:
            raise EngineCrashed("empty engine command")
        try:
            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.workdir, text=True, encoding="utf-8", errors="replace", bufsize=1,
                start_new_session=(os.name == "posix"),   # so that kill() can take down the whole group
            )
        except OSError as exc:
            raise EngineCrashed(f"cannot start {self.cmd!r}: {exc}") from None
        self._proc = proc
        _LIVE.add(self)
        self._begin_reading(proc.stdout.buffer, str(proc.pid))
        threading.Thread(target=_keep_tail, args=(proc.stderr, self.stderr), daemon=True,
                         name=f"engine-err-{proc.pid}").start()

    def kill(self) -> None:
        """Kill the process and its process group, and reap it. Never raises.

        The group is killed before the leader is reaped, so its id cannot have been reused by then; this also
        takes down children of a wrapper script."""
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.returncode is None:
                killed = False
                if os.name == "posix":
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                        killed = True
                    except OSError:
                        pass
                if not killed:
                    try:
                        proc.kill()
                    except OSError:
                        pass
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except Exception:
                    pass
        except Exception:
            pass
        finally:
            _LIVE.discard(self)

    def close_input(self, grace: float) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except Exception:
            pass
        wait_exit(proc, grace)

    def __del__(self) -> None:
        try:
            self.kill()
        except Exception:
            pass

    def _write(self, text: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise ValueError("no input")
        proc.stdin.write(text)
        proc.stdin.flush()


def _read_lines(stream: IO[bytes], sink: "queue.Queue[List[Stamped]]", close: bool) -> None:
    """Put the lines of `stream` (a binary stream) into `sink`, a batch per read; a last line None at EOF."""
    pending = b""
    try:
        for chunk in iter(lambda: stream.read1(1 << 16), b""):
            stamp = time.monotonic()
            *lines, pending = (pending + chunk).split(b"\n")
            if lines:
                sink.put([(stamp, _text(line)) for line in lines])
    except (OSError, ValueError):
        pass
    end: List[Stamped] = [(time.monotonic(), _text(pending))] if pending else []
    sink.put(end + [(time.monotonic(), None)])
    if close:
        try:
            stream.close()
        except (OSError, ValueError):
            pass


def _text(line: bytes) -> str:
    return line.decode("utf-8", errors="replace").rstrip("\r")


def _keep_tail(stream, tail: Deque[str]) -> None:
    try:
        for line in iter(stream.readline, ""):
            tail.append(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass


def exit_code(proc: subprocess.Popen) -> Optional[int]:
    """The exit code (negative: killed by that signal) if the process has ended, else None -- without reaping
    it, so that its process group can still be killed safely."""
    if proc.returncode is not None:
        return proc.returncode
    if os.name != "posix" or not hasattr(os, "waitid"):
        return proc.poll()
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except OSError:                 # ChildProcessError included: reaped elsewhere
        return proc.poll()
    if info is None or info.si_pid == 0:
        return None
    if info.si_code == os.CLD_EXITED:
        return info.si_status
    return -info.si_status


def wait_exit(proc: subprocess.Popen, timeout: float) -> Optional[int]:
    end = time.monotonic() + timeout
    while True:
        code = exit_code(proc)
        if code is not None or time.monotonic() >= end:
            return code
        time.sleep(0.01)

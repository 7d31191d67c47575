"""Engine processes for `jiangjun match`: spawn an engine, speak UCI or UCCI to it, ask it for moves.

    cfg = EngineConfig("/usr/games/fairy-stockfish", proto="ucci")
    with EngineProcess(cfg) as eng:            # start() is called on entry, quit() on exit
        eng.new_game()
        result = eng.go(START_FEN, ["h2e2"], "black", Limits(depth=5), timeout=30)
        result.bestmove                         # "h9g7" -- always ICCS with ranks 0..9

Protocol notes (see the protocol reference):

* UCI: ``position fen F moves ...`` and ``go wtime btime winc binc movestogo | movetime | depth | nodes``, all in
  ms, wtime being Red's clock. An engine that advertises ``UCI_Variant`` (Fairy-Stockfish) is switched to
  ``xiangqi``; Fairy-Stockfish in UCI mode numbers ranks 1..10, which is converted both ways (``rank_base``).
* UCCI: ``go time T [movestogo N | increment I] [opptime T2 [oppincrement I2]]`` with T the side to move's clock,
  in ms after ``setoption usemillisec true`` (sent when the engine advertises ``usemillisec``), otherwise in
  whole seconds. Fairy-Stockfish reads ms in UCCI mode whether or not it advertises the option (versions before
  its PR #407 do not), so it is always sent ms. UCCI has a single search mode per ``go``: depth, then nodes,
  then movetime (sent as ``go time <movetime> movestogo 1``), then the clock. A clock without movestogo is sent
  with ``increment`` (0 when none) because ElephantEye reads a bare ``time`` as "all of it for this move".

A process is used by one thread at a time. Every read has a deadline: a daemon thread moves the engine's
output lines into a queue, so ``go`` waits exactly ``timeout`` seconds.
"""
from __future__ import annotations

import atexit
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Deque, Dict, List, Optional, Tuple

__all__ = ["EngineConfig", "EngineError", "Limits", "SearchResult", "EngineProcess"]

PROTOCOLS = ("uci", "ucci", "auto")
_MOVE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")
_NO_MOVE = {"(none)", "0000", "none", "null", "(null)"}


@dataclass
class EngineConfig:
    """How to run one engine."""

    cmd: str                        # command line (shlex-split; no shell)
    name: Optional[str] = None      # display name (default: the engine's `id name`, else the command)
    proto: str = "auto"             # "uci", "ucci" or "auto" (try `uci` for ~2 s, then `ucci`)
    options: Dict[str, str] = field(default_factory=dict)  # sent after the handshake in the protocol's syntax
    workdir: Optional[str] = None
    rank_base: Optional[int] = None  # 0 or 1 in move strings; None = 1 for Fairy-Stockfish under UCI, else 0


class EngineError(Exception):
    """An engine failed. ``kind`` is "crash" (it exited or closed its output, or could not be started),
    "hang" (no answer in time) or "protocol" (it answered with something unusable).
    ``str(error)`` is one line; ``details`` holds the last lines exchanged and the engine's last stderr lines.
    ``result`` holds the late answer when an engine that timed out still answered ``stop``."""

    KINDS = ("crash", "hang", "protocol")

    def __init__(self, kind: str, message: str, result: Optional["SearchResult"] = None,
                 details: str = "") -> None:
        assert kind in self.KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.result = result
        self.details = details


@dataclass
class Limits:
    """What the runner asks for one move. All times in ms; clocks are the time remaining."""

    red_time: Optional[float] = None
    black_time: Optional[float] = None
    red_inc: Optional[float] = None
    black_inc: Optional[float] = None
    movestogo: Optional[int] = None
    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None


@dataclass
class SearchResult:
    bestmove: Optional[str]     # ICCS with ranks 0..9; None for nobestmove, (none) or 0000. A string that is not
                                # a pair of squares is passed through unchanged (the caller finds it illegal).
    ponder: Optional[str]
    score_cp: Optional[int]     # from the side to move's view
    mate: Optional[int]         # in moves, negative when being mated (UCI `score mate`)
    depth: Optional[int]
    nodes: Optional[int]
    pv: List[str]
    elapsed: float              # seconds from sending go to receiving bestmove
    resign: bool = False        # UCCI "bestmove m resign"
    draw_offer: bool = False    # UCCI "bestmove m draw"


# Processes still running when the interpreter exits are killed.
_LIVE: "weakref.WeakSet[EngineProcess]" = weakref.WeakSet()


@atexit.register
def _kill_leftovers() -> None:
    for process in list(_LIVE):
        process._kill()


def _reader(stream, sink: "queue.Queue[Tuple[float, Optional[str]]]") -> None:
    """Move lines from the engine's stdout into the queue, stamped with their arrival time; None means EOF."""
    try:
        for line in iter(stream.readline, ""):
            sink.put((time.monotonic(), line.rstrip("\r\n")))
    except (OSError, ValueError):
        pass
    sink.put((time.monotonic(), None))


def _tail_reader(stream, tail: Deque[str]) -> None:
    try:
        for line in iter(stream.readline, ""):
            tail.append(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass


class _Info:
    """The search information gathered from `info` lines during one go."""

    def __init__(self) -> None:
        self.score_cp: Optional[int] = None
        self.mate: Optional[int] = None
        self.depth: Optional[int] = None
        self.nodes: Optional[int] = None
        self.pv: List[str] = []


class EngineProcess:
    """One engine process. ``start()`` (or ``with``) before use, ``quit()`` after (never raises)."""

    uci_probe_timeout = 2.0     # auto mode: how long to wait for `uciok` before trying `ucci`
    stop_grace = 0.5            # after a timeout: how long to wait for an answer to `stop`
    quit_grace = 1.0            # how long `quit` waits before killing
    log_size = 60               # lines of the exchange kept for error messages

    def __init__(self, config: EngineConfig) -> None:
        if config.proto not in PROTOCOLS:
            raise ValueError(f"protocol {config.proto!r}: expected one of {', '.join(PROTOCOLS)}")
        if config.rank_base not in (None, 0, 1):
            raise ValueError(f"rank_base {config.rank_base!r}: expected 0, 1 or None")
        self.config = config
        self.protocol: Optional[str] = None
        self.id_name: Optional[str] = None
        self.id_author: Optional[str] = None
        self.advertised: Dict[str, str] = {}    # option name (lower case) -> its `option` line
        self.rank_base = 0
        self.millisec = True                    # UCCI: go times in ms (else seconds)
        self.warnings: List[str] = []           # unexpected lines seen while setting options
        self.log: Deque[str] = deque(maxlen=self.log_size)   # "> sent" / "< received"
        self.on_io: Optional[Callable[[str, str], None]] = None   # called with (">" or "<", line)
        self._stderr: Deque[str] = deque(maxlen=20)
        self._proc: Optional[subprocess.Popen] = None
        self._lines: "queue.Queue[Tuple[float, Optional[str]]]" = queue.Queue()
        self._eof = False
        self._stale = False          # we sent stop and have not seen the answer
        self._need_sync = False      # resynchronise with isready before the next command
        self._gos = 0

    # -- properties ----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.config.name or self.id_name or self.config.cmd

    @property
    def alive(self) -> bool:
        return self._proc is not None and _exit_code(self._proc) is None and not self._eof

    @property
    def pid(self) -> Optional[int]:
        return None if self._proc is None else self._proc.pid

    @property
    def returncode(self) -> Optional[int]:
        return None if self._proc is None else _exit_code(self._proc)

    @property
    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    def log_tail(self, lines: int = 12) -> str:
        return "\n".join(list(self.log)[-lines:])

    # -- context manager / cleanup ---------------------------------------------------------------
    def __enter__(self) -> "EngineProcess":
        if self._proc is None:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __del__(self) -> None:
        try:
            self._kill()
        except Exception:
            pass

    def __repr__(self) -> str:
        state = "alive" if self.alive else "not running"
        return f"<EngineProcess {self.name!r} {self.protocol or '?'} pid={self.pid} {state}>"

    # -- process plumbing ------------------------------------------------------------------------
    def _spawn(self) -> None:
        try:
            argv = shlex.split(self.config.cmd)
        except ValueError as exc:
            raise EngineError("crash", f"cannot parse the command {self.config.cmd!r}: {exc}") from None
        if not argv:
            raise EngineError("crash", "empty engine command")
        try:
            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.config.workdir, text=True, encoding="utf-8", errors="replace", bufsize=1,
                start_new_session=(os.name == "posix"),   # so that _kill can take down the whole group
            )
        except OSError as exc:
            raise EngineError("crash", f"cannot start {self.config.cmd!r}: {exc}") from None
        self._proc = proc
        self._lines = queue.Queue()
        self._eof = False
        self._stale = self._need_sync = False
        _LIVE.add(self)
        threading.Thread(target=_reader, args=(proc.stdout, self._lines), daemon=True,
                         name=f"engine-out-{proc.pid}").start()
        threading.Thread(target=_tail_reader, args=(proc.stderr, self._stderr), daemon=True,
                         name=f"engine-err-{proc.pid}").start()

    def _kill(self) -> None:
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

    def _send(self, line: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineError("crash", f"{self.name}: the engine is not running")
        self._note(">", line)
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise self._crash(f"while sending {line!r}") from None

    def _note(self, direction: str, line: str) -> None:
        self.log.append(f"{direction} {line}")
        if self.on_io is not None:
            try:
                self.on_io(direction, line)
            except Exception:
                pass

    def _crash(self, when: str) -> EngineError:
        self._eof = True
        code = None if self._proc is None else _wait_exit(self._proc, 0.5)
        how = "closed its output" if code is None else f"exited with code {code}"
        if code is not None and code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                pass
        return EngineError("crash", f"{self.name} {how} {when}".rstrip(), details=self._context())

    def _context(self) -> str:
        parts = []
        if self.log:
            parts.append("last lines:\n  " + "\n  ".join(list(self.log)[-8:]))
        if self._stderr:
            parts.append("stderr:\n  " + "\n  ".join(list(self._stderr)[-8:]))
        return "\n".join(parts)

    def _read(self, deadline: float) -> Optional[Tuple[float, Optional[str]]]:
        """The next line, or None at the deadline. Raises EngineError("crash") at EOF."""
        if self._eof:
            raise self._crash("")
        remaining = deadline - time.monotonic()
        try:
            stamp, line = self._lines.get(timeout=max(0.0, remaining)) if remaining > 0 else self._lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:
            self._eof = True
            return stamp, None
        self._note("<", line)
        return stamp, line

    def _expect(self, wanted: Callable[[str], bool], deadline: float, what: str,
                seen: Optional[Callable[[str], None]] = None) -> str:
        """Read until a line satisfies `wanted`; other lines go to `seen`."""
        while True:
            got = self._read(deadline)
            if got is None:
                raise EngineError("hang", f"{self.name} did not answer {what} in time", details=self._context())
            stamp, line = got
            if line is None:
                raise self._crash(f"while waiting for {what}")
            if wanted(line):
                return line
            if seen is not None:
                seen(line)

    def _drain(self) -> None:
        """Discard lines already received (late info output); notice an EOF."""
        while True:
            try:
                stamp, line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._eof = True
                raise self._crash("between searches")
            self._note("<", line)

    # -- handshake ---------------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        """Spawn the engine, do the handshake, send the options, wait for readyok."""
        if self._proc is not None:
            raise RuntimeError(f"{self.name}: already started")
        try:
            self._start(timeout)
        except BaseException:
            self._kill()
            raise

    def _start(self, timeout: float) -> None:
        self._spawn()
        proto = self.config.proto
        if proto == "auto":
            answered = self._handshake("uci", min(self.uci_probe_timeout, timeout), probing=True)
            if answered in (None, "dead"):
                if answered == "dead":      # e.g. ElephantEye exits on anything but `ucci`: start it again
                    self._kill()
                    self.advertised.clear()
                    self.id_name = self.id_author = None
                    self._spawn()
                answered = self._handshake("ucci", timeout, probing=False)
            self.protocol = answered
        else:
            self.protocol = self._handshake(proto, timeout, probing=False)
        assert self.protocol in ("uci", "ucci")

        if self.config.rank_base is not None:
            self.rank_base = self.config.rank_base
        else:
            fsf = "fairy-stockfish" in (self.id_name or "").lower()
            self.rank_base = 1 if (self.protocol == "uci" and fsf) else 0

        user = {k.lower() for k in self.config.options}
        if self.protocol == "uci":
            if "uci_variant" in self.advertised and "uci_variant" not in user:
                self._setoption("UCI_Variant", "xiangqi")
        else:
            fsf = "fairy-stockfish" in (self.id_name or "").lower()
            if "usemillisec" in self.advertised:
                self._setoption("usemillisec", "true")
                self.millisec = True
            else:
                self.millisec = fsf   # Fairy-Stockfish always read ms, before it advertised usemillisec
        for key, value in self.config.options.items():
            self._setoption(key, value)
            if self.protocol == "ucci" and key.lower() == "usemillisec":
                self.millisec = str(value).strip().lower() in ("true", "on", "1", "yes")
        self._isready(timeout, collect=True)

    def _handshake(self, proto: str, timeout: float, probing: bool) -> Optional[str]:
        """Send `uci`/`ucci` and read up to uciok/ucciok. Returns the protocol that answered; when probing,
        None if the engine did not answer in time and "dead" if it closed its output or exited."""
        deadline = time.monotonic() + timeout
        try:
            self._send(proto)
        except EngineError:
            if probing:
                return "dead"
            raise
        other_lines = 0
        while True:
            got = self._read(deadline)
            if got is None:
                if probing:
                    return None
                if other_lines:
                    raise EngineError("protocol", f"{self.name} printed output but never `{proto}ok` "
                                      f"(does it speak {proto.upper()}?)", details=self._context())
                raise EngineError("hang", f"{self.name} did not answer `{proto}` within {timeout:g} s",
                                  details=self._context())
            stamp, line = got
            if line is None:
                if probing:
                    return "dead"
                raise self._crash(f"during the `{proto}` handshake")
            words = line.split()
            if not words:
                continue
            if words[0] == "uciok":
                return "uci"
            if words[0] == "ucciok":
                return "ucci"
            if words[0] == "id" and len(words) >= 2:
                text = line.split(None, 2)[2].strip() if len(words) > 2 else ""
                if words[1] == "name":
                    self.id_name = text or None
                elif words[1] == "author":
                    self.id_author = text or None
            elif words[0] == "option" and len(words) >= 2:
                if words[1] == "name":      # UCI: option name <words...> type ...
                    end = words.index("type") if "type" in words else len(words)
                    name = " ".join(words[2:end])
                else:                       # UCCI: option <name> type ...
                    name = words[1]
                if name:
                    self.advertised[name.lower()] = line
            else:
                other_lines += 1

    def _setoption(self, name: str, value: Optional[str]) -> None:
        value = None if value is None else str(value)
        if self.protocol == "uci":
            line = f"setoption name {name}"
            if value is not None and value != "":
                line += f" value {value}"
        else:
            line = f"setoption {name.strip().replace(' ', '_')}"
            if value is not None and value != "":
                line += f" {value}"
        self._send(line)

    def _isready(self, timeout: float, collect: bool = False) -> None:
        def other(line: str) -> None:
            if collect and line.strip():
                self.warnings.append(line)
        self._send("isready")
        self._expect(lambda line: line.strip() == "readyok", time.monotonic() + timeout, "isready", other)

    def _sync(self, timeout: float) -> None:
        """After a `stop` that timed out: wait for readyok, dropping the late bestmove (if it comes)."""
        if not self._need_sync:
            return
        self._drain()
        deadline = time.monotonic() + timeout

        def late(line: str) -> None:
            if line.startswith(("bestmove", "nobestmove")):
                self._stale = False
        self._send("isready")
        self._expect(lambda line: line.strip() == "readyok", deadline, "isready after an earlier timeout", late)
        if self._stale:   # a UCI engine may answer isready before the stopped search prints bestmove
            end = time.monotonic() + self.stop_grace
            while self._stale:
                got = self._read(end)
                if got is None:
                    break
                if got[1] is None:
                    raise self._crash("after an earlier timeout")
                late(got[1])
        self._stale = self._need_sync = False

    # -- games -------------------------------------------------------------------------------------
    def new_game(self, timeout: float = 10.0) -> None:
        """Tell the engine a new game starts (UCI ucinewgame; UCCI `setoption newgame` if advertised)."""
        self._require_started()
        self._sync(timeout)
        self._drain()
        if self.protocol == "uci":
            self._send("ucinewgame")
        elif "newgame" in self.advertised:
            self._send("setoption newgame")
        self._isready(timeout)

    def set_option(self, name: str, value: Optional[str] = None, timeout: float = 10.0) -> None:
        """Set one option between searches, in the protocol's syntax, and wait for readyok (used by
        `jiangjun analyze` for MultiPV, Threads and Hash once the advertised options are known)."""
        self._require_started()
        self._sync(timeout)
        self._drain()
        self._setoption(name, value)
        self._isready(timeout)

    def _require_started(self) -> None:
        if self._proc is None or self.protocol is None:
            raise RuntimeError(f"{self.name}: start() it first")
        if not self.alive:
            raise self._crash("earlier")

    def to_engine(self, move: str) -> str:
        """An ICCS move (ranks 0..9) in the engine's numbering."""
        if self.rank_base == 0:
            return move
        m = _MOVE.match(move)
        if not m:
            return move
        return f"{m.group(1)}{int(m.group(2)) + self.rank_base}{m.group(3)}{int(m.group(4)) + self.rank_base}"

    def from_engine(self, move: str) -> str:
        """An engine's move string as ICCS with ranks 0..9; returned unchanged when it is not a square pair."""
        m = _MOVE.match(move.strip())
        if not m:
            return move
        r1, r2 = int(m.group(2)) - self.rank_base, int(m.group(4)) - self.rank_base
        if not (0 <= r1 <= 9 and 0 <= r2 <= 9):
            return move
        return f"{m.group(1)}{r1}{m.group(3)}{r2}"

    def position_command(self, fen: str, moves: List[str]) -> str:
        fields = fen.split()
        if len(fields) >= 2 and fields[1].lower() == "r":   # some tools write r for Red; engines want w
            fields[1] = "w"
        line = "position fen " + " ".join(fields)
        if moves:
            line += " moves " + " ".join(self.to_engine(m) for m in moves)
        return line

    def go_command(self, side: str, limits: Limits) -> str:
        """The `go` line for the side to move ("red"/"black", or "w"/"r"/"b")."""
        red = _is_red(side)
        if self.protocol == "uci":
            words = ["go"]
            if limits.red_time is not None or limits.black_time is not None:
                for key, value in (("wtime", limits.red_time), ("btime", limits.black_time),
                                   ("winc", limits.red_inc), ("binc", limits.black_inc)):
                    if value is not None:
                        words += [key, str(_ms(value))]
                if limits.movestogo:
                    words += ["movestogo", str(int(limits.movestogo))]
            if limits.movetime is not None:
                words += ["movetime", str(max(1, _ms(limits.movetime)))]
            if limits.depth is not None:
                words += ["depth", str(int(limits.depth))]
            if limits.nodes is not None:
                words += ["nodes", str(int(limits.nodes))]
            if len(words) == 1:
                raise ValueError("Limits: give a clock, movetime, depth or nodes")
            return " ".join(words)
        # UCCI: one search mode per go
        if limits.depth is not None:
            return f"go depth {int(limits.depth)}"
        if limits.nodes is not None:
            return f"go nodes {int(limits.nodes)}"
        if limits.movetime is not None:
            return f"go time {self._ucci_time(limits.movetime)} movestogo 1"
        own, opp = (limits.red_time, limits.black_time) if red else (limits.black_time, limits.red_time)
        own_inc, opp_inc = (limits.red_inc, limits.black_inc) if red else (limits.black_inc, limits.red_inc)
        if own is None:
            raise ValueError("Limits: give a clock, movetime, depth or nodes")
        words = ["go", "time", str(self._ucci_time(own))]
        if limits.movestogo:
            words += ["movestogo", str(int(limits.movestogo))]
        else:
            words += ["increment", str(self._ucci_time(own_inc or 0, at_least_one=False))]
        if opp is not None:
            words += ["opptime", str(self._ucci_time(opp))]
            if not limits.movestogo:
                words += ["oppincrement", str(self._ucci_time(opp_inc or 0, at_least_one=False))]
        return " ".join(words)

    def _ucci_time(self, ms: float, at_least_one: bool = True) -> int:
        if self.millisec:
            value = _ms(ms)
        else:
            value = int(max(0.0, ms) // 1000)   # whole seconds, truncated, as the UCCI league sends them
        return max(1, value) if at_least_one else value

    def go(self, fen: str, moves: List[str], side: str, limits: Limits, timeout: float) -> SearchResult:
        """Search `fen` + `moves` (ICCS, ranks 0..9) for `side` ("red"/"black"). Waits for the answer for up to
        `timeout` seconds; then sends stop and raises EngineError("hang") (with .result if stop was answered)."""
        self._require_started()
        go_line = self.go_command(side, limits)   # ValueError before anything is sent
        self._sync(timeout)
        self._drain()
        self._send(self.position_command(fen, moves))
        self._send(go_line)
        self._gos += 1
        sent = time.monotonic()
        deadline = sent + timeout
        info = _Info()
        while True:
            got = self._read(deadline)
            if got is None:
                return self._timed_out(sent, timeout, info)
            stamp, line = got
            if line is None:
                raise self._crash(f"while thinking (go #{self._gos})")
            words = line.split()
            if not words:
                continue
            if words[0] == "info":
                self._parse_info(words, info)
            elif words[0] in ("bestmove", "nobestmove"):
                return self._result(words, info, stamp - sent)

    def _timed_out(self, sent: float, timeout: float, info: _Info) -> SearchResult:
        self._stale = self._need_sync = True
        late: Optional[SearchResult] = None
        try:
            self._send("stop")
            end = time.monotonic() + self.stop_grace
            while True:
                got = self._read(end)
                if got is None:
                    break
                stamp, line = got
                if line is None:
                    break
                words = line.split()
                if words and words[0] == "info":
                    self._parse_info(words, info)
                elif words and words[0] in ("bestmove", "nobestmove"):
                    late = self._result(words, info, stamp - sent)
                    self._stale = False
                    break
        except EngineError:
            pass
        what = "answered stop late" if late is not None else "did not answer stop either"
        raise EngineError("hang", f"{self.name} gave no move within {timeout:g} s and {what}",
                          result=late, details=self._context())

    def _parse_info(self, words: List[str], info: _Info) -> None:
        if len(words) > 1 and words[1] in ("string", "message"):
            return
        fields: Dict[str, str] = {}
        pv: Optional[List[str]] = None
        score_cp = mate = None
        has_score = False
        i = 1
        try:
            while i < len(words):
                key = words[i]
                if key == "pv":
                    pv = [self.from_engine(m) for m in words[i + 1:]]
                    break
                if key == "score":
                    has_score = True
                    kind = words[i + 1] if i + 1 < len(words) else ""
                    if kind == "cp":
                        score_cp = int(words[i + 2])
                        i += 3
                    elif kind == "mate":
                        mate = int(words[i + 2])
                        i += 3
                    else:                               # UCCI: bare integer
                        score_cp = int(kind)
                        i += 2
                    continue
                if key in ("depth", "nodes", "multipv") and i + 1 < len(words):
                    fields[key] = words[i + 1]
                    i += 2
                    continue
                i += 1
        except (ValueError, IndexError):
            return
        if fields.get("multipv", "1") != "1":
            return
        if "nodes" in fields:
            try:
                info.nodes = int(fields["nodes"])
            except ValueError:
                pass
        if has_score:
            info.score_cp, info.mate = score_cp, mate
            if "depth" in fields:
                try:
                    info.depth = int(fields["depth"])
                except ValueError:
                    pass
            if pv:
                info.pv = pv

    def _result(self, words: List[str], info: _Info, elapsed: float) -> SearchResult:
        best = ponder = None
        resign = draw = False
        if words[0] == "bestmove":
            rest = words[1:]
            if rest and rest[0] not in ("ponder", "draw", "resign"):
                best = rest.pop(0)
            while rest:
                token = rest.pop(0)
                if token == "ponder" and rest:
                    ponder = rest.pop(0)
                elif token == "resign":
                    resign = True
                elif token == "draw":
                    draw = True
        if best is not None:
            best = None if best.lower() in _NO_MOVE else self.from_engine(best)
        if ponder is not None:
            ponder = None if ponder.lower() in _NO_MOVE else self.from_engine(ponder)
        return SearchResult(bestmove=best, ponder=ponder, score_cp=info.score_cp, mate=info.mate,
                            depth=info.depth, nodes=info.nodes, pv=list(info.pv), elapsed=max(0.0, elapsed),
                            resign=resign, draw_offer=draw)

    # -- shutdown ----------------------------------------------------------------------------------
    def quit(self) -> None:
        """Send quit, give the engine `quit_grace` seconds to exit, then kill it. Never raises."""
        proc = self._proc
        if proc is None:
            return
        try:
            if _exit_code(proc) is None:
                try:
                    if self._stale:
                        self._send("stop")
                    self._send("quit")
                    if proc.stdin is not None:
                        proc.stdin.close()
                except Exception:
                    pass
                _wait_exit(proc, self.quit_grace)
        except Exception:
            pass
        finally:
            self._kill()
            self._eof = True


def _exit_code(proc: subprocess.Popen) -> Optional[int]:
    """The exit code (negative: killed by that signal) if the process has ended, else None -- without reaping
    it, so that its process group can still be killed safely."""
    if proc.returncode is not None:
        return proc.returncode
    if os.name != "posix" or not hasattr(os, "waitid"):
        return proc.poll()
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:       # reaped elsewhere
        return proc.poll()
    except OSError:
        return proc.poll()
    if info is None or info.si_pid == 0:
        return None
    if info.si_code == os.CLD_EXITED:
        return info.si_status
    return -info.si_status


def _wait_exit(proc: subprocess.Popen, timeout: float) -> Optional[int]:
    end = time.monotonic() + timeout
    while True:
        code = _exit_code(proc)
        if code is not None or time.monotonic() >= end:
            return code
        time.sleep(0.01)


def _ms(value: float) -> int:
    return int(max(0.0, value))


def _is_red(side) -> bool:
    text = str(getattr(side, "value", side)).strip().lower()
    if text in ("red", "r", "w", "white"):
        return True
    if text in ("black", "b"):
        return False
    raise ValueError(f"side {side!r}: expected 'red' or 'black'")

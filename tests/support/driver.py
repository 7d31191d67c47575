"""A scripted dialogue with the engine as a subprocess (`python -m engine`): send lines, read lines with
deadlines. Used by the protocol tests (tests/server) and benchmarks/protocol_latency.py; the one place
that knows how to start an engine process for a test and read its answers.

    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("go depth 3")
        move = bestmove_of(eng.read_until("bestmove", timeout=5))

The timeouts of the reads are guards against a hang, not claims about speed: a test never asserts how
long an answer took (the latencies are measured by benchmarks/protocol_latency.py).

The process runs in a temporary directory, so the installed package is what runs; when this checkout
has a compiled extension, it is put first on PYTHONPATH instead. `ENGINE_COMMAND` and `fake_command`
are the command lines of this engine and of the fake engines (tests/fake_engines) for engine.client.
"""
from __future__ import annotations

import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable, Optional, Union
from support import FAKES, engine_env

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# Black is checkmated (the Pikafish transcript's position).
MATED_FEN = "4k4/4R4/4P4/9/9/9/9/9/5R3/3K5 b - - 0 1"
# Red mates in one: b0b9 checkmates; a8f8 leaves Black without a move (a loss too).
MATE_IN_ONE_FEN = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"

#: `python -m engine` as a command line for engine.client (run it outside the checkout: support.engine_env).
ENGINE_COMMAND = shlex.join([sys.executable, "-m", "engine"])

_MOVE = r"[a-i]\d[a-i]\d"
#: The answer to `go` in UCI and UCCI: the move, the move to ponder on, and (UCCI only) a draw offer.
BESTMOVE = re.compile(rf"^bestmove ({_MOVE})(?: ponder ({_MOVE}))?( draw)?$")

Match = Union[str, Callable[[str], bool]]


def fake_command(script: str, *flags: str) -> str:
    """The command line of a fake engine of tests/fake_engines (they import `engine`: run them under the
    engine_pythonpath fixture)."""
    return shlex.join([sys.executable, str(FAKES / script), *flags])


def bestmove_of(lines: list[str], draw: bool = False) -> str:
    """The move of the last line, which must be a `bestmove` line; with a draw offer only if `draw` (UCCI's
    answer to `go draw` or `ponderhit draw` may carry one)."""
    match = BESTMOVE.match(lines[-1])
    assert match and (draw or not match.group(3)), lines[-1]
    return match.group(1)


def _matcher(match: Match) -> Callable[[str], bool]:
    if callable(match):
        return match
    return lambda line: line == match or line.startswith(match + " ")


class EngineDriver:
    """One engine process. Every read has a timeout; lines read are also kept in `transcript`."""

    def __init__(self, args: tuple[str, ...] = ()) -> None:
        env = engine_env()
        self._workdir = tempfile.TemporaryDirectory(prefix="jiangjun-driver-")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine", *args], cwd=self._workdir.name, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self._lines: "queue.Queue[Optional[tuple[float, str]]]" = queue.Queue()
        self.transcript: list[str] = []   # "> sent" and "< received" lines, for failure messages
        self.stderr = b""
        self._eof = False
        self.last_when = 0.0             # when the last line read arrived (time.monotonic())
        self.dialect: Optional[str] = None   # "uci" or "ucci" after handshake()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_thread.start()

    # -- plumbing ----------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self._lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def __enter__(self) -> "EngineDriver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, timeout: float = 5.0) -> int:
        """Close stdin, wait for the exit (killing after `timeout` s); returns the exit status."""
        try:
            if self.proc.stdin and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            status = self.proc.wait()
        self._stderr_thread.join(2)
        self._workdir.cleanup()
        return status

    # -- dialogue ----------------------------------------------------------------------------
    def send(self, line: Union[str, bytes]) -> float:
        """Send one line (a newline is added); returns the time it was sent (time.monotonic(), taken
        before the write, so that an answer is never timed before its question)."""
        data = line if isinstance(line, bytes) else line.encode("utf-8")
        assert self.proc.stdin is not None
        self.transcript.append(f"> {data[:200]!r}" if isinstance(line, bytes) else f"> {line[:200]}")
        sent = time.monotonic()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return sent

    def read_line(self, timeout: float) -> tuple[float, str]:
        """The next line and when it arrived. Raises TimeoutError, or EOFError once the output ended."""
        if self._eof:
            raise EOFError("the engine's output has ended\n" + self.dump())
        try:
            item = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise TimeoutError(f"no line within {timeout:.2f} s\n" + self.dump()) from None
        if item is None:
            self._eof = True
            raise EOFError("the engine's output has ended\n" + self.dump())
        self.transcript.append(f"< {item[1][:200]}")
        self.last_when = item[0]
        return item

    def read_until(self, match: Match, timeout: float) -> list[str]:
        """All lines up to and including the first that matches (a string matches itself or as the
        first word(s) of a line). Raises TimeoutError."""
        test = _matcher(match)
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            _, line = self.read_line(deadline - time.monotonic())
            lines.append(line)
            if test(line):
                return lines

    def expect(self, match: Match, timeout: float) -> tuple[str, float]:
        """The first line that matches, and when it arrived."""
        test = _matcher(match)
        deadline = time.monotonic() + timeout
        while True:
            when, line = self.read_line(deadline - time.monotonic())
            if test(line):
                return line, when

    def collect(self, duration: float) -> list[str]:
        """Every line that arrives within `duration` seconds."""
        deadline = time.monotonic() + duration
        lines = []
        while True:
            try:
                _, line = self.read_line(deadline - time.monotonic())
            except TimeoutError:
                return lines
            lines.append(line)

    def handshake(self, dialect: str = "uci", book: bool = True) -> list[str]:
        """Send `uci` or `ucci` and read to `uciok` / `ucciok`: the lines. Without `book`, the opening book
        is turned off too (for the tests of the search), and its answer read."""
        self.send(dialect)
        lines = self.read_until(f"{dialect}ok", timeout=5)
        self.dialect = dialect
        if not book:
            self.send("setoption name OwnBook value false" if dialect == "uci" else "setoption usebook false")
            self.ping()
        return lines

    def ping(self, timeout: float = 2.0) -> list[str]:
        """`isready` -> `readyok`: the lines that came before it (so it also flushes pending output)."""
        self.send("isready")
        return self.read_until("readyok", timeout)[:-1]

    def info_strings(self, lines: list[str]) -> list[str]:
        return [line for line in lines if line.startswith("info string")]

    def dump(self) -> str:
        tail = "\n".join(self.transcript[-40:])
        stderr = self.stderr.decode(errors="replace")[-2000:]
        return f"--- transcript (last 40 lines) ---\n{tail}\n--- stderr ---\n{stderr}"


def mates_in_one(fen: str) -> set[str]:
    """The moves that end the game at once in the mover's favour (checkmate or stalemate)."""
    from engine import Position

    position = Position(fen)
    found = set()
    for move in position.legal_moves():
        after = position.copy()
        after.push(move)
        if after.outcome() is not None and after.outcome().winner == position.turn:
            found.add(move)
    return found


# -- CECP ------------------------------------------------------------------------------------
THINKING = re.compile(r"^(\d+) (-?\d+) (\d+) (\d+) (\d+) (\d+) 0\t((?:[a-i]\d[a-i]\d ?)+)$")
MOVE = re.compile(r"^move ([a-i]\d[a-i]\d)$")
# XBoard's FEN of the start position: H for the horse, E for the elephant.
XBOARD_START = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
REQUIRED_FEATURES = ('variants="xiangqi"', "setboard=1", "usermove=1", "time=1", "ping=1", "sigint=0",
                     "sigterm=0", "colors=0", "memory=1", "smp=1", 'myname="jiangjun ')


class Cecp:
    """An engine in CECP mode with a ping counter."""

    def __init__(self, driver: EngineDriver) -> None:
        self.eng = driver
        self.pings = 0

    def send(self, *lines: str) -> float:
        sent = 0.0
        for line in lines:
            sent = self.eng.send(line)
        return sent

    def sync(self, timeout: float = 5.0) -> list[str]:
        """`ping N` -> `pong N`: the lines before it."""
        self.pings += 1
        self.eng.send(f"ping {self.pings}")
        return self.eng.read_until(f"pong {self.pings}", timeout)[:-1]

    def move(self, timeout: float = 20.0) -> tuple[str, list[str]]:
        """Read up to the engine's `move` line: (the move, the lines before it)."""
        lines = self.eng.read_until(lambda line: line.startswith("move "), timeout)
        match = MOVE.match(lines[-1])
        assert match, lines[-1]
        return match.group(1), lines[:-1]

    def display(self) -> tuple[str, list[str]]:
        """The engine's game: (FEN, moves), from the `d` debugging command."""
        lines = self.sync()
        self.eng.send("d")
        lines = self.sync()
        fen = next(line[len("# fen "):] for line in lines if line.startswith("# fen "))
        moves = next(line[len("# moves"):].split() for line in lines if line.startswith("# moves"))
        return fen, moves


def start_cecp(extra: tuple[str, ...] = ("new", "variant xiangqi"), book: bool = False) -> tuple[EngineDriver, Cecp]:
    """An engine in CECP; its opening book off unless `book` (these tests are about the search)."""
    driver = EngineDriver()
    driver.send("xboard")
    driver.send("protover 2")
    driver.read_until("feature done=1", timeout=5)
    cecp = Cecp(driver)
    if not book:
        cecp.send("option OwnBook=0")
        cecp.sync()                     # its `telluser own book off ...` answer
    cecp.send(*extra)
    return driver, cecp

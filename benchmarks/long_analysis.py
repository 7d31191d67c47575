"""Hours of analysis as a GUI runs it: the engine's memory over time and how soon it answers `stop`.

    python benchmarks/long_analysis.py                              # an hour, a new position every 180 s
    python benchmarks/long_analysis.py --duration 300 --interval 30 --out short.json

Starts `python -m engine` (this checkout when it is built in place, else the installed package) in a
temporary directory and speaks UCI to it as an analysis GUI does: `setoption` Hash 1024, MultiPV 4,
Threads 2 and UCI_ShowWDL true (each configurable), then `position` and `go infinite`; every
`--interval` seconds `stop` (waiting for the `bestmove`), the next position and `go infinite` again,
for `--duration` seconds in all. The positions are varied: the bench's twelve (opening, middlegame,
endgame) alternating with master games' openings (benchmarks/openings-ccpd.txt), each game's line
as a GUI steps through it.

Measured:

* the engine process's resident memory (VmRSS of /proc/PID/status) every `--sample` seconds: before
  the first `go`, at the end of the first minute of analysis, its maximum, the last value, and the
  growth after the first minute (the last and the largest value less the first minute's);
* each latency from sending `stop` to reading its `bestmove` (count, median, largest, how many over
  100 ms), and `quit` to the process's exit;
* the output: every line is checked. An info line must parse (its fields, numbers, `wdl` summing to
  1000, `multipv` within MultiPV, every move of its `pv` legal in turn from the position analysed, a
  `currmove` legal there), every `bestmove` (and its ponder move) legal, exactly one per `go`, and none
  before `stop`; anything else, or anything on stderr, is counted as malformed and the first examples
  kept.

The figures are printed and, with `--out`, written as JSON with the whole memory series and every
search. Ctrl-C ends the run cleanly (the engine, in its own process group, does not see it): the search
under way is stopped and the figures so far are reported. The record is in docs/protocols.md.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN_PLACE = any((ROOT / "engine").glob("_core*.so")) or any((ROOT / "engine").glob("_core*.pyd"))
if BUILT_IN_PLACE:   # else the installed package (the checkout's source has no compiled kernel)
    sys.path.insert(0, str(ROOT))

from engine import IllegalMoveError, Position  # noqa: E402
from engine.server.bench import BENCH_FENS  # noqa: E402

OPENINGS = ROOT / "benchmarks" / "openings-ccpd.txt"
#: The analysis's first minute: the memory at its end is what later growth is measured from.
FIRST_MINUTE_S = 60.0
#: The latency the issue asks `stop` to be answered within (ms): answers slower than this are counted.
STOP_BOUND_MS = 100.0
#: Guards against a hung engine (s): not claims about speed.
HANDSHAKE_TIMEOUT_S = 60.0
ANSWER_TIMEOUT_S = 30.0
#: Malformed lines kept as examples in the report.
EXAMPLES_KEPT = 20

_MOVE = re.compile(r"^[a-i][0-9][a-i][0-9]$")
_INT_FIELDS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time", "currmovenumber")


@dataclass(frozen=True)
class Setup:
    """One position to analyse: a label, the `position` command, and the position it sets up."""

    label: str
    command: str
    position: Position


@dataclass
class Search:
    """What one `go infinite` gave."""

    label: str
    seconds: float = 0.0                 # from `go` to `stop`
    info_lines: int = 0
    depth: int = 0                       # the deepest `depth` of an info line with a pv
    nodes: int = 0
    bestmove: str = ""
    stop_ms: Optional[float] = None      # from `stop` sent to `bestmove` read


@dataclass
class Report:
    """The run's figures (the JSON of --out)."""

    settings: dict
    engine: str = ""
    load_before: tuple = ()
    load_after: tuple = ()
    interrupted: bool = False
    duration_s: float = 0.0
    memory_samples: list = field(default_factory=list)    # [seconds since the first go, MB]
    memory: dict = field(default_factory=dict)
    stop_latency_ms: dict = field(default_factory=dict)
    quit_ms: Optional[float] = None
    info_lines: int = 0
    info_strings: list = field(default_factory=list)
    malformed: int = 0
    malformed_examples: list = field(default_factory=list)
    searches: list = field(default_factory=list)


class EngineGone(RuntimeError):
    """The engine's output ended, or an answer did not come within its guard."""


# --- The positions --------------------------------------------------------------------------------------
def analysis_positions(count: int) -> list[Setup]:
    """`count` positions: the bench's FENs alternating with master games' opening lines (the position after
    each second ply of a line, a GUI stepping through the game), repeated when the run is longer."""
    fens = [Setup(f"bench {n}", f"position fen {fen}", Position(fen)) for n, fen in enumerate(BENCH_FENS, 1)]
    lines: list[Setup] = []
    for text in OPENINGS.read_text(encoding="utf-8").splitlines():
        if text.startswith("#") or ";" not in text:
            continue
        name, moves = text.split(";", 1)
        moves_played = moves.split()
        for plies in range(2, len(moves_played) + 1, 2):
            position = Position()
            for move in moves_played[:plies]:
                position.push(move)
            lines.append(Setup(f"{name.strip()} ply {plies}",
                               "position startpos moves " + " ".join(moves_played[:plies]), position))
        if len(lines) >= count:
            break
    mixed = [setup for pair in zip(fens * (count // len(fens) + 1), lines) for setup in pair]
    return mixed[:count]


# --- The engine process ---------------------------------------------------------------------------------
class EngineProcess:
    """`python -m engine` in a temporary directory and its own process group (Ctrl-C is the script's); its
    output lines read by a thread, each with the moment it was read."""

    def __init__(self) -> None:
        env = dict(os.environ)
        if BUILT_IN_PLACE:
            env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self._workdir = tempfile.TemporaryDirectory(prefix="jiangjun-long-analysis-")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine"], cwd=self._workdir.name, env=env, text=True, bufsize=1,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.lines: "queue.Queue[Optional[tuple[float, str]]]" = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        for text in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put((time.monotonic(), text.rstrip("\r\n")))
        self.lines.put(None)

    def _read_stderr(self) -> None:
        for text in self.proc.stderr:  # type: ignore[union-attr]
            self.stderr.append(text.rstrip("\r\n"))

    def send(self, line: str) -> float:
        """Write one line; returns the moment (time.monotonic()) just before the write."""
        sent = time.monotonic()
        self.proc.stdin.write(line + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return sent

    def read(self, timeout: float) -> Optional[tuple[float, str]]:
        """The next line and when it was read, None when none came within `timeout` s."""
        try:
            item = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is None:
            self.lines.put(None)
            raise EngineGone("the engine's output ended")
        return item

    def rss_mb(self) -> Optional[float]:
        """The process's resident memory (MB), None once it has gone."""
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except (OSError, ValueError, IndexError):
            pass
        return None

    def quit(self) -> Optional[float]:
        """Send `quit`; the ms until the process exited (killed, and None, after 10 s)."""
        try:
            sent = self.send("quit")
            self.proc.stdin.close()  # type: ignore[union-attr]
        except (OSError, ValueError):
            sent = time.monotonic()
        try:
            self.proc.wait(10)
            took: Optional[float] = (time.monotonic() - sent) * 1000
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            took = None
        self._workdir.cleanup()
        return took


class MemorySampler:
    """A thread sampling the engine's VmRSS every `every` s, timed from `origin` (time.monotonic())."""

    def __init__(self, engine: EngineProcess, every: float) -> None:
        self.engine = engine
        self.every = every
        self.origin = time.monotonic()
        self.samples: list[tuple[float, float]] = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self, origin: float) -> None:
        self.origin = origin
        self._thread.start()

    def _run(self) -> None:
        while not self._done.is_set():
            rss = self.engine.rss_mb()
            if rss is not None:
                self.samples.append((round(time.monotonic() - self.origin, 2), round(rss, 1)))
            self._done.wait(self.every)

    def stop(self) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()


# --- The output's checks --------------------------------------------------------------------------------
class Malformed(ValueError):
    """A line of the engine's output that does not read, or says something untrue of the position."""


@dataclass(frozen=True)
class Info:
    """What the run keeps of one info line."""

    depth: int = 0
    nodes: int = 0
    pv: bool = False
    string: Optional[str] = None   # the text of an `info string`


def _number(words: list[str], i: int, what: str) -> int:
    try:
        return int(words[i])
    except (IndexError, ValueError):
        raise Malformed(f"{what} needs a whole number") from None


def _check_moves(position: Position, moves: list[str], what: str) -> None:
    """Every move of `moves` legal in turn from `position` (left as it was)."""
    board = position.copy()
    for number, move in enumerate(moves, 1):
        if not _MOVE.match(move):
            raise Malformed(f"{what}: move {number} {move!r} is not a move")
        try:
            board.push(move)
        except (IllegalMoveError, ValueError):
            raise Malformed(f"{what}: move {number} {move} is not legal") from None


def read_info(line: str, position: Position, multipv: int, show_wdl: bool) -> Info:
    """The fields of an info line, checked against the position analysed; raises Malformed."""
    words = line.split()
    values: dict[str, int] = {}
    scored = has_wdl = has_pv = False
    i = 1
    while i < len(words):
        key = words[i]
        if key == "string":
            return Info(string=" ".join(words[i + 1:]))
        if key in _INT_FIELDS:
            values[key] = _number(words, i + 1, key)
            i += 2
        elif key == "score":
            if i + 1 >= len(words) or words[i + 1] not in ("cp", "mate"):
                raise Malformed("score needs cp or mate")
            _number(words, i + 2, "score")
            i += 3 + (i + 3 < len(words) and words[i + 3] in ("lowerbound", "upperbound"))
            scored = True
        elif key == "wdl":
            chances = [_number(words, i + j, "wdl") for j in (1, 2, 3)]
            if sum(chances) != 1000 or min(chances) < 0:
                raise Malformed(f"wdl {chances} does not sum to 1000")
            has_wdl, i = True, i + 4
        elif key == "currmove":
            _check_moves(position, words[i + 1:i + 2], "currmove")
            i += 2
        elif key == "pv":
            if i + 1 >= len(words):
                raise Malformed("an empty pv")
            _check_moves(position, words[i + 1:], "pv")
            has_pv, i = True, len(words)
        else:
            raise Malformed(f"unknown field {key!r}")
    if not 1 <= values.get("multipv", 1) <= multipv:
        raise Malformed(f"multipv {values['multipv']} outside 1..{multipv}")
    if scored and show_wdl and not has_wdl:
        raise Malformed("a score without wdl under UCI_ShowWDL")
    if has_pv and not (scored and "depth" in values and "nodes" in values):
        raise Malformed("a pv without its depth, score or nodes")
    return Info(depth=values.get("depth", 0), nodes=values.get("nodes", 0), pv=has_pv)


def read_bestmove(line: str, position: Position) -> str:
    """The move of a `bestmove M [ponder P]` line, both legal in turn; raises Malformed."""
    words = line.split()
    if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "ponder"):
        raise Malformed("not 'bestmove M [ponder P]'")
    _check_moves(position, words[1::2], "bestmove")
    return words[1]


# --- The run --------------------------------------------------------------------------------------------
class Analysis:
    """One run: the engine, its settings, the figures gathered so far."""

    def __init__(self, engine: EngineProcess, args: argparse.Namespace, report: Report) -> None:
        self.engine = engine
        self.args = args
        self.report = report
        self.searches: list[Search] = []
        self.latencies: list[float] = []

    def malformed(self, line: str, why: str) -> None:
        self.report.malformed += 1
        if len(self.report.malformed_examples) < EXAMPLES_KEPT:
            self.report.malformed_examples.append(f"{why}: {line[:300]}")

    def expect(self, answer: str, timeout: float = HANDSHAKE_TIMEOUT_S) -> str:
        """Read lines (kept as info strings or malformed) up to the first that starts with `answer`."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.engine.read(deadline - time.monotonic())
            if item is None:
                raise EngineGone(f"no {answer!r} within {timeout:.0f} s")
            line = item[1]
            if line.startswith(answer):
                return line
            if line.startswith("info string"):
                self.report.info_strings.append(line)
            elif not line.startswith(("id ", "option ")):
                self.malformed(line, f"while waiting for {answer}")

    def handshake(self) -> None:
        """`uci`, the options of an analysis GUI, and `isready` (the table is allocated by then)."""
        self.engine.send("uci")
        name = ""
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT_S
        while not name:
            item = self.engine.read(deadline - time.monotonic())
            if item is None:
                raise EngineGone("no 'id name' within the handshake")
            name = item[1][len("id name "):] if item[1].startswith("id name ") else ""
        self.report.engine = name
        self.expect("uciok")
        args = self.args
        options = [("Hash", args.hash), ("MultiPV", args.multipv), ("Threads", args.threads),
                   ("UCI_ShowWDL", str(args.wdl).lower())]
        if args.debug_log:
            options.append(("Debug Log File", args.debug_log.resolve()))
        for option, value in options:
            self.engine.send(f"setoption name {option} value {value}")
        self.engine.send("isready")
        self.expect("readyok")

    def take(self, when: float, line: str, setup: Setup, search: Search, stopped: bool) -> bool:
        """Check and count one line of the search of `setup`; True for its bestmove."""
        if line.startswith("bestmove"):
            if not stopped:
                self.malformed(line, "a bestmove before stop")
            try:
                search.bestmove = read_bestmove(line, setup.position)
            except Malformed as exc:
                self.malformed(line, f"{setup.label}: {exc}")
            return True
        if not line.startswith("info"):
            self.malformed(line, "neither info nor bestmove")
            return False
        self.report.info_lines += 1
        search.info_lines += 1
        try:
            info = read_info(line, setup.position, self.args.multipv, self.args.wdl)
        except Malformed as exc:
            self.malformed(line, f"{setup.label}: {exc}")
            return False
        if info.string is not None:
            self.report.info_strings.append(f"{setup.label}: {line}")
        if info.pv:
            search.depth = max(search.depth, info.depth)
            search.nodes = max(search.nodes, info.nodes)
        return False

    def analyse(self, setup: Setup, run_end: float) -> Search:
        """`position`, `go infinite`, every line until the interval is over (or Ctrl-C), `stop` and its
        bestmove. A Ctrl-C is raised again once the search has answered."""
        search = Search(setup.label)
        self.searches.append(search)
        self.engine.send(setup.command)
        go_sent = self.engine.send("go infinite")
        stop_at = min(go_sent + self.args.interval, run_end)
        interrupted = answered = False
        try:
            while not answered and (now := time.monotonic()) < stop_at:
                item = self.engine.read(stop_at - now)
                # A bestmove before stop is counted as malformed, and not waited for again.
                answered = item is not None and self.take(*item, setup, search, stopped=False)
        except KeyboardInterrupt:
            interrupted = True
        stop_sent = self.engine.send("stop")
        search.seconds = round(stop_sent - go_sent, 2)
        deadline = stop_sent + ANSWER_TIMEOUT_S
        while not answered and search.stop_ms is None:
            item = self.engine.read(deadline - time.monotonic())
            if item is None:
                raise EngineGone(f"no bestmove within {ANSWER_TIMEOUT_S:.0f} s of stop ({setup.label})")
            if self.take(*item, setup, search, stopped=True):
                search.stop_ms = round((item[0] - stop_sent) * 1000, 2)
                self.latencies.append(search.stop_ms)
        if interrupted:
            raise KeyboardInterrupt
        return search


# --- The figures ----------------------------------------------------------------------------------------
def memory_figures(samples: list[tuple[float, float]], before_mb: Optional[float]) -> dict:
    """The memory (MB) before the first go, at the end of the first minute, its maximum, the last value,
    and the growth after the first minute (None for a run shorter than a minute)."""
    if not samples:
        return {"before_first_go_mb": before_mb}
    first = [rss for seconds, rss in samples if seconds <= FIRST_MINUTE_S]
    later = [rss for seconds, rss in samples if seconds > FIRST_MINUTE_S]
    first_minute = first[-1] if first and later else None
    return {
        "before_first_go_mb": before_mb,
        "first_minute_mb": first_minute,
        "max_mb": max(rss for _, rss in samples),
        "last_mb": samples[-1][1],
        "growth_after_first_minute_mb": None if first_minute is None else round(samples[-1][1] - first_minute, 1),
        "max_growth_after_first_minute_mb": None if first_minute is None else round(max(later) - first_minute, 1),
    }


def latency_figures(latencies: list[float]) -> dict:
    """The stop latencies (ms): count, median, largest, and how many took more than STOP_BOUND_MS."""
    if not latencies:
        return {"count": 0}
    return {
        "count": len(latencies),
        "median": round(statistics.median(latencies), 2),
        "max": round(max(latencies), 2),
        f"over_{STOP_BOUND_MS:.0f}": sum(ms > STOP_BOUND_MS for ms in latencies),
        "all": latencies,
    }


def _mb(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:,.1f} MB"


def print_report(report: Report) -> None:
    memory, stops = report.memory, report.stop_latency_ms
    print(f"\n{report.engine}: {len(report.searches)} searches in {report.duration_s:,.0f} s"
          f"{' (interrupted)' if report.interrupted else ''}; load {report.load_before} -> {report.load_after}")
    print(f"memory: before the first go {_mb(memory.get('before_first_go_mb'))}, at 1 min "
          f"{_mb(memory.get('first_minute_mb'))}, max {_mb(memory.get('max_mb'))}, last {_mb(memory.get('last_mb'))}, "
          f"growth after the first minute {_mb(memory.get('growth_after_first_minute_mb'))} "
          f"(max {_mb(memory.get('max_growth_after_first_minute_mb'))})")
    if stops.get("count"):
        print(f"stop -> bestmove: {stops['count']} answers, median {stops['median']} ms, max {stops['max']} ms, "
              f"{stops[f'over_{STOP_BOUND_MS:.0f}']} over {STOP_BOUND_MS:.0f} ms")
    print(f"quit -> exit: {'-' if report.quit_ms is None else f'{report.quit_ms:.0f} ms'}")
    depths = [search["depth"] for search in report.searches]
    if depths:
        print(f"depths reached: {min(depths)}..{max(depths)} (median {statistics.median(depths):.0f})")
    print(f"info lines: {report.info_lines:,}; info strings: {len(report.info_strings)}; "
          f"malformed: {report.malformed}")
    for example in report.malformed_examples:
        print(f"  malformed: {example}")
    for line in report.info_strings[:EXAMPLES_KEPT]:
        print(f"  {line}")


# --- The command ----------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> Report:
    """The whole run; the figures so far when it is interrupted (Ctrl-C) or the engine fails."""
    report = Report(settings={key: value for key, value in vars(args).items() if key not in ("out", "debug_log")},
                    load_before=tuple(round(x, 2) for x in os.getloadavg()))
    engine = EngineProcess()
    analysis = Analysis(engine, args, report)
    sampler = MemorySampler(engine, args.sample)
    before_mb = None
    started = time.monotonic()
    try:
        analysis.handshake()
        before_mb = engine.rss_mb()
        before_mb = None if before_mb is None else round(before_mb, 1)
        started = time.monotonic()
        sampler.start(started)
        run_end = started + args.duration
        setups = analysis_positions(int(args.duration // args.interval) + 1)
        for setup in setups:
            if time.monotonic() >= run_end:
                break
            search = analysis.analyse(setup, run_end)
            print(f"{time.monotonic() - started:7.0f} s  {setup.label:<16} depth {search.depth:>3}  "
                  f"{search.info_lines:>5} info lines  bestmove {search.bestmove or '-':<5} "
                  f"stop {search.stop_ms} ms  rss {_mb(engine.rss_mb())}", flush=True)
    except KeyboardInterrupt:
        report.interrupted = True
    except EngineGone as exc:
        analysis.malformed("", f"the engine failed: {exc}")
    finally:
        report.duration_s = round(time.monotonic() - started, 1)
        sampler.stop()
        report.quit_ms = engine.quit()
    for line in engine.stderr:
        analysis.malformed(line, "stderr")
    report.memory_samples = sampler.samples
    report.memory = memory_figures(sampler.samples, before_mb)
    report.stop_latency_ms = latency_figures(analysis.latencies)
    report.searches = [asdict(search) for search in analysis.searches]
    report.load_after = tuple(round(x, 2) for x in os.getloadavg())
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=3600, help="seconds of analysis in all (3600)")
    parser.add_argument("--interval", type=float, default=180, help="seconds per position before stop (180)")
    parser.add_argument("--sample", type=float, default=5, help="seconds between memory samples (5)")
    parser.add_argument("--hash", type=int, default=1024, help="Hash, MB (1024)")
    parser.add_argument("--multipv", type=int, default=4, help="MultiPV (4)")
    parser.add_argument("--threads", type=int, default=2, help="Threads (2)")
    parser.add_argument("--no-wdl", dest="wdl", action="store_false", help="UCI_ShowWDL false")
    parser.add_argument("--out", type=Path, help="write the figures as JSON to this file")
    parser.add_argument("--debug-log", type=Path,
                        help="the engine's Debug Log File: its own times of each line read and written")
    args = parser.parse_args()
    report = run(args)
    print_report(report)
    if args.out:
        args.out.write_text(json.dumps(asdict(report), indent=1) + "\n", encoding="utf-8")
    return 1 if report.malformed else 0


if __name__ == "__main__":
    sys.exit(main())

"""How long the engine process takes to answer, in each dialect: the timing claims the tests leave out.

    python benchmarks/protocol_latency.py             # 5 runs of each measurement
    python benchmarks/protocol_latency.py --runs 11

The unit tests check what these answers mean (an answer comes, in the right order, on its own when the
clock says so) and leave out how long they take, which depends on the machine's load. This script starts
`python -m engine` (this checkout when it is built in place; tests/support/driver.py, the tests' driver)
and measures, from the line sent to the line that answers it (the moment it is read):

* the handshakes (`uci`, `ucci`, `xboard` + `protover 2`), sent as soon as the process is started, so
  that they include its start-up (benchmarks/startup_time.py compares that with a bare interpreter's);
* `isready` during a search, `stop` after 0.3 s of `go infinite` (UCI, UCCI) and CECP's `?`;
* `ponderhit` after 0.6 s of pondering on a 2 s clock;
* the book's move from the start position (and, in process, one probe of the shipped book);
* how much of its time a search takes: `go movetime 300`, 100 ms and 3 s / 20 moves on the clock, UCCI's
  `go time 20` in seconds and in ms, CECP's `st 0.5` and half a second left (`time 50`);
* CECP's `level 4 0:02 0` over six moves, the clock kept from the time each answer took (what is left
  before each session's end: never below 0);
* `quit` during a search, to the exit.

Each row gives the median, the least and the largest of the runs, in ms. The figures are in docs/protocols.md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.driver import EngineDriver, start_cecp  # noqa: E402

Measure = Callable[[], float]


def _handshake(lines: tuple[str, ...], last: str) -> float:
    with EngineDriver() as eng:
        sent = 0.0
        for line in lines:
            sent = eng.send(line)
        _, when = eng.expect(last, timeout=10)
        return when - sent


def _uci(book: bool = False, dialect: str = "uci") -> EngineDriver:
    eng = EngineDriver()
    eng.handshake(dialect, book=book)
    return eng


def _answer(eng: EngineDriver, command: str, answer: str = "bestmove", timeout: float = 30) -> float:
    """Seconds from sending `command` to the first line starting with `answer`."""
    sent = eng.send(command)
    _, when = eng.expect(lambda line: line.startswith(answer), timeout)
    return when - sent


def isready_while_searching() -> float:
    with _uci() as eng:
        eng.send("go infinite")
        time.sleep(0.3)
        took = _answer(eng, "isready", "readyok")
        eng.send("stop")
        eng.expect("bestmove", 10)
        return took


def stop_after_infinite(dialect: str) -> Measure:
    def measure() -> float:
        with _uci(dialect=dialect) as eng:
            eng.send("go infinite")
            time.sleep(0.3)
            return _answer(eng, "stop")
    return measure


def cecp_move_now() -> float:
    driver, cecp = start_cecp()
    with driver:
        cecp.send("st 60", "force", "go")
        time.sleep(0.3)
        sent = cecp.send("?")
        cecp.move(timeout=10)
        return driver.last_when - sent


def ponderhit_on_a_2s_clock() -> float:
    with _uci() as eng:
        eng.send("position startpos moves h2e2")
        eng.send("go ponder wtime 2000 btime 2000")
        time.sleep(0.6)
        return _answer(eng, "ponderhit")


def book_move_from_the_start() -> float:
    with _uci(book=True) as eng:
        eng.send("position startpos")
        return _answer(eng, "go wtime 60000 btime 60000 winc 1000 binc 1000")


def book_probe_in_process() -> float:
    from engine import Position
    from engine.book import default_book

    book, position = default_book(), Position()
    position.push("h2e2")
    book.moves(position)                    # opened and cached
    start = time.perf_counter()
    for _ in range(200):
        book.moves(position)
    return (time.perf_counter() - start) / 200


def search_time(commands: tuple[str, ...], go: str, dialect: str = "uci") -> Measure:
    def measure() -> float:
        with _uci(dialect=dialect) as eng:
            for command in commands:
                eng.send(command)
            return _answer(eng, go)
    return measure


def cecp_time(commands: tuple[str, ...]) -> Measure:
    def measure() -> float:
        driver, cecp = start_cecp()
        with driver:
            sent = cecp.send(*commands)
            cecp.move(timeout=30)
            return driver.last_when - sent
    return measure


def cecp_session_clock_left() -> float:
    """`level 4 0:02 0` over six moves, the clock kept from each answer's time: the least left (s)."""
    from engine import Position, _core

    driver, cecp = start_cecp()
    with driver:
        cecp.send("level 4 0:02 0", "force")
        position, opponent, clock, reply, lowest = Position(), _core.Searcher(1, 1), 2.0, None, 2.0
        for number in range(1, 7):
            cecp.send(f"time {int(clock * 100)}", "otim 200")
            sent = cecp.send("go" if reply is None else f"usermove {reply}")
            move, _ = cecp.move(timeout=10)
            clock -= driver.last_when - sent
            lowest = min(lowest, clock)
            if number % 4 == 0:
                clock += 2.0
            position.push(move)
            reply = opponent.search(position.kernel_board, depth=3).bestmove
            position.push(reply)
        return lowest


def quit_during_search() -> float:
    with _uci() as eng:
        eng.send("go infinite")
        time.sleep(0.2)
        sent = eng.send("quit")
        eng.proc.wait(10)
        return time.monotonic() - sent


MEASURES: dict[str, Measure] = {
    "uci -> uciok": lambda: _handshake(("uci",), "uciok"),
    "ucci -> ucciok": lambda: _handshake(("ucci",), "ucciok"),
    "xboard, protover 2 -> done=1": lambda: _handshake(("xboard", "protover 2"), "feature done=1"),
    "isready while searching": isready_while_searching,
    "uci stop -> bestmove": stop_after_infinite("uci"),
    "ucci stop -> bestmove": stop_after_infinite("ucci"),
    "cecp ? -> move": cecp_move_now,
    "ponderhit (2 s clock) -> bestmove": ponderhit_on_a_2s_clock,
    "book move from the start": book_move_from_the_start,
    "book probe, in process": book_probe_in_process,
    "go movetime 300": search_time((), "go movetime 300"),
    "go wtime 100 (btime 600000)": search_time((), "go wtime 100 btime 600000"),
    "go wtime 3000 ... movestogo 20": search_time((), "go wtime 3000 btime 3000 winc 100 binc 100 movestogo 20"),
    "ucci go time 20 (seconds)": search_time((), "go time 20 increment 0", "ucci"),
    "ucci go time 20 (usemillisec)": search_time(("setoption usemillisec true",), "go time 20 increment 0",
                                                 "ucci"),
    "cecp st 0.5": cecp_time(("st 0.5", "usermove h2e2")),
    "cecp time 50 (0.5 s left)": cecp_time(("level 0 1 0", "time 50", "otim 6000", "usermove h2e2")),
    "cecp level 4 0:02 0: least clock left": cecp_session_clock_left,
    "quit during a search -> exit": quit_during_search,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement (default 5)")
    options = parser.parse_args()
    print(f"{'':40} {'median ms':>10} {'min ms':>8} {'max ms':>8}   ({options.runs} runs each)")
    for name, measure in MEASURES.items():
        samples = [measure() * 1000 for _ in range(options.runs)]
        print(f"{name:40} {statistics.median(samples):10.2f} {min(samples):8.2f} {max(samples):8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

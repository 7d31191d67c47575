"""How long the engine takes to answer its handshake, against a bare interpreter's start.

    python benchmarks/startup_time.py            # 21 runs of each, interleaved
    python benchmarks/startup_time.py --runs 41

For each dialect it starts `python -m engine` from this checkout, sends the handshake (`uci`, `ucci`,
`xboard` + `protover 2`) and stops the clock when the last line of the answer arrives (`uciok`,
`ucciok`, `feature ... done=1`); the bare start is `python -c pass` from process start to exit. The runs
are interleaved (one of each in turn), so that a change of load on the machine touches all of them
alike, and the medians are compared: issue 21 asks for a handshake within twice the bare start.

With PYTHONDONTWRITEBYTECODE set, no module's bytecode is cached, so every start compiles the engine's
modules from source (an installed package has its bytecode); the script says which case it measured.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Each dialect's handshake and the line that ends the engine's answer.
HANDSHAKES = {
    "uci": (["uci"], "uciok"),
    "ucci": (["ucci"], "ucciok"),
    "cecp": (["xboard", "protover 2"], "feature done=1"),
}


def bare_start() -> float:
    """Seconds from starting `python -c pass` to its exit."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def handshake(lines: list[str], last: str) -> float:
    """Seconds from starting the engine to the last line of its answer to `lines`."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "engine"], cwd=ROOT, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("".join(line + "\n" for line in lines))
    process.stdin.flush()
    for line in process.stdout:
        if line.strip() == last:
            break
    else:
        raise RuntimeError(f"the engine ended without {last!r}")
    elapsed = time.perf_counter() - start
    process.stdin.write("quit\n")
    process.stdin.close()
    process.wait(10)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each measurement (default 21)")
    options = parser.parse_args()
    times: dict[str, list[float]] = {"python -c pass": [], **{dialect: [] for dialect in HANDSHAKES}}
    for _ in range(options.runs):
        times["python -c pass"].append(bare_start())
        for dialect, (lines, last) in HANDSHAKES.items():
            times[dialect].append(handshake(lines, last))
    bare = statistics.median(times["python -c pass"])
    caching = "off (PYTHONDONTWRITEBYTECODE): modules compiled at every start" if sys.flags.dont_write_bytecode \
        else "on"
    print(f"bytecode cache {caching}")
    print(f"{'':16} {'median ms':>9} {'ratio':>6}   ({options.runs} runs each, interleaved)")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:16} {median * 1000:9.1f} {median / bare:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

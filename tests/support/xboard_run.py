"""Games between jiangjun (CECP) and Fairy-Stockfish under the real XBoard, headless (Xvfb, -noGUI), and
what XBoard's debug log and PGN say about them. Used by tests/server/test_under_xboard.py, and from the
command line for longer runs (from tests/, where `support` is found):

    cd tests && python -m support.xboard_run --games 20 --tc 0:30 --inc 0.3 --out /tmp/xb

XBoard is run with its xiangqi rules made those of the Asian rules where it has a setting for them:
`-ruleMoves 60` (its default, 51, would end games at 51 moves without capture) and `-repeatsToDraw 3`
(it then judges a repetition, perpetual check and chase included, at the third occurrence, as the
engines do, instead of the sixth). `-xponder` is not given: both engines ponder, as XBoard's default.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence
from support import engine_env

XBOARD = shutil.which("xboard") or ("/usr/games/xboard" if os.path.exists("/usr/games/xboard") else None)
XVFB_RUN = shutil.which("xvfb-run")
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"

#: Lines of XBoard's debug log that mean something went wrong in the protocol or on the board.
_PROBLEMS = re.compile(
    r"Forfeit|False (win|draw|illegal-move) claim|flag fell|wins on time|<first : (Error|Illegal move|"
    r"tellusererror)|>first : rejected|Traceback"
)


@dataclass
class Game:
    white: str
    black: str
    result: str
    reason: str          # the comment of the result: XBoard's adjudication or an engine's claim
    moves: int           # plies


@dataclass
class Run:
    games: list[Game] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # debug-log lines matching _PROBLEMS
    seconds: float = 0.0
    returncode: int = 0
    debug_log: str = ""
    pgn: str = ""

    def score(self, name: str = "jiangjun") -> tuple[int, int, int]:
        """(wins, draws, losses) of the engine whose name starts with `name`."""
        wins = draws = losses = 0
        for game in self.games:
            red = game.white.startswith(name)
            if game.result == "1/2-1/2":
                draws += 1
            elif (game.result == "1-0") == red:
                wins += 1
            else:
                losses += 1
        return wins, draws, losses


def available() -> bool:
    return XBOARD is not None and XVFB_RUN is not None and os.access(FAIRY_STOCKFISH, os.X_OK)


def engine_command() -> str:
    return f"{sys.executable} -m engine"


def run(workdir: Path, games: int = 2, tc: str = "0:30", inc: Optional[float] = None,
        mps: Optional[int] = None, extra: Sequence[str] = (), timeout: float = 900.0) -> Run:
    """Play `games` games (alternating colours) in `workdir`; -inc gives an increment, -mps a
    moves-per-session control (XBoard sends `level MPS BASE 0`)."""
    assert XBOARD is not None and XVFB_RUN is not None
    workdir.mkdir(parents=True, exist_ok=True)
    pgn, debug = workdir / "games.pgn", workdir / "xboard.debug"
    for stale in (pgn, debug):
        if stale.exists():
            stale.unlink()
    command = [
        XVFB_RUN, "-a", XBOARD, "-variant", "xiangqi", "-noGUI", "-xexit",
        "-fcp", engine_command(), "-fd", str(workdir), "-scp", FAIRY_STOCKFISH, "-sd", str(workdir),
        "-mg", str(games), "-tc", tc, "-sgf", str(pgn), "-debug", "-nameOfDebugFile", str(debug),
        "-ruleMoves", "60", "-repeatsToDraw", "3",
    ]
    if inc is not None:
        command += ["-inc", str(inc)]
    if mps is not None:
        command += ["-mps", str(mps)]
    command += list(extra)
    env = engine_env()
    started = time.monotonic()
    proc = subprocess.run(command, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout)
    result = Run(seconds=time.monotonic() - started, returncode=proc.returncode)
    result.debug_log = debug.read_text(errors="replace") if debug.exists() else ""
    result.pgn = pgn.read_text(errors="replace") if pgn.exists() else ""
    result.games = parse_pgn(result.pgn)
    result.problems = [line for line in result.debug_log.splitlines() if _PROBLEMS.search(line)]
    return result


_TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
_END = re.compile(r"\{([^{}]*)\}\s*(1-0|0-1|1/2-1/2|\*)\s*$")
_MOVE_NUMBER = re.compile(r"\d+\.")


def parse_pgn(text: str) -> list[Game]:
    """The games of an XBoard PGN file: players, result, the result's comment and the number of plies."""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        if not chunk.strip():
            continue
        tags, body = {}, []
        for line in chunk.splitlines():
            match = _TAG.match(line.strip())
            if match:
                tags[match.group(1)] = match.group(2)
            else:
                body.append(line)
        movetext = " ".join(body)
        end = _END.search(movetext)
        bare = re.sub(r"\{[^{}]*\}", " ", movetext)
        plies = [t for t in bare.split()
                 if not _MOVE_NUMBER.fullmatch(t) and t not in ("1-0", "0-1", "1/2-1/2", "*")]
        games.append(Game(tags.get("White", "?"), tags.get("Black", "?"), tags.get("Result", "*"),
                          end.group(1).strip() if end else "", len(plies)))
    return games


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tc", default="0:30", help="XBoard -tc: minutes[:seconds] per session")
    parser.add_argument("--inc", type=float, default=None, help="XBoard -inc: seconds per move")
    parser.add_argument("--mps", type=int, default=None, help="XBoard -mps: moves per session")
    parser.add_argument("--out", default="xboard-run", help="working directory (PGN, debug log)")
    options = parser.parse_args(argv)
    if not available():
        print("needs xboard, xvfb-run and /usr/games/fairy-stockfish", file=sys.stderr)
        return 2
    result = run(Path(options.out).resolve(), options.games, options.tc, options.inc, options.mps,
                 timeout=24 * 3600)
    for number, game in enumerate(result.games, 1):
        print(f"{number:3} {game.white:>16} - {game.black:<16} {game.result:8} {game.moves:4} plies  "
              f"{game.reason}")
    wins, draws, losses = result.score()
    print(f"jiangjun: +{wins} ={draws} -{losses} in {len(result.games)} games, {result.seconds:.0f} s")
    for line in result.problems:
        print(f"problem: {line}")
    return 0 if not result.problems and len(result.games) == options.games else 1


if __name__ == "__main__":
    raise SystemExit(main())

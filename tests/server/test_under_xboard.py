"""The real XBoard, headless (xvfb-run, -noGUI), plays jiangjun (CECP) against Fairy-Stockfish: the games
end by a result by the rules, with no illegal move, no time loss and no protocol error in XBoard's debug
log. Skipped without xboard, xvfb-run or /usr/games/fairy-stockfish (CI installs them: .ci/run)."""
from __future__ import annotations

import re

import pytest

from support import xboard_run

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not xboard_run.available(),
                                 reason="needs xboard, xvfb-run and /usr/games/fairy-stockfish")]

#: How XBoard words the endings it adjudicates, and how the engines word their claims (ours:
#: engine.server.cecp_codec.format_result; Fairy-Stockfish: "White wins", "Black wins", "Draw"...).
RULES_ENDINGS = re.compile(
    r"^(Xboard adjudication: (Checkmate|Stalemate|perpetual checking|perpetual chasing.*|repetition|"
    r"Insufficient mating material|50-move rule)|XBoard adjudication: repetition draw|Red mates|Black mates|"
    r"(Red|Black) wins, .*|repetition|60-move rule|insufficient material|Draw claim: .*|"
    r"(White|Black) (wins|mates)|Draw.*)$"
)
#: Options XBoard is told to set through `option NAME=VALUE` (the feature options of the handshake).
OPTIONS = ["-firstOptions", "Move Overhead=30"]


def check(run: xboard_run.Run, games: int) -> None:
    summary = "\n".join(f"{g.white} - {g.black} {g.result} {{{g.reason}}} {g.moves} plies"
                        for g in run.games)
    print(f"{run.seconds:.0f} s\n{summary}")
    assert run.returncode == 0
    assert run.problems == [], "\n".join(run.problems[:20])
    assert len(run.games) == games, summary
    for game in run.games:
        assert game.result in ("1-0", "0-1", "1/2-1/2"), summary
        assert RULES_ENDINGS.match(game.reason), f"not an ending by the rules: {game.reason!r}"
    as_red = sum(game.white.startswith("jiangjun") for game in run.games)
    assert as_red == (games + 1) // 2, "colours alternate"
    log = run.debug_log
    assert ">first : option Move Overhead=30" in log
    assert re.search(r"<first : feature .*variants=\"xiangqi\"", log)
    assert re.search(r"<first : move [a-i]\d[a-i]\d", log)


def test_sudden_death_with_increment(tmp_path):
    # The issue's command at a third of its time: -tc 0:10 -inc 0.1 (XBoard sends `level 0 0:10 0.1`).
    run = xboard_run.run(tmp_path, games=2, tc="0:10", inc=0.1, extra=OPTIONS, timeout=600)
    check(run, 2)
    assert ">first : level 0 0:10 0.1" in run.debug_log


def test_moves_per_session(tmp_path):
    # 10 moves in 5 s, again and again (XBoard sends `level 10 0:05 0` and adds 5 s after each 10 moves).
    run = xboard_run.run(tmp_path, games=2, tc="0:05", mps=10, extra=OPTIONS, timeout=600)
    check(run, 2)
    assert ">first : level 10 0:05 0" in run.debug_log


@pytest.mark.deep
@pytest.mark.parametrize("control", [dict(tc="0:30", inc=0.3), dict(tc="1", mps=40)],
                         ids=["30s+0.3", "40-in-1min"])
def test_the_issues_controls(tmp_path, control):
    """The commands of issue 12: `-mg 2 -tc 0:30 -inc 0.3` and the stage control `-mps 40 -tc 1`."""
    run = xboard_run.run(tmp_path, games=2, extra=OPTIONS, timeout=1800, **control)
    check(run, 2)

"""XBoard's PGN: files XBoard 4.9.1 saved and hand-made ones read and replayed; games written with
notation="san" read back equal; and, when XBoard is installed, XBoard loading what we write and parsing
every move into the same ICCS move as we do (its debug log says "Parsed Che2 into h2e2")."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support import DATA
from engine import Position
from engine.outcome import Termination
from engine.pgn import Game, PgnError, player_name, read_games, write_game, write_games
from engine.pgn.xboard import eval_comment, xboard_fen
from engine.score import Score

XBOARD_DATA = DATA / "pgn" / "xboard"
CCPD = DATA / "pgn" / "ccpd"
XBOARD = shutil.which("xboard") or ("/usr/games/xboard" if os.access("/usr/games/xboard", os.X_OK) else None)
needs_xboard = pytest.mark.skipif(XBOARD is None or shutil.which("xvfb-run") is None,
                                  reason="XBoard and xvfb-run are not installed (apt-get install xboard xvfb)")


def test_a_game_xboard_saved() -> None:
    (game,) = read_games(XBOARD_DATA / "fsf_selfplay.pgn")
    assert game.headers["Variant"] == "xiangqi" and player_name(game.headers, "red") == "fairy-stockfish"
    assert game.result == "1/2-1/2" and len(game.moves) == 326
    assert game.moves[:4] == ["g3g4", "c6c5", "b2b6", "b9c7"]
    assert game.comments[:2] == ["+0.73/12", "+0.13/13 0.7"]
    assert game.end_position().outcome().reason is Termination.INSUFFICIENT_MATERIAL
    assert game.comments[-1].endswith("Xboard adjudication: Insufficient mating material")


def test_a_setup_game_xboard_saved() -> None:
    (game,) = read_games(XBOARD_DATA / "fsf_setup.pgn")
    assert game.headers["FEN"] == "3k5/4a4/4e4/9/9/9/9/4E4/4A4/R2AK4 w 0 1" and game.headers["SetUp"] == "1"
    assert game.starting_fen() == game.headers["FEN"]
    assert Position(game.starting_fen()).fen() == "3k5/4a4/4b4/9/9/9/9/4B4/4A4/R2AK4 w - - 0 1"
    assert game.start_comment.startswith("--------------")  # XBoard's picture of the start
    assert game.end_position().outcome().reason is Termination.STALEMATE and game.result == "1-0"


def test_hand_made_xboard_files() -> None:
    games = read_games(XBOARD_DATA / "handmade.pgn")
    assert [len(g.moves) for g in games] == [51, 57, 9, 5]
    first, second, doubled, advisors = games
    assert player_name(first.headers, "red") == "江蘇陸崢嶸" and first.result == "1-0"
    assert first.comments[:4] == ["+0.20/14 3.1", "-0.12/13 2.9", "+0.25/14 4", "-0.18/14 5"]
    assert first.comments[18] == "the soldier steps sideways across the river" and first.moves[18] == "g5f5"
    assert first.moves[46] == "c2e3"      # 24. Hxe3! (the variation after it is skipped)
    assert first.moves[49] == "c5e7"      # 25... E5e7: the elephant on rank 5, not the one on c9
    assert second.end_position().outcome().reason is Termination.CHECKMATE
    assert second.moves[-1] == "f8d8" and second.comments[-1] == "Red mates"
    assert doubled.moves[:2] == ["g9e7", "d0d1"] and doubled.comments[0] == "+0.00/1"  # 1... Ee7 2. R0d1
    assert Position(doubled.starting_fen()).turn == "black"
    assert advisors.moves == ["d2e1", "a5a6", "e1f2", "a6e6", "f2e1"]


def test_other_variants_are_refused() -> None:
    text = '[Event "x"]\n[Variant "janggi"]\n\n1. Che2 *\n'
    with pytest.raises(PgnError, match=r'line 2: \[Variant "janggi"\]: not a Xiangqi game'):
        read_games(text, errors="raise")
    (other,) = read_games(text)          # by default its tags, and why its moves are not read
    assert other.moves == [] and 'not a Xiangqi game' in str(other.errors[0])
    assert read_games(text.replace("janggi", "Xiangqi"))[0].moves == ["h2e2"]


def test_eval_comments_as_xboard_writes_them() -> None:
    assert eval_comment(Score.from_cp(12), 9, 4.0) == "+0.12/9 4"
    assert eval_comment(Score.from_cp(-35), 11, 0.7) == "-0.35/11 0.7"
    assert eval_comment(Score.from_cp(0), 12, 0.01) == "+0.00/12"
    assert eval_comment(Score.from_mate(3), 14, 2.96) == "+1000.03/14 3"
    assert eval_comment(Score.from_mate(-2), 7, 65) == "-1000.02/7 1:05"
    assert eval_comment(None, None, 0.3) == "+0.00/0 0.3"
    assert xboard_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 9") == \
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b 3 9"
    assert xboard_fen("4k4/9/9/9/9/9/9/9/9/3K5 w") == "4k4/9/9/9/9/9/9/9/9/3K5 w 0 1"


def sample_games() -> list[Game]:
    """Games to write: XBoard's own, the hand-made ones and Big5 master games of the CCPD archive."""
    games = read_games(XBOARD_DATA / "fsf_selfplay.pgn") + read_games(XBOARD_DATA / "fsf_setup.pgn")
    games += read_games(XBOARD_DATA / "handmade.pgn")
    for name in ("checkmate-00003272.pgn", "general-rear-00002312.pgn"):
        games += read_games(CCPD / name)
    return games


def test_written_in_san_reads_back_equal() -> None:
    for game in sample_games():
        text = write_game(game, notation="san")
        assert '[Variant "xiangqi"]' in text and "[Game " not in text and "[Red " not in text
        (back,) = read_games(text)
        assert back.moves == game.moves and back.comments == game.comments and back.result == game.result
        assert back.start_comment == game.start_comment
        assert player_name(back.headers, "red") == player_name(game.headers, "red")
        assert Position(back.starting_fen()).fen() == Position(game.starting_fen()).fen()
        if "FEN" in back.headers and not back.headers["FEN"].startswith("rnbakabnr"):
            assert back.headers["SetUp"] == "1" and not re.search("[NBnb]", back.headers["FEN"].split()[0])


def test_match_style_game_in_san() -> None:
    fen = "3k5/4a4/4b4/9/9/9/9/4B4/4A4/R2AK4 w - - 0 1"
    game = Game(headers={"Game": "Chinese Chess", "Event": "jiangjun match", "Red": "jiangjun",
                         "Black": "fsf", "FEN": fen, "Termination": "checkmate"},
                moves=["a0a9", "d9d8"], comments=["+1000.05/12 0.3", "book"], result="*")
    text = write_game(game, notation="san")
    assert text.splitlines()[:10] == [
        '[Event "jiangjun match"]', '[White "jiangjun"]', '[Black "fsf"]', '[Result "*"]',
        '[Variant "xiangqi"]', '[FEN "3k5/4a4/4e4/9/9/9/9/4E4/4A4/R2AK4 w 0 1"]', '[SetUp "1"]',
        '[Termination "checkmate"]', "", "1. Ra9+ {+1000.05/12 0.3} 1... Kd8 {book} *"]


def _xboard_parse(path: Path, index: int, tmp: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """Load game `index` of `path` into XBoard, headless: its complaints on stderr ("xboard: Illegal move:
    ...") and the moves its debug log says it parsed, as (SAN, ICCS) pairs."""
    log = tmp / f"xboard-{index}.log"
    process = subprocess.Popen(
        ["xvfb-run", "-a", XBOARD, "-variant", "xiangqi", "-ncp", "-lgf", str(path), "-lgi", str(index),
         "-td", "0", "-noGUI", "-debug", "-nameOfDebugFile", str(log), "-saveSettingsOnExit", "false"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, cwd=tmp)
    deadline = time.monotonic() + 60
    try:  # XBoard keeps running after loading; wait for the log to say the load is done
        while time.monotonic() < deadline and process.poll() is None:
            if log.exists() and "LoadGame(): on exit" in log.read_text(errors="replace"):
                time.sleep(0.3)
                break
            time.sleep(0.2)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=30)[0].decode(errors="replace")
    assert log.exists(), output
    complaints = [line for line in output.splitlines() if line.startswith("xboard:")]
    parsed = re.findall(r"^Parsed (\S+) into ([a-i]\d[a-i]\d)", log.read_text(errors="replace"), re.M)
    return complaints, parsed


@pytest.mark.slow
@needs_xboard
def test_xboard_loads_what_we_write(tmp_path: Path) -> None:
    games = sample_games()
    path = tmp_path / "written.pgn"
    write_games(path, games, notation="san")
    for index, game in enumerate(games, start=1):
        complaints, parsed = _xboard_parse(path, index, tmp_path)
        assert complaints == [], f"game {index}: {complaints}"
        assert [iccs for _, iccs in parsed] == game.moves, f"game {index}"

"""jiangjun analyze: positions and games analysed from the command line, run as a user would (subprocesses
outside the checkout), plus the scoring rules of the game annotation in-process."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from support import DATA, FSF, engine_env, needs_fsf
from support.driver import fake_command
from engine import Position, wdl
from engine.score import Score
from engine.notation import parse_move

PGN = DATA / "pgn"

MATE_IN_2 = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1"          # Red: 车一进八 mates at once; #1
BLACK_MATED_IN_2 = "3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 1"   # Black to move is mated in 2
#: 炮五进四?? gives the central cannon for a soldier (马7进5 takes it).
BLUNDER_GAME = "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 炮五进四 马7进5 4. 马八进七"
BLUNDER_PLY = 5


def analyze(*args: str, cwd: Path, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "engine", "analyze", *args], capture_output=True, text=True,
                            encoding="utf-8", cwd=cwd, env=engine_env(), timeout=timeout)
    if check:
        assert result.returncode == 0, result.stderr
        assert not result.stderr, result.stderr
    return result


def analyze_json(*args: str, cwd: Path) -> dict:
    return json.loads(analyze(*args, "--json", cwd=cwd).stdout)


def position_after(fen: str, moves) -> Position:
    position = Position(fen)
    for move in moves:
        position.push(move)
    return position


def replay_texts(position: Position, texts) -> list:
    """Read move texts one by one with the notation module, playing them; the moves as ICCS."""
    board = position.copy()
    moves = []
    for text in texts:
        move = parse_move(board, text)
        board.push(move)
        moves.append(move)
    return moves


# -- positions --------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("notation", ["chinese", "wxf", "iccs"])
def test_position_lines_are_legal_and_read_back_in_each_notation(notation, tmp_path):
    doc = analyze_json("--moves", "h2e2", "h9g7", "--depth", "5", "--multipv", "3", "--notation", notation,
                       cwd=tmp_path)
    assert doc["type"] == "position" and doc["notation"] == notation
    analysis = doc["analysis"]
    position = position_after(doc["start_fen"], doc["moves"])
    assert analysis["fen"] == position.fen() and analysis["side_to_move"] == "red"
    assert len(analysis["lines"]) == 3
    assert len({line["pv"][0] for line in analysis["lines"]}) == 3          # three different first moves
    for line in analysis["lines"]:
        assert line["depth"] >= 1 and len(line["pv"]) == len(line["pv_text"]) >= 1
        assert replay_texts(position, line["pv_text"]) == line["pv"]         # the text names the same moves
        if notation == "chinese":
            assert all(re.search(r"[\u4e00-\u9fff]", text) for text in line["pv_text"])
        elif notation == "wxf":
            assert all(re.fullmatch(r"[KAEHRCP+\-1-9][+\-.1-9]?[+\-.][1-9]", text) for text in line["pv_text"])
    assert analysis["bestmove"] == analysis["lines"][0]["pv"][0]
    assert analysis["bestmove"] in position.legal_moves()


@pytest.mark.slow
def test_text_output_pv_replays(tmp_path):
    """The plain text (not a terminal: no escape codes) has a line with the PV, numbered, in Chinese."""
    out = analyze("--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                  "--depth", "5", cwd=tmp_path).stdout
    assert "\x1b" not in out
    line = next(text for text in out.splitlines() if text.startswith("depth"))
    # depth, 5, the score, the chances (W/D/L in per cent), then the numbered moves
    assert re.fullmatch(r"\d+/\d+/\d+", line.split()[3]), line
    tokens = [token for token in line.split()[4:] if not re.fullmatch(r"\d+\.+", token) and token != "…"]
    moves = replay_texts(Position(), tokens)
    best = re.search(r"^bestmove (\S+) \(([a-i]\d[a-i]\d)\)", out, re.M)
    assert best is not None and moves[0] == best.group(2) and tokens[0] == best.group(1)


@pytest.mark.slow
def test_moves_in_any_notation_as_one_string_or_separate(tmp_path):
    separate = analyze_json("--moves", "炮二平五", "H8+7", "h0g2", "--depth", "3", cwd=tmp_path)
    joined = analyze_json("--moves", "1. C2.5 马8进7 2. H0-G2", "--depth", "3", cwd=tmp_path)
    assert separate["moves"] == joined["moves"] == ["h2e2", "h9g7", "h0g2"]
    assert separate["analysis"]["side_to_move"] == "black"


@pytest.mark.slow
def test_mate_is_shown_as_a_mate(tmp_path):
    out = analyze("--fen", MATE_IN_2, "--depth", "6", "--notation", "iccs", cwd=tmp_path).stdout
    assert re.search(r"^depth\s+\d+\s+#1\s+100/0/0\s+1\. i0i8$", out, re.M), out
    doc = analyze_json("--fen", MATE_IN_2, "--depth", "6", "--multipv", "2", cwd=tmp_path)
    first, second = doc["analysis"]["lines"]
    assert first["score"]["red"] == {"cp": None, "mate": 1, "text": "#1"}
    assert first["score_text"] == "#1" and second["score_text"] == "#2"
    assert second["score"]["side"]["mate"] == 2


@pytest.mark.slow
def test_the_chances_go_with_the_scores(tmp_path):
    """The win/draw/loss chances (engine.wdl's model for the in-process engine) beside each score: per
    mille in JSON, from both views; in per cent in the text, in the chosen view."""
    doc = analyze_json("--moves", "炮二平五", "--depth", "4", "--multipv", "2", cwd=tmp_path)
    analysis = doc["analysis"]
    for line in analysis["lines"]:
        side, red = line["wdl"]["side"], line["wdl"]["red"]
        assert sum(side.values()) == 1000 and (red["win"], red["loss"]) == (side["loss"], side["win"])
        score = Score.from_mate(line["score"]["side"]["mate"]) if line["score"]["side"]["mate"] is not None \
            else Score(line["score"]["side"]["cp"])
        assert tuple(side.values()) == tuple(wdl.chances(score, 110))
    assert analysis["wdl"] == analysis["lines"][0]["wdl"]
    out = analyze("--moves", "炮二平五", "--depth", "4", "--multipv", "2", cwd=tmp_path).stdout
    assert "chances   win/draw/loss in per cent" in out
    red = doc["analysis"]["lines"][0]["wdl"]["red"]
    shown = "/".join(str(round(red[key] / 10)) for key in ("win", "draw", "loss"))
    assert re.search(rf"^line 1\s+depth\s+4\s+\S+\s+{shown}\s", out, re.M), out
    game = analyze_json("--moves", BLUNDER_GAME, "--annotate", "--depth", "3", cwd=tmp_path)
    blunder = game["records"][BLUNDER_PLY - 1]["wdl_after"]["mover"]
    assert sum(blunder.values()) == 1000 and blunder["loss"] > blunder["win"]
    finished = analyze_json("--fen", "4k4/4R4/4P4/9/9/9/9/9/5R3/3K5 b - - 0 1", "--depth", "2", cwd=tmp_path)
    assert finished["analysis"]["wdl"]["side"] == {"win": 0, "draw": 0, "loss": 1000}   # Black is mated


@pytest.mark.slow
def test_pov_flips_the_sign_for_black_to_move(tmp_path):
    red = analyze_json("--fen", BLACK_MATED_IN_2, "--depth", "6", "--pov", "red", cwd=tmp_path)["analysis"]
    side = analyze_json("--fen", BLACK_MATED_IN_2, "--depth", "6", "--pov", "side", cwd=tmp_path)["analysis"]
    assert red["score_text"] == "#2" and side["score_text"] == "-#2"
    assert red["score"] == side["score"] == {"red": {"cp": None, "mate": 2, "text": "#2"},
                                             "side": {"cp": None, "mate": -2, "text": "-#2"}}
    # centipawns: the same search, both views in the JSON, and the text in the chosen one
    args = ("--moves", "h2e2", "--depth", "4", "--notation", "iccs")
    red_text = analyze(*args, "--pov", "red", cwd=tmp_path).stdout
    side_text = analyze(*args, "--pov", "side", cwd=tmp_path).stdout
    red_cp = int(re.search(r"^depth\s+\d+\s+([+-]?\d+)\s", red_text, re.M).group(1))
    side_cp = int(re.search(r"^depth\s+\d+\s+([+-]?\d+)\s", side_text, re.M).group(1))
    assert red_cp == -side_cp
    doc = analyze_json(*args, cwd=tmp_path)["analysis"]["lines"][0]["score"]
    assert doc["red"]["cp"] == -doc["side"]["cp"]


@pytest.mark.slow
def test_a_finished_game_is_not_searched(tmp_path):
    fen = "4k4/R8/9/9/9/9/9/9/9/3K4R b - - 0 1"
    out = analyze("--fen", fen, "--moves", "e9f9", "i0i9", cwd=tmp_path).stdout
    assert "The game is over: Red wins by checkmate" in out
    doc = analyze_json("--fen", fen, "--moves", "e9f9", "i0i9", cwd=tmp_path)["analysis"]
    assert doc["outcome"] == {"winner": "red", "reason": "checkmate"}
    assert doc["bestmove"] is None and doc["lines"] == []
    assert doc["score"]["side"]["text"] == "-#0" and doc["score"]["red"]["text"] == "#0"


@pytest.mark.slow
def test_limits_nodes_and_time(tmp_path):
    nodes = analyze_json("--nodes", "3000", "--notation", "iccs", cwd=tmp_path)
    assert nodes["limits"] == {"depth": None, "time": None, "nodes": 3000}
    assert nodes["analysis"]["bestmove"] in Position().legal_moves()
    timed = analyze_json("--time", "0.2", "--threads", "2", "--hash", "8", cwd=tmp_path)
    assert timed["limits"]["time"] == 0.2 and timed["analysis"]["time_ms"] >= 0   # its duration: not asserted
    assert "2 threads, 8 MB hash" in timed["engine"]["description"]


# -- games --------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_blunder_is_marked_and_the_good_moves_are_not(tmp_path):
    doc = analyze_json("--moves", BLUNDER_GAME, "--annotate", "--depth", "8", cwd=tmp_path)
    assert doc["type"] == "game"
    records = doc["records"]
    assert [r["ply"] for r in records] == list(range(1, 8))
    blunder = records[BLUNDER_PLY - 1]
    assert blunder["move_text"] == "炮五进四" and blunder["class"] == "blunder", blunder
    assert blunder["loss"] >= 300 and not blunder["best"]
    assert blunder["best_move"] != blunder["move"] and blunder["best_move"] in Position(
        blunder["fen_before"]).legal_moves()
    for record in records:          # the opening moves are sound; after the blunder a shallow search may quibble
        if record["ply"] < BLUNDER_PLY:
            assert record["class"] not in ("mistake", "blunder"), record
        elif record is not blunder:
            assert record["class"] != "blunder", record
        if record["best"]:
            assert record["loss"] == 0 and record["class"] is None
    assert records[BLUNDER_PLY]["best"]                      # 马7进5 takes the cannon: the engine's move
    summary = doc["summary"]
    assert summary["red"]["blunders"] == 1 and summary["black"]["blunders"] == 0
    assert summary["red"]["moves"] == 4 and summary["black"]["moves"] == 3
    assert summary["red"]["average_loss"] >= 300 / 4


@pytest.mark.slow
def test_blunder_in_text_output_and_thresholds(tmp_path):
    out = analyze("--moves", BLUNDER_GAME, "--annotate", "--depth", "8", cwd=tmp_path).stdout
    row = next(line for line in out.splitlines() if re.match(r"\s*\d+\.\s+炮五进四", line))
    assert "炮五进四??" in row and "blunder" in row and "best" in row
    # moves, book moves, best, average loss, inaccuracies, mistakes, blunders
    assert re.search(r"^Red\s+4\s+\d+\s+\d+\s+[\d.]+\s+\d+\s+\d+\s+1\b", out, re.M), out
    # With the blunder threshold above the loss, the same move is only a mistake.
    doc = analyze_json("--moves", BLUNDER_GAME, "--annotate", "--depth", "8", "--blunder", "1000", cwd=tmp_path)
    assert doc["records"][BLUNDER_PLY - 1]["class"] == "mistake"
    assert doc["thresholds"] == {"inaccuracy": 50, "mistake": 100, "blunder": 1000, "cap": 1000}


@pytest.mark.slow
def test_game_file_in_utf8_and_gbk(tmp_path):
    docs = [analyze_json(str(PGN / name), "--depth", "4", cwd=tmp_path)
            for name in ("analyze_utf8.pgn", "analyze_gbk.pgn")]
    utf8, gbk = docs
    assert utf8["headers"]["Red"] == gbk["headers"]["Red"] == "红方甲"
    assert len(utf8["records"]) == 30
    assert [r["move_text"] for r in utf8["records"]] == [r["move_text"] for r in gbk["records"]]
    assert utf8["records"][0]["move_text"] == "炮二平五" and utf8["records"][1]["move_text"] == "马8进7"
    for record in utf8["records"]:
        position = Position(record["fen_before"])
        assert record["move"] in position.legal_moves()
        assert record["best_move"] in position.legal_moves()
        assert replay_texts(position, record["best_pv_text"]) == record["best_pv"]
    assert utf8["final"]["ply"] == 30
    out = analyze(str(PGN / "analyze_gbk.pgn"), "--depth", "3", "--notation", "wxf", cwd=tmp_path).stdout
    assert "红方甲 (Red) vs 黑方乙 (Black)" in out and "C2.5" in out
    assert re.search(r"^Red\s+15\s", out, re.M) and re.search(r"^Black\s+15\s", out, re.M)


@pytest.mark.slow
def test_game_files_in_big5_and_in_xboard_pgn(tmp_path):
    # A master game of the Chinese Chess Practical Dataset (Yu-Han Tseng, CC BY 4.0), in Big5.
    big5 = PGN / "ccpd" / "one-move-00000591.pgn"
    for extra in ([], ["--encoding", "big5"]):
        doc = analyze_json(str(big5), "--depth", "2", *extra, cwd=tmp_path)
        assert doc["headers"]["Red"] == "黑龍江趙國榮" and doc["moves"] == ["h2d2"]
    out = analyze(str(big5), "--depth", "2", cwd=tmp_path).stdout
    assert "黑龍江趙國榮 (Red) vs 廣東呂欽 (Black)" in out
    # XBoard's PGN: White names Red, SAN moves.
    xboard = PGN / "xboard" / "handmade.pgn"
    out = analyze(str(xboard), "--game", "4", "--depth", "2", "--notation", "iccs", cwd=tmp_path).stdout
    assert "Red (Red) vs Black (Black)" in out and "d2e1" in out
    failed = analyze(str(big5), "--encoding", "gbk", "--depth", "2", cwd=tmp_path, check=False)
    assert failed.returncode == 2 and "cannot read the game" in failed.stderr


@pytest.mark.slow
def test_game_choice_and_a_game_ending_in_mate(tmp_path):
    second = analyze_json(str(PGN / "xqbase_iccs.pgn"), "--game", "2", "--depth", "3", cwd=tmp_path)
    assert second["headers"]["Round"] == "4" and len(second["records"]) == 4
    mate = analyze_json(str(PGN / "fen_mate.pgn"), "--depth", "4", "--plot", "mate.svg", cwd=tmp_path)
    first = mate["records"][0]                        # 1... e9f9 walks into a mate in 1
    assert first["score_after"]["mover"]["text"] == "-#1" and first["score_after"]["red"]["text"] == "#1"
    last = mate["records"][-1]
    assert last["move"] == "i0i9" and last["loss"] == 0 and last["class"] is None   # one of the mates in 1
    assert last["score_after"]["red"]["text"] == "#0"
    assert mate["final"]["outcome"] == {"winner": "red", "reason": "checkmate"}
    ET.parse(tmp_path / "mate.svg")


# -- pictures ------------------------------------------------------------------------------------------------

def svg_pieces(path: Path) -> dict:
    root = ET.parse(path).getroot()
    pieces = {}
    for element in root.iter():
        if element.tag.endswith("}g") and element.get("class") == "piece":
            pieces[element.get("data-square")] = element.get("data-piece")
    return pieces


def board_pieces(position: Position) -> dict:
    squares = (f"{f}{r}" for f in "abcdefghi" for r in range(10))
    return {square: position.piece_at(square) for square in squares if position.piece_at(square)}


def svg_arrows(path: Path) -> dict:
    root = ET.parse(path).getroot()
    return {element.get("class"): element.get("data-move") for element in root.iter()
            if element.tag.endswith("}g") and (element.get("class") or "").startswith("arrow")}


@pytest.mark.slow
def test_svg_of_a_position(tmp_path):
    doc = analyze_json("--moves", "h2e2", "--depth", "4", "--svg", "pos.svg", cwd=tmp_path)
    assert doc["svg"] == "pos.svg"
    position = position_after(doc["start_fen"], doc["moves"])
    assert svg_pieces(tmp_path / "pos.svg") == board_pieces(position)
    arrows = svg_arrows(tmp_path / "pos.svg")
    assert arrows == {"arrow move": "h2e2", "arrow": doc["analysis"]["bestmove"]}


@pytest.mark.slow
def test_svg_of_a_game_at_a_ply_and_the_plot(tmp_path):
    doc = analyze_json(str(PGN / "analyze_utf8.pgn"), "--depth", "3", "--ply", "10", "--svg", "ply10.svg",
                       "--plot", "eval.svg", cwd=tmp_path)
    assert doc["diagram_ply"] == 10 and doc["plot"] == "eval.svg"
    position = position_after(doc["start_fen"], doc["moves"][:10])
    assert svg_pieces(tmp_path / "ply10.svg") == board_pieces(position)
    arrows = svg_arrows(tmp_path / "ply10.svg")
    assert arrows["arrow move"] == doc["moves"][9]
    assert arrows["arrow"] == doc["records"][10]["best_move"]          # the best move in the position at ply 10
    plot = ET.parse(tmp_path / "eval.svg").getroot()
    assert plot.tag.endswith("svg")
    final = analyze(str(PGN / "analyze_utf8.pgn"), "--depth", "3", "--svg", "final.svg", cwd=tmp_path).stdout
    assert "wrote final.svg" in final
    assert svg_pieces(tmp_path / "final.svg") == board_pieces(position_after(doc["start_fen"], doc["moves"]))


@pytest.mark.slow
def test_text_board(tmp_path):
    out = analyze("--moves", "h2e2", "--depth", "3", "--board", cwd=tmp_path).stdout
    assert "帥" in out and "楚" in out
    ascii_out = analyze("--moves", "h2e2", "--depth", "3", "--board", "--ascii", cwd=tmp_path).stdout
    assert "Chu He" in ascii_out and "[" in ascii_out      # the best move's destination is marked
    doc = analyze_json("--moves", "h2e2", "--depth", "3", "--board", cwd=tmp_path)
    assert "帥" in doc["board"]


# -- terminals and Ctrl-C -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_live_display_on_a_terminal(tmp_path):
    """On a terminal the lines are rewritten in place (cursor-up escapes), and the result stays."""
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "engine", "analyze", "--depth", "7", "--multipv", "2",
                                 "--notation", "iccs"], stdout=slave, stderr=subprocess.PIPE, cwd=tmp_path,
                                env=engine_env())
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:        # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=60) == 0
    finally:
        os.close(master)
    out = b"".join(chunks).decode("utf-8")
    assert "\x1b[2A" in out and "\x1b[J" in out
    assert "line 2  depth  7" in out and "bestmove" in out


@pytest.mark.slow
def test_ctrl_c_stops_and_reports(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "engine", "analyze", "--time", "60", "--notation", "iccs"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env=engine_env(), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        header = proc.stdout.readline()
        assert header.startswith("position")
        import time
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert re.search(r"^bestmove [a-i]\d[a-i]\d .*interrupted", out, re.M), out


# -- other engines ------------------------------------------------------------------------------------------

@pytest.mark.slow
@needs_fsf
@pytest.mark.parametrize("proto", ["uci", "ucci"])
def test_fairy_stockfish(proto, tmp_path):
    doc = analyze_json("--engine", FSF, "--proto", proto, "--moves", "炮二平五", "--depth", "6", "--multipv", "2",
                       "--hash", "16", "--threads", "1", cwd=tmp_path)
    analysis = doc["analysis"]
    position = position_after(doc["start_fen"], doc["moves"])
    assert "Fairy-Stockfish" in doc["engine"]["name"]
    assert analysis["bestmove"] in position.legal_moves()
    assert len(analysis["lines"]) == 2
    for line in analysis["lines"]:       # ranks converted from Fairy-Stockfish's 1..10
        assert replay_texts(position, line["pv_text"]) == line["pv"]
    mate = analyze_json("--engine", FSF, "--proto", proto, "--fen", MATE_IN_2, "--depth", "6", cwd=tmp_path)
    assert mate["analysis"]["bestmove"] == "i0i8" and mate["analysis"]["score_text"] == "#1"


@pytest.mark.slow
@needs_fsf
def test_fairy_stockfish_annotates_a_game(tmp_path):
    doc = analyze_json("--engine", FSF, "--moves", BLUNDER_GAME, "--annotate", "--depth", "6", cwd=tmp_path)
    assert doc["records"][BLUNDER_PLY - 1]["class"] == "blunder"


@pytest.mark.slow
def test_a_damaged_game_is_analysed_as_far_as_it_reads(tmp_path):
    # illegal.pgn's second game: its 6th ply does not read (3... 马8进7, the horse has gone).
    damaged = analyze(str(PGN / "illegal.pgn"), "--game", "2", "--depth", "2", "--json", cwd=tmp_path, check=False)
    assert damaged.returncode == 0, damaged.stderr
    doc = json.loads(damaged.stdout)
    assert doc["moves"] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"] and len(doc["records"]) == 5
    warnings = damaged.stderr.splitlines()              # one line, said once
    assert len(warnings) == 1, damaged.stderr
    assert warnings[0].startswith("jiangjun analyze: warning: the game could not be read whole, so it is analysed "
                                  "as far as it reads (5 plies): ")
    assert "game 2" in warnings[0] and "move 3 (Black) '马8进7'" in warnings[0]
    analyze(str(PGN / "illegal.pgn"), "--game", "1", "--depth", "2", cwd=tmp_path)   # whole: not a word on stderr
    nothing = tmp_path / "nothing.pgn"                   # its first move does not read: nothing to analyse
    nothing.write_text('[Game "Chinese Chess"]\n\n1. a0a5 h9g7 *\n', encoding="utf-8")
    refused = analyze(str(nothing), "--depth", "2", cwd=tmp_path, check=False)
    lines = refused.stderr.splitlines()
    assert refused.returncode == 2 and len(lines) == 1, refused.stderr
    assert lines[0].startswith("jiangjun analyze: cannot read the game: ") and "'a0a5'" in lines[0]


# -- bad input ------------------------------------------------------------------------------------------------

FAKE = fake_command("crasher.py")
ILLEGAL = fake_command("illegal_mover.py", "--at", "1")


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    (["--fen", "rnbakabnr/9/9 w"], "bad FEN"),
    (["--moves", "炮二平五", "马8退7"], "'马8退7', read as Chinese"),
    (["--moves", "h2e2 h9g7 h2h9"], "move 3 (2. Red) 'h2h9', read as ICCS"),
    (["--moves", "C2.5", "X9+1"], "read as WXF"),
    (["no_such_game.pgn"], "cannot read no_such_game.pgn"),
    ([str(PGN / "xqbase_iccs.pgn"), "--game", "3"], "holds 2 games"),
    ([str(PGN / "wxf.pgn"), "--ply", "31"], "the game has 30 plies"),
    (["--engine", "/no/such/engine"], "the engine failed to start"),
    (["--engine", FAKE, "--moves", "h2e2", "--annotate"], "exited with code 1"),
    (["--engine", ILLEGAL], "answered the illegal move"),
    (["--depth", "0"], "--depth must be at least 1"),
    (["--plot", "x.svg"], "--plot draws a game"),
    (["--svg", "no/such/dir/x.svg"], "does not exist"),
    (["--option", "Hash=32"], "--option applies to an engine"),
    (["--inaccuracy", "400"], "thresholds"),
])
def test_bad_input_gives_one_line_and_status_2(args, message, tmp_path):
    result = analyze(*args, "--depth", "2", cwd=tmp_path, check=False) if "--depth" not in args \
        else analyze(*args, cwd=tmp_path, check=False)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jiangjun analyze: ") and message in lines[0], result.stderr


@pytest.mark.slow
def test_help_lists_analyze(tmp_path):
    top = subprocess.run([sys.executable, "-m", "engine", "-h"], capture_output=True, text=True, cwd=tmp_path,
                         env=engine_env(), timeout=30)
    assert "analyze" in top.stdout
    own = analyze("-h", cwd=tmp_path)
    for option in ("--fen", "--moves", "--annotate", "--notation", "--pov", "--svg", "--plot", "--json",
                   "--engine", "--multipv", "--blunder"):
        assert option in own.stdout


# -- the scoring rules, in-process ---------------------------------------------------------------------------

def test_scores_and_mates():
    from engine.score import MATE, Score

    assert Score.from_mate(3).mate == 3 and Score.from_mate(3).text() == "#3"
    assert Score.from_mate(-2).mate == -2 and (-Score.from_mate(-2)).text() == "#2"
    assert Score.mated().text() == "-#0" and (-Score.mated()).text() == "#0"
    assert Score(MATE - 5).mate == 3                   # the kernel's value: mate found 5 plies ahead
    # Seen by the side not to move: mated on the opponent's next move is mated in 1, not 0.
    assert (-Score(MATE - 1)).mate == -1 and (-Score(MATE - 1)).text() == "-#1"
    assert (-Score.from_mate(-2)).mate == 2
    assert Score.from_cp(-120).text() == "-120" and Score(0).text() == "0"
    assert Score.from_mate(1).capped(1000) == 1000 and Score.from_cp(-4000).capped(1000) == -1000


def test_judging_moves():
    from engine.analyze.game import Thresholds, judge
    from engine.score import Score

    t = Thresholds()
    assert judge(Score(40), Score(-300), best=True, thresholds=t) == (0, None)        # the engine's move
    assert judge(Score(40), Score(60), best=False, thresholds=t) == (0, None)         # gains: loses nothing
    assert judge(Score(40), Score(-20), best=False, thresholds=t) == (60, "inaccuracy")
    assert judge(Score(40), Score(-100), best=False, thresholds=t) == (140, "mistake")
    assert judge(Score(40), Score(-400), best=False, thresholds=t)[1] == "blunder"
    # mates: a slower mate, or staying far ahead, loses nothing; letting a mate in is a blunder
    assert judge(Score.from_mate(2), Score.from_mate(5), best=False, thresholds=t) == (0, None)
    assert judge(Score.from_mate(2), Score.from_cp(1500), best=False, thresholds=t) == (0, None)
    assert judge(Score.from_mate(2), Score.from_cp(200), best=False, thresholds=t)[1] == "blunder"
    assert judge(Score.from_cp(50), Score.from_mate(-4), best=False, thresholds=t)[1] == "blunder"
    assert judge(Score.from_mate(-6), Score.from_mate(-2), best=False, thresholds=t) == (0, None)


@pytest.mark.slow
def test_book_moves_are_marked_and_not_judged_and_the_opening_is_named(tmp_path):
    doc = analyze_json("--moves", BLUNDER_GAME, "--annotate", "--depth", "3", cwd=tmp_path)
    records = doc["records"]
    assert records[0]["book"] and records[1]["book"]           # 炮二平五 马8进7: the book's
    assert all(r["loss"] == 0 and r["class"] is None for r in records if r["book"])
    assert not records[BLUNDER_PLY - 1]["book"]                 # 炮五进四 is no book move
    assert doc["opening"] and doc["summary"]["red"]["book_moves"] >= 1
    out = analyze("--moves", BLUNDER_GAME, "--annotate", "--depth", "3", cwd=tmp_path).stdout
    assert re.search(r"^opening   \S", out, re.M) and re.search(r"炮二平五\s+\S+\s+\d+/\d+/\d+\s+book$", out, re.M), out
    plain = analyze_json("--moves", BLUNDER_GAME, "--annotate", "--depth", "3", "--no-book", cwd=tmp_path)
    assert not any(r["book"] for r in plain["records"]) and plain["opening"] is None

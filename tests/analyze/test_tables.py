"""engine.analyze.tables and the endgame tables' lines of `jiangjun analyze`: the TB line and the table's best
moves beside the engine's lines, in text, JSON and a saved game; --no-tables and --tables; nothing outside the
tables; a damaged table said once while the analysis goes on. jiangjun is hosted in process (no process is
started: these tests are quick); the tables are the shipped ones, or copies of them."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

from engine import Position
from engine.analyze.cli import main
from engine.analyze.tables import SHOWN_MOVES, Tables
from engine.notation import parse_move
from engine.pgn import read_games
from engine.tablebase import SHIPPED_DIRECTORY, TableValue, Wdl, open_tablebase, table_score

KNKA = "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1"          # KNKA's longest win: Red mates in 37 plies (19 moves)
KRKA_BLACK = "4k4/4a4/9/9/9/9/9/9/9/R2K5 b - - 0 1"    # Black to move, lost
DRAWN = "2bakab2/9/9/9/9/9/9/9/9/R2K5 b - - 0 1"        # a lone chariot against the full defence: drawn
TB_LINE = re.compile(r"^TB: (.*?)(?:; best (.*))?$", re.M)


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main([*args, "--hash", "8"], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def analysed(*args: str) -> str:
    status, out, err = run(*args)
    assert status == 0 and not err, err
    return out


def damaged_copy(folder: Path, name: str) -> Path:
    """A shipped table copied into `folder` with one byte of its body changed."""
    folder.mkdir(exist_ok=True)
    data = bytearray((SHIPPED_DIRECTORY / f"{name}.jjtb").read_bytes())
    data[len(data) // 2] ^= 0xFF
    path = folder / f"{name}.jjtb"
    path.write_bytes(bytes(data))
    return path


# -- text ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("notation", ["chinese", "wxf", "iccs"])
def test_the_tb_line_and_the_best_moves_in_the_chosen_notation(notation):
    out = analysed("--fen", KNKA, "--depth", "3", "--notation", notation)
    found = TB_LINE.findall(out)
    assert len(found) == 1, out
    value, moves = found[0]
    assert value == "red wins, mate in 19"
    position = Position(KNKA)
    shown = [item.rsplit(" ", 1) for item in moves.split(", ")]
    assert len(shown) == SHOWN_MOVES
    table = dict(open_tablebase().best_moves(position))
    for text, score in shown:
        move = parse_move(position, text)                     # the notation reads back
        assert score == f"#{(table[move].plies + 1) // 2}" == "#19"
    # beside the engine's lines: after them, before the best move
    lines = out.splitlines()
    assert lines.index(next(l for l in lines if l.startswith("TB: "))) == len(lines) - 2
    assert lines[-1].startswith("bestmove ")


def test_who_wins_is_said_by_colour_and_the_scores_follow_the_pov():
    red_view = analysed("--fen", KRKA_BLACK, "--depth", "3", "--notation", "iccs")
    side_view = analysed("--fen", KRKA_BLACK, "--depth", "3", "--notation", "iccs", "--pov", "side")
    (value, moves), = TB_LINE.findall(red_view)
    (value_side, moves_side), = TB_LINE.findall(side_view)
    assert value == value_side and value.startswith("red wins, mate in ")
    assert all(item.split()[1].startswith("#") for item in moves.split(", "))          # Red mates
    assert all(item.split()[1].startswith("-#") for item in moves_side.split(", "))    # Black is mated


def test_a_draw_says_so_and_its_moves_score_zero():
    (value, moves), = TB_LINE.findall(analysed("--fen", DRAWN, "--depth", "2"))
    assert value == "draw"                       # the words of a marked draw: tests/tablebase/test_describe.py
    assert all(item.endswith(" 0") for item in moves.split(", "))


def test_no_tables_and_positions_outside_them_show_nothing():
    assert not TB_LINE.findall(analysed("--fen", KNKA, "--depth", "2", "--no-tables"))
    assert not TB_LINE.findall(analysed("--moves", "炮二平五", "--depth", "2"))
    doc = json.loads(analysed("--fen", KNKA, "--depth", "2", "--no-tables", "--json"))
    assert doc["analysis"]["tablebase"] is None
    doc = json.loads(analysed("--depth", "2", "--json"))
    assert doc["analysis"]["tablebase"] is None


# -- JSON ---------------------------------------------------------------------------------------------------
def test_the_json_of_a_position_holds_the_tables_value_and_moves():
    doc = json.loads(analysed("--fen", KRKA_BLACK, "--depth", "3", "--json", "--notation", "wxf"))
    table = doc["analysis"]["tablebase"]
    position = Position(KRKA_BLACK)
    value = open_tablebase().probe(position)
    assert table["winner"] == "red" and table["wdl"] == "loss" and table["plies"] == value.plies
    assert table["mate"] == (value.plies + 1) // 2 and table["at_risk"] == []
    assert table["text"] == {"en": f"red wins, mate in {table['mate']}", "zh": f"红胜，{table['mate']}步杀"}
    assert table["score"]["red"]["mate"] == table["mate"] and table["score"]["side"]["mate"] == -table["mate"]
    assert len(table["moves"]) == SHOWN_MOVES
    for move in table["moves"]:
        assert parse_move(position, move["move_text"]) == move["move"]
        after = position.copy()
        after.push(move["move"])
        assert open_tablebase().probe(after).after_move().plies == move["plies"]
        assert move["winner"] == "red" and move["score"]["side"]["text"].startswith("-#")


# -- games --------------------------------------------------------------------------------------------------
def test_a_game_shows_each_positions_line_in_text_json_and_the_saved_game(tmp_path):
    moves = ["马九进八", "将5退1", "马八进九"]
    text = analysed("--fen", KNKA, "--moves", *moves, "--annotate", "--depth", "2")
    assert len(TB_LINE.findall("\n".join(line.strip() for line in text.splitlines()))) == 4   # start and 3 moves
    doc = json.loads(analysed("--fen", KNKA, "--moves", *moves, "--annotate", "--depth", "2", "--json"))
    assert doc["start_tablebase"]["text"]["en"] == "red wins, mate in 19"
    position = Position(KNKA)
    for record in doc["records"]:
        position.push(record["move"])
        value = open_tablebase().probe(position)
        assert record["tablebase"]["plies"] == value.plies
    assert doc["final"]["tablebase"] == doc["records"][-1]["tablebase"]
    saved = tmp_path / "game.pgn"
    analysed("--fen", KNKA, "--moves", *moves, "--annotate", "--depth", "2", "--save", str(saved))
    game = read_games(saved)[0]
    assert game.start_comment.endswith("TB: red wins, mate in 19")
    assert all(comment.splitlines()[-1].startswith("TB: red wins, mate in ") for comment in game.comments)


# -- the tables given, and damaged ones ----------------------------------------------------------------------
def test_tables_given_are_read_before_the_shipped_ones_and_a_bad_path_is_refused(tmp_path):
    shutil.copy(SHIPPED_DIRECTORY / "KNKA.jjtb", tmp_path / "KNKA.jjtb")
    assert TB_LINE.findall(analysed("--fen", KNKA, "--depth", "2", "--tables", str(tmp_path)))
    status, out, err = run("--fen", KNKA, "--depth", "2", "--tables", str(tmp_path / "nowhere"))
    assert status == 2 and err.count("\n") == 1 and "--tables" in err and "neither a folder" in err


def test_a_damaged_table_is_said_once_and_the_analysis_goes_on(tmp_path):
    damaged_copy(tmp_path, "KNKA")
    status, out, err = run("--fen", KNKA, "--moves", "马九进八", "将5退1", "--annotate", "--depth", "2",
                           "--tables", str(tmp_path))
    assert status == 0
    warnings = err.splitlines()
    assert len(warnings) == 1 and "warning: tablebase:" in warnings[0] and "KNKA.jjtb" in warnings[0], err
    assert not TB_LINE.findall("\n".join(line.strip() for line in out.splitlines()))
    assert "Red " in out and "Black " in out                     # the game's summary: the analysis went on


def test_a_damaged_sub_table_leaves_the_value_without_the_moves(tmp_path):
    shutil.copy(SHIPPED_DIRECTORY / "KRKA.jjtb", tmp_path / "KRKA.jjtb")
    damaged_copy(tmp_path, "KRK")                 # the chariot can take the advisor: a move into KRK
    warnings: list[str] = []
    tables = Tables.open([str(tmp_path)], True, warnings.append)
    look = tables.look_up(Position("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1"))
    assert look is not None and look.value.wdl is Wdl.WIN and look.moves == ()
    tables.look_up(Position("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1"))
    assert len(warnings) == 1 and "KRK.jjtb" in warnings[0]


def test_the_tables_switched_off_hold_nothing_and_the_score_of_a_value():
    assert Tables.open([], False, print).look_up(Position(KNKA)) is None
    assert not Tables.open([], False, print).enabled
    assert table_score(TableValue(Wdl.WIN, 37)).text() == "#19"
    assert table_score(TableValue(Wdl.LOSS, 36)).text() == "-#18"
    assert table_score(TableValue(Wdl.LOSS, 0)).text() == "-#0"
    assert table_score(TableValue(Wdl.DRAW, None, (1,))).text() == "0"

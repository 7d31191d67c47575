"""The words of a table value (engine.tablebase.describe): who wins by colour whoever is to move, mate in
moves as UCI counts them, draws, marked draws and no legal move, in English and Chinese."""
import json

import pytest

from engine import Position
from engine.color import Color
from engine.tablebase import TableValue, Wdl, open_tablebase
from engine.tablebase.describe import (LANGUAGES, PREFIX, all_words, mate_moves, outcome_text, tb_text, texts,
                                       value_json, winner)

RED, BLACK = Color.RED, Color.BLACK
KNKA_LONGEST = "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1"      # KNKA's longest win: 37 plies (docs/tablebases.md)


@pytest.mark.parametrize("value, turn, english, chinese", [
    (TableValue(Wdl.WIN, 45), RED, "TB: red wins, mate in 23", "TB: 红胜，23步杀"),
    (TableValue(Wdl.WIN, 45), BLACK, "TB: black wins, mate in 23", "TB: 黑胜，23步杀"),
    (TableValue(Wdl.LOSS, 44), RED, "TB: black wins, mate in 22", "TB: 黑胜，22步杀"),
    (TableValue(Wdl.LOSS, 44), BLACK, "TB: red wins, mate in 22", "TB: 红胜，22步杀"),
    (TableValue(Wdl.WIN, 1), RED, "TB: red wins, mate in 1", "TB: 红胜，1步杀"),
    (TableValue(Wdl.LOSS, 2), BLACK, "TB: red wins, mate in 1", "TB: 红胜，1步杀"),
    (TableValue(Wdl.LOSS, 0), BLACK, "TB: red wins, black has no legal move", "TB: 红胜，黑方无着可走"),
    (TableValue(Wdl.DRAW, None), RED, "TB: draw", "TB: 和棋"),
    (TableValue(Wdl.DRAW, None), BLACK, "TB: draw", "TB: 和棋"),
])
def test_the_words_of_a_value(value, turn, english, chinese):
    assert tb_text(value, turn) == tb_text(value, turn, "en") == english
    assert tb_text(value, turn, "zh") == chinese
    assert texts(value, turn) == {"en": english[len(PREFIX):], "zh": chinese[len(PREFIX):]}


def test_mate_in_moves_counts_the_winners_moves_as_uci_does():
    # The winner to move: 2n-1 plies are n of its moves; the loser to move: 2n plies are n of the winner's.
    for moves in range(1, 40):
        assert mate_moves(TableValue(Wdl.WIN, 2 * moves - 1)) == moves
        assert mate_moves(TableValue(Wdl.LOSS, 2 * moves)) == moves
    assert mate_moves(TableValue(Wdl.LOSS, 0)) == 0
    assert mate_moves(TableValue(Wdl.DRAW, None)) is None


def test_a_marked_draw_names_the_side_the_rulings_might_turn_it_against():
    black = TableValue(Wdl.DRAW, None, (1,))
    both = TableValue(Wdl.DRAW, None, (0, 1))
    assert tb_text(black, RED) == "TB: draw (the perpetual check/chase rulings may turn it against black)"
    assert tb_text(black, BLACK) == tb_text(black, RED)          # the colour, whoever is to move
    assert tb_text(both, RED) == "TB: draw (the perpetual check/chase rulings may turn it against either side)"
    assert tb_text(black, RED, "zh") == "TB: 和棋（长将、长捉的裁决或判黑负）"
    assert tb_text(both, RED, "zh") == "TB: 和棋（长将、长捉的裁决或判一方负）"
    assert value_json(black, RED)["at_risk"] == ["black"] and value_json(both, BLACK)["at_risk"] == ["red", "black"]


def test_the_json_of_a_value():
    doc = value_json(TableValue(Wdl.LOSS, 36), RED)
    assert doc == {"winner": "black", "wdl": "loss", "plies": 36, "mate": 18, "dtc": None, "at_risk": [],
                   "text": {"en": "black wins, mate in 18", "zh": "黑胜，18步杀"}}
    assert json.loads(json.dumps(doc, ensure_ascii=False)) == doc
    assert value_json(TableValue(Wdl.DRAW, None), BLACK)["winner"] is None


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language 'fr'"):
        tb_text(TableValue(Wdl.DRAW, None), RED, "fr")
    assert set(LANGUAGES) == {"en", "zh"}
    assert "和棋" in all_words() and "draw" in all_words()


def test_the_shipped_tables_in_words_whoever_is_to_move():
    """A probed position and its colour-flipped twin: the same words with the colours swapped."""
    tb = open_tablebase()
    position = Position(KNKA_LONGEST)
    value = tb.probe(position)
    assert tb_text(value, position.turn) == "TB: red wins, mate in 19"     # 37 plies: 19 of Red's moves
    flipped = position.mirror()
    assert tb_text(tb.probe(flipped), flipped.turn) == "TB: black wins, mate in 19"
    # one move by Red, then Black to move: the loser, mated in 18 of Red's moves at best for Red
    best, after = tb.best_moves(position)[0]
    assert outcome_text(after, RED) == "red wins, mate in 19"
    position.push(best)
    assert tb_text(tb.probe(position), position.turn) == "TB: red wins, mate in 18"
    assert winner(tb.probe(position), position.turn) is RED

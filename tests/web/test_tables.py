"""engine.web.tables and the page's `tablebase` request: the endgame tables' value and best moves of a FEN, in
both of the page's languages, served by a tab (engine.web.app.Tab on a socket of the test's own: no server,
no engine, no process). The page itself, in Chromium, is test_browser.py's."""
from __future__ import annotations

import asyncio
import json
import logging
import shutil

import pytest

from engine import Position
from engine.notation import parse_move
from engine.tablebase import SHIPPED_DIRECTORY, open_tablebase
from engine.web.game import WebGame, WebInputError
from engine.web.protocol import decode
from engine.web.tables import SHOWN_MOVES, TableSource

KNKA = "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1"          # Red mates in 37 plies (19 moves)
KRKA_BLACK = "4k4/4a4/9/9/9/9/9/9/9/R2K5 b - - 0 1"    # Black to move, lost
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


@pytest.fixture(scope="module")
def source():
    return TableSource()


def test_a_position_in_the_tables_in_both_languages(source):
    answer = source.answer(KNKA)
    assert answer["type"] == "tablebase" and answer["fen"] == KNKA
    assert answer["line"] == {"en": "TB: red wins, mate in 19", "zh": "TB: 红胜，19步杀"}
    assert answer["value"]["winner"] == "red" and answer["value"]["plies"] == 37
    position = Position(KNKA)
    table = dict(open_tablebase().best_moves(position))
    assert len(answer["moves"]) == min(SHOWN_MOVES, len(position.legal_moves())) == 3
    assert len(source.answer(KRKA_BLACK.replace(" b ", " w "))["moves"]) == SHOWN_MOVES
    for move in answer["moves"]:
        assert parse_move(position, move["chinese"]) == parse_move(position, move["wxf"]) == move["iccs"]
        assert move["plies"] == table[move["iccs"]].plies
        assert move["text"]["zh"].startswith("红胜，") and move["text"]["en"].startswith("red wins, mate in ")
    json.dumps(answer, ensure_ascii=False)


def test_who_wins_is_said_by_colour_with_black_to_move(source):
    answer = source.answer(KRKA_BLACK)
    assert answer["line"]["en"].startswith("TB: red wins, mate in ") and answer["line"]["zh"].startswith("TB: 红胜，")
    assert answer["value"]["wdl"] == "loss"
    assert all(move["winner"] == "red" for move in answer["moves"])


def test_outside_the_tables_or_without_them_the_value_is_null(source):
    for fen in (START, "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1"):      # no table of KRRK among the shipped
        assert source.answer(fen) == {"type": "tablebase", "fen": fen, "value": None, "line": None, "moves": []}
    assert TableSource(enabled=False).answer(KNKA)["value"] is None


def test_a_bad_fen_is_refused_as_a_new_games_is(source):
    for fen in ("", "x", "9/9/9/9/9/9/9/9/9/9 w", "4k4/9/9/9/9/9/9/9/9/4K4 z", "3k5/9/9/9/9/9/9/9/9/3K5 w"):
        with pytest.raises(WebInputError) as refused:
            source.answer(fen)
        with pytest.raises(WebInputError) as by_the_game:
            WebGame().new(fen) if fen else WebGame().new("x")
        assert str(refused.value).startswith("bad FEN: ")
        if fen:
            assert str(refused.value) == str(by_the_game.value)


def test_a_damaged_table_is_logged_once_and_gives_null(tmp_path, caplog):
    data = bytearray((SHIPPED_DIRECTORY / "KNKA.jjtb").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (tmp_path / "KNKA.jjtb").write_bytes(bytes(data))
    shutil.copy(SHIPPED_DIRECTORY / "KRK.jjtb", tmp_path / "KRK.jjtb")
    source = TableSource([str(tmp_path)])
    with caplog.at_level(logging.WARNING, logger="engine.web.tables"):
        assert source.answer(KNKA)["value"] is None
        assert source.answer(KNKA)["value"] is None
    assert len([r for r in caplog.records if "KNKA.jjtb" in r.getMessage()]) == 1
    assert source.answer("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")["value"]["winner"] == "red"   # KRK still read


def test_the_request_is_checked_whole():
    assert decode(json.dumps({"type": "tablebase", "fen": KNKA})) == {"type": "tablebase", "fen": KNKA}
    from engine.web.protocol import BadRequest

    for bad, words in ((({"type": "tablebase"}), "the field fen is missing"),
                       ({"type": "tablebase", "fen": 5}, "fen must be text"),
                       ({"type": "tablebase", "fen": "x" * 300}, "too long"),
                       ({"type": "tablebase", "fen": KNKA, "path": "/"}, "unknown field 'path'")):
        with pytest.raises(BadRequest, match=words):
            decode(json.dumps(bad))


# -- a tab serving the request --------------------------------------------------------------------------------
class _Socket:
    """What a tab sends, kept."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _served(*requests: object) -> list[dict]:
    pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
    from engine.web.app import ServerConfig, Tab

    async def serve() -> list[dict]:
        socket = _Socket()
        tab = Tab(socket, ServerConfig())
        try:
            for request in requests:
                await tab.serve({"text": request if isinstance(request, str) else json.dumps(request)})
        finally:
            await tab.close()
        return socket.sent
    return asyncio.run(serve())


def test_a_tab_answers_with_a_tablebase_message_and_keeps_its_game():
    sent = _served({"type": "tablebase", "fen": KNKA}, {"type": "tablebase", "fen": START},
                   {"type": "tablebase", "fen": "not a fen"}, {"type": "tablebase", "fen": ["x"]})
    assert [m["type"] for m in sent] == ["tablebase", "tablebase", "error", "error"]
    assert sent[0]["fen"] == KNKA and sent[0]["line"]["zh"] == "TB: 红胜，19步杀"
    assert sent[1]["fen"] == START and sent[1]["value"] is None
    assert sent[2]["message"].startswith("bad FEN: ") and "fen must be text" in sent[3]["message"]

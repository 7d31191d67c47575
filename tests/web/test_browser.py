"""`jiangjun web` in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by Playwright.

The server runs as `python -m engine web --port 0 --no-browser`, as a user starts it, with jiangjun as the
engine at quick settings (0.2 s a move, a low level). With JIANGJUN_WEB_SCREENSHOT=path the analysis test
also saves a picture of the page there (docs/web.png).
"""
from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

from support import DATA, FAKES
from support.web import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, chromium_installed, serve as run_server

pytestmark = pytest.mark.slow

pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the [web] extra) is not installed")
pytest.importorskip("websockets", reason="websockets (uvicorn's WebSocket support, the [web] extra) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from engine import Position  # noqa: E402

if not chromium_installed():
    pytest.skip(f"chromium is not installed ({CHROMIUM}: apt-get install chromium)", allow_module_level=True)


FAKE_ENGINES = FAKES
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The page's address; the server is ended after the module's tests."""
    yield from run_server(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def crashing_server(tmp_path_factory):
    """A server whose engine (--engine) crashes at its 2nd search, with room for two tabs only."""
    crasher = f"{sys.executable} {FAKE_ENGINES / 'crasher.py'}"
    yield from run_server(tmp_path_factory.mktemp("web-crash"), "--max-tabs", "2", "--engine", crasher, "proto=uci")


@pytest.fixture(scope="module")
def fairy_server(tmp_path_factory):
    """A server that runs Fairy-Stockfish (--engine) in place of jiangjun."""
    if not os.access(FAIRY_STOCKFISH, os.X_OK):
        pytest.skip("fairy-stockfish is not installed")
    yield from run_server(tmp_path_factory.mktemp("web-fairy"), "--engine", FAIRY_STOCKFISH, "proto=uci")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_page(page, server)
    yield page
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def open_page(page, url: str, mode: str = "free") -> None:
    page.goto(url)
    page.wait_for_selector('[data-square="h2"]', state="attached")
    page.wait_for_function("typeof state !== 'undefined' && state !== null")   # the first state arrived
    page.select_option("#movetime", "200")
    page.select_option("#level", "3")
    page.select_option("#mode", mode)
    wait_state(page, f"state.settings.mode === '{mode}'")


def wait_state(page, condition: str) -> None:
    page.wait_for_function(f"state && ({condition})", timeout=WAIT_MS)


def move_texts(page) -> list[str]:
    return page.locator("#moves li").all_inner_texts()


def click_move(page, move: str) -> None:
    plies = page.evaluate("state.moves.length")
    page.click(f'[data-square="{move[:2]}"]')
    page.click(f'[data-square="{move[2:]}"]')
    wait_state(page, f"state.moves.length > {plies}")


def test_the_board_has_90_points_named_by_iccs(page):
    points = page.locator("#board [data-square]")
    assert points.count() == 90
    names = set(points.evaluate_all("els => els.map(e => e.dataset.square)"))
    assert names == {f"{f}{r}" for f in "abcdefghi" for r in range(10)}
    assert page.locator('[data-square="e0"]').get_attribute("data-piece") == "K"


def test_a_click_click_move_is_answered_by_the_engine(page):
    page.select_option("#mode", "play")
    page.click('[data-square="h2"]')
    assert page.locator("#board .target").count() > 0           # the legal targets are shown
    page.click('[data-square="e2"]')
    wait_state(page, "state.moves.length >= 2")
    texts = move_texts(page)
    assert texts[0] == "炮二平五"
    reply = page.evaluate("state.moves[1].iccs")
    after = Position()
    after.push("h2e2")
    assert after.is_legal(reply)
    assert page.locator("#board .last").count() == 2            # the engine's move is marked


def test_a_drag_moves_a_piece(page):
    source = page.locator('[data-square="b0"]').bounding_box()
    target = page.locator('[data-square="c2"]').bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=5)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
    page.mouse.up()
    wait_state(page, "state.moves.length === 1")
    assert move_texts(page) == ["马八进七"]


def test_an_illegal_click_is_refused(page):
    page.click('[data-square="h2"]')
    page.click('[data-square="g5"]')                             # a cannon cannot go there
    assert page.locator("#message").is_visible()
    page.wait_for_timeout(300)
    assert move_texts(page) == []
    page.click('[data-square="h7"]')                             # not the side to move's piece
    assert page.locator("#board .selected").count() == 0
    assert move_texts(page) == []


def test_a_big5_pgn_opens_and_plays_through(page):
    from engine.pgn import read_games

    big5 = DATA / "pgn" / "ccpd" / "checkmate-00003272.pgn"      # a real Big5 file, 61 moves to mate

    game = read_games(big5)[0]
    page.set_input_files("#pgn-file", str(big5))
    wait_state(page, f"state.moves.length === {len(game.moves)}")
    assert page.evaluate("state.moves.map(m => m.iccs)") == game.moves
    final_fen = page.locator("#fen").inner_text()
    page.click("#nav-first")
    assert page.locator("#fen").inner_text() == game.starting_fen()
    page.click("#nav-next")
    first = Position(game.starting_fen())
    first.push(game.moves[0])
    assert page.locator("#fen").inner_text() == first.fen()
    assert page.locator("#moves li.current").inner_text() == move_texts(page)[0]
    page.click("#nav-last")
    assert page.locator("#fen").inner_text() == final_fen
    assert page.locator("#outcome").get_attribute("data-reason") == "checkmate"


def test_the_analysis_shows_lines_that_update(page):
    page.select_option("#multipv", "2")
    page.select_option("#movetime", "1000")           # analysis: 5 s a position
    page.select_option("#mode", "analyse")
    page.wait_for_selector("#lines tr.line", timeout=WAIT_MS)
    first_depth = page.evaluate("lines[0].depth")
    first_move = page.locator("#lines tr.line .pv-move").first.element_handle()
    page.wait_for_function(f"lines.length >= 2 && lines[0].depth > {first_depth}", timeout=WAIT_MS)
    # updated in place, not made anew: a move replaced between a press and its release loses the click
    assert first_move.evaluate("span => span.isConnected")
    row = page.locator("#lines tr.line").first
    assert re.fullmatch(r"[+-]?\d+|-?#\d+|0", row.locator(".score").inner_text())
    assert row.locator(".wdl").inner_text().endswith("%")     # jiangjun gives win/draw/loss
    assert row.locator(".pv-move").count() >= 1
    assert page.locator("#evalbar-text").inner_text() != ""
    screenshot = os.environ.get("JIANGJUN_WEB_SCREENSHOT")
    if screenshot:
        page.screenshot(path=screenshot)
    # a PV move clicked is played (the lines change as the engine thinks: which one is not known here)
    row.locator(".pv-move").first.click()
    wait_state(page, "state.moves.length === 1")
    assert Position().is_legal(page.evaluate("state.moves[0].iccs"))


def test_the_review_marks_the_blunder_and_its_graph_is_clickable(page):
    page.fill("#paste", "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 炮五进四 马7进5")
    page.click("#load-text")
    wait_state(page, "state.moves.length === 6")
    page.click("#review-start")
    page.wait_for_function("review && review.summary", timeout=WAIT_MS)
    assert page.locator("#graph .graph-point").count() == 7          # the start and each move
    blunder = page.locator("#moves li.blunder")
    assert blunder.count() == 1 and blunder.inner_text() == "炮五进四??"
    assert "应走" in blunder.get_attribute("title")                     # the best move instead is named
    assert "1??" in page.locator("#review-summary").inner_text()
    page.locator('#graph .graph-point[data-ply="2"]').click()
    assert page.locator("#moves li.current").inner_text() == "马8进7"


def test_a_perpetual_check_ends_the_game_with_the_ruling(page):
    fen = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1"
    page.fill("#paste", fen)
    page.click("#new-from-fen")
    wait_state(page, f"state.start_fen === '{fen}'")
    for move in "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2".split():
        click_move(page, move)
    wait_state(page, "state.outcome !== null")
    outcome = page.locator("#outcome")
    assert outcome.get_attribute("data-reason") == "perpetual_check"
    assert "1-0" in outcome.inner_text() and "长将" in outcome.inner_text()
    page.click("#lang")
    assert "perpetual check" in outcome.inner_text()
    page.click("#lang")


def test_a_bad_fen_gets_a_message_and_the_game_stays(page):
    click_move(page, "h2e2")
    page.fill("#paste", "rnbakabnr/9/1c5c1/p1p1p1p1p/9 w")
    page.click("#new-from-fen")
    message = page.locator("#message")
    message.wait_for(state="visible", timeout=WAIT_MS)
    assert "FEN" in message.inner_text()
    assert move_texts(page) == ["炮二平五"]
    page.fill("#paste", "1. zz h9g7")                              # nothing reads: refused
    page.click("#load-text")
    page.wait_for_function("document.getElementById('message').textContent.includes('zz')", timeout=WAIT_MS)
    assert message.get_attribute("class") == "error"
    assert move_texts(page) == ["炮二平五"]
    page.fill("#paste", "1. h2e2 h9g7 2. yy")                      # read up to the move that does not
    page.click("#load-text")
    wait_state(page, "state.moves.length === 2")
    page.wait_for_function("document.getElementById('message').textContent.includes('yy')", timeout=WAIT_MS)
    assert message.get_attribute("class") == "info"
    assert move_texts(page) == ["炮二平五", "马8进7"]


def test_two_tabs_play_independent_games(browser, server):
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    try:
        open_page(first, server)
        open_page(second, server)
        click_move(first, "h2e2")
        click_move(second, "b2e2")
        click_move(second, "h9g7")
        assert move_texts(first) == ["炮二平五"]
        assert move_texts(second) == ["炮八平五", "马8进7"]
        assert "中炮" in first.locator("#opening-name").inner_text()    # the opening named while in book
        assert first.locator("#book-moves").inner_text().startswith("马8进7")
    finally:
        context.close()


def test_the_pgn_and_the_picture_are_saved(page):
    click_move(page, "h2e2")
    with page.expect_download() as download:
        page.click("#save-pgn")
    pgn = Path(download.value.path()).read_text(encoding="utf-8")
    assert "1. 炮二平五" in pgn
    page.select_option("#save-notation", "iccs")
    with page.expect_download() as download:
        page.click("#save-pgn")
    assert "h2e2" in Path(download.value.path()).read_text(encoding="utf-8")
    with page.expect_download() as download:
        page.click("#save-svg")
    assert Path(download.value.path()).read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_an_engine_crash_is_reported_and_a_new_engine_plays_on(browser, crashing_server):
    context = browser.new_context()
    page = context.new_page()
    try:
        open_page(page, crashing_server, mode="play")
        click_move(page, "h2e2")
        wait_state(page, "state.moves.length === 2")            # the fake engine's first search: a move
        reply = page.evaluate("state.moves[1].iccs")
        after = Position()
        after.push("h2e2")
        after.push(reply)
        move = next(m for m in after.legal_moves())
        click_move(page, move)                                    # its second search: it crashes
        message = page.locator("#message")
        message.wait_for(state="visible", timeout=WAIT_MS)
        assert "engine" in message.inner_text()
        assert len(move_texts(page)) == 3                         # the game is kept
        page.click("#engine-move")                                # a new engine process answers
        wait_state(page, "state.moves.length === 4")
    finally:
        context.close()


def test_tabs_beyond_the_cap_are_refused_until_one_closes(browser, crashing_server):
    context = browser.new_context()
    try:
        first, second, third = context.new_page(), context.new_page(), context.new_page()
        open_page(first, crashing_server)
        open_page(second, crashing_server)
        third.goto(crashing_server)
        third.wait_for_function("document.getElementById('message').textContent.includes('2')", timeout=WAIT_MS)
        assert third.evaluate("state") is None
        second.close()
        deadline = time.monotonic() + 10
        fourth = context.new_page()
        while True:                                               # the server frees the tab's slot
            fourth.goto(crashing_server)
            fourth.wait_for_timeout(300)
            if fourth.evaluate("state") is not None or time.monotonic() > deadline:
                break
        assert fourth.evaluate("state") is not None
    finally:
        context.close()


def test_another_engine_plays_and_analyses(browser, fairy_server):
    context = browser.new_context()
    page = context.new_page()
    try:
        open_page(page, fairy_server, mode="play")
        click_move(page, "h2e2")
        wait_state(page, "state.moves.length === 2")
        after = Position()
        after.push("h2e2")
        assert after.is_legal(page.evaluate("state.moves[1].iccs"))
        page.select_option("#mode", "analyse")
        # the lines of the analysis, not those left from the engine's move
        page.wait_for_function("document.getElementById('engine-status').dataset.status === 'analysing' && "
                               "lines.length >= 1 && lines[0].depth >= 5 && lines[0].pv.length >= 1",
                               timeout=WAIT_MS)
    finally:
        context.close()


def test_the_socket_refuses_bad_requests_and_keeps_the_game(server):
    """What a page cannot send by its controls, sent straight to the WebSocket: each gets an error message,
    and the game and the connection go on."""
    import base64
    import json

    from websockets.sync.client import connect

    with connect(server.replace("http://", "ws://") + "ws", max_size=None) as socket:
        def ask(message) -> dict:
            socket.send(message if isinstance(message, str) else json.dumps(message))
            while True:
                answer = json.loads(socket.recv(timeout=WAIT_MS / 1000))
                if answer["type"] in ("state", "error"):
                    return answer

        assert ask({"type": "hello", "mode": "free"})["type"] == "state"
        assert ask({"type": "move", "move": "h2e2"})["moves"][0]["iccs"] == "h2e2"
        for bad, words in [("{not json", "malformed"), ("[1, 2]", "malformed"), ({"type": "rm -rf /"}, "unknown"),
                           ({"type": "move", "move": "h2h9"}, "illegal"),
                           ({"type": "load_pgn", "data": "%%%"}, "did not arrive"),
                           ({"type": "load_pgn", "data": base64.b64encode(b"1. zz *").decode()}, "cannot read"),
                           ({"type": "choose", "index": 5}, "no game"),
                           ({"type": "load_pgn", "data": "A" * 3_000_000}, "too large")]:
            answer = ask(bad)
            assert answer["type"] == "error" and words in answer["message"], (bad, answer)
        for bad, words in [({"type": "settings", "movetime": 10**9}, "movetime must be from 50 to 60000"),
                           ({"type": "settings", "multipv": "x"}, "multipv must be a whole number"),
                           ({"type": "settings", "mode": "free", "engine": "/bin/sh"}, "unknown field 'engine'")]:
            answer = ask(bad)
            assert answer["type"] == "error" and words in answer["message"], (bad, answer)
        state = ask({"type": "settings", "mode": "free", "movetime": 60_000, "level": 0})
        assert state["settings"]["movetime"] == 60_000 and state["settings"]["level"] == 0
        assert state["settings"]["multipv"] == 3                   # refused above: unchanged
        assert "engine" not in state["settings"]
        assert [m["iccs"] for m in state["moves"]] == ["h2e2"]


def test_the_endgame_tables_value_is_shown_in_the_pages_language(page):
    """A KNKA position: the analysis panel shows the table's value and best moves (the server's `tablebase`
    answer), in Chinese then in English, for the game's position while playing, an earlier one played through,
    and one clicked in a review; a position outside the tables shows none."""
    from engine.tablebase import open_tablebase
    from engine.tablebase.describe import tb_text

    knka = "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1"                 # Red mates in 19 moves
    line = page.locator("#tb-line")
    page.fill("#paste", knka)
    page.click("#new-from-fen")
    wait_state(page, f"state.start_fen === '{knka}'")
    page.wait_for_selector("#tablebase:not([hidden])", timeout=WAIT_MS)
    assert line.inner_text() == "TB: 红胜，19步杀"
    moves = page.locator("#tb-moves .tb-move")
    assert moves.count() == 3 and "马九进八" in moves.all_inner_texts()[1]
    assert all("红胜，19步杀" in text for text in moves.all_inner_texts())
    page.click("#lang")
    assert line.inner_text() == "TB: red wins, mate in 19"
    assert all("red wins, mate in 19" in text for text in moves.all_inner_texts())
    page.select_option("#notation", "iccs")
    assert moves.first.inner_text().startswith("d0d1")
    # playing against the engine: the position after its reply
    page.select_option("#mode", "play")
    wait_state(page, "state.settings.mode === 'play'")
    click_move(page, "a0b2")
    wait_state(page, "state.moves.length === 2")
    position = Position(page.evaluate("state.fen"))
    expected = tb_text(open_tablebase().probe(position), position.turn)
    page.wait_for_function("text => document.getElementById('tb-line').textContent === text", arg=expected,
                           timeout=WAIT_MS)
    # an earlier position, played through
    page.click("#nav-first")
    page.wait_for_function("document.getElementById('tb-line').textContent === 'TB: red wins, mate in 19'",
                           timeout=WAIT_MS)
    page.click("#lang")
    page.wait_for_function("document.getElementById('tb-line').textContent === 'TB: 红胜，19步杀'", timeout=WAIT_MS)
    # a position clicked in the review: after 马九进八, Black to move is mated in 18 of Red's moves
    page.select_option("#mode", "free")
    page.click("#nav-last")
    page.click("#review-start")
    page.wait_for_function("review && review.summary", timeout=WAIT_MS)
    page.locator('#graph .graph-point[data-ply="1"]').click()
    page.wait_for_function("document.getElementById('tb-line').textContent === 'TB: 红胜，18步杀'", timeout=WAIT_MS)
    # outside the tables: nothing
    page.click("#new")
    wait_state(page, "state.moves.length === 0 && state.start_fen.startsWith('rnbakabnr')")
    page.wait_for_selector("#tablebase", state="hidden", timeout=WAIT_MS)


def test_the_page_works_without_the_tablebase_answer(page):
    """The page asks the server for the table's value of each position it shows; when no answer comes (a server
    that does not know the request), it shows none and goes on."""
    page.evaluate("""() => { const real = receive; window.receive = m => { if (m.type !== 'tablebase') real(m); }; }""")
    page.evaluate("""() => { socket.onmessage = event => receive(JSON.parse(event.data)); }""")
    page.fill("#paste", "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1")
    page.click("#new-from-fen")
    wait_state(page, "state.start_fen.startsWith('9/9/3ak4')")
    click_move(page, "a0b2")
    assert page.locator("#tablebase").is_hidden()

"""An engine that hangs, not only one that crashes, is detected and replaced, and the tab goes on: the fake
engine tests/fake_engines/hanger.py answers its first `go` and never its second (it reads nothing more, so
it ignores `stop` and `quit` and must be killed), run by `jiangjun web --engine`.

* It hangs while the engine is to move: the search's deadline (the time asked and the client's grace)
  passes, the page is told, and the next search starts a new engine, which plays.
* It hangs while analysing and the person moves on: the stopped search does not answer within STOP_WAIT
  (engine.web.seat), so the seat kills the process and the search ends at once; the page is told, the tab's
  state comes, and the new position's analysis runs on a new engine.

Only that the answers come is asserted, within a hang guard, never how fast."""
from __future__ import annotations

import asyncio
import sys

import pytest

from engine import Position
from support import FAKES
from support.web import SocketTab, serve, socket_url

pytestmark = pytest.mark.slow

pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the [web] extra) is not installed")
pytest.importorskip("websockets.asyncio.client", reason="websockets >= 13 (the [web] extra) is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    hanger = f"{sys.executable} {FAKES / 'hanger.py'}"
    yield from serve(tmp_path_factory.mktemp("web-hang"), "--engine", hanger, "proto=uci")


async def opened(address: str, **settings) -> SocketTab:
    from websockets.asyncio.client import connect

    tab = SocketTab(await connect(address, max_size=None))
    assert (await tab.ask({"type": "hello", **settings}))["type"] == "state"
    return tab


async def until_status(tab: SocketTab, status: str) -> None:
    while (await tab.next(("status",)))["status"] != status:
        pass


async def hangs_while_moving(address: str) -> tuple:
    tab = await opened(address, mode="play", engine_color="black", movetime=50)
    try:
        await tab.ask({"type": "move", "move": "h2e2"})
        first = await tab.next()                        # its first go: a move
        position = Position()
        for move in first["moves"]:
            position.push(move["iccs"])
        await tab.ask({"type": "move", "move": position.legal_moves()[0]})
        failure = await tab.next(("error",))            # its second: nothing, until the deadline
        replayed = await tab.ask({"type": "engine_move"}, ("state",))      # the state, then a new engine's move
        after = await tab.next(("state",))
        return first, failure, replayed, after
    finally:
        await tab.socket.close()


async def hangs_while_analysing(address: str) -> tuple:
    tab = await opened(address, mode="analyse", analysis_ms=60_000, movetime=50)
    try:
        await until_status(tab, "idle")                 # its first go: answered at once
        await tab.ask({"type": "move", "move": "h2e2"})
        await until_status(tab, "analysing")            # its second: never answered
        moved = await tab.ask({"type": "move", "move": "h9g7"}, ("error",))   # stopped, no answer: replaced
        state = await tab.next(("state",))
        await until_status(tab, "idle")                 # the new engine analyses the new position
        return moved, state
    finally:
        await tab.socket.close()


def test_an_engine_that_hangs_on_its_move_is_replaced(server):
    first, failure, replayed, after = asyncio.run(hangs_while_moving(socket_url(server)))
    assert len(first["moves"]) == 2
    assert "engine failed" in failure["message"] and "new one" in failure["message"]
    assert len(replayed["moves"]) == 3 and len(after["moves"]) == 4


def test_an_engine_that_hangs_when_stopped_is_left_behind(server):
    moved, state = asyncio.run(hangs_while_analysing(socket_url(server)))
    assert "did not stop" in moved["message"] and "new one" in moved["message"]
    assert [m["iccs"] for m in state["moves"]] == ["h2e2", "h9g7"]

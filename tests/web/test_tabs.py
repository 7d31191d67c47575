"""`jiangjun web --max-tabs N` with N tabs analysing at once: each still answers a request that leaves its
analysis running and one that changes its game (which stops the analysis and starts the next), and the tab
beyond the cap is refused. Only that an answer comes is asserted, within a hang guard (support.web), never
how fast: the machine may be loaded."""
from __future__ import annotations

import asyncio

import pytest

from support.web import SocketTab, serve, socket_url

pytestmark = pytest.mark.slow

pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the [web] extra) is not installed")
pytest.importorskip("websockets.asyncio.client", reason="websockets >= 13 (the [web] extra) is not installed")

#: More than the 6 workers that asyncio's default pool has on a machine of 2 cores (every engine call has a
#: thread of its own), and more than the default cap of 4.
MAX_TABS = 8
#: Each tab analyses for this long (ms): longer than the test, so that all analyse together throughout.
ANALYSIS_MS = 60_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("web-tabs"), "--max-tabs", str(MAX_TABS))


async def analysing_tab(connect, address: str) -> SocketTab:
    """A tab analysing the starting position, once its engine has sent lines."""
    tab = SocketTab(await connect(address, max_size=None))
    await tab.ask({"type": "hello", "mode": "analyse", "analysis_ms": ANALYSIS_MS, "multipv": 2, "movetime": 200})
    await tab.next(("lines",))
    return tab


async def every_tab_answers(address: str) -> list:
    from websockets.asyncio.client import connect

    tabs = await asyncio.gather(*(analysing_tab(connect, address) for _ in range(MAX_TABS)))
    try:
        # 1. a request that leaves the analysis running: answered by each tab while all analyse
        files = await asyncio.gather(*(tab.ask({"type": "save_pgn", "notation": "iccs"}, ("file",)) for tab in tabs))
        # 2. a tab beyond the cap is refused, the others go on
        extra = SocketTab(await connect(address, max_size=None))
        refusal = await extra.next(("error",))
        await extra.socket.close()
        # 3. a move, which stops each analysis: the state comes, and the next analysis sends its lines
        states = await asyncio.gather(*(tab.ask({"type": "move", "move": "h2e2"}) for tab in tabs))
        fresh = await asyncio.gather(*(fresh_lines(tab) for tab in tabs))
        return [files, refusal, states, fresh]
    finally:
        await asyncio.gather(*(tab.socket.close() for tab in tabs))


async def fresh_lines(tab: SocketTab) -> dict:
    """The first lines of the analysis of the position after h2e2 (Black to move: a PV starting with a
    Black move)."""
    while True:
        lines = await tab.next(("lines",))
        if lines["lines"] and lines["lines"][0]["pv"][0][1] in "56789":
            return lines


def test_max_tabs_analysing_at_once_each_answers(server):
    files, refusal, states, fresh = asyncio.run(every_tab_answers(socket_url(server)))
    assert all(answer["type"] == "file" and "*" in answer["text"] for answer in files)
    assert refusal.get("fatal") and f"at most {MAX_TABS}" in refusal["message"]
    assert all(state["type"] == "state" and [m["iccs"] for m in state["moves"]] == ["h2e2"] for state in states)
    assert len(fresh) == MAX_TABS

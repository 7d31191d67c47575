"""`jiangjun web` (engine/web/cli.py) as the README has a user run it: `pip install '.[web]' && jiangjun web`,
in the checkout's root. The installed console script serves the page, and the engine it hosts plays a move
through a tab's WebSocket (issue 43: the board used to start its engine as `python -m engine`, which in
the checkout's root imported the uncompiled source tree there, and the page showed 引擎出错).

In CI (.ci/run: `pip install '.[test,cluster,web]'`) the checkout has no compiled extension, so the root's
`engine/` cannot play: a move answered proves that nothing of the board's engine comes from the working
directory. A checkout built in place would play either way, so the second test makes the same point on any
machine: its working directory holds a package named `engine` that cannot be imported.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Optional

import pytest

from support import ROOT
from support.web import SocketTab, serve, socket_url

pytestmark = pytest.mark.slow

pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the [web] extra) is not installed")
pytest.importorskip("websockets.asyncio.client", reason="websockets >= 13 (the [web] extra) is not installed")

#: `jiangjun web` served while the with-block lasts (support.web.serve, which a fixture yields from).
served = contextlib.contextmanager(serve)
#: What the decoy package says when it is imported: the server must never do so.
DECOY = "the engine package of the working directory was imported"


def console_script() -> Optional[str]:
    """The `jiangjun` console script that pip installed for this interpreter (its scripts folder, or the
    user's), else the one on PATH; None when the package is not installed."""
    for folder in (sysconfig.get_path("scripts"), sysconfig.get_path("scripts", f"{os.name}_user")):
        script = Path(folder) / ("jiangjun.exe" if os.name == "nt" else "jiangjun")
        if script.is_file() and os.access(script, os.X_OK):
            return str(script)
    return shutil.which("jiangjun")


def jiangjun_command() -> list[str]:
    """How the README runs jiangjun: its console script. Without one (a checkout built in place and not
    installed, where `python -m engine` run in the root is the way), `python -m engine`."""
    script = console_script()
    return [script] if script is not None else [sys.executable, "-m", "engine"]


async def play_a_move(address: str) -> dict:
    """Open a tab playing Black's engine, play 炮二平五, and return the state after the engine's answer."""
    from websockets.asyncio.client import connect

    tab = SocketTab(await connect(address, max_size=None))
    try:
        hello = await tab.ask({"type": "hello", "mode": "play", "engine_color": "black", "movetime": 50})
        assert hello["type"] == "state", hello
        moved = await tab.ask({"type": "move", "move": "h2e2"})
        assert moved["type"] == "state" and len(moved["moves"]) == 1, moved
        answered = await tab.next()
        assert answered["type"] == "state", answered          # an error here: the engine could not play
        return answered
    finally:
        await tab.socket.close()


def assert_the_engine_answered(state: dict) -> None:
    assert [move["iccs"] for move in state["moves"]][:1] == ["h2e2"] and len(state["moves"]) == 2


def test_jiangjun_web_in_the_checkouts_root_plays_a_move():
    with served(ROOT, command=jiangjun_command()) as url:
        assert_the_engine_answered(asyncio.run(play_a_move(socket_url(url))))


def test_the_engine_does_not_come_from_the_working_directory(tmp_path):
    script = console_script()
    if script is None:
        pytest.skip("jiangjun's console script is not installed (pip install '.[web]')")
    decoy = tmp_path / "engine"
    decoy.mkdir()
    (decoy / "__init__.py").write_text(f"raise ImportError({DECOY!r})\n", encoding="utf-8")
    (decoy / "__main__.py").write_text(f"raise SystemExit({DECOY!r})\n", encoding="utf-8")
    with served(tmp_path, command=[script]) as url:
        assert_the_engine_answered(asyncio.run(play_a_move(socket_url(url))))

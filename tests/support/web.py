"""What the tests of the browser board share: `jiangjun web` started as a user starts it, on 127.0.0.1 and a
free port, the real Chromium (Debian's /usr/bin/chromium) that Playwright drives headless, and a tab's
WebSocket as a test speaks it (the `websockets` client, asyncio)."""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator, Optional, Sequence

import pytest

from . import engine_env

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: How long a test waits for the page or the server (ms): a guard against a hang, not a bound on speed.
WAIT_MS = 20_000
#: How long `jiangjun web` may take to print its address (seconds).
START_SECONDS = 30
#: Seconds any one answer on a socket may take: a guard against a hang, not a bound on speed.
HANG_GUARD = 60.0


def chromium_installed() -> bool:
    return os.access(CHROMIUM, os.X_OK)


def serve(workdir: Path, *options: str, command: Optional[Sequence[str]] = None) -> Iterator[str]:
    """Run `python -m engine web --port 0 --no-browser OPTIONS` in `workdir` (`command`: another way to run
    `jiangjun`, such as its console script); yields the page's address (http://127.0.0.1:PORT/) and ends the
    server after. For a fixture: ``yield from serve(...)``."""
    jiangjun = list(command) if command is not None else [sys.executable, "-m", "engine"]
    proc = subprocess.Popen([*jiangjun, "web", "--port", "0", "--no-browser", *options],
                            cwd=workdir, env=engine_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        url = None
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            found = re.search(r"serving (http://\S+)", line)
            if found:
                url = found.group(1)
                break
        if url is None:
            proc.kill()
            pytest.fail(f"jiangjun web did not start: {proc.stdout.read()}")
        _drain(proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _drain(proc: subprocess.Popen) -> None:
    """Read the server's output to its end, so that what it logs never fills the pipe and stops it."""
    def read() -> None:
        for _ in proc.stdout:
            pass
    threading.Thread(target=read, daemon=True).start()


def socket_url(url: str) -> str:
    """The WebSocket of the page at `url`."""
    return url.replace("http://", "ws://") + "ws"


class SocketTab:
    """A tab as a test speaks it: one WebSocket to the server, with a task that reads every message into a
    queue. Open it inside a running event loop (``SocketTab(await connect(url, max_size=None))``)."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.answers: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.socket:
                await self.answers.put(json.loads(text))
        except ConnectionClosed:
            pass
        await self.answers.put({"type": "closed", "code": self.socket.close_code})

    async def next(self, types: tuple = ("state", "error", "file", "config")) -> dict:
        """The next answer of one of `types` (the others, such as status and analysis lines, are passed over).
        Raises ConnectionError when the server closed the connection, TimeoutError after HANG_GUARD seconds."""
        while True:
            answer = await asyncio.wait_for(self.answers.get(), HANG_GUARD)
            if answer["type"] == "closed":
                raise ConnectionError(f"the server closed the connection (code {answer['code']})")
            if answer["type"] in types:
                return answer

    async def ask(self, request: dict, types: tuple = ("state", "error")) -> dict:
        await self.socket.send(json.dumps(request))
        return await self.next(types)

"""What the tests of the browser board share: `jiangjun web` started as a user starts it, on 127.0.0.1 and a
free port, and the real Chromium (Debian's /usr/bin/chromium) that Playwright drives headless."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from . import engine_env

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: How long a test waits for the page or the server (ms): a guard against a hang, not a bound on speed.
WAIT_MS = 20_000
#: How long `jiangjun web` may take to print its address (seconds).
START_SECONDS = 30


def chromium_installed() -> bool:
    return os.access(CHROMIUM, os.X_OK)


def serve(workdir: Path, *options: str) -> Iterator[str]:
    """Run `python -m engine web --port 0 --no-browser OPTIONS` in `workdir`; yields the page's address
    (http://127.0.0.1:PORT/) and ends the server after. For a fixture: ``yield from serve(...)``."""
    proc = subprocess.Popen([sys.executable, "-m", "engine", "web", "--port", "0", "--no-browser", *options],
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

"""The suite's hooks and fixtures. What test modules import lives in tests/support (put on sys.path here).

Markers (pyproject.toml):
* ``slow``: the test starts a process, a browser or a cluster. ``pytest -m "not slow"`` is the quick loop
  of a developer; ``pytest`` (CI) runs them too. The mark is checked, not trusted: a test without it that
  starts a process fails (``_refuse_processes``). Threads, the in-process engine among them, are allowed.
* ``deep``: deep perft counts and the whole CCPD archive, minutes each. Run only when asked for, with
  ``--deep`` (or ``-m deep``); neither ``pytest`` nor CI runs them.
"""
import _posixsubprocess
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support import engine_on_pythonpath  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--deep", action="store_true", help="also run the tests marked deep (minutes each)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--deep") or "deep" in (config.getoption("markexpr") or ""):
        return
    kept, deselected = [], []
    for item in items:
        (deselected if item.get_closest_marker("deep") else kept).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


# --- The slow mark is checked --------------------------------------------------------------------------
class UnmarkedProcess(AssertionError):
    """A test not marked slow started a process."""


_ATTEMPTS = pytest.StashKey[list]()
#: Sent to the main thread when another thread is refused a process, so that the test fails at once
#: instead of waiting for an answer that will never come.
_REFUSED_IN_A_THREAD = signal.SIGUSR1


def _refuser(item: pytest.Item, what: str):
    def refuse(*args, **kwargs):
        if what == "subprocess.Popen" and len(args) > 1:
            what_started = f"subprocess.Popen({str(args[1])[:120]})"
        else:
            what_started = what
        message = (f"{item.nodeid} starts a process ({what_started}) but is not marked slow: add "
                   f"@pytest.mark.slow, or pytestmark = pytest.mark.slow for a module of such tests")
        item.stash[_ATTEMPTS].append(message)
        if threading.current_thread() is not threading.main_thread():
            signal.pthread_kill(threading.main_thread().ident, _REFUSED_IN_A_THREAD)
        raise UnmarkedProcess(message)
    return refuse


def _refuse_processes(item: pytest.Item, patch: pytest.MonkeyPatch) -> None:
    """Every way to start a process raises UnmarkedProcess: subprocess (and asyncio's subprocesses and
    Playwright's driver, built on it), multiprocessing (Dask's workers), fork, posix_spawn, os.system."""
    patch.setattr(subprocess.Popen, "__init__", _refuser(item, "subprocess.Popen"))
    patch.setattr(_posixsubprocess, "fork_exec", _refuser(item, "fork_exec"))
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system"):
        if hasattr(os, name):
            patch.setattr(os, name, _refuser(item, f"os.{name}"))


def _raise_refusal(item: pytest.Item):
    def handler(signum, frame):
        raise UnmarkedProcess(item.stash[_ATTEMPTS][-1])
    return handler


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Setup, call and teardown of a test not marked slow run with processes refused."""
    item.stash[_ATTEMPTS] = []
    if item.get_closest_marker("slow"):
        yield
        return
    previous = signal.signal(_REFUSED_IN_A_THREAD, _raise_refusal(item))
    try:
        with pytest.MonkeyPatch.context() as patch:
            _refuse_processes(item, patch)
            yield
    finally:
        signal.signal(_REFUSED_IN_A_THREAD, previous)


def _fail_if_process_started(item: pytest.Item, report) -> None:
    """A refused process fails the test even when the test caught the UnmarkedProcess."""
    attempts = item.stash.get(_ATTEMPTS, [])
    if attempts and not report.failed:
        report.outcome = "failed"
        report.longrepr = attempts[0]
    attempts.clear()


@pytest.fixture
def sjaak_home(tmp_path_factory, monkeypatch):
    """A HOME of its own for Sjaak II, which writes the options it was given to ~/.config/sjaakii.conf when it
    exits and reads them back at its next start (a test that sets its Level would change every later game)."""
    home = tmp_path_factory.mktemp("sjaak-home")
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def engine_pythonpath():
    """engine_on_pythonpath for the whole of a test."""
    with engine_on_pythonpath():
        yield


@pytest.fixture
def outside(tmp_path_factory):
    """A working directory outside the checkout, for `python -m engine` (support.engine_env)."""
    return str(tmp_path_factory.mktemp("engine-run"))


# --- CI cannot pass by skipping -------------------------------------------------------------------------
# Some tests need programs or packages from outside the project (Fairy-Stockfish, MaxQi, Sjaak II, pyffish,
# cchess, XBoard and Xvfb, Dask, numpy/scipy, Chromium, Playwright, Starlette/uvicorn) and skip without
# them, so that a developer's partial machine can still run the rest. CI installs them all (.ci/run) and
# sets JIANGJUN_REQUIRE_TOOLS: there, a skip for want of one of them is a failure.
REQUIRE_TOOLS = os.environ.get("JIANGJUN_REQUIRE_TOOLS", "") not in ("", "0")
_MISSING_TOOL = re.compile(r"fairy.?stockfish|pyffish|xboard|xvfb|maxqi|fairymax|sjaak|distributed|dask|numpy|"
                           r"scipy|hypothesis|cchess|playwright|chromium|starlette|uvicorn", re.IGNORECASE)


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _fail_if_tool_missing(report) -> None:
    if REQUIRE_TOOLS and report.skipped and _MISSING_TOOL.search(_skip_reason(report)):
        report.outcome = "failed"
        report.longrepr = (f"skipped for want of a required tool, which JIANGJUN_REQUIRE_TOOLS forbids: "
                           f"{_skip_reason(report)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_if_process_started(item, outcome.get_result())
    _fail_if_tool_missing(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _fail_if_tool_missing(outcome.get_result())

import contextlib
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def read_table(name: str) -> list[list[str]]:
    """Rows of a `;`-separated data file in tests/data, comments and blank lines skipped."""
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append([field.strip() for field in line.split(";")])
    return rows


ROOT = Path(__file__).resolve().parents[1]


def engine_env() -> dict:
    """Environment for a subprocess that imports `engine`: this checkout when its extension is built in
    place (development), else the installed package (CI installs it; the checkout then has no compiled
    engine._core). Run such subprocesses outside the checkout, so that `python -m engine` does not pick
    up the uncompiled source tree from the working directory."""
    import os

    env = dict(os.environ)
    if any((ROOT / "engine").glob("_core*.so")):
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture
def sjaak_home(tmp_path_factory, monkeypatch):
    """A HOME of its own for Sjaak II, which writes the options it was given to ~/.config/sjaakii.conf when it
    exits and reads them back at its next start (a test that sets its Level would change every later game)."""
    home = tmp_path_factory.mktemp("sjaak-home")
    monkeypatch.setenv("HOME", str(home))
    return home


# --- Other engines' programs (Debian packages) and running `python -m engine` ------------------------
MAXQI, SJAAK, FSF = "/usr/games/maxqi", "/usr/games/sjaakii", "/usr/games/fairy-stockfish"


def installed(path: str) -> bool:
    """Whether `path` is an executable file."""
    import os

    return os.path.isfile(path) and os.access(path, os.X_OK)


def _needs(path: str, what: str):
    import pytest

    return pytest.mark.skipif(not installed(path), reason=f"{what} not installed at {path}")


needs_maxqi = _needs(MAXQI, "MaxQi (fairymax)")
needs_sjaak = _needs(SJAAK, "Sjaak II (sjaakii)")
needs_fsf = _needs(FSF, "Fairy-Stockfish")

# --- CI cannot pass by skipping -------------------------------------------------------------------------
# Some tests need programs or packages from outside the project (Fairy-Stockfish, MaxQi, Sjaak II, pyffish,
# cchess, XBoard and Xvfb, Dask, numpy/scipy, Chromium, Playwright, Starlette/uvicorn) and skip without
# them, so that a developer's partial machine can still run the rest. CI installs them all (.ci/run) and
# sets JIANGJUN_REQUIRE_TOOLS: there, a skip for want of one
# of them is a failure.
import os
import re

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
    _fail_if_tool_missing(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _fail_if_tool_missing(outcome.get_result())


@contextlib.contextmanager
def engine_on_pythonpath():
    """PYTHONPATH, while it lasts, for the subprocesses that import `engine` (fakes, `python -m engine`):
    this checkout when built in place, else the installed package (engine_env)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", engine_env().get("PYTHONPATH", ""))
        yield


@pytest.fixture
def engine_pythonpath():
    """engine_on_pythonpath for the whole of a test."""
    with engine_on_pythonpath():
        yield


@pytest.fixture
def outside(tmp_path_factory):
    """A working directory outside the checkout, for `python -m engine` (engine_env)."""
    return str(tmp_path_factory.mktemp("engine-run"))

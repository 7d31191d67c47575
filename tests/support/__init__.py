"""What the tests share: the checkout's paths, the environment of an `engine` subprocess, the other
engines' programs and the markers that skip without them, and the data files' reader.

The test modules import it as ``support`` (tests/conftest.py puts tests/ on sys.path); the driver of an
engine process is :mod:`support.driver`, the writers of sample game files :mod:`support.samplewriters`,
the headless XBoard runner :mod:`support.xboard_run`.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
DATA = TESTS / "data"
FAKES = TESTS / "fake_engines"
TOOLS = ROOT / "tools"
#: shared/ beside the checkout (JIANGJUN_SHARED overrides): the perft positions and the CCPD archive.
SHARED = Path(os.environ.get("JIANGJUN_SHARED") or ROOT.parent / "shared")


def read_table(name: str) -> list[list[str]]:
    """Rows of a `;`-separated data file in tests/data, comments and blank lines skipped."""
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append([field.strip() for field in line.split(";")])
    return rows


def built_in_place() -> bool:
    """Whether this checkout has a compiled extension (a developer's build_ext --inplace)."""
    return any((ROOT / "engine").glob("_core*.so")) or any((ROOT / "engine").glob("_core*.pyd"))


def engine_env() -> dict:
    """Environment for a subprocess that imports `engine`: this checkout when its extension is built in
    place (development), else the installed package (CI installs it; the checkout then has no compiled
    engine._core). Run such subprocesses outside the checkout, so that `python -m engine` does not pick
    up the uncompiled source tree from the working directory."""
    env = dict(os.environ)
    if built_in_place():
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@contextlib.contextmanager
def engine_on_pythonpath():
    """PYTHONPATH, while it lasts, for the subprocesses that import `engine` (fakes, `python -m engine`):
    this checkout when built in place, else the installed package (engine_env)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", engine_env().get("PYTHONPATH", ""))
        yield


# --- Other engines' programs (Debian packages) ---------------------------------------------------------
MAXQI, SJAAK, FSF = "/usr/games/maxqi", "/usr/games/sjaakii", "/usr/games/fairy-stockfish"


def installed(path: str) -> bool:
    """Whether `path` is an executable file."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _needs(path: str, what: str):
    return pytest.mark.skipif(not installed(path), reason=f"{what} not installed at {path}")


needs_maxqi = _needs(MAXQI, "MaxQi (fairymax)")
needs_sjaak = _needs(SJAAK, "Sjaak II (sjaakii)")
needs_fsf = _needs(FSF, "Fairy-Stockfish")

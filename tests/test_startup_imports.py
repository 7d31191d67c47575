"""What `python -m engine` imports to answer each dialect's handshake (issue 21, point 9): only the chosen
dialect, the option table and what it names; not the engine facade, the kernel's search, the rules
library, the books, the bench or the tools, nor the other dialects. A test of which modules load, read
from `python -X importtime`; the time itself is measured by benchmarks/startup_time.py, not asserted.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile

import pytest

from support import engine_env

pytestmark = pytest.mark.slow

#: Loaded by no handshake: the facade (and with it the search), the rules library, the books (their
#: builder too), the network reader, the bench and the tools' parsers.
NEVER = ("engine.server.engine", "engine.position", "engine.fen", "engine.book", "engine.book.build",
         "engine.netfile", "engine.server.bench", "engine.server.timeman", "engine.match", "engine.analyze",
         "engine.client", "argparse")
DIALECTS = {"uci": "engine.server.uci", "ucci": "engine.server.ucci", "cecp": "engine.server.cecp"}
HANDSHAKES = {"uci": "uci\n", "ucci": "ucci\n", "cecp": "xboard\nprotover 2\n"}


def imported_modules(lines: str) -> tuple[list[str], str]:
    """The modules `python -m engine` imports while it reads `lines` (then end of input), and its output.
    Run outside the checkout, which has no compiled kernel in CI (conftest.engine_env)."""
    with tempfile.TemporaryDirectory() as workdir:
        run = subprocess.run([sys.executable, "-X", "importtime", "-m", "engine"], cwd=workdir, input=lines,
                             capture_output=True, text=True, timeout=60, env=engine_env())
    assert run.returncode == 0, run.stderr
    modules = [line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
               if line.startswith("import time:") and "|" in line]
    return modules, run.stdout


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_handshake_imports_only_its_dialect(dialect):
    modules, output = imported_modules(HANDSHAKES[dialect])
    assert output.rstrip().endswith(("uciok", "ucciok", "feature done=1")), output
    assert DIALECTS[dialect] in modules
    others = [module for name, module in DIALECTS.items() if name != dialect]
    unexpected = [module for module in modules
                  if module in NEVER + tuple(others) or module.startswith(tuple(f"{prefix}." for prefix in NEVER))]
    assert unexpected == [], f"{dialect} handshake imported {unexpected}"
    if dialect != "cecp":
        assert "engine.server.cecp_codec" not in modules


def test_the_facade_is_loaded_by_the_first_command_that_needs_it():
    modules, output = imported_modules("uci\nisready\n")
    assert output.rstrip().endswith("readyok")
    assert "engine.server.engine" in modules and "engine.server.bench" not in modules

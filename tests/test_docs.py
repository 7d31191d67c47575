"""The docs' commands run on any checkout: no path of one machine in README.md, CONTRIBUTING.md, docs/*.md
or a README of benchmarks/.

The rule, per path found in the text:

* ``/work/`` anywhere is refused: it is where this project's own machine keeps its checkouts.
* An absolute path under a user's or a site's own tree (``/home``, ``/root``, ``/Users``, ``/mnt``,
  ``/media``, ``/srv``, ``/opt``, ``/data``, or a Windows drive) is refused: it exists on one machine only.
  Write a checkout-relative path instead (``benchmarks/openings-ccpd.txt``, ``../shared/anchors/build.sh``),
  a variable set by a stated recipe (``$PIKAFISH``, ``$JIANGJUN_7d253e9``: docs/strength.md, "The
  versions"), or ``git worktree`` instructions.
* Allowed: ``/tmp`` as a scratch directory (``dir=/tmp``), the paths a distribution package installs
  (``/usr/games/fairy-stockfish``, ``/usr/bin/chromium``), system files (``/proc/cpuinfo``, ``/dev/null``),
  ``~/`` (each user's own: a program's config file, a cache), and URLs (a path after a host name is not a
  path of this machine).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from support import ROOT

MACHINE_ROOTS = ("home", "root", "Users", "mnt", "media", "srv", "opt", "data")
# A path starts where no word, dot, colon, slash or dash precedes it: so not inside a URL or a relative path.
MACHINE_PATH = re.compile(r"/work/|(?<![\w.:/-])/(?:%s)/[^\s`'\")]*|\b[A-Z]:\\[^\s`]*" % "|".join(MACHINE_ROOTS))


def documents() -> list[Path]:
    docs = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
    docs += sorted((ROOT / "benchmarks").rglob("README*"))
    return [path for path in docs if path.is_file()]


def machine_paths(text: str) -> list[tuple[int, str]]:
    """(line number, path) of each path of one machine in text."""
    return [(number, match.group(0)) for number, line in enumerate(text.splitlines(), 1)
            for match in MACHINE_PATH.finditer(line)]


@pytest.mark.parametrize("path", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_path_of_one_machine(path):
    found = machine_paths(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{path.relative_to(ROOT)}:{number}: {text}" for number, text in found)


def test_the_documents_are_found():
    names = {path.name for path in documents()}
    assert {"README.md", "CONTRIBUTING.md", "strength.md", "nnue.md"} <= names


@pytest.mark.parametrize("text, found", [
    ('"cmd=env PYTHONPATH=/work/v7d2 python -m engine"', ["/work/"]),
    ("-openings file=/work/main/benchmarks/openings-ccpd.txt", ["/work/"]),
    ("cmd=/home/ann/pikafish/src/pikafish", ["/home/ann/pikafish/src/pikafish"]),
    ("`/root/.cache/xq-anchors/eleeye/eleeye/ELEEYE.EXE`", ["/root/.cache/xq-anchors/eleeye/eleeye/ELEEYE.EXE"]),
    (r"cmd=C:\engines\pikafish.exe", [r"C:\engines\pikafish.exe"]),
    ('"cmd=env PYTHONPATH=$JIANGJUN_7d253e9 python -m engine" dir=/tmp', []),
    ("-engine cmd=/usr/games/fairy-stockfish -openings file=benchmarks/openings-ccpd.txt", []),
    ("its options to `~/.config/sjaakii.conf`; grep avx2 /proc/cpuinfo", []),
    ("https://example.org/home/page and ../shared/anchors/build.sh and docs/opt/x", []),
])
def test_the_rule(text, found):
    assert [path for _, path in machine_paths(text)] == found

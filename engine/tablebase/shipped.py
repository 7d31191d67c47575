"""The tables shipped in the package: every ending of one attacker (chariot, horse, cannon or soldier)
against any defence, with any advisors and elephants on the attacking side too, whose table has at most
SHIPPED_MAX_ENTRIES entries per side; with them, the tables they depend on (smaller ones of the same
kind). About 23 MB in all, within the 30 MB issue 44 allows, so that `pip install` gives them and the
engine, `jiangjun analyze` and the browser board use them with no option (the engine reads those a
position needs: engine.server.tablebases).

The endings master games reach keep the attacking side's advisors and elephants (KCAKB, KNABKB,
KCAKAB: docs/tablebases.md, "Which endings games reach"), hence the attacking side's defence here. They
are rebuilt, after a change of the generator or the format, with

    jiangjun tb build --shipped -o engine/tablebase/data
"""
from __future__ import annotations

from pathlib import Path

from .catalog import the_set
from .fileformat import SUFFIX

#: The largest table shipped (entries per side): the one-attacker tables up to it take about 23 MB.
SHIPPED_MAX_ENTRIES = 2_000_000

#: The folder of the shipped tables, inside the installed package.
SHIPPED_DIRECTORY = Path(__file__).with_name("data")


def shipped_names() -> list[str]:
    """The canonical names of every shipped table, smaller first (each after the tables it depends on)."""
    chosen = [entry for entry in the_set()
              if entry.material.red.attackers + entry.material.black.attackers == 1
              and entry.entries <= SHIPPED_MAX_ENTRIES]
    return [entry.name for entry in sorted(chosen, key=lambda entry: (entry.material.pieces, entry.entries,
                                                                         entry.name))]


def shipped_files() -> list[Path]:
    """The shipped table files present in the package."""
    return sorted(SHIPPED_DIRECTORY.glob(f"*{SUFFIX}"))

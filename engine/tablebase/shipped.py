"""The tables shipped in the package: every ending of one attacker (chariot, horse, cannon or soldier)
against any defence, with the sub-tables they need. About 1.3 MB in all, so that `pip install` gives them
and the engine, `jiangjun analyze` and the browser board use them with no option.

They are rebuilt, after a change of the generator or the format, with

    jiangjun tb build KRKAABB KNKAABB KCKAABB KPKAABB -o engine/tablebase/data
"""
from __future__ import annotations

from pathlib import Path

from .fileformat import SUFFIX
from .material import Material, dependencies

#: The endings whose tables (and sub-tables) are shipped.
SHIPPED_ENDINGS = ("KRKAABB", "KNKAABB", "KCKAABB", "KPKAABB")

#: The folder of the shipped tables, inside the installed package.
SHIPPED_DIRECTORY = Path(__file__).with_name("data")


def shipped_names() -> list[str]:
    """The canonical names of every shipped table, in build order."""
    names: list[str] = []
    for ending in SHIPPED_ENDINGS:
        for material in dependencies(Material.parse(ending)):
            if material.name not in names:
                names.append(material.name)
    return names


def shipped_files() -> list[Path]:
    """The shipped table files present in the package."""
    return sorted(SHIPPED_DIRECTORY.glob(f"*{SUFFIX}"))

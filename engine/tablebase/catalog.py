"""The set of tables `jiangjun tb build` builds when no ending is named (issue 44, item 3): every ending with
at most two attackers in all (chariots, horses, cannons, soldiers, on either side), with any advisors
(0-2) and elephants (0-2) on either side, whose build fits in MEMORY_BUDGET.

    >>> from engine.tablebase.catalog import the_set, left_out
    >>> len(the_set()), left_out()[0].why

An ending fits when build.peak_bytes (its own arrays, its sub-tables read from disk, the process) is within
the budget and every table it needs fits too. The entries are listed sub-tables first (fewer pieces
first), which is an order they can be built in.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from .build import index_size, peak_bytes
from .material import ADVISOR, ATTACKERS, ELEPHANT, KING, Material, Side, sub_tables

#: The memory one table's build may take: 2 GiB.
MEMORY_BUDGET = 2 * 2**30
#: The most attackers (chariots, horses, cannons, soldiers) of an ending of the set, both sides together.
MAX_ATTACKERS = 2
#: Advisors and elephants a side may have: 0, 1 or 2 of each.
DEFENDERS = range(3)


@dataclass(frozen=True)
class CatalogEntry:
    """One ending of the catalog: its size, its build's memory, and why it is left out of the set."""

    material: Material
    entries: int                   # per side to move
    peak_bytes: int                # build.peak_bytes
    sub_tables: tuple[str, ...]    # the tables its captures lead to
    why_left_out: str = ""         # empty when the ending is in the set

    @property
    def name(self) -> str:
        return self.material.name

    @property
    def in_set(self) -> bool:
        return not self.why_left_out


def candidates() -> list[Material]:
    """Every canonical material of one or two attackers and 0-2 advisors and elephants a side, fewer
    pieces first (so sub-tables come before the tables that need them), then by name."""
    kinds = [(side, ptype) for side in (0, 1) for ptype in ATTACKERS]
    found: set[Material] = set()
    for count in range(1, MAX_ATTACKERS + 1):
        for attack in itertools.combinations_with_replacement(kinds, count):
            for defence in itertools.product(DEFENDERS, repeat=4):
                found.add(_material(attack, defence).canonical()[0])
    return sorted(found, key=lambda m: (sum(m.red.counts) + sum(m.black.counts), m.name))


def _material(attack: tuple[tuple[int, int], ...], defence: tuple[int, ...]) -> Material:
    counts = [[0] * 7, [0] * 7]
    for side in (0, 1):
        counts[side][KING] = 1
        counts[side][ADVISOR], counts[side][ELEPHANT] = defence[2 * side], defence[2 * side + 1]
    for side, ptype in attack:
        counts[side][ptype] += 1
    return Material(Side(tuple(counts[0])), Side(tuple(counts[1])))


@functools.lru_cache(maxsize=1)
def catalog() -> tuple[CatalogEntry, ...]:
    """Every candidate, with why it is left out of the set (over the budget, or needing a table that is)."""
    entries: dict[Material, CatalogEntry] = {}
    for material in candidates():
        subs = sub_tables(material)
        peak = peak_bytes(material)
        why = ""
        if peak > MEMORY_BUDGET:
            why = f"needs {peak / 2**30:,.2f} GiB to build, over the {MEMORY_BUDGET / 2**30:g} GiB budget"
        else:
            missing = [sub.name for sub in subs if not entries[sub].in_set]
            if missing:
                why = f"needs {', '.join(missing)}, left out"
        entries[material] = CatalogEntry(material, index_size(material), peak,
                                         tuple(sub.name for sub in subs), why)
    return tuple(entries.values())


def the_set() -> list[CatalogEntry]:
    """The endings of the set, in an order they can be built in."""
    return [entry for entry in catalog() if entry.in_set]


def left_out() -> list[CatalogEntry]:
    """The candidates left out of the set, each with why."""
    return [entry for entry in catalog() if not entry.in_set]

"""A build plan: the tables to build and what each needs, a directed acyclic graph.

A table needs the tables its captures lead to (material.sub_tables). build.build_table reads those from
disk, so every table whose needs are on disk can be built at once, by another process or machine:

    >>> plan = BuildPlan.of_endings(["KRKAABB", "KNKA"])      # or BuildPlan.of_set()
    >>> plan.ready(done={"KRK"})                                # what can start now, most urgent first

The order of `plan.tables` is one a single process can follow (sub-tables first). The urgency of a table is
the length, in entries, of the longest chain of tables that waits for it (its own entries included): a
cluster starts the long chains first, so that its workers are not left idle at the end.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Optional

from .build import index_size, peak_bytes
from .material import Material, dependencies, sub_tables


@dataclass(frozen=True)
class PlannedTable:
    """One table of a plan."""

    material: Material
    entries: int                   # per side to move
    peak_bytes: int                # build.peak_bytes
    needs: tuple[str, ...]         # the names of the tables it reads while built

    @property
    def name(self) -> str:
        return self.material.name

    def as_json(self) -> dict:
        return {"name": self.name, "entries": self.entries, "peak_bytes": self.peak_bytes,
                "needs": list(self.needs)}


class BuildPlan:
    """Tables in an order they can be built in one after the other, each after every table it needs."""

    def __init__(self, materials: Iterable[Material]) -> None:
        self.tables: list[PlannedTable] = []
        self._by_name: dict[str, PlannedTable] = {}
        for material in materials:
            if material.name in self._by_name:
                continue
            table = PlannedTable(material, index_size(material), peak_bytes(material),
                                 tuple(sub.name for sub in sub_tables(material)))
            missing = [need for need in table.needs if need not in self._by_name]
            if missing:
                raise ValueError(f"{table.name} comes before {', '.join(missing)}, which it needs")
            self.tables.append(table)
            self._by_name[table.name] = table
        self.urgency = self._urgency()

    @classmethod
    def of_endings(cls, endings: Iterable[str]) -> "BuildPlan":
        """The tables of the endings (names or FENs) and every table they depend on."""
        return cls(material for ending in endings for material in dependencies(Material.parse(ending)))

    @classmethod
    def of_set(cls) -> "BuildPlan":
        """The whole set (engine.tablebase.catalog)."""
        from .catalog import the_set

        return cls(entry.material for entry in the_set())

    def __len__(self) -> int:
        return len(self.tables)

    def __iter__(self) -> Iterator[PlannedTable]:
        return iter(self.tables)

    def __getitem__(self, name: str) -> PlannedTable:
        return self._by_name[name]

    @property
    def total_entries(self) -> int:
        return sum(table.entries for table in self.tables)

    def ready(self, done: set[str], busy: Optional[set[str]] = None) -> list[PlannedTable]:
        """The tables not done nor busy whose needs are all done, most urgent first."""
        busy = busy or set()
        found = [table for table in self.tables if table.name not in done and table.name not in busy
                 and all(need in done for need in table.needs)]
        return sorted(found, key=lambda table: -self.urgency[table.name])

    def waiting_on(self, failed: set[str]) -> set[str]:
        """The tables that cannot be built because a table they depend on, directly or not, failed."""
        blocked: set[str] = set()
        for table in self.tables:
            if any(need in failed or need in blocked for need in table.needs):
                blocked.add(table.name)
        return blocked

    def _urgency(self) -> dict[str, int]:
        urgency: dict[str, int] = {}
        waiting: dict[str, list[str]] = {table.name: [] for table in self.tables}
        for table in self.tables:
            for need in table.needs:
                waiting[need].append(table.name)
        for table in reversed(self.tables):
            after = max((urgency[name] for name in waiting[table.name]), default=0)
            urgency[table.name] = table.entries + after
        return urgency

    def as_json(self) -> list[dict]:
        return [table.as_json() for table in self.tables]

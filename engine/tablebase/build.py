"""Building tables: each ending after the tables its captures lead to, reusing what is already on disk.

    >>> from engine.tablebase import build_tables
    >>> reports = build_tables(["KRKA"], "tables")      # builds KRK.jjtb, then KRKA.jjtb

The generator is the kernel's (ext/tb_gen.pxi); this module orders the work, wires the sub-tables, checks
each new table with the verifier when asked, and writes the files (engine.tablebase.fileformat).
"""
from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from .. import _core
from ..fen import format_board
from .errors import DamagedTableError, TablebaseError
from .fileformat import SUFFIX, TableFile, write_table
from .material import Material, dependencies


#: Peak bytes per entry (per side to move) while a table is built: the two value arrays (2 + 2), the
#: marks' two byte arrays (1 + 1), and the values' copy for the file (2 + 2). Sub-tables come on top.
BYTES_PER_ENTRY = 10


@dataclass(frozen=True)
class BuildReport:
    """What building (or reusing) one table did."""

    name: str
    reused: bool
    entries: int                 # per side to move
    seconds: float = 0.0
    passes: int = 0
    peak_rss_mb: float = 0.0     # of the whole process, when the table was done
    file_bytes: int = 0
    statistics: tuple[dict, ...] = ()

    @property
    def positions_per_second(self) -> float:
        return 2 * self.entries / self.seconds if self.seconds else 0.0


def table_path(directory: Path, material: Material) -> Path:
    return Path(directory) / f"{material.name}{SUFFIX}"


def new_table(material: Material) -> "_core.TbTable":
    """An empty table (the index only) of a canonical material."""
    return _core.TbTable(material.red.counts, material.black.counts)


def load_table(path: Path, material: Material) -> "_core.TbTable":
    """A table file read whole into memory. Raises DamagedTableError."""
    table = new_table(material)
    source = TableFile(path, expected_entries=table.size)
    if source.header.get("material") != material.name:
        raise DamagedTableError(f"{path}: holds {source.header.get('material')}, not {material.name}")
    for side in (0, 1):
        table.load_values(side, source.side_bytes(side))
    return table


class Builder:
    """Builds tables into one folder; a table built or read stays in memory while a later one needs it."""

    def __init__(self, directory: Path, verify: bool = False,
                 progress: Optional[Callable[[str], None]] = None) -> None:
        self.directory = Path(directory)
        self.verify = verify
        self.progress = progress or (lambda message: None)
        self.tables: dict[Material, "_core.TbTable"] = {}

    def build(self, endings: Iterable[str]) -> list[BuildReport]:
        """Build (or read) every table of the endings in dependency order. A table stays in memory only
        while a table still to build captures into it."""
        order: list[Material] = []
        for ending in endings:
            for material in dependencies(Material.parse(ending)):
                if material not in order:
                    order.append(material)
        reports = []
        for position, material in enumerate(order):
            reports.append(self._obtain(material))
            still_needed = {after.canonical()[0] for later in order[position + 1:] for _s, _t, after in later.captures()}
            for done in [m for m in self.tables if m not in still_needed]:
                del self.tables[done]
        return reports

    def _obtain(self, material: Material) -> BuildReport:
        path = table_path(self.directory, material)
        if path.exists():
            try:
                table = load_table(path, material)
            except DamagedTableError as exc:
                self.progress(f"{exc}: building it again")
            else:
                self.tables[material] = table
                self.progress(f"{material.name}: reused {path}")
                return BuildReport(material.name, True, table.size, file_bytes=path.stat().st_size,
                                   statistics=tuple(table.statistics()))
        return self._generate(material, path)

    def _pass_reporter(self, material: Material) -> Callable[[int, int], None]:
        """A progress line every few seconds while a large table is generated."""
        report = _every_few_seconds(self.progress)
        return lambda number, frontier: report(f"{material.name}: pass {number}, {frontier:,} entries at "
                                               f"distance {number - 1}")

    def _generate(self, material: Material, path: Path) -> BuildReport:
        """1. Wire the sub-tables; 2. generate; 3. verify (if asked); 4. write."""
        table = new_table(material)
        for side, ptype, after in material.captures():
            canon, flipped = after.canonical()
            sub = self.tables.get(canon) if canon.has_attackers else None
            if canon.has_attackers and sub is None:
                raise TablebaseError(f"{material.name} needs {canon.name}, which is not built")
            table.set_subtable(side, ptype, sub, flipped)
        self.progress(f"{material.name}: generating {table.size:,} entries per side "
                      f"(about {BYTES_PER_ENTRY * table.size / 2**20:,.0f} MB at the peak)")
        start = time.perf_counter()
        passes = table.generate(self._pass_reporter(material))
        seconds = time.perf_counter() - start
        if self.verify:
            bad, where = table.verify()
            if bad:
                raise TablebaseError(f"{material.name}: the verifier found {bad} inconsistent entries ({where})")
        statistics = table.statistics()
        write_table(path, header_of(material, table, statistics, seconds, passes),
                    (table.values_bytes(0), table.values_bytes(1)))
        self.tables[material] = table
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        self.progress(f"{material.name}: {passes} passes, {seconds:.2f} s, written to {path}")
        return BuildReport(material.name, False, table.size, seconds, passes, peak, path.stat().st_size,
                           tuple(statistics))


def _every_few_seconds(report: Callable[[str], None], seconds: float = 5.0) -> Callable[[str], None]:
    """report, at most once per `seconds`."""
    last = [time.perf_counter()]

    def maybe(message: str) -> None:
        now = time.perf_counter()
        if now - last[0] >= seconds:
            last[0] = now
            report(message)
    return maybe


def header_of(material: Material, table: "_core.TbTable", statistics: list[dict], seconds: float,
              passes: int) -> dict:
    """The descriptive part of a file's header (engine.tablebase.fileformat adds the format's own)."""
    counts = []
    for side, stats in enumerate(statistics):
        entry = dict(stats)
        index = entry.pop("longest_index")
        entry["longest_fen"] = None
        if index >= 0:
            entry["longest_fen"] = f"{format_board(table.position_of(index))} {'wb'[side]} - - 0 1"
        counts.append(entry)
    for entry, positions in zip(counts, table.count_legal()):
        entry["positions"] = positions
    return {"material": material.name, "entries": table.size, "sides": [0, 1], "statistics": counts,
            "index": INDEX_LAYOUT, "generation": {"seconds": round(seconds, 3), "passes": passes}}


#: What index scheme 1 is, for a reader of a header (ext/tb_index.pxi).
INDEX_LAYOUT = ("groups, most significant first: Red's general, advisors and elephants (placements not "
                "above their left-right mirror), Black's general, advisors and elephants, then per side "
                "(Red first) and type (N, R, C, P) the identical attackers as a combination of points")


def build_tables(endings: Iterable[str], directory, verify: bool = False,
                 progress: Optional[Callable[[str], None]] = None) -> list[BuildReport]:
    """Build the tables of the endings (names or FENs) and of every table they depend on into a folder,
    reusing the files already there. Returns one report per table, in build order."""
    return Builder(Path(directory), verify, progress).build(endings)

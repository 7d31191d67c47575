"""Building tables: each ending after the tables its captures lead to, reusing what is already on disk.

    >>> from engine.tablebase import build_tables
    >>> reports = build_tables(["KRKA"], "tables")      # builds KRK.jjtb, then KRKA.jjtb

The generator is the kernel's (ext/tb_gen.pxi). build_table is one table: it reads the sub-tables from
their files, wires them, generates, checks the new table with the verifier when asked, and writes the
file (engine.tablebase.fileformat). Each table is built from files alone, so that tables whose sub-tables
are on disk can be built at once by other processes (engine.tablebase.runner); peak_bytes is what one
build needs in memory.
"""
from __future__ import annotations

import functools
import os
import resource
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from .. import _core
from ..fen import format_board
from .checkpoint import Checkpoint, partial_path
from .errors import DamagedTableError, MissingTableError, TablebaseError
from .fileformat import DTC_LIMIT, SECTIONS, SUFFIX, TableFile, write_table
from .material import Material, dependencies, sub_tables


#: Peak bytes per entry (per side to move) while a table is built: the two value arrays (2 + 2), and
#: either the byte arrays of the rulings and the marks (up to 1 + 1 and 1 + 1, while the exposure bound
#: runs; the marks' and the moves their draws hold by, 1 + 1 and 1 + 1, after it), or the passes'
#: candidates (1 + 1, kept through the values' rounds, beside the rulings' 1 + 1) with, in the distance to
#: conversion's, its two arrays (1 + 1),
#: which stay while the file is written with its compressed blocks (under 1; the arrays are compressed in
#: place). Measured 6.3 to 8.9 before the distance to conversion (docs/tablebases.md#memory).
BYTES_PER_ENTRY = 8
#: Bytes per entry of each sub-table read from disk while a table is built: its two value arrays, and a bit
#: per side for whether an entry has a distance to conversion (load_table's as_subtable).
SUB_TABLE_BYTES_PER_ENTRY = 4.25
#: The process itself (the interpreter and the kernel: 21 MB in a process of its own, 64 MB in a Dask
#: worker) and the LZMA compressor of the file (17 MB).
PROCESS_BYTES = 96 * 2**20


@dataclass(frozen=True)
class BuildReport:
    """What building (or reusing) one table did."""

    name: str
    reused: bool
    entries: int                 # per side to move
    seconds: float = 0.0
    passes: int = 0
    peak_rss_mb: float = 0.0     # of the process while it built this table (PeakMemory)
    file_bytes: int = 0
    statistics: tuple[dict, ...] = ()
    where: str = ""              # host:pid of the process that built or read it

    @property
    def positions_per_second(self) -> float:
        return 2 * self.entries / self.seconds if self.seconds else 0.0


def table_path(directory: Path, material: Material) -> Path:
    return Path(directory) / f"{material.name}{SUFFIX}"


def new_table(material: Material) -> "_core.TbTable":
    """An empty table (the index only) of a canonical material."""
    return _core.TbTable(material.red.counts, material.black.counts)


def load_table(path: Path, material: Material, as_subtable: bool = False) -> "_core.TbTable":
    """A table file read whole into memory; as_subtable: for building the tables above it only (of the
    distance to conversion, only whether each entry has one). Raises DamagedTableError."""
    table = new_table(material)
    source = TableFile(path, expected_entries=table.size)
    if source.header.get("material") != material.name:
        raise DamagedTableError(f"{path}: holds {source.header.get('material')}, not {material.name}")
    for side in (0, 1):
        table.load_values(side, source.section_bytes(side))
        if as_subtable:
            table.load_clean(side, source.section_bytes(2 + side))
        else:
            table.load_dtc(side, source.section_bytes(2 + side), DTC_LIMIT)
    return table


@functools.lru_cache(maxsize=None)
def index_size(material: Material) -> int:
    """Entries per side to move of a canonical material's table (its index alone: nothing allocated)."""
    return new_table(material).size


def peak_bytes(material: Material) -> int:
    """The estimate of a table's peak memory while it is built by build_table: its own arrays, its
    sub-tables read from disk, and the process itself."""
    subs = sum(index_size(sub) for sub in sub_tables(material))
    return int(BYTES_PER_ENTRY * index_size(material) + SUB_TABLE_BYTES_PER_ENTRY * subs) + PROCESS_BYTES


def read_table(directory: Path, material: Material, as_subtable: bool = False) -> "_core.TbTable":
    """A table of the folder, read whole (load_table). Raises MissingTableError, DamagedTableError."""
    path = table_path(directory, material)
    if not path.exists():
        raise MissingTableError(f"no {material.name} table in {directory}: build it first")
    return load_table(path, material, as_subtable)


def wired_table(directory: Path, material: Material) -> tuple["_core.TbTable", list[Path]]:
    """A material's empty table, each capture wired to its sub-table read from the folder (they must be
    built already: MissingTableError otherwise), and the files of those sub-tables."""
    table = new_table(material)
    read: dict[Material, "_core.TbTable"] = {}
    for side, ptype, after in material.captures():
        canon, flipped = after.canonical()
        if canon.has_attackers and canon not in read:
            read[canon] = read_table(directory, canon, as_subtable=True)
        table.set_subtable(side, ptype, read.get(canon), flipped)
    return table, [table_path(directory, sub) for sub in read]


def build_table(directory: Path, material: Material, verify: bool = False,
                progress: Optional[Callable[[str], None]] = None, threads: int = 1) -> BuildReport:
    """Build one table into a folder, or reuse its file there, reading the sub-tables it needs from their
    files (they must be built already: MissingTableError otherwise); its passes shared by `threads`
    threads (the same table as one thread's). The unit of work of a build plan
    (engine.tablebase.plan): tables whose sub-tables are on disk can be built at once, in other processes
    or on other machines sharing the folder."""
    directory = Path(directory)
    say = progress or (lambda message: None)
    path = table_path(directory, material)
    if path.exists():
        try:
            table = load_table(path, material)
        except DamagedTableError as exc:
            say(f"{exc}: building it again")
        else:
            partial_path(path).unlink(missing_ok=True)
            say(f"{material.name}: reused {path}")
            return BuildReport(material.name, True, table.size, file_bytes=path.stat().st_size,
                               statistics=tuple(table.statistics()), where=_this_process())
    return _generate(directory, material, path, verify, say, threads)


def _generate(directory: Path, material: Material, path: Path, verify: bool,
              say: Callable[[str], None], threads: int) -> BuildReport:
    """1. Read and wire the sub-tables; 2. generate, from the save of a generation stopped before if there
    is one (engine.tablebase.checkpoint); 3. verify (if asked); 4. write."""
    peak = PeakMemory()
    table, sub_table_files = wired_table(directory, material)
    say(f"{material.name}: generating {table.size:,} entries per side "
        f"(about {peak_bytes(material) / 2**20:,.0f} MiB at the peak)")
    checkpoint = Checkpoint(partial_path(path), material.name, sub_table_files, say)
    passes = table.generate(_pass_reporter(material, say), DTC_LIMIT, threads, checkpoint)
    seconds = checkpoint.seconds
    if verify:
        bad, where = table.verify()
        if bad:
            raise TablebaseError(f"{material.name}: the verifier found {bad} inconsistent entries ({where})")
    statistics = table.statistics()
    write_table(path, header_of(material, table, statistics, seconds, passes),
                (table.values_bytes(side) if what == "values" else table.dtc_bytes(side)
                 for what, side, _width in SECTIONS))
    checkpoint.discard()
    say(f"{material.name}: {passes} passes, {seconds:.2f} s, written to {path}")
    return BuildReport(material.name, False, table.size, seconds, passes, peak.megabytes(),
                       path.stat().st_size, tuple(statistics), _this_process())


def _pass_reporter(material: Material, say: Callable[[str], None]) -> Callable[[str], None]:
    """A progress line every few seconds while a large table is generated, at each step (the values, the
    rulings, the marks of the draws, the distances to conversion)."""
    report = _every_few_seconds(say)
    return lambda message: report(f"{material.name}: {message}")


def _this_process() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class PeakMemory:
    """The peak resident memory of this process since it was made: Linux's VmHWM, reset through
    /proc/self/clear_refs, so that each table of a long-lived process (a Dask worker) gets its own peak;
    elsewhere the process's lifetime peak (getrusage)."""

    def __init__(self) -> None:
        try:
            with open("/proc/self/clear_refs", "w") as handle:
                handle.write("5")
            self._resettable = True
        except OSError:
            self._resettable = False

    def megabytes(self) -> float:
        if self._resettable:
            try:
                with open("/proc/self/status") as handle:
                    for line in handle:
                        if line.startswith("VmHWM:"):
                            return int(line.split()[1]) / 1024
            except OSError:
                pass
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if sys.platform == "darwin" else 1024)


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
                 progress: Optional[Callable[[str], None]] = None, threads: int = 1) -> list[BuildReport]:
    """Build the tables of the endings (names or FENs) and of every table they depend on into a folder, one
    after the other in this process, reusing the files already there. Returns one report per table, in
    build order. (`jiangjun tb build` runs the same work as a plan, on a cluster if asked:
    engine.tablebase.runner.)"""
    order: list[Material] = []
    for ending in endings:
        for material in dependencies(Material.parse(ending)):
            if material not in order:
                order.append(material)
    return [build_table(Path(directory), material, verify, progress, threads) for material in order]

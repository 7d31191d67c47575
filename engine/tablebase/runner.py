"""`jiangjun tb build`'s run: a build plan (engine.tablebase.plan) carried out into one folder, in this
process or on a Dask cluster (engine.tablebase.cluster), with a progress line (engine.tablebase.progress)
and the folder's state file (engine.tablebase.state).

    >>> result = run_build(BuildPlan.of_set(), "tablebases", cluster="local:2")

1. Leftovers of an interrupted run are removed: temporary files (`*.part`) that a killed process never
   renamed into place. No reader opens them: a table is only ever read under its own name, which a file
   gets when it is complete (engine.tablebase.fileformat).
2. The tables already in the folder, complete and checked, are done; the others are built, each when
   every table it needs is done. A run that is stopped (Ctrl-C, a machine that goes down) is resumed by
   running the same command again.
3. A table that fails (its build raised, or its task failed on the cluster) is reported, and so are the
   tables waiting for it; the rest is built. The command then fails, and running it again retries them.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Optional, Protocol

from .build import BuildReport, build_table, table_path
from .checkpoint import SUFFIX as PARTIAL_SUFFIX, describe_save, partial_path
from .errors import DamagedTableError
from .fileformat import SUFFIX, TableFile
from .plan import BuildPlan, PlannedTable
from .progress import ProgressLine
from .state import STATE_NAME, BuildState


@dataclass
class RunResult:
    """What a run did: a report per table done (built now, or found on disk), in plan order; the tables
    that failed (name -> the error); those not built because a table they need failed."""

    reports: list[BuildReport] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.failed and not self.waiting


class Events(Protocol):
    """What an executor tells the run about its tables, and the tables done (on disk) so far."""

    done: set[str]

    def started(self, name: str) -> None: ...
    def finished(self, report: BuildReport) -> None: ...
    def failed(self, name: str, error: BaseException) -> None: ...
    def say(self, message: str) -> None: ...


def run_build(plan: BuildPlan, directory, verify: bool = False, cluster: Optional[str] = None,
              stream: IO[str] = sys.stderr, terminal: Optional[bool] = None, threads: int = 1) -> RunResult:
    """Build the plan's tables into `directory` (here, or on the cluster `cluster`: tcp://HOST:PORT or
    local:N), resuming from the files already there, each table's passes shared by `threads` threads.
    Progress and messages go to `stream`."""
    directory = Path(directory).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    state = BuildState(directory)
    run = _Run(plan, directory, state, ProgressLine(stream, len(plan), plan.total_entries, terminal), verify)
    with run.progress:
        if state.unreadable:
            run.say(state.unreadable)
        removed = remove_leftovers(directory)
        if removed:
            run.say(f"removed {removed} temporary files of an interrupted run")
        state.begin_run(plan, cluster or "", verify)
        todo = run.find_done()
        try:
            if todo and cluster:
                from .cluster import build_on_cluster

                build_on_cluster(cluster, plan, todo, directory, verify, run, threads)
            elif todo:
                build_here(plan, todo, directory, verify, run, threads)
        finally:
            run.result.waiting = [t.name for t in plan if t.name not in run.done and t.name not in run.result.failed]
            state.end_run(finished=run.result.complete)
    position = {table.name: number for number, table in enumerate(plan)}
    run.result.reports.sort(key=lambda report: position[report.name])
    return run.result


def remove_leftovers(directory: Path) -> int:
    """Delete the temporary files of tables, of their saves (checkpoint.py) and of the state file that a killed
    process left."""
    leftovers = [*directory.glob(f"*{SUFFIX}.*.part"), *directory.glob(f"*{PARTIAL_SUFFIX}.*.part"),
                 *directory.glob(f"{STATE_NAME}.*.part")]
    for path in leftovers:
        path.unlink(missing_ok=True)
    return len(leftovers)


def build_here(plan: BuildPlan, todo: list[PlannedTable], directory: Path, verify: bool, events: Events,
               threads: int = 1) -> None:
    """Build the tables one after the other in this process, in plan order."""
    for table in todo:
        if not all(need in events.done for need in table.needs):
            continue           # a table it needs failed
        events.started(table.name)
        try:
            report = build_table(directory, table.material, verify, events.say, threads)
        except (ValueError, ArithmeticError, RuntimeError, MemoryError, OSError) as exc:   # TablebaseError among them
            events.failed(table.name, exc)
        else:
            events.finished(report)


class _Run:
    """The run's bookkeeping: the state file, the progress line, the result (the Events of executors)."""

    def __init__(self, plan: BuildPlan, directory: Path, state: BuildState, progress: ProgressLine,
                 verify: bool) -> None:
        self.plan, self.directory, self.state, self.progress, self.verify = plan, directory, state, progress, verify
        self.done: set[str] = set()
        self.result = RunResult()

    def find_done(self) -> list[PlannedTable]:
        """Count the plan's tables already in the folder (complete and checked) as done; the others."""
        todo = []
        for table in self.plan:
            path = table_path(self.directory, table.material)
            header = self._check(path, table) if path.exists() else None
            if header is None:
                todo.append(table)
                saved = describe_save(partial_path(path))
                if saved:
                    self.say(f"{table.name}: {saved}")
                continue
            self.done.add(table.name)
            self.state.found(table.name, table.entries, path.stat().st_size, header)
            self.result.reports.append(BuildReport(table.name, True, table.entries, file_bytes=path.stat().st_size,
                                                   statistics=tuple(header.get("statistics", ()))))
        self.state.save()
        if self.done:
            self.say(f"{len(self.done):,} of the {len(self.plan):,} tables are in {self.directory} already")
            self.progress.found(len(self.done), sum(self.plan[name].entries for name in self.done))
        return todo

    def _check(self, path: Path, table: PlannedTable) -> Optional[dict]:
        try:
            header = TableFile(path, expected_entries=table.entries).header
        except DamagedTableError as exc:
            self.say(f"{exc}: building it again")
            return None
        if header.get("material") != table.name:
            self.say(f"{path}: holds {header.get('material')}, not {table.name}: building it again")
            return None
        return header

    # --- Events -----------------------------------------------------------------------------------------
    def started(self, name: str) -> None:
        self.progress.started(name)

    def finished(self, report: BuildReport) -> None:
        self.done.add(report.name)
        self.result.reports.append(report)
        if report.reused:
            self.state.found(report.name, report.entries, report.file_bytes, {"statistics": report.statistics})
            self.state.save()
        else:
            self.state.built(report, self.verify)
        self.progress.finished(report.name, report.entries, built=not report.reused)

    def failed(self, name: str, error: BaseException) -> None:
        text = f"{type(error).__name__}: {error}"
        self.result.failed[name] = text
        self.state.failed(name, text)
        self.progress.stopped(name)
        self.say(f"{name}: failed ({text})")

    def say(self, message: str) -> None:
        self.progress.say(message)

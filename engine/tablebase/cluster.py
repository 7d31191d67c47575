"""Tables built on a Dask cluster (`jiangjun tb build ... -cluster tcp://HOST:8786 | local:N`), as the match
runner plays games on one (engine.cluster, engine.match.cluster).

Each table is one Dask task, `build_task`, which builds it into the output folder with
build.build_table (reading its sub-tables from their files there) and returns its BuildReport. The folder
must be one every worker sees under the same path: the same machine, or a shared filesystem. A task is
submitted when every table it needs is done, the most urgent first (plan.BuildPlan.urgency).

- Before the tables, every worker checks that it can import this code and write into the folder
  (`_check_folder`); one that cannot stops the run with the worker's address.
- A worker that dies mid-table loses nothing: the scheduler gives its task to another worker (up to
  Dask's `distributed.scheduler.allowed-failures` deaths per task, 3 by default), which builds the table
  again. The dead worker's temporary file is never read: a table file gets its name only when complete.
  A task that fails for good is reported by the run, and the command run again retries it.
- One table per worker thread at a time, and a table's build takes up to its peak_bytes (at most
  catalog.MEMORY_BUDGET for the set): start workers with `--nthreads 1`, and no more per machine than
  its memory holds. (A worker of several threads builds several tables at once; their peak memory
  figures are then the process's.)
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from ..cluster import ClusterError, Collector, connect, describe
from .build import BuildReport, build_table
from .material import Material
from .plan import BuildPlan, PlannedTable

if TYPE_CHECKING:
    from .runner import Events


def build_on_cluster(spec: str, plan: BuildPlan, todo: list[PlannedTable], directory: Path, verify: bool,
                     events: "Events", threads: int = 1) -> None:
    """Build the `todo` tables of the plan on the cluster `spec`, telling `events` (runner.Events) as each
    task finishes; the plan's other tables are done."""
    with connect(spec) as client:
        events.say(f"Cluster {spec}: {describe(client)}; one table per worker thread, into {directory}")
        _check_workers(client, directory)
        token = uuid.uuid4().hex[:12]
        tasks = Collector(client)
        waiting = {table.name for table in todo}      # not yet submitted

        def submit_ready() -> None:
            busy = {table.name for table in plan if table.name not in waiting}
            for table in plan.ready(done=events.done, busy=busy):
                waiting.discard(table.name)
                tasks.submit(build_task, str(directory), table.name, verify, threads, label=table.name,
                             key=f"jiangjun-tb-{token}-{table.name}", priority=plan.urgency[table.name])
                events.started(table.name)

        try:
            submit_ready()
            while len(tasks):
                for name, outcome in tasks.finished():
                    if isinstance(outcome, BaseException):
                        events.failed(name, outcome)
                    else:
                        events.finished(outcome)
                submit_ready()
        finally:
            tasks.cancel()


def build_task(directory: str, name: str, verify: bool, threads: int = 1) -> BuildReport:
    """The task: build one table (or find it built) on this worker."""
    return build_table(Path(directory), Material.parse(name), verify, threads=threads)


def _check_workers(client, directory: Path) -> None:
    """Every worker can run this code and write into the folder; ClusterError naming those that cannot."""
    try:
        answers = client.run(_check_folder, str(directory), on_error="return")
    except Exception as exc:
        raise ClusterError(f"cannot check the workers: {exc!r}") from None
    problems = []
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            problems.append(f"worker {worker} cannot run jiangjun's code: {answer!r} "
                            f"(is the engine package importable there? PYTHONPATH)")
        elif answer:
            problems.append(f"worker {worker}: {answer}")
    if problems:
        raise ClusterError("; ".join(problems))


def _check_folder(directory: str) -> str:
    """On a worker: "" when the folder exists and is writable there, else what is wrong."""
    if not os.path.isdir(directory):
        return f"no folder {directory} (the tables' folder must be shared by the workers, under the same path)"
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"cannot write into {directory}"
    return ""


__all__ = ["build_on_cluster", "build_task"]

"""Dask, as the match runner (engine.match.cluster), the table builder (engine.tablebase.cluster) and the data
tools (tools/) use it: connecting to a cluster, the worker's per-thread state, and collecting results (as they
finish, or in task order). Nothing here knows about games or tables.

Dask is an optional extra (``pip install 'jiangjun[cluster]'``); this module imports it only when called,
so that everything else works without it.

How work maps to cores: one task runs at a time per worker *thread*, and each of our tasks keeps one core
busy (a game of two engines that think in turn, or one search of the data tools). So a machine's workers
should have one thread per core: ``dask worker --nworkers CORES --nthreads 1`` (what ``local:N`` starts:
N single-threaded worker processes). One process per core, rather than one process of many threads, also
keeps the data tools' in-process searcher to one task per process.
"""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any, Callable, Iterable, Iterator, Optional

INSTALL_HINT = "the cluster needs Dask: pip install 'jiangjun[cluster]' (or: pip install 'dask[distributed]')"
WORKER_WAIT = 60.0     # seconds to wait for the first worker of a remote scheduler


class ClusterError(RuntimeError):
    """The cluster cannot do the work: no Dask, no scheduler, no workers, or a worker that cannot run it."""


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None
    return distributed


def parse_cluster(spec: str) -> tuple[str, Any]:
    """("local", N) for "local:N", ("scheduler", address) for "tcp://HOST:PORT" (any Dask address)."""
    if spec.startswith("local:"):
        try:
            workers = int(spec[len("local:"):])
        except ValueError:
            workers = 0
        if workers < 1:
            raise ValueError(f"cluster {spec!r}: local:N needs a number of workers N >= 1")
        return "local", workers
    if "://" in spec:
        return "scheduler", spec
    raise ValueError(f"cluster {spec!r}: expected tcp://HOST:PORT (a running Dask scheduler) or local:N")


@contextlib.contextmanager
def connect(spec: str) -> Iterator[Any]:
    """A Dask Client for `spec` (see parse_cluster): a local cluster of N single-threaded worker processes,
    started here and shut down on exit, or a running scheduler with at least one worker."""
    kind, value = parse_cluster(spec)
    distributed = _distributed()
    cluster = None
    try:
        if kind == "local":
            cluster = distributed.LocalCluster(n_workers=value, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(value, timeout=10)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"cannot reach the Dask scheduler at {value}: {exc}") from None
        try:
            try:
                client.wait_for_workers(1, timeout=WORKER_WAIT)
            except TimeoutError:
                raise ClusterError(f"the Dask scheduler at {spec} has no workers "
                                   f"(waited {WORKER_WAIT:g} s)") from None
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def describe(client) -> str:
    """"2 workers, 2 threads": what the scheduler has now."""
    threads = client.nthreads()
    return f"{len(threads)} workers, {sum(threads.values())} threads"


class PerThread:
    """State that each worker thread builds once per job (a run of the match or of a tool, named by a
    token) and keeps between that job's tasks: engine processes, a searcher. Building it for a new token
    closes the thread's old one; `close(token)` closes a finished job's state in every thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: dict[int, tuple[str, Any]] = {}     # thread ident -> (token, state)

    def get(self, token: str, build: Callable[[], Any]) -> Any:
        ident = threading.get_ident()
        with self._lock:
            old = self._states.get(ident)
        if old is not None and old[0] == token:
            return old[1]
        if old is not None:
            _close(old[1])
        state = build()
        with self._lock:
            self._states[ident] = (token, state)
        return state

    def close(self, token: str) -> int:
        with self._lock:
            done = [ident for ident, (owner, _) in self._states.items() if owner == token]
            states = [self._states.pop(ident)[1] for ident in done]
        for state in states:
            _close(state)
        return len(states)


def _close(state: Any) -> None:
    close = getattr(state, "close", None)
    if close is not None:
        close()


class Collector:
    """Tasks on the cluster and their outcomes as they finish: the one way this project collects results
    (the match runner's games, the tools' tasks). `submit` adds a task; `finished` waits for at least one
    and returns (label, result or the exception it raised) for each finished one, the label being the
    task itself unless another was given; `cancel` drops the rest.

    The futures' states are polled, not awaited: Dask's as_completed can miss a future that finished,
    lost its result with a dying worker and finished again (dask/dask#8882), which left a match waiting
    for ever. Results are gathered through the scheduler, which knows where they are now; one lost on
    the way (its worker died) is computed again by the scheduler and collected later."""

    poll_seconds = 0.1

    def __init__(self, client) -> None:
        self._client = client
        self._pending: dict[Any, Any] = {}     # future -> label

    def __len__(self) -> int:
        return len(self._pending)

    def submit(self, function: Callable, task: Any, *args: Any, label: Any = None, **options: Any) -> None:
        """Run function(task, *args) on the cluster; `options` go to Dask's submit (key, priority)."""
        future = self._client.submit(function, task, *args, pure=False, **options)
        self._pending[future] = task if label is None else label

    def finished(self) -> list[tuple[Any, Any]]:
        while True:
            done = [future for future in self._pending if future.done()]
            if done:
                break
            time.sleep(self.poll_seconds)
        outcomes = []
        gathered = [future for future in done if future.status == "finished"]
        try:
            results = self._client.gather(gathered, direct=False) if gathered else []
        except Exception:      # a result lost on the way: the scheduler computes it again
            gathered, results = [], []
        for future, result in zip(gathered, results):
            outcomes.append((self._pending.pop(future), result))
        for future in done:
            if future.status == "error":
                outcomes.append((self._pending.pop(future), future.exception()))
            elif future.status == "cancelled":     # by someone else: the scheduler will not run it
                outcomes.append((self._pending.pop(future), RuntimeError("the task was cancelled")))
        return outcomes

    def cancel(self) -> None:
        if self._pending:
            self._client.cancel(list(self._pending))
            self._pending.clear()


def ordered_results(client, function: Callable, tasks: Iterable[Any], *args: Any,
                    window: Optional[int] = None) -> Iterator[Any]:
    """function(task, *args) for each task on the cluster, yielded in task order (like Pool.imap), with at
    most `window` tasks submitted and not yet yielded (default: four per worker thread now), so that a long
    or endless task list is fed as the cluster works through it. A task that raises raises here."""
    _distributed()     # a clear error without Dask
    if window is None:
        window = max(2, 4 * sum(client.nthreads().values()))
    scattered = [client.scatter(arg, broadcast=True) for arg in args]   # sent once, not with every task
    collector = Collector(client)
    done: dict[int, Any] = {}      # task number -> outcome, until its turn comes
    submitted = yielded = 0
    iterator = iter(tasks)
    exhausted = False
    try:
        while True:
            while not exhausted and submitted - yielded < window:
                task = next(iterator, _END)
                if task is _END:
                    exhausted = True
                    break
                collector.submit(function, task, *scattered, label=submitted)
                submitted += 1
            if yielded == submitted:
                return
            while yielded not in done:
                for number, outcome in collector.finished():
                    done[number] = outcome
            outcome = done.pop(yielded)
            yielded += 1
            if isinstance(outcome, BaseException):
                raise outcome
            yield outcome
    finally:
        collector.cancel()


_END = object()

"""The games of a match played on a Dask cluster (`jiangjun match ... -cluster tcp://HOST:8786 | local:N`).

The cluster is only another way to play the Jobs of the schedule: each Job is one Dask task, played by a
GameTable of the worker thread that runs it (the thread keeps its engine processes from game to game, as a
local -concurrency thread does), and each GameRecord comes back, as games finish, into the runner's one
`accept` (engine.match.runner), which counts, journals, writes the PGN and judges the SPRT.

- Before the games, every worker starts and stops each engine once (`_check_engines`): an engine that
  cannot run on a worker stops the match with the worker's address and the engine's name. The names the
  engines report (`id name`) are fixed then and sent with every game, so that a game's names do not
  depend on the worker that played it.
- A task is named by the match's token and the game number, and the runner accepts a game number once.
  A worker that dies mid-game loses its tasks; the scheduler gives them to other workers (up to Dask's
  `distributed.scheduler.allowed-failures` deaths per task, 3 by default), so the game is played again.
- An SPRT decision or Ctrl-C cancels the tasks not yet finished. Tasks not started never start; a game
  in progress on a worker cannot be interrupted from here and runs to its end, its result unused.
- At the end the worker threads' engine processes of this match are closed (`_close_tables`).
"""
from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Callable, Optional

from ..client import EngineConfig, EngineError, open_process
from ..cluster import ClusterError, Collector, PerThread, connect, describe
from .record import GameRecord
from .table import GameRules, GameTable, Job

_tables = PerThread()     # on a worker: each thread's GameTable for the match it plays now
_NEVER = threading.Event()   # a worker's games are not interrupted (see the module docstring)


def play_on_cluster(address: str, rules: GameRules, jobs: list[Job],
                    accept: Callable[[Job, GameRecord], None], name_engine: Callable[[int, str], str],
                    stop: threading.Event, say: Callable[[str], None]) -> None:
    """Play `jobs` on the cluster at `address`, giving each finished game to `accept` as it comes back, until
    all are played or `stop` is set. name_engine(index, reported name) -> the display name."""
    with connect(address) as client:
        say(f"Cluster {address}: {describe(client)}; one game per worker thread")
        reported = _check_engines(client, rules.engines)
        names = tuple(name_engine(index, name) for index, name in enumerate(reported))
        token = uuid.uuid4().hex[:12]
        games = Collector(client)
        for order, job in enumerate(jobs):
            # Schedule order first: a higher priority starts sooner.
            games.submit(play_job, job, rules, names, token, key=f"jiangjun-game-{token}-{job.number}",
                         priority=len(jobs) - order)
        failed = 0
        try:
            while len(games) and not stop.is_set():
                for job, outcome in games.finished():
                    if isinstance(outcome, BaseException):
                        failed += 1
                        say(f"Game {job.number} could not be played on the cluster: {outcome!r}")
                    else:
                        accept(job, outcome)
                    if stop.is_set():
                        break
        finally:
            games.cancel()
            try:
                client.run(_close_tables, token)
            except Exception:       # a worker gone is no reason to fail the match's end
                pass
        if failed:
            say(f"{failed} games were not played (run the match again with -resume FILE to play them)")


def play_job(job: Job, rules: GameRules, names: tuple[str, ...], token: str) -> GameRecord:
    """The task: play one game at this worker thread's table."""
    table = _tables.get(token, lambda: GameTable(rules, lambda index, process: names[index]))
    return table.play(job, _NEVER)


def _close_tables(token: str) -> int:
    return _tables.close(token)


def _check_engines(client, engines) -> list[str]:
    """Start each engine once on every worker; the engines' reported names (from the first worker).
    Raises ClusterError naming every worker and engine that failed."""
    configs = [spec.config for spec in engines]
    try:
        answers = client.run(_try_engines, configs, on_error="return")
    except Exception as exc:
        raise ClusterError(f"cannot check the engines on the workers: {exc!r}") from None
    problems = []
    names: Optional[list[str]] = None
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            problems.append(f"worker {worker} cannot run jiangjun's code: {answer!r} "
                            f"(is the engine package importable there? PYTHONPATH)")
            continue
        for config, (name, error) in zip(configs, answer):
            if error is not None:
                problems.append(f"worker {worker} cannot run engine {config.name or config.cmd} "
                                f"(cmd={config.cmd}): {error}")
        if names is None and all(error is None for _, error in answer):
            names = [name for name, _ in answer]
    if problems:
        raise ClusterError("; ".join(problems))
    assert names is not None
    return names


async def _try_engines(configs: list[EngineConfig]) -> list[tuple[str, Optional[str]]]:
    """On a worker: (reported name, None) or (command, the error) per engine. In a thread, so that the
    worker's event loop goes on answering the scheduler while engines start."""
    return await asyncio.get_running_loop().run_in_executor(None, _try_engines_now, configs)


def _try_engines_now(configs: list[EngineConfig]) -> list[tuple[str, Optional[str]]]:
    answers = []
    for config in configs:
        process = open_process(config)
        try:
            process.start()
            answers.append((process.name, None))
        except (EngineError, OSError) as exc:
            answers.append((config.cmd, str(exc)))
        finally:
            process.quit()
    return answers


__all__ = ["ClusterError", "play_job", "play_on_cluster"]

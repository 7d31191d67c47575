"""A real Dask cluster for the tests: a `dask scheduler` and named `dask worker` processes on 127.0.0.1, each
started in its own session (killed as a group). Used by tests/test_cluster.py (matches, data tools) and
tests/tablebase/test_build_cluster.py (tables); the tests using it are slow."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A scheduler and named workers as subprocesses. `env()` gives each process's environment: they
    unpickle the tasks, so they must import `engine` (this checkout when it is built in place)."""

    def __init__(self, workdir: Path, env: Callable[[], dict]) -> None:
        self.workdir = workdir
        self.env = env
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.processes: dict[str, subprocess.Popen] = {}
        self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                                  "--no-dashboard", "--dashboard-address", "127.0.0.1:0"], env())

    def _start(self, name: str, args: list[str], env: dict) -> None:
        log = open(self.workdir / f"{name}.log", "w")
        self.processes[name] = subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=self.workdir, env=env,
                                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start_worker(self, name: str, extra_path: str = "") -> None:
        env = self.env()
        if extra_path:
            env["PATH"] = extra_path + os.pathsep + env["PATH"]
        self._start(name, ["worker", self.address, "--name", name, "--nthreads", "1", "--host", "127.0.0.1",
                           "--no-dashboard", "--no-nanny", "--death-timeout", "60"], env)

    def client(self):
        import distributed

        return distributed.Client(self.address, timeout=30)

    def wait_for(self, count: int) -> None:
        with self.client() as client:
            client.wait_for_workers(count, timeout=60)
            deadline = time.time() + 30
            while len(client.scheduler_info()["workers"]) != count and time.time() < deadline:
                time.sleep(0.1)
            assert len(client.scheduler_info()["workers"]) == count

    def worker_address(self, name: str) -> str:
        with self.client() as client:
            workers = client.scheduler_info()["workers"]
        return next(address for address, info in workers.items() if info["name"] == name)

    def pid(self, name: str) -> int:
        return self.processes[name].pid

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(10)

    def close(self) -> None:
        for name in list(self.processes):
            self.kill(name)

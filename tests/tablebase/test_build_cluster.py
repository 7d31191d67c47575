"""`jiangjun tb build` over Dask: a local:2 cluster, and a real scheduler and two workers on 127.0.0.1 (as
tests/test_cluster.py starts them). The tables must equal, value for value, those one process builds: with
every worker, with the worker that builds the last table killed mid-build, and after the command itself
is killed and run again."""
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.slow
distributed = pytest.importorskip("distributed")

from support import ROOT, built_in_place, engine_env  # noqa: E402
from support.dask_cluster import Cluster  # noqa: E402
from engine.tablebase import build_tables  # noqa: E402
from engine.tablebase.build import load_table  # noqa: E402
from engine.tablebase.fileformat import SUFFIX  # noqa: E402
from engine.tablebase.material import Material  # noqa: E402
from engine.tablebase.plan import BuildPlan  # noqa: E402
from engine.tablebase.runner import run_build  # noqa: E402
from engine.tablebase.state import STATE_NAME  # noqa: E402

LAST = "KRKAABB"      # its eight sub-tables, then itself: several seconds, on one worker


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The tables built one after the other in this process."""
    directory = tmp_path_factory.mktemp("one-process")
    build_tables([LAST, "KNKP", "KPKP"], directory)
    return directory


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    cluster = Cluster(tmp_path_factory.mktemp("dask"), engine_env)
    try:
        cluster.start_worker("one")
        cluster.start_worker("two")
        cluster.wait_for(2)
        yield cluster
    finally:
        cluster.close()


def same_values(directory, reference) -> list[str]:
    """The tables of `directory`, each checked equal in every value to the reference's."""
    names = sorted(path.name[:-len(SUFFIX)] for path in directory.glob(f"*{SUFFIX}"))
    for name in names:
        material = Material.parse(name)
        built, expected = load_table(directory / f"{name}{SUFFIX}", material), load_table(reference / f"{name}{SUFFIX}", material)
        for side in (0, 1):
            assert built.values_bytes(side) == expected.values_bytes(side), (name, side)
    return names


def build(directory, endings, cluster=None):
    stream = io.StringIO()
    result = run_build(BuildPlan.of_endings(endings), directory, cluster=cluster, stream=stream, terminal=False)
    return result, stream.getvalue()


@pytest.fixture
def workers_import_the_tested_engine(monkeypatch):
    """Local workers start with this process's sys.path. The tools that tests/tools imports put the checkout
    on it, which, when the checkout has no compiled extension (CI tests the installed package), would give
    the workers its uncompiled tree: keep it off while they start."""
    if not built_in_place():
        monkeypatch.setattr(sys, "path", [p for p in sys.path if os.path.realpath(p or ".") != str(ROOT)])


def test_local_workers_build_the_tables_of_one_process(reference, tmp_path, workers_import_the_tested_engine):
    result, output = build(tmp_path, ["KNKP", "KPKP", "KRKAB"], cluster="local:2")
    assert result.complete, output
    assert "Cluster local:2: 2 workers, 2 threads" in output
    assert same_values(tmp_path, reference) == ["KNK", "KNKP", "KPK", "KPKP", "KRK", "KRKA", "KRKAB", "KRKB"]
    assert all(not r.reused and int(r.where.rsplit(":", 1)[1]) != os.getpid() for r in result.reports)
    state = json.loads((tmp_path / STATE_NAME).read_text())
    assert state["runs"][0]["cluster"] == "local:2" and len(state["tables"]) == 8


def _worker_building(cluster, table):
    """The name of the worker whose task builds `table`, once one does."""
    with cluster.client() as client:
        deadline = time.time() + 120
        while time.time() < deadline:
            names = {address: info["name"] for address, info in client.scheduler_info()["workers"].items()}
            for address, keys in client.processing().items():
                if any(str(key).endswith(f"-{table}") for key in keys):
                    return names[address]
            time.sleep(0.02)
    raise AssertionError(f"no worker built {table}")


def test_a_worker_killed_mid_table_loses_nothing(cluster, reference, tmp_path):
    # Last in the module but one: a worker is killed, and started again for what follows.
    outcome = {}
    runner = threading.Thread(target=lambda: outcome.update(zip(("result", "output"), build(tmp_path, [LAST], cluster.address))))
    runner.start()
    victim = _worker_building(cluster, LAST)
    killed = cluster.pid(victim)
    cluster.kill(victim)
    survivor = next(name for name in ("one", "two") if name != victim)
    runner.join(300)
    try:
        assert not runner.is_alive()
        result = outcome["result"]
        assert result.complete, outcome["output"]
        last = result.reports[-1]
        assert last.name == LAST and not last.reused
        assert last.where.endswith(f":{cluster.pid(survivor)}") and not last.where.endswith(f":{killed}")
        assert len(same_values(tmp_path, reference)) == 9
        again, output = build(tmp_path, [LAST], cluster.address)      # what is left of the killed task goes
        assert again.complete and all(report.reused for report in again.reports)
        assert not list(tmp_path.glob("*.part"))
    finally:
        cluster.start_worker(victim)
        cluster.wait_for(2)


def test_a_killed_command_resumes_from_the_tables_on_disk(cluster, reference, tmp_path):
    command = [sys.executable, "-m", "engine", "tb", "build", LAST, "-o", str(tmp_path)]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=engine_env(), cwd=tmp_path, start_new_session=True)
    state_file = tmp_path / STATE_NAME
    deadline = time.time() + 120
    while time.time() < deadline:
        if state_file.exists() and len(json.loads(state_file.read_text())["tables"]) >= 4:
            break
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate(timeout=10)
    before = json.loads(state_file.read_text())
    assert 4 <= len(before["tables"]) < 9 and not before["runs"][0]["finished"]
    result, output = build(tmp_path, [LAST], cluster.address)
    assert result.complete, output
    after = json.loads(state_file.read_text())
    for name, figures in before["tables"].items():
        assert after["tables"][name] == figures and figures["run"] == 1     # found, not built again
    assert {after["tables"][r.name]["run"] for r in result.reports if not r.reused} == {2}
    assert after["runs"][1]["cluster"] == cluster.address and after["runs"][1]["finished"]
    assert len(same_values(tmp_path, reference)) == 9

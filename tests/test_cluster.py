"""jiangjun match on a real Dask cluster: a `dask scheduler` and two `dask worker` processes on 127.0.0.1,
started here. The games are deterministic (our engine at a fixed node count, its book off, the hash cleared
for each game), so the cluster must play exactly the games of the same match run locally: with all
workers, with one of them killed mid-match, and when the runner itself is killed and resumed."""
import io
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

import pytest

pytestmark = pytest.mark.slow
distributed = pytest.importorskip("distributed")

from support import TOOLS, engine_env, engine_on_pythonpath  # noqa: E402
from support.dask_cluster import Cluster  # noqa: E402
from support.driver import ENGINE_COMMAND as ENGINE  # noqa: E402
from engine.client import EngineConfig  # noqa: E402
from engine.cluster import ClusterError  # noqa: E402
from engine.match.referee import Adjudication  # noqa: E402
from engine.match.openings import default_book  # noqa: E402
from engine.match.runner import EngineSpec, Match, MatchConfig  # noqa: E402
from engine.match.timecontrol import TimeControl  # noqa: E402
from engine.pgn import read_games  # noqa: E402

GAMES = 6
TC = "nodes=2000"
MAX_MOVES = 40
OPENINGS = default_book()[:3]
WRAPPER = "jj-engine"      # on the PATH of worker "one" only
# Engines run outside the checkout (see conftest.engine_env): there `python -m engine` imports the
# installed package, or the checkout built in place through PYTHONPATH, never the uncompiled source tree.
ENGINE_DIR = tempfile.gettempdir()


def _env() -> dict:
    """The scheduler's and the workers' environment: they unpickle the tasks, so they import `engine` (this
    checkout when it is built in place) and the data tools."""
    env = engine_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TOOLS), env.get("PYTHONPATH")]))
    return env


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("cluster")
    bindir = workdir / "bin"
    bindir.mkdir()
    wrapper = bindir / WRAPPER
    wrapper.write_text(f"#!/bin/sh\nexec {ENGINE} \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    cluster = Cluster(workdir, _env)
    try:
        cluster.start_worker("one", extra_path=str(bindir))
        cluster.start_worker("two")
        cluster.wait_for(2)
        yield cluster
    finally:
        cluster.close()


def config(**settings) -> MatchConfig:
    specs = [EngineSpec(EngineConfig(ENGINE, name=name, options={"OwnBook": "false", "Hash": "16"},
                                     workdir=ENGINE_DIR),
                        TimeControl.parse(TC)) for name in ("red-one", "black-one")]
    return MatchConfig(engines=specs, openings=OPENINGS, games=GAMES, adjudication=Adjudication(max_moves=MAX_MOVES),
                       **settings)


def play(**settings) -> tuple[Match, str]:
    out = io.StringIO()
    match = Match(config(**settings), out)
    match.run()
    return match, out.getvalue()


def moves_by_number(match: Match) -> dict[int, tuple[str, str, tuple[str, ...]]]:
    return {number: (record.red, record.result, tuple(record.moves)) for number, record in match.games.items()}


@pytest.fixture(scope="module")
def local_games():
    """The match played here, two games at a time, by the engine the workers run (engine_env: the
    checkout when it is built in place, not an installed copy that may be older): what every cluster
    run must reproduce."""
    with engine_on_pythonpath():
        match, _ = play(concurrency=2)
    assert sorted(match.games) == list(range(1, GAMES + 1))
    return moves_by_number(match)


def test_the_cluster_plays_the_games_of_a_local_match(cluster, local_games, tmp_path):
    match, output = play(cluster=cluster.address, pgn_path=str(tmp_path / "games.pgn"))
    assert "2 workers, 2 threads" in output
    assert moves_by_number(match) == local_games
    assert f"Results ({GAMES} games)" in output and "red-one vs black-one" in output
    games = read_games(tmp_path / "games.pgn")
    assert sorted(int(game.headers["Round"]) for game in games) == list(range(1, GAMES + 1))


def test_a_missing_engine_names_the_worker_and_the_engine(cluster):
    worker = cluster.worker_address("two")
    match = Match(MatchConfig(
        engines=[EngineSpec(EngineConfig(WRAPPER, name="wrapped"), TimeControl.parse(TC)),
                 EngineSpec(EngineConfig(ENGINE, name="plain"), TimeControl.parse(TC))],
        openings=OPENINGS, cluster=cluster.address), io.StringIO())
    with pytest.raises(ClusterError) as failure:
        match.run()
    message = str(failure.value)
    assert f"worker {worker} cannot run engine wrapped (cmd={WRAPPER})" in message
    assert cluster.worker_address("one") not in message and "plain" not in message
    assert not match.games


def test_the_data_generator_writes_the_same_file_on_the_cluster(cluster, tmp_path):
    sys.path.insert(0, str(TOOLS))
    import gen_nnue_data

    here, there = str(tmp_path / "here.bin"), str(tmp_path / "there.bin")
    arguments = ["selfplay", "--games", "4", "--nodes", "500", "--max-plies", "60", "--seed", "5"]
    assert gen_nnue_data.main([*arguments, "-o", here]) == 0
    assert gen_nnue_data.main([*arguments, "-o", there, "--cluster", cluster.address]) == 0
    assert open(there, "rb").read() == open(here, "rb").read()


def test_a_killed_runner_resumes_and_completes_the_match(cluster, local_games, tmp_path):
    journal, pgn = tmp_path / "match.journal", tmp_path / "games.pgn"
    command = [sys.executable, "-m", "engine", "match", "-engine", f"cmd={ENGINE}", "name=red-one",
               "-engine", f"cmd={ENGINE}", "name=black-one", "-each", "option.OwnBook=false", "option.Hash=16",
               "-tc", TC, "-games", str(GAMES), "-maxmoves", str(MAX_MOVES), "-cluster", cluster.address,
               "-pgnout", str(pgn), "-resume", str(journal)]
    openings = tmp_path / "openings.txt"
    openings.write_text("".join(f"{o.name} ; {' '.join(o.moves)}\n" for o in OPENINGS), encoding="utf-8")
    command += ["-openings", f"file={openings}", "format=book"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=engine_env(), cwd=tmp_path, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not journal.exists() or journal.read_text().count('"game"') < 2):
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate(timeout=10)
    played = journal.read_text().count('"game"')
    assert 2 <= played < GAMES
    again = subprocess.run(command, capture_output=True, text=True, env=engine_env(), cwd=tmp_path, timeout=120)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"Resumed from {journal}: {played} games already played" in again.stdout
    assert f"Results ({GAMES} games)" in again.stdout
    assert again.stdout.count("Finished game") == GAMES - played
    games = read_games(pgn)
    assert sorted(int(game.headers["Round"]) for game in games) == list(range(1, GAMES + 1))
    assert {int(g.headers["Round"]): (g.headers["Red"], g.result, tuple(g.moves)) for g in games} == local_games


def test_a_worker_killed_mid_match_loses_no_game_and_plays_none_twice(cluster, local_games, tmp_path):
    # Last in the file: worker "one" is killed, and started again for any test that follows.
    victim = cluster.worker_address("one")
    out = io.StringIO()
    match = Match(config(cluster=cluster.address, pgn_path=str(tmp_path / "games.pgn")), out)
    runner = threading.Thread(target=match.run)
    runner.start()
    busy = False
    with distributed.Client(cluster.address, timeout=30) as client:
        deadline = time.time() + 60
        while time.time() < deadline and not busy:
            processing = client.processing(workers=[victim])
            busy = len(match.games) >= 1 and bool(processing.get(victim))
            time.sleep(0.02)
    cluster.kill("one")
    runner.join(120)
    try:
        assert busy, "worker one never had a game to lose"
        assert not runner.is_alive()
        assert moves_by_number(match) == local_games
        assert len(match.records) == GAMES and out.getvalue().count("Finished game") == GAMES
        games = read_games(tmp_path / "games.pgn")
        assert sorted(int(game.headers["Round"]) for game in games) == list(range(1, GAMES + 1))
    finally:
        cluster.start_worker("one", extra_path=str(cluster.workdir / "bin"))

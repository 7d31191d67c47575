"""`jiangjun bench`: fixed positions to a fixed depth, deterministic node count with one thread."""
from __future__ import annotations

import subprocess
import sys

import pytest

from support import engine_env

from engine import Position, nets
from engine.netfile import read_net
from engine.server.bench import BENCH_FENS, DEFAULT_DEPTH, run_bench
from engine.cli import main


def test_positions_are_valid_and_distinct():
    assert 10 <= len(BENCH_FENS) <= 16
    assert len(set(BENCH_FENS)) == len(BENCH_FENS)
    for fen in BENCH_FENS:
        position = Position(fen)
        assert position.legal_moves() and position.outcome() is None
    assert DEFAULT_DEPTH >= 3


def test_bench_is_deterministic(capsys):
    first = run_bench(depth=3)
    second = run_bench(depth=3)
    assert first["nodes"] == second["nodes"] > 0
    assert [p["nodes"] for p in first["positions"]] == [p["nodes"] for p in second["positions"]]
    assert [p["bestmove"] for p in first["positions"]] == [p["bestmove"] for p in second["positions"]]
    assert first["nodes"] == sum(p["nodes"] for p in first["positions"])
    assert len(first["positions"]) == len(BENCH_FENS)
    assert all(p["depth"] >= 1 and p["bestmove"] for p in first["positions"])
    assert first["nps"] > 0 and first["time_ms"] > 0
    out = capsys.readouterr().out
    assert out.count(f"Total nodes: {first['nodes']}") == 2
    assert "Nodes/second: " in out and "Time: " in out


def test_deeper_searches_more_nodes():
    assert run_bench(depth=4, verbose=False)["nodes"] > run_bench(depth=2, verbose=False)["nodes"]


def test_custom_positions_and_options(capsys):
    fen = BENCH_FENS[0]
    result = run_bench(depth=2, hash_mb=1, threads=2, positions=[fen])
    assert result["threads"] == 2 and result["hash_mb"] == 1
    assert [p["fen"] for p in result["positions"]] == [fen]
    assert "Positions: 1" in capsys.readouterr().out


def test_bad_depth():
    with pytest.raises(ValueError):
        run_bench(depth=0, verbose=False)


def test_cli_bench(capsys):
    assert main(["bench", "2", "--hash", "1"]) == 0
    out = capsys.readouterr().out
    assert "Total nodes: " in out and "Nodes/second: " in out
    assert out.count("Position ") == len(BENCH_FENS)


def test_cli_bench_bad_arguments(capsys):
    assert main(["bench", "0"]) == 2
    assert "depth" in capsys.readouterr().err
    assert main(["bench", "2", "--threads", "0"]) == 2


@pytest.mark.slow
def test_cli_bench_subprocess(tmp_path):
    # By default with the shipped network (the engine's default evaluation), --hce without it.
    shipped = read_net(nets.locate(nets.DEFAULT))
    for flags, network in (([], shipped), (["--hce"], None)):
        done = subprocess.run([sys.executable, "-m", "engine", "bench", "3", *flags], capture_output=True,
                              text=True, timeout=60, cwd=tmp_path, env=engine_env())
        assert done.returncode == 0, done.stderr
        nodes = [line for line in done.stdout.splitlines() if line.startswith("Total nodes: ")]
        assert len(nodes) == 1
        assert int(nodes[0].split(": ")[1]) == run_bench(depth=3, verbose=False, network=network)["nodes"]

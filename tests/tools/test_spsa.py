"""tools/spsa.py: the SPSA schedule and step, writing values back, and a short real run of game pairs
between engine processes with perturbed search parameters."""
import random
import shutil

import pytest

import spsa  # noqa: E402


def state(iterations=100) -> spsa.SpsaState:
    return spsa.SpsaState([spsa.Tuned("rfp_margin", 110.0, 10, 500, 8.0, start=110.0),
                           spsa.Tuned("lmr_scale", 590.0, 50, 2000, 40.0, start=590.0)], iterations, "nodes=1000")


def test_the_schedule_ends_at_the_parameters_gains():
    run = state(1000)
    for param in run.params:
        assert run.c_k(param, 1000) == pytest.approx(param.c_end)
        assert run.a_k(param, 1000) / run.c_k(param, 1000) ** 2 == pytest.approx(spsa.R_END)
        assert run.c_k(param, 1) > run.c_k(param, 500) > run.c_k(param, 1000)
        assert run.a_k(param, 1) > run.a_k(param, 1000)


def test_a_step_moves_towards_the_engine_that_won_within_the_bounds():
    run = state()
    signs, plus, minus = run.perturb(1, random.Random(4))
    for param, sign in zip(run.params, signs):
        assert (plus[param.name] - minus[param.name]) * sign > 0
    run.update(1, signs, +2)       # the plus engine won both games
    for param, sign in zip(run.params, signs):
        assert (param.value - param.start) * sign > 0
    run.params[0].value, run.params[0].r_end = 11.0, 10.0    # a step far past the lower bound
    run.update(2, [-1, 1], +2)
    assert run.params[0].value == 10.0 and run.done == 2 and run.pairs == [2, 2]


def test_state_file_round_trip_and_apply(tmp_path):
    run = state()
    run.update(1, [1, -1], 1.0)
    path = tmp_path / "spsa.json"
    run.save(path)
    again = spsa.SpsaState.load(path)
    assert again == run
    params = tmp_path / "params.pxi"
    shutil.copy(spsa.PARAMS_FILE, params)
    changed = spsa.apply_defaults({"rfp_margin": 123, "lmr_scale": 590}, params)
    assert changed == ["rfp_margin: 110 -> 123"]
    assert '(RFP_MARGIN, "rfp_margin", 123, 10, 500,' in params.read_text()
    with pytest.raises(SystemExit, match="no row"):
        spsa.apply_defaults({"no_such_parameter": 1}, params)


@pytest.mark.slow
def test_a_short_run_plays_game_pairs_with_perturbed_engines(tmp_path):
    path = tmp_path / "spsa.json"
    assert spsa.main(["run", "--state", str(path), "--params", "rfp_margin", "futility_margin",
                      "--iterations", "2", "--tc", "nodes=300", "--concurrency", "2", "--max-moves", "25",
                      "--r-end", "0.01"]) == 0
    run = spsa.SpsaState.load(path)
    assert all(p.r_end == 0.01 for p in run.params)
    assert run.done == 2 and len(run.pairs) == 2 and all(-2 <= r <= 2 for r in run.pairs)
    assert all(p.minimum <= p.value <= p.maximum for p in run.params)
    assert spsa.main(["show", "--state", str(path)]) == 0


@pytest.mark.slow
def test_a_run_whose_engine_cannot_start_stops_and_counts_nothing(tmp_path):
    # Pairs that were not played must neither count as results nor use up the schedule.
    path = tmp_path / "spsa.json"
    with pytest.raises(SystemExit, match="no game pair finished in 3 batches in a row .*could not start.*"
                                         "stopped at 0 of 4 pairs"):
        spsa.main(["run", "--state", str(path), "--params", "rfp_margin", "--iterations", "4",
                   "--tc", "nodes=300", "--engine", str(tmp_path / "no-such-engine")])
    run = spsa.SpsaState.load(path)
    assert run.done == 0 and run.pairs == [] and run.params[0].value == run.params[0].start

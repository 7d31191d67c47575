"""The win/draw/loss model (engine/wdl.py) and its fitting tool (tools/fit_wdl.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine import Position, wdl
from engine.score import MATE, Score
from engine.search_types import Wdl
from support import ROOT

ENDGAME = "3k5/4a4/9/9/9/9/9/4B4/4A4/3AK1R2 w - - 0 1"


def test_material_count_is_pikafishs():
    assert wdl.material_of(Position()) == 110                       # 2 x (20 + 10 + 10 + 6 + 4 + 5)
    assert wdl.material_of(Position(ENDGAME)) == 10 + 3 + 2 * 2 + 2  # chariot, elephant, three advisors
    assert wdl.material_count("RrHhEeAaPpKk") == 2 * (10 + 5 + 3 + 2 + 1)
    assert wdl.material_scale(0) == wdl.material_scale(wdl.MATERIAL_MIN)
    assert wdl.material_scale(110) == pytest.approx(110 / wdl.MATERIAL_REFERENCE)


def test_chances_are_per_mille_symmetric_and_grow_with_the_score():
    for material in range(0, 111, 5):
        last = None
        for cp in range(-2000, 2001, 25):
            chances = wdl.chances(Score(cp), material)
            assert sum(chances) == 1000 and min(chances) >= 0, (material, cp, chances)
            assert wdl.chances(Score(-cp), material) == -chances
            if last is not None:
                assert chances.win >= last.win and chances.loss <= last.loss
            last = chances
        even = wdl.chances(Score(0), material)
        assert even.win == even.loss


def test_the_fitted_curve_is_a_sane_one():
    """a > 0 (a draw chance) and b > 0 (more score, more wins) over the whole range the model reads; an
    even score in the opening is far from a sure draw, and in a bare endgame it nearly is."""
    for material in range(wdl.MATERIAL_MIN, wdl.MATERIAL_MAX + 1):
        a, b = wdl.win_rate_params(material)
        assert a > 0 and b > 0, material
    assert wdl.chances(Score(0), 110).draw < 600
    assert wdl.chances(Score(0), 20).draw > 900
    assert wdl.chances(Score(300), 110).win > 600            # three soldiers up in the opening


def test_mates_are_certain():
    assert wdl.chances(Score(MATE - 5), 110) == Wdl(1000, 0, 0)
    assert wdl.chances(Score.mated(), 40) == Wdl(0, 0, 1000)
    assert wdl.chances(Score.from_mate(-3), 110) == Wdl(0, 0, 1000)
    assert wdl.chances(Score(30000), 110).win == 1000      # no overflow far out


def test_wdl_values():
    chances = Wdl(520, 300, 180)
    assert -chances == Wdl(180, 300, 520) and chances.pov(False) == chances and chances.pov(True) == -chances
    assert chances.text() == "W 52.0% D 30.0% L 18.0%"


# -- the fitting tool ---------------------------------------------------------------------------------

MATCH_PGN = """[Event "jiangjun match"]
[Red "jiangjun"]
[Black "other"]
[Result "1-0"]

1. h2e2 {book} 1... h9g7 {+0.12/5 0.1s} 2. h0g2 {+0.35/8 0.2s} 2... i9h9 {-0.20/6 0.1s}
3. i0h0 {+M3/9 0.1s} 3... b9c7 {+12.50/9 0.1s} 4. b0c2 {-0.40/9 0.3s} 1-0

[Event "jiangjun match"]
[Red "jiangjun 0.1.0 (aaaaaaa)"]
[Black "jiangjun 0.1.0 (bbbbbbb)"]
[Result "1/2-1/2"]

1. h2e2 {+0.20/9 0.1s} 1... h9g7 {-0.10/9 0.1s} 1/2-1/2

[Event "unfinished"]
[Red "jiangjun"]
[Black "other"]
[Result "*"]

1. h2e2 {+0.20/9 0.1s} *
"""


@pytest.fixture
def fit_wdl():
    pytest.importorskip("numpy")
    pytest.importorskip("scipy")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import fit_wdl
        yield fit_wdl
    finally:
        sys.path.remove(str(ROOT / "tools"))


def test_the_tool_reads_jiangjuns_scored_moves(fit_wdl, tmp_path):
    """jiangjun's moves only (both sides between two builds), after the book, no mates, nothing beyond
    MAX_CP, no unfinished game; the score is the mover's, the result the mover's, the material that of
    the position searched."""
    path = tmp_path / "games.pgn"
    path.write_text(MATCH_PGN)
    samples = fit_wdl.collect([path])
    assert list(samples.score) == [35, -40, 20, -10]
    assert list(samples.result) == [1, 1, 0, 0]
    assert list(samples.material) == [110, 110, 110, 110]
    assert list(samples.group) == ["games.pgn", "games.pgn", fit_wdl.SELF_PLAY, fit_wdl.SELF_PLAY]


def test_the_tool_uses_the_models_formula(fit_wdl):
    np = pytest.importorskip("numpy")
    for material in (20, 47, 80, 110):
        a, b = wdl.win_rate_params(material)
        for cp in (-400, -60, 0, 90, 500):
            chances = wdl.chances(Score(cp), material)
            p = fit_wdl.probabilities(np.array([float(cp)]), np.array([a]), np.array([b]))[0]
            assert np.allclose(1000 * p, chances, atol=1.0), (material, cp)   # each rounded; the draw the rest


def test_the_fit_finds_a_known_model_and_an_opponents_shift(fit_wdl):
    """Results drawn from a known curve (a 250 + 100 m, b 120), half of them against an opponent 80 cp
    weaker, come back: the curve, and the shift."""
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(7)
    n = 12000
    material = rng.integers(20, 111, n)
    score = rng.normal(0, 250, n).round()
    group = np.where(rng.random(n) < 0.5, fit_wdl.SELF_PLAY, "weaker.pgn")
    m = np.array([wdl.material_scale(int(x)) for x in material])
    true_a, true_b = 250 + 100 * m, np.full(n, 120.0)
    p = fit_wdl.probabilities(score + np.where(group == "weaker.pgn", 80.0, 0.0), true_a, true_b)
    draw = rng.random(n)
    result = np.where(draw < p[:, 0], 1, np.where(draw < p[:, 0] + p[:, 1], 0, -1))
    samples = fit_wdl.Samples(score, material, result, group)
    model = fit_wdl.fit_model(samples, fit_wdl.fit_buckets(samples))
    for x in (0.5, 1.0, 1.5):
        assert np.polyval(model.a, x) == pytest.approx(250 + 100 * x, abs=30)
        assert np.polyval(model.b, x) == pytest.approx(120, abs=25)
    assert model.shifts["weaker.pgn"] == pytest.approx(80, abs=25)
    table = fit_wdl.calibration(samples, model, shifted=True)
    assert table[0].startswith("| material |") and len(table) > 10


@pytest.mark.slow
def test_the_tool_writes_the_coefficients_between_the_markers(fit_wdl, tmp_path):
    np = pytest.importorskip("numpy")
    target = tmp_path / "wdl.py"
    target.write_text((ROOT / "engine" / "wdl.py").read_text())
    model = fit_wdl.Model(np.array([1.0, 2.0, 3.0, 4.0]), np.array([5.0, 6.0, 7.0, 8.0]), {})
    fit_wdl.write(target, fit_wdl.coefficient_block(model, [Path("benchmarks/matches/x.pgn.xz")], 12))
    text = target.read_text()
    namespace: dict = {}
    start, end = text.index("# BEGIN fitted"), text.index("# END fitted")
    exec(text[start:end], namespace)
    assert namespace["A_COEFFICIENTS"] == (1.0, 2.0, 3.0, 4.0)
    assert namespace["B_COEFFICIENTS"] == (5.0, 6.0, 7.0, 8.0)
    assert "benchmarks/matches/x.pgn.xz" in text and "12 moves" in text
    assert text.count("A_COEFFICIENTS = ") == 1

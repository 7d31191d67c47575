"""engine.web.review: a whole game judged by the tab's engine (jiangjun in process), one graph point a move,
and stopped when the game changes under it."""
from __future__ import annotations

import pytest

from engine import START_FEN
from engine.web.review import ReviewCancelled, review
from engine.web.seat import EngineSpec

#: 炮五进四?? gives the central cannon for a soldier (马7进5 takes it).
BLUNDER_GAME = ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6", "g7e6", "b0c2"]


def test_the_points_of_the_graph_and_the_summary():
    points = []
    summary = review(EngineSpec.builtin(), START_FEN, BLUNDER_GAME, 150, points.append, lambda: False)
    assert [point["ply"] for point in points] == list(range(len(BLUNDER_GAME) + 1))
    blunder = points[5]
    assert blunder["mark"] == "??" and blunder["classification"] == "blunder" and blunder["best"]
    assert summary["red"]["blunders"] == 1 and summary["opening"]


def test_a_game_changed_under_the_review_cancels_it():
    points = []
    with pytest.raises(ReviewCancelled):
        review(EngineSpec.builtin(), START_FEN, BLUNDER_GAME, 50, points.append, lambda: len(points) >= 2)
    assert len(points) == 2

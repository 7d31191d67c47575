"""CECP (the XBoard protocol) scores on the wire, written by the engine (engine.server.cecp_codec's thinking
output) and read by the interface (engine.client.cecp_codec):

    xboard_score(Score.from_mate(3))     # 100003
    xboard_to_score(-100002)             # Score.from_mate(-2): being mated in 2 moves

Scores are centipawns from the engine's side; a mate in N moves is +(100000 + N), being mated in N moves
-(100000 + N) (engine-intf.html, section 10).
"""
from __future__ import annotations

from ..score import Score

#: The offset of a mate score: 100000 + N for "mate in N moves", -100000 - N for "mated in N".
XBOARD_MATE = 100_000


def xboard_score(score: Score) -> int:
    """Centipawns, or ±(100000 + N) for a mate in N moves (negative: being mated)."""
    if not score.is_mate:
        return score.value
    moves = score.mate or 0
    return XBOARD_MATE + moves if score.value > 0 else -XBOARD_MATE - abs(moves)


def xboard_to_score(value: int) -> Score:
    """A CECP score: centipawns, or ±(100000 + N) for a mate in N moves (negative: being mated)."""
    if abs(value) >= XBOARD_MATE:
        moves = abs(value) - XBOARD_MATE
        return Score.from_mate(moves if value > 0 else -moves)
    return Score.from_cp(value)

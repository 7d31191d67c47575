"""jiangjun (将军): a Xiangqi engine with a Cython core.

The rules library::

    from engine import Position, START_FEN
    p = Position()
    p.push("h2e2")
    p.legal_moves(), p.is_check(), p.outcome(), p.perft(3)
"""
from .color import Color
from .errors import IllegalMoveError, InvalidFenError
from .fen import START_FEN
from .outcome import Outcome, Termination
from .position import Position
from .version import __version__

__all__ = ["Position", "START_FEN", "Color", "Outcome", "Termination", "InvalidFenError", "IllegalMoveError"]

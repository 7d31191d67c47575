"""Exceptions raised by the jiangjun library. Each one is a ValueError, so callers that only want to
reject bad input can catch ValueError; the messages say what was wrong and how to fix it."""


class InvalidFenError(ValueError):
    """A FEN string that does not describe a legal Xiangqi position."""


class IllegalMoveError(ValueError):
    """A move that is malformed, or not legal in the position it was given for."""

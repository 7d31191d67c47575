"""jiangjun (将军): a Xiangqi engine with a Cython core.

The rules library::

    from engine import Position, START_FEN
    p = Position()
    p.push("h2e2")
    p.legal_moves(), p.is_check(), p.outcome(), p.perft(3)

The names below are imported on first use (PEP 562), so that `python -m engine` loads only what the
command it runs needs: the protocol's handshake answers before the kernel and the rules are loaded.
"""
from __future__ import annotations

import importlib

from .version import __version__

#: Each public name and the module that defines it.
_EXPORTS = {
    "Position": "position",
    "START_FEN": "fen",
    "Color": "color",
    "Outcome": "outcome",
    "Termination": "outcome",
    "InvalidFenError": "errors",
    "IllegalMoveError": "errors",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value   # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])

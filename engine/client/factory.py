"""The one way to make an engine process: :func:`open_process`, which picks the conversation of the config's
protocol.

    with open_process(EngineConfig("/usr/games/fairy-stockfish", proto="ucci")) as engine:   # a UciProcess
        ...
    with open_process(EngineConfig.in_process()) as engine:     # jiangjun on a thread of this process, UCI
        ...

A plain function above the conversations (:mod:`.process`, :mod:`.cecp`), which build on the interface
(:mod:`.base`): nothing below imports it, so there is no circle.
"""
from __future__ import annotations

from .base import EngineProcess
from .cecp import CecpProcess
from .process import UciProcess
from .values import PROTOCOLS, EngineConfig, canonical_protocol


def open_process(config: EngineConfig) -> EngineProcess:
    """The process of `config`'s protocol, not yet started (``start()``, or ``with``): a CecpProcess for XBoard
    (CECP), a UciProcess for UCI, UCCI and ``auto``. ValueError for an unknown protocol."""
    if config.proto not in PROTOCOLS:
        raise ValueError(f"protocol {config.proto!r}: expected one of {', '.join(PROTOCOLS)}")
    if canonical_protocol(config.proto) == "xboard":
        return CecpProcess(config)
    return UciProcess(config)

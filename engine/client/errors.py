"""How an external engine can fail, as exception classes that callers catch by type.

    try:
        result = process.go(...)
    except EngineTimeout as exc:    # no answer in time; exc.result holds a late answer to `stop`, if any
        ...
    except EngineError:             # any other failure: EngineCrashed, EngineProtocolError, EngineOptionError
        ...

``str(error)`` is one line; ``details`` holds the last lines exchanged and the engine's last stderr lines.

Ctrl-C while a search is waited for is not an engine's failure: ``go`` asks the engine to stop and raises
:class:`SearchInterrupted`, a KeyboardInterrupt (so that whatever stops on Ctrl-C still stops) carrying the
engine's answer to the request to stop:

    try:
        result = engine.play(position, limits)
    except SearchInterrupted as exc:
        result = exc.result             # what the engine had found (None: it did not answer in time)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ..search_types import SearchResult


class EngineError(Exception):
    """An external engine failed. The base of the three ways it can."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


class EngineCrashed(EngineError):
    """The engine exited or closed its output, or could not be started."""


class EngineTimeout(EngineError):
    """The engine did not answer in time. ``result`` is its late answer when it still answered ``stop``."""

    def __init__(self, message: str, details: str = "", result: Optional["SearchResult"] = None) -> None:
        super().__init__(message, details)
        self.result = result


class EngineProtocolError(EngineError):
    """The engine answered with something unusable: output, but never the handshake's `ok`; no
    `variants="xiangqi"` from an XBoard engine; a move of the game refused as illegal."""


class EngineOptionError(EngineError, ValueError):
    """An option the engine cannot take: a name it did not declare (when the caller asked for declared
    names only), or a value outside the range or choices it declared. Nothing was sent. ``option`` is the
    name as given."""

    def __init__(self, message: str, option: str = "") -> None:
        super().__init__(message)
        self.option = option


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C came while a search was waited for. The engine was asked to stop; ``result`` is its answer (a
    SearchResult), or None when none came within the grace (the process is then resynchronised before its
    next command)."""

    def __init__(self, result: Optional["SearchResult"] = None) -> None:
        super().__init__()
        self.result = result

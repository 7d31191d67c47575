"""The endgame tables for the page: the exact value and the best moves of the position a tab shows, looked up
as `jiangjun analyze` looks them up (engine.analyze.tables: engine.tablebase in the server's process, no
engine needed), in the page's two languages (engine.tablebase.describe's words).

The page asks ``{"type": "tablebase", "fen": FEN}`` for the position it shows (the game's last one while
playing or analysing, an earlier one while playing through or reviewing); the answer is a ``tablebase``
message with the FEN as asked, the value (null when the tables do not hold the position), its line in each
language, and the best moves. The FEN is checked as a new game's is: a bad one is refused with the same
message. The tables are shared by the tabs, one look at a time (a table file's block cache is not meant for
threads). A damaged table file is said once in the server's log, and the positions it would hold get null.
"""
from __future__ import annotations

import logging
import threading
from typing import Sequence

from ..analyze.tables import Tables
from ..errors import InvalidFenError
from ..notation import to_chinese, to_wxf
from ..position import Position
from ..tablebase.describe import LANGUAGES, tb_text, value_json
from .game import WebInputError

logger = logging.getLogger(__name__)
#: The table's best moves shown for a position, best first.
SHOWN_MOVES = 5


class TableSource:
    """The tables the server reads: those of the folders given, then the shipped ones (none when disabled).
    Raises engine.analyze.AnalyzeError for a path that is neither a folder nor a table file."""

    def __init__(self, paths: Sequence[str] = (), enabled: bool = True) -> None:
        self._tables = Tables.open(paths, enabled, lambda text: logger.warning("jiangjun web: %s", text),
                                   SHOWN_MOVES)
        self._lock = threading.Lock()

    def answer(self, fen: str) -> dict:
        """The ``tablebase`` message for the position of `fen`. Raises WebInputError for a bad FEN."""
        try:
            position = Position(fen)
        except InvalidFenError as exc:
            raise WebInputError(f"bad FEN: {exc}") from None
        with self._lock:
            look = self._tables.look_up(position)
        if look is None:
            return {"type": "tablebase", "fen": fen, "value": None, "line": None, "moves": []}
        turn = look.turn
        return {
            "type": "tablebase", "fen": fen,
            "value": value_json(look.value, turn),
            "line": {language: tb_text(look.value, turn, language) for language in LANGUAGES},
            "moves": [{"iccs": move, "chinese": to_chinese(position, move), "wxf": to_wxf(position, move),
                       **value_json(after, turn)} for move, after in look.moves],
        }

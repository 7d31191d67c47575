"""The endgame tables beside the engine's lines: for each analysed position that the tables hold, its exact
value and the table's best moves (engine.tablebase; the words are engine.tablebase.describe's, written out by
:mod:`.report`).

The tables read are those of the folders or files of ``--tables``, then the tables shipped in the package;
``--no-tables`` reads none. A position the tables do not hold (a material without a table, a piece where no
table has a point) shows nothing. A damaged table file is said once, in one warning line, and the analysis goes
on without it; a sub-table missing for the moves leaves the position's value alone. The browser board
(engine.web.tables) looks up its positions here too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence

from ..color import Color
from ..position import Position
from ..tablebase import DamagedTableError, Tablebase, TablebaseError, TableValue, open_tablebase
from .errors import AnalyzeError

#: The table's best moves shown for a position, best first.
SHOWN_MOVES = 3


@dataclass(frozen=True)
class TableLook:
    """What the tables say of one position: its value for the side to move, and its best moves with their
    values for the mover (at most SHOWN_MOVES; none when a table they lead to is missing or damaged)."""

    fen: str
    turn: Color
    value: TableValue
    moves: tuple[tuple[str, TableValue], ...] = ()

    @property
    def position(self) -> Position:
        return Position(self.fen)


class Tables:
    """The tables of a run (none with --no-tables), looked up position by position, with the `shown` best
    moves of each; `warn` is told of each damaged table file once."""

    def __init__(self, tablebase: Optional[Tablebase], warn: Callable[[str], None],
                 shown: int = SHOWN_MOVES) -> None:
        self._tablebase = tablebase
        self._warn = warn
        self._shown = shown
        self._warned: set[str] = set()

    @classmethod
    def open(cls, paths: Sequence[str], enabled: bool, warn: Callable[[str], None],
             shown: int = SHOWN_MOVES) -> "Tables":
        """The folders or files `paths`, then the shipped tables; nothing when not `enabled`. Raises
        AnalyzeError for a path that is neither a folder nor a table file."""
        if not enabled:
            return cls(None, warn, shown)
        try:
            return cls(open_tablebase(list(paths)), warn, shown)
        except TablebaseError as exc:
            raise AnalyzeError(f"--tables: {exc}") from None

    @property
    def enabled(self) -> bool:
        return self._tablebase is not None

    def look_up(self, position: Position) -> Optional[TableLook]:
        """The tables' value and best moves of `position`, or None when they do not hold it."""
        tablebase = self._tablebase
        if tablebase is None:
            return None
        try:
            value = tablebase.probe(position)
        except DamagedTableError as exc:
            self._damaged(exc)
            return None
        except TablebaseError:            # outside the tables: no table of its material, or no point for a piece
            return None
        moves: Iterable[tuple[str, TableValue]] = ()
        try:
            moves = tablebase.best_moves(position)[:self._shown]
        except DamagedTableError as exc:
            self._damaged(exc)
        except TablebaseError:            # a sub-table the moves lead to is missing: the value alone
            pass
        return TableLook(position.fen(), position.turn, value, tuple(moves))

    def _damaged(self, exc: DamagedTableError) -> None:
        text = str(exc)
        if text not in self._warned:
            self._warned.add(text)
            self._warn(f"tablebase: {text}")

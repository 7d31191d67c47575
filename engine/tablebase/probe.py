"""Probing tables: the value of a position and of each of its moves.

    >>> from engine import Position
    >>> from engine.tablebase import open_tablebase
    >>> tb = open_tablebase("tables")          # that folder, then the tables shipped in the package
    >>> tb.probe_wdl(Position("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"))
    <Wdl.WIN: 1>
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Union

from .. import _core
from .._core import TB_NATURAL_LIMIT
from ..position import Position
from .build import new_table
from .errors import MissingTableError, OutsideTableError
from .fileformat import SUFFIX, TableFile
from .material import Material
from .shipped import SHIPPED_DIRECTORY
from .values import ILLEGAL_ENTRY, TableValue, Wdl

PathLike = Union[str, os.PathLike]


class Tablebase:
    """The tables found in some folders (or files), opened when first needed."""

    def __init__(self, paths: Iterable[PathLike]) -> None:
        self._paths: dict[str, Path] = {}
        for path in map(Path, paths):
            if path.is_dir():
                for file in sorted(path.glob(f"*{SUFFIX}")):
                    self._paths.setdefault(file.name[:-len(SUFFIX)], file)
            elif path.suffix == SUFFIX:
                self._paths.setdefault(path.name[:-len(SUFFIX)], path)
            else:
                raise MissingTableError(f"{path}: neither a folder nor a {SUFFIX} file")
        self._open: dict[str, tuple["_core.TbTable", TableFile]] = {}

    @classmethod
    def of_loaded(cls, tables: dict[str, "_core.TbTable"]) -> "Tablebase":
        """The tables already read whole into memory (build.load_table), by name: nothing is read again."""
        tablebase = cls(())
        tablebase._open = {name: (table, _LoadedValues(table)) for name, table in tables.items()}
        return tablebase

    @property
    def endings(self) -> list[str]:
        """The names of the tables found."""
        return sorted(self._paths.keys() | self._open.keys())

    def _table(self, material: Material) -> tuple["_core.TbTable", TableFile]:
        """The index and the file of a canonical material's table, opened once."""
        name = material.name
        if name not in self._open:
            if name not in self._paths:
                raise MissingTableError(f"no {name} table in the tablebase folders")
            index = new_table(material)
            self._open[name] = (index, TableFile(self._paths[name], expected_entries=index.size))
        return self._open[name]

    def probe(self, position: Position) -> TableValue:
        """The position's value for its side to move. Raises OutsideTableError, MissingTableError,
        DamagedTableError."""
        board = position.kernel_board
        material, flipped = Material.of_pieces(board.pieces()).canonical()
        if not material.has_attackers:
            return TableValue(Wdl.LOSS, 0, dtc=0) if not board.legal_moves() else TableValue(Wdl.DRAW, None)
        index, source = self._table(material)
        found = index.index_of(board, flipped)
        if found is None:
            raise OutsideTableError(f"{position.fen()}: a piece stands where the {material.name} index has no point")
        entry = source.value(found[1], found[0])
        if entry == ILLEGAL_ENTRY:
            raise OutsideTableError(f"{position.fen()}: illegal by the table (the side not to move in check)")
        return TableValue.of_entry(entry, flipped, source.dtc(found[1], found[0]))

    def probe_wdl(self, position: Position) -> Wdl:
        """Win, draw or loss for the side to move."""
        return self.probe(position).wdl

    def probe_dtm(self, position: Position):
        """Signed plies to mate for the side to move (+n: mates in n, -n: mated in n, 0: no legal move),
        None when drawn, or when the result is decided through a perpetual check/chase ruling (probe() gives
        its order and the plies to the ruling)."""
        return self.probe(position).dtm

    def best_moves(self, position: Position) -> list[tuple[str, TableValue]]:
        """Every legal move with its value for the mover, best first: the quickest win, then the draws (those
        the opponent might be forced to hold by checking or chasing first, those the mover might last),
        then the slowest loss. The natural limit as the position's counter stands comes first
        (TableValue.rank): the quickest mate before it, else the soonest capture before it, else the
        quickest mate; the loser's moves that leave the winner neither, then the slowest loss."""
        board = position.kernel_board
        mover = board.side
        men = len(board.pieces())
        plies_left = TB_NATURAL_LIMIT - position.halfmove_clock
        scored = []
        for move in position.legal_moves():
            after = position.copy()
            after.push(move)
            capture = len(after.kernel_board.pieces()) < men
            scored.append((move, self.probe(after).after_move(capture)))

        def order(item: tuple[str, TableValue]) -> tuple[int, ...]:
            value = item[1]
            risk = 2 if mover in value.at_risk else (0 if value.at_risk else 1)
            return value.rank(plies_left) + (risk,)

        scored.sort(key=order)
        return scored


class _LoadedValues:
    """A table's values in memory, read as a TableFile's are."""

    def __init__(self, table: "_core.TbTable") -> None:
        self._table = table

    def value(self, side: int, index: int) -> int:
        return self._table.value(index, side)

    def dtc(self, side: int, index: int) -> int:
        return self._table.dtc(index, side)


def open_tablebase(paths: Union[PathLike, Iterable[PathLike]] = (), shipped: bool = True) -> Tablebase:
    """The tables in a folder, a file, or a list of them, then (unless shipped is false) the tables shipped
    in the package. A table found in several places is read from the first."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = list(paths)
    if shipped and SHIPPED_DIRECTORY.is_dir():
        paths.append(SHIPPED_DIRECTORY)
    return Tablebase(paths)

"""Xiangqi endgame tablebases: exact values (win/draw/loss and distance to mate in plies) of endings,
generated here by retrograde analysis in the kernel (ext/tb*.pxi). docs/tablebases.md says what the tables
assume (perpetual check and chase are decided inside them where a sound rule can; a draw a ruling might still
change is marked), the file format, and the figures.

    >>> from engine.tablebase import build_tables, open_tablebase
    >>> build_tables(["KRKA"], "tables")
    >>> tb = open_tablebase("tables")
    >>> tb.probe_wdl(position), tb.probe_dtm(position), tb.best_moves(position)
    >>> tb_text(tb.probe(position), position.turn, "zh")       # 'TB: 红胜，19步杀' (engine.tablebase.describe)
"""
from .build import BuildReport, build_tables
from .describe import tb_text
from .errors import DamagedTableError, MissingTableError, OutsideTableError, TablebaseError, UnknownEndingError
from .material import Material, canonical_name
from .probe import Tablebase, open_tablebase
from .shipped import SHIPPED_DIRECTORY, shipped_names
from .values import TableValue, Wdl, table_score

__all__ = [
    "BuildReport", "DamagedTableError", "SHIPPED_DIRECTORY", "Material", "MissingTableError", "OutsideTableError", "TableValue",
    "Tablebase", "TablebaseError", "UnknownEndingError", "Wdl", "build_tables", "canonical_name",
    "open_tablebase", "shipped_names", "table_score", "tb_text",
]

"""The errors of engine.tablebase. Each is a TablebaseError (a ValueError), so a caller can catch them all."""


class TablebaseError(ValueError):
    """Something the tablebases cannot answer or read."""


class UnknownEndingError(TablebaseError):
    """An ending name or material that is not a valid table (a typo, too many pieces of a kind, no general)."""


class OutsideTableError(TablebaseError):
    """A position whose material no open table covers, or that no table can hold (a piece off its points)."""


class MissingTableError(TablebaseError):
    """A table that is needed (to probe, or as a sub-table while building) but is not on disk."""


class DamagedTableError(TablebaseError):
    """A table file that is truncated, corrupted, of another format or version, or of other rules."""

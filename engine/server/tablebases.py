"""The engine's endgame tables: the folders of the option TablebasePath (several separated by ';', as
Stockfish's SyzygyPath), then the tables shipped in the package (engine.tablebase.SHIPPED_DIRECTORY);
and what they say at the root of a search (root_choice), which the facade plays or searches within.

Every table found is read whole into memory, once, for the search (engine._core.ProbeTables, probed
without the GIL after captures) and for the choice at the root (engine.tablebase.Tablebase.best_moves).
They are read when the option changes, or at the first `isready` or `go` after, never during a search;
the shipped set (36 tables, 25 MB in memory) takes 0.2 to 0.7 s. A folder that cannot be read and a
file that is damaged or not a table are skipped, and the summary says so; the rest is used.

    loader = TablebaseLoader(path="", enabled=True)
    loader.ensure()              # reads them (True: read now)
    loader.tables.probe          # the ProbeTables the searcher is given
    loader.summary()             # 'tablebases: 36 tables (up to 7 pieces) from the shipped set'
    root_choice(loader.tables, position, moves)   # RootChoice(ending='KRKA', ranked=(...), play=True)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from .._core import ProbeTables
from ..position import Position
from ..tablebase import SHIPPED_DIRECTORY, Material, TableValue, Tablebase, TablebaseError, Wdl
from ..tablebase.build import load_table
from ..tablebase.fileformat import SUFFIX

#: What separates the folders of TablebasePath.
PATH_SEPARATOR = ";"


@dataclass(frozen=True)
class LoadedTables:
    """The tables read: for the search (probe), for the root's choice (library), by name."""

    probe: ProbeTables
    library: Tablebase
    names: tuple[str, ...]
    sources: tuple[str, ...]         # the folders they came from, in words


def folders_of(path_option: str) -> list[str]:
    """The folders TablebasePath names, in order (empty parts left out)."""
    return [part.strip() for part in path_option.split(PATH_SEPARATOR) if part.strip()]


class TablebaseLoader:
    """Reads the tables of TablebasePath (and the shipped ones) when first needed after a change."""

    def __init__(self, path: str, enabled: bool) -> None:
        self._path = path
        self._enabled = enabled
        self._pending = True
        self._asked = False              # the last change came from an option: announce the result
        self._tables: Optional[LoadedTables] = None
        self._problems: list[str] = []

    def select(self, path: str, enabled: bool) -> None:
        """The options changed: read the tables again at the next ensure()."""
        self._path, self._enabled = path, enabled
        self._pending = self._asked = True

    @property
    def pending(self) -> bool:
        return self._pending

    @property
    def tables(self) -> Optional[LoadedTables]:
        """The tables in use, None when they are off or none was found (read them first: ensure)."""
        return self._tables if self._enabled else None

    def ensure(self) -> bool:
        """Read the tables if a change is pending (never call it during a search). Returns whether they
        were read now and the user should hear of it: asked for by an option, or something was skipped."""
        if not self._pending:
            return False
        self._pending = False
        self._tables, self._problems = None, []
        if self._enabled:
            self._tables = self._read()
        asked, self._asked = self._asked, False
        return asked or bool(self._problems)

    def _read(self) -> Optional[LoadedTables]:
        """1. Find the files, the first folder's first; 2. the same files read last time by any engine of
        the process are shared (they are only read); 3. else read each whole."""
        files = self._find_files()
        key = _files_key(files)
        if key not in _LAST_READ:
            _LAST_READ.clear()
            _LAST_READ[key] = _read_files(files)
        tables, problems = _LAST_READ[key]
        self._problems.extend(problems)
        return tables

    def _find_files(self) -> dict[str, list[Path]]:
        """Each table's files by its name, the first folder's first (a damaged one gives way to the next)."""
        found: dict[str, list[Path]] = {}
        for folder in [*folders_of(self._path), str(SHIPPED_DIRECTORY)]:
            files = _table_files(Path(folder))
            if files is None:
                self._problems.append(f"{folder} is not a folder that can be read")
                continue
            for file in files:
                name = file.name[:-len(SUFFIX)]
                if _is_table_name(name):
                    found.setdefault(name, []).append(file)
                else:
                    self._problems.append(f"{file}: not named as a table is (KRKAABB.jjtb)")
        return found

    def summary(self) -> str:
        """What is in use, in words (one `info string` line)."""
        if not self._enabled:
            return "tablebases off (UseTablebase false)"
        if self._pending:
            return "tablebases: read when the engine is next idle (isready or go)"
        skipped = f"; skipped: {'; '.join(self._problems)}" if self._problems else ""
        if self._tables is None:
            return f"tablebases: none found{skipped}"
        tables = self._tables
        return (f"tablebases: {len(tables.names)} tables (up to {tables.probe.max_pieces} pieces) from "
                f"{', '.join(tables.sources)}{skipped}")


#: The files read last (by their names, sizes and times) and what was read: one entry.
_LAST_READ: dict[tuple, tuple[Optional[LoadedTables], list[str]]] = {}


def _files_key(files: dict[str, list[Path]]) -> tuple:
    """What tells the same files apart from changed ones."""
    key = []
    for file in (file for candidates in files.values() for file in candidates):
        try:
            stat = file.stat()
        except OSError:
            return (object(),)      # never equal: read again (and fail there)
        key.append((str(file), stat.st_size, stat.st_mtime_ns))
    return tuple(key)


def _read_files(files: dict[str, list[Path]]) -> tuple[Optional[LoadedTables], list[str]]:
    """Each table read whole (engine.tablebase.build.load_table) from the first of its files that can be
    read, and what could not be; the search's store and the library over the same tables in memory."""
    tables, good, problems = {}, [], []
    for name, candidates in files.items():
        for file in candidates:
            try:
                tables[name] = load_table(file, Material.parse(name))
            except (TablebaseError, OSError) as exc:
                problems.append(str(exc) if str(file) in str(exc) else f"{file}: {exc}")
                continue
            except MemoryError:
                problems.append(f"{file}: not enough memory to read it")
                continue
            good.append(file)
            break
    if not tables:
        return None, problems
    sources = tuple(dict.fromkeys("the shipped set" if f.parent == SHIPPED_DIRECTORY else str(f.parent)
                                  for f in good))
    return LoadedTables(ProbeTables(tables.values()), Tablebase.of_loaded(tables), tuple(tables), sources), problems


def _table_files(folder: Path) -> Optional[list[Path]]:
    """The table files of a folder, None when it is no folder or cannot be read."""
    try:
        return sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else None
    except OSError:
        return None


def _is_table_name(name: str) -> bool:
    """Whether a file's name is an ending's canonical name, as the tables are written."""
    try:
        return Material.parse(name).canonical()[0].name == name
    except TablebaseError:
        return False


@dataclass(frozen=True)
class RootChoice:
    """What the tables say at the root, among the moves a `go` allows: play the first of `ranked` (a win,
    or the slowest loss), or search among `ranked` (the moves that keep a draw)."""

    ending: str                                      # the root's table, KRKA
    ranked: tuple[tuple[str, TableValue], ...]       # moves and their values for the mover, best first
    play: bool

    @property
    def moves(self) -> tuple[str, ...]:
        return tuple(move for move, _ in self.ranked)


def root_choice(tables: LoadedTables, position: Position, moves: Sequence[str]) -> Optional[RootChoice]:
    """The tables' answer at the root among `moves`, None when they have none (the search answers alone).

    1. The root must have a sure value by the kernel's probe, the search's own reading of an entry. That
       probe does not trust a win or loss whose mate and next capture both come after the natural limit,
       as the position's counter stands: the limit may draw it, and the search, which applies the limit,
       decides instead.
    2. Each allowed move's value (the library's best_moves), best first: the quickest win that the limit
       cannot draw (a mate before it, else a capture before it), the draws (those the opponent might have
       to hold by checking or chasing first), the slowest loss.
    3. A win or a loss is played when its successor is sure as well (the limit again); a draw restricts
       the search to the moves that keep a draw the mover is not at risk of losing by the rulings."""
    board = position.kernel_board
    if tables.probe.probe(board) is None:
        return None
    try:
        ranked = tuple((move, value) for move, value in tables.library.best_moves(position) if move in moves)
    except ValueError:          # a successor's table missing or damaged (TablebaseError), or an entry unread
        return None
    if not ranked:
        return None
    ending = Material.of_pieces(board.pieces()).canonical()[0].name
    move, value = ranked[0]
    if value.wdl is Wdl.DRAW:
        drawing = tuple((m, v) for m, v in ranked if v.wdl is Wdl.DRAW and board.side not in v.at_risk)
        return RootChoice(ending, drawing, play=False) if drawing else None
    after = board.copy()
    after.push(move)
    return RootChoice(ending, ranked, play=True) if tables.probe.probe(after) is not None else None


def table_reply(tables: LoadedTables, position: Position, move: str) -> Optional[str]:
    """The tables' best answer to `move` (the ponder move), None when there is none."""
    after = position.copy()
    after.push(move)
    try:
        replies = tables.library.best_moves(after)
    except ValueError:
        return None
    return replies[0][0] if replies else None

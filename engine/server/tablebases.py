"""The engine's endgame tables: the folders of the option TablebasePath (several separated by ';', as
Stockfish's SyzygyPath), then the tables shipped in the package (engine.tablebase.SHIPPED_DIRECTORY);
and what they say at the root of a search (root_choice), which the facade plays or searches within.

The folders are listed when the options change, or at the first `isready` or `go` after, never during a
search. A table is read whole into memory when a search's root first needs it (tables_for): those whose
material captures can lead to from the root's with at most REACH men taken, the closest first, within
MEMORY_BUDGET bytes; a set of thousands of tables on disk is so read a few at a time. What is read serves
the search (engine._core.ProbeTables, probed without the GIL after captures) and the choice at the root
(engine.tablebase.Tablebase.best_moves), and stays read while the next roots need it. Small files (the
shipped tables an ending needs: a few hundredths to a few tenths of a second) are read at the `go` that
needs them when a quarter of its hard limit allows (a move on a nearly empty clock must not wait for
them: it would lose on time); larger ones, and small ones the move has no time for, in a background
thread, used from the first `go` after they are read, so that reading does not eat a move's time; but
the root's own table and those its captures lead to are read at the `go` itself when the move's time
allows (tables_for's `seconds`), so that a position set up inside a large table is played by it from the
first move. A folder that cannot be read and a file that is damaged or not a table are skipped, and the
summary says so; the rest is used.

    loader = TablebaseLoader(path="", enabled=True)
    loader.ensure()              # lists them (True: the user should hear of it)
    tables = loader.tables_for(position)    # LoadedTables, None when none is needed
    tables.probe                 # the ProbeTables the searcher is given
    loader.summary()             # 'tablebases: 196 tables found (up to 8 pieces) in the shipped set; ...'
    root_choice(tables, position, moves)   # RootChoice(ending='KRKA', ranked=(...), play=True)
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from .._core import ProbeTables
from ..position import Position
from ..tablebase import SHIPPED_DIRECTORY, Material, TableValue, Tablebase, TablebaseError, Wdl
from ..tablebase.build import index_size, load_table
from ..tablebase.fileformat import SUFFIX

#: What separates the folders of TablebasePath.
PATH_SEPARATOR = ";"
#: The men captures may take from the root's material to a table read for its search: the search probes
#: only after captures, and rarely five deep.
REACH = 4
#: The memory the tables read for one root may take (bytes), LOADED_BYTES_PER_ENTRY per entry (values and
#: distances to conversion): a large table of the set takes up to 1 GB.
MEMORY_BUDGET = 2**30
LOADED_BYTES_PER_ENTRY = 6
#: Tables whose files take at most this many bytes in all are read at once, inside the `go` that needs
#: them, when its time allows (the shipped ones an ending needs: a few hundredths to a few tenths of a
#: second); larger ones in the background, for the roots after it, so that reading never eats a move's time.
READ_AT_ONCE_BYTES = 4 * 2**20
#: Reading a table file takes about this long per byte (LZMA and the arrays: KNPKAABB's 25 tables, 52 MB of
#: files, 4.8 s): the estimate by which the root's own tables are read at once when the move has the time.
READ_SECONDS_PER_BYTE = 0.1 / 2**20


@dataclass(frozen=True)
class LoadedTables:
    """The tables read for a root: for the search (probe), for the root's choice (library), by name."""

    probe: ProbeTables
    library: Tablebase
    names: tuple[str, ...]


def folders_of(path_option: str) -> list[str]:
    """The folders TablebasePath names, in order (empty parts left out)."""
    return [part.strip() for part in path_option.split(PATH_SEPARATOR) if part.strip()]


class TablebaseLoader:
    """Lists the tables of TablebasePath (and the shipped ones) when first needed after a change, and reads
    those a root needs (tables_for)."""

    def __init__(self, path: str, enabled: bool) -> None:
        self._path = path
        self._enabled = enabled
        self._pending = True
        self._asked = False              # the last change came from an option: announce the result
        self._files: dict[str, list[Path]] = {}
        self._materials: dict[str, Material] = {}
        self._problems: list[str] = []
        self._held: dict[str, object] = {}       # name -> the table read (None: none of its files reads)
        self._reader: Optional[threading.Thread] = None
        self._current: Optional[LoadedTables] = None

    def select(self, path: str, enabled: bool) -> None:
        """The options changed: list the tables again at the next ensure()."""
        self._path, self._enabled = path, enabled
        self._pending = self._asked = True

    @property
    def pending(self) -> bool:
        return self._pending

    def ensure(self) -> bool:
        """List the tables if a change is pending (never call it during a search). Returns whether they were
        listed now and the user should hear of it: asked for by an option, or something was skipped."""
        if not self._pending:
            return False
        self._pending = False
        self._files, self._problems, self._held, self._current = {}, [], {}, None
        if self._enabled:
            self._files = self._find_files()
        self._materials = {name: Material.parse(name) for name in self._files}
        asked, self._asked = self._asked, False
        return asked or bool(self._problems)

    def tables_for(self, position: Position, seconds: Optional[float] = None) -> Optional[LoadedTables]:
        """The tables a search from `position` may reach (never call it during a search): those read already,
        and the others read now when their files are small (READ_AT_ONCE_BYTES) and reading them takes at
        most `seconds` (None: no limit), else in the background for the next roots; None when the tables
        are off or none is ready. The root's own table and those its captures lead to are read now whenever
        that takes at most `seconds`, so that a position set up inside a large table is played by it from
        the first move. A table that cannot be read is skipped (the summary says why) and the next folder's
        file of it tried."""
        if not self._enabled or not self._files:
            return None
        root = Material.of_pieces(position.kernel_board.pieces())
        needed = self._needed(root)
        urgent = [name for name in self._urgent(root) if name in needed and name not in self._held]
        if urgent and (seconds is None or self._read_seconds(urgent) <= seconds):
            _read_into(self._held, urgent, self._files, self._problems)
        if not self.reading:
            for name in [name for name in self._held if name not in needed]:
                del self._held[name]                  # one root's tables at a time
            missing = [name for name in needed if name not in self._held]
            if missing:
                self._start_reading(missing, seconds)
        ready = {name: self._held[name] for name in needed if self._held.get(name) is not None}
        if not ready:
            return None
        if self._current is None or self._current.names != tuple(ready):
            self._current = LoadedTables(ProbeTables(ready.values()), Tablebase.of_loaded(ready), tuple(ready))
        return self._current

    @property
    def reading(self) -> bool:
        """Whether tables are being read in the background."""
        return self._reader is not None and self._reader.is_alive()

    def wait_reading(self, timeout: Optional[float] = None) -> bool:
        """Wait for the background reading to end; False when it is still going after `timeout`."""
        if self._reader is not None:
            self._reader.join(timeout)
        return not self.reading

    def _urgent(self, root: Material) -> list[str]:
        """The root's own table and the tables its captures lead to."""
        materials = [root, *(after for _side, _type, after in root.captures())]
        return [name for name in dict.fromkeys(material.canonical()[0].name for material in materials)
                if name in self._files]

    def _read_seconds(self, names: list[str]) -> float:
        return READ_SECONDS_PER_BYTE * sum(_file_size(self._files[name][0]) for name in names)

    def _start_reading(self, names: list[str], seconds: Optional[float]) -> None:
        """Read the tables named: at once when their files are small and reading them takes at most `seconds`
        (None: no limit), else in a thread of its own (into the dictionary of this listing: a listing made
        since does not receive them)."""
        held, problems = self._held, self._problems
        needs = self._read_seconds(names)
        if needs <= READ_SECONDS_PER_BYTE * READ_AT_ONCE_BYTES and (seconds is None or needs <= seconds):
            _read_into(held, names, self._files, problems)
            return
        self._reader = threading.Thread(target=_read_into, args=(held, names, dict(self._files), problems),
                                        name="tablebase-reader", daemon=True)
        self._reader.start()

    def _needed(self, root: Material) -> tuple[str, ...]:
        """The tables captures can lead to from the root's material, REACH men at most, the most men first,
        as many as MEMORY_BUDGET holds."""
        candidates = [(material, name) for name, material in self._materials.items()
                      if material.pieces >= root.pieces - REACH and material.reachable_from(root)]
        candidates.sort(key=lambda item: (-item[0].pieces, item[1]))
        chosen, used = [], 0
        for material, name in candidates:
            size = LOADED_BYTES_PER_ENTRY * index_size(material)
            if used + size <= MEMORY_BUDGET:
                chosen.append(name)
                used += size
        return tuple(sorted(chosen))

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
        skipped = f"; skipped: {'; '.join(dict.fromkeys(self._problems))}" if self._problems else ""
        if not self._files:
            return f"tablebases: none found{skipped}"
        folders = dict.fromkeys("the shipped set" if f.parent == SHIPPED_DIRECTORY else str(f.parent)
                                for files in self._files.values() for f in files)
        most = max(material.pieces for material in self._materials.values())
        return (f"tablebases: {len(self._files)} tables found (up to {most} pieces) in {', '.join(folders)}; "
                f"each read when a position needs it{skipped}")


#: The tables read by this process, by file (its path, size and time): engines of one process share them.
_READ: dict[tuple, object] = {}
_READ_LOCK = threading.Lock()


def _read_into(held: dict, names: list[str], files: dict[str, list[Path]], problems: list[str]) -> None:
    """Read each table named into `held` (None when none of its files reads), then keep in _READ only the
    tables just read."""
    for name in names:
        held[name] = _read_table(name, files[name], problems)
    with _READ_LOCK:
        _keep_only([table for table in held.values() if table is not None])


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _read_table(name: str, candidates: list[Path], problems: list[str]):
    """A table read whole (engine.tablebase.build.load_table) from the first of its files that can be read,
    None when none can; what could not be read goes to `problems` once."""
    for file in candidates:
        try:
            stat = file.stat()
            key = (str(file), stat.st_size, stat.st_mtime_ns)
            with _READ_LOCK:
                table = _READ.get(key)
            if table is None:
                table = load_table(file, Material.parse(name))
                with _READ_LOCK:
                    _READ[key] = table
            return table
        except (TablebaseError, OSError) as exc:
            problem = str(exc) if str(file) in str(exc) else f"{file}: {exc}"
        except MemoryError:
            problem = f"{file}: not enough memory to read it"
        if problem not in problems:
            problems.append(problem)
    return None


def _keep_only(tables) -> None:
    """Forget the tables read before that are not among these (memory: one root's tables at a time; an
    engine that holds others keeps them alive itself). Called with _READ_LOCK held."""
    keep = {id(table) for table in tables}
    for key in [key for key, table in _READ.items() if id(table) not in keep]:
        del _READ[key]


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

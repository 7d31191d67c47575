"""The engine facade: the position, the options, the Cython searcher and one background search thread.

The protocol modules are its only users; it never prints. A search is started with `go`, which returns at
once; the search thread reports each completed iteration through `on_info` and, exactly once per `go`,
the result through `on_bestmove`:

    engine = Engine()
    engine.set_position(None, ["h2e2"])
    engine.go(SearchLimits(depth=6), on_info=print, on_bestmove=print)
    engine.wait()

Under `infinite` or `ponder` the result is held back until `stop()` or `ponderhit()`, even when the search
itself has finished (maximum depth, mate found, depth or node limit reached).
"""
from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence

from .._core import SearchReport, Searcher, clear_network, network_hidden, set_network
from ..errors import IllegalMoveError
from ..fen import START_FEN
from .. import book as books
from .. import nets
from ..netfile import NetFileError, read_net
from ..position import Color, Position, normalize_move
from ..score import Score
from . import strength
from .limits import SearchLimits
from .timeman import ITERATION_RULE, allocate

#: A draw offer is accepted when the side to move's score is at most this (centipawns).
DRAW_ACCEPT_SCORE = 0
#: The largest value the kernel takes for a time limit (ms) or a depth.
_MAX_MS = 2**31 - 1
_MAX_DEPTH = 10_000
_MAX_NODES = 2**62
#: The most search threads offered.
MAX_THREADS = 256
#: perft depths accepted: deeper ones run for minutes and cannot be stopped.
MAX_PERFT_DEPTH = 6


class EngineBusyError(RuntimeError):
    """An action that needs an idle engine (resizing the table, loading a network, perft) was asked for
    during a search."""


@dataclass(frozen=True)
class EngineOptions:
    """Protocol-independent settings. Times in ms."""

    hash_mb: int = 16
    threads: int = 1
    multipv: int = 1
    ponder: bool = False
    move_overhead_ms: int = 10
    eval_file: str = nets.DEFAULT  # a JJNN network file (engine.netfile; a shipped one by its name); "" for none
    use_nnue: bool = True         # evaluate with the network of eval_file (when one is loaded)
    own_book: bool = True         # answer from the opening book when it has a move (see _book_move)
    book_file: str = books.DEFAULT  # a book file of any format (engine.book.open_book), or "" for none
    skill_level: int = strength.FULL_STRENGTH   # 0..20 (engine.server.strength); 20 is full strength
    limit_strength: bool = False  # play at `elo` instead of skill_level
    elo: int = strength.ELO_MAX   # on the measured scale of strength.MEASURED_ELO

    @property
    def level(self) -> float:
        """The (fractional) strength level the options ask for."""
        return strength.level_of(self.skill_level, self.limit_strength, self.elo)


@dataclass(frozen=True)
class SearchInfo:
    """One completed iteration of one PV line; the score is from the side to move's view."""

    depth: int
    seldepth: int
    multipv: int
    score: Score
    nodes: int
    time_ms: int
    nps: int
    hashfull: int
    pv: tuple[str, ...]


@dataclass(frozen=True)
class SearchResult:
    """The answer to one `go`, scored from the side to move's view. bestmove None: no move to play; `note`
    says why, and the score `Score.mated()` means that the side to move has lost (checkmate, stalemate, or a
    loss by the repetition rulings)."""

    bestmove: Optional[str]
    ponder: Optional[str] = None
    score: Score = Score(0)
    depth: int = 0
    nodes: int = 0
    time_ms: int = 0
    pv: tuple[str, ...] = ()
    note: Optional[str] = None
    accept_draw: bool = False
    static: bool = False          # `go depth 0`: the score is the static evaluation, no move searched


InfoCallback = Callable[[SearchInfo], None]
BestmoveCallback = Callable[[SearchResult], None]


class _Job:
    """The state of one `go` shared between the protocol thread and the search thread."""

    def __init__(self, limits: SearchLimits, on_info: InfoCallback, on_bestmove: BestmoveCallback) -> None:
        self.limits = limits
        self.on_info = on_info
        self.on_bestmove = on_bestmove
        self.go_time = time.monotonic()
        self.lock = threading.Lock()
        # Set when the result may be reported: at once for a normal search, on stop/ponderhit otherwise.
        self.released = threading.Event()
        self.started = False            # the kernel has reported an iteration (its limits are armed)
        self.stop_requested = False
        self.pending_deadlines: Optional[tuple[int, int, float]] = None   # (soft, hard, when asked)
        self.pondering = limits.ponder
        self.draw_offer = limits.draw_offer
        self.thread: Optional[threading.Thread] = None
        # Set just before the bestmove is reported: the searcher is idle from then on, even while the
        # thread is still finishing (a GUI may change Hash or EvalFile as soon as it reads the bestmove).
        self.answered = False
        self.book: Optional[books.Book] = None   # the book to answer from (None: search)


class Engine:
    """The engine facade. Its methods are called from one (protocol) thread; the callbacks run on the
    search thread."""

    def __init__(self, options: EngineOptions = EngineOptions()) -> None:
        self._options = options
        self._searcher = Searcher(hash_mb=options.hash_mb, threads=options.threads)
        self._searcher.use_nnue = options.use_nnue
        # The network of eval_file is loaded when the first search or evaluation needs it, not here:
        # start-up and the handshake stay fast (see _ensure_network).
        self._network_pending = bool(options.eval_file)
        self._network_error: Optional[str] = None
        # The book too is opened on first use (the shipped one is memory-mapped, so that is quick).
        self._book: Optional[books.Book] = None
        self._book_pending = bool(options.book_file)
        self._book_error: Optional[str] = None
        self._book_random = random.Random()
        self._level_random = random.Random()   # the noise of the strength levels
        self._position = Position()
        self._banmoves: tuple[str, ...] = ()
        self._job: Optional[_Job] = None
        self._perft: Optional[threading.Thread] = None

    # -- state -------------------------------------------------------------------------------
    @property
    def options(self) -> EngineOptions:
        return self._options

    @property
    def position(self) -> Position:
        """The position the next `go` searches (do not modify it)."""
        return self._position

    @property
    def banmoves(self) -> tuple[str, ...]:
        return self._banmoves

    @property
    def searching(self) -> bool:
        """Whether a `go` has not yet reported its bestmove."""
        job = self._job
        return job is not None and job.thread is not None and job.thread.is_alive() and not job.answered

    @property
    def perft_running(self) -> bool:
        return self._perft is not None and self._perft.is_alive()

    # -- setup -------------------------------------------------------------------------------
    def configure(self, **changes: object) -> None:
        """Change options (EngineOptions field names). Hash, Threads and eval_file need an idle engine.

        Setting eval_file (even to the same path: the file may have changed) loads that network, or drops
        it for ""; use_nnue applies from the next search. Raises EngineBusyError, MemoryError (the old
        table is kept), NetFileError (a ValueError; the current network stays), or TypeError for an
        unknown field; values are assumed validated.
        """
        new = replace(self._options, **changes)  # type: ignore[arg-type]
        if (new.hash_mb != self._options.hash_mb or new.threads != self._options.threads) and self._busy():
            raise EngineBusyError("Hash and Threads cannot change during a search; send stop first")
        if "eval_file" in changes:
            if self._busy():
                raise EngineBusyError("EvalFile cannot change during a search; send stop first")
            self._load_network(new.eval_file)
            self._network_pending = False
            self._network_error = None
        if "book_file" in changes:
            self._open_book(new.book_file)
        self._searcher.use_nnue = new.use_nnue
        if new.hash_mb != self._options.hash_mb:
            try:
                self._searcher.set_hash(new.hash_mb)
            except MemoryError:  # the kernel keeps the old table
                raise MemoryError(f"cannot allocate a {new.hash_mb} MB hash table; "
                                  f"keeping {self._options.hash_mb} MB") from None
        if new.threads != self._options.threads:
            self._searcher.threads = new.threads
        self._options = new

    def set_position(self, fen: Optional[str], moves: Sequence[str] = ()) -> None:
        """Set up `fen` (None: the start position) and play `moves`, which become the game record that
        the repetition rules and the natural move limit are judged from. Clears the banned moves.

        Raises InvalidFenError or IllegalMoveError; the previous position then stays in force.
        """
        position = Position(START_FEN if fen is None else fen)
        for number, move in enumerate(moves, 1):
            try:
                position.push(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {number} ({move}): {exc}") from None
        self._position = position
        self._banmoves = ()

    def set_banmoves(self, moves: Sequence[str]) -> None:
        """Exclude root moves (UCCI `banmoves`) until the next set_position. Raises IllegalMoveError for
        a move that is malformed or not legal in the current position."""
        banned = []
        for move in moves:
            iccs = normalize_move(move)
            if not self._position.is_legal(iccs):
                raise IllegalMoveError(f"banned move {iccs} is not legal in {self._position.fen()}")
            banned.append(iccs)
        self._banmoves = tuple(banned)

    def new_game(self) -> None:
        """Forget what was learnt (transposition table, history); a running search is stopped first."""
        self.stop()
        self.wait()
        self._wait_perft()
        self._searcher.clear()

    def clear_hash(self) -> None:
        self.new_game()

    # -- searching ---------------------------------------------------------------------------
    def go(self, limits: SearchLimits, on_info: InfoCallback, on_bestmove: BestmoveCallback) -> None:
        """Start searching the current position in the background and return at once.

        A search still running is stopped (and reports its own bestmove) first. Raises IllegalMoveError
        for a `searchmoves` move that is not legal, EngineBusyError while a perft runs.
        """
        if self.perft_running:
            raise EngineBusyError("a perft is running; wait for 'Nodes searched' before 'go'")
        for move in limits.searchmoves:
            if not self._position.is_legal(move):
                raise IllegalMoveError(f"searchmoves: {move} is not legal in {self._position.fen()}")
        self.stop()
        self.wait()
        self._ensure_network()
        job = _Job(limits, on_info, on_bestmove)
        job.book = self._ensure_book() if self._options.own_book else None
        if not (limits.infinite or limits.ponder):
            job.released.set()
        soft, hard = (0, 0) if limits.ponder else self._deadlines(limits)
        job.thread = threading.Thread(
            # The search thread gets its own copy: the rules verdict runs without the GIL on it.
            target=self._run, args=(job, self._position.copy(), self._banmoves, self._options, soft, hard),
            name="search", daemon=True,
        )
        self._job = job
        job.thread.start()

    def stop(self) -> None:
        """End the search and let it report its bestmove (no effect when idle)."""
        job = self._job
        if job is None:
            return
        with job.lock:
            job.stop_requested = True
            job.pondering = False
        self._searcher.stop()
        job.released.set()

    def ponderhit(self, draw_offer: bool = False, limits: Optional[SearchLimits] = None) -> bool:
        """The opponent played the expected move: turn the ponder search into a normal one, whose time
        limits (from the ponder `go`'s clock, or from `limits` when given: CECP sends the clock with the
        move) count from now. If the ponder search has already used what a normal search would, or has
        finished, it reports at once. Returns False when not pondering."""
        job = self._job
        if job is None or not job.pondering or not self.searching:
            return False
        limits = replace(job.limits if limits is None else limits, ponder=False)
        soft, hard = self._deadlines(limits)
        now = time.monotonic()
        with job.lock:
            job.pondering = False
            job.draw_offer = job.draw_offer or draw_offer
            if soft:
                # Time already spent pondering counts towards the soft target; the hard limit (what the
                # clock can afford) is counted from now, when the clock starts.
                soft = soft - int((now - job.go_time) * 1000)
                if soft <= 0:
                    job.stop_requested = True
                    self._searcher.stop()
                elif job.started:
                    self._searcher.set_deadlines(soft, hard)
                else:
                    job.pending_deadlines = (soft, hard, now)
        if not limits.infinite:  # `go ponder infinite` still waits for `stop`
            job.released.set()
        return True

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Wait until the current search has reported its bestmove. Returns False on timeout."""
        job = self._job
        if job is None or job.thread is None:
            return True
        job.thread.join(timeout)
        return not job.thread.is_alive()

    def shutdown(self, timeout: float = 2.0) -> None:
        """Stop any search and wait (at most `timeout` s) for it to report."""
        self.stop()
        self.wait(timeout)

    def perft(self, depth: int, on_done: Callable[[dict[str, int]], None]) -> None:
        """Count the legal move tree below each root move in the background; `on_done({move: count})`.

        Raises EngineBusyError during a search or another perft, ValueError for a depth out of range.
        """
        if not 1 <= depth <= MAX_PERFT_DEPTH:
            raise ValueError(f"perft depth must be 1..{MAX_PERFT_DEPTH}, not {depth}")
        if self._busy():
            raise EngineBusyError("perft needs an idle engine; send stop first")
        position = self._position.copy()
        self._perft = threading.Thread(target=lambda: on_done(position.divide(depth)), name="perft", daemon=True)
        self._perft.start()

    def evaluate(self) -> int:
        """The static evaluation of the current position (centipawns, side to move's view)."""
        self._ensure_network()
        return int(self._searcher.evaluate(self._position.kernel_board))

    def evaluation_summary(self) -> str:
        """Which evaluation the next search uses, in words (for an `info string`)."""
        self._ensure_network()
        hidden = network_hidden()
        if self._options.use_nnue and hidden:
            return f"NNUE evaluation with {self._options.eval_file} ({hidden} hidden units) enabled"
        if self._options.use_nnue and self._network_error:
            return f"{self._network_error}: using the hand-crafted evaluation"
        if self._options.use_nnue:
            return "NNUE enabled but no network is loaded (set EvalFile): using the hand-crafted evaluation"
        if hidden:
            return (f"network {self._options.eval_file} ({hidden} hidden units) loaded; the hand-crafted "
                    f"evaluation stays until NNUE is enabled")
        return "using the hand-crafted evaluation"

    def book_summary(self) -> str:
        """Which book the engine plays from, in words (for an `info string` after OwnBook or BookFile)."""
        book = self._ensure_book()
        if self._book_error:
            return f"{self._book_error}: playing without a book"
        if not self._options.own_book:
            return "own book off: every move is searched"
        if book is not None:
            return f"book moves from {book.describe()}"
        return "no book file set (BookFile): playing without a book"

    def strength_summary(self) -> str:
        """The strength level in use, in words (for an `info string` after Skill Level or UCI_Elo)."""
        level = self._options.level
        limits = strength.level_limits(level)
        if limits is None:
            return "full strength"
        how = f"UCI_Elo {self._options.elo}: " if self._options.limit_strength else ""
        return f"{how}strength level {level:.2f} ({limits.describe()})"

    @property
    def book(self) -> Optional["books.Book"]:
        """The book in use (opened now if still pending), or None."""
        return self._ensure_book()

    # -- internals ---------------------------------------------------------------------------
    def _open_book(self, name: str) -> None:
        """Open the book `name` ("" for none); a file that is not a book leaves the engine without one,
        and book_summary says why."""
        if self._book is not None and self._book is not books.default_book_if_open():
            self._book.close()
        self._book, self._book_error, self._book_pending = None, None, False
        if not name:
            return
        try:
            self._book = books.default_book() if name == books.DEFAULT else books.open_book(name)
        except books.BookError as exc:
            self._book_error = str(exc)

    def _ensure_book(self) -> Optional["books.Book"]:
        if self._book_pending:
            self._open_book(self._options.book_file)
        return self._book

    def _book_move(self, job: _Job, limits: SearchLimits, position: Position,
                   banmoves: tuple[str, ...]) -> Optional[SearchResult]:
        """A move from the book, played at once, when the `go` is a move of a game, on a clock or a time
        per move. Searches of another kind are analyses and are searched (as Stockfish did with its
        book): `infinite`, `ponder`, `mate`, and a fixed `depth` or `nodes` (what analysis tools, tests
        and node-count matches ask for); so is a draw offer, which the search's score answers."""
        if limits.infinite or limits.ponder or limits.mate or limits.depth is not None \
                or limits.nodes is not None or limits.draw_offer \
                or (limits.time is None and limits.movetime is None):
            return None
        book = job.book
        if book is None:
            return None
        from ..book.choose import choose
        try:
            choice = choose(book, position, banmoves, limits.searchmoves, self._book_random)
        except Exception:  # a damaged book must not cost the move: search instead
            return None
        if choice is None:
            return None
        return SearchResult(choice.move.move, ponder=choice.ponder, pv=(choice.move.move,),
                            note=f"book move {choice.describe()}")

    def _busy(self) -> bool:
        return self.searching or self.perft_running

    def _load_network(self, path: str) -> None:
        """Load the network file at `path` (or the shipped network of that name: engine.nets.locate) into
        the kernel, or drop the network for "". The network is the process's (one per kernel). Raises
        NetFileError; the current network then stays."""
        if path:
            set_network(read_net(nets.locate(path)))
        else:
            clear_network()

    def _ensure_network(self) -> None:
        """Load eval_file's network if it is still pending, when the evaluation is the network's. A file
        that cannot be read leaves the hand-crafted evaluation, and says so in evaluation_summary."""
        if self._network_pending and self._options.use_nnue:
            self._network_pending = False
            try:
                self._load_network(self._options.eval_file)
            except NetFileError as exc:
                self._network_error = str(exc)

    def _wait_perft(self) -> None:
        if self._perft is not None:
            self._perft.join()

    def _deadlines(self, limits: SearchLimits) -> tuple[int, int]:
        """(soft, hard) in ms for the kernel (0: none) from the clock or movetime, at least 1 ms."""
        if limits.time is None and limits.movetime is None:
            return 0, 0
        soft, hard = allocate(limits, float(self._options.move_overhead_ms), self._options.ponder)
        return _clamp_ms(soft), _clamp_ms(hard)

    def _run(self, job: _Job, position: Position, banmoves: tuple[str, ...], options: EngineOptions,
             soft: int, hard: int) -> None:
        """The search thread: search, hold the result until released, report it exactly once."""
        try:
            result = self._search(job, position, banmoves, options, soft, hard)
        except Exception as exc:  # never leave a `go` without an answer
            moves = [m for m in position.legal_moves() if m not in banmoves]
            result = SearchResult(moves[0] if moves else None, note=f"search failed: {exc!r}")
        job.released.wait()
        if result.bestmove is not None and job.draw_offer and result.score.value <= DRAW_ACCEPT_SCORE:
            result = replace(result, accept_draw=True)
        job.answered = True
        job.on_bestmove(result)

    def _search(self, job: _Job, position: Position, banmoves: tuple[str, ...], options: EngineOptions,
                soft: int, hard: int) -> SearchResult:
        limits = job.limits
        outcome = position.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return SearchResult(None, note=f"the game is over: {outcome.reason} (draw)")
            lost = outcome.winner != position.turn
            return SearchResult(None, score=Score.mated() if lost else -Score.mated(),
                                note=f"the game is over: {outcome.reason}, {_side(outcome.winner)} wins")
        from_book = self._book_move(job, limits, position, banmoves)
        if from_book is not None:
            return from_book
        if limits.depth == 0:
            return SearchResult(None, score=Score(int(self._searcher.evaluate(position.kernel_board))),
                                note="depth 0: static evaluation only", static=True)
        if soft or hard:
            spent = int((time.monotonic() - job.go_time) * 1000)
            soft, hard = max(1, soft - spent) if soft else 0, max(1, hard - spent) if hard else 0

        def report(info: SearchReport) -> None:
            with job.lock:
                if not job.started:
                    job.started = True
                    if job.stop_requested:
                        self._searcher.stop()
                    elif job.pending_deadlines is not None:
                        p_soft, p_hard, asked = job.pending_deadlines
                        late = int((time.monotonic() - asked) * 1000)
                        self._searcher.set_deadlines(max(1, p_soft - late), max(1, p_hard - late))
            try:
                job.on_info(_info(info))
            except Exception:  # a failing writer must not abort the search
                pass

        # A strength level below full only lowers the depth and node limits (the time limits stay the
        # time manager's) and searches its candidates as extra PV lines, which the GUI is not shown.
        level = strength.level_limits(options.level)
        depth, nodes, multipv = limits.depth or 0, limits.nodes or 0, options.multipv
        if level is not None:
            level_depth = level.search_depth(self._level_random)
            depth = min(depth or level_depth, level_depth)
            nodes = min(nodes or level.nodes, level.nodes)
            multipv = max(multipv, level.candidates)
        iteration: list[SearchReport] = []   # the lines of the last iteration reported

        def collect(info: SearchReport) -> None:
            if info.multipv == 1:
                iteration.clear()
            iteration.append(info)
            if info.multipv <= options.multipv:
                report(info)

        found = self._searcher.search(
            position.kernel_board,
            depth=min(depth, _MAX_DEPTH),
            nodes=min(nodes, _MAX_NODES),
            mate=min(limits.mate or 0, _MAX_DEPTH),
            soft_ms=soft, hard_ms=hard,
            multipv=multipv,
            searchmoves=tuple(limits.searchmoves),
            banmoves=banmoves,
            on_info=collect,
            soft_share=ITERATION_RULE.soft_share,
        )
        if found.bestmove is None:
            return SearchResult(None, score=Score.mated(), note="no legal move that is not banned")
        chosen: SearchReport = found
        if level is not None and iteration and iteration[0].depth == found.depth \
                and iteration[0].bestmove == found.bestmove:
            # The candidates are the level's first lines of the last completed iteration (the GUI's
            # MultiPV may ask for more), whose best line is `found`.
            candidates = iteration[:level.candidates]
            chosen = candidates[strength.pick([line.score for line in candidates], level, self._level_random)]
        return SearchResult(
            bestmove=chosen.bestmove, ponder=chosen.ponder, score=Score(chosen.score),
            depth=found.depth, nodes=found.nodes, time_ms=found.time_ms, pv=chosen.pv,
        )


def _info(report: SearchReport) -> SearchInfo:
    return SearchInfo(
        depth=report.depth, seldepth=report.seldepth, multipv=report.multipv, score=Score(report.score),
        nodes=report.nodes, time_ms=report.time_ms, nps=report.nps,
        hashfull=report.hashfull, pv=report.pv,
    )


def _clamp_ms(value: float) -> int:
    return int(min(max(value, 1), _MAX_MS))


def _side(color: Color) -> str:
    return "Red" if color is Color.RED else "Black"


def max_hash_mb() -> int:
    """The largest Hash offered: half the physical memory (the table is allocated and cleared at once)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (ValueError, OSError, AttributeError):
        total = 8192
    return max(16, min(total // 2, 1 << 20))


def default_threads() -> int:
    """The thread count the engine picks when asked to choose (UCCI `threads 0`)."""
    return max(1, os.cpu_count() or 1)

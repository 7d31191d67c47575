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

The result has a move whenever the position has a legal one that the `go` allows, even where the rules
have ended the game (their ruling is the result's note; the GUI adjudicates); none only without one, or
after a refused position (refuse_position), until a valid one is set. `_search` finds it in named steps.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence

from .._core import SearchReport, Searcher, network_hidden
from ..errors import IllegalMoveError
from ..fen import START_FEN
from .. import book as books
from ..book.policy import BookShelf, book_answer
from ..color import Color
from ..nets.loader import NetworkLoader
from ..outcome import Outcome, Termination
from ..position import Position, normalize_move
from ..score import Score
from ..search_types import CurrentMove, PvLine, SearchLimits, SearchResult, TableEntry
from .. import wdl
from . import memory, strength
from .options import FIELD_DEFAULTS
from ..tablebase import table_score
from .tablebases import RootChoice, TablebaseLoader, root_choice, table_reply
from .timeman import GameTimeState, IterationTimer, allocate

#: A draw offer is accepted when the side to move's score is at most this (centipawns).
DRAW_ACCEPT_SCORE = 0
#: The largest value the kernel takes for a time limit (ms) or a depth.
_MAX_MS = 2**31 - 1
_MAX_DEPTH = 10_000
_MAX_NODES = 2**62
#: perft depths accepted: deeper ones run for minutes and cannot be stopped.
MAX_PERFT_DEPTH = 6
#: The current root move is reported (on_currmove) once a search has run this long (ms), as Stockfish
#: does: a GUI then shows that a long search is alive, and a short one prints no more than before.
CURRMOVE_AFTER_MS = 3000


class EngineBusyError(RuntimeError):
    """An action that needs an idle engine (resizing the table, loading a network, perft) was asked for
    during a search."""


class NoPositionError(ValueError):
    """An action on the position (banmoves, perft, eval, flip) was asked for after a `position` that was
    refused: no valid position is in force until the next one is accepted."""


@dataclass(frozen=True)
class EngineOptions:
    """Protocol-independent settings. Times in ms. The defaults, ranges and meanings are the option
    table's (engine.server.options), where each field is the option of that name in each dialect."""

    hash_mb: int = FIELD_DEFAULTS["hash_mb"]
    threads: int = FIELD_DEFAULTS["threads"]
    multipv: int = FIELD_DEFAULTS["multipv"]
    ponder: bool = FIELD_DEFAULTS["ponder"]
    move_overhead_ms: int = FIELD_DEFAULTS["move_overhead_ms"]
    eval_file: str = FIELD_DEFAULTS["eval_file"]   # a JJNN network file (engine.netfile); "" for none
    use_nnue: bool = FIELD_DEFAULTS["use_nnue"]    # evaluate with the network of eval_file (when loaded)
    own_book: bool = FIELD_DEFAULTS["own_book"]    # answer from the opening book (engine.book.policy)
    book_file: str = FIELD_DEFAULTS["book_file"]   # a book of any format (engine.book.open_book); "" for none
    skill_level: int = FIELD_DEFAULTS["skill_level"]         # 0..20 (engine.server.strength); 20: full
    limit_strength: bool = FIELD_DEFAULTS["limit_strength"]  # play at `elo` instead of skill_level
    elo: int = FIELD_DEFAULTS["elo"]               # on the measured scale of strength.MEASURED_ELO
    tablebase_path: str = FIELD_DEFAULTS["tablebase_path"]   # folders of tables, ';'-separated ("": shipped only)
    tb_probe_depth: int = FIELD_DEFAULTS["tb_probe_depth"]   # the search probes the tables from this depth
    use_tablebase: bool = FIELD_DEFAULTS["use_tablebase"]    # the tables in the search and at the root

    @property
    def level(self) -> float:
        """The (fractional) strength level the options ask for."""
        return strength.level_of(self.skill_level, self.limit_strength, self.elo)


InfoCallback = Callable[[PvLine], None]
BestmoveCallback = Callable[[SearchResult], None]
CurrmoveCallback = Callable[[CurrentMove], None]


class _Job:
    """The state of one `go` shared between the protocol thread and the search thread."""

    def __init__(self, limits: SearchLimits, on_info: InfoCallback, on_bestmove: BestmoveCallback,
                 on_currmove: Optional[CurrmoveCallback] = None) -> None:
        self.limits = limits
        self.on_info = on_info
        self.on_bestmove = on_bestmove
        self.on_currmove = on_currmove
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
        self.no_position: Optional[str] = None   # why the last `position` was refused: then no move at all
        self.timer: Optional[IterationTimer] = None   # the time manager's rule between iterations (a clock)


class Engine:
    """The engine facade. Its methods are called from one (protocol) thread; the callbacks run on the
    search thread."""

    def __init__(self, options: EngineOptions = EngineOptions()) -> None:
        self._options = options
        self._searcher = Searcher(hash_mb=options.hash_mb, threads=options.threads)
        self._searcher.use_nnue = options.use_nnue
        # The network and the book are loaded when first needed, not here: start-up and the handshake
        # stay fast.
        self._network = NetworkLoader(options.eval_file)
        self._books = BookShelf(options.book_file)
        self._tables = TablebaseLoader(options.tablebase_path, options.use_tablebase)
        self._game_time = GameTimeState()   # what the time manager carries from move to move
        self._book_random = random.Random()
        self._level_random = random.Random()   # the noise of the strength levels
        self._position = Position()
        self._banmoves: tuple[str, ...] = ()
        self._position_error: Optional[str] = None   # why the last `position` was refused (None: valid)
        self._job: Optional[_Job] = None
        self._perft: Optional[threading.Thread] = None

    # -- state -------------------------------------------------------------------------------
    @property
    def options(self) -> EngineOptions:
        return self._options

    @property
    def position(self) -> Position:
        """The position the next `go` searches (do not modify it); after a refused `position`, the last
        valid one, which no `go` searches (see position_error)."""
        return self._position

    @property
    def position_error(self) -> Optional[str]:
        """Why the last `position` was refused, None while the position in force is valid."""
        return self._position_error

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
        it for ""; use_nnue applies from the next search. Setting tablebase_path or use_tablebase reads
        the endgame tables at once, or after a running search (at the next isready or go; load_tablebases).
        Raises EngineBusyError, MemoryError (the old table is kept), NetFileError (a ValueError; the
        current network stays), or TypeError for an unknown field; values are assumed validated.
        """
        new = replace(self._options, **changes)  # type: ignore[arg-type]
        if (new.hash_mb != self._options.hash_mb or new.threads != self._options.threads) and self._busy():
            raise EngineBusyError("Hash and Threads cannot change during a search; send stop first")
        if "eval_file" in changes:
            if self._busy():
                raise EngineBusyError("EvalFile cannot change during a search; send stop first")
            self._network.load(new.eval_file)
        if "book_file" in changes:
            self._books.select(new.book_file)
        tables_changed = "tablebase_path" in changes or "use_tablebase" in changes
        if tables_changed:
            self._tables.select(new.tablebase_path, new.use_tablebase)
        self._searcher.use_nnue = new.use_nnue
        if new.hash_mb != self._options.hash_mb:
            try:
                memory.check_table_fits(new.hash_mb)   # before malloc: an overcommitted table kills
                self._searcher.set_hash(new.hash_mb)
            except MemoryError as exc:  # the kernel keeps the old table
                reason = str(exc) or f"cannot allocate a {new.hash_mb} MB hash table"
                raise MemoryError(f"{reason}; keeping {self._options.hash_mb} MB") from None
        if new.threads != self._options.threads:
            self._searcher.threads = new.threads
        self._options = new
        if tables_changed and not self._busy():   # read now; during a search at the next isready or go
            self._tables.ensure()

    def set_position(self, fen: Optional[str], moves: Sequence[str] = ()) -> None:
        """Set up `fen` (None: the start position) and play `moves`, which become the game record that
        the repetition rules and the natural move limit are judged from. Clears the banned moves.

        Raises InvalidFenError or IllegalMoveError; no position is then in force (refuse_position) until
        the next valid one: a `go` answers no move rather than a move of an earlier position.
        """
        try:
            position = Position(START_FEN if fen is None else fen)
            for number, move in enumerate(moves, 1):
                try:
                    position.push(move)
                except IllegalMoveError as exc:
                    raise IllegalMoveError(f"move {number} ({move}): {exc}") from None
        except ValueError as exc:   # InvalidFenError, IllegalMoveError
            self.refuse_position(str(exc))
            raise
        self._position = position
        self._position_error = None
        self._banmoves = ()

    def set_game(self, game: Position) -> None:
        """Search a copy of `game`, a position with its game record that its owner has played legally
        (CECP keeps its own game), from the next `go`: set_position without replaying the moves, which
        would cost a time proportional to the game for every move. Clears the banned moves."""
        self._position = game.copy()
        self._position_error = None
        self._banmoves = ()

    def refuse_position(self, reason: str) -> None:
        """A `position` command was refused (`reason`: why, for the user): until the next valid one, `go`
        answers no move and the commands on the position raise NoPositionError."""
        self._position_error = reason
        self._banmoves = ()

    def set_banmoves(self, moves: Sequence[str]) -> None:
        """Exclude root moves (UCCI `banmoves`) until the next set_position. Raises IllegalMoveError for
        a move that is malformed or not legal in the current position."""
        self._check_position("banmoves")
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
        self._game_time = GameTimeState()

    def clear_hash(self) -> None:
        self.new_game()

    # -- searching ---------------------------------------------------------------------------
    def go(self, limits: SearchLimits, on_info: InfoCallback, on_bestmove: BestmoveCallback,
           on_currmove: Optional[CurrmoveCallback] = None) -> None:
        """Start searching the current position in the background and return at once. `on_currmove`,
        when given, is told of each root move the search starts on once it has run CURRMOVE_AFTER_MS.

        A search still running is stopped (and reports its own bestmove) first. Raises IllegalMoveError
        for a `searchmoves` move that is not legal, EngineBusyError while a perft runs.
        """
        if self.perft_running:
            raise EngineBusyError("a perft is running; wait for 'Nodes searched' before 'go'")
        for move in limits.searchmoves if self._position_error is None else ():
            if not self._position.is_legal(move):
                raise IllegalMoveError(f"searchmoves: {move} is not legal in {self._position.fen()}")
        self.stop()
        self.wait()
        self._network.ensure(self._options.use_nnue)
        self._tables.ensure()       # read now if the options changed during a search (the session told)
        job = _Job(limits, on_info, on_bestmove, on_currmove)
        job.book = self._books.book if self._options.own_book else None
        job.no_position = self._position_error
        if not (limits.infinite or limits.ponder):
            job.released.set()
        self._game_time.starting(_game_ply(self._position))
        soft, hard = (0, 0) if limits.ponder else self._deadlines(limits)
        if limits.has_clock and not limits.infinite:
            job.timer = IterationTimer(self._game_time, soft, self._options.threads)
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
            if job.timer is not None:
                job.timer.soft_ms = soft
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
        self._check_position("perft")
        position = self._position.copy()
        self._perft = threading.Thread(target=lambda: on_done(position.divide(depth)), name="perft", daemon=True)
        self._perft.start()

    def probe(self, fen: Optional[str], moves: Sequence[str] = ()) -> Optional[TableEntry]:
        """The transposition table's entry for `fen` (None: the start position) after `moves`, or None.
        The position in force stays; it may be called during a search. Raises InvalidFenError or
        IllegalMoveError."""
        position = Position(START_FEN if fen is None else fen)
        for move in moves:
            position.push(move)
        found = self._searcher.probe(position.kernel_board)
        if found is None:
            return None
        move, bound, score, depth = found
        return TableEntry(move, bound, Score(score), depth)

    def evaluate(self) -> int:
        """The static evaluation of the current position (centipawns, side to move's view)."""
        self._check_position("eval")
        self._network.ensure(self._options.use_nnue)
        return int(self._searcher.evaluate(self._position.kernel_board))

    def explain_evaluation(self) -> list[str]:
        """The `eval` command's lines: the static evaluation of the current position and its parts
        (engine.server.evaluation)."""
        from . import evaluation   # loaded by the first `eval` only

        final = self.evaluate()    # loads a pending network first
        network = self._options.use_nnue and network_hidden() > 0
        return evaluation.explain(self._position, final, network, self.evaluation_summary())

    def flip(self) -> None:
        """Replace the position by its mirror image with the colours swapped (Pikafish's `flip`): the
        moves played are forgotten, and so are the banned moves."""
        self._check_position("flip")
        self.set_position(self._position.mirror().fen())

    def evaluation_summary(self) -> str:
        """Which evaluation the next search uses, in words (for an `info string`)."""
        return self._network.summary(self._options.use_nnue)

    def book_summary(self) -> str:
        """Which book the engine plays from, in words (for an `info string` after OwnBook or BookFile)."""
        return self._books.summary(self._options.own_book)

    def tablebase_summary(self) -> str:
        """Which endgame tables are in use, in words (for an `info string` after TablebasePath)."""
        return self._tables.summary()

    def load_tablebases(self) -> Optional[str]:
        """Read the tables now if the options changed since they were read (not during a search: then at
        the next call, or at `go`). Returns the summary when the user should hear of it (the tables were
        read on an option's demand, or something was skipped), else None."""
        if self._busy() or not self._tables.ensure():
            return None
        return self._tables.summary()

    def strength_summary(self) -> str:
        """The strength level in use, in words (for an `info string` after Skill Level or UCI_Elo)."""
        return strength.summary(self._options.level, self._options.limit_strength, self._options.elo)

    @property
    def book(self) -> Optional["books.Book"]:
        """The book in use (opened now if still pending), or None."""
        return self._books.book

    # -- internals ---------------------------------------------------------------------------
    def _busy(self) -> bool:
        return self.searching or self.perft_running

    def _check_position(self, command: str) -> None:
        """Raise NoPositionError when no valid position is in force (after a refused `position`)."""
        if self._position_error is not None:
            raise NoPositionError(f"{command}: {_no_position_words(self._position_error)}")

    def _wait_perft(self) -> None:
        if self._perft is not None:
            self._perft.join()

    def _deadlines(self, limits: SearchLimits) -> tuple[int, int]:
        """(soft, hard) in ms for the kernel (0: none) from the clock or movetime, at least 1 ms."""
        if limits.time is None and limits.movetime is None:
            return 0, 0
        soft, hard = allocate(limits, float(self._options.move_overhead_ms), self._options.ponder,
                              ply=_game_ply(self._position), game=self._game_time)
        return _clamp_ms(soft), _clamp_ms(hard)

    def _run(self, job: _Job, position: Position, banmoves: tuple[str, ...], options: EngineOptions,
             soft: int, hard: int) -> None:
        """The search thread: search, hold the result until released, report it exactly once."""
        try:
            result = self._search(job, position, banmoves, options, soft, hard)
        except Exception as exc:  # never leave a `go` without an answer
            moves = [] if job.no_position else _allowed_moves(position, job.limits.searchmoves, banmoves)
            result = _unsearched(moves[0] if moves else None, note=f"search failed: {exc!r}")
        job.released.wait()
        if result.bestmove is not None and job.draw_offer and result.score.value <= DRAW_ACCEPT_SCORE:
            result = replace(result, offers_draw=True)
        job.answered = True
        job.on_bestmove(result)

    def _search(self, job: _Job, position: Position, banmoves: tuple[str, ...], options: EngineOptions,
                soft: int, hard: int) -> SearchResult:
        """The answer to one `go`: a move whenever the position has a legal one the `go` allows, whatever
        the rules say of the game (their ruling goes with it as its note, and the GUI adjudicates), found
        by the first step that has one (each step answers, or None to go on)."""
        if job.no_position is not None:                         # Step 1. No valid position: no move
            return _unsearched(None, score=None, note=_no_position_words(job.no_position))
        ruling = position.outcome()                             # Step 2. The rules' ruling, if any
        moves = _allowed_moves(position, job.limits.searchmoves, banmoves)
        if not moves:
            return _no_move(ruling)
        # The book and the tables know nothing of rulings: where the rules have ended the game, the search
        # answers.
        answer = ((None if ruling is not None else self._book_move(job, position, banmoves))   # Step 3. Book
                  or self._static_only(job, position, moves)                               # Step 4. Depth 0
                  or (None if ruling is not None else                                      # Step 5. Tables
                      self._table_answer(job, position, banmoves, moves, options, soft, hard))
                  or self._searched(job, position, banmoves, options, soft, hard))         # Steps 6-9
        if ruling is None:
            return answer
        note = f"the rules end the game here ({_ruling_words(ruling)}); a move is given all the same"
        return replace(answer, note=note if answer.note is None else f"{note}; {answer.note}")

    def _book_move(self, job: _Job, position: Position, banmoves: tuple[str, ...]) -> Optional[SearchResult]:
        """Step 3: a move of the book in use, when the `go` lets the book answer and it has one."""
        choice = book_answer(job.book, job.limits, position, banmoves, self._book_random)
        if choice is None:
            return None
        return _unsearched(choice.move.move, ponder=choice.ponder, pv=(choice.move.move,),
                           note=f"book move {choice.describe()}")

    def _static_only(self, job: _Job, position: Position, moves: Sequence[str]) -> Optional[SearchResult]:
        """Step 4: `go depth 0` asks for the static evaluation, which is the score, without a search. The
        move is the static evaluation's choice one ply ahead: a move that leaves the opponent no move
        first, then the best evaluated position after it. No search (what depth 0 asks for), yet not an
        arbitrary move either (the move generator's first), and about 40 evaluations cost nothing."""
        if job.limits.depth != 0:
            return None
        board = position.kernel_board.copy()

        def after(move: str) -> tuple[bool, int]:
            board.push(move)
            rank = (not board.legal_moves(), -int(self._searcher.evaluate(board)))
            board.pop()
            return rank

        best = max(moves, key=after)
        return _unsearched(best, score=Score(int(self._searcher.evaluate(position.kernel_board))), pv=(best,),
                           note="depth 0: the static evaluation, and its choice of move one ply ahead",
                           static=True)

    def _table_answer(self, job: _Job, position: Position, banmoves: tuple[str, ...], moves: Sequence[str],
                      options: EngineOptions, soft: int, hard: int) -> Optional[SearchResult]:
        """Step 5: the endgame tables at the root (engine.server.tablebases.root_choice), at full strength
        only (a limited strength plays as its search finds, and perfect endings would not be limited): a
        won or lost root plays the table's move (the quickest win, the slowest loss) without a search, a
        drawn one has the search choose among the moves that keep the draw."""
        if not options.use_tablebase or strength.level_limits(options.level) is not None:
            return None
        # The root's own tables are read now if a quarter of the move's hard limit allows (no limit: always).
        tables = self._tables.tables_for(position, seconds=hard / 4000 if hard else None)
        if tables is None:
            return None
        choice = root_choice(tables, position, moves)
        if choice is None:
            return None
        if not choice.play:
            found = self._searched(job, position, banmoves, options, soft, hard, only=choice.moves)
            return replace(found, note=f"tablebase {choice.ending}: a draw; the search chose among the "
                                       f"{len(choice.ranked)} moves that keep it")
        move, value = choice.ranked[0]
        reply = table_reply(tables, position, move)
        pv = (move,) if reply is None else (move, reply)
        self._report_table_lines(job, choice, pv, wdl.material_of(position), options.multipv)
        return _unsearched(move, score=table_score(value), ponder=reply, pv=pv,
                           note=f"tablebase {choice.ending}: {value}")

    def _report_table_lines(self, job: _Job, choice: RootChoice, pv: tuple[str, ...], material: int,
                            multipv: int) -> None:
        """The info lines of a move the tables chose (its line `pv`): the first `multipv` moves with their
        values (a mate from the table's distance, or a draw), tbhits the moves probed."""
        elapsed = int((time.monotonic() - job.go_time) * 1000)
        for number, (move, value) in enumerate(choice.ranked[:multipv], 1):
            score = table_score(value)
            line = PvLine(depth=1, seldepth=1, multipv=number, score=score, nodes=0, time_ms=elapsed, nps=0,
                          hashfull=0, tbhits=len(choice.ranked), pv=pv if number == 1 else (move,),
                          wdl=wdl.chances(score, material))
            try:
                job.on_info(line)
            except Exception:  # a failing writer must not lose the answer
                pass

    def _searched(self, job: _Job, position: Position, banmoves: tuple[str, ...], options: EngineOptions,
                  soft: int, hard: int, only: Sequence[str] = ()) -> SearchResult:
        """Steps 6-9: the search, within what is left of the deadlines, at the strength level asked for,
        and the line it plays (Step 2 made sure that the `go` leaves it a root move; `only`, when given,
        narrows the root moves further: the tables' drawing moves)."""
        limits = job.limits
        soft, hard = _remaining_deadlines(job, soft, hard)          # Step 6. Deadlines
        # Step 7. Strength: a level below full only lowers the depth and node limits (the time limits
        # stay the time manager's) and searches its candidates as extra PV lines, not shown to the GUI.
        level = strength.level_limits(options.level)
        depth, nodes, multipv = strength.capped_limits(level, limits.depth or 0, limits.nodes or 0,
                                                       options.multipv, self._level_random)
        # Step 8. The search, probing the tables below the root at full strength.
        # What the root's tables (Step 5) had the time to read is read; the rest comes in the background.
        tables = None
        if options.use_tablebase and level is None:
            tables = self._tables.tables_for(position, seconds=0.0)
        self._searcher.set_tablebase(None if tables is None else tables.probe, options.tb_probe_depth)
        reporter = _IterationReporter(job, self._searcher, wdl.material_of(position), options.multipv)
        found = self._searcher.search(
            position.kernel_board,
            depth=min(depth, _MAX_DEPTH),
            nodes=min(nodes, _MAX_NODES),
            mate=min(limits.mate or 0, _MAX_DEPTH),
            soft_ms=soft, hard_ms=hard,
            multipv=multipv,
            searchmoves=tuple(only or limits.searchmoves),
            banmoves=banmoves,
            on_info=reporter.collect,
            soft_share=job.timer.soft_share if job.timer is not None else None,
            on_root_move=reporter.root_move if job.on_currmove is not None else None,
            root_move_after_ms=CURRMOVE_AFTER_MS,
        )
        if job.timer is not None:
            job.timer.finish()
        # Step 9. The choice: the best line, or at a strength level one of its candidates.
        chosen = strength.choose_line(level, reporter.iteration, found, self._level_random)
        return SearchResult(
            bestmove=chosen.bestmove, ponder=chosen.ponder, score=Score(chosen.score),
            depth=found.depth, nodes=found.nodes, time_ms=found.time_ms, pv=chosen.pv,
        )


class _IterationReporter:
    """The search thread's callbacks during one search: each completed iteration is kept (the choice of
    a strength level reads its lines) and its first `shown` lines go to the job's on_info; the root move
    a long search is on goes to on_currmove. The first report also arms what the protocol thread asked
    for before the kernel had armed its own limits (a stop, a ponderhit's deadlines)."""

    def __init__(self, job: _Job, searcher: Searcher, material: int, shown: int) -> None:
        self.job = job
        self.searcher = searcher
        self.material = material   # the root's material count, for the WDL model (engine.wdl)
        self.shown = shown
        self.iteration: list[SearchReport] = []   # the lines of the last iteration reported

    def collect(self, info: SearchReport) -> None:
        if info.multipv == 1:
            self.iteration.clear()
        self.iteration.append(info)
        if info.multipv <= self.shown:
            self._report(info)

    def root_move(self, depth: int, move: str, number: int) -> None:
        # The kernel ignores what this raises.
        self.job.on_currmove(CurrentMove(depth, move, number))  # type: ignore[misc]

    def _report(self, info: SearchReport) -> None:
        job = self.job
        with job.lock:
            if not job.started:
                job.started = True
                self._arm_pending()
        try:
            job.on_info(_pv_line(info, self.material))
        except Exception:  # a failing writer must not abort the search
            pass

    def _arm_pending(self) -> None:
        """At the first report (job.lock held): a stop, or a ponderhit's deadlines, asked for earlier."""
        job = self.job
        if job.stop_requested:
            self.searcher.stop()
        elif job.pending_deadlines is not None:
            soft, hard, asked = job.pending_deadlines
            late = int((time.monotonic() - asked) * 1000)
            self.searcher.set_deadlines(max(1, soft - late), max(1, hard - late))


def _allowed_moves(position: Position, searchmoves: Sequence[str], banmoves: Sequence[str]) -> list[str]:
    """The legal moves the `go` allows: among `searchmoves` when it names any, never one of `banmoves`."""
    return [move for move in position.legal_moves()
            if (not searchmoves or move in searchmoves) and move not in banmoves]


def _no_move(ruling: Optional[Outcome]) -> SearchResult:
    """Step 2: the answer without a move to play: the side to move has none (checkmate or stalemate,
    both lost), or `banmoves` and `searchmoves` leave none (lost as well: a banned move is one the
    rules forbid)."""
    if ruling is not None and ruling.reason in (Termination.CHECKMATE, Termination.STALEMATE):
        return _unsearched(None, score=Score.mated(), note=f"the game is over ({_ruling_words(ruling)})")
    return _unsearched(None, score=Score.mated(), note="no legal move left after banmoves and searchmoves")


def _ruling_words(outcome: Outcome) -> str:
    """The rules' ruling in words: 'repetition: a draw', 'perpetual check: Red wins'."""
    return f"{outcome.reason.words}: {'a draw' if outcome.winner is None else outcome.winner.label + ' wins'}"


def _no_position_words(reason: str) -> str:
    return f"no valid position was given (the last position command was refused: {reason}); send a position"


def _remaining_deadlines(job: _Job, soft: int, hard: int) -> tuple[int, int]:
    """Step 6: the deadlines (ms, 0: none) counted from the `go`, less the time spent since (at least 1)."""
    if not (soft or hard):
        return 0, 0
    spent = int((time.monotonic() - job.go_time) * 1000)
    return (max(1, soft - spent) if soft else 0), (max(1, hard - spent) if hard else 0)


def _game_ply(position: Position) -> int:
    """The game's ply at `position`, as its FEN's move number counts it (0 at Red's first move)."""
    return 2 * (position.fullmove_number - 1) + (position.turn is Color.BLACK)


def _unsearched(bestmove: Optional[str], score: Optional[Score] = Score(0), **fields: object) -> SearchResult:
    """An answer found without a search (a book move, no move to play, a failure): depth and nodes 0,
    and a score (0 unless given; None: no position to score), which the draw offer and the front ends
    read."""
    return SearchResult(bestmove, score=score, depth=0, nodes=0, **fields)  # type: ignore[arg-type]


def _pv_line(report: SearchReport, material: int) -> PvLine:
    """The kernel's SearchReport of one line as the vocabulary's PvLine, with the chances its score stands
    for at the root's material count `material` (engine.wdl)."""
    score = Score(report.score)
    return PvLine(
        depth=report.depth, seldepth=report.seldepth, multipv=report.multipv, score=score,
        nodes=report.nodes, time_ms=report.time_ms, nps=report.nps,
        hashfull=report.hashfull, tbhits=report.tbhits, pv=report.pv, wdl=wdl.chances(score, material),
    )


def _clamp_ms(value: float) -> int:
    return int(min(max(value, 1), _MAX_MS))



"""The engine of an analysis, through the project's client (engine.client.SimpleEngine): jiangjun hosted in this
process (the default), or any UCI/UCCI/XBoard program given with ``--engine``; and one position analysed.

    engine = open_engine(None, threads=1, hash_mb=64)      # or open_engine("/usr/games/fairy-stockfish")
    result = analyse(engine, position, SearchLimits(depth=8), multipv=2, on_lines=print)
    result.bestmove, result.score, result.wdl, result.lines     # engine.search_types.SearchResult
    engine.quit()

Scores, and the chances of a win, a draw and a loss where the engine gives them (jiangjun always; another
engine with UCI_ShowWDL, switched on when it offers it), are from the side to move's view. Every PV is
checked against the rules and cut at its first move that is not legal. A position whose game is over by the
rules is not searched: its result has no move, and the score and chances the outcome means (:func:`concluded`).
Ctrl-C during a search raises engine.client.SearchInterrupted with what the engine had found, checked alike.
"""
from __future__ import annotations

from typing import Callable, Dict, Mapping, Optional, Sequence

from ..client import EngineConfig, EngineError, EngineProtocolError, SearchInterrupted, SimpleEngine
from ..client.simple import SHOW_WDL, legal_lines
from ..position import Outcome, Position
from ..score import MATE, Score
from ..search_types import PvLine, SearchLimits, SearchResult, Wdl
from .errors import AnalyzeError

#: The built-in engine's settings when not given (--threads, --hash).
DEFAULT_THREADS, DEFAULT_HASH_MB = 1, 64
#: Seconds an engine program may take to start (its handshake).
START_TIMEOUT = 15.0

LinesCallback = Callable[[Sequence[PvLine]], None]
Warn = Callable[[str], None]


def open_engine(command: Optional[str], *, proto: str = "auto", options: Optional[Mapping[str, str]] = None,
                threads: Optional[int] = None, hash_mb: Optional[int] = None, table_folders: Sequence[str] = (),
                warn: Warn = lambda text: None) -> SimpleEngine:
    """jiangjun in this process (`command` None; threads 1 and 64 MB unless given; the endgame tables of
    `table_folders` before the shipped ones, as --tables shows them) or the program `command`, with its
    chances shown when it offers them. Raises AnalyzeError when it cannot be used."""
    if command is None:
        if options:
            raise AnalyzeError("--option applies to an engine given with --engine; "
                               "the built-in engine takes --threads and --hash")
        settings = {"Threads": threads or DEFAULT_THREADS, "Hash": hash_mb or DEFAULT_HASH_MB}
        if table_folders:
            settings["TablebasePath"] = ";".join(map(str, table_folders))
        try:
            engine = SimpleEngine.in_process(options=settings)
        except EngineError as exc:
            raise AnalyzeError(f"the built-in engine cannot be used: {exc}") from None
    else:
        try:   # the user's --option settings go with the handshake, as given (checked where declared)
            engine = SimpleEngine.open(EngineConfig(command, proto=proto, options=dict(options or {})),
                                       timeout=START_TIMEOUT)
        except EngineError as exc:
            raise AnalyzeError(f"the engine failed to start: {exc}") from None
    try:
        if command is not None:
            _set_resources(engine, threads, hash_mb, warn)
        engine.show_wdl()
    except EngineError as exc:
        engine.quit()
        raise AnalyzeError(f"{engine.name} failed while setting options: {exc}") from None
    return engine


def _set_resources(engine: SimpleEngine, threads: Optional[int], hash_mb: Optional[int], warn: Warn) -> None:
    """--threads and --hash under the program's names for them, each with a warning when it has none."""
    for value, names in ((threads, ("Threads",)), (hash_mb, ("Hash", "hashsize"))):
        if value is None:
            continue
        name = engine.option_name(*names)
        if name is None:
            warn(f"{engine.name} does not offer the option {names[0]}; ignored")
        else:
            engine.configure({name: value})


def description(engine: SimpleEngine, threads: Optional[int] = None, hash_mb: Optional[int] = None) -> str:
    """``jiangjun 0.1.0 (in-process, 1 thread, 64 MB hash)`` or ``Fairy-Stockfish 11.1 (UCI, /usr/games/...)``."""
    if engine.process.in_process:
        threads = threads or DEFAULT_THREADS
        return (f"{engine.name} (in-process, {threads} thread{'s' if threads != 1 else ''}, "
                f"{hash_mb or DEFAULT_HASH_MB} MB hash)")
    return f"{engine.name} ({engine.protocol.upper()}, {engine.process.config.cmd})"


def gives_chances(engine: SimpleEngine) -> bool:
    """Whether the engine's lines carry win/draw/loss chances (it offers UCI_ShowWDL, switched on at opening)."""
    return engine.option_name(*SHOW_WDL) is not None


def usable_multipv(engine: SimpleEngine, wanted: int, warn: Warn) -> int:
    """The lines the engine can show of the `wanted`: one, with a warning, for an engine without MultiPV or an
    XBoard engine (whose thinking lines carry no line number)."""
    if wanted <= 1:
        return 1
    if engine.protocol == "xboard":
        warn(f"{engine.name} is an XBoard engine, whose output has one line; showing one")
        return 1
    if engine.option_name("MultiPV") is None:
        warn(f"{engine.name} does not offer MultiPV; showing one line")
        return 1
    return wanted


def analyse(engine: SimpleEngine, position: Position, limits: SearchLimits, multipv: int = 1,
            on_lines: Optional[LinesCallback] = None) -> SearchResult:
    """The engine's analysis of `position` (its moves since the start are sent): the move, its score and
    `multipv` lines, best first. `on_lines` is called with the current lines (legal PVs, best first by
    number) each time the engine reports one. A position whose game is over is not searched (:func:`concluded`).

    Raises AnalyzeError when the engine fails or answers no move, an illegal one or no score for it;
    SearchInterrupted (Ctrl-C) with the result checked the same way, or None."""
    outcome = position.outcome()
    if outcome is not None:
        return concluded(position, outcome)
    latest: Dict[int, PvLine] = {}

    def seen(info: PvLine) -> None:
        if on_lines is not None and info.pv and info.score is not None and info.bound is None:
            latest[info.multipv] = info
            on_lines(legal_lines(position, latest.values()))

    try:
        result = engine.search(position, limits, multipv=multipv, on_info=seen)
    except SearchInterrupted as stopped:
        if stopped.result is not None:
            stopped.result = _checked(engine, position, stopped.result)
        raise
    except EngineProtocolError as exc:      # an illegal move answered
        raise AnalyzeError(str(exc)) from None
    except EngineError as exc:
        raise AnalyzeError(f"{engine.name} failed: {exc}") from None
    return _checked(engine, position, result)


def _checked(engine: SimpleEngine, position: Position, result: SearchResult) -> SearchResult:
    """The result, if it has a move (legal: the client checked it) with a score."""
    if result.bestmove is None:
        raise AnalyzeError(f"{engine.name} answered no move in {position.fen()}")
    if result.score is None or not result.lines:
        raise AnalyzeError(f"{engine.name} gave no score for its best move {result.bestmove} in {position.fen()}")
    return result


def concluded(position: Position, outcome: Outcome) -> SearchResult:
    """The result of a position whose game is over: no move, and the side to move's score and chances as the
    outcome means them (a draw 0; a loss -#0, mated now; a win, by the rulings on repetitions, #0)."""
    if outcome.winner is None:
        score, chances = Score(0), Wdl(0, 1000, 0)
    elif outcome.winner == position.turn:
        score, chances = Score(MATE), Wdl(1000, 0, 0)
    else:
        score, chances = Score.mated(), Wdl(0, 0, 1000)
    return SearchResult(bestmove=None, score=score, wdl=chances, note=outcome.reason.words)


def outcome_of(position: Position, result: SearchResult) -> Optional[Outcome]:
    """The outcome of a position whose result has no move (it was not searched: the game is over), else None."""
    return position.outcome() if result.bestmove is None else None

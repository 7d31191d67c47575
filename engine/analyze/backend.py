"""The engine behind one interface: the in-process searcher, or any UCI/UCCI/XBoard engine process.

    backend = open_backend(None, threads=1, hash_mb=64)          # or open_backend("/usr/games/fairy-stockfish")
    analysis = backend.analyse(START_FEN, ["h2e2"], SearchLimits(depth=8), multipv=2, on_update=print)
    analysis.lines[0].score, analysis.lines[0].pv, analysis.bestmove
    backend.close()

Scores, and the chances of a win, a draw and a loss where the engine gives them (the in-process engine
always: engine.wdl's model; another engine with UCI_ShowWDL, which is switched on when it offers it), are
from the side to move's view. Every PV is checked against the rules and cut at its first move
that is not legal (or that comes after the end of the game). A position whose game is over by the rules is
not searched: the analysis then carries its outcome and the score it implies. An analysis is limited by
depth, nodes or movetime (engine.search_types.SearchLimits), any combination: the first reached ends it.
"""
from __future__ import annotations

import queue
import time
from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..client import EngineConfig, EngineError, open_process
from ..position import Outcome, Position, legal_prefix
from ..score import MATE, Score
from ..search_types import PvLine, SearchLimits, Wdl
from .. import wdl as wdl_model
from .errors import AnalyzeError


#: How long a UCI/UCCI engine may take beyond the time asked for before it counts as hung (seconds).
EXTERNAL_GRACE = 30.0
#: The timeout for an external search limited by depth or nodes only (seconds): Ctrl-C ends it sooner.
EXTERNAL_NO_TIME_LIMIT = 24 * 3600.0


@dataclass(frozen=True)
class Analysis:
    """The analysis of one position: its lines, best first (empty when the game is over)."""

    fen: str                                    # the position analysed
    lines: Tuple[PvLine, ...] = ()
    bestmove: Optional[str] = None
    outcome: Optional[Outcome] = None           # the game is over by the rules; nothing was searched
    side_to_move_won: bool = False              # with an outcome: whether the side to move is the winner
    nodes: Optional[int] = None
    time_ms: Optional[int] = None
    interrupted: bool = False                   # Ctrl-C ended the search early

    @property
    def score(self) -> Score:
        """The side to move's score: the best line's, or what the outcome means (a loss is -#0)."""
        if self.outcome is not None:
            if self.outcome.winner is None:
                return Score(0)
            return Score(MATE) if self.side_to_move_won else Score.mated()
        return self.lines[0].score

    @property
    def wdl(self) -> Optional[Wdl]:
        """The side to move's chances: the best line's (None when the engine gave none), or what the
        outcome means."""
        if self.outcome is not None:
            if self.outcome.winner is None:
                return Wdl(0, 1000, 0)
            return Wdl(1000, 0, 0) if self.side_to_move_won else Wdl(0, 0, 1000)
        return self.lines[0].wdl

    @property
    def depth(self) -> Optional[int]:
        return self.lines[0].depth if self.lines else None


UpdateCallback = Callable[[Tuple[PvLine, ...]], None]


class Backend:
    """What the analysis tool needs from an engine. Subclasses implement `_search` and `close`."""

    name: str = "engine"
    description: str = "engine"
    gives_wdl: bool = False     # whether its lines carry win/draw/loss chances

    def analyse(self, fen: str, moves: Sequence[str], limits: SearchLimits, multipv: int = 1,
                on_update: Optional[UpdateCallback] = None) -> Analysis:
        """Analyse the position after `moves` (ICCS, legal) from `fen`. `on_update` is called on the
        calling thread with the current lines each time the engine reports one.

        Raises AnalyzeError when the engine fails or answers an illegal move.
        """
        position = Position(fen)
        for move in moves:
            position.push(move)
        outcome = position.outcome()
        if outcome is not None:
            return Analysis(position.fen(), outcome=outcome, side_to_move_won=outcome.winner == position.turn)

        def update(lines: Tuple[PvLine, ...]) -> None:
            if on_update is not None:
                on_update(_clean(position, lines))

        analysis = self._search(fen, list(moves), position, limits, max(1, multipv), update)
        return _finish(position, analysis, self.name)

    def _search(self, fen: str, moves: List[str], position: Position, limits: SearchLimits, multipv: int,
                on_update: UpdateCallback) -> Analysis:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _clean(position: Position, lines: Sequence[PvLine]) -> Tuple[PvLine, ...]:
    """Lines ordered by multipv, with their PVs cut to what is legal; lines left without a move dropped, and
    lines starting with the same move as an earlier one (left over from the previous iteration)."""
    out, seen = [], set()
    for line in sorted(lines, key=lambda line: line.multipv):
        pv = legal_prefix(position, line.pv)
        if pv and pv[0] not in seen:
            seen.add(pv[0])
            out.append(replace(line, pv=pv))
    return tuple(out)


def _finish(position: Position, analysis: Analysis, name: str) -> Analysis:
    """Check the engine's answer against the rules and make the first line the best move's."""
    best = analysis.bestmove
    if best is None or not position.is_legal(best):
        shown = "no move" if best is None else f"the illegal move {best}"
        raise AnalyzeError(f"{name} answered {shown} in {position.fen()}")
    lines = list(_clean(position, analysis.lines))
    if not lines or lines[0].pv[0] != best:
        # Line 1 did not (yet) show the best move: keep the line that does, if any, at the front.
        match = next((line for line in lines if line.pv[0] == best), None)
        if match is None:
            raise AnalyzeError(f"{name} gave no score for its best move {best} in {position.fen()}")
        lines.remove(match)
        lines.insert(0, match)
    # One line per first move, renumbered in order.
    seen, unique = set(), []
    for line in lines:
        if line.pv[0] not in seen:
            seen.add(line.pv[0])
            unique.append(line)
    numbered = tuple(replace(line, multipv=k) for k, line in enumerate(unique, 1))
    return Analysis(position.fen(), numbered, best, nodes=analysis.nodes, time_ms=analysis.time_ms,
                    interrupted=analysis.interrupted)


# -- the project's own engine, in-process --------------------------------------------------------------

class InProcessBackend(Backend):
    """The jiangjun searcher through the Engine facade (engine.server.engine). The transposition table is kept
    from one position to the next, which helps when the positions follow one another in a game."""

    gives_wdl = True

    def __init__(self, threads: int = 1, hash_mb: int = 64) -> None:
        from ..server.engine import Engine, EngineOptions
        from ..version import ENGINE_NAME

        try:
            # An analysis searches every position: no book moves.
            self._engine = Engine(EngineOptions(hash_mb=hash_mb, threads=threads, own_book=False))
        except MemoryError:
            raise AnalyzeError(f"cannot allocate a {hash_mb} MB hash table; try a smaller --hash") from None
        self.name = ENGINE_NAME
        self.description = f"{self.name} (in-process, {threads} thread{'s' if threads != 1 else ''}, " \
                           f"{hash_mb} MB hash)"

    def _search(self, fen: str, moves: List[str], position: Position, limits: SearchLimits, multipv: int,
                on_update: UpdateCallback) -> Analysis:
        engine = self._engine
        if engine.options.multipv != multipv:
            engine.configure(multipv=multipv)
        engine.set_position(fen, moves)
        events: "queue.Queue[object]" = queue.Queue()
        engine.go(limits, on_info=events.put, on_bestmove=events.put)
        latest: Dict[int, PvLine] = {}
        interrupted = False
        while True:
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                continue
            except KeyboardInterrupt:       # stop, and report what was found so far
                interrupted = True
                engine.stop()
                continue
            if isinstance(event, PvLine):
                latest[event.multipv] = event
                on_update(tuple(latest.values()))
                continue
            result = event
            break
        lines = list(latest.values())
        if result.bestmove is not None and result.pv and (1 not in latest or latest[1].pv[:1] != (result.bestmove,)):
            # The result can be newer than the last line 1 reported (a search stopped inside an iteration).
            lines = [line for line in lines if line.multipv != 1]
            lines.append(PvLine(multipv=1, depth=result.depth, score=result.score, pv=result.pv, nodes=result.nodes,
                                time_ms=result.time_ms,
                                wdl=wdl_model.chances(result.score, wdl_model.material_of(position))))
        return Analysis(position.fen(), tuple(lines), result.bestmove, nodes=result.nodes, time_ms=result.time_ms,
                        interrupted=interrupted)

    def close(self) -> None:
        self._engine.shutdown()


# -- any UCI/UCCI/XBoard engine ----------------------------------------------------------------------------

class ExternalBackend(Backend):
    """A UCI, UCCI or XBoard engine process (engine.client.EngineProcess, the client the match runner and
    engine.client.SimpleEngine use: it converts Fairy-Stockfish's 1-based ranks and switches it to xiangqi).
    The `info` lines of every MultiPV line are read as they come (an XBoard engine's thinking: one line)."""

    def __init__(self, cmd: str, proto: str = "auto", options: Optional[Dict[str, str]] = None,
                 threads: Optional[int] = None, hash_mb: Optional[int] = None,
                 warn: Callable[[str], None] = lambda text: None) -> None:
        self._warn = warn
        self._proc = open_process(EngineConfig(cmd, proto=proto, options=dict(options or {})))
        try:
            self._proc.start(timeout=15.0)
        except EngineError as exc:
            self._proc.quit()
            raise AnalyzeError(f"the engine failed to start: {exc}") from None
        self.name = self._proc.name
        self._multipv = 1
        try:
            for value, names in ((threads, ("threads",)), (hash_mb, ("hash", "hashsize"))):
                if value is not None:
                    self._set(names, value, required=True)
            # The engine's own chances where it gives them (its scores are on its own scale).
            self.gives_wdl = self._set(("UCI_ShowWDL", "showwdl"), "true", required=False)
        except EngineError as exc:
            self.close()
            raise AnalyzeError(f"{self.name} failed while setting options: {exc}") from None
        self.description = f"{self.name} ({self._proc.protocol.upper()}, {cmd})"

    def _set(self, names: Sequence[str], value: object, required: bool) -> bool:
        name = self._proc.option_name(*names)
        if name is None:
            if required:
                self._warn(f"{self.name} does not offer the option {names[0]}; ignored")
            return False
        self._proc.set_option(name, str(value))
        return True

    def _search(self, fen: str, moves: List[str], position: Position, limits: SearchLimits, multipv: int,
                on_update: UpdateCallback) -> Analysis:
        proc = self._proc
        try:
            if multipv != self._multipv:
                if multipv > 1 and proc.protocol == "xboard":     # its thinking lines carry no line number
                    self._warn(f"{self.name} is an XBoard engine, whose output has one line; showing one")
                    self._multipv = multipv
                elif self._set(("multipv",), multipv, required=False):
                    self._multipv = multipv
                elif multipv > 1:
                    self._warn(f"{self.name} does not offer MultiPV; showing one line")
        except EngineError as exc:
            raise AnalyzeError(f"{self.name} failed: {exc}") from None

        latest: Dict[int, PvLine] = {}

        def on_info(info: PvLine) -> None:
            line = _line(info)
            if line is not None:
                latest[line.multipv] = line
                on_update(tuple(latest.values()))

        timeout = EXTERNAL_NO_TIME_LIMIT if limits.movetime is None else limits.movetime / 1000 + EXTERNAL_GRACE
        start = time.monotonic()
        interrupted = False
        try:
            result = proc.go(fen, moves, position.turn, limits, timeout=timeout, on_info=on_info)
            bestmove = result.bestmove
        except KeyboardInterrupt:
            # The reader may be anywhere in the exchange: keep what was reported and drop the engine.
            interrupted = True
            best = latest.get(1)
            bestmove = best.pv[0] if best is not None else None
            self.close()
            if bestmove is None:
                raise
            result = None
        except EngineError as exc:
            raise AnalyzeError(f"{self.name} failed: {exc}") from None
        if result is not None and bestmove is not None and (1 not in latest or latest[1].pv[:1] != (bestmove,)):
            if result.pv[:1] == (bestmove,) and result.score is not None:
                latest[1] = PvLine(multipv=1, depth=result.depth or 0, score=result.score, pv=result.pv,
                                   nodes=result.nodes)
        elapsed = int((time.monotonic() - start) * 1000)
        nodes = max((line.nodes or 0 for line in latest.values()), default=0) or None
        return Analysis(position.fen(), tuple(latest.values()), bestmove, nodes=nodes, time_ms=elapsed,
                        interrupted=interrupted)

    def close(self) -> None:
        self._proc.quit()


def _line(info: PvLine) -> Optional[PvLine]:
    """The line an `info` reports, if it has an exact score and a PV (a depth of 0 when not given)."""
    if info.score is None or info.bound is not None or not info.pv:
        return None
    return info if info.depth is not None else replace(info, depth=0)


def open_backend(cmd: Optional[str], *, proto: str = "auto", options: Optional[Dict[str, str]] = None,
                 threads: Optional[int] = None, hash_mb: Optional[int] = None,
                 warn: Callable[[str], None] = lambda text: None) -> Backend:
    """The in-process engine (cmd None; threads 1 and 64 MB unless given) or the engine process `cmd`."""
    if cmd is None:
        if options:
            raise AnalyzeError("--option applies to an engine given with --engine; "
                               "the built-in engine takes --threads and --hash")
        return InProcessBackend(threads=threads or 1, hash_mb=hash_mb or 64)
    return ExternalBackend(cmd, proto=proto, options=options, threads=threads, hash_mb=hash_mb, warn=warn)

"""One game between two engine processes, judged by the rules library and the clocks kept here."""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..client import EngineCrashed, EngineError, EngineProcess, EngineProtocolError
from ..color import Color
from ..outcome import Ending, Termination
from ..position import Position
from ..score import Score
from ..search_types import PvLine, SearchLimits, SearchResult
from .openings import Opening
from .timecontrol import Clock, TimeControl


class MatchTermination(Ending):
    """The endings the match runner decides, where the rules (engine.outcome.Termination) did not end the
    game: an engine at fault, or adjudication. An Ending like Termination, so a GameRecord's termination is
    a key of either, written in the PGN Termination tag and the result tables by its `words` alike."""

    TIME_FORFEIT = "time_forfeit", "time forfeit"
    ILLEGAL_MOVE = "illegal_move", "illegal move"
    CRASH = "crash", "crash"
    HANG = "hang", "hang"
    NO_MOVE = "no_move", "no move in a live position"
    RESIGNATION = "resignation", "resignation"   # the engine's own `bestmove ... resign` (CECP `resign`, or a
                                                 # claim of its own loss)
    INVALID_CLAIM = "invalid_claim", "invalid result claim"   # CECP: a win or draw the rules do not give
    PROTOCOL_ERROR = "protocol_error", "protocol error"       # e.g. a move of the game refused as illegal
    RESIGN_ADJUDICATION = "resign_adjudication", "adjudicated: resignation"
    DRAW_ADJUDICATION = "draw_adjudication", "adjudicated: draw"
    MAX_MOVES = "max_moves", "adjudicated: move limit"


# Every termination of a match game by its key, in the order tables list them: the rules' first.
TERMINATIONS: dict[str, Ending] = {ending.value: ending for ending in (*Termination, *MatchTermination)}


@dataclass
class Adjudication:
    """Score-based adjudication, as in cutechess-cli, plus a move limit."""

    draw_movenumber: int = 0      # draw: from this full move on ...
    draw_movecount: int = 0       # ... when both sides' scores stayed within draw_score for this many moves each
    draw_score: int = 0
    resign_movecount: int = 0     # resign: a side's score at or below -resign_score for this many moves
    resign_score: int = 0
    resign_twosided: bool = False  # ... and the opponent's at or above resign_score
    max_moves: int = 0            # full moves after which the game is a draw (0: no limit)


@dataclass
class Player:
    """An engine in a game: its process, time control and display name."""

    process: EngineProcess
    name: str
    tc: TimeControl


@dataclass(frozen=True)
class EngineIdentity:
    """Which engine played a side, for the record: its own name (`id name`; its command when it gave
    none) and every option the client set it, in the order sent."""

    id_name: str
    options: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, process: EngineProcess) -> "EngineIdentity":
        return cls(process.id_name or process.config.cmd, dict(process.options_set))


@dataclass
class GameRecord:
    red: str
    black: str
    opening: Opening
    moves: list[str] = field(default_factory=list)      # ICCS, opening moves included
    comments: list[Optional[str]] = field(default_factory=list)   # cutechess style; "book" for opening moves
    # What the engine reported with each move: score (its own view), depth and time_ms; None: a book move.
    evals: list[Optional[PvLine]] = field(default_factory=list)
    identities: list[EngineIdentity] = field(default_factory=list)   # Red's, Black's; empty if one did not start
    result: str = "*"
    termination: str = ""      # an Ending (a key of TERMINATIONS); "" while unfinished or when interrupted
    detail: str = ""           # what happened, for people
    loser_index: Optional[int] = None   # 0 red, 1 black: the engine at fault, when one failed
    clock_log: list[tuple[int, str, float, Optional[int]]] = field(default_factory=list)
    # (ply, side, remaining seconds sent, movestogo sent) for every go; tests read it

    @property
    def winner(self) -> Optional[str]:
        return {"1-0": "red", "0-1": "black"}.get(self.result)


def play_game(
    red: Player,
    black: Player,
    opening: Opening,
    adjudication: Adjudication,
    time_margin: float,
    stall_timeout: float,
    stop: threading.Event,
    on_move: Optional[Callable[[GameRecord], None]] = None,
) -> GameRecord:
    """Play one game to its end by the rules, a failure, adjudication or a stop request."""
    record = GameRecord(red.name, black.name, opening,
                        identities=[EngineIdentity.of(red.process), EngineIdentity.of(black.process)])
    position = Position(opening.fen)
    for move in opening.moves:
        position.push(move)
        record.moves.append(move)
        record.comments.append("book")
        record.evals.append(None)
    players = (red, black)
    clocks = (Clock(red.tc), Clock(black.tc))
    scores: tuple[list[Optional[float]], list[Optional[float]]] = ([], [])   # for adjudication

    def finish(result: str, termination: str, detail: str, loser: Optional[int] = None) -> GameRecord:
        record.result, record.termination, record.detail, record.loser_index = result, termination, detail, loser
        for player in players:      # CECP engines are told the result (`result 1-0 {...}`); the others nothing
            player.process.game_over(result, detail)
        return record

    while True:
        outcome = position.outcome()
        if outcome is not None:
            result = outcome.result
            words = outcome.reason.words
            return finish(result, outcome.reason, f"{outcome.winner.label} wins by {words}"
                          if outcome.winner is not None else f"draw by {words}")
        if stop.is_set():
            return finish("*", "", "interrupted")
        side = position.turn.index
        mover, clock = players[side], clocks[side]
        loses = "0-1" if side == 0 else "1-0"
        mover_word = position.turn.label
        limits, timeout = _limits(mover.tc, clocks, side, time_margin, stall_timeout)
        record.clock_log.append((len(record.moves), position.turn.value,
                                 clock.remaining if mover.tc.stages else -1.0, clock.moves_to_go()))
        try:
            answer = mover.process.go(opening.fen, record.moves, position.turn, limits, timeout)
        except EngineError as exc:
            if stop.is_set():
                return finish("*", "", "interrupted")
            if isinstance(exc, EngineCrashed):
                return finish(loses, MatchTermination.CRASH, f"{mover_word} ({mover.name}): {exc}", side)
            if isinstance(exc, EngineProtocolError):
                return finish(loses, MatchTermination.PROTOCOL_ERROR, f"{mover_word} ({mover.name}): {exc}", side)
            if mover.tc.stages:
                return finish(loses, MatchTermination.TIME_FORFEIT,
                              f"{mover_word} ({mover.name}) did not move in time and stopped answering: {exc}", side)
            return finish(loses, MatchTermination.HANG, f"{mover_word} ({mover.name}): {exc}", side)
        elapsed = answer.time_ms / 1000
        if mover.tc.stages:
            over = elapsed - clock.remaining
            clock.punch(elapsed)
            if over > time_margin:
                return finish(loses, MatchTermination.TIME_FORFEIT,
                              f"{mover_word} ({mover.name}) lost on time ({over:.3f} s over)",
                              side)
        elif mover.tc.movetime is not None and elapsed > mover.tc.movetime + time_margin:
            return finish(loses, MatchTermination.TIME_FORFEIT,
                          f"{mover_word} ({mover.name}) took {elapsed:.3f} s for a {mover.tc.movetime:g} s move",
                          side)
        if answer.resign:
            return finish(loses, MatchTermination.RESIGNATION, f"{mover_word} ({mover.name}) resigns")
        if answer.claim is not None and answer.bestmove is None:
            return finish(*_judge_claim(answer, position, mover.name))
        if answer.bestmove is None:
            return finish(loses, MatchTermination.NO_MOVE,
                          f"{mover_word} ({mover.name}) gave no move in a live position", side)
        if not position.is_legal(answer.bestmove):
            return finish(loses, MatchTermination.ILLEGAL_MOVE,
                          f"{mover_word} ({mover.name}) played the illegal move {answer.bestmove}", side)
        position.push(answer.bestmove)
        record.moves.append(answer.bestmove)
        record.comments.append(_comment(answer))
        record.evals.append(PvLine(score=answer.score, depth=answer.depth, time_ms=answer.time_ms))
        scores[side].append(_adjudication_cp(answer.score))
        if on_move is not None:
            on_move(record)
        if answer.claim is not None and position.outcome() is None:
            return finish(*_judge_claim(answer, position, mover.name))     # (else the rules end the game next)
        verdict = _adjudicate(adjudication, scores, side, position)
        if verdict is not None:
            return finish(*verdict)


def _limits(tc: TimeControl, clocks: tuple[Clock, Clock], side: int, margin: float,
            stall_timeout: float) -> tuple[SearchLimits, float]:
    """What to send with go (the mover's clock and its opponent's, in ms), and how long to wait before
    declaring the engine hung."""
    if tc.stages:
        own, opp = clocks[side], clocks[1 - side]
        # An opponent playing at a depth or node count (its own tc) has no clock to send.
        own_time, opp_time = (None if math.isinf(c.remaining) else max(0.0, c.remaining) * 1000
                              for c in (own, opp))
        limits = SearchLimits(
            time=own_time, increment=own.increment() * 1000 if own_time is not None else None,
            opp_time=opp_time, opp_increment=opp.increment() * 1000 if opp_time is not None else None,
            movestogo=own.moves_to_go(),
        )
        return limits, max(0.0, own.remaining) + margin + 1.0
    if tc.movetime is not None:
        return SearchLimits(movetime=tc.movetime * 1000), tc.movetime + margin + 1.0
    return SearchLimits(depth=tc.depth, nodes=tc.nodes), stall_timeout


def _judge_claim(answer: SearchResult, position: Position,
                 name: str) -> tuple[str, MatchTermination, str, Optional[int]]:
    """finish() arguments for a result a CECP engine claimed (``1-0 {...}``, with or without its move) where
    the rules have not ended the game: the rules are the referee, as in cutechess (claims validated). A claim
    of the claimer's own loss is a resignation; a win or a draw that the rules do not give loses the game for
    the claimer. (A claim made where the rules do end the game is not judged: the rules' result stands.)

    `position` is the position after the claimer's move, if it made one; the claimer is the side that moved
    last then, else the side to move."""
    claimer = position.turn.other if answer.bestmove is not None else position.turn
    loses = "0-1" if claimer is Color.RED else "1-0"
    said = f"{answer.claim} {{{answer.note}}}" if answer.note else answer.claim
    who = f"{claimer.label} ({name})"
    if answer.claim == loses:
        return loses, MatchTermination.RESIGNATION, f"{who} resigns: it claims {said}", None
    return loses, MatchTermination.INVALID_CLAIM, f"{who} claims {said}, which the rules do not give", \
        claimer.index


def _adjudication_cp(score: Optional[Score]) -> Optional[float]:
    """The mover's score as adjudication compares it: centipawns, a mate beyond every threshold."""
    if score is None:
        return None
    if score.is_mate:
        return math.copysign(math.inf, score.value)
    return float(score.value)


def _comment(answer: SearchResult) -> str:
    """cutechess-style move comment: score in pawns from the mover's side / depth, and time:
    ``+0.35/9 0.512s``, ``+M3/12 0.200s`` (mates in 3), ``-M2/...`` (mated in 2), ``?/0 ...`` (no score)."""
    value = answer.score
    if value is None:
        score = "?"
    elif value.is_mate:
        score = f"{'+' if value.value > 0 else '-'}M{abs(value.mate or 0)}"
    else:
        score = f"{value.value / 100:+.2f}"
    depth = answer.depth if answer.depth is not None else 0
    return f"{score}/{depth} {answer.time_ms / 1000:.3f}s"


def _adjudicate(rule: Adjudication, scores: tuple[list, list], side: int,
                position: Position) -> Optional[tuple[str, MatchTermination, str]]:
    """Score-based adjudication after a move by `side`; returns finish() arguments or None."""
    fullmoves = len(position.move_stack) // 2
    if rule.resign_movecount > 0:
        recent = scores[side][-rule.resign_movecount:]
        other = scores[1 - side][-rule.resign_movecount:]
        if len(recent) == rule.resign_movecount and all(s is not None and s <= -rule.resign_score for s in recent):
            if not rule.resign_twosided or (
                len(other) == rule.resign_movecount and all(s is not None and s >= rule.resign_score for s in other)
            ):
                return ("0-1" if side == 0 else "1-0", MatchTermination.RESIGN_ADJUDICATION,
                        f"{Color.of_index(side).label} resigns (adjudicated)")
    if rule.draw_movecount > 0 and fullmoves >= rule.draw_movenumber:
        a = scores[0][-rule.draw_movecount:]
        b = scores[1][-rule.draw_movecount:]
        if len(a) == len(b) == rule.draw_movecount and all(
            s is not None and abs(s) <= rule.draw_score for s in a + b
        ):
            return ("1/2-1/2", MatchTermination.DRAW_ADJUDICATION, "draw by adjudication")
    if rule.max_moves > 0 and fullmoves >= rule.max_moves:
        return ("1/2-1/2", MatchTermination.MAX_MOVES, f"draw: the {rule.max_moves}-move limit of the match")
    return None

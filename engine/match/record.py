"""The record of one match game: its moves with what the engines said of each, who played, how it ended.
What the PGN (engine.match.pgn), the journal (engine.match.journal) and the tables are written from."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..client import EngineProcess
from ..score import Score
from ..search_types import SearchResult
from .endings import Reason, Verdict
from .openings import Opening


@dataclass(frozen=True)
class MoveEval:
    """What an engine reported with one move of the game: its score (its own view), depth and time. Not a
    PvLine: a move of the game is a `bestmove` with the last main line's figures, not one line of a search."""

    score: Optional[Score] = None
    depth: Optional[int] = None
    time_ms: Optional[float] = None

    @classmethod
    def of(cls, answer: SearchResult) -> "MoveEval":
        return cls(answer.score, answer.depth, answer.time_ms)


@dataclass(frozen=True)
class EngineIdentity:
    """Which engine played a side, for the record: its own name (`id name`; its command when it gave
    none) and every option the client set it, in the order sent."""

    id_name: str
    options: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, process: EngineProcess) -> "EngineIdentity":
        return cls(process.id_name or process.config.cmd, dict(process.options_set))


# (ply, side, remaining seconds sent (-1: no clock), movestogo sent) for every go; tests read it.
ClockEntry = tuple[int, str, float, Optional[int]]


@dataclass
class GameRecord:
    red: str
    black: str
    opening: Opening
    moves: list[str] = field(default_factory=list)      # ICCS, opening moves included
    comments: list[Optional[str]] = field(default_factory=list)   # cutechess style; "book" for opening moves
    evals: list[Optional[MoveEval]] = field(default_factory=list)  # None: a book move
    identities: list[EngineIdentity] = field(default_factory=list)   # Red's, Black's; empty if one did not start
    result: str = "*"
    termination: Optional[Reason] = None   # None while unfinished or when interrupted
    detail: str = ""           # what happened, for people
    loser_index: Optional[int] = None   # 0 red, 1 black: the engine at fault, when one failed
    clock_log: list[ClockEntry] = field(default_factory=list)

    @property
    def winner(self) -> Optional[str]:
        return {"1-0": "red", "0-1": "black"}.get(self.result)

    def add_book_move(self, move: str) -> None:
        self.moves.append(move)
        self.comments.append("book")
        self.evals.append(None)

    def add_move(self, move: str, comment: str, note: MoveEval) -> None:
        self.moves.append(move)
        self.comments.append(comment)
        self.evals.append(note)

    def finish(self, verdict: Verdict) -> "GameRecord":
        self.result, self.termination, self.detail = verdict.result, verdict.reason, verdict.detail
        self.loser_index = verdict.loser
        return self


def move_comment(answer: SearchResult) -> str:
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

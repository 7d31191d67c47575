"""Annotating a game: every position is analysed once, and each move is judged from two consecutive
analyses.

For the move from position i to position i+1, by the side to move at i (the mover):

* ``before`` is the best score at i (the engine's best move, from the mover's view);
* ``after`` is the score at i+1 seen from the mover (the negated score of the side to move there);
* the loss is ``before - after`` with both capped at ±``cap`` centipawns (a mate counts as the cap), and
  never below 0. Capping treats mates sensibly: a mate in 3 that becomes a mate in 5, or a won position
  that stays won by more than the cap, loses nothing; letting a mate in, or letting a mate go while the
  rest is not clearly won, loses a lot.
* a move that is the engine's best move at i loses nothing and is never marked, whatever the next
  analysis says (a deeper look from i+1 can disagree with the one from i);
* a move that loses at least ``blunder`` centipawns is a blunder, else at least ``mistake`` a mistake,
  else at least ``inaccuracy`` an inaccuracy; the best alternative is the engine's best move at i.
* a move of the opening book (when one is given) is marked as a book move and not judged: it loses
  nothing. The game's opening is the name the book gives the last position reached by book moves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence

from ..book import Book
from ..client import SearchInterrupted, SimpleEngine
from ..position import Color, Position
from ..score import Score
from ..search_types import PvLine, SearchLimits, SearchResult, Wdl
from .engines import analyse
from .errors import AnalyzeError

CLASSES = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """Centipawns lost (mover's view) from which a move is an inaccuracy, a mistake, a blunder; scores are
    capped at ±cap before the loss is taken."""

    inaccuracy: int = 50
    mistake: int = 100
    blunder: int = 300
    cap: int = 1000

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise AnalyzeError(f"thresholds must satisfy 0 < inaccuracy <= mistake <= blunder, not "
                               f"{self.inaccuracy}/{self.mistake}/{self.blunder}")

    def classify(self, loss: int) -> Optional[str]:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None

    def to_json(self) -> dict:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder, "cap": self.cap}


def judge(before: Score, after: Score, best: bool, thresholds: Thresholds) -> tuple:
    """(loss in cp, class or None) of a move, both scores from the mover's view."""
    if best:
        return 0, None
    loss = max(0, before.capped(thresholds.cap) - after.capped(thresholds.cap))
    return loss, thresholds.classify(loss)


@dataclass(frozen=True)
class MoveRecord:
    """One move of the game and the engine's verdict on it."""

    ply: int                    # 1 for the first move
    move: str                   # ICCS
    mover: Color
    fen_before: str             # the position the move was played in
    before: SearchResult        # the analysis of that position (its best line is the best alternative)
    after: Score                # the score after the move, from the mover's view
    best: bool                  # the move was the engine's best move
    loss: int                   # centipawns, >= 0
    classification: Optional[str]
    book: bool = False          # a move of the opening book: not judged
    after_wdl: Optional[Wdl] = None   # the chances after the move, from the mover's view (None: not given)

    @property
    def best_line(self) -> Optional[PvLine]:
        return self.before.lines[0] if self.before.lines else None

    @property
    def before_score(self) -> Score:
        """The best score before the move, from the mover's view."""
        return self.before.score


@dataclass
class SideSummary:
    """The moves of one side: how many, how many were the engine's best, the loss, the marks."""

    moves: int = 0
    best_moves: int = 0
    book_moves: int = 0
    total_loss: int = 0
    counts: Dict[str, int] = field(default_factory=lambda: {name: 0 for name in CLASSES})

    @property
    def average_loss(self) -> float:
        return self.total_loss / self.moves if self.moves else 0.0

    def add(self, record: MoveRecord) -> None:
        self.moves += 1
        self.best_moves += record.best
        self.book_moves += record.book
        self.total_loss += record.loss
        if record.classification is not None:
            self.counts[record.classification] += 1

    def to_json(self) -> dict:
        return {"moves": self.moves, "best_moves": self.best_moves, "book_moves": self.book_moves,
                "average_loss": round(self.average_loss, 1),
                "inaccuracies": self.counts["inaccuracy"], "mistakes": self.counts["mistake"],
                "blunders": self.counts["blunder"]}


@dataclass
class GameAnalysis:
    """The annotated game. ``analyses[i]`` is the position after i moves (``analyses[0]`` the start);
    when interrupted, fewer positions than ``len(moves) + 1`` were analysed."""

    start_fen: str
    moves: List[str]
    thresholds: Thresholds
    analyses: List[SearchResult] = field(default_factory=list)
    records: List[MoveRecord] = field(default_factory=list)
    interrupted: bool = False
    book_plies: List[bool] = field(default_factory=list)   # [i]: moves[i] is a book move
    opening: Optional[str] = None                          # the opening's name, when the book knows it

    @property
    def summary(self) -> Dict[Color, SideSummary]:
        sides = {Color.RED: SideSummary(), Color.BLACK: SideSummary()}
        for record in self.records:
            sides[record.mover].add(record)
        return sides

    def position_at(self, ply: int) -> Position:
        position = Position(self.start_fen)
        for move in self.moves[:ply]:
            position.push(move)
        return position


ProgressCallback = Callable[[int, Sequence[PvLine]], None]   # (ply of the position, current lines)
RecordCallback = Callable[[MoveRecord], None]


def annotate(engine: SimpleEngine, start_fen: str, moves: Sequence[str], limits: SearchLimits,
             thresholds: Thresholds = Thresholds(), multipv: int = 1,
             on_progress: Optional[ProgressCallback] = None,
             on_record: Optional[RecordCallback] = None, book: Optional[Book] = None) -> GameAnalysis:
    """Analyse every position of the game (start, and after each move) once, and judge each move.

    `on_progress(ply, lines)` reports a search under way; `on_record(record)` each judged move as soon as
    the position after it has been analysed. Ctrl-C stops at the current position (``interrupted``).
    """
    game = GameAnalysis(start_fen, list(moves), thresholds)
    mark_book_moves(game, book)
    position = Position(start_fen)
    fens, movers = [], []
    for ply in range(len(moves) + 1):
        if ply > 0:
            position.push(moves[ply - 1])
        fens.append(position.fen())
        movers.append(position.turn)

        def progress(lines: Sequence[PvLine], ply: int = ply) -> None:
            if on_progress is not None:
                on_progress(ply, lines)

        try:
            analysis = analyse(engine, position, limits, multipv, progress)
        except SearchInterrupted:   # a cut search would misjudge the move: stop before it
            game.interrupted = True
            break
        game.analyses.append(analysis)
        if ply > 0:
            record = _judged(game, ply, fens[ply - 1], movers[ply - 1], analysis)
            game.records.append(record)
            if on_record is not None:
                on_record(record)
    return game


def _judged(game: GameAnalysis, ply: int, fen_before: str, mover: Color, analysis: SearchResult) -> MoveRecord:
    """The verdict on move `ply`, from the analyses of the positions before and after it."""
    previous = game.analyses[ply - 1]
    move = game.moves[ply - 1]
    best = previous.bestmove == move
    after = -analysis.score
    in_book = game.book_plies[ply - 1]
    loss, classification = (0, None) if in_book else judge(previous.score, after, best, game.thresholds)
    after_wdl = None if analysis.wdl is None else -analysis.wdl
    return MoveRecord(ply, move, mover, fen_before, previous, after, best, loss, classification, in_book, after_wdl)


def mark_book_moves(game: GameAnalysis, book: Optional[Book]) -> None:
    """Fill game.book_plies (which moves are the book's) and game.opening (the name of the last position
    reached by book moves that the book names)."""
    game.book_plies = [False] * len(game.moves)
    if book is None:
        return
    position = Position(game.start_fen)
    game.opening = book.opening_name(position)
    for ply, move in enumerate(game.moves):
        in_book = any(entry.move == move for entry in book.moves(position))
        game.book_plies[ply] = in_book
        position.push(move)
        if in_book:
            game.opening = book.opening_name(position) or game.opening

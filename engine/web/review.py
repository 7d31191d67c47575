"""The review of a whole game for the page: `jiangjun analyze`'s annotation (engine.analyze.game.annotate),
one point of the evaluation graph sent as each move is judged.

It opens the tab's engine as the seat does (EngineSpec.open: jiangjun in process, or the --engine program;
the tab's own engine is ended first, so that a tab still runs one engine at a time), and stops between two
positions when the game changes under it.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..analyze.errors import AnalyzeError
from ..analyze.game import MoveRecord, annotate
from ..color import Color
from ..notation import to_chinese, to_wxf
from ..position import Position
from ..score import Score
from ..search_types import SearchLimits
from .seat import EngineFailure, EngineSpec

#: The marks of jiangjun analyze, by class.
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


class ReviewCancelled(Exception):
    """The game changed: the review under way is dropped."""


def review(spec: EngineSpec, start_fen: str, moves: list[str], movetime: int,
           on_point: Callable[[dict], None], cancelled: Callable[[], bool]) -> dict:
    """Annotate the game, calling `on_point` with each position's point (ply 0 with the first move's); returns
    the two sides' summaries. Raises EngineFailure when the engine cannot be used, ReviewCancelled when
    `cancelled()` turns true."""
    from ..book import default_book

    engine = spec.open()

    def judged(record: MoveRecord) -> None:
        if cancelled():
            raise ReviewCancelled()
        if record.ply == 1:
            on_point(_point(0, None, _red(record.before_score, record.mover), None))
        on_point(_point(record.ply, record, _red(record.after, record.mover), record.mover))

    try:
        game = annotate(engine, start_fen, moves, SearchLimits(movetime=movetime), on_record=judged,
                        book=default_book())
    except AnalyzeError as exc:
        raise EngineFailure(str(exc)) from None
    finally:
        engine.quit()
    return {"red": game.summary[Color.RED].to_json(), "black": game.summary[Color.BLACK].to_json(),
            "opening": game.opening}


def _red(score: Score, viewer: Color) -> Score:
    return score if viewer is Color.RED else -score


def _point(ply: int, record: Optional[MoveRecord], red: Score, mover: Optional[Color]) -> dict:
    """A point of the graph: Red's score after `ply` moves (capped at ±1000 for drawing), and the verdict on
    the move that led there (its mark, the best move instead when it was not the best and not a book move)."""
    point = {"ply": ply, "red": red.to_json(), "graph": red.capped(1000)}
    if record is not None:
        before = Position(record.fen_before)
        best = record.best_line if not (record.best or record.book) else None
        point.update({
            "move": to_chinese(before, record.move), "mark": MARKS.get(record.classification or ""),
            "classification": record.classification, "loss": record.loss, "book": record.book,
            "best": to_chinese(before, best.pv[0]) if best is not None and best.pv else None,
            "best_wxf": to_wxf(before, best.pv[0]) if best is not None and best.pv else None,
        })
    return point

"""The analysis tool's pictures: the board diagram (engine.pictures.diagram) and the evaluation graph
(engine.pictures.evalgraph) as SVG files, and the text board."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Sequence

from ..notation import to_notation
from ..pictures import diagram, evalgraph
from ..position import Color
from ..score import Score
from .errors import AnalyzeError
from .game import GameAnalysis
from .moves import ply_label


def write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise AnalyzeError(f"cannot write {path}: {exc.strerror or exc}") from None


def board_svg(fen: str, *, last_move: Optional[str], best: Optional[str], flip: bool, caption: str) -> str:
    return diagram.board_svg(fen, move=last_move, arrows=(best,) if best else (), flip=flip, caption=caption)


def text_board(fen: str, *, best: Optional[str], flip: bool, ascii: bool) -> str:
    return diagram.text_board(fen, move=best, flip=flip, ascii=ascii)


def graph_points(game: GameAnalysis, notation: str) -> list:
    """One point per analysed position: its score from Red's view, the move that led to it, its mark."""
    points: List[object] = []
    position = game.position_at(0)
    for ply, analysis in enumerate(game.analyses):
        label, mark = "start", None
        if ply > 0:
            move = game.moves[ply - 1]
            label = f"{ply_label(position)} {to_notation(position, move, notation)}"
            position.push(move)
            mark = game.records[ply - 1].classification
        red = analysis.score if position.turn is Color.RED else -analysis.score
        points.append(evalgraph.GraphPoint(ply, *_graph_score(red), label=label, mark=mark))
    return points


def _graph_score(red: Score) -> tuple:
    """(score, mate) for a GraphPoint: a mate on the board (mate 0) is drawn as a mate in 1 by the winner."""
    if not red.is_mate:
        return red.cp, None
    mate = red.mate or 0
    if mate == 0:
        mate = 1 if red.value > 0 else -1
    return None, mate


def eval_graph_svg(points: Sequence[object], title: str) -> str:
    return evalgraph.eval_graph_svg(points, title=title)

"""Output: text lines, the live terminal display, and JSON, in the user's notation and point of view.

Point of view (``pov``): ``red`` shows every score from Red's side; ``side`` shows a position's scores from
the side to move's, and a game move's from the side that played it. The chances of a win, a draw and a
loss (``27/46/27``, in per cent) are shown beside each score the engine gave them for, from the same view.
A position the endgame tables hold (:mod:`.tables`) gets the table's line, in engine.tablebase.describe's
words, with the table's best moves scored as the engine's lines are (a mate in N as ``#N``, a draw ``0``).
"""
from __future__ import annotations

import shutil
import unicodedata
from dataclasses import dataclass
from typing import IO, Dict, List, Optional, Sequence

from ..fen import START_FEN
from ..notation import to_notation
from ..pgn.game import Game as PgnGame, player_name
from ..position import Color, Outcome, Position
from ..score import Score
from ..search_types import PvLine, SearchLimits, SearchResult, Wdl
from ..tablebase.describe import tb_text, value_json
from .engines import outcome_of
from .game import GameAnalysis, MoveRecord
from .moves import line_texts, numbered_line, ply_label
from ..tablebase import table_score
from .tables import TableLook

POVS = ("red", "side")
MARK_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True)
class Style:
    """How to write moves and scores."""

    notation: str = "chinese"
    pov: str = "red"

    def score(self, score: Score, viewer: Color) -> Score:
        """`score`, given from `viewer`'s side, in this style's point of view."""
        return score.pov(self.pov == "red" and viewer is Color.BLACK)

    def wdl(self, chances: Optional[Wdl], viewer: Color) -> Optional[Wdl]:
        """`chances`, given from `viewer`'s side, in this style's point of view."""
        return None if chances is None else chances.pov(self.pov == "red" and viewer is Color.BLACK)

    def wdl_text(self, chances: Optional[Wdl], viewer: Color) -> str:
        """``27/46/27``: win/draw/loss in per cent in this style's point of view; "" when not given."""
        shown = self.wdl(chances, viewer)
        return "" if shown is None else "/".join(f"{round(x / 10)}" for x in shown)

    def pov_phrase(self, game: bool = False) -> str:
        if self.pov == "red":
            return "from Red's view"
        return "from the view of the side that moved" if game else "from the side to move's view"


def both_povs(score: Score, viewer: Color, viewer_key: str = "side") -> dict:
    """``{"red": {...}, viewer_key: {...}}``: a score given from `viewer`'s side, from both views."""
    red = score if viewer is Color.RED else -score
    return {"red": red.to_json(), viewer_key: score.to_json()}


def wdl_json(chances: Optional[Wdl]) -> Optional[dict]:
    return None if chances is None else chances._asdict()


def both_povs_wdl(chances: Optional[Wdl], viewer: Color, viewer_key: str = "side") -> Optional[dict]:
    """``{"red": {"win": 270, "draw": 460, "loss": 270}, viewer_key: {...}}`` (per mille) of chances
    given from `viewer`'s side; None when not given."""
    if chances is None:
        return None
    return {"red": wdl_json(chances.pov(viewer is Color.BLACK)), viewer_key: wdl_json(chances)}


#: The header line that says what the chances are (for an engine that gives them).
CHANCES_LINE = "chances   win/draw/loss in per cent (27/46/27), from the same view"


# -- widths ----------------------------------------------------------------------------------------------

def width(text: str) -> int:
    """Columns a terminal gives the text (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int, right: bool = False) -> str:
    spaces = " " * max(0, columns - width(text))
    return spaces + text if right else text + spaces


def fit(text: str, columns: int) -> str:
    """The text cut to `columns` display columns (with … when cut)."""
    if width(text) <= columns:
        return text
    out, used = [], 0
    for ch in text:
        w = width(ch)
        if used + w > columns - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


# -- the live display ------------------------------------------------------------------------------------

class LiveArea:
    """A few lines at the bottom of a terminal, redrawn in place as a search deepens. Lines printed with
    `print` scroll above it. Disabled (stdout not a terminal), `show` does nothing and `print` just prints.

    Engines report once per iteration and line, so every report is drawn: no throttling is needed, and the
    display never lags behind the search."""

    def __init__(self, stream: IO[str], enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self._drawn = 0

    def show(self, lines: Sequence[str]) -> None:
        if not self.enabled:
            return
        columns = max(20, shutil.get_terminal_size((100, 24)).columns - 1)
        out = [self._erase_code()]
        for line in lines:
            out.append("\x1b[2K" + fit(line, columns) + "\n")     # one screen row each: cut to the width
        out.append("\x1b[J")
        self.stream.write("".join(out))
        self.stream.flush()
        self._drawn = len(lines)

    def _erase_code(self) -> str:
        return f"\r\x1b[{self._drawn}A" if self._drawn else "\r"

    def clear(self) -> None:
        if self.enabled and self._drawn:
            self.stream.write(self._erase_code() + "\x1b[J")
            self.stream.flush()
        self._drawn = 0

    def print(self, text: str) -> None:
        """Print lines for good (above the live lines, which are erased; the next `show` redraws them)."""
        self.clear()
        self.stream.write(text + "\n")
        self.stream.flush()


# -- the endgame tables ------------------------------------------------------------------------------------

def table_line(look: TableLook, style: Style) -> str:
    """``TB: red wins, mate in 5; best 车四进一 #5, 车四平六 #6, 帅五平四 #7``: the table's value, then its best
    moves with their scores in the style's view."""
    text = tb_text(look.value, look.turn)
    if not look.moves:
        return text
    position = look.position
    moves = ", ".join(f"{to_notation(position, move, style.notation)} "
                      f"{style.score(table_score(value), look.turn).text()}" for move, value in look.moves)
    return f"{text}; best {moves}"


def table_comment(look: TableLook) -> str:
    """The table's value as a game file's comment: ``TB: red wins, mate in 5``."""
    return tb_text(look.value, look.turn)


def table_json(look: Optional[TableLook], style: Style) -> Optional[dict]:
    """The table's value (engine.tablebase.describe.value_json, with its score from both views) and its best
    moves, each with its ICCS, its text in the style's notation, its score and value for the mover."""
    if look is None:
        return None
    position = look.position
    return {
        **value_json(look.value, look.turn),
        "score": both_povs(table_score(look.value), look.turn),
        "moves": [{"move": move, "move_text": to_notation(position, move, style.notation),
                   "score": both_povs(table_score(value), look.turn), **value_json(value, look.turn)}
                  for move, value in look.moves],
    }


# -- positions ---------------------------------------------------------------------------------------------

def outcome_text(outcome: Outcome) -> str:
    reason = outcome.reason.replace("_", " ")
    if outcome.winner is None:
        return f"the game is over: draw by {reason}"
    return f"the game is over: {outcome.winner.label} wins by {reason}"


def line_text(position: Position, line: PvLine, style: Style, multipv: int, pv_moves: Optional[int] = None) -> str:
    """``depth 8   +35  27/46/27  1. 炮二平五 马8进7 ...`` (with ``line 2`` in front when several lines are
    shown; the chances when the engine gave them)."""
    score = style.score(line.score, position.turn).text()
    pv = line.pv if pv_moves is None else line.pv[:pv_moves]
    chances = style.wdl_text(line.wdl, position.turn)
    chances = f"{chances:>8}  " if chances else ""
    depth = 0 if line.depth is None else line.depth      # an engine need not say it
    text = f"depth {depth:>2}  {score:>5}  {chances}{numbered_line(position, pv, style.notation)}"
    if pv_moves is not None and len(line.pv) > pv_moves:
        text += " …"
    return (f"line {line.multipv}  " if multipv > 1 else "") + text


def position_lines(position: Position, lines: Sequence[PvLine], style: Style, multipv: int) -> List[str]:
    return [line_text(position, line, style, multipv) for line in lines]


def position_summary(position: Position, analysis: SearchResult, style: Style, interrupted: bool = False) -> List[str]:
    """The closing lines of a position's analysis: the best move and the search's size (`interrupted`: Ctrl-C
    ended it)."""
    outcome = outcome_of(position, analysis)
    if outcome is not None:
        text = outcome_text(outcome)
        return [text[0].upper() + text[1:]]
    best = analysis.bestmove
    assert best is not None
    shown = to_notation(position, best, style.notation)
    text = f"bestmove {shown}" + (f" ({best})" if style.notation != "iccs" else "")
    facts = []
    if analysis.nodes:
        facts.append(f"{analysis.nodes} nodes")
    facts.append(f"{analysis.time_ms / 1000:.2f} s")
    if interrupted:
        facts.append("interrupted")
    return [text + (f"  [{', '.join(facts)}]" if facts else "")]


def limits_text(limits: SearchLimits) -> str:
    """An analysis's limits for the headers: ``depth 8, 0.5 s, 3000 nodes``, or ``no limit``."""
    parts = [f"depth {limits.depth}" if limits.depth is not None else "",
             f"{_seconds(limits):g} s" if limits.movetime is not None else "",
             f"{limits.nodes} nodes" if limits.nodes is not None else ""]
    return ", ".join(part for part in parts if part) or "no limit"


def limits_json(limits: SearchLimits) -> dict:
    """An analysis's limits in the JSON output: ``{"depth": 8, "time": 0.5, "nodes": null}`` (seconds)."""
    return {"depth": limits.depth, "time": _seconds(limits), "nodes": limits.nodes}


def _seconds(limits: SearchLimits) -> Optional[float]:
    # Rounded, so that the seconds the user gave come back as written (1.1, not 1.1000000000000003).
    return None if limits.movetime is None else round(limits.movetime / 1000, 9)


def position_header(position: Position, engine: str, limits: str, style: Style, chances: bool = True) -> List[str]:
    """The header of a position's analysis; `chances`: the engine gives win/draw/loss chances."""
    return [
        f"position  {position.fen()} ({position.turn.label} to move)",
        f"engine    {engine}; {limits}",
        f"scores    {style.pov_phrase()}, mates as #N (mates in N) and -#N (is mated in N)",
        *([CHANCES_LINE] if chances else []),
    ]


def analysis_json(position: Position, analysis: SearchResult, style: Style, interrupted: bool = False,
                  table: Optional[TableLook] = None) -> dict:
    """A position's analysis: FEN, outcome, score (both povs), best move, the lines with their PVs in ICCS and
    in the chosen notation (`interrupted`: Ctrl-C ended the search), and the endgame table's value (`table`;
    null when the tables do not hold the position)."""
    turn = position.turn
    lines = []
    for line in analysis.lines:
        lines.append({
            "multipv": line.multipv, "depth": line.depth, "seldepth": line.seldepth, "nodes": line.nodes,
            "time_ms": line.time_ms, "score": both_povs(line.score, turn),
            "score_text": style.score(line.score, turn).text(),
            "wdl": both_povs_wdl(line.wdl, turn),
            "pv": list(line.pv), "pv_text": line_texts(position, line.pv, style.notation),
        })
    best = analysis.bestmove
    outcome = outcome_of(position, analysis)
    return {
        "fen": position.fen(),
        "side_to_move": turn.value,
        "outcome": None if outcome is None else {
            "winner": None if outcome.winner is None else outcome.winner.value, "reason": outcome.reason},
        "score": both_povs(analysis.score, turn),
        "score_text": style.score(analysis.score, turn).text(),
        "wdl": both_povs_wdl(analysis.wdl, turn),
        "bestmove": best,
        "bestmove_text": None if best is None else to_notation(position, best, style.notation),
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "time_ms": None if outcome is not None else int(analysis.time_ms),
        "interrupted": interrupted,
        "lines": lines,
        "tablebase": table_json(table, style),
    }


# -- games ----------------------------------------------------------------------------------------------

def game_header(headers: Dict[str, str], game: GameAnalysis, engine: str, limits: str, style: Style,
                chances: bool = True) -> List[str]:
    red, black = player_name(headers, "red"), player_name(headers, "black")
    facts = []
    if red or black:
        facts.append(f"{red or '?'} (Red) vs {black or '?'} (Black)")
    for key in ("Event", "Site", "Date"):
        value = headers.get(key, "").strip()
        if value and value != "?" and "??" not in value:
            facts.append(value)
    result = headers.get("Result", "").strip()
    if result:
        facts.append(f"result {result}")
    start = "the start position" if game.start_fen == START_FEN else game.start_fen
    facts.append(f"{len(game.moves)} plies from {start}")
    t = game.thresholds
    opening = [f"opening   {game.opening}"] if game.opening else []
    return [
        f"game      {', '.join(facts)}",
        *opening,
        f"engine    {engine}; {limits} per position",
        f"scores    {style.pov_phrase(game=True)}, after each move; loss in centipawns for the side that moved",
        *([CHANCES_LINE] if chances else []),
        f"marks     ?! inaccuracy (loss >= {t.inaccuracy}), ? mistake (>= {t.mistake}), ?? blunder (>= {t.blunder})",
    ]


class GameTable:
    """Writes the move records of a game as aligned lines."""

    def __init__(self, game: GameAnalysis, style: Style, pv_moves: int = 3) -> None:
        self.style = style
        self.pv_moves = pv_moves
        position = Position(game.start_fen)
        self.texts: List[str] = []
        self.labels: List[str] = []
        for move in game.moves:
            self.labels.append(ply_label(position))
            self.texts.append(to_notation(position, move, style.notation))
            position.push(move)
        self.label_width = max((width(label) for label in self.labels), default=3)
        self.move_width = max((width(text) for text in self.texts), default=4) + 3

    def row(self, record: MoveRecord) -> str:
        style = self.style
        index = record.ply - 1
        mark = MARK_SYMBOLS.get(record.classification or "", "")
        move = pad(self.texts[index] + mark, self.move_width)
        after = style.score(record.after, record.mover)
        # `after` is the mover's view; in red pov a Black move's score flips.
        text = f"  {pad(self.labels[index], self.label_width)} {move} {after.text():>6}"
        chances = style.wdl_text(record.after_wdl, record.mover)
        if chances:
            text += f" {chances:>8}"
        if record.book:
            return text + "  book"
        if record.best:
            return text + "  best"
        text += f"  loss {record.loss:>4}"
        if record.classification:
            text += f" {record.classification}"
        line = record.best_line
        if line is not None:       # the best alternative: its score and the start of its line
            position = Position(record.fen_before)
            best_score = style.score(line.score, record.mover).text()
            shown = " ".join(line_texts(position, line.pv[:self.pv_moves], style.notation))
            text += f"; best ({best_score}) {shown}{' …' if len(line.pv) > self.pv_moves else ''}"
        return text

    def note(self, text: str) -> str:
        """A line under a row (the table's value of the position after the move), indented to its move."""
        return " " * (3 + self.label_width) + text

    def status(self, game: GameAnalysis, ply: int, lines: Sequence[PvLine]) -> str:
        """The live line while the position after `ply` moves is being searched."""
        total = len(game.moves)
        where = "start position" if ply == 0 else f"after {self.labels[ply - 1]} {self.texts[ply - 1]}"
        text = f"  analysing {where} ({ply}/{total})"
        if lines:
            position = game.position_at(ply)
            first = lines[0]
            score = self.style.score(first.score, position.turn).text()
            chances = self.style.wdl_text(first.wdl, position.turn)
            pv = " ".join(line_texts(position, first.pv[:4], self.style.notation))
            text += f": depth {first.depth or 0} {score}{' ' + chances if chances else ''} {pv}"
        return text


def summary_lines(game: GameAnalysis, headers: Dict[str, str]) -> List[str]:
    rows = [f"{'':8}{'moves':>6}{'book':>6}{'best':>6}{'avg loss':>10}{'inaccuracies':>14}{'mistakes':>10}"
            f"{'blunders':>10}"]
    for color, side in game.summary.items():
        name = player_name(headers, color)
        rows.append(f"{color.label:8}{side.moves:>6}{side.book_moves:>6}{side.best_moves:>6}"
                    f"{side.average_loss:>10.1f}"
                    f"{side.counts['inaccuracy']:>14}{side.counts['mistake']:>10}{side.counts['blunder']:>10}"
                    + (f"   {name}" if name else ""))
    return rows


def final_lines(game: GameAnalysis, style: Style) -> List[str]:
    """What the last analysed position is worth."""
    if not game.analyses:
        return []
    ply = len(game.analyses) - 1
    analysis = game.analyses[-1]
    position = game.position_at(ply)
    where = "final position" if ply == len(game.moves) else f"position after {ply} plies"
    outcome = outcome_of(position, analysis)
    if outcome is not None:
        return [f"{where}: {outcome_text(outcome)}"]
    score = style.score(analysis.score, position.turn).text()
    chances = style.wdl_text(analysis.wdl, position.turn)
    best = to_notation(position, analysis.bestmove, style.notation) if analysis.bestmove else "-"
    return [f"{where}: {score}{' (' + chances + ')' if chances else ''} ({position.turn.label} to move), best {best}"]


def record_json(record: MoveRecord, style: Style, table: Optional[TableLook] = None) -> dict:
    """One judged move; `table`: the endgame table's look at the position after it."""
    position = Position(record.fen_before)
    line = record.best_line
    mover = record.mover
    return {
        "ply": record.ply,
        "move_number": position.fullmove_number,
        "side": mover.value,
        "move": record.move,
        "move_text": to_notation(position, record.move, style.notation),
        "fen_before": record.fen_before,
        "score_before": both_povs(record.before_score, mover, "mover"),
        "score_after": both_povs(record.after, mover, "mover"),
        "score_after_text": style.score(record.after, mover).text(),
        "wdl_after": both_povs_wdl(record.after_wdl, mover, "mover"),
        "best": record.best,
        "book": record.book,
        "loss": record.loss,
        "class": record.classification,
        "depth": record.before.depth,
        "best_move": record.before.bestmove,
        "best_move_text": None if record.before.bestmove is None
        else to_notation(position, record.before.bestmove, style.notation),
        "best_pv": [] if line is None else list(line.pv),
        "best_pv_text": [] if line is None else line_texts(position, line.pv, style.notation),
        "lines": analysis_json(position, record.before, style)["lines"],
        "tablebase": table_json(table, style),
    }


def move_comment(record: MoveRecord, style: Style, pv_moves: int = 3) -> str:
    """The judgement of one move as a game file's comment: ``+35 best``, ``book``, ``-120 loss 155
    mistake; best (+35) 马二进三 车9平8 炮八平九`` (scores in the style's view, moves in its notation)."""
    after = style.score(record.after, record.mover).text()
    if record.book:
        return f"{after} book"
    if record.best:
        return f"{after} best"
    text = f"{after} loss {record.loss}" + (f" {record.classification}" if record.classification else "")
    line = record.best_line
    if line is not None:
        position = Position(record.fen_before)
        best_score = style.score(line.score, record.mover).text()
        text += f"; best ({best_score}) " + " ".join(line_texts(position, line.pv[:pv_moves], style.notation))
    return text


def annotated_game(game: GameAnalysis, original: PgnGame, style: Style,
                   tables: Optional[Dict[int, Optional[TableLook]]] = None) -> PgnGame:
    """The game read, with each analysed move's judgement (:func:`move_comment`) after its own comment, and
    the endgame table's value of the position it leads to (`tables`, by ply; ply 0 goes to the comment before
    the first move), for writing back as PGN, XQF or CBF; its tags (``Annotator`` jiangjun when there is
    none), variations and result are kept."""
    tables = tables or {}
    comments = list(original.comments) or [None] * len(original.moves)
    for record in game.records:
        index = record.ply - 1
        if index < len(comments):
            mark = MARK_SYMBOLS.get(record.classification or "", "")
            judged = (mark + " " if mark else "") + move_comment(record, style)
            if tables.get(record.ply) is not None:
                judged += "\n" + table_comment(tables[record.ply])
            comments[index] = f"{comments[index]}\n{judged}" if comments[index] else judged
    start_comment = original.start_comment
    if tables.get(0) is not None:
        start = table_comment(tables[0])
        start_comment = f"{start_comment}\n{start}" if start_comment else start
    headers = dict(original.headers)
    headers.setdefault("Annotator", "jiangjun")
    return PgnGame(headers=headers, moves=list(original.moves), comments=comments, result=original.result,
                   start_comment=start_comment, variations=original.variations)


def game_json(game: GameAnalysis, headers: Dict[str, str], result: str, style: Style,
              tables: Optional[Dict[int, Optional[TableLook]]] = None) -> dict:
    """The annotated game; `tables`: the endgame table's look at the position after each ply the tables hold
    (the start's as ``start_tablebase``, each move's in its record, the last position's in ``final``)."""
    tables = tables or {}
    final = None
    if game.analyses:
        ply = len(game.analyses) - 1
        final = dict(analysis_json(game.position_at(ply), game.analyses[-1], style, table=tables.get(ply)), ply=ply)
    return {
        "headers": dict(headers),
        "start_fen": game.start_fen,
        "moves": list(game.moves),
        "result": result,
        "thresholds": game.thresholds.to_json(),
        "opening": game.opening,
        "start_tablebase": table_json(tables.get(0), style),
        "records": [record_json(record, style, tables.get(record.ply)) for record in game.records],
        "summary": {color.value: side.to_json() for color, side in game.summary.items()},
        "final": final,
        "interrupted": game.interrupted,
    }

"""Hypothesis strategies of games (starts, main lines with comments, variations, tags, results) that
every game-file format stores, for the round-trip tests (tests/pgn)."""
from __future__ import annotations

from typing import Dict, List, Optional

from hypothesis import strategies as st

from engine import START_FEN, Position
from engine.pgn import RESULTS, Game, Variation

#: Characters every format stores (GBK and UTF-16; none that DhtmlXQ or XML give a meaning to).
ALPHABET = "车马炮兵卒将帅士象相进退平红黑先胜和，。！？abcXYZ0189 -"
STARTS = (START_FEN,
          "3k5/4a4/9/9/9/9/9/4C4/4A4/4K4 w - - 0 1",
          "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/R2AK4 b - - 0 1",
          "r2akab2/9/2n1b1n2/p3p3p/2p6/6R2/P1P1P3P/2N1B1N2/9/2BAKA3 b - - 0 1")


def texts(size: int):
    """Strings that a field of ``size`` GBK bytes holds (Chinese characters take two), with no space at
    their ends (readers trim them)."""
    return (st.text(alphabet=ALPHABET, min_size=1, max_size=(size - 1) // 2)
            .map(str.strip).filter(bool))


comments = st.one_of(st.none(), st.text(alphabet=ALPHABET + "\n", min_size=1, max_size=40)
                     .map(str.strip).filter(bool))


@st.composite
def lines(draw, position: Position, depth: int, max_moves: int = 30):
    """A line of legal moves from ``position`` (left unchanged) with comments, and, while ``depth``
    allows, variations: (moves, comments, variations)."""
    moves: List[str] = []
    notes: List[Optional[str]] = []
    variations: Dict[int, List[Variation]] = {}
    played = 0
    count = draw(st.integers(min_value=1 if depth < 2 else 0, max_value=max_moves))
    for index in range(count):
        legal = sorted(position.legal_moves())
        if not legal:
            break
        if depth > 0 and index > 0 and draw(st.integers(0, 5)) == 0:
            others = []
            for _ in range(draw(st.integers(1, 2))):
                sub_moves, sub_notes, sub_variations = draw(lines(position, depth - 1, max_moves=4))
                if sub_moves:
                    others.append(Variation(sub_moves, sub_notes, sub_variations))
            if others:
                variations[index] = others
        move = legal[draw(st.integers(0, len(legal) - 1))]
        position.push(move)
        played += 1
        moves.append(move)
        notes.append(draw(comments))
    for _ in range(played):
        position.pop()
    return moves, notes, variations


@st.composite
def games(draw, variations: bool = True) -> Game:
    fen = draw(st.sampled_from(STARTS))
    position = Position(fen)
    moves, notes, lines_ = draw(lines(position, 2 if variations else 0))
    headers = {}
    for tag, size in (("Title", 64), ("Event", 64), ("Date", 16), ("Site", 16), ("Red", 16), ("Black", 16)):
        if draw(st.booleans()):
            headers[tag] = draw(texts(size))
    if fen != START_FEN:
        headers["FEN"] = fen
    result = draw(st.sampled_from(RESULTS))
    return Game(headers=headers, moves=moves, comments=notes, result=result,
                start_comment=draw(comments), variations=lines_)


def as_read(game: Game, tags=("Title", "Event", "Date", "Site", "Red", "Black")) -> Game:
    """The game as a reader gives it back: the tags the format stores, Result and FEN tags."""
    headers = {tag: value for tag, value in game.headers.items() if tag in tags}
    if game.result != "*":
        headers["Result"] = game.result
    if "FEN" in game.headers:
        headers["FEN"] = Position(game.headers["FEN"]).fen()
    return Game(headers=headers, moves=game.moves, comments=game.comments, result=game.result,
                start_comment=game.start_comment, variations=game.variations)


def writable_as_xqf(game: Game) -> bool:
    """XQF (and DhtmlXQ) store no side to move: a game where Black moves first needs a move to show it."""
    return bool(game.moves) or Position(game.starting_fen()).turn == "red"

"""Move lists in and out: reading moves typed in any notation, writing moves in the one the user picked.

Input moves may be ICCS (``h2e2``, ``H2-E2``), WXF (``C2.5``) or Chinese (``炮二平五``), mixed freely,
given as separate arguments or as one string with spaces, with or without move numbers (``1. h2e2 h9g7
2. ...``). Moves are written in any of engine.notation's NOTATIONS (``chinese``, ``wxf``, ``iccs``, ``san``):
engine.notation.to_notation.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable, List, Sequence

from ..errors import IllegalMoveError
from ..notation import parse_move, to_notation
from ..position import Color, Position, normalize_move
from ..squares import is_iccs
from .errors import AnalyzeError

_MOVE_NUMBER = re.compile(r"^(\d+)(\.+)(.*)$")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def split_moves(args: Iterable[str]) -> List[str]:
    """The move tokens in ``args`` (each may hold several moves separated by spaces), without move numbers
    (``1.``, ``1...``, ``12.h2e2``) and result marks. ``33.4`` (a WXF move) is kept whole."""
    tokens: List[str] = []
    for arg in args:
        for word in unicodedata.normalize("NFKC", arg).split():
            match = _MOVE_NUMBER.match(word)
            if match is not None:
                rest = match.group(3)
                if not rest:
                    continue
                if not rest.isdigit():
                    word = rest
            if word in _RESULTS:
                continue
            tokens.append(word)
    return tokens


def notation_of(text: str) -> str:
    """The notation a move text is written in, for messages: "ICCS", "Chinese" or "WXF"."""
    if is_iccs(text):
        return "ICCS"
    if _CJK.search(text):
        return "Chinese"
    return "WXF"


def ply_label(position: Position) -> str:
    """``12.`` when Red is to move, ``12...`` when Black is."""
    dots = "." if position.turn is Color.RED else "..."
    return f"{position.fullmove_number}{dots}"


def play_moves(position: Position, tokens: Sequence[str]) -> List[str]:
    """Read and play ``tokens`` on ``position``; return them as ICCS.

    Raises AnalyzeError naming the move (number, side, text and the notation it was read in) and why it
    could not be played.
    """
    played: List[str] = []
    for index, token in enumerate(tokens, 1):
        label, side = ply_label(position), position.turn.value.capitalize()
        try:
            if is_iccs(token):      # the rules library says why a coordinate move is illegal
                move = normalize_move(token)
                position.push(move)
            else:
                move = parse_move(position, token)
                position.push(move)
        except IllegalMoveError as exc:
            reason = str(exc)
            raise AnalyzeError(
                f"move {index} ({label} {side}) {token!r}, read as {notation_of(token)}, cannot be played: "
                f"{reason}") from None
        played.append(move)
    return played


def line_texts(position: Position, moves: Sequence[str], notation: str) -> List[str]:
    """A sequence of moves played from ``position`` (left unchanged), each in ``notation``."""
    board = position.copy()
    texts: List[str] = []
    for move in moves:
        texts.append(to_notation(board, move, notation))
        board.push(move)
    return texts


def numbered_line(position: Position, moves: Sequence[str], notation: str) -> str:
    """``5. 车二进六 马8进7 6. 兵七进一`` (or ``5... 马8进7 6. ...`` when Black starts)."""
    board = position.copy()
    parts: List[str] = []
    for index, move in enumerate(moves):
        text = to_notation(board, move, notation)
        if board.turn is Color.RED or index == 0:
            parts.append(f"{ply_label(board)} {text}")
        else:
            parts.append(text)
        board.push(move)
    return " ".join(parts)



"""Chinese notation (纵线格式): its symbols, how it labels a piece, and how a move text splits into parts.

Red writes files and steps with the numerals 一..九, Black with the digits 1..9; the direction is 进
(forward), 退 (back) or 平 (sideways).  Two pieces of one kind on a file are 前/后; soldiers are numbered
across files as xqbase does (前/中/后 for two or three of them, 一..五 for four or five).  Text is written
in simplified characters and read in simplified or traditional ones.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from ..squares import Square
from .board import (ADVISOR, BACKWARD, CANNON, ELEPHANT, FIXED_FILE_TYPES, FORMAT_HELP, FORWARD, FRONT, HORSE,
                    KING, MIDDLE, PAWN, REAR, ROOK, SIDEWAYS, BoardView, Label, MoveText, NotationError)

_NUMERALS = "一二三四五六七八九"
_RED_NAMES = {KING: "帅", ADVISOR: "仕", ELEPHANT: "相", HORSE: "马",
              ROOK: "车", CANNON: "炮", PAWN: "兵"}
_BLACK_NAMES = {KING: "将", ADVISOR: "士", ELEPHANT: "象", HORSE: "马",
                ROOK: "车", CANNON: "炮", PAWN: "卒"}
_DIRECTIONS = {FORWARD: "进", BACKWARD: "退", SIDEWAYS: "平"}
_POSITIONS = {FRONT: "前", MIDDLE: "中", REAR: "后"}

# Chinese piece names accepted by the parser: name -> (type, side or None).
# The side is given only for names that belong to one side alone (帅/将,
# 兵/卒); 仕/士 and 相/象 are often written for both sides and are accepted
# for either.
_PIECE_WORDS: Dict[str, Tuple[str, Optional[str]]] = {
    "帅": (KING, "red"), "帥": (KING, "red"),
    "将": (KING, "black"), "將": (KING, "black"),
    "仕": (ADVISOR, None), "士": (ADVISOR, None),
    "相": (ELEPHANT, None), "象": (ELEPHANT, None),
    "马": (HORSE, None), "馬": (HORSE, None), "傌": (HORSE, None),
    "车": (ROOK, None), "車": (ROOK, None), "俥": (ROOK, None),
    "伡": (ROOK, None),
    "炮": (CANNON, None), "砲": (CANNON, None), "包": (CANNON, None),
    "兵": (PAWN, "red"), "卒": (PAWN, "black"),
}
_DIRECTION_WORDS = {"进": FORWARD, "進": FORWARD, "退": BACKWARD,
                   "平": SIDEWAYS}
_POSITION_WORDS = {"前": FRONT, "中": MIDDLE, "后": REAR, "後": REAR}
# Full-width digits become ASCII through NFKC normalisation before lookup.
_NUMBER_VALUES = {ch: i + 1 for i, ch in enumerate(_NUMERALS)}
_NUMBER_VALUES.update({str(i): i for i in range(1, 10)})


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _label(view: BoardView, piece: str, square: Square) -> Label:
    """The origin label Chinese notation writes for the piece on ``square``."""
    group = view.group(piece)
    column = group.column(square)
    if piece in FIXED_FILE_TYPES or len(column) < 2:
        return ("file", view.file_no(square[0]))
    if piece != PAWN:
        return ("pos", FRONT if column.index(square) == 0 else REAR)
    ordered = group.xqbase
    i = ordered.index(square)
    if len(ordered) == 2:
        return ("pos", (FRONT, REAR)[i])
    if len(ordered) == 3:
        return ("pos", (FRONT, MIDDLE, REAR)[i])
    return ("index", i + 1)


def _number(view: BoardView, value: int) -> str:
    """A file or step number in the mover's own numeral style."""
    return _NUMERALS[value - 1] if view.red else str(value)


def _render(view: BoardView, piece: str, label: Label,
            direction: str, last: int) -> str:
    name = (_RED_NAMES if view.red else _BLACK_NAMES)[piece]
    if label[0] == "file":
        head = name + _number(view, label[1])
    elif label[0] == "pos":
        head = _POSITIONS[label[1]] + name
    else:  # ("index", k): xqbase 一..五, the same for both sides
        head = _NUMERALS[label[1] - 1] + name
    return head + _DIRECTIONS[direction] + _number(view, last)


def chinese_text(view: BoardView, piece: str, frm: Square, to: Square) -> str:
    """The Chinese text of a legal move of the mover's ``piece``."""
    direction, last = view.shape(piece, frm, to)
    return _render(view, piece, _label(view, piece, frm),
                   direction, last)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def looks_chinese(text: str) -> bool:
    """Whether ``text`` holds any Chinese symbol of a move."""
    return any(ch in _PIECE_WORDS or ch in _DIRECTION_WORDS
               or ch in _POSITION_WORDS or ch in _NUMERALS
               for ch in text)


def read_chinese(text: str, original: str) -> MoveText:
    """Split Chinese text into its parts (syntax only, no board)."""
    def bad(reason: str) -> NotationError:
        return NotationError(
            f"cannot read {original!r}: {reason}; {FORMAT_HELP}")

    chars = list(text)
    if len(chars) == 3:
        # Shorthand: piece + from-file + to-file, e.g. 炮25.
        name, a, b = chars
        if name in _PIECE_WORDS and a in _NUMBER_VALUES \
                and b in _NUMBER_VALUES:
            piece, side = _PIECE_WORDS[name]
            return MoveText("chinese", piece, ("file", _NUMBER_VALUES[a]),
                            None, _NUMBER_VALUES[b], side)
        raise bad("a 3-character move must be piece + from-file + to-file")
    if len(chars) != 4:
        raise bad(f"{len(chars)} characters, a Chinese move has 4")
    c0, c1, c2, c3 = chars
    if c2 not in _DIRECTION_WORDS:
        raise bad(f"third character {c2!r} is not 进, 退 or 平")
    if c3 not in _NUMBER_VALUES:
        raise bad(f"last character {c3!r} is not a number 1..9")
    direction = _DIRECTION_WORDS[c2]
    last = _NUMBER_VALUES[c3]
    if c0 in _PIECE_WORDS:
        piece, side = _PIECE_WORDS[c0]
        if c1 in _NUMBER_VALUES:
            origin: Label = ("file", _NUMBER_VALUES[c1])
        elif c1 in _POSITION_WORDS:  # 车前进一, a rare word order
            origin = ("pos", _POSITION_WORDS[c1])
        else:
            raise bad(f"second character {c1!r} is not a file number")
    elif c1 in _PIECE_WORDS:
        piece, side = _PIECE_WORDS[c1]
        if c0 in _POSITION_WORDS:
            origin = ("pos", _POSITION_WORDS[c0])
        elif c0 in _NUMBER_VALUES and _NUMBER_VALUES[c0] <= 5:
            origin = ("index", _NUMBER_VALUES[c0])
        else:
            raise bad(f"{c0!r} is not 前, 中, 后 or 一..五")
    else:
        raise bad("no piece name (车, 马, 炮, 兵, ...) "
                  "in the first two characters")
    return MoveText("chinese", piece, origin, direction, last, side)

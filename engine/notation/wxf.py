"""WXF notation: its letters, how it labels a piece, and how a move text splits into parts.

A move is a piece letter, a file digit (counted from the mover's right), an operator ``+`` (forward), ``-``
(back) or ``.`` (sideways; ``=`` is read too) and a digit: ``C2.5``, ``H8+7``.  Tandem pieces on one file
are ``+``/``-`` (``R+.3``), with ``++``/``--`` and the middle piece's own file digit for four or five
soldiers, and ``3+``/``33``/``3-`` when soldiers stand doubled on two files (the official WXF forms).
"""

from __future__ import annotations

import re
from typing import Dict, Optional, Tuple

from ..squares import Square
from .board import (ADVISOR, BACKWARD, CANNON, ELEPHANT, FIXED_FILE_TYPES, FORMAT_HELP, FORWARD, FRONT,
                    FRONT2, HORSE, KING, MIDDLE, PAWN, REAR, REAR2, ROOK, SIDEWAYS, BoardView, Label, MoveText,
                    NotationError)

_LETTERS = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H",
            ROOK: "R", CANNON: "C", PAWN: "P"}
_PIECE_LETTERS = {"K": KING, "A": ADVISOR, "E": ELEPHANT, "B": ELEPHANT,
                  "H": HORSE, "N": HORSE, "R": ROOK, "C": CANNON,
                  "P": PAWN}
_OPERATORS = {"+": FORWARD, "-": BACKWARD, ".": SIDEWAYS, "=": SIDEWAYS}
_POSITION_SIGNS = {"+": FRONT, "-": REAR}
_INDEX_LETTERS = "ABCDE"  # ElephantEye's a..e for xqbase 一..五

_P = "KAEBHNRCP"
_FORMS = [
    # (regex, form name); tried in order on the upper-cased text.
    (re.compile(rf"^([{_P}])([1-9])([-+.=])([1-9])$"), "file"),
    (re.compile(rf"^([{_P}])([1-9])([1-9])$"), "short"),
    (re.compile(rf"^([{_P}])([+-])([-+.=]?)([1-9])$"), "pos"),
    (re.compile(rf"^([+-])([{_P}])([-+.=])([1-9])$"), "pos_first"),
    (re.compile(r"^(\+\+|--)([-+.=])([1-9])$"), "double"),
    (re.compile(r"^([1-9])([+-]|[1-9])([-+.=])([1-9])$"), "file_pos"),
    (re.compile(rf"^([{_P}])([{_INDEX_LETTERS}])([-+.=])([1-9])$"),
     "index"),
]

# WXF words for 2..5 pieces on one file, front to back; None keeps the file
# digit (the middle one of three or five).
_COLUMN_WORDS: Dict[int, Tuple[Optional[str], ...]] = {
    2: (FRONT, REAR),
    3: (FRONT, None, REAR),
    4: (FRONT2, FRONT, REAR, REAR2),
    5: (FRONT2, FRONT, None, REAR, REAR2),
}
_HEADS = {FRONT: "+", REAR: "-", FRONT2: "++", REAR2: "--"}


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _label(view: BoardView, piece: str, square: Square) -> Label:
    """The origin label official WXF notation writes for ``square``."""
    group = view.group(piece)
    column = group.column(square)
    count = len(column)
    file_no = view.file_no(square[0])
    if piece in FIXED_FILE_TYPES or count < 2:
        return ("file", file_no)
    k = column.index(square)
    if piece == PAWN and group.tandem_file_count >= 2:
        word = FRONT if k == 0 else REAR if k == count - 1 else MIDDLE
        return ("file_pos", file_no, word)
    column_word = _COLUMN_WORDS[count][k]
    if column_word is None:
        return ("file", file_no)
    return ("pos", column_word)


def _render(piece: str, label: Label, direction: str, last: int) -> str:
    letter = _LETTERS[piece]
    kind = label[0]
    if kind == "file":
        head = f"{letter}{label[1]}"
    elif kind == "pos":
        word = label[1]
        head = _HEADS[word] if word in (FRONT2, REAR2) \
            else letter + _HEADS[word]
    else:  # ("file_pos", n, word): soldiers doubled on two files
        file_no, word = label[1], label[2]
        head = f"{file_no}" + (str(file_no) if word == MIDDLE
                               else _HEADS[word])
    return f"{head}{direction}{last}"


def wxf_text(view: BoardView, piece: str, frm: Square, to: Square) -> str:
    """The WXF text of a legal move of the mover's ``piece``."""
    direction, last = view.shape(piece, frm, to)
    return _render(piece, _label(view, piece, frm), direction, last)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def read_wxf(text: str, original: str) -> MoveText:
    """Split WXF text into its parts (syntax only, no board)."""
    upper = text.upper()
    for regex, form in _FORMS:
        m = regex.match(upper)
        if m is None:
            continue
        g = m.groups()
        if form == "file":
            return MoveText("wxf", _PIECE_LETTERS[g[0]],
                            ("file", int(g[1])), _OPERATORS[g[2]],
                            int(g[3]))
        if form == "short":
            return MoveText("wxf", _PIECE_LETTERS[g[0]],
                            ("file", int(g[1])), None, int(g[2]))
        if form == "pos":
            direction = _OPERATORS[g[2]] if g[2] else SIDEWAYS
            return MoveText("wxf", _PIECE_LETTERS[g[0]],
                            ("pos", _POSITION_SIGNS[g[1]]), direction,
                            int(g[3]))
        if form == "pos_first":
            return MoveText("wxf", _PIECE_LETTERS[g[1]],
                            ("pos", _POSITION_SIGNS[g[0]]),
                            _OPERATORS[g[2]], int(g[3]))
        if form == "double":
            word = FRONT2 if g[0] == "++" else REAR2
            return MoveText("wxf", PAWN, ("pos", word), _OPERATORS[g[1]],
                            int(g[2]))
        if form == "file_pos":
            if g[1].isdigit():
                if g[1] != g[0]:
                    raise NotationError(
                        f"cannot read {original!r}: in WXF tandem form the "
                        f"middle soldier repeats its file digit "
                        f"({g[0]}{g[0]}), not {g[0]}{g[1]}")
                word = MIDDLE
            else:
                word = _POSITION_SIGNS[g[1]]
            return MoveText("wxf", PAWN, ("file_pos", int(g[0]), word),
                            _OPERATORS[g[2]], int(g[3]))
        # form == "index"
        return MoveText("wxf", _PIECE_LETTERS[g[0]],
                        ("index", _INDEX_LETTERS.index(g[1]) + 1),
                        _OPERATORS[g[2]], int(g[3]))
    raise NotationError(f"cannot read {original!r} as a move; {FORMAT_HELP}")

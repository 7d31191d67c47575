"""Move notation: Chinese (纵线格式), WXF and ICCS.

All three notations describe the same move.  Internally a move is always
ICCS in lower case without a hyphen (``"h2e2"``): files ``a``..``i`` from
Red's left, ranks ``0``..``9`` from Red's side.

Chinese and WXF notation describe a move relative to the side that makes it
(see ``shared/reference/rules.md`` section 5):

* files are counted from the mover's own right: Red writes 一..九, Black 1..9;
* the direction is 进/``+`` (towards the opponent), 退/``-`` (back) or
  平/``.`` (sideways);
* the last symbol is the target file for sideways moves and for the diagonal
  movers (horse, elephant, advisor), otherwise the number of ranks moved;
* several pieces of one kind on one file are told apart by position words
  (前/中/后, WXF ``+``/``-``), with the xqbase numbering 一..五 for four or five
  soldiers and the official WXF forms (``++``, ``--``, ``3+``, ``33``) in WXF.

Public functions:

* :func:`to_chinese` and :func:`to_wxf` write one legal move;
* :func:`to_chinese_list` and :func:`to_wxf_list` write a sequence of moves;
* :func:`legal_move_texts` writes every legal move of a position at once;
* :func:`parse_move` reads ICCS, Chinese (simplified or traditional, any digit
  style), WXF or the short form piece + from-file + to-file (``炮25``) and
  returns the ICCS move.

Anything malformed, ambiguous or impossible raises :class:`NotationError`, a
subclass of :class:`engine.errors.IllegalMoveError`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import (Any, Callable, Dict, Iterable, List, Optional, Protocol,
                    Tuple)

from ..errors import IllegalMoveError
from ..squares import FILES, move_name, parse_iccs, is_iccs

__all__ = [
    "NotationError",
    "PositionLike",
    "to_chinese",
    "to_wxf",
    "to_chinese_list",
    "to_wxf_list",
    "legal_move_texts",
    "parse_move",
]

Square = Tuple[int, int]  # (file index 0..8 from Red's left, rank 0..9)

# Piece types use the upper-case FEN letters.
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = "KABNRCP"
_FIXED_FILE_TYPES = (KING, ADVISOR, ELEPHANT)  # never written with 前/后
_DIAGONAL_TYPES = (HORSE, ELEPHANT, ADVISOR)  # last symbol is a file

FORWARD, BACKWARD, SIDEWAYS = "+", "-", "."

# Position words.  FRONT2/REAR2 are WXF's "++"/"--" (four or five pawns).
FRONT, MIDDLE, REAR = "front", "middle", "rear"
FRONT2, REAR2 = "front2", "rear2"

# ---------------------------------------------------------------------------
# Symbol tables
# ---------------------------------------------------------------------------

_CN_NUMERALS = "一二三四五六七八九"
_RED_NAMES = {KING: "帅", ADVISOR: "仕", ELEPHANT: "相", HORSE: "马",
              ROOK: "车", CANNON: "炮", PAWN: "兵"}
_BLACK_NAMES = {KING: "将", ADVISOR: "士", ELEPHANT: "象", HORSE: "马",
                ROOK: "车", CANNON: "炮", PAWN: "卒"}
_CN_DIRECTIONS = {FORWARD: "进", BACKWARD: "退", SIDEWAYS: "平"}
_CN_POSITIONS = {FRONT: "前", MIDDLE: "中", REAR: "后"}

# Chinese piece names accepted by the parser: name -> (type, side or None).
# The side is given only for names that belong to one side alone (帅/将,
# 兵/卒); 仕/士 and 相/象 are often written for both sides and are accepted
# for either.
_CN_PIECE_WORDS: Dict[str, Tuple[str, Optional[str]]] = {
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
_CN_DIRECTION_WORDS = {"进": FORWARD, "進": FORWARD, "退": BACKWARD,
                       "平": SIDEWAYS}
_CN_POSITION_WORDS = {"前": FRONT, "中": MIDDLE, "后": REAR, "後": REAR}
# Full-width digits become ASCII through NFKC normalisation before lookup.
_NUMBER_VALUES = {ch: i + 1 for i, ch in enumerate(_CN_NUMERALS)}
_NUMBER_VALUES.update({str(i): i for i in range(1, 10)})

_WXF_LETTERS = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H",
                ROOK: "R", CANNON: "C", PAWN: "P"}
_WXF_PIECE_LETTERS = {"K": KING, "A": ADVISOR, "E": ELEPHANT, "B": ELEPHANT,
                      "H": HORSE, "N": HORSE, "R": ROOK, "C": CANNON,
                      "P": PAWN}
_WXF_OPERATORS = {"+": FORWARD, "-": BACKWARD, ".": SIDEWAYS, "=": SIDEWAYS}
_WXF_POSITION_SIGNS = {"+": FRONT, "-": REAR}
_WXF_INDEX_LETTERS = "ABCDE"  # ElephantEye's a..e for xqbase 一..五

_TYPE_NAMES = {KING: "general", ADVISOR: "advisor", ELEPHANT: "elephant",
               HORSE: "horse", ROOK: "chariot", CANNON: "cannon",
               PAWN: "soldier"}

_WXF_P = "KAEBHNRCP"
_WXF_FORMS = [
    # (regex, form name); tried in order on the upper-cased text.
    (re.compile(rf"^([{_WXF_P}])([1-9])([-+.=])([1-9])$"), "file"),
    (re.compile(rf"^([{_WXF_P}])([1-9])([1-9])$"), "short"),
    (re.compile(rf"^([{_WXF_P}])([+-])([-+.=]?)([1-9])$"), "pos"),
    (re.compile(rf"^([+-])([{_WXF_P}])([-+.=])([1-9])$"), "pos_first"),
    (re.compile(r"^(\+\+|--)([-+.=])([1-9])$"), "double"),
    (re.compile(r"^([1-9])([+-]|[1-9])([-+.=])([1-9])$"), "file_pos"),
    (re.compile(rf"^([{_WXF_P}])([{_WXF_INDEX_LETTERS}])([-+.=])([1-9])$"),
     "index"),
]

_FORMAT_HELP = ("expected ICCS (h2e2, H2-E2), Chinese (炮二平五, 马8进7, 前车进一), "
                "WXF (C2.5, H8+7, R+.3) or piece + from-file + to-file (炮25)")


class NotationError(IllegalMoveError):
    """Move text that is malformed, ambiguous or names no legal move."""


class PositionLike(Protocol):
    """What this module needs from a position (:class:`engine.Position`).

    ``turn`` compares equal to "red" or "black"; ``piece_map()`` maps square
    names ("e0") to FEN letters (upper case = Red); ``legal_moves()`` lists
    ICCS moves.
    """

    @property
    def turn(self) -> str: ...

    def piece_map(self) -> Dict[str, str]: ...

    def legal_moves(self) -> List[str]: ...

    def copy(self) -> "PositionLike": ...

    def push(self, move: str) -> None: ...


# ---------------------------------------------------------------------------
# Origin labels
#
# A label says which piece moves, as written before the direction symbol:
#   ("file", n)            the piece on file n (mover's numbering 1..9)
#   ("pos", word)          front/middle/rear/front2/rear2 within its group
#   ("index", k)           xqbase numbering 1..5 (一..五)
#   ("file_pos", n, word)  WXF tandem soldiers on two files: "3+", "33", "3-"
# ---------------------------------------------------------------------------

Label = Tuple[Any, ...]


@dataclass(frozen=True)
class _MoveText:
    """A move text broken into its parts (the result of parsing)."""

    style: str            # "chinese" or "wxf": whose label rules apply
    piece: str            # piece type letter
    origin: Label         # which piece; see the label forms above
    direction: Optional[str]  # FORWARD/BACKWARD/SIDEWAYS; None for shorthand
    last: int             # 1..9: target file or number of ranks
    side: Optional[str] = None  # side named by the piece word, if any


def _is_red(position: PositionLike) -> bool:
    """Whether Red is to move (``position.turn`` equals "red" or "black")."""
    turn = position.turn
    if turn == "red":
        return True
    if turn == "black":
        return False
    raise ValueError(f"unknown side to move: {turn!r}")


class _Snapshot:
    """The board of one position, seen from the side to move."""

    def __init__(self, position: PositionLike) -> None:
        self.red = _is_red(position)
        self.board: Dict[Square, str] = {
            _square_of(name): piece
            for name, piece in position.piece_map().items()}
        self._groups: Dict[str, "_Group"] = {}

    @property
    def side(self) -> str:
        """Side to move: "red" or "black"."""
        return "red" if self.red else "black"

    @property
    def side_name(self) -> str:
        """Side to move as written in messages: "Red" or "Black"."""
        return "Red" if self.red else "Black"

    def file_no(self, file_index: int) -> int:
        """File number 1..9 counted from the mover's right."""
        return 9 - file_index if self.red else file_index + 1

    def advance(self, rank: int) -> int:
        """Distance of a rank from the mover's back rank."""
        return rank if self.red else 9 - rank

    def piece_type(self, square: Square) -> Optional[str]:
        """Type of the mover's own piece on ``square``, else None."""
        piece = self.board.get(square)
        if piece is None or piece.isupper() != self.red:
            return None
        return piece.upper()

    def group(self, piece_type: str) -> "_Group":
        """The mover's pieces of ``piece_type``."""
        group = self._groups.get(piece_type)
        if group is None:
            letter = piece_type if self.red else piece_type.lower()
            squares = [sq for sq, pc in self.board.items() if pc == letter]
            group = self._groups[piece_type] = _Group(self, squares)
        return group


class _Group:
    """The mover's pieces of one type, ordered for tandem labels."""

    def __init__(self, snap: _Snapshot, squares: List[Square]) -> None:
        self.squares = squares
        by_file: Dict[int, List[Square]] = {}
        for sq in squares:
            by_file.setdefault(sq[0], []).append(sq)
        for column in by_file.values():
            column.sort(key=lambda sq: -snap.advance(sq[1]))  # front first
        self.by_file = by_file
        # xqbase list: pieces on files holding two or more of them, from the
        # mover's right to left, then front to back.
        tandem_files = sorted(
            (f for f, col in by_file.items() if len(col) > 1),
            key=snap.file_no)
        self.tandem_file_count = len(tandem_files)
        self.xqbase = [sq for f in tandem_files for sq in by_file[f]]

    def column(self, square: Square) -> List[Square]:
        return self.by_file.get(square[0], [])


def _chinese_label(snap: _Snapshot, piece: str, square: Square) -> Label:
    """The origin label Chinese notation writes for the piece on ``square``."""
    group = snap.group(piece)
    column = group.column(square)
    if piece in _FIXED_FILE_TYPES or len(column) < 2:
        return ("file", snap.file_no(square[0]))
    if piece != PAWN:
        return ("pos", FRONT if column.index(square) == 0 else REAR)
    ordered = group.xqbase
    i = ordered.index(square)
    if len(ordered) == 2:
        return ("pos", (FRONT, REAR)[i])
    if len(ordered) == 3:
        return ("pos", (FRONT, MIDDLE, REAR)[i])
    return ("index", i + 1)


# WXF words for 2..5 pieces on one file, front to back; None keeps the file
# digit (the middle one of three or five).
_WXF_COLUMN_WORDS: Dict[int, Tuple[Optional[str], ...]] = {
    2: (FRONT, REAR),
    3: (FRONT, None, REAR),
    4: (FRONT2, FRONT, REAR, REAR2),
    5: (FRONT2, FRONT, None, REAR, REAR2),
}
_WXF_HEADS = {FRONT: "+", REAR: "-", FRONT2: "++", REAR2: "--"}


def _wxf_label(snap: _Snapshot, piece: str, square: Square) -> Label:
    """The origin label official WXF notation writes for ``square``."""
    group = snap.group(piece)
    column = group.column(square)
    count = len(column)
    file_no = snap.file_no(square[0])
    if piece in _FIXED_FILE_TYPES or count < 2:
        return ("file", file_no)
    k = column.index(square)
    if piece == PAWN and group.tandem_file_count >= 2:
        word = FRONT if k == 0 else REAR if k == count - 1 else MIDDLE
        return ("file_pos", file_no, word)
    column_word = _WXF_COLUMN_WORDS[count][k]
    if column_word is None:
        return ("file", file_no)
    return ("pos", column_word)


def _column_word_matches(column: List[Square], square: Square,
                         word: str, wxf: bool) -> bool:
    """Whether a position word picks ``square`` within its own file.

    Chinese counts 前/中/后 plainly.  WXF shifts ``+``/``-`` inwards when
    ``++``/``--`` are in use (four or five pieces on the file).
    """
    count = len(column)
    if count < 2 or square not in column:
        return False
    k = column.index(square)
    if word == FRONT:
        return k == (1 if wxf and count >= 4 else 0)
    if word == REAR:
        return k == (count - 2 if wxf and count >= 4 else count - 1)
    if word == MIDDLE:
        return count in (3, 5) and k == count // 2
    if word == FRONT2:
        return count >= 4 and k == 0
    if word == REAR2:
        return count >= 4 and k == count - 1
    return False


def _origin_matches(snap: _Snapshot, text: _MoveText, square: Square) -> bool:
    """Whether the origin written in ``text`` can denote ``square``.

    Canonical labels always pick exactly one piece.  Non-canonical but
    meaningful labels (a file number for one of two rooks on that file, 前兵
    when soldiers are doubled on two files) may pick several; the caller then
    keeps the pieces for which the rest of the text is a legal move.
    """
    group = snap.group(text.piece)
    column = group.column(square)
    kind = text.origin[0]
    wxf = text.style == "wxf"
    if kind == "file":
        if snap.file_no(square[0]) != text.origin[1]:
            return False
        if wxf and text.direction is not None and text.piece == PAWN \
                and len(column) >= 3 and group.tandem_file_count < 2:
            # WXF keeps the file digit only for the middle one of 3 or 5
            # (not in the shorthand, where it just names the file).
            return _column_word_matches(column, square, MIDDLE, True)
        return True
    if kind == "pos":
        word = text.origin[1]
        ordered = group.xqbase
        if not wxf and text.piece == PAWN and len(ordered) in (2, 3) \
                and square in ordered:
            words = (FRONT, REAR) if len(ordered) == 2 \
                else (FRONT, MIDDLE, REAR)
            return words[ordered.index(square)] == word
        return _column_word_matches(column, square, word, wxf)
    if kind == "index":
        k = text.origin[1]
        ordered = group.xqbase
        return 1 <= k <= len(ordered) and ordered[k - 1] == square
    if kind == "file_pos":
        if snap.file_no(square[0]) != text.origin[1]:
            return False
        return _column_word_matches(column, square, text.origin[2], True)
    return False


# ---------------------------------------------------------------------------
# Writing moves
# ---------------------------------------------------------------------------

def _decode(move: str) -> Tuple[Square, Square]:
    """ICCS text -> (from, to) squares; raises NotationError if malformed."""
    squares = parse_iccs(move.strip()) if isinstance(move, str) else None
    if squares is None:
        raise NotationError(
            f"not an ICCS move: {move!r} (expected e.g. 'h2e2')")
    return squares


def _encode(frm: Square, to: Square) -> str:
    return move_name(frm, to)


def _square_name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1]}"


def _square_of(name: str) -> Square:
    """Square of a well-formed lower-case name such as "e0" (no checks:
    the names come from the position itself)."""
    return ord(name[0]) - 97, ord(name[1]) - 48


def _shape(snap: _Snapshot, piece: str, frm: Square,
           to: Square) -> Tuple[str, int]:
    """(direction, last number) of a move, as both notations write them."""
    if frm[1] == to[1]:
        direction = SIDEWAYS
    elif snap.advance(to[1]) > snap.advance(frm[1]):
        direction = FORWARD
    else:
        direction = BACKWARD
    if direction == SIDEWAYS or piece in _DIAGONAL_TYPES:
        last = snap.file_no(to[0])
    else:
        last = abs(to[1] - frm[1])
    return direction, last


def _number(snap: _Snapshot, value: int) -> str:
    """A file or step number in the mover's own numeral style."""
    return _CN_NUMERALS[value - 1] if snap.red else str(value)


def _render_chinese(snap: _Snapshot, piece: str, label: Label,
                    direction: str, last: int) -> str:
    name = (_RED_NAMES if snap.red else _BLACK_NAMES)[piece]
    if label[0] == "file":
        head = name + _number(snap, label[1])
    elif label[0] == "pos":
        head = _CN_POSITIONS[label[1]] + name
    else:  # ("index", k): xqbase 一..五, the same for both sides
        head = _CN_NUMERALS[label[1] - 1] + name
    return head + _CN_DIRECTIONS[direction] + _number(snap, last)


def _render_wxf(piece: str, label: Label, direction: str, last: int) -> str:
    letter = _WXF_LETTERS[piece]
    kind = label[0]
    if kind == "file":
        head = f"{letter}{label[1]}"
    elif kind == "pos":
        word = label[1]
        head = _WXF_HEADS[word] if word in (FRONT2, REAR2) \
            else letter + _WXF_HEADS[word]
    else:  # ("file_pos", n, word): soldiers doubled on two files
        file_no, word = label[1], label[2]
        head = f"{file_no}" + (str(file_no) if word == MIDDLE
                               else _WXF_HEADS[word])
    return f"{head}{direction}{last}"


def _prepare(position: PositionLike,
             move: str) -> Tuple[_Snapshot, str, Square, Square]:
    """Check that ``move`` is legal in ``position`` and read the board."""
    frm, to = _decode(move)
    iccs = _encode(frm, to)
    snap = _Snapshot(position)
    if iccs not in position.legal_moves():
        raise NotationError(
            f"{iccs} is not a legal move for {snap.side_name} "
            "in this position")
    piece = snap.piece_type(frm)
    if piece is None:  # cannot happen for a legal move
        raise NotationError(f"no {snap.side_name} piece on {iccs[:2]}")
    return snap, piece, frm, to


def _chinese_of(snap: _Snapshot, piece: str, frm: Square, to: Square) -> str:
    direction, last = _shape(snap, piece, frm, to)
    return _render_chinese(snap, piece, _chinese_label(snap, piece, frm),
                           direction, last)


def _wxf_of(snap: _Snapshot, piece: str, frm: Square, to: Square) -> str:
    direction, last = _shape(snap, piece, frm, to)
    return _render_wxf(piece, _wxf_label(snap, piece, frm), direction, last)


def to_chinese(p: PositionLike, move: str) -> str:
    """Write a legal ICCS move of ``p`` in Chinese notation (simplified).

    Red uses the numerals 一..九, Black the digits 1..9.  Examples from the
    start position: ``h2e2`` -> ``炮二平五``, ``h0g2`` -> ``马二进三``; tandem
    pieces give ``前车进一``, ``中兵平四``, ``二兵平六`` (xqbase numbering).

    Raises:
        NotationError: ``move`` is malformed or not legal in ``p``.
    """
    snap, piece, frm, to = _prepare(p, move)
    return _chinese_of(snap, piece, frm, to)


def to_wxf(p: PositionLike, move: str) -> str:
    """Write a legal ICCS move of ``p`` in official WXF notation.

    Sideways moves use ``.``.  Examples: ``C2.5``, ``H8+7``, ``R+.3``,
    ``P7.8`` (middle of three soldiers), ``++.4``, ``3-.4``.

    Raises:
        NotationError: ``move`` is malformed or not legal in ``p``.
    """
    snap, piece, frm, to = _prepare(p, move)
    return _wxf_of(snap, piece, frm, to)


def legal_move_texts(p: PositionLike,
                     notation: str = "chinese") -> Dict[str, str]:
    """Every legal move of ``p`` (ICCS) mapped to its text, in one pass.

    ``notation`` is ``"chinese"`` or ``"wxf"``.  Cheaper than calling
    :func:`to_chinese` or :func:`to_wxf` once per move, e.g. for a move list
    in a user interface.
    """
    if notation not in ("chinese", "wxf"):
        raise ValueError(
            f"notation must be 'chinese' or 'wxf', not {notation!r}")
    write = _chinese_of if notation == "chinese" else _wxf_of
    snap = _Snapshot(p)
    texts: Dict[str, str] = {}
    for move in p.legal_moves():
        frm, to = _square_of(move[:2]), _square_of(move[2:])
        piece = snap.piece_type(frm)
        if piece is None:  # cannot happen for a legal move
            raise NotationError(f"no {snap.side_name} piece on {move[:2]}")
        texts[move] = write(snap, piece, frm, to)
    return texts


def _render_list(p: PositionLike, moves: Iterable[str],
                 write: Callable[[PositionLike, str], str]) -> List[str]:
    board = p.copy()
    out: List[str] = []
    for move in moves:
        out.append(write(board, move))
        board.push(_encode(*_decode(move)))
    return out


def to_chinese_list(p: PositionLike, moves: Iterable[str]) -> List[str]:
    """Write a sequence of ICCS moves played from ``p`` in Chinese notation.

    ``p`` itself is left unchanged.
    """
    return _render_list(p, moves, to_chinese)


def to_wxf_list(p: PositionLike, moves: Iterable[str]) -> List[str]:
    """Write a sequence of ICCS moves played from ``p`` in WXF notation.

    ``p`` itself is left unchanged.
    """
    return _render_list(p, moves, to_wxf)


# ---------------------------------------------------------------------------
# Reading moves
# ---------------------------------------------------------------------------

def _normalise(text: str) -> str:
    """NFKC (full-width -> ASCII) and no whitespace."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def _is_chinese(text: str) -> bool:
    return any(ch in _CN_PIECE_WORDS or ch in _CN_DIRECTION_WORDS
               or ch in _CN_POSITION_WORDS or ch in _CN_NUMERALS
               for ch in text)


def _parse_chinese(text: str, original: str) -> _MoveText:
    """Split Chinese text into its parts (syntax only, no board)."""
    def bad(reason: str) -> NotationError:
        return NotationError(
            f"cannot read {original!r}: {reason}; {_FORMAT_HELP}")

    chars = list(text)
    if len(chars) == 3:
        # Shorthand: piece + from-file + to-file, e.g. 炮25.
        name, a, b = chars
        if name in _CN_PIECE_WORDS and a in _NUMBER_VALUES \
                and b in _NUMBER_VALUES:
            piece, side = _CN_PIECE_WORDS[name]
            return _MoveText("chinese", piece, ("file", _NUMBER_VALUES[a]),
                             None, _NUMBER_VALUES[b], side)
        raise bad("a 3-character move must be piece + from-file + to-file")
    if len(chars) != 4:
        raise bad(f"{len(chars)} characters, a Chinese move has 4")
    c0, c1, c2, c3 = chars
    if c2 not in _CN_DIRECTION_WORDS:
        raise bad(f"third character {c2!r} is not 进, 退 or 平")
    if c3 not in _NUMBER_VALUES:
        raise bad(f"last character {c3!r} is not a number 1..9")
    direction = _CN_DIRECTION_WORDS[c2]
    last = _NUMBER_VALUES[c3]
    if c0 in _CN_PIECE_WORDS:
        piece, side = _CN_PIECE_WORDS[c0]
        if c1 in _NUMBER_VALUES:
            origin: Label = ("file", _NUMBER_VALUES[c1])
        elif c1 in _CN_POSITION_WORDS:  # 车前进一, a rare word order
            origin = ("pos", _CN_POSITION_WORDS[c1])
        else:
            raise bad(f"second character {c1!r} is not a file number")
    elif c1 in _CN_PIECE_WORDS:
        piece, side = _CN_PIECE_WORDS[c1]
        if c0 in _CN_POSITION_WORDS:
            origin = ("pos", _CN_POSITION_WORDS[c0])
        elif c0 in _NUMBER_VALUES and _NUMBER_VALUES[c0] <= 5:
            origin = ("index", _NUMBER_VALUES[c0])
        else:
            raise bad(f"{c0!r} is not 前, 中, 后 or 一..五")
    else:
        raise bad("no piece name (车, 马, 炮, 兵, ...) "
                  "in the first two characters")
    return _MoveText("chinese", piece, origin, direction, last, side)


def _parse_wxf(text: str, original: str) -> _MoveText:
    """Split WXF text into its parts (syntax only, no board)."""
    upper = text.upper()
    for regex, form in _WXF_FORMS:
        m = regex.match(upper)
        if m is None:
            continue
        g = m.groups()
        if form == "file":
            return _MoveText("wxf", _WXF_PIECE_LETTERS[g[0]],
                             ("file", int(g[1])), _WXF_OPERATORS[g[2]],
                             int(g[3]))
        if form == "short":
            return _MoveText("wxf", _WXF_PIECE_LETTERS[g[0]],
                             ("file", int(g[1])), None, int(g[2]))
        if form == "pos":
            direction = _WXF_OPERATORS[g[2]] if g[2] else SIDEWAYS
            return _MoveText("wxf", _WXF_PIECE_LETTERS[g[0]],
                             ("pos", _WXF_POSITION_SIGNS[g[1]]), direction,
                             int(g[3]))
        if form == "pos_first":
            return _MoveText("wxf", _WXF_PIECE_LETTERS[g[1]],
                             ("pos", _WXF_POSITION_SIGNS[g[0]]),
                             _WXF_OPERATORS[g[2]], int(g[3]))
        if form == "double":
            word = FRONT2 if g[0] == "++" else REAR2
            return _MoveText("wxf", PAWN, ("pos", word), _WXF_OPERATORS[g[1]],
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
                word = _WXF_POSITION_SIGNS[g[1]]
            return _MoveText("wxf", PAWN, ("file_pos", int(g[0]), word),
                             _WXF_OPERATORS[g[2]], int(g[3]))
        # form == "index"
        return _MoveText("wxf", _WXF_PIECE_LETTERS[g[0]],
                         ("index", _WXF_INDEX_LETTERS.index(g[1]) + 1),
                         _WXF_OPERATORS[g[2]], int(g[3]))
    raise NotationError(f"cannot read {original!r} as a move; {_FORMAT_HELP}")


_POSITION_PHRASES = {
    FRONT: "in front (前, +)", MIDDLE: "in the middle (中)",
    REAR: "at the rear (后, -)", FRONT2: "frontmost (++)",
    REAR2: "rearmost (--)",
}


def _describe_origin(text: _MoveText) -> str:
    """The origin of ``text`` in words, for messages."""
    kind = text.origin[0]
    if kind == "file":
        return f"on file {text.origin[1]}"
    if kind == "pos":
        return _POSITION_PHRASES[text.origin[1]]
    if kind == "index":
        return f"numbered {text.origin[1]}"
    return f"{_POSITION_PHRASES[text.origin[2]]} on file {text.origin[1]}"


def _resolve(p: PositionLike, snap: _Snapshot, text: _MoveText,
             original: str) -> str:
    """Find the unique legal move that ``text`` describes."""
    write = _wxf_of if text.style == "wxf" else _chinese_of
    side = snap.side_name
    what = f"{side} {_TYPE_NAMES[text.piece]}"
    if text.side is not None and text.side != snap.side:
        raise NotationError(
            f"{original!r} names a {text.side.capitalize()} piece, "
            f"but {side} is to move")
    group = snap.group(text.piece)
    if not group.squares:
        raise NotationError(f"{original!r}: there is no {what} on the board")
    origins = {sq for sq in group.squares if _origin_matches(snap, text, sq)}
    if not origins:
        hint = "" if text.origin[0] == "file" else (
            " (position words and numbers need several of them on one file)")
        raise NotationError(
            f"{original!r}: no {what} {_describe_origin(text)}{hint}")

    names = {_square_name(sq) for sq in origins}
    own_moves = [(move, _square_of(move[:2]), _square_of(move[2:]))
                 for move in p.legal_moves() if move[:2] in names]
    hits = []
    for move, frm, to in own_moves:
        direction, last = _shape(snap, text.piece, frm, to)
        if text.direction is None:  # shorthand: compare target files only
            if snap.file_no(to[0]) == text.last:
                hits.append((move, frm, to))
        elif (direction, last) == (text.direction, text.last):
            hits.append((move, frm, to))

    if len(hits) == 1:
        return hits[0][0]
    if not hits:
        options = ", ".join(write(snap, text.piece, frm, to)
                            for _, frm, to in own_moves)
        raise NotationError(
            f"{original!r} is not a legal move for {side}: the {what} "
            f"{_describe_origin(text)} cannot move that way"
            + (f"; its legal moves: {options}" if options
               else "; it has no legal move"))
    options = ", ".join(f"{move} ({write(snap, text.piece, frm, to)})"
                        for move, frm, to in hits)
    raise NotationError(
        f"{original!r} is ambiguous for {side}: it could be {options}")


def parse_move(p: PositionLike, text: str) -> str:
    """Read a move of the side to move in ``p`` and return it as ICCS.

    Accepted forms:

    * ICCS: ``h2e2``, ``H2-E2``, ``h2-e2``;
    * Chinese: ``炮二平五``, ``马8进7``, ``前车进一``, ``中兵平四``, ``一兵平四``,
      in simplified or traditional characters (帥 將 俥 車 傌 馬 砲 包 進 後),
      with 一..九, 1..9 or １..９ for either side;
    * WXF: ``C2.5`` / ``C2=5`` / ``C25``, ``H8+7`` (``N`` for ``H``, ``B`` for
      ``E``), tandem forms ``R+.3``, ``+R.3``, ``P7.8``, ``++.4``, ``3+.4``;
    * shorthand piece + from-file + to-file: ``炮25``, ``马87``, ``H87``.

    A file number that leaves the piece open (one of two rooks on that file)
    is accepted when exactly one of the candidates can make the move.

    Raises:
        NotationError: the text is malformed, names no legal move, or could
            mean more than one legal move (the message lists the candidates).
    """
    if not isinstance(text, str):
        raise NotationError(
            f"move text must be a string, not {type(text).__name__}")
    compact = _normalise(text)
    if not compact:
        raise NotationError("empty move text; " + _FORMAT_HELP)
    if is_iccs(compact):
        frm, to = _decode(compact)
        move = _encode(frm, to)
        if move not in p.legal_moves():
            side = "Red" if _is_red(p) else "Black"
            raise NotationError(
                f"{text!r} ({move}) is not a legal move for {side} "
                "in this position")
        return move
    if _is_chinese(compact):
        parsed = _parse_chinese(compact, text)
    else:
        parsed = _parse_wxf(compact, text)
    return _resolve(p, _Snapshot(p), parsed, text)

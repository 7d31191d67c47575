"""What Chinese and WXF notation have in common: their vocabulary, and the board seen from the mover.

Both notations describe a move relative to the side that makes it: files are numbered from the mover's own
right, directions are towards the opponent or back, and several pieces of one kind on one file are told
apart by position words. This module holds those words, the parts of a move text (:class:`MoveText`), the
origin labels, and :class:`BoardView`, which answers the questions both notations ask of a position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Protocol, Tuple

from ..color import Color
from ..errors import IllegalMoveError
from ..squares import Square, parse_iccs

# Piece types use the upper-case FEN letters.
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = "KABNRCP"
FIXED_FILE_TYPES = (KING, ADVISOR, ELEPHANT)  # never written with 前/后
DIAGONAL_TYPES = (HORSE, ELEPHANT, ADVISOR)  # last symbol is a file

TYPE_NAMES = {KING: "general", ADVISOR: "advisor", ELEPHANT: "elephant",
              HORSE: "horse", ROOK: "chariot", CANNON: "cannon",
              PAWN: "soldier"}

FORWARD, BACKWARD, SIDEWAYS = "+", "-", "."

# Position words.  FRONT2/REAR2 are WXF's "++"/"--" (four or five pawns).
FRONT, MIDDLE, REAR = "front", "middle", "rear"
FRONT2, REAR2 = "front2", "rear2"

FORMAT_HELP = ("expected ICCS (h2e2, H2-E2), Chinese (炮二平五, 马8进7, 前车进一), "
               "WXF (C2.5, H8+7, R+.3), XBoard's SAN (Che2, Hc7, cxc5) or piece + from-file + to-file (炮25)")


class NotationError(IllegalMoveError):
    """Move text that is malformed, ambiguous or names no legal move."""


class PositionLike(Protocol):
    """What this package needs from a position (:class:`engine.Position`).

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
class MoveText:
    """A move text broken into its parts (the result of reading its syntax)."""

    style: str            # "chinese" or "wxf": whose label rules apply
    piece: str            # piece type letter
    origin: Label         # which piece; see the label forms above
    direction: Optional[str]  # FORWARD/BACKWARD/SIDEWAYS; None for shorthand
    last: int             # 1..9: target file or number of ranks
    side: Optional[str] = None  # side named by the piece word, if any


# ---------------------------------------------------------------------------
# The board seen from the side to move
# ---------------------------------------------------------------------------

def side_to_move(position: PositionLike) -> Color:
    """The side to move (``position.turn``: a Color, or the string "red" or "black")."""
    turn = position.turn
    if turn not in ("red", "black"):
        raise ValueError(f"unknown side to move: {turn!r}")
    return Color(turn)


class BoardView:
    """The board of one position, seen from the side to move."""

    def __init__(self, position: PositionLike) -> None:
        self.color = side_to_move(position)
        self.red = self.color is Color.RED
        self.board: Dict[Square, str] = {
            square_of(name): piece
            for name, piece in position.piece_map().items()}
        self._groups: Dict[str, "PieceGroup"] = {}

    @property
    def side(self) -> str:
        """Side to move: "red" or "black"."""
        return self.color.value

    @property
    def side_name(self) -> str:
        """Side to move as written in messages: "Red" or "Black"."""
        return self.color.label

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

    def group(self, piece_type: str) -> "PieceGroup":
        """The mover's pieces of ``piece_type``."""
        group = self._groups.get(piece_type)
        if group is None:
            letter = piece_type if self.red else piece_type.lower()
            squares = [sq for sq, pc in self.board.items() if pc == letter]
            group = self._groups[piece_type] = PieceGroup(self, squares)
        return group

    def shape(self, piece: str, frm: Square, to: Square) -> Tuple[str, int]:
        """(direction, last number) of a move, as both notations write them."""
        if frm[1] == to[1]:
            direction = SIDEWAYS
        elif self.advance(to[1]) > self.advance(frm[1]):
            direction = FORWARD
        else:
            direction = BACKWARD
        if direction == SIDEWAYS or piece in DIAGONAL_TYPES:
            last = self.file_no(to[0])
        else:
            last = abs(to[1] - frm[1])
        return direction, last


class PieceGroup:
    """The mover's pieces of one type, ordered for tandem labels."""

    def __init__(self, view: BoardView, squares: List[Square]) -> None:
        self.squares = squares
        by_file: Dict[int, List[Square]] = {}
        for sq in squares:
            by_file.setdefault(sq[0], []).append(sq)
        for column in by_file.values():
            column.sort(key=lambda sq: -view.advance(sq[1]))  # front first
        self.by_file = by_file
        # xqbase list: pieces on files holding two or more of them, from the
        # mover's right to left, then front to back.
        tandem_files = sorted(
            (f for f, col in by_file.items() if len(col) > 1),
            key=view.file_no)
        self.tandem_file_count = len(tandem_files)
        self.xqbase = [sq for f in tandem_files for sq in by_file[f]]

    def column(self, square: Square) -> List[Square]:
        return self.by_file.get(square[0], [])


# ---------------------------------------------------------------------------
# Squares
# ---------------------------------------------------------------------------

def decode_iccs(move: str) -> Tuple[Square, Square]:
    """ICCS text -> (from, to) squares; raises NotationError if malformed."""
    squares = parse_iccs(move.strip()) if isinstance(move, str) else None
    if squares is None:
        raise NotationError(
            f"not an ICCS move: {move!r} (expected e.g. 'h2e2')")
    return squares


def square_of(name: str) -> Square:
    """Square of a well-formed lower-case name such as "e0" (no checks:
    the names come from the position itself)."""
    return ord(name[0]) - 97, ord(name[1]) - 48

"""Move notation: Chinese (纵线格式), WXF, ICCS and XBoard's SAN.

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

* :func:`to_chinese`, :func:`to_wxf` and :func:`to_san` write one legal move, :func:`to_notation` in the
  notation named (:data:`NOTATIONS`: ``iccs``, ``chinese``, ``wxf``, ``san``, defined once here);
* :func:`to_chinese_list`, :func:`to_wxf_list` and :func:`to_san_list` write a sequence of moves;
* :func:`legal_move_texts` writes every legal move of a position at once;
* :func:`parse_move` reads ICCS, Chinese (simplified or traditional, any digit
  style), WXF, XBoard's SAN (``Cbe2``, ``Hc7``, ``cxc5``, ranks 0..9) or the
  short form piece + from-file + to-file (``炮25``) and returns the ICCS move.

Anything malformed, ambiguous or impossible raises :class:`NotationError`, a
subclass of :class:`engine.errors.IllegalMoveError`.

The modules, one job each:

* :mod:`.names`: the notations' names, the one list every part offers;
* :mod:`.board`: the vocabulary both notations share, and the board seen from
  the side to move;
* :mod:`.chinese` and :mod:`.wxf`: each notation's symbols, how it labels a
  piece, and how its text splits into parts;
* :mod:`.san`: XBoard's algebraic notation, written and read on its own (it
  names squares, not the mover's files, so it shares nothing with the others);
* :mod:`.writer`: writing legal moves (the public ``to_*`` functions);
* :mod:`.reader`: reading a move in any notation (:func:`parse_move`).
"""

from .board import NotationError, PositionLike
from .names import CHINESE, ICCS, NOTATIONS, SAN, WXF
from .reader import parse_move
from .writer import (legal_move_texts, to_chinese, to_chinese_list, to_notation, to_san, to_san_list, to_wxf,
                     to_wxf_list)

__all__ = [
    "CHINESE",
    "ICCS",
    "NOTATIONS",
    "SAN",
    "WXF",
    "NotationError",
    "PositionLike",
    "to_chinese",
    "to_wxf",
    "to_san",
    "to_chinese_list",
    "to_wxf_list",
    "to_san_list",
    "to_notation",
    "legal_move_texts",
    "parse_move",
]

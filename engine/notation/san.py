"""XBoard's algebraic notation (SAN) for Xiangqi: ``Cbe2``, ``Hc7``, ``cxc5``, ``Rxf9+``, ``Ee2``, ``cd4``.

This is the notation XBoard/WinBoard writes in its PGN files (``[Variant "xiangqi"]``) and the one the
tournaments that run on it publish. Squares are ICCS squares: files ``a``..``i`` from Red's left and
**ranks 0..9** from Red's back rank. XBoard counts the ranks of a 10-rank board from 0 (its engine
protocol spec: "on boards with exactly 10 ranks, counting of the ranks starts at 0"; XBoard 4.9.1 writes
the soldier move g3-g4 as ``g4`` and logs it "Parsed g4 into g3g4"). Fairy-Stockfish's SAN
(``pyffish.get_san``) counts the same ranks **1..10** (``g5`` for that move) and is not what this module
reads or writes.

Piece letters are XBoard's: ``K`` general, ``A`` advisor, ``E`` elephant, ``H`` horse, ``R`` chariot,
``C`` cannon; a soldier has none. Read too: ``N`` for the horse and ``B`` for the elephant (the FEN
letters), and ``P`` before a soldier's move.

How XBoard writes a move (its moves.c, ``CoordsToAlgebraic``), and so :func:`san_text`:

* a piece: its letter; then the origin's file if another piece of its kind on the same rank can go to the
  same point, or one on another rank and another file can and none on the same file can; then the
  origin's rank if one on the same file can; ``x`` for a capture; the destination: ``Hc7``, ``Ege7``,
  ``R3d5``, ``Rxf9``;
* a soldier: its file; then, for a straight move that captures nothing, the destination rank (``g4``);
  otherwise ``x`` if it captures and the destination (``cd4`` sideways, ``gxg6``, ``dxe3``);
* ``+`` after a move that gives check; ``#`` after one that leaves the opponent no legal move, a
  checkmate or a stalemate (a loss in Xiangqi too: XBoard 4.9.1 writes ``Re8#`` for a stalemating move).

Reading (:func:`read_san`) takes the same forms with any extra disambiguation (``Hb0c2``, ``Hb0-c2``),
check marks or none, and ignores whether ``x`` is written: the board says whether a move captures.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from ..squares import FILES
from ..color import Color
from .board import NotationError, PositionLike, decode_iccs, side_to_move

#: XBoard's letter for each piece type (upper-case FEN letters).
LETTERS: Dict[str, str] = {"K": "K", "A": "A", "B": "E", "N": "H", "R": "R", "C": "C"}

# Letters read -> FEN piece type.
_PIECE_LETTERS = {"K": "K", "A": "A", "E": "B", "B": "B", "H": "N", "N": "N", "R": "R", "C": "C", "P": "P"}

_SAN_RE = re.compile(
    r"(?P<piece>[KAEBHNRCP])?(?P<file>[a-i])?(?P<rank>[0-9])?[x:-]?(?P<to>[a-i][0-9])(?P<mark>[+#]*)")


def looks_san(text: str) -> bool:
    """Whether ``text`` has the shape of a SAN move (no other notation ends in a square such as ``e2``)."""
    return _SAN_RE.fullmatch(text) is not None


def _check_mark(position: PositionLike, move: str) -> str:
    """``#`` if ``move`` leaves the opponent no legal move (checkmate or stalemate), ``+`` if it gives
    check, else ``""``."""
    after = position.copy()
    after.push(move)
    if not after.legal_moves():
        return "#"
    return "+" if after.is_check() else ""  # type: ignore[attr-defined]


def san_text(position: PositionLike, move: str, legal: Optional[List[str]] = None) -> str:
    """The SAN of a legal ICCS move of ``position`` (see the module's rules). ``legal`` may pass the
    position's legal moves when the caller has them."""
    (ff, fr), (tf, tr) = decode_iccs(move)
    origin, target = move[:2], move[2:]
    legal = position.legal_moves() if legal is None else legal
    if move not in legal:
        side = side_to_move(position).label
        raise NotationError(f"{move} is not a legal move for {side} in this position")
    board = position.piece_map()
    piece = board[origin]
    capture = target in board
    if piece.upper() == "P":
        if ff == tf and not capture:
            text = target
        else:
            text = FILES[ff] + ("x" if capture else "") + target
    else:
        same_rank = same_file = either = False
        for other in legal:
            if other[2:] != target or other[:2] == origin or board[other[:2]] != piece:
                continue
            of, orank = FILES.index(other[0]), int(other[1])
            if orank == fr:
                same_rank = True
            elif of == ff:
                same_file = True
            else:
                either = True
        text = LETTERS[piece.upper()]
        if same_rank or (either and not same_file):
            text += FILES[ff]
        if same_file:
            text += str(fr)
        text += ("x" if capture else "") + target
    return text + _check_mark(position, move)


def read_san(position: PositionLike, text: str, original: Optional[str] = None) -> str:
    """The legal ICCS move that the SAN ``text`` names in ``position``.

    Raises:
        NotationError: ``text`` is not SAN, names no legal move, or names more than one.
    """
    shown = text if original is None else original
    match = _SAN_RE.fullmatch(text)
    if match is None:
        raise NotationError(f"cannot read {shown!r} as SAN (e.g. Cbe2, Hc7, cxc5, Rxf9+, e4)")
    color = side_to_move(position)
    red, side = color is Color.RED, color.label
    kind = _PIECE_LETTERS[match["piece"] or "P"]
    letter = kind if red else kind.lower()
    from_file, from_rank, target = match["file"], match["rank"], match["to"]
    if kind == "P" and from_file is None:
        from_file = target[0]  # a soldier's straight move names only its destination: g4 is g3-g4
    board = position.piece_map()
    legal = position.legal_moves()
    hits = [m for m in legal
            if m[2:] == target and board.get(m[:2]) == letter
            and (from_file is None or m[0] == from_file) and (from_rank is None or m[1] == from_rank)]
    if len(hits) == 1:
        return hits[0]
    name = {"K": "general", "A": "advisor", "B": "elephant", "N": "horse", "R": "chariot", "C": "cannon",
            "P": "soldier"}[kind]
    if not hits:
        own = [m for m in legal if board.get(m[:2]) == letter]
        options = ", ".join(sorted(san_text(position, m, legal) for m in own))
        raise NotationError(f"{shown!r} is not a legal move for {side}: no {side} {name} can go to {target}"
                            + (f"; the {name}s' legal moves: {options}" if options else ""))
    options = ", ".join(f"{m} ({san_text(position, m, legal)})" for m in hits)
    raise NotationError(f"{shown!r} is ambiguous for {side}: it could be {options}")

"""Writing legal ICCS moves in Chinese, WXF or XBoard's SAN: one move, a sequence, or every legal move at once."""

from __future__ import annotations

from typing import Callable, Dict, Iterable, List, Tuple

from ..squares import Square, move_name
from .board import BoardView, NotationError, PositionLike, decode_iccs, square_of
from .chinese import chinese_text
from .names import CHINESE, ICCS, NOTATIONS, SAN, WXF
from .san import san_text
from .wxf import wxf_text


def _prepare(position: PositionLike,
             move: str) -> Tuple[BoardView, str, Square, Square]:
    """Check that ``move`` is legal in ``position`` and read the board."""
    frm, to = decode_iccs(move)
    iccs = move_name(frm, to)
    view = BoardView(position)
    if iccs not in position.legal_moves():
        raise NotationError(
            f"{iccs} is not a legal move for {view.side_name} "
            "in this position")
    piece = view.piece_type(frm)
    if piece is None:  # cannot happen for a legal move
        raise NotationError(f"no {view.side_name} piece on {iccs[:2]}")
    return view, piece, frm, to


def to_chinese(p: PositionLike, move: str) -> str:
    """Write a legal ICCS move of ``p`` in Chinese notation (simplified).

    Red uses the numerals 一..九, Black the digits 1..9.  Examples from the
    start position: ``h2e2`` -> ``炮二平五``, ``h0g2`` -> ``马二进三``; tandem
    pieces give ``前车进一``, ``中兵平四``, ``二兵平六`` (xqbase numbering).

    Raises:
        NotationError: ``move`` is malformed or not legal in ``p``.
    """
    return chinese_text(*_prepare(p, move))


def to_wxf(p: PositionLike, move: str) -> str:
    """Write a legal ICCS move of ``p`` in official WXF notation.

    Sideways moves use ``.``.  Examples: ``C2.5``, ``H8+7``, ``R+.3``,
    ``P7.8`` (middle of three soldiers), ``++.4``, ``3-.4``.

    Raises:
        NotationError: ``move`` is malformed or not legal in ``p``.
    """
    return wxf_text(*_prepare(p, move))


def to_san(p: PositionLike, move: str) -> str:
    """Write a legal ICCS move of ``p`` in XBoard's SAN (ranks 0..9; :mod:`engine.notation.san`).

    Examples from the start position: ``h2e2`` -> ``Che2``, ``b9c7`` is Black's ``Hc7``, ``g3g4`` ->
    ``g4``; ``+`` marks a check, ``#`` a checkmate.

    Raises:
        NotationError: ``move`` is malformed or not legal in ``p``.
    """
    return san_text(p, move_name(*decode_iccs(move)))


def to_notation(p: PositionLike, move: str, notation: str) -> str:
    """Write a legal ICCS move of ``p`` in ``notation``, one of :data:`~.names.NOTATIONS` (``iccs``: the
    move itself, in its canonical form).

    Raises:
        NotationError: ``move`` is malformed or (in the other notations) not legal in ``p``.
        ValueError: an unknown notation.
    """
    if notation == ICCS:
        return move_name(*decode_iccs(move))
    writer = _WRITERS.get(notation)
    if writer is None:
        raise ValueError(f"unknown notation {notation!r}: one of {', '.join(NOTATIONS)}")
    return writer(p, move)


def legal_move_texts(p: PositionLike,
                     notation: str = "chinese") -> Dict[str, str]:
    """Every legal move of ``p`` (ICCS) mapped to its text, in one pass.

    ``notation`` is ``"chinese"``, ``"wxf"`` or ``"san"``.  Cheaper than
    calling :func:`to_chinese` or :func:`to_wxf` once per move, e.g. for a
    move list in a user interface.
    """
    if notation not in (CHINESE, WXF, SAN):
        raise ValueError(
            f"notation must be 'chinese', 'wxf' or 'san', not {notation!r}")
    if notation == SAN:
        legal = p.legal_moves()
        return {move: san_text(p, move, legal) for move in legal}
    write = chinese_text if notation == CHINESE else wxf_text
    view = BoardView(p)
    texts: Dict[str, str] = {}
    for move in p.legal_moves():
        frm, to = square_of(move[:2]), square_of(move[2:])
        piece = view.piece_type(frm)
        if piece is None:  # cannot happen for a legal move
            raise NotationError(f"no {view.side_name} piece on {move[:2]}")
        texts[move] = write(view, piece, frm, to)
    return texts


def _render_list(p: PositionLike, moves: Iterable[str],
                 write: Callable[[PositionLike, str], str]) -> List[str]:
    board = p.copy()
    out: List[str] = []
    for move in moves:
        out.append(write(board, move))
        board.push(move_name(*decode_iccs(move)))
    return out


def to_chinese_list(p: PositionLike, moves: Iterable[str]) -> List[str]:
    """Write a sequence of ICCS moves played from ``p`` in Chinese notation.

    ``p`` itself is left unchanged.
    """
    return _render_list(p, moves, to_chinese)


def to_san_list(p: PositionLike, moves: Iterable[str]) -> List[str]:
    """Write a sequence of ICCS moves played from ``p`` in XBoard's SAN.

    ``p`` itself is left unchanged.
    """
    return _render_list(p, moves, to_san)


def to_wxf_list(p: PositionLike, moves: Iterable[str]) -> List[str]:
    """Write a sequence of ICCS moves played from ``p`` in WXF notation.

    ``p`` itself is left unchanged.
    """
    return _render_list(p, moves, to_wxf)


_WRITERS: Dict[str, Callable[[PositionLike, str], str]] = {CHINESE: to_chinese, WXF: to_wxf, SAN: to_san}

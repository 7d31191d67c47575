"""Reading a move in any notation: ICCS, Chinese, WXF, XBoard's SAN or the short form piece + from-file + to-file.

The text is first split into its parts by the syntax of its notation (engine.notation.chinese and .wxf);
then the parts are matched against the board: which of the mover's pieces the origin can denote, and which
of their legal moves has the written direction and last number.  Exactly one legal move must remain.
"""

from __future__ import annotations

import unicodedata
from typing import List

from ..squares import Square, is_iccs, move_name, square_name
from .board import (FORMAT_HELP, FRONT, FRONT2, MIDDLE, PAWN, REAR, REAR2, TYPE_NAMES, BoardView, MoveText,
                    NotationError, PositionLike, decode_iccs, side_to_move, square_of)
from .chinese import chinese_text, looks_chinese, read_chinese
from .san import looks_san, read_san
from .wxf import read_wxf, wxf_text


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


def _origin_matches(view: BoardView, text: MoveText, square: Square) -> bool:
    """Whether the origin written in ``text`` can denote ``square``.

    Canonical labels always pick exactly one piece.  Non-canonical but
    meaningful labels (a file number for one of two rooks on that file, 前兵
    when soldiers are doubled on two files) may pick several; the caller then
    keeps the pieces for which the rest of the text is a legal move.
    """
    group = view.group(text.piece)
    column = group.column(square)
    kind = text.origin[0]
    wxf = text.style == "wxf"
    if kind == "file":
        if view.file_no(square[0]) != text.origin[1]:
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
        if view.file_no(square[0]) != text.origin[1]:
            return False
        return _column_word_matches(column, square, text.origin[2], True)
    return False


def _normalise(text: str) -> str:
    """NFKC (full-width -> ASCII) and no whitespace."""
    return "".join(unicodedata.normalize("NFKC", text).split())


_POSITION_PHRASES = {
    FRONT: "in front (前, +)", MIDDLE: "in the middle (中)",
    REAR: "at the rear (后, -)", FRONT2: "frontmost (++)",
    REAR2: "rearmost (--)",
}


def _describe_origin(text: MoveText) -> str:
    """The origin of ``text`` in words, for messages."""
    kind = text.origin[0]
    if kind == "file":
        return f"on file {text.origin[1]}"
    if kind == "pos":
        return _POSITION_PHRASES[text.origin[1]]
    if kind == "index":
        return f"numbered {text.origin[1]}"
    return f"{_POSITION_PHRASES[text.origin[2]]} on file {text.origin[1]}"


def _resolve(p: PositionLike, view: BoardView, text: MoveText,
             original: str) -> str:
    """Find the unique legal move that ``text`` describes."""
    write = wxf_text if text.style == "wxf" else chinese_text
    side = view.side_name
    what = f"{side} {TYPE_NAMES[text.piece]}"
    if text.side is not None and text.side != view.side:
        raise NotationError(
            f"{original!r} names a {text.side.capitalize()} piece, "
            f"but {side} is to move")
    group = view.group(text.piece)
    if not group.squares:
        raise NotationError(f"{original!r}: there is no {what} on the board")
    origins = {sq for sq in group.squares if _origin_matches(view, text, sq)}
    if not origins:
        hint = "" if text.origin[0] == "file" else (
            " (position words and numbers need several of them on one file)")
        raise NotationError(
            f"{original!r}: no {what} {_describe_origin(text)}{hint}")

    names = {square_name(*sq) for sq in origins}
    own_moves = [(move, square_of(move[:2]), square_of(move[2:]))
                 for move in p.legal_moves() if move[:2] in names]
    hits = []
    for move, frm, to in own_moves:
        direction, last = view.shape(text.piece, frm, to)
        if text.direction is None:  # shorthand: compare target files only
            if view.file_no(to[0]) == text.last:
                hits.append((move, frm, to))
        elif (direction, last) == (text.direction, text.last):
            hits.append((move, frm, to))

    if len(hits) == 1:
        return hits[0][0]
    if not hits:
        options = ", ".join(write(view, text.piece, frm, to)
                            for _, frm, to in own_moves)
        raise NotationError(
            f"{original!r} is not a legal move for {side}: the {what} "
            f"{_describe_origin(text)} cannot move that way"
            + (f"; its legal moves: {options}" if options
               else "; it has no legal move"))
    options = ", ".join(f"{move} ({write(view, text.piece, frm, to)})"
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
    * shorthand piece + from-file + to-file: ``炮25``, ``马87``, ``H87``;
    * XBoard's SAN (:mod:`.san`, ranks 0..9): ``Cbe2``, ``Hc7``, ``cxc5``, ``Rxf9+``, ``e4``.
      No WXF text ends in a square such as ``e2``, so the two never overlap; a text that could be ICCS
      or SAN is ICCS when written in one case (``A2E1``, ``a2e1``) and SAN otherwise (``A2e1``).

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
        raise NotationError("empty move text; " + FORMAT_HELP)
    # "A2e1" is SAN (the advisor on rank 2 to e1), not ICCS a2e1: an ICCS move is written in one case.
    if is_iccs(compact) and not (compact[0].isupper() and compact[-2].islower()):
        frm, to = decode_iccs(compact)
        move = move_name(frm, to)
        if move not in p.legal_moves():
            side = side_to_move(p).label
            raise NotationError(
                f"{text!r} ({move}) is not a legal move for {side} "
                "in this position")
        return move
    if looks_chinese(compact):
        parsed = read_chinese(compact, text)
    elif looks_san(compact):
        return read_san(p, compact, text)
    else:
        parsed = read_wxf(compact, text)
    return _resolve(p, BoardView(p), parsed, text)

"""CBR, the binary game record of CCBridge (象棋桥): one game, its strings in UTF-16.

What is read (docs/gamefiles.md has the whole layout) is what the readers of real files agree on: the
Python library cchess, gmchess's converter and a Java reader for the offsets and the move stream, a Kaitai
description for the fields between them:

* ``CCBridge Record`` and a NUL (16 bytes); byte 19 the record's layout (1 is an older layout, refused);
* UTF-16LE strings, each NUL-terminated in its field: the title at 180, the event at 692, the round at
  756, the date at 884, the site at 948, Red at 1076 and Red's team at 1140, Black at 1300 and Black's team
  at 1364;
* the result at 2076 (0 unknown, 1 Red wins, 2 Black wins, 3 draw, 4 several), the side to move at 2116
  (1 Red), the board at 2120: 90 bytes, row by row from Black's back rank, each the piece's colour in the
  high nibble (1 Red, 2 Black) and its kind in the low (1 chariot, 2 horse, 3 elephant, 4 advisor,
  5 general, 6 cannon, 7 soldier);
* from 2214 the tree of moves in preorder (:func:`.tree.preorder`): 4 bytes a move (flags, reserved,
  origin, destination; a square is ``row * 9 + file``, rows from the top), flags 1 for "the line ends
  here", 2 for "an alternative follows", 4 for "a comment follows" (its length in bytes, 4 bytes, then
  UTF-16LE); the first record is the start position's, for its comment (cchess reads its four bytes as
  a number, not zero when a comment follows: the same for the flags 0 and 4 that records have). A record
  of four zero bytes ends the tree, and so does the end of the data after the first record; the data
  ending inside a line is a truncated record.

The side to move is the first move's piece's (as every reader does), else the byte at 2116.
"""

from __future__ import annotations

import struct
from typing import Dict, Iterator, List, Optional, Tuple

from ..squares import FILES
from .game import Game, GameFileError, PgnError
from .tree import Board, Node, TreeBuilder, game_of_tree

MAGIC = b"CCBridge Record\x00"
LAYOUT_OFFSET = 19
OLD_LAYOUT = 1
#: The fixed part of a record, before its moves.
HEADER_SIZE = 2214

_STRINGS = (("Title", 180, 128), ("Event", 692, 64), ("Round", 756, 64), ("Date", 884, 64),
            ("Site", 948, 64), ("Red", 1076, 64), ("RedTeam", 1140, 64), ("Black", 1300, 64),
            ("BlackTeam", 1364, 64))
_RESULT_OFFSET = 2076
_SIDE_OFFSET = 2116
_BOARD_OFFSET = 2120
_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
# The low nibble of a board byte -> engine.fen piece type (KABNRCP).
_PIECE_TYPES = {1: 4, 2: 3, 3: 2, 4: 1, 5: 0, 6: 5, 7: 6}

_ENDS_LINE, _HAS_ALTERNATIVE, _HAS_COMMENT = 0x01, 0x02, 0x04


def is_cbr(data: bytes) -> bool:
    return data[:len(MAGIC)] == MAGIC


def utf16_field(raw: bytes) -> str:
    """A UTF-16LE string up to its first NUL character."""
    for index in range(0, len(raw) - 1, 2):
        if raw[index] == 0 and raw[index + 1] == 0:
            raw = raw[:index]
            break
    return raw[:len(raw) - len(raw) % 2].decode("utf-16-le", errors="replace").strip()


def _square(value: int, what: str, offset: int) -> str:
    if value >= 90:
        raise GameFileError(f"the {what} of a move reads as {value}, not a square (0..89): the record is "
                            "corrupt", offset=offset)
    row, file = divmod(value, 9)
    return f"{FILES[file]}{9 - row}"


def _board(data: bytes) -> Tuple[Board, int]:
    """The board of a record without its side to move, and the side the record stores (0 Red, 1 Black;
    1 at 2116 is Red, anything else Black, as cchess and gmchess read it). A byte that is no piece is an
    empty square (0, or 1 as some writers put it; every reader takes any other so)."""
    pieces = []
    for index, value in enumerate(data[_BOARD_OFFSET:_BOARD_OFFSET + 90]):
        colour, kind = value >> 4, value & 0x0F
        if colour not in (1, 2) or kind not in _PIECE_TYPES:
            continue
        row, file = divmod(index, 9)
        pieces.append((colour - 1, _PIECE_TYPES[kind], file, 9 - row))
    (side,) = struct.unpack_from("<H", data, _SIDE_OFFSET)
    return Board(tuple(pieces)), (0 if side == 1 else 1)


class _Stream:
    """The move stream of a record, with where it is for messages (``base`` is the record's offset in a
    library)."""

    def __init__(self, data: bytes, base: int) -> None:
        self.data = data
        self.base = base
        self.offset = HEADER_SIZE

    def at_end(self) -> bool:
        return self.offset + 4 > len(self.data) or self.data[self.offset:self.offset + 4] == bytes(4)

    def take(self, count: int, what: str) -> bytes:
        end = self.offset + count
        if end > len(self.data):
            raise GameFileError(f"the record ends in the middle of {what}: it is truncated",
                                offset=self.base + self.offset)
        raw = self.data[self.offset:end]
        self.offset = end
        return raw

    def record(self) -> Tuple[int, int, int, Optional[str], int]:
        """(flags, origin, destination, comment, offset in the file) of the next record."""
        start = self.base + self.offset
        flags, _, origin, destination = self.take(4, "a move record")
        comment = None
        if flags & _HAS_COMMENT:
            (length,) = struct.unpack("<I", self.take(4, "a comment's length"))
            if length > len(self.data):
                raise GameFileError(f"a comment's length reads as {length} bytes: the record is corrupt",
                                    offset=start)
            comment = utf16_field(self.take(length, "a comment")) or None
        return flags, origin, destination, comment, start


def record_problem(data: bytes, base: int = 0) -> Optional[GameFileError]:
    """Why a record cannot be read at all (not a record, its fixed part truncated, the old layout), or None
    (``base`` is its offset in the file, for messages)."""
    if not is_cbr(data):
        return GameFileError("not a CCBridge record (no 'CCBridge Record' at its start)", offset=base)
    if len(data) < HEADER_SIZE:
        return GameFileError(f"the record has {len(data)} bytes, fewer than the {HEADER_SIZE} of its fixed "
                             "part: it is truncated", offset=base)
    if data[LAYOUT_OFFSET] == OLD_LAYOUT:
        return GameFileError("a record in CCBridge's old layout (1), which is not read", offset=base)
    return None


def read_record(data: bytes, label: Optional[str] = None, number: int = 1, base: int = 0) -> Game:
    """The game of one CBR record (``data`` from its magic; ``base`` its offset in the file, for messages),
    as much of it as reads: what does not (a truncated or corrupt move stream, an illegal move, a board
    that is no Xiangqi position) is in the game's ``errors``, GameFileErrors naming the byte and the move.
    A record that cannot be read at all (:func:`record_problem`) is a game with no tag, its error."""
    problem = record_problem(data, base)
    headers: Dict[str, str] = {}
    if problem is not None:
        game = Game(errors=[problem])
    else:
        for tag, offset, size in _STRINGS:
            text = utf16_field(data[offset:offset + size])
            if text:
                headers[tag] = text
        result = _RESULTS.get(data[_RESULT_OFFSET], "*")
        if result != "*":
            headers["Result"] = result
        board, stored_side = _board(data)
        root, unread = _tree(data, base)
        if not root.children:
            board = Board(board.pieces, side=stored_side)
        game = game_of_tree(root, board, headers, result)
        game.errors[:0] = unread
    game.locate_errors(source=label, game_number=number, event=headers.get("Event") or headers.get("Title"))
    game.number = number
    return game


def _tree(data: bytes, base: int) -> Tuple[Node, List[PgnError]]:
    """The tree of moves of a record, as far as it reads, and the error that stopped it, if any."""
    stream = _Stream(data, base)
    root = Node()
    try:
        root_flags, _, _, root.comment, root.offset = stream.record()
        if not root_flags & _ENDS_LINE and not stream.at_end():   # no move: nothing (or zeros) follows
            builder = TreeBuilder(root)
            while not builder.complete:
                if stream.offset + 4 > len(data):
                    raise GameFileError("the record ends in the middle of a line of moves: it is truncated",
                                        offset=base + stream.offset)
                if stream.at_end():   # zero padding: the tree ends here (some records do not flag their end)
                    break
                flags, origin, destination, comment, start = stream.record()
                move = _square(origin, "origin", start) + _square(destination, "destination", start)
                builder.add(Node(move, comment, offset=start), not flags & _ENDS_LINE,
                            bool(flags & _HAS_ALTERNATIVE))
    except GameFileError as exc:
        return root, [exc]
    return root, []


def games_of(data: bytes, label: Optional[str], encoding: Optional[str]) -> Iterator[Game]:
    """The one game of a CBR file (see :mod:`.formats`); the strings are UTF-16, so ``encoding`` is not
    used. A record that cannot be read at all raises GameFileError."""
    problem = record_problem(data)
    if problem is not None:
        raise problem.located(source=label)
    yield read_record(data, label)

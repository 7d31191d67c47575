"""XQF, the binary game file of XQStudio (象棋演播室): reading every version, writing version 1.0.

The layout (all of it in docs/gamefiles.md) comes from the format's own description, XQF 1.0 by its author
(ElephantEye's ``XQFTOOLS/XQF.TXT``), and, for the versions from 11 on, from the decryption that
ElephantEye's ``xqf2pgn`` and the Python library cchess both implement:

* a 1024-byte header: ``XQ`` and the version (10 is XQF 1.0; XQStudio 1.8 writes 18), the key bytes
  (offsets 3 and 8-15), the 32 piece positions (16-47; a position is ``file * 10 + rank``, 255 or any
  value above 89 for a piece off the board), the result (51), the kind of record (64), and length-prefixed
  GBK strings: title, event, date, site, the players, the time rule, the times used, annotator, author;
* from byte 1024 a tree of moves in preorder (:func:`.tree.preorder`), each move 4 bytes (origin + 24,
  destination + 32, flags, reserved) and its comment; the first record is the start position's.

From version 11 on the piece positions and everything from byte 1024 are encrypted: each byte of the
move area has a key byte of a 32-byte stream subtracted from it, the origin and destination a further key
each, the positions another (and, from version 12, they are rotated), and a comment's length is offset by
a number made of two header bytes. Version 10 is written (documented, unencrypted, read by every program
that reads XQF), with variations flagged in the low half of the flags byte as cchess does; a position with
Black to move and no move cannot be written, XQF having no side to move.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

from ..fen import PIECE_LETTERS, START_FEN, parse_fen
from ..squares import FILES
from .game import Game, GameFileError, PgnError
from .source import codec_for, decodings
from .tree import Board, Node, TreeBuilder, game_of_tree, preorder, tree_of_game

MAGIC = b"XQ"
HEADER_SIZE = 1024
#: The version written: XQF 1.0, the documented and unencrypted one.
WRITTEN_VERSION = 10
#: The first encrypted version.
ENCRYPTED_FROM = 11
#: The version from which the piece positions are also rotated.
ROTATED_FROM = 12

# The 32 piece slots, Red's then Black's: chariot horse elephant advisor general advisor elephant horse
# chariot, two cannons, five soldiers (engine.fen piece types).
_SLOT_TYPES = [PIECE_LETTERS.index(letter) for letter in "RNBAKABNRCCPPPPP"]

# The key stream's mask: the bytes of this text ANDed with the four key bytes in turn.
_STREAM_MASK = b"[(C) Copyright Mr. Dong Shiwei.]"

#: The header's strings: (tag, offset of the length byte, field size including it).
STRINGS = (("Title", 0x50, 64), ("Event", 0xD0, 64), ("Date", 0x110, 16), ("Site", 0x120, 16),
           ("Red", 0x130, 16), ("Black", 0x140, 16), ("TimeRule", 0x150, 64), ("RedTime", 0x190, 16),
           ("BlackTime", 0x1A0, 16), ("Annotator", 0x1D0, 16), ("Author", 0x1E0, 16))
_RESULT_OFFSET = 0x33
_KIND_OFFSET = 0x40
#: The result byte: 0 unknown, 1 Red wins, 2 Black wins, 3 draw (4 is found in some files, for a draw).
_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
_RESULT_BYTES = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}
# The kind of record (0 a whole game, 1 an opening, 2 a middle game, 3 an endgame) is not read: the piece
# positions say where the game starts. It is written, 0 or 3.

_MOVE_ORIGIN_BIAS = 24
_MOVE_DESTINATION_BIAS = 32
_NOT_ON_BOARD = 0xFF


@dataclass(frozen=True)
class Keys:
    """The decryption of one file (all zero for the unencrypted versions)."""

    pieces: int = 0           # subtracted from each piece position (and, from version 12, their rotation)
    origin: int = 0           # subtracted from a move's origin byte
    destination: int = 0      # subtracted from a move's destination byte
    comment_length: int = 0   # subtracted from a comment's stored length
    stream: bytes = bytes(32)  # subtracted from the bytes from 1024 on, in turn

    @staticmethod
    def of_header(header: bytes) -> "Keys":
        """The keys of an encrypted file, from its header bytes 3 and 8-15."""
        def scramble(key: int, factor: int) -> int:
            # (((((k*k)*3+9)*3+8)*2+1)*3+8) * factor, i.e. (54k^2 + 221) * factor, in a byte
            return ((54 * key * key + 221) * factor) & 0xFF

        mask, sum_key, xy, xy_from, xy_to = header[3], header[12], header[13], header[14], header[15]
        pieces = scramble(xy, xy)
        origin = scramble(xy_from, pieces)
        destination = scramble(xy_to, origin)
        comment_length = (sum_key * 256 + xy) % 32000 + 767
        four = [header[8 + i] | (header[12 + i] & mask) for i in range(4)]
        stream = bytes(four[i % 4] & _STREAM_MASK[i] for i in range(32))
        return Keys(pieces, origin, destination, comment_length, stream)


def is_xqf(data: bytes) -> bool:
    """Whether bytes look like an XQF file: ``XQ`` then a version byte (not a letter of text)."""
    return len(data) >= 3 and data[:2] == MAGIC and data[2] < 0x20


def _text_codec(header: bytes, encoding: Optional[str], label: Optional[str]) -> str:
    """The codec of the file's strings: the one given, else GBK or Big5, whichever their text looks like
    (XQStudio writes GBK; Big5 files exist), judged on all the header strings at once."""
    if encoding not in (None, "", "auto"):
        return codec_for(str(encoding))
    sample = b"\n".join(header[offset + 1:offset + 1 + min(header[offset], size - 1)]
                        for _, offset, size in STRINGS)
    try:
        readings, _ = decodings(sample, None, label)
    except PgnError:
        return "gb18030"
    name = readings[0].name
    return "gb18030" if name in ("ASCII", "UTF-8") else codec_for(name)


def _decode(raw: bytes, codec: str) -> str:
    return raw.decode(codec, errors="replace").replace("\x00", "").strip()


class _Reader:
    """Reads the move area (from byte 1024), decrypting it, and knows where it is for messages."""

    def __init__(self, data: bytes, keys: Keys, encrypted: bool) -> None:
        self.data = data
        self.keys = keys
        self.encrypted = encrypted
        self.offset = HEADER_SIZE

    def take(self, count: int, what: str) -> bytes:
        end = self.offset + count
        if end > len(self.data):
            raise GameFileError(f"the file ends in the middle of {what} ({len(self.data)} bytes; "
                                f"{end - len(self.data)} more were expected): it is truncated",
                                offset=self.offset)
        raw = self.data[self.offset:end]
        if self.encrypted:
            stream = self.keys.stream
            raw = bytes((b - stream[(self.offset - HEADER_SIZE + i) % 32]) & 0xFF for i, b in enumerate(raw))
        self.offset = end
        return raw

    def record(self, version: int, codec: str) -> Tuple[int, int, bool, bool, Optional[str], int]:
        """One move record: (origin byte, destination byte, has child, has sibling, comment, offset)."""
        start = self.offset
        origin, destination, flags, _ = self.take(4, "a move record")
        if version < ENCRYPTED_FROM:
            has_child, has_sibling = bool(flags & 0xF0), bool(flags & 0x0F)
            (length,) = struct.unpack("<i", self.take(4, "a comment's length"))
        else:
            has_child, has_sibling = bool(flags & 0x80), bool(flags & 0x40)
            length = 0
            if flags & 0x20:
                (stored,) = struct.unpack("<i", self.take(4, "a comment's length"))
                length = stored - self.keys.comment_length
        if length < 0 or length > len(self.data):
            raise GameFileError(f"a comment's length reads as {length} bytes: the file is corrupt"
                                + (" or wrongly decrypted" if version >= ENCRYPTED_FROM else ""),
                                offset=start)
        comment = _decode(self.take(length, "a comment"), codec) if length else None
        return origin, destination, has_child, has_sibling, comment or None, start


def _square(value: int, what: str, offset: int) -> str:
    if value >= 90:
        raise GameFileError(f"the {what} of a move reads as {value}, not a square (0..89): the file is "
                            "corrupt or wrongly decrypted", offset=offset)
    file, rank = divmod(value, 10)
    return f"{FILES[file]}{rank}"


def _board(header: bytes, version: int, keys: Keys) -> Board:
    stored = header[16:48]
    positions = list(stored)
    if version >= ROTATED_FROM:
        for i, value in enumerate(stored):
            positions[(keys.pieces + 1 + i) % 32] = value
    pieces = []
    for slot, value in enumerate(positions):
        value = (value - keys.pieces) & 0xFF
        if value > 89:        # 255 (or, in files seen, any value past the board): the piece was captured
            continue
        file, rank = divmod(value, 10)
        pieces.append((slot // 16, _SLOT_TYPES[slot % 16], file, rank))
    return Board(tuple(pieces))


def read_game(data: bytes, encoding: Optional[str] = None, label: Optional[str] = None) -> Game:
    """The game of an XQF file's bytes, as much of it as reads: what does not (a move area truncated,
    corrupt or wrongly decrypted, an illegal move) is in the game's ``errors`` (GameFileErrors naming the
    byte and the move), the moves before it kept. Raises GameFileError (a PgnError) for a file that is
    not XQF or whose header is truncated."""
    if not is_xqf(data):
        raise GameFileError("not an XQF file (it does not start with 'XQ' and a version byte)", source=label)
    if len(data) < HEADER_SIZE:
        raise GameFileError(f"the file has {len(data)} bytes, fewer than the {HEADER_SIZE} of an XQF header: "
                            "it is truncated", source=label)
    header = data[:HEADER_SIZE]
    version = header[2]
    encrypted = version >= ENCRYPTED_FROM
    keys = Keys.of_header(header) if encrypted else Keys()
    codec = _text_codec(header, encoding, label)
    headers: Dict[str, str] = {}
    for tag, offset, size in STRINGS:
        text = _decode(header[offset + 1:offset + 1 + min(header[offset], size - 1)], codec)
        if text:
            headers[tag] = text
    result = _RESULTS.get(header[_RESULT_OFFSET], "*")
    if result != "*":
        headers["Result"] = result
    root, unread = _tree(_Reader(data, keys, encrypted), version, keys, codec)
    game = game_of_tree(root, _board(header, version, keys), headers, result)
    game.errors[:0] = unread
    game.locate_errors(source=label, game_number=1, event=headers.get("Event") or headers.get("Title"))
    game.number = 1
    return game


def _tree(reader: _Reader, version: int, keys: Keys, codec: str) -> Tuple[Node, List[PgnError]]:
    """The tree of moves from byte 1024, as far as it reads, and the error that stopped it, if any."""
    root = Node(offset=reader.offset)
    try:
        _, _, has_moves, _, root.comment, _ = reader.record(version, codec)
        if has_moves:
            builder = TreeBuilder(root)
            while not builder.complete:
                origin, destination, has_child, has_sibling, comment, start = reader.record(version, codec)
                move = (_square((origin - _MOVE_ORIGIN_BIAS - keys.origin) & 0xFF, "origin", start)
                        + _square((destination - _MOVE_DESTINATION_BIAS - keys.destination) & 0xFF,
                                  "destination", start))
                builder.add(Node(move, comment, offset=start), has_child, has_sibling)
    except GameFileError as exc:
        return root, [exc]
    return root, []


def games_of(data: bytes, label: Optional[str], encoding: Optional[str]) -> Iterator[Game]:
    """The one game of an XQF file (see :mod:`.formats`)."""
    yield read_game(data, encoding, label)


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def piece_slots(fen: str) -> bytes:
    """The 32 piece positions of a FEN, in XQStudio's order: each side's pieces of one kind from its
    right to its left (Red's chariots on i0 then a0, Black's on a9 then i9)."""
    positions = [_NOT_ON_BOARD] * 32
    squares: Dict[Tuple[int, int], List[Tuple[int, int]]] = {}
    for side, ptype, file, rank in parse_fen(fen).pieces:
        squares.setdefault((side, ptype), []).append((file, rank))
    for (side, ptype), found in squares.items():
        found.sort(key=lambda square: (-square[0], square[1]) if side == 0 else square)
        free = [slot for slot in range(16) if _SLOT_TYPES[slot] == ptype]
        for slot, (file, rank) in zip(free, found):
            positions[side * 16 + slot] = file * 10 + rank
    return bytes(positions)


def encode_string(text: str, size: int) -> bytes:
    """A header string: its GBK bytes, cut to ``size`` - 1 at a character boundary, after a length byte."""
    raw = b""
    for ch in text:
        piece = ch.encode("gbk", errors="replace")
        if len(raw) + len(piece) > size - 1:
            break
        raw += piece
    return bytes([len(raw)]) + raw + bytes(size - 1 - len(raw))


def _record(origin: int, destination: int, has_child: bool, has_sibling: bool, comment: Optional[str]) -> bytes:
    text = (comment or "").encode("gbk", errors="replace")
    flags = (0xF0 if has_child else 0) | (0x0F if has_sibling else 0)
    return bytes([origin, destination, flags, 0]) + struct.pack("<i", len(text)) + text


def write_game(game: Game) -> bytes:
    """The bytes of an XQF 1.0 file holding ``game``: the header strings (cut to their fields, in GBK),
    the start position, the result, every move with its comment and the variations.

    Raises:
        GameFileError: Black is to move and there is no move (XQF stores no side to move).
        PgnError: an invalid FEN tag or an illegal move (its move number named).
    """
    root, position = tree_of_game(game)
    fen = position.fen()
    if position.turn != "red" and not game.moves:
        raise GameFileError("XQF stores no side to move: it takes the side of the first move's piece, and "
                            "this game starts with Black to move and has no move",
                            event=game.headers.get("Event"))
    header = bytearray(HEADER_SIZE)
    header[0:2] = MAGIC
    header[2] = WRITTEN_VERSION
    header[16:48] = piece_slots(fen)
    header[_RESULT_OFFSET] = _RESULT_BYTES.get(game.result, 0)
    same_start = fen.split()[0] == START_FEN.split()[0]
    # A whole game, or an endgame: ElephantEye's reader takes the usual start for the first two kinds.
    header[_KIND_OFFSET] = 0 if same_start else 3
    for tag, offset, size in STRINGS:
        header[offset:offset + size] = encode_string(game.headers.get(tag, ""), size)
    out = bytearray(header)
    out += _record(_MOVE_ORIGIN_BIAS, _MOVE_DESTINATION_BIAS, bool(root.children), False, root.comment)
    out[HEADER_SIZE + 3] = 0xFF   # the start record's reserved byte, as XQStudio writes it
    for node, has_child, has_sibling in preorder(root):
        assert node.move is not None
        origin = FILES.index(node.move[0]) * 10 + int(node.move[1]) + _MOVE_ORIGIN_BIAS
        destination = FILES.index(node.move[2]) * 10 + int(node.move[3]) + _MOVE_DESTINATION_BIAS
        out += _record(origin, destination, has_child, has_sibling, node.comment)
    return bytes(out)

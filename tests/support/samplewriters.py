"""Writers of sample game files for the tests, laid out as the programs that make them do (the layouts of
docs/gamefiles.md): encrypted XQF (versions 11 to 18, as XQStudio 1.x writes them), CBR and CBL
(CCBridge), DhtmlXQ blocks (dpxq.com). jiangjun itself writes XQF 1.0 and CBF only (engine.pgn); these
exist so that the readers are tested on every version and format without licensed sample files.
tests/data/gamefiles/make_samples.py writes the committed samples with them.

Each writer takes an engine.pgn Game, whose tree (engine.pgn.tree) it lays out in preorder;
:func:`xqf_with_move` then puts a move no writer writes (an illegal one) in a file, for the readers' tests
of damaged files.
"""

from __future__ import annotations

import random
import struct
from typing import Dict, List, Optional, Tuple

from engine.fen import START_FEN, parse_fen
from engine.pgn import Game
from engine.pgn.tree import Node, preorder, tree_of_game
from engine.pgn.xqf import HEADER_SIZE, Keys, STRINGS as XQF_STRINGS, encode_string, piece_slots
from engine.pgn.xqf import write_game as xqf_plain
from engine.squares import FILES

# ---------------------------------------------------------------------------
# XQF, encrypted (versions 11 and up)
# ---------------------------------------------------------------------------

_XQF_RESULTS = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}


def xqf_encrypted(game: Game, version: int = 18, seed: int = 1, codec: str = "gbk") -> bytes:
    """An XQF file of ``version`` (11 or more) holding ``game``, its keys drawn from ``seed`` as XQStudio
    draws them at random; strings and comments in ``codec`` (XQStudio: GBK; Big5 files exist)."""
    assert version >= 11
    rng = random.Random(seed)
    header = bytearray(HEADER_SIZE)
    header[0:3] = b"XQ" + bytes([version])
    header[3] = rng.randrange(256)                      # the key mask
    header[4:8] = struct.pack("<I", rng.randrange(1 << 32))  # the product id (not used by readers)
    for i in range(8, 16):
        header[i] = rng.randrange(256)
    keys = Keys.of_header(bytes(header))
    root, position = tree_of_game(game)
    plain = piece_slots(position.fen())
    stored = bytearray(32)
    for i in range(32):
        # positions[(pieces + 1 + i) % 32] = stored[i] - pieces, from version 12 on
        source = (keys.pieces + 1 + i) % 32 if version >= 12 else i
        stored[i] = (plain[source] + keys.pieces) & 0xFF
    header[16:48] = stored
    header[0x33] = _XQF_RESULTS.get(game.result, 0)
    header[0x40] = 0 if position.fen().split()[0] == START_FEN.split()[0] else 3
    for tag, offset, size in XQF_STRINGS:
        header[offset:offset + size] = _text_field(game.headers.get(tag, ""), size, codec)

    body = bytearray()

    def record(origin: int, destination: int, has_child: bool, has_sibling: bool, comment: Optional[str]) -> None:
        text = (comment or "").encode(codec, errors="replace")
        flags = (0x80 if has_child else 0) | (0x40 if has_sibling else 0) | (0x20 if text else 0)
        body.extend([(origin + keys.origin) & 0xFF, (destination + keys.destination) & 0xFF, flags, 0])
        if text:
            body.extend(struct.pack("<i", len(text) + keys.comment_length))
            body.extend(text)

    record(24, 32, bool(root.children), False, root.comment)
    for node, has_child, has_sibling in preorder(root):
        assert node.move is not None
        record(FILES.index(node.move[0]) * 10 + int(node.move[1]) + 24,
               FILES.index(node.move[2]) * 10 + int(node.move[3]) + 32, has_child, has_sibling, node.comment)
    encrypted = bytes((b + keys.stream[i % 32]) & 0xFF for i, b in enumerate(body))
    return bytes(header) + encrypted


def xqf_with_move(game: Game, index: int, move: str) -> bytes:
    """An XQF 1.0 file of ``game`` (engine.pgn's writer) whose ``index``-th move record in preorder (0: the
    main line's first move; :func:`engine.pgn.tree.preorder` gives the order) holds ``move`` instead, legal
    or not. A record is 8 bytes and its comment in GBK, after the start's record at byte 1024."""
    data = bytearray(xqf_plain(game))
    root, _ = tree_of_game(game)

    def size(comment: Optional[str]) -> int:
        return 8 + len((comment or "").encode("gbk", errors="replace"))

    offset = HEADER_SIZE + size(root.comment)
    for number, (node, _, _) in enumerate(preorder(root)):
        if number == index:
            data[offset] = FILES.index(move[0]) * 10 + int(move[1]) + 24
            data[offset + 1] = FILES.index(move[2]) * 10 + int(move[3]) + 32
            return bytes(data)
        offset += size(node.comment)
    raise IndexError(f"the game has no move record {index}")


def _text_field(text: str, size: int, codec: str) -> bytes:
    if codec.lower() in ("gbk", "gb18030"):
        return encode_string(text, size)
    raw = b""
    for ch in text:
        piece = ch.encode(codec, errors="replace")
        if len(raw) + len(piece) > size - 1:
            break
        raw += piece
    return bytes([len(raw)]) + raw + bytes(size - 1 - len(raw))


# ---------------------------------------------------------------------------
# CBR and CBL (CCBridge)
# ---------------------------------------------------------------------------

CBR_STRINGS = (("Title", 180, 128), ("Event", 692, 64), ("Round", 756, 64), ("Date", 884, 64),
               ("Site", 948, 64), ("Red", 1076, 64), ("RedTeam", 1140, 64), ("Black", 1300, 64),
               ("BlackTeam", 1364, 64))
_CBR_RESULTS = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}
_CBR_PIECES = {"R": 1, "N": 2, "B": 3, "A": 4, "K": 5, "C": 6, "P": 7}
_LETTERS = "KABNRCP"


def _utf16(text: str, size: int) -> bytes:
    raw = text.encode("utf-16-le")[:size - 2]
    return raw + bytes(size - len(raw))


def _cbr_square(square: str) -> int:
    return (9 - int(square[1])) * 9 + FILES.index(square[0])


def cbr_record(game: Game) -> bytes:
    """A CBR record of ``game`` (layout 2, as CCBridge writes it): the strings, result, side to move
    (at 2112 and at 2116: readers disagree on which is which, and both hold 1 or 2), board and the tree."""
    root, position = tree_of_game(game)
    data = bytearray(2214)
    data[0:16] = b"CCBridge Record\x00"
    data[19] = 2
    for tag, offset, size in CBR_STRINGS:
        data[offset:offset + size] = _utf16(game.headers.get(tag, ""), size)
    data[2076] = _CBR_RESULTS.get(game.result, 0)
    side = 1 if position.turn == "red" else 2
    data[2112] = side
    struct.pack_into("<H", data, 2116, side)
    for colour, ptype, file, rank in parse_fen(position.fen()).pieces:
        data[2120 + (9 - rank) * 9 + file] = (colour + 1) << 4 | _CBR_PIECES[_LETTERS[ptype]]

    def record(flags: int, origin: int, destination: int, comment: Optional[str]) -> None:
        text = (comment or "").encode("utf-16-le")
        if text:
            flags |= 0x04
        data.extend([flags, 0, origin, destination])
        if text:
            data.extend(struct.pack("<I", len(text) + 2))
            data.extend(text + b"\x00\x00")

    record(0, 0, 0, root.comment)   # the start's record: flags 0, or 4 with a comment (cchess reads no other)
    for node, has_child, has_sibling in preorder(root):
        assert node.move is not None
        flags = (0 if has_child else 0x01) | (0x02 if has_sibling else 0)
        record(flags, _cbr_square(node.move[:2]), _cbr_square(node.move[2:]), node.comment)
    return bytes(data)


def cbl_library(games: List[Game], name: str, records: Optional[List[bytes]] = None) -> bytes:
    """A CBL library of ``games`` (or of ready ``records``), named ``name``: the header, an index of 128
    slots (or the next multiple of 128), then each record in 4,096-byte blocks, a long one running on."""
    records = records if records is not None else [cbr_record(game) for game in games]
    slots = max(128, -(-len(records) // 128) * 128)
    header = bytearray(66624)
    header[0:16] = b"CCBridgeLibrary\x00"
    struct.pack_into("<I", header, 52, 0x7FFFFFFF)
    struct.pack_into("<I", header, 60, slots)
    header[64:576] = _utf16(name, 512)
    index = bytearray(slots * 276)
    for number, record in enumerate(records):
        entry = number * 276
        struct.pack_into("<II", index, entry, 1, number)
        title = record[180:308]
        index[entry + 100:entry + 228] = title
    out = bytearray(header + index)
    for record in records:
        padded = record + bytes(-len(record) % 4096)
        out.extend(padded)
    return bytes(out)


# ---------------------------------------------------------------------------
# DhtmlXQ
# ---------------------------------------------------------------------------

_DHTML_ORDER = "RNBAKABNRCCPPPPP"
_DHTML_TAGS = {"Title": "title", "Event": "event", "Date": "date", "Site": "place", "Round": "round",
               "Red": "red", "RedTeam": "redteam", "Black": "black", "BlackTeam": "blackteam",
               "Opening": "open", "ECCO": "ecco"}
_DHTML_RESULTS = {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和棋", "*": "未知"}


def _dhtml_square(square: str) -> str:
    return f"{FILES.index(square[0])}{9 - int(square[1])}"


def dhtmlxq_block(game: Game) -> str:
    """A ``[DhtmlXQ]`` block of ``game`` as dpxq.com writes one: tags, binit, the move list, each
    variation as move_B_S_N (numbered in the order they are met), the comments."""
    root, position = tree_of_game(game)
    lines = ["[DhtmlXQ]", "[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]"]
    for tag, name in _DHTML_TAGS.items():
        lines.append(f"[DhtmlXQ_{name}]{game.headers.get(tag, '')}[/DhtmlXQ_{name}]")
    lines.append(f"[DhtmlXQ_result]{_DHTML_RESULTS.get(game.result, '未知')}[/DhtmlXQ_result]")
    slots: Dict[str, List[Tuple[int, int]]] = {}
    for colour, ptype, file, rank in parse_fen(position.fen()).pieces:
        letter = _LETTERS[ptype]
        slots.setdefault(letter if colour == 0 else letter.lower(), []).append((file, rank))
    binit = ""
    for colour in (0, 1):
        used: Dict[str, int] = {}
        for letter in _DHTML_ORDER:
            key = letter if colour == 0 else letter.lower()
            index = used.get(key, 0)
            used[key] = index + 1
            squares = slots.get(key, [])
            if index < len(squares):
                file, rank = squares[index]
                binit += f"{file}{9 - rank}"
            else:
                binit += "99"
    lines.append(f"[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]")
    comments: List[str] = []
    if root.comment:
        comments.append(f"[DhtmlXQ_comment0]{root.comment.replace(chr(10), '||')}[/DhtmlXQ_comment0]")
    branches: List[str] = []
    counter = [0]

    def walk(first: Node, line: int, step: int) -> str:
        """The moves of the line from ``first`` (move ``step`` of line ``line``); alternatives become new
        lines, numbered as they are met."""
        moves = ""
        node: Optional[Node] = first
        while node is not None:
            assert node.move is not None
            moves += _dhtml_square(node.move[:2]) + _dhtml_square(node.move[2:])
            if node.comment:
                key = f"{step}" if line == 0 else f"{line}_{step}"
                comments.append(f"[DhtmlXQ_comment{key}]{node.comment.replace(chr(10), '||')}"
                                f"[/DhtmlXQ_comment{key}]")
            if not node.children:
                break
            for alternative in node.children[1:]:
                counter[0] += 1
                number = counter[0]
                branch = walk(alternative, number, step + 1)
                name = f"DhtmlXQ_move_{line}_{step + 1}_{number}"
                branches.append(f"[{name}]{branch}[/{name}]")
            node = node.children[0]
            step += 1
        return moves

    movelist = ""
    if root.children:
        movelist = walk(root.children[0], 0, 1)
        for alternative in root.children[1:]:
            counter[0] += 1
            number = counter[0]
            name = f"DhtmlXQ_move_0_1_{number}"
            branches.append(f"[{name}]{walk(alternative, number, 1)}[/{name}]")
    lines.append(f"[DhtmlXQ_movelist]{movelist}[/DhtmlXQ_movelist]")
    lines += branches + comments + ["[/DhtmlXQ]"]
    return "\n".join(lines)


def dhtmlxq_page(games: List[Game], title: str = "棋谱") -> str:
    """A web page holding a DhtmlXQ block per game, as the game pages of dpxq.com do."""
    blocks = "\n<br>\n".join(dhtmlxq_block(game) for game in games)
    return (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312">'
            f"<title>{title}</title></head>\n<body>\n<div id=\"dhtmlxq_view\">\n{blocks}\n</div>\n"
            "</body></html>\n")

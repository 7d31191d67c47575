"""CBL, CCBridge's library: many CBR records in one file (tournament collections are published this way).

The layout (docs/gamefiles.md): ``CCBridgeLibrary`` and a NUL (16 bytes); at 60 the number of slots its
index was made for; at 64 the library's name (UTF-16LE, 512 bytes); a 65,536-byte remark; then an index of
276 bytes a slot; then the records, each at the start of a 4,096-byte block. A record longer than a block
runs on into the next blocks, which do not start with the record's magic; so the records are the blocks
that do, and each runs to the next one (this is how cchess counts a library's games).

Each record is read as a CBR file (:mod:`.cbr`); what of a record cannot be read is that game's error,
named by its number in the library, and does not stop the others.
"""

from __future__ import annotations

import struct
from typing import Iterator, List, Optional

from .cbr import MAGIC as RECORD_MAGIC, read_record, utf16_field
from .game import Game, GameFileError

MAGIC = b"CCBridgeLibrary\x00"
BLOCK = 4096
_SLOTS_OFFSET = 60
_NAME_OFFSET, _NAME_SIZE = 64, 512
#: Where the index starts, and the size of one of its entries: the records follow the index.
INDEX_OFFSET = 66624
INDEX_ENTRY = 276


def is_cbl(data: bytes) -> bool:
    return data[:len(MAGIC)] == MAGIC


def library_name(data: bytes) -> str:
    """The name a library gives itself (often its title: 1956年全国象棋锦标赛93局)."""
    return utf16_field(data[_NAME_OFFSET:_NAME_OFFSET + _NAME_SIZE])


def record_offsets(data: bytes) -> List[int]:
    """Where each record of a library starts: the 4,096-byte blocks after the index that start with a
    record's magic. The index's size comes from the slot count; a library whose first record is not where
    that count puts it is searched for its first record instead."""
    (slots,) = struct.unpack_from("<I", data, _SLOTS_OFFSET)
    first = INDEX_OFFSET + slots * INDEX_ENTRY
    if data[first:first + len(RECORD_MAGIC)] != RECORD_MAGIC:
        first = data.find(RECORD_MAGIC, _NAME_OFFSET)
        if first < 0:
            return []
    return [offset for offset in range(first, len(data), BLOCK)
            if data[offset:offset + len(RECORD_MAGIC)] == RECORD_MAGIC]


def games_of(data: bytes, label: Optional[str], encoding: Optional[str]) -> Iterator[Game]:
    """Every game of a library, in its order, each with what of it could not be read in its ``errors``
    (naming the game's number in the library); the strings are UTF-16, so ``encoding`` is not used."""
    if not is_cbl(data):
        raise GameFileError("not a CCBridge library (no 'CCBridgeLibrary' at its start)", source=label)
    if len(data) < _NAME_OFFSET + _NAME_SIZE:
        raise GameFileError(f"the library has {len(data)} bytes, fewer than its header: it is truncated",
                            source=label)
    offsets = record_offsets(data)
    for number, start in enumerate(offsets, start=1):
        end = offsets[number] if number < len(offsets) else len(data)
        yield read_record(data[start:end], label, number, base=start)

"""The jiangjun book file: compact, sorted, binary; probed by binary search over a memory map.

Layout (little-endian):

    header   32 bytes: magic b"JJBK", version u16 (1), record size u16 (16), records u32, names u32,
             string bytes u32, the key of the start position u64 (Position().key when the book was
             written: a book made with other Zobrist keys is refused), reserved u32
    records  records x 16 bytes: key u64, move u16, weight u16, games u16, points u16, sorted by key
             (then by weight, heaviest first). The key is the canonical one (engine.book.keys); the move
             is stored in the canonical orientation, coded origin * 90 + destination; points are twice
             the games won plus the games drawn by the side that played the move
    names    names x 12 bytes: key u64, offset u32 into the strings, sorted by key
    strings  the opening names, UTF-8, each ended by a zero byte

A position's moves are found with two binary searches (its first and last record); a probe reads a
few dozen bytes of the file, which stays memory-mapped and is read from disk by the operating system as
pages are touched.
"""
from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Union

from ..position import Position
from .base import Book, BookError, BookMove
from .keys import canonical_key, decode_move, mirror_move

MAGIC = b"JJBK"
VERSION = 1
HEADER = struct.Struct("<4sHHIIIQI")
RECORD = struct.Struct("<QHHHH")
NAME = struct.Struct("<QI")
assert HEADER.size == 32 and RECORD.size == 16 and NAME.size == 12


@dataclass(frozen=True)
class Record:
    """One move of a position as written: canonical key, move code, weight, games, points (2W + D)."""

    key: int
    move: int
    weight: int
    games: int
    points: int


def write_book(path: Union[str, Path], records: Iterable[Record], names: dict[int, str]) -> int:
    """Write a book file; returns its size in bytes. Records are sorted here; a key's names map the
    canonical keys of positions to opening names."""
    rows = sorted(records, key=lambda r: (r.key, -r.weight, r.move))
    strings = bytearray()
    offsets: dict[str, int] = {}
    name_rows = []
    for key in sorted(names):
        text = names[key]
        if text not in offsets:
            offsets[text] = len(strings)
            strings += text.encode("utf-8") + b"\0"
        name_rows.append(NAME.pack(key, offsets[text]))
    data = bytearray(HEADER.pack(MAGIC, VERSION, RECORD.size, len(rows), len(name_rows), len(strings),
                                 Position().key, 0))
    for r in rows:
        data += RECORD.pack(r.key, r.move, min(r.weight, 0xFFFF), min(r.games, 0xFFFF), min(r.points, 0xFFFF))
    data += b"".join(name_rows)
    data += strings
    Path(path).write_bytes(bytes(data))
    return len(data)


class JiangjunBook(Book):
    """A jiangjun book file (or its bytes), opened for probing."""

    format_name = "jiangjun"

    def __init__(self, path: str, data: Optional[bytes] = None) -> None:
        super().__init__(path)
        self._file = None
        self._map: Optional[mmap.mmap] = None
        if data is None:
            try:
                self._file = open(path, "rb")
                self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError) as exc:   # ValueError: an empty file cannot be mapped
                self.close()
                raise BookError(f"cannot read book {path}: {exc}") from None
            self._data: Union[bytes, mmap.mmap] = self._map
        else:
            self._data = data
        self._read_header()

    def _read_header(self) -> None:
        data = self._data
        if len(data) < HEADER.size:
            raise BookError(f"{self.path} is too short to be a jiangjun book ({len(data)} bytes)")
        magic, version, size, records, names, strings, start_key, _ = HEADER.unpack_from(data, 0)
        if magic != MAGIC:
            raise BookError(f"{self.path} is not a jiangjun book (no JJBK header)")
        if version != VERSION or size != RECORD.size:
            raise BookError(f"{self.path}: unsupported jiangjun book version {version} (record size {size})")
        expected = HEADER.size + records * RECORD.size + names * NAME.size + strings
        if len(data) != expected:
            raise BookError(f"{self.path} is damaged: {len(data)} bytes where its header promises {expected}")
        if start_key != Position().key:
            raise BookError(f"{self.path} was written with other position keys (another jiangjun version): "
                            "rebuild it with 'jiangjun book build'")
        self.records = records
        self.names = names
        self._names_at = HEADER.size + records * RECORD.size
        self._strings_at = self._names_at + names * NAME.size

    # -- probing -----------------------------------------------------------------------------
    def _key_at(self, index: int) -> int:
        return struct.unpack_from("<Q", self._data, HEADER.size + index * RECORD.size)[0]

    def _first(self, key: int) -> int:
        """The index of the first record whose key is not below `key`."""
        low, high = 0, self.records
        while low < high:
            middle = (low + high) // 2
            if self._key_at(middle) < key:
                low = middle + 1
            else:
                high = middle
        return low

    def records_of(self, key: int) -> list[Record]:
        """The records of a canonical key, as stored."""
        found = []
        index = self._first(key)
        while index < self.records:
            row = Record(*RECORD.unpack_from(self._data, HEADER.size + index * RECORD.size))
            if row.key != key:
                break
            found.append(row)
            index += 1
        return found

    def _lookup(self, position: Position) -> list[BookMove]:
        key, mirrored = canonical_key(position)
        moves = []
        for row in self.records_of(key):
            try:
                move = decode_move(row.move)
            except ValueError:
                continue
            score = row.points / (2 * row.games) if row.games else None
            moves.append(BookMove(mirror_move(move) if mirrored else move, row.weight, row.games, score))
        return moves

    def opening_name(self, position: Position) -> Optional[str]:
        key, _ = canonical_key(position)
        low, high = 0, self.names
        while low < high:
            middle = (low + high) // 2
            found, offset = NAME.unpack_from(self._data, self._names_at + middle * NAME.size)
            if found == key:
                start = self._strings_at + offset
                end = self._data.find(b"\0", start)
                return bytes(self._data[start:end]).decode("utf-8", "replace")
            if found < key:
                low = middle + 1
            else:
                high = middle
        return None

    def positions(self) -> int:
        """The number of distinct positions with moves."""
        count, last = 0, None
        for index in range(self.records):
            key = self._key_at(index)
            if key != last:
                count, last = count + 1, key
        return count

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None
        if self._file is not None:
            self._file.close()
            self._file = None

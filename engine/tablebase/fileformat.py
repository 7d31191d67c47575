"""The tablebase file format, version 3 (docs/tablebases.md#the-file-format): one file per material,
``NAME.jjtb``, both sides to move.

    bytes 0-7      magic b"JJTB\\r\\n\\x1a\\n"
    8-9            format version (u16, little-endian), 10-11 flags (0), 12-15 header length H (u32)
    16..16+H       the header: UTF-8 JSON (rules assumed, metric, material, index scheme, counts, ...)
    then           u32 CRC-32 of the header bytes
    then           the block table: per section (SECTIONS: the values with Red to move, with Black to
                   move, then the distances to conversion likewise), per block, u64 offset of the block
                   in the file, u32 its compressed length, u32 the CRC-32 of its uncompressed bytes
    then           the blocks: BLOCK_ENTRIES entries each (the last one shorter; values uint16
                   little-endian, distances to conversion one byte), compressed with raw LZMA2
                   (written at preset 1; files written at preset 6 read alike)
    last 32 bytes  SHA-256 of everything before them

A reader checks the magic, the version, the header's CRC, the whole file's SHA-256 and the index's size
before it uses a table, and each block's CRC when it reads it: a damaged, truncated or foreign file raises
DamagedTableError and is never used. Files are written to a temporary name and renamed into place.
"""
from __future__ import annotations

import hashlib
import json
import lzma
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any, Iterable, Optional

from .._core import TB_NATURAL_LIMIT
from .errors import DamagedTableError

MAGIC = b"JJTB\r\n\x1a\n"
#: 2: entries decided through the perpetual check/chase rulings (ext/tb_index.pxi), and marks that only
#: a ruling the tables do not decide leaves. 3: the distance to conversion (ext/tb_dtc.pxi). A file of an
#: older version is refused: build it again.
FORMAT_VERSION = 3
#: What an older version lacks, for the message that refuses it.
_ADDED_IN = {2: "the perpetual check/chase rulings inside the tables", 3: "the distance to conversion"}
#: The sections of a file, in order: (what, side to move, bytes per entry).
SECTIONS = (("values", 0, 2), ("values", 1, 2), ("dtc", 0, 1), ("dtc", 1, 1))
#: The natural limit the distances to conversion are computed for (plies without a capture: the kernel's).
DTC_LIMIT = TB_NATURAL_LIMIT
#: The index scheme of ext/tb_index.pxi; a change of the index is a new scheme and new files.
INDEX_SCHEME = 1
#: The rules the tables assume (docs/tablebases.md#the-rules-assumed).
RULES = {
    "rule_set": "asian",
    "chase_definition": "jiangjun ext/chase.pxi (chased_by_move), as Position.outcome() and the search use it",
    "cycles": ("perpetual check and chase lose where a sound rule decides it (values 0x8000-0xF7FF: order, "
               "distance to the ruling); a draw a ruling might still change is marked 0xFFF8 | sides at risk"),
    "move_limit": ("the natural limit of 120 plies without a capture: DTM ignores it; the distance to conversion "
                   "(plies to the next capture or mate, 255: none within the limit) says which wins it cannot draw"),
    "stalemate": "loss for the side to move",
}
METRIC = "dtm-plies"
SUFFIX = ".jjtb"
BLOCK_ENTRIES = 32768
#: Preset 1 compresses a table's blocks about 8 times as fast as preset 6, for files about 20% larger: a
#: large table's build spent a fifth of its time compressing at preset 6.
_PRESET = 1
_ENCODER = [{"id": lzma.FILTER_LZMA2, "preset": _PRESET}]
#: A block is at most 64 KiB (SECTIONS' widest entries), so no match of any preset reaches further back.
_DECODER = [{"id": lzma.FILTER_LZMA2, "dict_size": BLOCK_ENTRIES * max(width for _, _, width in SECTIONS)}]
_PREFIX = struct.Struct("<8sHHI")
_BLOCK = struct.Struct("<QII")
_DIGEST = 32


def _compress(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_RAW, filters=_ENCODER)


def _decompress(data: bytes) -> bytes:
    return lzma.decompress(data, format=lzma.FORMAT_RAW, filters=_DECODER)


def write_table(path: Path, header: dict[str, Any], sections: Iterable[bytes]) -> None:
    """Write a table file atomically: a temporary file in the same folder, renamed when complete. `sections`
    gives the bytes of each of SECTIONS in order, taken one at a time (from a generator, only one is
    asked for at once)."""
    header = dict(header, format_version=FORMAT_VERSION, index_scheme=INDEX_SCHEME, rules=RULES,
                  metric=METRIC, block_entries=BLOCK_ENTRIES, codec=f"lzma2-raw-preset{_PRESET}",
                  sections=[list(section) for section in SECTIONS], dtc_limit=DTC_LIMIT)
    header_bytes = json.dumps(header, sort_keys=True).encode()
    packed: list[list[bytes]] = []
    crcs: list[list[int]] = []
    for data, (_what, _side, width) in zip(sections, SECTIONS):
        # Views, not copies: the arrays are not held twice while they are compressed.
        step = width * BLOCK_ENTRIES
        blocks = [memoryview(data)[i:i + step] for i in range(0, len(data), step)]
        packed.append([_compress(block) for block in blocks])
        crcs.append([zlib.crc32(block) for block in blocks])
        del blocks, data
    if len(packed) != len(SECTIONS):
        raise ValueError(f"{len(packed)} sections given, a table has {len(SECTIONS)}")
    offset = _PREFIX.size + len(header_bytes) + 4 + _BLOCK.size * sum(len(side) for side in packed)
    table = bytearray()
    for side_crcs, side_packed in zip(crcs, packed):
        for crc, comp in zip(side_crcs, side_packed):
            table += _BLOCK.pack(offset, len(comp), crc)
            offset += len(comp)
    # Written piece by piece, the digest alongside: the compressed blocks are not copied into one body.
    pieces = [_PREFIX.pack(MAGIC, FORMAT_VERSION, 0, len(header_bytes)), header_bytes,
              struct.pack("<I", zlib.crc32(header_bytes)), bytes(table), *(comp for side in packed for comp in side)]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=path.name + ".", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            digest = hashlib.sha256()
            for piece in pieces:
                handle.write(piece)
                digest.update(piece)
            handle.write(digest.digest())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


class TableFile:
    """A table file opened for reading: its header, and its entries by block (random access)."""

    def __init__(self, path: Path, expected_entries: Optional[int] = None) -> None:
        self.path = Path(path)
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise DamagedTableError(f"{self.path}: cannot read the table: {exc}") from None
        self.header = self._check(data, expected_entries)
        self._data = data
        self._cache: dict[tuple[int, int], bytes] = {}

    def _damaged(self, why: str) -> DamagedTableError:
        return DamagedTableError(f"{self.path}: {why}; the table is not used (build it again)")

    def _check(self, data: bytes, expected_entries: Optional[int]) -> dict[str, Any]:
        """1. The prefix; 2. the header and its CRC; 3. the whole file's digest; 4. the block table."""
        if len(data) < _PREFIX.size + 4 + _DIGEST:
            raise self._damaged("truncated (too short to be a table)")
        magic, version, _flags, length = _PREFIX.unpack_from(data)
        if magic != MAGIC:
            raise self._damaged("not a jiangjun tablebase file (wrong magic)")
        if version < FORMAT_VERSION:
            raise self._damaged(f"format version {version}, written by an older jiangjun (this one reads version "
                                f"{FORMAT_VERSION}, with {_ADDED_IN[FORMAT_VERSION]})")
        if version != FORMAT_VERSION:
            raise self._damaged(f"format version {version}, this jiangjun reads version {FORMAT_VERSION}")
        end = _PREFIX.size + length
        if end + 4 + _DIGEST > len(data):
            raise self._damaged("truncated (the header runs past the end)")
        header_bytes = data[_PREFIX.size:end]
        if struct.unpack_from("<I", data, end)[0] != zlib.crc32(header_bytes):
            raise self._damaged("the header's checksum does not match")
        if hashlib.sha256(data[:-_DIGEST]).digest() != data[-_DIGEST:]:
            raise self._damaged("the file's checksum does not match (truncated or corrupted)")
        header = json.loads(header_bytes)
        if header.get("index_scheme") != INDEX_SCHEME or header.get("metric") != METRIC:
            raise self._damaged("another index scheme or metric")
        if header.get("rules", {}).get("rule_set") != RULES["rule_set"]:
            raise self._damaged(f"built for the {header.get('rules', {}).get('rule_set')} rules")
        if header.get("dtc_limit") != DTC_LIMIT:
            raise self._damaged(f"distances to conversion for a limit of {header.get('dtc_limit')} plies, not {DTC_LIMIT}")
        entries = header["entries"]
        if expected_entries is not None and entries != expected_entries:
            raise self._damaged(f"{entries} entries per side, the index has {expected_entries}")
        self._blocks_per_side = -(-entries // BLOCK_ENTRIES)
        self._table_at = end + 4
        if self._table_at + len(SECTIONS) * self._blocks_per_side * _BLOCK.size > len(data) - _DIGEST:
            raise self._damaged("truncated (the block table runs past the end)")
        return header

    @property
    def entries(self) -> int:
        return self.header["entries"]

    def block(self, section: int, number: int) -> bytes:
        """The uncompressed bytes of one block of a section (SECTIONS: 0 and 1 the values with Red, Black to
        move, 2 and 3 their distances to conversion)."""
        key = (section, number)
        if key not in self._cache:
            at = self._table_at + (section * self._blocks_per_side + number) * _BLOCK.size
            offset, length, crc = _BLOCK.unpack_from(self._data, at)
            try:
                raw = _decompress(self._data[offset:offset + length])
            except lzma.LZMAError:
                raw = b""
            if zlib.crc32(raw) != crc:
                raise self._damaged(f"block {number} of section {section} is corrupted")
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = raw
        return self._cache[key]

    def value(self, side: int, index: int) -> int:
        raw = self.block(side, index // BLOCK_ENTRIES)
        return struct.unpack_from("<H", raw, 2 * (index % BLOCK_ENTRIES))[0]

    def dtc(self, side: int, index: int) -> int:
        """The distance to conversion of an entry (255: none)."""
        return self.block(2 + side, index // BLOCK_ENTRIES)[index % BLOCK_ENTRIES]

    def section_bytes(self, section: int) -> bytes:
        """All entries of one section (for loading a table whole)."""
        return b"".join(self.block(section, n) for n in range(self._blocks_per_side))

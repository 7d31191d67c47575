"""Training positions for the NNUE: a compact binary file of fixed-size records.

A file is a 16-byte header followed by records, all little-endian:

    header   magic b"JJTP" (jiangjun training positions), uint32 version = 1, uint32 record size = 55,
             uint32 reserved = 0
    record   offset size
             0      45   board: 90 squares as 4-bit codes, rank-major from a0 (square index r * 9 + f,
                         file f 0..8 from Red's left, rank r 0..9 from Red's back rank); square 2i in the
                         low nibble of byte i, square 2i + 1 in its high nibble. Code 0 empty, 1 + t for a
                         Red piece and 9 + t for a Black one, t the FEN letter's index in KABNRCP
                         (K=0 A=1 B=2 N=3 R=4 C=5 P=6; the kernel's piece types)
             45     1    flags: bit 0 Black to move; bit 1 the position comes from a game record (else
                         from self-play)
             46     2    int16 score: the search's centipawns from the side to move's view, clamped to
                         +-10000; mates are +-10000
             48     1    int8 result of the game from the side to move's view: +1 win, 0 draw, -1 loss
             49     2    uint16 ply: half-moves played in the game before this position (saturating)
             51     4    uint32 game: the game's number in its file (whole games are held out together)

:class:`RecordWriter` appends records to a file as they come (a run that is cut short leaves whole
records; :func:`read_records` ignores a torn last one); :func:`read_records` maps a file into a numpy
structured array of :data:`RECORD` without reading it all. Needs numpy.
"""
from __future__ import annotations

import os
import struct
import sys
from typing import BinaryIO, Iterable, Optional

import numpy as np

MAGIC = b"JJTP"
VERSION = 1
HEADER = struct.Struct("<4sIII")
RECORD = np.dtype([("board", "u1", (45,)), ("flags", "u1"), ("score", "<i2"), ("result", "i1"),
                   ("ply", "<u2"), ("game", "<u4")])
assert RECORD.itemsize == 55 and not RECORD.isalignedstruct

SCORE_LIMIT = 10000
FLAG_BLACK_TO_MOVE = 1
FLAG_FROM_GAME_RECORD = 2
PIECE_LETTERS = "KABNRCP"          # index = piece type t, as engine.fen.PIECE_LETTERS
BLACK_CODE = 8                     # a Black piece's code is BLACK_CODE + 1 + t

_PACKED = struct.Struct("<45sBhbHI")
assert _PACKED.size == RECORD.itemsize


class FormatError(ValueError):
    """A file that is not a training-position file of this version."""


def board_codes(pieces: Iterable[tuple[int, int, int, int]]) -> bytes:
    """The 45 board bytes of the kernel's (side, type, file, rank) pieces (``_core.Board.pieces()``)."""
    codes = [0] * 90
    for side, ptype, file, rank in pieces:
        codes[rank * 9 + file] = 1 + ptype + BLACK_CODE * side
    return bytes(codes[i] | codes[i + 1] << 4 for i in range(0, 90, 2))


def pack_record(pieces: Iterable[tuple[int, int, int, int]], black_to_move: bool, score: int, result: int,
                ply: int, game: int, from_game_record: bool = False) -> bytes:
    """One record's bytes. score is clamped to +-SCORE_LIMIT, ply saturates at 65535."""
    flags = (FLAG_BLACK_TO_MOVE if black_to_move else 0) | (FLAG_FROM_GAME_RECORD if from_game_record else 0)
    score = max(-SCORE_LIMIT, min(SCORE_LIMIT, int(score)))
    return _PACKED.pack(board_codes(pieces), flags, score, int(result), min(int(ply), 0xFFFF), int(game))


def unpack_codes(boards: np.ndarray) -> np.ndarray:
    """(n, 45) board bytes -> (n, 90) square codes (uint8), square index r * 9 + f."""
    codes = np.empty(boards.shape[:-1] + (90,), dtype=np.uint8)
    codes[..., 0::2] = boards & 15
    codes[..., 1::2] = boards >> 4
    return codes


def record_fen(record: np.void) -> str:
    """The FEN of one record (counters 0 1: the record does not keep them)."""
    codes = unpack_codes(np.asarray(record["board"]))
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            code = int(codes[rank * 9 + file])
            if code == 0:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            letter = PIECE_LETTERS[(code & 7) - 1]
            row += letter.lower() if code & BLACK_CODE else letter
        rows.append(row + (str(empty) if empty else ""))
    side = "b" if int(record["flags"]) & FLAG_BLACK_TO_MOVE else "w"
    return f"{'/'.join(rows)} {side} - - 0 1"


class RecordWriter:
    """Appends records to a training-position file, writing the header first if the file is new or
    empty (an existing file must have this version's header)."""

    def __init__(self, path: str, append: bool = False) -> None:
        mode = "ab" if append else "wb"
        self._file: BinaryIO = open(path, mode)
        if self._file.tell() == 0:
            self._file.write(HEADER.pack(MAGIC, VERSION, RECORD.itemsize, 0))
        else:
            _check_header(path)
        self.count = 0

    def write(self, record: bytes) -> None:
        if len(record) != RECORD.itemsize:
            raise ValueError(f"a record is {RECORD.itemsize} bytes, not {len(record)}")
        self._file.write(record)
        self.count += 1

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check_header(path: str) -> None:
    with open(path, "rb") as f:
        head = f.read(HEADER.size)
    if len(head) < HEADER.size:
        raise FormatError(f"{path}: too short for a header")
    magic, version, size, _ = HEADER.unpack(head)
    if magic != MAGIC:
        raise FormatError(f"{path}: not a training-position file (magic {magic!r})")
    if version != VERSION or size != RECORD.itemsize:
        raise FormatError(f"{path}: version {version} with {size}-byte records; this reader knows "
                          f"version {VERSION} with {RECORD.itemsize}-byte records")


def read_records(path: str, mmap: bool = True) -> np.ndarray:
    """The records of a file as a structured array of RECORD (a read-only memory map by default).
    A torn last record (a run cut short mid-write) is left out, with a warning."""
    _check_header(path)
    body = os.path.getsize(path) - HEADER.size
    count, torn = divmod(body, RECORD.itemsize)
    if torn:
        print(f"{path}: {torn} bytes after the last whole record left out", file=sys.stderr)
    if count == 0:
        return np.zeros(0, dtype=RECORD)
    if mmap:
        return np.memmap(path, dtype=RECORD, mode="r", offset=HEADER.size, shape=(count,))
    with open(path, "rb") as f:
        f.seek(HEADER.size)
        return np.fromfile(f, dtype=RECORD, count=count)


def describe(records: np.ndarray, name: Optional[str] = None) -> str:
    """A one-line summary: positions, games, results and score spread."""
    if len(records) == 0:
        return f"{name or 'file'}: no positions"
    result = records["result"]
    score = records["score"].astype(np.int64)
    return (f"{name or 'file'}: {len(records)} positions of {len(np.unique(records['game']))} games; "
            f"side to move wins {np.mean(result == 1):.1%}, draws {np.mean(result == 0):.1%}, "
            f"loses {np.mean(result == -1):.1%}; |score| median {int(np.median(np.abs(score)))} cp, "
            f"{np.mean(np.abs(score) >= SCORE_LIMIT):.1%} mates")


if __name__ == "__main__":
    for file_name in sys.argv[1:]:
        print(describe(read_records(file_name), file_name))

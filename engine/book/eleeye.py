"""ElephantEye's opening book, BOOK.DAT: read as ElephantEye reads it.

The file is a sorted array of 8-byte records (little-endian): a 32-bit lock, the move (u16: origin +
destination * 256, squares of ElephantEye's 16 x 16 board) and its weight (u16). A position's lock is
the `dwLock1` part of ElephantEye's Zobrist key, and the book holds one orientation of each position:
ElephantEye looks the position up, then, if it is not there, its mirror image, whose moves it mirrors.

ElephantEye's keys (eleeye/pregen.cpp, base/rc4prng.h): an RC4 keystream, the cipher set up with a
key of four zero bytes, gives 32-bit numbers (four bytes each, the first byte lowest); they fill three
numbers (key, lock0, lock1) for the side to move, then for each of 14 pieces (Red general, advisor,
elephant, horse, chariot, cannon, soldier, then Black's) three for each of its 256 squares. A
position's lock is the exclusive or of its pieces' lock1 numbers, and of the side's when Black is to
move. A square is x + 16 * y, with x = 3 + file (a..i) and y = 12 - rank (rank 9, Black's back rank,
is y = 3).
"""
from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

from ..position import Position
from ..squares import square_name
from .base import Book, BookError, BookMove
from .keys import mirror_move

RECORD = struct.Struct("<IHH")


def _rc4_numbers(count: int) -> list[int]:
    """The first `count` 32-bit numbers of RC4 keyed with four zero bytes, as ElephantEye draws them."""
    state = list(range(256))
    key = b"\0\0\0\0"
    j = 0
    for i in range(256):
        j = (j + state[i] + key[i % len(key)]) & 255
        state[i], state[j] = state[j], state[i]
    x = y = 0
    out = []
    for _ in range(count):
        value = 0
        for shift in (0, 8, 16, 24):
            x = (x + 1) & 255
            y = (y + state[x]) & 255
            state[x], state[y] = state[y], state[x]
            value |= state[(state[x] + state[y]) & 255] << shift
        out.append(value)
    return out


@lru_cache(maxsize=1)
def lock_tables() -> tuple[int, tuple[tuple[int, ...], ...]]:
    """(the side's lock1, lock1 of [piece 0..13][square 0..255])."""
    numbers = _rc4_numbers(3 * (1 + 14 * 256))
    side = numbers[2]
    pieces = tuple(tuple(numbers[3 + 3 * (256 * piece + square) + 2] for square in range(256))
                   for piece in range(14))
    return side, pieces


def square_code(file: int, rank: int) -> int:
    """ElephantEye's square of (file, rank)."""
    return (3 + file) + 16 * (12 - rank)


def lock_of(pieces: list[tuple[int, int, int, int]], black_to_move: bool) -> int:
    """The lock of a position given as kernel pieces (side, type, file, rank)."""
    side_lock, table = lock_tables()
    lock = side_lock if black_to_move else 0
    for side, kind, file, rank in pieces:
        lock ^= table[kind + 7 * side][square_code(file, rank)]
    return lock


def position_lock(position: Position, mirrored: bool = False) -> int:
    pieces = position.kernel_board.pieces()
    if mirrored:
        pieces = [(s, k, 8 - f, r) for s, k, f, r in pieces]
    return lock_of(pieces, position.kernel_board.side == 1)


def decode_move(code: int) -> str:
    """The ICCS move of ElephantEye's move code; raises ValueError off the board."""
    names = []
    for square in (code & 255, code >> 8):
        x, y = square & 15, square >> 4
        if not (3 <= x <= 11 and 3 <= y <= 12):
            raise ValueError(f"ElephantEye move {code:#06x} leaves the board")
        names.append(square_name(x - 3, 12 - y))
    return names[0] + names[1]


def looks_like(data: bytes) -> bool:
    """Whether bytes look like a BOOK.DAT: whole records, sorted locks, moves on the board."""
    if not data or len(data) % RECORD.size:
        return False
    count = len(data) // RECORD.size
    step = max(1, count // 200)
    last = -1
    for index in range(0, count, step):
        lock, move, _ = RECORD.unpack_from(data, index * RECORD.size)
        if lock < last:
            return False
        last = lock
        try:
            decode_move(move)
        except ValueError:
            return False
    return True


class EleeyeBook(Book):
    """An ElephantEye BOOK.DAT, read into memory (ElephantEye's own book is under 100 KB)."""

    format_name = "ElephantEye BOOK.DAT"

    def __init__(self, path: str, data: bytes) -> None:
        super().__init__(path)
        if not looks_like(data):
            raise BookError(f"{path} is not an ElephantEye book (8-byte records sorted by lock)")
        self._data = data
        self.records = len(data) // RECORD.size

    def _moves_of(self, lock: int) -> list[tuple[int, int]]:
        low, high = 0, self.records
        while low < high:
            middle = (low + high) // 2
            if RECORD.unpack_from(self._data, middle * RECORD.size)[0] < lock:
                low = middle + 1
            else:
                high = middle
        found = []
        for index in range(low, self.records):
            found_lock, move, weight = RECORD.unpack_from(self._data, index * RECORD.size)
            if found_lock != lock:
                break
            found.append((move, weight))
        return found

    def _lookup(self, position: Position) -> list[BookMove]:
        for mirrored in (False, True):
            rows = self._moves_of(position_lock(position, mirrored))
            if rows:
                moves = []
                for code, weight in rows:
                    try:
                        move = decode_move(code)
                    except ValueError:
                        continue
                    moves.append(BookMove(mirror_move(move) if mirrored else move, weight))
                return moves
        return []


def open_eleeye(path: str) -> EleeyeBook:
    return EleeyeBook(path, Path(path).read_bytes())

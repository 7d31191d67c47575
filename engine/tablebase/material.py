"""Material signatures: the names of endings (KRKAABB) and their canonical form.

An ending is named as the field names it: the stronger side's general and pieces, then the other side's,
each in the order K R N C P A B (chariot, horse, cannon, soldier, advisor, elephant): ``KRKAABB``,
``KNPKAABB``, ``KRKNA``. The stronger side is decided by a fixed strength order (Material.strength), so
every material has one canonical name; a symmetric material (``KRKR``) is one table. A table stores the
stronger side as Red: a position whose stronger side is Black is probed colour-flipped.

Counts are per kernel piece type, in the kernel's order K A B N R C P (engine.fen.PIECE_LETTERS).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from ..fen import PIECE_LETTERS
from .errors import UnknownEndingError

#: The order pieces are named in, after the general.
NAME_ORDER = "RNCPAB"
#: The most pieces of each kernel type one side may have (K A B N R C P).
MAX_COUNTS = (1, 2, 2, 2, 2, 2, 5)
#: Strength points per kernel type (doubled to stay integral), for choosing the stronger side: the
#: attackers' points first, so that the side with the attack is named first (KNPKAABB).
STRENGTH_POINTS = (0, 4, 4, 8, 18, 9, 2)
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(7)
ATTACKERS = (HORSE, ROOK, CANNON, PAWN)

_SIDE_NAME = re.compile(r"K[RNCPAB]*")


@dataclass(frozen=True, order=True)
class Side:
    """One side's pieces: counts per kernel type (K A B N R C P)."""

    counts: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> "Side":
        counts = [0] * 7
        for letter in text:
            counts[PIECE_LETTERS.index(letter)] += 1
        return cls(tuple(counts))

    @property
    def name(self) -> str:
        return "K" + "".join(letter * self.counts[PIECE_LETTERS.index(letter)] for letter in NAME_ORDER)

    @property
    def attackers(self) -> int:
        return sum(self.counts[t] for t in ATTACKERS)

    def strength(self) -> tuple[int, ...]:
        """The key the stronger side is chosen by: the attackers' points, the defenders' points, then the
        counts in naming order."""
        attack = sum(self.counts[t] * STRENGTH_POINTS[t] for t in ATTACKERS)
        defence = sum(self.counts[t] * STRENGTH_POINTS[t] for t in (ADVISOR, ELEPHANT))
        return (attack, defence) + tuple(self.counts[PIECE_LETTERS.index(letter)] for letter in NAME_ORDER)

    def without(self, ptype: int) -> "Side":
        counts = list(self.counts)
        counts[ptype] -= 1
        return Side(tuple(counts))

    def within(self, other: "Side") -> bool:
        """Whether every count is at most the other side's (captures can lead there)."""
        return all(mine <= theirs for mine, theirs in zip(self.counts, other.counts))


@dataclass(frozen=True)
class Material:
    """The material of an ending: Red's and Black's pieces, as on a board."""

    red: Side
    black: Side

    @classmethod
    def parse(cls, ending: str) -> "Material":
        """The material of an ending name (``KRKAABB``) or of a FEN's board. Raises UnknownEndingError."""
        text = ending.strip()
        if "/" in text:
            return cls.of_fen(text)
        sides = re.fullmatch(r"(K[RNCPAB]*)(K[RNCPAB]*)", text.upper())
        if not sides:
            raise UnknownEndingError(
                f"unknown ending {ending!r}: expected a name such as KRKAABB (each side's K, then its pieces "
                "among R N C P A B) or a FEN")
        material = cls(Side.parse(sides.group(1)), Side.parse(sides.group(2)))
        material.check()
        return material

    @classmethod
    def of_fen(cls, fen: str) -> "Material":
        from ..fen import parse_fen
        from ..errors import InvalidFenError

        try:
            data = parse_fen(fen if " " in fen.strip() else fen.strip() + " w")
        except InvalidFenError as exc:
            raise UnknownEndingError(f"not a FEN of an ending: {exc}") from None
        return cls.of_pieces(data.pieces)

    @classmethod
    def of_pieces(cls, pieces) -> "Material":
        """The material of (side, type, file, rank) tuples (engine._core.Board.pieces())."""
        counts = ([0] * 7, [0] * 7)
        for side, ptype, _file, _rank in pieces:
            counts[side][ptype] += 1
        material = cls(Side(tuple(counts[0])), Side(tuple(counts[1])))
        material.check()
        return material

    def check(self) -> None:
        for side in (self.red, self.black):
            if side.counts[KING] != 1:
                raise UnknownEndingError(f"{self.name}: each side has exactly one general")
            for n, most, letter in zip(side.counts, MAX_COUNTS, PIECE_LETTERS):
                if n > most:
                    raise UnknownEndingError(f"{self.name}: at most {most} {letter} a side")

    @property
    def name(self) -> str:
        """Red's pieces then Black's (not canonical unless is_canonical)."""
        return self.red.name + self.black.name

    @property
    def is_canonical(self) -> bool:
        return self.red.strength() >= self.black.strength()

    @property
    def is_symmetric(self) -> bool:
        return self.red == self.black

    def flipped(self) -> "Material":
        """The colours swapped."""
        return Material(self.black, self.red)

    def canonical(self) -> tuple["Material", bool]:
        """(the canonical material, whether it is this one's colours swapped)."""
        return (self, False) if self.is_canonical else (self.flipped(), True)

    @property
    def pieces(self) -> int:
        """The men on the board, generals included."""
        return sum(self.red.counts) + sum(self.black.counts)

    def reachable_from(self, other: "Material") -> bool:
        """Whether captures can lead from `other` to this material, either way round (a table reads both)."""
        return ((self.red.within(other.red) and self.black.within(other.black))
                or (self.red.within(other.black) and self.black.within(other.red)))

    @property
    def has_attackers(self) -> bool:
        """Whether either side can still win: a chariot, horse, cannon or soldier on the board."""
        return self.red.attackers + self.black.attackers > 0

    def captures(self) -> Iterator[tuple[int, int, "Material"]]:
        """(captured side, captured type, material after) for each kind of piece that can be captured."""
        for side_index, side in enumerate((self.red, self.black)):
            for ptype in range(1, 7):
                if side.counts[ptype]:
                    rest = side.without(ptype)
                    yield side_index, ptype, (Material(rest, self.black) if side_index == 0
                                              else Material(self.red, rest))

    def __str__(self) -> str:
        return self.name


def canonical_name(ending: str) -> str:
    """The canonical name of an ending name or FEN (``KAAKR`` -> ``KRKAA``)."""
    return Material.parse(ending).canonical()[0].name


def flip_pieces(pieces) -> list[tuple[int, int, int, int]]:
    """The colour flip of (side, type, file, rank) pieces: sides swapped, ranks mirrored."""
    return [(1 - side, ptype, file, 9 - rank) for side, ptype, file, rank in pieces]


def mirror_pieces(pieces) -> list[tuple[int, int, int, int]]:
    """The left-right mirror of (side, type, file, rank) pieces."""
    return [(side, ptype, 8 - file, rank) for side, ptype, file, rank in pieces]


def sub_tables(material: Material) -> list[Material]:
    """The canonical materials its captures lead to directly (the tables a build reads), without those
    that have no attacker (always drawn)."""
    found: list[Material] = []
    for _side, _ptype, after in material.captures():
        canon = after.canonical()[0]
        if canon.has_attackers and canon not in found:
            found.append(canon)
    return found


def dependencies(material: Material) -> list[Material]:
    """The canonical materials a table's captures lead to, recursively, in build order (sub-tables
    first, the material itself last); materials without an attacker (always drawn) are left out."""
    order: list[Material] = []
    seen: set[Material] = set()

    def visit(m: Material) -> None:
        canon = m.canonical()[0]
        if canon in seen or not canon.has_attackers:
            return
        seen.add(canon)
        for _side, _ptype, after in canon.captures():
            visit(after)
        order.append(canon)

    visit(material)
    return order

"""The two sides."""
from __future__ import annotations

from enum import Enum


class Color(str, Enum):
    """A side. Compares equal to the strings "red" and "black".

        >>> Color.RED.label, Color.parse("w"), Color.of_index(1)
        ('Red', <Color.RED: 'red'>, <Color.BLACK: 'black'>)
    """

    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> "Color":
        return Color.BLACK if self is Color.RED else Color.RED

    @property
    def label(self) -> str:
        """The side as written in messages and tables: "Red" or "Black"."""
        return "Red" if self is Color.RED else "Black"

    @property
    def index(self) -> int:
        """0 for Red, 1 for Black (the order of a game's players)."""
        return 0 if self is Color.RED else 1

    @staticmethod
    def of_index(index: int) -> "Color":
        """The side of player `index`: 0 Red, 1 Black."""
        return (Color.RED, Color.BLACK)[index]

    @staticmethod
    def parse(text: object) -> "Color":
        """A side from its spellings in FENs and engine protocols: "red"/"r"/"w"/"white" or "black"/"b"
        (any case; a Color is returned as it is). Raises ValueError for anything else."""
        if isinstance(text, Color):
            return text
        word = str(text).strip().lower()
        if word in ("red", "r", "w", "white"):
            return Color.RED
        if word in ("black", "b"):
            return Color.BLACK
        raise ValueError(f"side {text!r}: expected 'red' or 'black'")

    def __str__(self) -> str:
        return self.value

"""The two sides."""
from __future__ import annotations

from enum import Enum


class Color(str, Enum):
    """A side. Compares equal to the strings "red" and "black"."""

    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> "Color":
        return Color.BLACK if self is Color.RED else Color.RED

    def __str__(self) -> str:
        return self.value

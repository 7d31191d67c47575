"""Opening names for book positions, from what the game files carry.

The Chinese Chess Practical Dataset files every game's ECCO code in an `ECCO` tag, and files part of its
games in folders by opening family (以開局分類/中炮局/...). A game's name is its family and its ECCO
code, "中炮局 C45": the family from its folder, or for a game outside those folders the family most of
the filed games of its ECCO code belong to, or failing that the family of its ECCO letter where the
letter names one (B, C and D are central-cannon openings, 中炮局; E is 仙人指路; A holds several families).
Other PGN files may carry an `Opening` tag, used as it is.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Optional

#: The dataset's opening folders, in simplified characters.
FAMILIES = {
    "中炮局": "中炮局", "起傌局": "起马局", "過宮炮": "过宫炮", "飛相局": "飞相局", "仙人指路": "仙人指路",
    "仕角炮": "仕角炮", "金鉤炮": "金钩炮", "冷門佈局": "冷门布局",
}
_BY_OPENING = "以開局分類"
#: The families of ECCO's letter groups, where a letter has one.
ECCO_LETTERS = {"B": "中炮局", "C": "中炮局", "D": "中炮局", "E": "仙人指路"}


def family_of_path(name: str) -> Optional[str]:
    """The opening family of a file filed by opening (…/以開局分類/中炮局/00001.pgn), else None."""
    parts = name.replace("\\", "/").split("/")
    for i, part in enumerate(parts[:-1]):
        if part == _BY_OPENING and i + 1 < len(parts) - 1:
            folder = parts[i + 1]
            return FAMILIES.get(folder, folder)
    return None


class Namer:
    """Collects what is known of each game's opening, then names them all."""

    def __init__(self) -> None:
        self._family_votes: dict[str, Counter] = defaultdict(Counter)   # ECCO code -> families

    def learn(self, ecco: Optional[str], family: Optional[str]) -> None:
        if ecco and family:
            self._family_votes[ecco][family] += 1

    def name(self, ecco: Optional[str], family: Optional[str], opening: Optional[str]) -> Optional[str]:
        """The name of a game: its Opening tag, else family and ECCO code (either may be missing)."""
        if opening:
            return opening
        if family is None and ecco and self._family_votes.get(ecco):
            family = self._family_votes[ecco].most_common(1)[0][0]
        if family is None and ecco:
            family = ECCO_LETTERS.get(ecco[:1].upper())
        parts = [p for p in (family, ecco) if p]
        return " ".join(parts) or None

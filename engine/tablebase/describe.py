"""A table value in the user's words, English or Chinese, said once for every place that shows it:
`jiangjun analyze`, the browser board, and the library.

    >>> from engine.color import Color
    >>> from engine.tablebase import TableValue, Wdl
    >>> tb_text(TableValue(Wdl.WIN, 45), Color.RED)
    'TB: red wins, mate in 23'
    >>> tb_text(TableValue(Wdl.LOSS, 44), Color.RED, "zh")
    'TB: 黑胜，22步杀'

How it is said:

* **Who wins**, by colour, not "the side to move": a TableValue is for the side to move, so the text needs
  that side (`turn`) and is right whoever is to move.
* **Mate in N moves**, N = (plies + 1) // 2: the winner's moves from the position, its mating move
  included, as UCI's ``score mate`` counts them. With the winner to move, 45 plies are 23 of its moves; with
  the loser to move, 44 plies are 22.
* **A draw** is a draw; a **marked draw** (``TableValue.at_risk``: a side that might have to check or chase
  for ever to hold it) says which side the perpetual check and chase rulings might turn it against.
* **No legal move** (a loss in 0 plies: mated, or stalemated, which loses too) says so.
* **A win the natural limit may draw** (``TableValue.dtc`` None: the loser can keep the winner from a capture
  or mate for 60 moves) says so after the mate.
* **A win through a ruling** (``TableValue.order`` >= 1: the loser will have to check or chase for ever) says
  who wins by the perpetual check/chase ruling, with no mate distance.

`TableValue.__str__` stays the library's own terse form in plies for the side to move (what `jiangjun tb
show` prints); this module is the form for a person looking at a board.
"""
from __future__ import annotations

from typing import Optional

from ..color import Color
from .values import TableValue, Wdl

#: The languages the words are given in: English and simplified Chinese.
LANGUAGES = ("en", "zh")
#: What a table's line starts with, in every language (the tag the field uses for tablebases).
PREFIX = "TB: "

_WORDS = {
    "en": {
        Color.RED: "red", Color.BLACK: "black", "both": "either side",
        "wins": "{side} wins", "mate": "mate in {moves}", "then": ", ",
        "no_move": "{side} has no legal move", "draw": "draw",
        "at_risk": "draw (the perpetual check/chase rulings may turn it against {sides})",
        "ruled": "{side} wins by the perpetual check/chase ruling",
        "limit": " (unless the 60-move limit draws it)",
    },
    "zh": {
        Color.RED: "红", Color.BLACK: "黑", "both": "一方",
        "wins": "{side}胜", "mate": "{moves}步杀", "then": "，",
        "no_move": "{side}方无着可走", "draw": "和棋",
        "at_risk": "和棋（长将、长捉的裁决或判{sides}负）",
        "ruled": "{side}胜（长将、长捉的裁决）",
        "limit": "（或因六十回合自然限着判和）",
    },
}


def mate_moves(value: TableValue) -> Optional[int]:
    """The winner's moves to mate, its mating move included ((plies + 1) // 2, as UCI's score mate); None for
    a draw, and for a result decided through a perpetual check/chase ruling (no mate distance)."""
    return None if value.plies is None or value.wdl is Wdl.DRAW or value.ruled else (value.plies + 1) // 2


def winner(value: TableValue, turn: Color) -> Optional[Color]:
    """The side that wins, given the side to move `turn`; None for a draw."""
    if value.wdl is Wdl.DRAW:
        return None
    return turn if value.wdl is Wdl.WIN else turn.other


def at_risk_colors(value: TableValue) -> list[Color]:
    """The sides a marked draw might be ruled a loss for (empty for anything else)."""
    return [Color.of_index(side) for side in value.at_risk]


def outcome_text(value: TableValue, turn: Color, language: str = "en") -> str:
    """``red wins, mate in 23`` / ``红胜，23步杀``, ``draw`` / ``和棋``: the value of a position whose side to move
    is `turn`, or of a move played by `turn` (``TableValue.after_move``: the value for its mover)."""
    words = _WORDS[_checked(language)]
    side = winner(value, turn)
    if side is None:
        sides = at_risk_colors(value)
        if not sides:
            return words["draw"]
        return words["at_risk"].format(sides=words["both"] if len(sides) > 1 else words[sides[0]])
    if value.ruled:
        return words["ruled"].format(side=words[side])
    wins = words["wins"].format(side=words[side])
    if value.plies == 0:
        return wins + words["then"] + words["no_move"].format(side=words[side.other])
    limit = words["limit"] if value.beyond_limit else ""
    return wins + words["then"] + words["mate"].format(moves=mate_moves(value)) + limit


def tb_text(value: TableValue, turn: Color, language: str = "en") -> str:
    """The table's line for a position: ``TB: red wins, mate in 23``, ``TB: 和棋``."""
    return PREFIX + outcome_text(value, turn, language)


def texts(value: TableValue, turn: Color) -> dict[str, str]:
    """`outcome_text` in every language, for a page that switches between them."""
    return {language: outcome_text(value, turn, language) for language in LANGUAGES}


def value_json(value: TableValue, turn: Color) -> dict:
    """A value as JSON for the tools' output: ``{"winner": "red", "wdl": "win", "plies": 45, "mate": 23,
    "dtc": 7, "at_risk": [], "text": {"en": ..., "zh": ...}}`` (wdl for the side to move, `turn`; dtc the
    plies to the next capture or mate, None when the natural limit may draw the result or it is no result
    by mates)."""
    side = winner(value, turn)
    return {
        "winner": None if side is None else side.value,
        "wdl": value.wdl.name.lower(),
        "plies": value.plies,
        "mate": mate_moves(value),
        "dtc": value.dtc,
        "at_risk": [color.value for color in at_risk_colors(value)],
        "text": texts(value, turn),
    }


def all_words() -> list[str]:
    """Every word of every language, for the tools that must know what a page can show (tools/web_font.py)."""
    return [word for words in _WORDS.values() for word in words.values()]


def _checked(language: str) -> str:
    if language not in _WORDS:
        raise ValueError(f"language {language!r}: one of {', '.join(LANGUAGES)}")
    return language

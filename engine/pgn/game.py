"""The game record: a Game (tags, moves, comments, result), and PgnError, which says where a problem is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN
from ..position import Position

#: The results a game can have: Red wins, Black wins, draw, unknown/unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: Tags written first, in this order (the chess roster with ``Game`` in front).
SEVEN_TAG_ROSTER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result")

#: The tags that may name each side's player, in order of preference: XBoard's files name Red ``White``.
PLAYER_TAGS = {"red": ("Red", "White"), "black": ("Black",)}


def player_name(headers: Dict[str, str], side: str) -> str:
    """The name of the player of ``side`` ("red" or "black"): the ``Red`` tag, or else ``White`` (as XBoard
    writes it), and ``Black``; "" when there is none."""
    for tag in PLAYER_TAGS[str(side)]:
        value = headers.get(tag, "").strip()
        if value:
            return value
    return ""


class PgnError(ValueError):
    """PGN text that cannot be read (or a game that cannot be written).

    The message starts with where the problem is and ends with why, e.g.::

        games.pgn, game 2 [Event "Final"], line 14, move 3 (Black) '马8退7':
        '马8退7' is not a legal move for Black: ...

    The parts are also available as attributes (``None`` when unknown):
    ``reason``, ``source``, ``game_number`` (1-based), ``event``, ``line``
    (1-based), ``move_number`` (the full-move number), ``side`` (``"red"`` or
    ``"black"``) and ``token`` (the text as written in the file).
    """

    def __init__(self, reason: str, *, source: Optional[str] = None,
                 game_number: Optional[int] = None, event: Optional[str] = None,
                 line: Optional[int] = None, move_number: Optional[int] = None,
                 side: Optional[str] = None, token: Optional[str] = None) -> None:
        self.reason = reason
        self.source = source
        self.game_number = game_number
        self.event = event
        self.line = line
        self.move_number = move_number
        self.side = side
        self.token = token
        super().__init__(self._compose())

    def _compose(self) -> str:
        where: List[str] = []
        if self.source:
            where.append(self.source)
        if self.game_number is not None:
            game = f"game {self.game_number}"
            if self.event:
                game += f' [Event "{self.event}"]'
            where.append(game)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.move_number is not None:
            move = f"move {self.move_number}"
            if self.side:
                move += f" ({self.side.capitalize()})"
            if self.token is not None:
                move += f" {self.token!r}"
            where.append(move)
        elif self.token is not None:
            where.append(f"token {self.token!r}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


@dataclass
class Game:
    """One game: tags, moves (ICCS), the comment after each move, the result.

    ``comments[i]`` is the comment written after ``moves[i]`` (``None`` for
    none), so both lists have the same length; when ``comments`` is left empty
    it is filled with ``None``.  ``start_comment`` is a comment before the
    first move.  ``result`` is one of :data:`RESULTS`.
    """

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: list[Optional[str]] = field(default_factory=list)
    result: str = "*"
    start_comment: Optional[str] = None

    def __post_init__(self) -> None:
        if not self.comments and self.moves:
            self.comments = [None] * len(self.moves)
        if len(self.comments) != len(self.moves):
            raise ValueError(
                f"a Game needs one comment (or None) per move: {len(self.moves)} moves, "
                f"{len(self.comments)} comments")

    def starting_fen(self) -> str:
        """The FEN of the starting position: the ``FEN`` tag, or :data:`START_FEN`."""
        fen = self.headers.get("FEN", "").strip()
        return fen or START_FEN

    def end_position(self) -> Position:
        """The position after all the moves, replayed from :meth:`starting_fen`.

        Raises:
            PgnError: the FEN tag is invalid or a move is illegal (the message
                names the move number).
        """
        position = start_position(self)
        for move in self.moves:
            push_checked(position, move, self.headers.get("Event"))
        return position

    def _repr_svg_(self) -> str:
        """The final position as an SVG picture, its last move marked (what a notebook shows for a game)."""
        return self.end_position()._repr_svg_()


def start_position(game: Game) -> Position:
    """The starting position of ``game``; a bad FEN tag raises PgnError."""
    fen = game.starting_fen()
    try:
        return Position(fen)
    except InvalidFenError as exc:
        raise PgnError(f"invalid FEN tag {fen!r}: {exc}",
                       event=game.headers.get("Event")) from None


def push_checked(position: Position, move: str, event: Optional[str]) -> None:
    """Push ``move``, turning an illegal move into a PgnError naming its move number."""
    number, side = position.fullmove_number, str(position.turn)
    try:
        position.push(move)
    except IllegalMoveError as exc:
        raise PgnError(str(exc), event=event, move_number=number, side=side, token=move) from None

"""The game record: a Game (tags, moves, comments, variations, result, and what of it could not be read),
and PgnError, which says where a problem is (GameFileError for the binary formats, where a place is a byte
offset rather than a line)."""

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
                 side: Optional[str] = None, token: Optional[str] = None,
                 offset: Optional[int] = None) -> None:
        self.reason = reason
        self.source = source
        self.game_number = game_number
        self.event = event
        self.line = line
        self.move_number = move_number
        self.side = side
        self.token = token
        self.offset = offset
        super().__init__(self._compose())

    def located(self, **where: object) -> "PgnError":
        """The same error with more of its place filled in (``source=``, ``game_number=``, ``event=``...):
        readers of one game raise without the file and game, which their callers know."""
        fields = {name: getattr(self, name) for name in _PLACE_FIELDS}
        fields.update({name: value for name, value in where.items() if fields.get(name) is None})
        return type(self)(self.reason, **fields)  # type: ignore[arg-type]

    def in_file(self) -> str:
        """The message without the file's name: for a summary that names the file once."""
        fields = {name: getattr(self, name) for name in _PLACE_FIELDS if name != "source"}
        return str(type(self)(self.reason, **fields))  # type: ignore[arg-type]

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
        if self.offset is not None:
            where.append(f"byte {self.offset} (0x{self.offset:X})")
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


_PLACE_FIELDS = ("source", "game_number", "event", "line", "move_number", "side", "token", "offset")


class GameFileError(PgnError):
    """A game file in another format than PGN (XQF, CBR, CBL, CBF, DhtmlXQ) that cannot be read, or a game
    that cannot be written in one. A PgnError, so that whoever catches a PGN error catches this one too;
    ``offset`` is the byte in the file where a binary record goes wrong, e.g.::

        match.cbl, game 7 [Event "全国象棋个人赛"], byte 24880 (0x6130), move 12 (Black) 'b7b0':
        illegal move b7b0 in ...: the piece on b7 cannot move there ...
    """


def _check_comments(kind: str, moves: List[str], comments: List[Optional[str]]) -> None:
    if len(comments) != len(moves):
        raise ValueError(f"a {kind} needs one comment (or None) per move: {len(moves)} moves, "
                         f"{len(comments)} comments")


@dataclass
class Variation:
    """A line played instead of a move: its moves (ICCS), the comment after each, and its own variations.

    A Variation in ``variations[i]`` (of a Game or of another Variation) replaces ``moves[i]`` of that
    line: its first move is played from the position before ``moves[i]``. Within the variation,
    ``variations[j]`` (j >= 1) holds the lines played instead of its own ``moves[j]``.
    """

    moves: list[str] = field(default_factory=list)
    comments: list[Optional[str]] = field(default_factory=list)
    variations: Dict[int, List["Variation"]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.comments and self.moves:
            self.comments = [None] * len(self.moves)
        _check_comments("Variation", self.moves, self.comments)


@dataclass
class Game:
    """One game: tags, moves (ICCS), the comment after each move, the variations, the result.

    ``comments[i]`` is the comment written after ``moves[i]`` (``None`` for
    none), so both lists have the same length; when ``comments`` is left empty
    it is filled with ``None``.  ``start_comment`` is a comment before the
    first move.  ``result`` is one of :data:`RESULTS`.  ``variations[i]`` are
    the lines played instead of ``moves[i]`` (:class:`Variation`), as the
    readers find them and the writers write them.  ``number`` is the game's place in
    the file it was read from (1 for the first; None for a game made in code);
    it takes no part in comparing games.

    ``errors`` lists what could not be read of the game (as ``chess.pgn.Game.errors`` does), in the
    order met; it is empty for a game read whole and takes no part in comparing games. A reader keeps
    what reads (see :func:`engine.pgn.read_games`): each line (the main line or a variation) stops before
    its first illegal or unreadable move, without what branches off there. A game whose start position
    does not read has no move, and its ``FEN`` tag is the board as the file gives it where a FEN can say
    it (so that :meth:`end_position` raises its PgnError).
    """

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: list[Optional[str]] = field(default_factory=list)
    result: str = "*"
    start_comment: Optional[str] = None
    variations: Dict[int, List[Variation]] = field(default_factory=dict)
    number: Optional[int] = field(default=None, compare=False)
    errors: List[PgnError] = field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        if not self.comments and self.moves:
            self.comments = [None] * len(self.moves)
        _check_comments("Game", self.moves, self.comments)

    def locate_errors(self, **where: object) -> None:
        """Fill in the place of the game's errors (``source=``, ``game_number=``, ``event=``...) where they
        do not say it: readers of one game record errors without the file and game, which their callers
        know."""
        self.errors = [error.located(**where) for error in self.errors]

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


def variation_place(position: Position, outer: str = "") -> str:
    """How messages name a variation of the move about to be played in ``position`` (``outer`` names the
    variation that one is in, if any): "a variation of Black's move 1, in a variation of ..."."""
    place = f"a variation of {position.turn.label}'s move {position.fullmove_number}"
    return f"{place}, in {outer}" if outer else place


def push_checked(position: Position, move: str, event: Optional[str]) -> None:
    """Push ``move``, turning an illegal move into a PgnError naming its move number."""
    number, side = position.fullmove_number, str(position.turn)
    try:
        position.push(move)
    except IllegalMoveError as exc:
        raise PgnError(str(exc), event=event, move_number=number, side=side, token=move) from None

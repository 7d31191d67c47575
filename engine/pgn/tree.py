"""Move trees: how XQF, CBR and DhtmlXQ store a game, and how a Game is made of one and turned into one.

The binary formats store a game as a tree of moves: the root is the start position (it carries the comment
before the first move), each node is a move with the comment after it, and a node's children are the moves
played from the position it leads to, the first of them the main line. A Game holds the same tree as its
main line (``moves``) and, at each move, the lines played instead of it (``variations``, see
:class:`.game.Variation`).

:func:`game_of_tree` replays every move of every line from the start position: a move that is not legal
where it stands ends its line there (the moves before it are kept, what branches off at it and after it
is not), and the error, naming its move number and the variation it is in, goes to the game's
``errors``; the side to move, which XQF and DhtmlXQ do not store, is the side whose piece the first move
moves. :func:`tree_of_game` is the inverse, for the writers, and :func:`preorder` lists a tree in the order
the binary formats store it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple

from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN, format_board
from ..position import Position, normalize_move
from ..squares import FILES
from .game import RESULTS, Game, GameFileError, PgnError, Variation, push_checked, start_position, variation_place

#: How deep variations may nest in variations: a file nesting them deeper is corrupt (no game has been seen
#: with ten levels), and each level is a call of the reader, which Python's stack bounds; the deeper
#: lines are not read.
MAX_NESTING = 200


@dataclass
class Node:
    """A move of a tree (``move`` in ICCS; None for the root, the start position), the comment after it,
    and the moves played from the position it leads to, the main line's first. ``offset`` is where the
    move's record starts in a binary file (for error messages), when known."""

    move: Optional[str] = None
    comment: Optional[str] = None
    children: List["Node"] = field(default_factory=list)
    offset: Optional[int] = None


@dataclass(frozen=True)
class Board:
    """A start position without its side to move: pieces as (side 0 Red/1 Black, type, file, rank), the
    engine.fen encoding; ``side`` is the side to move when the file says (None: the first move says)."""

    pieces: Tuple[Tuple[int, int, int, int], ...]
    side: Optional[int] = None

    def fen(self, side: int) -> str:
        return f"{format_board(list(self.pieces))} {'wb'[side]} - - 0 1"

    def fen_as_stored(self, first: Optional[str]) -> Optional[str]:
        """The board as a FEN whether or not it is a Xiangqi position (no general, say), the side to move
        as stored or as the first move shows it; None when two pieces share a square, which no FEN says."""
        squares = [(file, rank) for _, _, file, rank in self.pieces]
        if len(set(squares)) != len(squares):
            return None
        side = self.side if self.side is not None else (self.mover_of(first) if first else None)
        return self.fen(side or 0)

    def mover_of(self, move: str) -> Optional[int]:
        """The side whose piece stands on the origin square of ``move``, or None for an empty square."""
        file, rank = FILES.index(move[0]), int(move[1])
        for side, _, piece_file, piece_rank in self.pieces:
            if (piece_file, piece_rank) == (file, rank):
                return side
        return None


def _error(reason: str, position: Optional[Position] = None, node: Optional[Node] = None) -> GameFileError:
    if position is None:
        return GameFileError(reason, offset=node.offset if node else None)
    return GameFileError(reason, move_number=position.fullmove_number, side=str(position.turn),
                         token=node.move if node else None, offset=node.offset if node else None)


def start_of(board: Board, first: Optional[Node]) -> Position:
    """The start position of a tree: the board with its side to move, as stored or as the first move's
    piece shows it (Red when there is no move and the file does not say). A board no FEN describes (no
    general, two generals, a piece where it can never stand) raises GameFileError."""
    squares = [(file, rank) for _, _, file, rank in board.pieces]
    if len(set(squares)) != len(squares):
        twice = next(square for square in squares if squares.count(square) > 1)
        raise _error(f"two pieces stand on {FILES[twice[0]]}{twice[1]}: the start position is corrupt"
                     " (or wrongly decrypted)")
    sides: List[int]
    if board.side is not None:
        sides = [board.side]
    elif first is not None and first.move is not None and board.mover_of(first.move) is not None:
        sides = [board.mover_of(first.move)]  # type: ignore[list-item]
    else:
        sides = [0, 1]   # either side may be to move; the one whose position is legal
    problem = ""
    for side in sides:
        try:
            return Position(board.fen(side))
        except InvalidFenError as exc:
            problem = problem or str(exc)
    raise _error(f"the start position is not a Xiangqi position: {problem}")


def _line(position: Position, first: Node, where: str, errors: List[PgnError], depth: int) -> Variation:
    """The line that starts with ``first``, played from ``position`` (left unchanged), with the variations
    of its later moves; the alternatives to ``first`` itself are the caller's to collect. The line stops
    before a move that is not legal, whose error goes to ``errors``, as do those of its variations."""
    line = Variation()
    pushed = 0
    node = first
    try:
        while True:
            assert node.move is not None
            try:
                position.push(node.move)
            except IllegalMoveError as exc:
                reason = str(exc) if not where else f"{exc} ({where})"
                errors.append(_error(reason, position, node))
                line.variations.pop(len(line.moves), None)   # the alternatives to a move not played
                return line
            pushed += 1
            line.moves.append(node.move)
            line.comments.append(node.comment)
            if not node.children:
                return line
            following, *alternatives = node.children
            if alternatives:
                lines = _alternatives(position, alternatives, where, errors, depth)
                if lines:
                    line.variations[len(line.moves)] = lines
            node = following
    finally:
        for _ in range(pushed):
            position.pop()


def _alternatives(position: Position, nodes: List[Node], outer: str, errors: List[PgnError],
                  depth: int) -> List[Variation]:
    """The lines that start with ``nodes``, each played from ``position`` instead of the move the caller
    plays there; a line whose first move is not legal is left out (its error recorded)."""
    where = variation_place(position, outer)
    if depth >= MAX_NESTING:
        errors.append(_error(f"the variations are nested more than {MAX_NESTING} deep ({where}): the file "
                             "is corrupt, and the deeper ones are not read", position, nodes[0]))
        return []
    lines = []
    for node in nodes:
        line = _line(position, node, where, errors, depth + 1)
        if line.moves:
            lines.append(line)
    return lines


def game_of_tree(root: Node, board: Board, headers: Dict[str, str], result: str) -> Game:
    """The Game a tree holds: its main line, the variations at each move, the comments, every move
    checked; the ``FEN`` tag is set when the start is not the usual one. What cannot be read goes to the
    game's ``errors`` (GameFileErrors without the file or game, which the caller adds): an illegal move
    ends its line, and a board no FEN describes leaves the game without moves, its ``FEN`` tag the board
    as stored."""
    first = root.children[0] if root.children else None
    tags = dict(headers)
    game = Game(headers=tags, result=result if result in RESULTS else "*", start_comment=root.comment)
    try:
        position = start_of(board, first)
    except GameFileError as exc:
        stored = board.fen_as_stored(first.move if first is not None else None)
        if stored is not None:
            tags["FEN"] = stored
        game.errors.append(exc)
        return game
    fen = position.fen()
    if fen != START_FEN:
        tags["FEN"] = fen
    else:
        tags.pop("FEN", None)
    if first is None:
        return game
    try:
        main = _line(position, first, "", game.errors, 0)
        game.moves, game.comments, game.variations = main.moves, main.comments, main.variations
        if len(root.children) > 1 and game.moves:
            alternatives = _alternatives(position, root.children[1:], "", game.errors, 0)
            if alternatives:
                game.variations[0] = alternatives
    except RecursionError:   # the caller's own calls left too little of Python's stack for MAX_NESTING
        game.moves, game.comments, game.variations = [], [], {}
        game.errors.append(_error("the variations are nested too deep to be read (hundreds of levels): the "
                                  "file is corrupt"))
    return game


def tree_of_game(game: Game) -> Tuple[Node, Position]:
    """The tree of a game (every move checked) and its start position. Raises PgnError for an invalid
    FEN tag or an illegal move, naming its move number."""
    position = start_position(game)
    root = Node(comment=game.start_comment)
    try:
        _grow(root, position, game.moves, game.comments, game.variations, game.headers.get("Event"))
    except RecursionError:
        raise GameFileError("the variations are nested too deep to be written (hundreds of levels)",
                            event=game.headers.get("Event")) from None
    return root, position


def _grow(parent: Node, position: Position, moves: List[str], comments: List[Optional[str]],
          variations: Dict[int, List[Variation]], event: Optional[str]) -> None:
    """Hang a line (and its variations) under ``parent``; ``position`` is where the line starts and is
    left unchanged."""
    pushed = 0
    try:
        for index, move in enumerate(moves):
            node = Node(move=normalize_move(move), comment=comments[index] if index < len(comments) else None)
            parent.children.append(node)
            for alternative in variations.get(index, []):
                _grow(parent, position, alternative.moves, alternative.comments, alternative.variations, event)
            push_checked(position, move, event)
            pushed += 1
            parent = node
    finally:
        for _ in range(pushed):
            position.pop()


def preorder(root: Node) -> Iterator[Tuple[Node, bool, bool]]:
    """The moves of a tree (the root excluded) in the order XQF and CBR store them, each with whether it
    has a child (a next move) and whether a sibling follows it (an alternative to it): a move, then
    everything played after it, then its alternatives."""
    stack: List[Tuple[List[Node], int]] = [(root.children, 0)]
    while stack:
        siblings, index = stack.pop()
        if index >= len(siblings):
            continue
        node = siblings[index]
        stack.append((siblings, index + 1))
        yield node, bool(node.children), index + 1 < len(siblings)
        stack.append((node.children, 0))


class TreeBuilder:
    """Builds a tree from records read in preorder (see :func:`preorder`), each saying whether a child
    and whether a sibling follows: the binary readers feed it one record at a time, without recursion,
    so that a long game or a deep nest of variations cannot exhaust Python's stack."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self._parent: Optional[Node] = root
        self._waiting: List[Node] = []      # parents owed a sibling, the most recent last

    @property
    def complete(self) -> bool:
        """Whether every line promised by the records read so far has ended."""
        return self._parent is None

    def add(self, node: Node, has_child: bool, has_sibling: bool) -> None:
        assert self._parent is not None, "the tree is complete"
        self._parent.children.append(node)
        if has_sibling:
            self._waiting.append(self._parent)
        if has_child:
            self._parent = node
        else:
            self._parent = self._waiting.pop() if self._waiting else None

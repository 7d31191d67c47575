"""Move trees: how XQF, CBR and DhtmlXQ store a game, and how a Game is made of one and turned into one.

The binary formats store a game as a tree of moves: the root is the start position (it carries the comment
before the first move), each node is a move with the comment after it, and a node's children are the moves
played from the position it leads to, the first of them the main line. A Game holds the same tree as its
main line (``moves``) and, at each move, the lines played instead of it (``variations``, see
:class:`.game.Variation`).

:func:`game_of_tree` replays every move of every line from the start position, so a move that is not legal
where it stands is reported with its move number, whichever line it is in; the side to move, which XQF
and DhtmlXQ do not store, is the side whose piece the first move moves. :func:`tree_of_game` is the
inverse, for the writers, and :func:`preorder` lists a tree in the order the binary formats store it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple

from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN, format_board
from ..position import Position, normalize_move
from ..squares import FILES
from .game import RESULTS, Game, GameFileError, Variation, push_checked, start_position


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


def _play(position: Position, node: Node, where: str) -> None:
    assert node.move is not None
    try:
        position.push(node.move)
    except IllegalMoveError as exc:
        reason = str(exc) if not where else f"{exc} ({where})"
        raise _error(reason, position, node) from None


def _where(position: Position, outer: str) -> str:
    """How messages name a variation of the move about to be played in ``position``."""
    place = f"a variation of {position.turn.label}'s move {position.fullmove_number}"
    return f"{place}, in {outer}" if outer else place


def _line(position: Position, first: Node, where: str) -> Variation:
    """The line that starts with ``first``, played from ``position`` (left unchanged), with the variations
    of its later moves; the alternatives to ``first`` itself are the caller's to collect."""
    line = Variation()
    pushed = 0
    node = first
    try:
        while True:
            _play(position, node, where)
            pushed += 1
            line.moves.append(node.move)  # type: ignore[arg-type]
            line.comments.append(node.comment)
            if not node.children:
                return line
            following, *alternatives = node.children
            if alternatives:
                inner = _where(position, where)
                line.variations[len(line.moves)] = [_line(position, other, inner) for other in alternatives]
            node = following
    finally:
        for _ in range(pushed):
            position.pop()


def game_of_tree(root: Node, board: Board, headers: Dict[str, str], result: str) -> Game:
    """The Game a tree holds: its main line, the variations at each move, the comments, every move
    checked; the ``FEN`` tag is set when the start is not the usual one. Raises GameFileError (without
    the file or game, which the caller adds) for an illegal move or a board no FEN describes."""
    first = root.children[0] if root.children else None
    position = start_of(board, first)
    fen = position.fen()
    tags = dict(headers)
    if fen != START_FEN:
        tags["FEN"] = fen
    else:
        tags.pop("FEN", None)
    game = Game(headers=tags, result=result if result in RESULTS else "*", start_comment=root.comment)
    if first is None:
        return game
    try:
        main = _line(position, first, "")
        game.moves, game.comments, game.variations = main.moves, main.comments, main.variations
        if len(root.children) > 1:
            where = _where(position, "")
            game.variations[0] = [_line(position, other, where) for other in root.children[1:]]
    except RecursionError:   # each level of variations is a call: no game nests them hundreds deep
        raise _error("the variations are nested too deep to be read (hundreds of levels): the file is "
                     "corrupt") from None
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

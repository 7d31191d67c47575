"""The Python rules library: a Xiangqi position with its game record, in the style of python-chess.

    >>> from engine import Position
    >>> p = Position()
    >>> p.push("h2e2"); p.turn
    <Color.BLACK: 'black'>

Moves are ICCS strings: files a..i from Red's left, ranks 0..9 from Red's side ("h2e2"); input also
accepts "H2-E2" and "h2-e2". The rules themselves (move generation, checks, repetition rulings, the
natural move limit) are the Cython kernel's; this module converts, validates and explains.
"""
from __future__ import annotations

from typing import Optional, Sequence

from . import _core
from .color import Color
from .errors import IllegalMoveError, InvalidFenError
from .fen import PIECE_LETTERS, START_FEN, FenData, format_board, parse_fen
from .outcome import Outcome, Termination
from .squares import FILES, move_name, parse_iccs, parse_square, square_name

_COLORS = (Color.RED, Color.BLACK)

# The reason names, for code written before Termination.
REASONS = tuple(Termination)


def normalize_move(move: str) -> str:
    """The canonical ICCS form ("h2e2") of "h2e2", "H2-E2" or "h2-e2". Raises IllegalMoveError."""
    if not isinstance(move, str):
        raise IllegalMoveError(f"a move must be a string such as 'h2e2', not {type(move).__name__}")
    squares = parse_iccs(move.strip())
    if squares is None:
        raise IllegalMoveError(
            f"malformed move {move!r}: expected ICCS coordinates such as 'h2e2' or 'H2-E2' "
            "(files a-i, ranks 0-9 from Red's side)"
        )
    return move_name(*squares)


class Position:
    """A Xiangqi position and the moves played from its starting FEN."""

    def __init__(self, fen: str = START_FEN) -> None:
        data = parse_fen(fen)
        board = _core.Board()
        board.set_up(list(data.pieces), data.side, min(data.halfmove, 10_000))
        if board.general_attacked(1 - data.side):
            raise InvalidFenError(
                f"{Color.of_index(1 - data.side).label} is not to move but its general is in check "
                f"(it could be captured{', generals facing on an open file' if _generals_face(data) else ''})"
            )
        self._board = board
        self._start = data

    # -- state -------------------------------------------------------------------------------
    @property
    def kernel_board(self) -> "_core.Board":
        """The kernel's board behind this position, for the search and the evaluation (engine._core).
        Read it, search it, copy it; moves go through push() and pop(), which check them."""
        return self._board

    @property
    def turn(self) -> Color:
        """The side to move."""
        return _COLORS[self._board.side]

    @property
    def move_stack(self) -> list[str]:
        """The moves pushed since the starting FEN, oldest first."""
        return self._board.moves()

    @property
    def starting_fen(self) -> str:
        return self._fen_of(self._start)

    @property
    def key(self) -> int:
        """The 64-bit Zobrist key of the position (side to move included)."""
        return self._board.key()

    @property
    def halfmove_clock(self) -> int:
        """Plies counted towards the natural limit of 120 (excess checks and their replies excluded)."""
        return self._board.rule60

    @property
    def fullmove_number(self) -> int:
        return self._start.fullmove + (self._start.side + self._board.ply) // 2

    def piece_at(self, square: str) -> Optional[str]:
        """The FEN letter of the piece on a square such as "e0" (upper case Red), or None."""
        found = self._board.piece_at(*parse_square(square))
        if found is None:
            return None
        return _letter(*found)

    def piece_map(self) -> dict[str, str]:
        """Every piece on the board: {square: FEN letter}, such as {"e0": "K", "e9": "k", ...} (upper case
        Red), like python-chess's Board.piece_map(). A new dict each call; changing it changes nothing."""
        return {square_name(file, rank): _letter(side, ptype) for side, ptype, file, rank in self._board.pieces()}

    def fen(self) -> str:
        """The canonical FEN of the current position."""
        board = format_board(self._board.pieces())
        side = "wb"[self._board.side]
        return f"{board} {side} - - {self.halfmove_clock} {self.fullmove_number}"

    @staticmethod
    def _fen_of(data: FenData) -> str:
        return f"{format_board(list(data.pieces))} {'wb'[data.side]} - - {data.halfmove} {data.fullmove}"

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        """The legal moves of the side to move, as ICCS strings."""
        return self._board.legal_moves()

    def is_legal(self, move: str) -> bool:
        try:
            return self._board.is_legal(normalize_move(move))
        except IllegalMoveError:
            return False

    def push(self, move: str) -> None:
        """Play a move. Raises IllegalMoveError for a malformed or illegal move (the position is unchanged)."""
        iccs = normalize_move(move)
        if not self._board.is_legal(iccs):
            raise IllegalMoveError(self._explain_illegal(iccs))
        try:
            self._board.push(iccs)
        except ValueError as exc:  # the record is full
            raise IllegalMoveError(str(exc)) from None

    def pop(self) -> str:
        """Take back the last move and return it. Raises IndexError if no move was pushed."""
        return self._board.pop()

    def _explain_illegal(self, iccs: str) -> str:
        origin = iccs[:2]
        piece = self.piece_at(origin)
        side = self.turn.value
        if piece is None:
            why = f"there is no piece on {origin}"
        elif piece.isupper() != (self.turn is Color.RED):
            why = f"the piece on {origin} is not {side}'s"
        elif self._board.in_check():
            why = f"{side} is in check and this move does not answer it"
        else:
            why = f"the piece on {origin} cannot move there, or the move would leave {side}'s general in check"
        return f"illegal move {iccs} in {self.fen()}: {why}"

    # -- rules ------------------------------------------------------------------------------
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return self._board.in_check()

    def outcome(self) -> Optional[Outcome]:
        """The end of the game by the rules, or None while it goes on.

        No legal move loses for the side to move (checkmate or stalemate); a position that occurs for the
        third time since the last capture ends the game by the repetition rulings (perpetual check or
        chase loses, otherwise a draw); 120 plies without capture draw; so does a board where neither side
        has a chariot, horse, cannon or soldier.
        """
        reason, winner = self._board.verdict()
        if reason is None:
            return None
        return Outcome(None if winner is None else _COLORS[winner], Termination(reason))

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def perft(self, depth: int) -> int:
        """Number of leaf positions of the legal move tree of the given depth."""
        return self._board.perft(depth)

    def divide(self, depth: int) -> dict[str, int]:
        """Perft split by root move: {move: leaves below it}."""
        return self._board.divide(depth)

    # -- misc -------------------------------------------------------------------------------
    def mirror(self) -> "Position":
        """The current position mirrored top to bottom with the colours swapped (Pikafish's `flip`,
        python-chess's Board.mirror): the same position for the other side, its side to move swapped
        too, and its counters kept. The moves played are not carried over: the mirror starts afresh."""
        pieces = [(1 - side, ptype, file, 9 - rank) for side, ptype, file, rank in self._board.pieces()]
        side = "bw"[self._board.side]
        return Position(f"{format_board(pieces)} {side} - - {self.halfmove_clock} {self.fullmove_number}")

    def copy(self) -> "Position":
        clone = Position.__new__(Position)
        clone._board = self._board.copy()
        clone._start = self._start
        return clone

    def board_text(self) -> str:
        """A plain text diagram, rank 9 at the top, with file letters and rank numbers."""
        pieces = self.piece_map()
        lines = []
        for rank in range(9, -1, -1):
            cells = [pieces.get(f"{f}{rank}", ".") for f in FILES]
            lines.append(f"{rank} " + " ".join(cells))
        lines.append("  a b c d e f g h i")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.board_text()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (engine.pictures.diagram), the last move marked: what a notebook
        (Jupyter, IPython) shows for a position."""
        from .pictures.diagram import board_svg

        stack = self.move_stack
        return board_svg(self.fen(), move=stack[-1] if stack else None)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.fen().split()[:2] == other.fen().split()[:2]

    def __hash__(self) -> int:
        return hash(self.key)


def legal_prefix(position: Position, moves: Sequence[str]) -> tuple[str, ...]:
    """The longest prefix of ``moves`` that is legal from ``position`` (an engine's PV may run past the end
    of the game by the rules, or an external engine may print junk)."""
    board = position.copy()
    good: list[str] = []
    for move in moves:
        if board.outcome() is not None or not board.is_legal(move):
            break
        board.push(move)
        good.append(move)
    return tuple(good)


def _letter(side: int, ptype: int) -> str:
    """The FEN letter of a kernel piece (side 0 Red, 1 Black; type as in PIECE_LETTERS)."""
    return PIECE_LETTERS[ptype] if side == 0 else PIECE_LETTERS[ptype].lower()


def _generals_face(data: FenData) -> bool:
    kings = [(f, r) for s, t, f, r in data.pieces if t == 0]
    if kings[0][0] != kings[1][0]:
        return False
    low, high = sorted(r for _, r in kings)
    return not any(f == kings[0][0] and low < r < high for s, t, f, r in data.pieces)

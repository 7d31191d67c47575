"""One browser tab's game: the position, the moves played, and everything the page shows of them.

It knows nothing of the web: the server (engine.web.app) turns the page's requests into these calls and
sends `state()` back as JSON. Every change is checked before it is made: a bad FEN, PGN or move raises
WebInputError with a message for the page, and the game stays as it was.
"""
from __future__ import annotations

from typing import List, Optional

from ..color import Color
from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN
from ..notation import parse_move, to_chinese, to_san, to_wxf
from ..pgn import Game, PgnError, read_games, write_game
from ..position import Position

#: The largest PGN file (bytes) a page may open: a big collection, far below what could tire the server.
MAX_UPLOAD_BYTES = 2_000_000
#: At most this many games of one file are listed for the page to choose from.
MAX_LISTED_GAMES = 500


class WebInputError(ValueError):
    """Something the page sent cannot be used; the message says why, for a person."""


class WebGame:
    """The game of one tab: a starting position and the moves played from it."""

    def __init__(self, fen: str = START_FEN) -> None:
        self.position = Position(fen)
        self.headers: dict[str, str] = {}
        self.games: List[Game] = []      # the games of the last file opened, when it held several

    # -- changes -------------------------------------------------------------------------------------------
    def new(self, fen: Optional[str] = None) -> None:
        """A new game from the start or from `fen` (checked first: a bad FEN keeps the game)."""
        fen = (fen or "").strip() or START_FEN
        try:
            position = Position(fen)
        except InvalidFenError as exc:
            raise WebInputError(f"bad FEN: {exc}") from None
        self.position = position
        self.headers = {}

    def play(self, text: str) -> str:
        """Play one move written in any notation (ICCS, Chinese, WXF, SAN); returns it in ICCS."""
        if self.position.outcome() is not None:
            raise WebInputError("the game is over")
        try:
            move = parse_move(self.position, text.strip())
        except IllegalMoveError as exc:
            raise WebInputError(f"illegal move {text!r}: {exc}") from None
        self.position.push(move)
        return move

    def play_line(self, moves: List[str]) -> None:
        """Play several moves (a PV clicked on the page): all are checked before any is played."""
        trial = self.position.copy()
        for text in moves:
            try:
                trial.push(parse_move(trial, str(text)))
            except IllegalMoveError as exc:
                raise WebInputError(f"illegal move {text!r}: {exc}") from None
        self.position = trial

    def truncate(self, plies: int) -> None:
        """Keep the first `plies` moves only (play on from an earlier position of the game)."""
        self.take_back(len(self.position.move_stack) - max(0, plies))

    def take_back(self, plies: int = 1) -> int:
        """Take back up to `plies` moves; returns how many were taken back."""
        taken = 0
        while taken < plies and self.position.move_stack:
            self.position.pop()
            taken += 1
        return taken

    def load_text(self, text: str) -> None:
        """A pasted FEN, PGN or move list in any notation: a FEN if it reads as one, else PGN movetext."""
        text = text.strip()
        if not text:
            raise WebInputError("nothing to read: paste a FEN, a PGN or a list of moves")
        if "/" in text.split()[0] and "[" not in text:
            self.new(text)
            return
        self.load_pgn(text.encode("utf-8"))

    def load_pgn(self, data: bytes) -> int:
        """Open a PGN file (any encoding the library reads). One game is loaded; of several, the first is
        loaded and all are kept in `games` for `choose`. Returns the number of games."""
        if len(data) > MAX_UPLOAD_BYTES:
            raise WebInputError(f"the file is too large ({len(data)} bytes; at most {MAX_UPLOAD_BYTES})")
        try:
            # strict until the page shows a damaged game's errors (engine.pgn's default keeps what reads
            # and warns in the server's log only)
            games = read_games(data, errors="raise")
        except PgnError as exc:
            raise WebInputError(f"cannot read the PGN: {exc}") from None
        if not games:
            raise WebInputError("no game in the file")
        position = self._replayed(games[0])
        self.games = games[:MAX_LISTED_GAMES] if len(games) > 1 else []
        self.position, self.headers = position, dict(games[0].headers)
        return len(games)

    def choose(self, index: int) -> None:
        """Load game `index` of the last file opened."""
        if not 0 <= index < len(self.games):
            raise WebInputError(f"no game {index + 1} in the file")
        game = self.games[index]
        self.position, self.headers = self._replayed(game), dict(game.headers)

    @staticmethod
    def _replayed(game: Game) -> Position:
        try:
            return game.end_position()
        except PgnError as exc:
            raise WebInputError(f"cannot replay the game: {exc}") from None

    # -- what the page shows ---------------------------------------------------------------------------
    def moves(self) -> List[dict]:
        """Each move played, in every notation the page can show."""
        replay = Position(self.position.starting_fen)
        out = []
        for move in self.position.move_stack:
            entry = {"iccs": move, "chinese": to_chinese(replay, move), "wxf": to_wxf(replay, move),
                     "san": to_san(replay, move)}
            replay.push(move)
            entry["fen"] = replay.fen()
            out.append(entry)
        return out

    def legal_targets(self) -> dict[str, List[str]]:
        """Each square a piece of the side to move can leave, with the squares it can reach."""
        targets: dict[str, List[str]] = {}
        if self.position.outcome() is None:
            for move in self.position.legal_moves():
                targets.setdefault(move[:2], []).append(move[2:])
        return targets

    def checked_general(self) -> Optional[str]:
        """The square of the side to move's general when it is in check."""
        if not self.position.is_check():
            return None
        general = "K" if self.position.turn is Color.RED else "k"
        return next((sq for sq, piece in self.position.piece_map().items() if piece == general), None)

    def outcome(self) -> Optional[dict]:
        outcome = self.position.outcome()
        if outcome is None:
            return None
        winner = None if outcome.winner is None else outcome.winner.value
        return {"result": outcome.result, "reason": str(outcome.reason), "words": outcome.reason.words,
                "winner": winner}

    def book(self, shown: int = 8) -> dict:
        """The book moves of the position (heaviest first, at most `shown`) and the opening's name: the name of
        the latest position of the game that has one, while the game is still in the book."""
        from ..book import default_book

        book = default_book()
        moves = book.moves(self.position)
        if not moves:
            return {"name": None, "moves": []}
        replay, name = Position(self.position.starting_fen), None
        for move in self.position.move_stack:
            replay.push(move)
            name = book.opening_name(replay) or name
        return {"name": name, "moves": [{"iccs": entry.move, "chinese": to_chinese(self.position, entry.move),
                                          "games": entry.games} for entry in moves[:shown]]}

    def state(self) -> dict:
        """Everything the page draws, as JSON-ready values."""
        position = self.position
        stack = position.move_stack
        return {
            "fen": position.fen(),
            "start_fen": position.starting_fen,
            "turn": position.turn.value,
            "pieces": position.piece_map(),
            "moves": self.moves(),
            "last": stack[-1] if stack else None,
            "check": self.checked_general(),
            "targets": self.legal_targets(),
            "outcome": self.outcome(),
            "headers": self.headers,
            "games": [_game_label(i, game) for i, game in enumerate(self.games)],
            "book": self.book(),
        }

    # -- files -------------------------------------------------------------------------------------------
    def pgn(self, notation: str = "iccs") -> str:
        outcome = self.position.outcome()
        game = Game(headers={**self.headers}, moves=list(self.position.move_stack),
                    result=outcome.result if outcome else "*")
        if self.position.starting_fen != START_FEN:
            game.headers["FEN"] = self.position.starting_fen
        try:
            return write_game(game, notation)
        except (ValueError, PgnError) as exc:
            raise WebInputError(f"cannot write the PGN: {exc}") from None

    def svg(self, flip: bool = False) -> str:
        from ..pictures.diagram import board_svg

        stack = self.position.move_stack
        return board_svg(self.position.fen(), move=stack[-1] if stack else None, flip=flip)


def _game_label(index: int, game: Game) -> str:
    headers = game.headers
    red = headers.get("Red") or headers.get("White") or "?"
    black = headers.get("Black") or "?"
    event = headers.get("Event", "")
    return f"{index + 1}. {red} – {black}" + (f" ({event})" if event else "") + f" {game.result}"

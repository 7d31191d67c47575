"""One browser tab's game: the position, the moves played, and everything the page shows of them.

It knows nothing of the web: the server (engine.web.app) turns the page's requests into these calls and
sends `state()` back as JSON. Every change is checked before it is made: a bad FEN, PGN or move raises
WebInputError with a message for the page, and the game stays as it was. A game file that reads only in
part (engine.pgn keeps a game up to its first move that does not read) is opened as far as it reads, with a
note of what did not for the page.
"""
from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Reading:
    """A game file opened: how many games it holds, and what could not be read (None: everything read)."""

    games: int
    note: Optional[str]


def _reading_note(games: List[Game], shown: Game) -> Optional[str]:
    """What the page says of a file that did not read whole: the shown game's first error, and how many of the
    file's other games did not read whole."""
    parts = []
    if shown.errors:
        more = len(shown.errors) - 1
        parts.append(f"the game was read up to what could not be: {shown.errors[0]}" +
                     (f" (and {more} more)" if more else ""))
    others = sum(1 for game in games if game is not shown and game.errors)
    if others:
        parts.append(f"{others} other game{'s' if others > 1 else ''} of the file did not read whole")
    return "; ".join(parts) or None


class WebGame:
    """The game of one tab: a starting position and the moves played from it."""

    def __init__(self, fen: str = START_FEN) -> None:
        self.position = Position(fen)
        self.headers: dict[str, str] = {}
        self.games: List[Game] = []      # the games of the last file opened, when it held several
        # moves() of the game as last drawn, from this start: a change recomputes only the moves after it,
        # so that a page's request costs little however long the game (up to the PGN record's 3,584 plies)
        self._entries: List[dict] = []
        self._names: List[Optional[str]] = []    # the opening's name after each move (the latest one named)
        self._entries_start = ""

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

    def load_text(self, text: str) -> Optional[str]:
        """A pasted FEN, PGN or move list in any notation: a FEN if it reads as one, else PGN movetext.
        Returns what could not be read, as load_pgn does."""
        text = text.strip()
        if not text:
            raise WebInputError("nothing to read: paste a FEN, a PGN or a list of moves")
        if "/" in text.split()[0] and "[" not in text:
            self.new(text)
            return None
        return self.load_pgn(text.encode("utf-8")).note

    def load_pgn(self, data: bytes) -> "Reading":
        """Open a game file (PGN in any encoding the library reads, XQF, CBR, CBL, CBF, DhtmlXQ). Each game
        is read as far as it can be (engine.pgn's default): the first game with something to show is loaded,
        and all are kept in `games` for `choose` when there are several. Raises WebInputError when no game
        has anything to show, and the game stays as it was."""
        if len(data) > MAX_UPLOAD_BYTES:
            raise WebInputError(f"the file is too large ({len(data)} bytes; at most {MAX_UPLOAD_BYTES})")
        try:
            games = read_games(data, failures=[])     # failures=: the errors go to the page, not to a log
        except PgnError as exc:
            raise WebInputError(f"cannot read the game file: {exc}") from None
        if not games:
            raise WebInputError("no game in the file")
        shown = next((game for game in games if game.moves or not game.errors), games[0])
        if shown.errors and not shown.moves:
            raise WebInputError(f"cannot read the game file: {shown.errors[0]}")
        position = self._replayed(shown)
        self.games = games[:MAX_LISTED_GAMES] if len(games) > 1 else []
        self.position, self.headers = position, dict(shown.headers)
        return Reading(len(games), _reading_note(games, shown))

    def choose(self, index: int) -> Optional[str]:
        """Load game `index` of the last file opened; returns what could not be read of it."""
        if not 0 <= index < len(self.games):
            raise WebInputError(f"no game {index + 1} in the file")
        game = self.games[index]
        self.position, self.headers = self._replayed(game), dict(game.headers)
        return _reading_note([game], game)

    @staticmethod
    def _replayed(game: Game) -> Position:
        try:
            return game.end_position()
        except PgnError as exc:
            raise WebInputError(f"cannot replay the game: {exc}") from None

    # -- what the page shows ---------------------------------------------------------------------------
    def moves(self) -> List[dict]:
        """Each move played, in every notation the page can show, with the FEN after it."""
        from ..book import default_book

        stack, entries, names = self.position.move_stack, self._entries, self._names
        if self._entries_start != self.position.starting_fen:
            entries.clear()
            names.clear()
            self._entries_start = self.position.starting_fen
        kept = 0
        while kept < min(len(entries), len(stack)) and entries[kept]["iccs"] == stack[kept]:
            kept += 1
        del entries[kept:], names[kept:]
        # the moves' texts depend on the board only, which the FEN gives
        replay = Position(entries[-1]["fen"] if entries else self.position.starting_fen)
        name = names[-1] if names else None
        for move in stack[kept:]:
            entry = {"iccs": move, "chinese": to_chinese(replay, move), "wxf": to_wxf(replay, move),
                     "san": to_san(replay, move)}
            replay.push(move)
            entry["fen"] = replay.fen()
            entries.append(entry)
            name = default_book().opening_name(replay) or name
            names.append(name)
        return list(entries)

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

        moves = default_book().moves(self.position)
        if not moves:
            return {"name": None, "moves": []}
        self.moves()                                   # brings the names up to date
        name = self._names[-1] if self._names else None
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

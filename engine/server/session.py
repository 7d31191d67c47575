"""What the dialects share. A session turns command lines into calls on the engine facade and its
results into output lines.

* BaseSession: what every dialect has (a handler table, `quit`, how errors are reported). CECP
  (engine.server.cecp) builds on it directly: its game flow (`new`, `usermove`, `go` meaning "play
  this side") has nothing in common with the UCI family's.
* Session: the UCI family (engine.server.uci, engine.server.ucci). The subclasses supply the handshake,
  the `go` and `setoption` syntax and the output formats; the commands below are common to both.

A handler either returns (command done), or raises CommandError / ValueError / EngineBusyError, which the
reader loop hands to the session's `report_error` (`info string ...` in the UCI family): the command is
then ignored as a whole, and the position and options stay as they were.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable, ClassVar, Optional, Sequence

from ..search_types import PvLine, SearchLimits, SearchResult
from .commands import CommandError, parse_int, parse_moves, parse_position, quote
from .engine import MAX_PERFT_DEPTH, Engine

Say = Callable[[str], None]
Handler = Callable[[list[str]], Optional[bool]]
#: Runs a callable on the protocol thread, between input lines (for work a search thread must not do).
Post = Callable[[Callable[[], None]], None]

HELP = (
    "commands: uci | ucci | xboard, isready, setoption ..., position {startpos | fen <FEN>} [moves ...], "
    "go [depth N | nodes N | movetime MS | wtime MS btime MS ... | infinite], stop, ponderhit, "
    "d (board), go perft N, ucinewgame, quit"
)


class BaseSession(ABC):
    """One dialect's conversation with a GUI, over one engine facade."""

    #: "uci", "ucci" or "cecp".
    dialect: ClassVar[str]

    def __init__(self, engine: Engine, say: Say) -> None:
        self.engine = engine
        self.say = say
        self.handlers: dict[str, Handler] = {}

    @abstractmethod
    def handshake(self) -> None:
        """Answer the command that chose the dialect (`uci`, `ucci`, `protover`)."""

    def handle(self, words: list[str]) -> bool:
        """Carry out one command line, split into words. Returns False when the session should end."""
        handler = self.handlers.get(words[0])
        if handler is None:
            raise CommandError(f"unknown command {quote(words[0])} (type 'help' for the list)")
        return handler(words[1:]) is not False

    def report_error(self, message: str, line: str) -> None:
        """Tell the GUI that `line` was not carried out, and why."""
        self.say(f"info string {message}")

    def close(self) -> None:
        """The session is replaced by another dialect's, or input has ended."""


class Session(BaseSession):
    """The UCI family (UCI and UCCI)."""

    def __init__(self, engine: Engine, say: Say) -> None:
        super().__init__(engine, say)
        self.handlers.update({
            "isready": self.cmd_isready,
            "position": self.cmd_position,
            # `fen ...` / `startpos ...` without `position`: the cyclone style of many Chinese GUIs.
            "fen": lambda args: self.cmd_position(["fen", *args]),
            "startpos": lambda args: self.cmd_position(["startpos", *args]),
            "banmoves": self.cmd_banmoves,
            "go": self.cmd_go,
            "stop": self.cmd_stop,
            "ponderhit": self.cmd_ponderhit,
            "ucinewgame": self.cmd_newgame,
            "uccinewgame": self.cmd_newgame,
            "newgame": self.cmd_newgame,
            "setoption": self.cmd_setoption,
            "quit": self.cmd_quit,
            "d": self.cmd_display,
            "help": self.cmd_help,
        })

    # -- the dialect's part ------------------------------------------------------------------
    @abstractmethod
    def parse_go(self, args: Sequence[str]) -> SearchLimits:
        """The limits of a `go` (its arguments, `perft` excepted). Raises CommandError."""

    @abstractmethod
    def cmd_setoption(self, args: list[str]) -> None:
        """Apply a `setoption`. Raises CommandError for an unknown option or a bad value."""

    @abstractmethod
    def report_info(self, info: PvLine) -> None:
        """Print one completed iteration (called on the search thread)."""

    @abstractmethod
    def report_bestmove(self, result: SearchResult) -> None:
        """Print the answer to a `go` (called on the search thread, exactly once per `go`)."""

    def farewell(self) -> None:
        """Say goodbye on `quit` (UCCI: `bye`)."""

    # -- common commands ---------------------------------------------------------------------
    def cmd_isready(self, args: list[str]) -> None:
        self.say("readyok")

    def cmd_position(self, args: list[str]) -> None:
        command = parse_position(args)
        self.engine.set_position(command.fen, command.moves)

    def cmd_banmoves(self, args: list[str]) -> None:
        self.engine.set_banmoves(parse_moves(args, "banmoves"))

    def cmd_go(self, args: list[str]) -> None:
        if args and args[0] == "perft":
            self.perft(args[1:])
            return
        limits = self.parse_go(args)
        self.engine.go(limits, self.report_info, self.report_bestmove)

    def cmd_stop(self, args: list[str]) -> None:
        # An idle `stop` gets no answer: UCCI suggests `nobestmove`, but a `stop` that crosses a
        # `bestmove` on the wire would then leave a stray `nobestmove` to be read as the answer to the
        # GUI's next `go`.
        self.engine.stop()

    def cmd_ponderhit(self, args: list[str]) -> None:
        if args and args != ["draw"]:
            raise CommandError(f"ponderhit takes only 'draw', not {quote(' '.join(args))}")
        self.engine.ponderhit(draw_offer=bool(args))

    def cmd_newgame(self, args: list[str]) -> None:
        self.engine.new_game()

    def cmd_quit(self, args: list[str]) -> bool:
        self.engine.shutdown()
        self.farewell()
        return False

    def cmd_display(self, args: list[str]) -> None:
        position = self.engine.position
        for line in position.board_text().splitlines():
            self.say(line)
        self.say(f"Fen: {position.fen()}")
        self.say(f"Key: {position.key:016X}")
        self.say(f"Side to move: {position.turn.value}{', in check' if position.is_check() else ''}")
        if self.engine.banmoves:
            self.say(f"Banned moves: {' '.join(self.engine.banmoves)}")

    def cmd_help(self, args: list[str]) -> None:
        self.say(f"info string {HELP}")

    def perft(self, args: Sequence[str]) -> None:
        """`go perft N`: `move: count` per root move, a blank line, `Nodes searched: N`."""
        if len(args) != 1:
            raise CommandError("go perft needs one depth, e.g. 'go perft 3'")
        depth = parse_int(args[0], "perft depth", 1, MAX_PERFT_DEPTH)

        def done(split: dict[str, int]) -> None:
            for move in sorted(split):
                self.say(f"{move}: {split[move]}")
            self.say("")
            self.say(f"Nodes searched: {sum(split.values())}")

        self.engine.perft(depth, done)

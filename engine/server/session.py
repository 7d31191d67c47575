"""What the dialects share. A session turns command lines into calls on the engine facade and its
results into output lines.

* BaseSession: what every dialect has (a handler table, the option table, `quit`, how errors are
  reported and the user told). CECP (engine.server.cecp) builds on it directly: its game flow (`new`,
  `usermove`, `go` meaning "play this side") has nothing in common with the UCI family's.
* Session: the UCI family (engine.server.uci, engine.server.ucci). The handshake, `setoption` and the
  reports are generated here from the option table and the dialect's formats; the subclasses supply
  the `go` syntax and the output formats.

A session gets its engine through a function that creates it on first use (engine.server.protocol):
the handshake answers before the search kernel and the facade are loaded.

A handler either returns (command done), or raises CommandError / ValueError / EngineBusyError, which the
reader loop hands to the session's `report_error` (`info string ...` in the UCI family): the command is
then ignored as a whole, and the position and options stay as they were.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Callable, ClassVar, Optional, Sequence

from ..search_types import CurrentMove, PvLine, SearchLimits, SearchResult
from ..version import ENGINE_NAME
from .commands import CommandError, parse_int, parse_moves, parse_position, parse_setoption, quote
from .debuglog import DebugLog
from .options import Dialect, OptionError, apply, option_table

if TYPE_CHECKING:
    from .engine import Engine

AUTHOR = "the jiangjun developers"

Say = Callable[[str], None]
Handler = Callable[[list[str]], Optional[bool]]
#: Runs a callable on the protocol thread, between input lines (for work a search thread must not do).
Post = Callable[[Callable[[], None]], None]


class LazyEngine:
    """The engine facade, created by the first command that needs it (`get`), so that the handshake
    answers before the search kernel and the facade are loaded. `LazyEngine(engine)` holds one that
    exists already. One LazyEngine serves every session of the process."""

    def __init__(self, engine: Optional[Engine] = None) -> None:
        self._engine = engine

    def get(self) -> Engine:
        if self._engine is None:
            from .engine import Engine

            self._engine = Engine()
        return self._engine

    def shutdown(self) -> None:
        """Stop any search and wait for its report (nothing to do before the facade exists)."""
        if self._engine is not None:
            self._engine.shutdown()

HELP = (
    "commands: uci | ucci | xboard, isready, setoption ..., position {startpos | fen <FEN>} [moves ...], "
    "go [depth N | nodes N | movetime MS | wtime MS btime MS ... | infinite], stop, ponderhit, "
    "d (board), eval (the static evaluation explained), flip (mirror the position, colours swapped), "
    "go perft N, ucinewgame, quit"
)


class BaseSession(ABC):
    """One dialect's conversation with a GUI, over one engine facade."""

    dialect: ClassVar[Dialect]

    def __init__(self, engine: LazyEngine, say: Say, log: Optional[DebugLog] = None) -> None:
        """`log` is the process's debug log (the protocol's), which `Debug Log File` opens."""
        self.lazy_engine = engine
        self.say = say
        self.log = log if log is not None else DebugLog()
        self.options = option_table()
        self.handlers: dict[str, Handler] = {}

    @property
    def engine(self) -> Engine:
        """The engine facade (created by the first command that needs it)."""
        return self.lazy_engine.get()

    @abstractmethod
    def handshake(self) -> None:
        """Answer the command that chose the dialect (`uci`, `ucci`, `protover`)."""

    @abstractmethod
    def tell(self, text: str) -> None:
        """Tell the user something: which evaluation, book or strength is in use, why a move is played."""

    def warn(self, text: str) -> None:
        """Tell the user of a problem they should act on (UCI family: `info string`; CECP: a dialog)."""
        self.tell(text)

    def tell_tablebases(self) -> None:
        """Read the endgame tables if they are due (engine.load_tablebases: their options changed, or
        they were never read), and say what was read when the user should hear of it."""
        loaded = self.engine.load_tablebases()
        if loaded is not None:
            self.tell(loaded)

    @property
    def debug_log_file(self) -> str:
        """The option `Debug Log File`: the file the debug log writes to, "" when it is off."""
        return self.log.path

    @debug_log_file.setter
    def debug_log_file(self, path: str) -> None:
        try:
            self.log.open(path, header=ENGINE_NAME)
        except OSError as exc:
            self.warn(f"cannot open the debug log file {quote(path, 200)} ({exc.strerror or exc}): the log is off")

    def handle(self, words: list[str]) -> bool:
        """Carry out one command line, split into words. Returns False when the session should end."""
        handler = self.handlers.get(words[0])
        if handler is None:
            raise CommandError(f"unknown command {quote(words[0])} (type 'help' for the list)")
        return handler(words[1:]) is not False

    def report_error(self, message: str, line: str) -> None:
        """Tell the GUI that `line` was not carried out, and why."""
        self.tell(message)

    def close(self) -> None:
        """The session is replaced by another dialect's, or input has ended."""


class Session(BaseSession):
    """The UCI family (UCI and UCCI)."""

    #: The `id` lines of the handshake, and the line that ends it.
    id_fields: ClassVar[tuple[str, ...]] = ("name", "author")
    handshake_done: ClassVar[str]
    #: The message for a `setoption` without a name.
    setoption_usage: ClassVar[str]
    #: Option names (lower case) accepted and ignored: standard options the engine does not have.
    ignored_options: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, engine: LazyEngine, say: Say, log: Optional[DebugLog] = None) -> None:
        super().__init__(engine, say, log)
        self.show_wdl = False   # UCI_ShowWDL, a setting of the wire: the chances in the info lines
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
            "eval": self.cmd_eval,
            "flip": self.cmd_flip,
            "help": self.cmd_help,
        })

    # -- the dialect's part ------------------------------------------------------------------
    @abstractmethod
    def parse_go(self, args: Sequence[str]) -> SearchLimits:
        """The limits of a `go` (its arguments, `perft` excepted). Raises CommandError."""

    @abstractmethod
    def info_lines(self, info: PvLine) -> list[str]:
        """The lines that show one completed iteration (none: not shown)."""

    @abstractmethod
    def bestmove_lines(self, result: SearchResult) -> list[str]:
        """The lines that answer a `go`."""

    @abstractmethod
    def currmove_lines(self, current: CurrentMove) -> list[str]:
        """The lines that show the root move a long search has started on."""

    def farewell(self) -> None:
        """Say goodbye on `quit` (UCCI: `bye`)."""

    # -- output ------------------------------------------------------------------------------
    def tell(self, text: str) -> None:
        self.say(f"info string {text}")

    def handshake(self) -> None:
        """`id` lines, the dialect's `option` lines from the table, and `uciok` / `ucciok`."""
        identity = {"name": ENGINE_NAME, "copyright": f"2026 {AUTHOR}", "author": AUTHOR}
        for field in self.id_fields:
            self.say(f"id {field} {identity[field]}")
        for option in self.options.offered(self.dialect):
            self.say(option.line(self.dialect))
        self.say(self.handshake_done)

    def report_info(self, info: PvLine) -> None:
        """Print one completed iteration (called on the search thread)."""
        for line in self.info_lines(info):
            self.say(line)

    def report_currmove(self, current: CurrentMove) -> None:
        """Print the root move a long search has started on (called on the search thread)."""
        for line in self.currmove_lines(current):
            self.say(line)

    def report_bestmove(self, result: SearchResult) -> None:
        """Print the answer to a `go` (called on the search thread, exactly once per `go`), after what
        the engine says about it (a book move, why there is no move)."""
        if result.note:
            self.tell(result.note)
        for line in self.bestmove_lines(result):
            self.say(line)

    # -- common commands ---------------------------------------------------------------------
    def cmd_isready(self, args: list[str]) -> None:
        # Ready to search: the facade (and the kernel) are loaded now if no command has needed them yet,
        # and the endgame tables are read if their options changed (or at the first isready).
        self.tell_tablebases()
        self.say("readyok")


    def cmd_setoption(self, args: list[str]) -> None:
        """`setoption name N [value V]` (UCI) or `setoption N [V]` (UCCI), in either dialect; N may be
        the option's name in any dialect."""
        command = parse_setoption(args, self.setoption_usage)
        option = self.options.find(self.dialect, command.name)
        if option is None:
            if command.name.lower() in self.ignored_options:
                return
            raise OptionError(f"No such option: {quote(command.name)}")
        apply(option, option.parse(self.dialect, command.value), self)

    def cmd_position(self, args: list[str]) -> None:
        """`position {startpos | fen F} [moves ...]`. A refused one (malformed, a bad FEN, an illegal
        move) leaves no position in force: the next `go` answers no move, not one of an earlier position."""
        try:
            command = parse_position(args)
        except CommandError as exc:
            self.engine.refuse_position(str(exc))
            raise
        self.engine.set_position(command.fen, command.moves)   # refuses the position itself

    def cmd_banmoves(self, args: list[str]) -> None:
        self.engine.set_banmoves(parse_moves(args, "banmoves"))

    def cmd_go(self, args: list[str]) -> None:
        if args and args[0] == "perft":
            self.perft(args[1:])
            return
        limits = self.parse_go(args)
        self.tell_tablebases()
        self.engine.go(limits, self.report_info, self.report_bestmove, self.report_currmove)

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
        self.lazy_engine.shutdown()
        self.farewell()
        return False

    def cmd_display(self, args: list[str]) -> None:
        if self.engine.position_error is not None:
            self.say(f"No valid position: the last position command was refused ({self.engine.position_error})")
            self.say("The last valid position:")
        position = self.engine.position
        for line in position.board_text().splitlines():
            self.say(line)
        self.say(f"Fen: {position.fen()}")
        self.say(f"Key: {position.key:016X}")
        self.say(f"Side to move: {position.turn.value}{', in check' if position.is_check() else ''}")
        if self.engine.banmoves:
            self.say(f"Banned moves: {' '.join(self.engine.banmoves)}")

    def cmd_eval(self, args: list[str]) -> None:
        """`eval`: the static evaluation of the current position, explained."""
        _no_arguments("eval", args)
        for line in self.engine.explain_evaluation():
            self.say(line)

    def cmd_flip(self, args: list[str]) -> None:
        """`flip`: the position mirrored top to bottom, colours and the side to move swapped."""
        _no_arguments("flip", args)
        self.engine.flip()

    def cmd_help(self, args: list[str]) -> None:
        self.say(f"info string {HELP}")

    def perft(self, args: Sequence[str]) -> None:
        """`go perft N`: `move: count` per root move, a blank line, `Nodes searched: N`."""
        if len(args) != 1:
            raise CommandError("go perft needs one depth, e.g. 'go perft 3'")
        from .engine import MAX_PERFT_DEPTH   # loaded with the facade by now

        depth = parse_int(args[0], "perft depth", 1, MAX_PERFT_DEPTH)

        def done(split: dict[str, int]) -> None:
            for move in sorted(split):
                self.say(f"{move}: {split[move]}")
            self.say("")
            self.say(f"Nodes searched: {sum(split.values())}")

        self.engine.perft(depth, done)


def _no_arguments(command: str, args: list[str]) -> None:
    if args:
        raise CommandError(f"{command} takes no arguments, not {quote(' '.join(args))}")

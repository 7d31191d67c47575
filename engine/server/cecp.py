"""CECP, the xboard protocol (engine-intf.html; XBoard/WinBoard `-variant xiangqi`), as a third dialect
beside UCI and UCCI, over the same engine facade, SearchLimits and time manager.

    > xboard
    > protover 2                < feature ... variants="xiangqi" ... done=1
    > new
    > variant xiangqi
    > level 40 5 0
    > post
    > time 30000
    > otim 30000
    > usermove h2e2             < 9 -21 412 2210454 14 536000 0	h9g7 h0g2 i9h9
                                < move h9g7
    > result 1-0 {Black resigns}
    > quit

The session keeps the game (the start position and the moves since, from which the repetition rulings
and the natural move limit are judged), the side the engine plays (none in force mode), the clocks and
the modes (post, ponder, analysis). Squares are ICCS (ranks 0..9, as XBoard counts a 10-rank board);
`setboard` reads XBoard's H/E letters as well as N/B.

Searches run on the engine facade's thread and input is read while they run: `?` moves now, `force`,
`new`, `undo`, `result` and `quit` abandon the search without a move, `ping` during a search on the
engine's move is answered after the move. The search thread never touches the game: it posts its result
to the protocol thread (`post`), which plays the move, claims the result when the rules end the game
(checkmate, stalemate, the repetition rulings, the 60-move limit; not bare material, which no rule
draws: the engine plays on there and leaves it to the GUI), and starts pondering.

Errors are `Error (reason): command` and `Illegal move: MOVE`; a FEN that cannot be read gets
`tellusererror Illegal position: ...`, and moves are refused until the next `new` or `setboard`
(engine-intf.html on `setboard`).
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from ..color import Color
from ..errors import InvalidFenError
from ..outcome import Termination
from ..search_types import PvLine, SearchLimits, SearchResult
from ..squares import move_name, parse_iccs
from ..version import ENGINE_NAME
from .cecp_codec import (
    TimeControl, clock_limits, format_result, format_stat01, format_thinking, option_feature,
    parse_centiseconds, parse_level, parse_option_assignment, parse_seconds,
)
from .commands import CommandError, parse_int, quote
from .debuglog import DebugLog
from .options import EngineOption, OptionError, apply
from .session import BaseSession, LazyEngine, Post, Say

if TYPE_CHECKING:
    from ..position import Position

#: The repetition rulings (the third occurrence of a position).
_REPETITIONS = (Termination.PERPETUAL_CHECK, Termination.PERPETUAL_CHASE, Termination.REPETITION)
#: The rulings the engine claims: those certain by the rules. Bare material (neither side has a chariot,
#: horse, cannon or soldier) is not one: no rule of the game draws it (engines and GUIs adjudicate it, and
#: a stalemate, a loss, is not ruled out), so the engine plays on and leaves it to the GUI.
_CLAIMED = frozenset(Termination) - {Termination.INSUFFICIENT_MATERIAL}
#: Commands accepted and ignored: answers to features, and news the engine has no use for.
_IGNORED = ("accepted", "rejected", "random", "computer", "name", "rating", "ics", "draw", "xboard")


@dataclass
class _Search:
    """One search started by the session: on the engine's move ("move"), on the opponent's time
    ("ponder", after the predicted move), or in analysis mode ("analyze")."""

    kind: str
    predicted: Optional[str] = None
    cancelled: bool = False
    started: float = field(default_factory=time.monotonic)
    last_info: Optional[PvLine] = None


class CecpSession(BaseSession):
    """The xboard protocol, version 2."""

    dialect = "cecp"

    def __init__(self, engine: LazyEngine, say: Say, post: Post, log: Optional[DebugLog] = None) -> None:
        super().__init__(engine, say, log)
        self.post = post
        self._game: Optional[Position] = None  # the start position, set up when first needed
        self.valid = True                       # False after a setboard that could not be read
        self.engine_side: Optional[Color] = Color.BLACK   # None: force mode
        self.analyzing = False
        self.thinking_output = False            # post / nopost
        self.pondering = False                  # hard / easy
        self.control = TimeControl()
        self.st_ms: Optional[float] = None
        self.depth: Optional[int] = None        # sd
        self.own_ms: Optional[float] = None     # time
        self.opp_ms: Optional[float] = None     # otim
        self.search: Optional[_Search] = None
        self.pending_pongs: list[str] = []
        self.when_idle: list[Callable[[], None]] = []   # configuration waiting for the engine's move
        self.hint: Optional[str] = None
        self.handlers.update({
            "protover": lambda args: self.handshake(),
            "new": self.cmd_new,
            "variant": self.cmd_variant,
            "force": self.cmd_force,
            "go": self.cmd_go,
            "playother": self.cmd_playother,
            "usermove": self.cmd_usermove,
            "?": self.cmd_move_now,
            "ping": self.cmd_ping,
            "setboard": self.cmd_setboard,
            "undo": lambda args: self.take_back(1, "undo"),
            "remove": lambda args: self.take_back(2, "remove"),
            "result": self.cmd_result,
            "post": lambda args: setattr(self, "thinking_output", True),
            "nopost": lambda args: setattr(self, "thinking_output", False),
            "hard": lambda args: self.set_pondering(True),
            "easy": lambda args: self.set_pondering(False),
            "analyze": self.cmd_analyze,
            "exit": self.cmd_exit,
            ".": self.cmd_status,
            "level": self.cmd_level,
            "st": self.cmd_st,
            "sd": self.cmd_sd,
            "time": self.cmd_time,
            "otim": self.cmd_otim,
            "option": self.cmd_option,
            "hint": self.cmd_hint,
            "bk": lambda args: (self.say(" no book moves"), self.say("")),
            "d": self.cmd_display,
            "quit": self.cmd_quit,
        })
        for word in _IGNORED:
            self.handlers[word] = lambda args: None
        for option in self.options.commands():   # `memory`, `cores`
            self.handlers[option.cecp] = lambda args, option=option: self.set_by_command(option, args)

    # -- plumbing ------------------------------------------------------------------------------
    @property
    def game(self) -> Position:
        """The game: its start position and the moves played since."""
        if self._game is None:
            self._game = _position()
        return self._game

    @game.setter
    def game(self, position: Position) -> None:
        self._game = position

    def handshake(self) -> None:
        self.say(f'feature myname="{ENGINE_NAME}" variants="xiangqi" setboard=1 usermove=1 time=1 ping=1 '
                 f'playother=1 sigint=0 sigterm=0 colors=0 memory=1 smp=1 draw=0 nps=0 analyze=1')
        for option in self.options.offered(self.dialect):
            self.say(option_feature(option))
        self.say("feature done=1")

    def tell(self, text: str) -> None:
        self.say(f"telluser {text}")

    def warn(self, text: str) -> None:
        self.say(f"tellusererror {text}")

    def handle(self, words: list[str]) -> bool:
        handler = self.handlers.get(words[0])
        if handler is None and parse_iccs(words[0]) is not None:
            return self.handlers["usermove"](words) is not False   # a bare move, as in protocol version 1
        if handler is None:
            raise CommandError("unknown command")
        return handler(words[1:]) is not False

    def report_error(self, message: str, line: str) -> None:
        # XBoard takes an error line with "illegal" in it for a refused move, which forfeits the game
        # when it has checked the move itself: name such problems differently.
        reason = re.sub(r"(?i)illegal", "invalid", message.replace("(", "[").replace(")", "]"))
        echo = "".join(c if c.isprintable() else "?" for c in line[:80]) or "(line)"
        self.say(f"Error ({reason}): {echo}")

    def close(self) -> None:
        self.cancel()

    # -- searches ------------------------------------------------------------------------------
    def cancel(self) -> None:
        """Abandon the running search, if any, without playing its move (its result is dropped)."""
        search = self.search
        if search is not None:
            search.cancelled = True
            self.search = None
            self.engine.stop()
            self.engine.wait()
        self.flush_pongs()
        self.run_when_idle()

    def flush_pongs(self) -> None:
        for number in self.pending_pongs:
            self.say(f"pong {number}")
        self.pending_pongs.clear()

    def run_when_idle(self) -> None:
        tasks, self.when_idle = self.when_idle, []
        for task in tasks:
            try:
                task()
            except (ValueError, MemoryError) as exc:   # reported as the command's error would have been
                self.report_error(str(exc), "(deferred)")

    def start(self, kind: str, limits: SearchLimits, moves: tuple[str, ...] = (),
              predicted: Optional[str] = None) -> None:
        """Search the game position (plus `moves`) in the background."""
        search = _Search(kind, predicted=predicted)
        game = self.game.copy()
        for move in moves:
            game.push(move)
        self.engine.set_game(game)

        def on_info(info: PvLine) -> None:
            if search.cancelled:
                return
            search.last_info = info
            if self.thinking_output or search.kind == "analyze":
                prefix = (search.predicted,) if search.kind == "ponder" and search.predicted else ()
                self.say(format_thinking(info, prefix))

        def on_bestmove(result: SearchResult) -> None:
            self.post(lambda: self.finished(search, result))

        self.search = search
        self.tell_tablebases()
        self.engine.go(limits, on_info, on_bestmove)

    def finished(self, search: _Search, result: SearchResult) -> None:
        """A search's result, on the protocol thread."""
        if search.cancelled or search is not self.search:
            return
        self.search = None
        if search.kind == "move":
            self.play(result)
        self.flush_pongs()
        self.run_when_idle()

    def move_limits(self) -> SearchLimits:
        return clock_limits(self.control, self.own_ms, self.opp_ms, len(self.game.move_stack) // 2,
                            self.st_ms, self.depth)

    def think(self) -> None:
        """The engine is to move: claim the result if the game is over, else search for a move."""
        if not self.valid:
            return
        if self.claim():
            return
        self.start("move", self.move_limits())

    def claim(self, own_move: bool = False) -> bool:
        """Print the result if the rules have ended the game; True if they have.

        After the engine's own move, a repetition it has completed is left to the GUI unless the
        ruling goes against the engine. XBoard judges a perpetual against the side whose move completes
        the repetition (and waits otherwise), and it forfeits an engine whose win or draw claim it does
        not share; a loss claim it always accepts. So a completed repetition is claimed when the
        opponent's move completed it, or when the engine loses by it; checkmate, stalemate and the
        60-move limit are claimed at once; bare material is not claimed (_CLAIMED): the engine plays on.
        """
        outcome = self.game.outcome()
        if outcome is None or outcome.reason not in _CLAIMED:
            return False
        if own_move and outcome.reason in _REPETITIONS and outcome.winner != self.game.turn:
            return False
        self.say(format_result(outcome))
        return True

    def play(self, result: SearchResult) -> None:
        """Play the move the search chose, claim the result if it ends the game, else ponder."""
        if result.bestmove is None or not self.game.is_legal(result.bestmove):
            if not self.claim():        # cannot happen: a game that goes on has a legal move
                self.say("resign")
            return
        self.game.push(result.bestmove)
        self.say(f"move {result.bestmove}")
        self.hint = result.ponder
        self.flush_pongs()
        if self.claim(own_move=True):
            return
        self.ponder(result.ponder)

    def ponder(self, predicted: Optional[str]) -> None:
        """Think on the opponent's time, after the move it is predicted to play."""
        if not (self.pondering and predicted and self.engine_side is not None and self.valid
                and self.game.is_legal(predicted)):
            return
        after = self.game.copy()
        after.push(predicted)
        ruling = after.outcome()
        if ruling is not None and ruling.reason in _CLAIMED:
            return
        self.start("ponder", self.ponder_limits(after), (predicted,), predicted)

    def ponder_limits(self, after: Position) -> SearchLimits:
        limits = clock_limits(self.control, self.own_ms, self.opp_ms, len(after.move_stack) // 2,
                              self.st_ms, self.depth)
        return SearchLimits(ponder=True, time=limits.time, increment=limits.increment,
                            movestogo=limits.movestogo, movetime=limits.movetime, depth=limits.depth)

    def restart_analysis(self) -> None:
        self.cancel()
        if self.analyzing and self.valid:
            self.start("analyze", SearchLimits(infinite=True))

    def thinking_on_move(self) -> bool:
        return self.search is not None and self.search.kind == "move"

    def later(self, task: Callable[[], None]) -> None:
        """Run `task` (which needs an idle engine) now, or after the engine's move if it is thinking.
        Pondering is given up for it; analysis goes on afterwards."""
        if self.thinking_on_move():
            self.when_idle.append(task)
            return
        analysis = self.search is not None and self.search.kind == "analyze"
        self.cancel()
        task()
        if analysis:
            self.restart_analysis()

    # -- game flow -----------------------------------------------------------------------------
    def cmd_new(self, args: list[str]) -> None:
        self.cancel()
        self.game = _position()
        self.valid = True
        self.engine_side = Color.BLACK
        self.depth = None
        self.own_ms = self.opp_ms = None
        self.hint = None
        self.engine.new_game()
        if self.analyzing:
            self.restart_analysis()

    def cmd_variant(self, args: list[str]) -> None:
        if args != ["xiangqi"]:
            raise CommandError(f"only xiangqi is played, not {quote(' '.join(args))}")

    def cmd_force(self, args: list[str]) -> None:
        if not self.analyzing:
            self.cancel()
        self.engine_side = None

    def cmd_go(self, args: list[str]) -> None:
        if args:
            raise CommandError("go takes no arguments in CECP")
        if not self.valid:
            raise CommandError("no valid position; send new or setboard")
        self.cancel()
        self.engine_side = self.game.turn
        self.think()

    def cmd_playother(self, args: list[str]) -> None:
        self.cancel()
        self.engine_side = self.game.turn.other

    def cmd_usermove(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CommandError("usermove needs one move, e.g. usermove h2e2")
        text = args[0]
        squares = parse_iccs(text.strip())
        move = move_name(*squares) if squares is not None else None
        if move is None or not self.valid or not self.game.is_legal(move):
            self.say(f"Illegal move: {text[:20]}")
            return
        search = self.search
        if search is not None and search.kind == "ponder" and search.predicted == move:
            self.game.push(move)
            if self.engine_side is self.game.turn and self.engine.ponderhit(limits=self.move_limits()):
                search.kind = "move"
                return
            self.cancel()
        else:
            self.cancel()
            self.game.push(move)
        if self.analyzing:
            self.restart_analysis()
        elif self.engine_side is self.game.turn:
            self.think()

    def cmd_move_now(self, args: list[str]) -> None:
        if self.thinking_on_move():
            self.engine.stop()      # the search reports its best move so far, which is played

    def cmd_ping(self, args: list[str]) -> None:
        number = args[0] if args else ""
        if self.thinking_on_move():
            self.pending_pongs.append(number)   # answered after the move
        else:
            self.say(f"pong {number}".rstrip())

    def cmd_setboard(self, args: list[str]) -> None:
        self.cancel()
        fen = " ".join(args)
        try:
            self.game = _position(fen)
            self.valid = True
        except InvalidFenError as exc:
            self.valid = False
            self.say(f"tellusererror Illegal position: {str(exc)[:200]}")
        if self.analyzing:
            self.restart_analysis()

    def take_back(self, plies: int, command: str) -> None:
        if len(self.game.move_stack) < plies:
            raise CommandError("command not legal now: no move to take back")
        self.cancel()
        for _ in range(plies):
            self.game.pop()
        if self.analyzing:
            self.restart_analysis()

    def cmd_result(self, args: list[str]) -> None:
        self.cancel()
        self.engine_side = None

    def set_pondering(self, on: bool) -> None:
        self.pondering = on
        if not on and self.search is not None and self.search.kind == "ponder":
            self.cancel()
        self.engine.configure(ponder=on)   # the time manager plans a little longer when pondering

    def cmd_analyze(self, args: list[str]) -> None:
        self.analyzing = True
        self.engine_side = None
        self.restart_analysis()

    def cmd_exit(self, args: list[str]) -> None:
        if self.analyzing:
            self.analyzing = False
            self.cancel()

    def cmd_status(self, args: list[str]) -> None:
        search = self.search
        if self.analyzing and search is not None:
            elapsed = (time.monotonic() - search.started) * 1000
            self.say(format_stat01(elapsed, search.last_info, len(self.game.legal_moves())))

    def cmd_hint(self, args: list[str]) -> None:
        if self.hint and self.game.is_legal(self.hint):
            self.say(f"Hint: {self.hint}")

    def cmd_quit(self, args: list[str]) -> bool:
        self.cancel()
        return False

    def cmd_display(self, args: list[str]) -> None:
        for line in self.game.board_text().splitlines():
            self.say(f"# {line}")
        self.say(f"# fen {self.game.fen()}")
        self.say(f"# moves {' '.join(self.game.move_stack)}".rstrip())

    # -- time ----------------------------------------------------------------------------------
    def cmd_level(self, args: list[str]) -> None:
        self.control = parse_level(args)
        self.st_ms = None

    def cmd_st(self, args: list[str]) -> None:
        self.st_ms = parse_seconds(_one_argument(args, "st needs the seconds per move, e.g. st 5"), "st")

    def cmd_sd(self, args: list[str]) -> None:
        self.depth = parse_int(_one_argument(args, "sd needs a depth, e.g. sd 8"), "sd", 1, 10_000)

    def cmd_time(self, args: list[str]) -> None:
        self.own_ms = parse_centiseconds(_one_argument(args, "needs one clock reading in centiseconds"), "clock")

    def cmd_otim(self, args: list[str]) -> None:
        self.opp_ms = parse_centiseconds(_one_argument(args, "needs one clock reading in centiseconds"), "clock")

    # -- resources and options -----------------------------------------------------------------
    def set_by_command(self, option: EngineOption, args: list[str]) -> None:
        """`memory MB`, `cores N`: XBoard sends what the user has, so a value out of the option's range
        is clamped into it. Waits for the engine's move when it is thinking."""
        command = option.cecp
        text = _one_argument(args, f"{command} needs one number: {option.meaning}")
        value = parse_int(text, str(command), 0)
        if option.minimum is not None:
            value = max(option.minimum, value)
        if option.maximum is not None:
            value = min(option.maximum, value)
        self.later(lambda: apply(option, value, self))

    def cmd_option(self, args: list[str]) -> None:
        name, text = parse_option_assignment(args)
        option = self.options.find(self.dialect, name)
        if option is None:
            raise OptionError(f"no such option {quote(name)}")
        value = option.parse(self.dialect, text)
        self.later(lambda: apply(option, value, self))


def _position(fen: Optional[str] = None) -> Position:
    """A game's position (None: the start position). The rules library is imported by the first game,
    not by the handshake."""
    from ..position import Position

    return Position() if fen is None else Position(fen)


def _one_argument(args: list[str], message: str) -> str:
    """The one argument of a command; CommandError(message) if there is not exactly one."""
    if len(args) != 1:
        raise CommandError(message)
    return args[0]

"""UCI as Pikafish speaks it for Xiangqi (squares a0..i9, times in ms), plus the cyclone style (no
handshake; bare `fen`/`startpos` lines).

    > uci                                   < id name ..., option name ... lines, uciok
    > position startpos moves h2e2 h9g7
    > go wtime 60000 btime 60000 winc 1000 binc 1000
    < info depth 9 seldepth 14 multipv 1 score cp 21 nodes 98765 nps 1500000 hashfull 12 time 66 pv h0g2 ...
    < bestmove h0g2 ponder i9h9
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

from .. import book, nets
from ..position import Color
from ..score import Score
from ..search_types import PvLine, SearchLimits, SearchResult
from ..version import ENGINE_NAME
from .commands import CommandError, parse_int, parse_moves, parse_setoption, quote
from .engine import MAX_THREADS, Engine, max_hash_mb
from .options import Option, OptionError, OptionValue
from .session import Say, Session
from .strength import ELO_MAX, ELO_MIN, FULL_STRENGTH

AUTHOR = "the jiangjun developers"

#: `go` keywords followed by a whole number of ms (clock fields) or a count.
_CLOCK_WORDS = ("wtime", "btime", "winc", "binc", "movetime")
_COUNT_WORDS = ("movestogo", "depth", "nodes", "mate")
_SETOPTION_USAGE = "setoption needs 'name <option> [value <value>]'"


def uci_options() -> tuple[Option, ...]:
    """The options advertised after `uci`."""
    return (
        Option("Hash", "spin", 16, 1, max_hash_mb()),
        Option("Threads", "spin", 1, 1, MAX_THREADS),
        Option("MultiPV", "spin", 1, 1, 128),
        Option("Ponder", "check", False),
        Option("Move Overhead", "spin", 10, 0, 5000),
        Option("Clear Hash", "button"),
        Option("UCI_Variant", "combo", "xiangqi", choices=("xiangqi",)),
        Option("EvalFile", "string", nets.DEFAULT),
        Option("Use NNUE", "check", True),
        Option("OwnBook", "check", True),
        Option("BookFile", "string", book.DEFAULT),
        Option("Skill Level", "spin", FULL_STRENGTH, 0, FULL_STRENGTH),
        Option("UCI_LimitStrength", "check", False),
        Option("UCI_Elo", "spin", ELO_MAX, ELO_MIN, ELO_MAX),
    )


#: Other spellings accepted by `setoption` (lower case): the brief form of Stockfish's `Use NNUE`, and
#: the UCCI names of the strength options.
OPTION_ALIASES = {"usennue": "use nnue", "skilllevel": "skill level", "limitstrength": "uci_limitstrength",
                  "elo": "uci_elo"}

#: The strength options (lower case) and the EngineOptions field each sets.
STRENGTH_FIELDS = {"skill level": "skill_level", "uci_limitstrength": "limit_strength", "uci_elo": "elo"}


def format_info(info: PvLine) -> str:
    """`info depth D seldepth S multipv K score cp X|mate M nodes N nps R hashfull H time T pv ...`."""
    score = f"mate {info.score.mate}" if info.score.is_mate else f"cp {info.score.value}"
    line = (f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} score {score} "
            f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} time {info.time_ms}")
    return line + (" pv " + " ".join(info.pv) if info.pv else "")


def format_bestmove(result: SearchResult) -> list[str]:
    """The closing lines of a search: `bestmove M [ponder P]`, or with no move to play
    `info depth 0 score mate 0` (the side to move has lost; `cp S` otherwise) and `bestmove (none)`."""
    lines = [f"info string {result.note}"] if result.note else []
    if result.bestmove is None:
        score = "mate 0" if result.score == Score.mated() else f"cp {result.score.value}"
        return lines + [f"info depth 0 score {score}", "bestmove (none)"]
    ponder = f" ponder {result.ponder}" if result.ponder else ""
    return lines + [f"bestmove {result.bestmove}{ponder}"]


def apply_option(engine: Engine, option: Option, value: OptionValue, tell: Callable[[str], None]) -> None:
    """Set a parsed UCI option (also CECP's, which are the same) on the engine; `tell` gets what the
    user should know (which evaluation is in use after EvalFile or Use NNUE, which book after OwnBook or
    BookFile, which strength after Skill Level, UCI_LimitStrength or UCI_Elo)."""
    key = option.name.lower()
    if key == "clear hash":
        engine.clear_hash()
    elif key == "hash":
        engine.configure(hash_mb=value)
    elif key == "threads":
        engine.configure(threads=value)
    elif key == "multipv":
        engine.configure(multipv=value)
    elif key == "ponder":
        engine.configure(ponder=value)
    elif key == "move overhead":
        engine.configure(move_overhead_ms=value)
    elif key == "evalfile":
        engine.configure(eval_file=value)
        tell(engine.evaluation_summary())
    elif key == "use nnue":
        engine.configure(use_nnue=value)
        tell(engine.evaluation_summary())
    elif key == "ownbook":
        engine.configure(own_book=value)
        tell(engine.book_summary())
    elif key == "bookfile":
        engine.configure(book_file=value)
        tell(engine.book_summary())
    elif key in STRENGTH_FIELDS:
        engine.configure(**{STRENGTH_FIELDS[key]: value})
        tell(engine.strength_summary())
    # UCI_Variant: xiangqi is the only value, already checked by parse.


def parse_go(args: Sequence[str], red_to_move: bool) -> SearchLimits:
    """The limits of a UCI `go` (`perft` excepted). wtime/winc are Red's; all times in ms.

    Raises CommandError for an unknown keyword or a bad number (the whole `go` is then ignored).
    """
    values: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: tuple[str, ...] = ()
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("infinite", "ponder"):
            flags.add(word)
            i += 1
        elif word == "searchmoves":
            searchmoves = parse_moves(args[i + 1:], "go searchmoves")
            if not searchmoves:
                raise CommandError("go searchmoves needs at least one move")
            break
        elif word in _CLOCK_WORDS or word in _COUNT_WORDS:
            if i + 1 >= len(args):
                raise CommandError(f"go {word} needs a value")
            # Clocks may arrive negative from a GUI whose clock has just run out: read them as 0.
            minimum = None if word in ("wtime", "btime") else 0
            values[word] = max(0, parse_int(args[i + 1], f"go {word}", minimum))
            i += 2
        else:
            raise CommandError(f"unknown go parameter {quote(word)}")
    own, opp = ("w", "b") if red_to_move else ("b", "w")
    mate = values.get("mate")
    if mate == 0:
        raise CommandError("go mate needs a number of moves of at least 1")
    depth = values.get("depth")
    nodes = values.get("nodes")
    return SearchLimits(
        time=_ms(values.get(f"{own}time")),
        increment=_ms(values.get(f"{own}inc")),
        movestogo=values.get("movestogo") or None,
        opp_time=_ms(values.get(f"{opp}time")),
        opp_increment=_ms(values.get(f"{opp}inc")),
        movetime=_ms(values.get("movetime")),
        depth=None if depth is None else max(1, depth),      # depth 0 searches one ply
        nodes=None if nodes is None else max(1, nodes),      # nodes 0 completes depth 1
        mate=mate,
        infinite="infinite" in flags,
        ponder="ponder" in flags,
        searchmoves=searchmoves,
    )


def _ms(value: Optional[int]) -> Optional[float]:
    return None if value is None else float(value)


class UciSession(Session):
    """UCI. Also accepts the UCCI spellings `setoption newgame` and `banmoves`."""

    dialect = "uci"

    def __init__(self, engine: Engine, say: Say) -> None:
        super().__init__(engine, say)
        self.options = {option.name.lower(): option for option in uci_options()}
        self.handlers["debug"] = lambda args: None
        self.handlers["register"] = lambda args: None

    def handshake(self) -> None:
        self.say(f"id name {ENGINE_NAME}")
        self.say(f"id author {AUTHOR}")
        for option in self.options.values():
            self.say(option.uci_line())
        self.say("uciok")

    def parse_go(self, args: Sequence[str]) -> SearchLimits:
        return parse_go(args, self.engine.position.turn is Color.RED)

    def cmd_setoption(self, args: list[str]) -> None:
        if args == ["newgame"]:  # the UCCI form, accepted in every dialect
            self.engine.new_game()
            return
        if not args or args[0] != "name":
            raise CommandError(_SETOPTION_USAGE)
        command = parse_setoption(args, _SETOPTION_USAGE)
        key = command.name.lower()
        option = self.options.get(OPTION_ALIASES.get(key, key))
        if option is None:
            raise OptionError(f"No such option: {quote(command.name)}")
        self.apply(option, option.parse(command.value))

    def apply(self, option: Option, value: OptionValue) -> None:
        """Set a parsed option on the engine."""
        apply_option(self.engine, option, value, lambda text: self.say(f"info string {text}"))

    def report_info(self, info: PvLine) -> None:
        self.say(format_info(info))

    def report_bestmove(self, result: SearchResult) -> None:
        for line in format_bestmove(result):
            self.say(line)

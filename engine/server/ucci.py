"""UCCI 3.0 (Huang Chen, xqbase): `ucci` handshake, options without the `name` keyword, times in seconds
unless `setoption usemillisec true`, bare integer scores, `nobestmove`, `banmoves`, `quit` -> `bye`.

    > ucci                                  < id ..., option usemillisec type check default false, ..., ucciok
    > setoption usemillisec true
    > position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2
    > go time 60000 increment 1000
    < info depth 9 score 21 pv h9g7 h0g2 ...
    < info time 66 nodes 98765
    < bestmove h9g7 ponder h0g2
"""
from __future__ import annotations

from typing import Sequence

from .. import book, nets
from ..position import Position
from ..search_types import PvLine, SearchLimits, SearchResult
from ..version import ENGINE_NAME
from .commands import CommandError, parse_int, parse_number, parse_position, parse_setoption, quote
from .engine import MAX_THREADS, Engine, default_threads, max_hash_mb
from .options import Option, OptionError, OptionValue
from .session import Say, Session
from .strength import ELO_MAX, ELO_MIN, FULL_STRENGTH
from .uci import AUTHOR

_TIME_WORDS = ("time", "increment", "opptime", "oppincrement")
_COUNT_WORDS = ("depth", "nodes", "movestogo", "oppmovestogo")

#: Standard UCCI options this engine does not have: accepted without comment (XQWizard and the league
#: simulator send some of them without reading the option list).
IGNORED_OPTIONS = frozenset((
    "promotion", "useegtb", "usehash", "egtbpaths", "evalapi", "idle", "pruning",
    "knowledge", "randomness", "style", "selectivity", "repetition", "drawmoves", "loadbook",
))


def ucci_options() -> tuple[Option, ...]:
    """The options advertised after `ucci`. hashsize 0 and threads 0 let the engine choose."""
    return (
        Option("usemillisec", "check", False),
        Option("hashsize", "spin", 16, 0, max_hash_mb()),
        Option("threads", "spin", 1, 0, MAX_THREADS),
        Option("ponder", "check", False),
        Option("newgame", "button"),
        Option("batch", "check", False),
        Option("debug", "check", False),
        Option("evalfile", "string", nets.DEFAULT),
        Option("usennue", "check", True),
        Option("usebook", "check", True),
        Option("bookfiles", "string", book.DEFAULT),
        Option("skilllevel", "spin", FULL_STRENGTH, 0, FULL_STRENGTH),
        Option("limitstrength", "check", False),
        Option("elo", "spin", ELO_MAX, ELO_MIN, ELO_MAX),
    )


#: Other spellings accepted by `setoption` (lower case): the UCI names, for the UCI form of the command.
OPTION_ALIASES = {"use nnue": "usennue", "ownbook": "usebook", "bookfile": "bookfiles",
                  "skill level": "skilllevel", "uci_limitstrength": "limitstrength", "uci_elo": "elo"}

#: The strength options and the EngineOptions field each sets.
STRENGTH_FIELDS = {"skilllevel": "skill_level", "limitstrength": "limit_strength", "elo": "elo"}


def parse_go(args: Sequence[str], millis: bool) -> SearchLimits:
    """The limits of a UCCI `go`: `[ponder|draw] depth N | nodes N | infinite | time T [movestogo N |
    increment I] [opptime T2 [oppmovestogo N2 | oppincrement I2]]`. Times in seconds unless `millis`.

    `depth 0` asks for the static evaluation only. Raises CommandError (the whole `go` is ignored).
    """
    scale = 1.0 if millis else 1000.0
    times: dict[str, float] = {}
    counts: dict[str, int] = {}
    flags: set[str] = set()
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("ponder", "draw", "infinite"):
            flags.add(word)
            i += 1
        elif word in _TIME_WORDS or word in _COUNT_WORDS:
            if i + 1 >= len(args):
                raise CommandError(f"go {word} needs a value")
            if word in _TIME_WORDS:
                # A clock may arrive negative when it has just run out: read it as 0.
                times[word] = max(0.0, parse_number(args[i + 1], f"go {word}")) * scale
            else:
                counts[word] = parse_int(args[i + 1], f"go {word}", 0)
            i += 2
        else:
            raise CommandError(f"unknown go parameter {quote(word)}")
    nodes = counts.get("nodes")
    return SearchLimits(
        time=times.get("time"),
        increment=times.get("increment"),
        movestogo=counts.get("movestogo") or None,
        opp_time=times.get("opptime"),
        opp_increment=times.get("oppincrement"),
        opp_movestogo=counts.get("oppmovestogo") or None,
        depth=counts.get("depth"),
        nodes=None if nodes is None else max(1, nodes),
        infinite="infinite" in flags,
        ponder="ponder" in flags,
        draw_offer="draw" in flags,
    )


def format_info(info: PvLine) -> list[str]:
    """`info depth D score S pv ...` (bare integer; mates as ±(30000 - plies)) and `info time T nodes N`."""
    pv = f" pv {' '.join(info.pv)}" if info.pv else ""
    return [f"info depth {info.depth} score {info.score.value}{pv}", f"info time {info.time_ms} nodes {info.nodes}"]


def format_bestmove(result: SearchResult) -> list[str]:
    """`bestmove M [ponder P] [draw]`, or `nobestmove` when there is no move to play."""
    lines = [f"info string {result.note}"] if result.note else []
    if result.bestmove is None:
        if result.static:
            lines.append(f"info depth 0 score {result.score.value}")
        return lines + ["nobestmove"]
    line = f"bestmove {result.bestmove}"
    if result.ponder:
        line += f" ponder {result.ponder}"
    if result.offers_draw:
        line += " draw"
    return lines + [line]


class UcciSession(Session):
    """UCCI 3.0. Also accepts UCI's `setoption name N value V` form and `ucinewgame`."""

    dialect = "ucci"

    def __init__(self, engine: Engine, say: Say) -> None:
        super().__init__(engine, say)
        self.options = {option.name: option for option in ucci_options()}
        self.millis = False   # usemillisec
        self.batch = False
        self.debug = False
        self.handlers["probe"] = self.cmd_probe

    def handshake(self) -> None:
        self.say(f"id name {ENGINE_NAME}")
        self.say(f"id copyright 2026 {AUTHOR}")
        self.say(f"id author {AUTHOR}")
        for option in self.options.values():
            self.say(option.ucci_line())
        self.say("ucciok")

    def parse_go(self, args: Sequence[str]) -> SearchLimits:
        return parse_go(args, self.millis)

    def cmd_setoption(self, args: list[str]) -> None:
        command = parse_setoption(args, "setoption needs an option name, e.g. 'setoption hashsize 64'")
        key = command.name.lower()   # the UCI form `name X value Y` is read too, leniently
        if key in IGNORED_OPTIONS:
            return
        option = self.options.get(OPTION_ALIASES.get(key, key))
        if option is None:
            raise OptionError(f"No such option: {quote(command.name)}")
        self.apply(option, option.parse(command.value))

    def apply(self, option: Option, value: OptionValue) -> None:
        """Set a parsed option on the engine (or on the session, for the wire settings)."""
        name = option.name
        if name == "usemillisec":
            self.millis = bool(value)
        elif name == "batch":
            self.batch = bool(value)   # accepted; input is read during searches anyway
        elif name == "debug":
            self.debug = bool(value)
        elif name == "newgame":
            self.engine.new_game()
        elif name == "hashsize":
            self.engine.configure(hash_mb=_spin(value) or 16)
        elif name == "threads":
            self.engine.configure(threads=_spin(value) or default_threads())
        elif name == "ponder":
            self.engine.configure(ponder=bool(value))
        elif name == "evalfile":
            self.engine.configure(eval_file=value)
            self.say(f"info string {self.engine.evaluation_summary()}")
        elif name == "usennue":
            self.engine.configure(use_nnue=bool(value))
            self.say(f"info string {self.engine.evaluation_summary()}")
        elif name == "usebook":
            self.engine.configure(own_book=bool(value))
            self.say(f"info string {self.engine.book_summary()}")
        elif name == "bookfiles":
            # ElephantEye's name; one file (a list separated by ';' is read as its first file).
            self.engine.configure(book_file=str(value).split(";")[0].strip())
            self.say(f"info string {self.engine.book_summary()}")
        elif name in STRENGTH_FIELDS:
            self.engine.configure(**{STRENGTH_FIELDS[name]: value})
            self.say(f"info string {self.engine.strength_summary()}")

    def cmd_probe(self, args: list[str]) -> None:
        """`probe {fen F | startpos} [moves ...]`: the position is checked; the table is not exposed by
        the searcher, so the answer carries no entry."""
        command = parse_position(args)
        position = Position() if command.fen is None else Position(command.fen)
        for move in command.moves:
            position.push(move)
        self.say("pophash")

    def farewell(self) -> None:
        self.say("bye")

    def report_info(self, info: PvLine) -> None:
        if info.multipv == 1:
            for line in format_info(info):
                self.say(line)

    def report_bestmove(self, result: SearchResult) -> None:
        for line in format_bestmove(result):
            self.say(line)


def _spin(value: OptionValue) -> int:
    assert isinstance(value, int), value
    return value

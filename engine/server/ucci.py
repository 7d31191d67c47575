"""UCCI 3.0 (Huang Chen, xqbase): `ucci` handshake, options without the `name` keyword, times in seconds
unless `setoption usemillisec true`, bare integer scores, `nobestmove`, `banmoves`, `quit` -> `bye`.

    > ucci                                  < id ..., option usemillisec type check default false, ..., ucciok
    > setoption usemillisec true
    > position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2
    > go time 60000 increment 1000
    < info depth 9 score 21 pv h9g7 h0g2 ...
    < info time 66 nodes 98765
    < info currmove h9g7 currmovenumber 1                   (once a search has run for 3 s)
    < bestmove h9g7 ponder h0g2
    > probe fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2
    < pophash bestmove h9g7 lowerbound 21 depth 9 upperbound 21 depth 9
"""
from __future__ import annotations

from typing import Optional, Sequence

from ..search_types import CurrentMove, PvLine, SearchLimits, SearchResult, TableEntry
from .commands import CommandError, parse_int, parse_number, parse_position, quote
from .debuglog import DebugLog
from .session import LazyEngine, Say, Session

_TIME_WORDS = ("time", "increment", "opptime", "oppincrement")
_COUNT_WORDS = ("depth", "nodes", "movestogo", "oppmovestogo")

#: Standard UCCI options this engine does not have: accepted without comment (XQWizard and the league
#: simulator send some of them without reading the option list).
IGNORED_OPTIONS = frozenset((
    "promotion", "usehash", "evalapi", "idle", "pruning",
    "knowledge", "randomness", "style", "selectivity", "repetition", "drawmoves", "loadbook",
))


def parse_go(args: Sequence[str], millis: bool) -> SearchLimits:
    """The limits of a UCCI `go`: `[ponder|draw] depth N | nodes N | infinite | time T [movestogo N |
    increment I] [opptime T2 [oppmovestogo N2 | oppincrement I2]]`. Times in seconds unless `millis`.

    `depth 0` asks for the static evaluation, without a search (the move answered is the one it prefers
    one ply ahead). Raises CommandError (the whole `go` is ignored).
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


def format_info(info: PvLine, show_wdl: bool = False) -> list[str]:
    """`info depth D score S [wdl W D L] pv ...` (bare integer; mates as ±(30000 - plies); the chances
    only with `show_wdl`, the option showwdl) and `info time T nodes N`."""
    pv = f" pv {' '.join(info.pv)}" if info.pv else ""
    chances = " wdl {} {} {}".format(*info.wdl) if show_wdl and info.wdl is not None else ""
    return [f"info depth {info.depth} score {info.score.value}{chances}{pv}",
            f"info time {info.time_ms} nodes {info.nodes}"]


def format_currmove(current: CurrentMove) -> str:
    """`info currmove M currmovenumber N` (UCCI's currmove, with ElephantEye's currmovenumber)."""
    return f"info currmove {current.move} currmovenumber {current.number}"


def format_bestmove(result: SearchResult) -> list[str]:
    """`bestmove M [ponder P] [draw]`, after `info depth 0 score S pv M` for `go depth 0` (the static
    evaluation, and the move it chose), or `nobestmove` when there is no move to play."""
    if result.bestmove is None:
        return ["nobestmove"]
    static = [f"info depth 0 score {result.score.value} pv {result.bestmove}"] \
        if result.static and result.score is not None else []
    line = f"bestmove {result.bestmove}"
    if result.ponder:
        line += f" ponder {result.ponder}"
    if result.offers_draw:
        line += " draw"
    return [*static, line]


def format_pophash(entry: Optional[TableEntry]) -> str:
    """The answer to `probe`: `pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]` (an
    exact score is both bounds; scores as in `info`, mates as ±(30000 - plies)), a bare `pophash`
    without an entry."""
    if entry is None:
        return "pophash"
    words = ["pophash"]
    if entry.move is not None:
        words.append(f"bestmove {entry.move}")
    if entry.bound in ("exact", "lower"):
        words.append(f"lowerbound {entry.score.value} depth {entry.depth}")
    if entry.bound in ("exact", "upper"):
        words.append(f"upperbound {entry.score.value} depth {entry.depth}")
    return " ".join(words)


class UcciSession(Session):
    """UCCI 3.0. Also accepts UCI's `setoption name N value V` form and `ucinewgame`."""

    dialect = "ucci"
    id_fields = ("name", "copyright", "author")
    handshake_done = "ucciok"
    setoption_usage = "setoption needs an option name, e.g. 'setoption hashsize 64'"
    ignored_options = IGNORED_OPTIONS

    def __init__(self, engine: LazyEngine, say: Say, log: Optional[DebugLog] = None) -> None:
        super().__init__(engine, say, log)
        # The settings of the wire (options of the table that set them on the session).
        self.millis = False   # usemillisec
        self.batch = False
        self.debug = False
        self.handlers["probe"] = self.cmd_probe

    def parse_go(self, args: Sequence[str]) -> SearchLimits:
        return parse_go(args, self.millis)

    def cmd_probe(self, args: list[str]) -> None:
        """`probe {fen F | startpos} [moves ...]`: the transposition table's entry for that position
        (the position in force stays; a search may be running)."""
        command = parse_position(args)
        self.say(format_pophash(self.engine.probe(command.fen, command.moves)))

    def farewell(self) -> None:
        self.say("bye")

    def info_lines(self, info: PvLine) -> list[str]:
        return format_info(info, self.show_wdl) if info.multipv == 1 else []

    def currmove_lines(self, current: CurrentMove) -> list[str]:
        return [format_currmove(current)]

    def bestmove_lines(self, result: SearchResult) -> list[str]:
        return format_bestmove(result)

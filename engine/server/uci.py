"""UCI as Pikafish speaks it for Xiangqi (squares a0..i9, times in ms), plus the cyclone style (no
handshake; bare `fen`/`startpos` lines).

    > uci                                   < id name ..., option name ... lines, uciok
    > position startpos moves h2e2 h9g7
    > go wtime 60000 btime 60000 winc 1000 binc 1000
    < info depth 9 seldepth 14 multipv 1 score cp 21 nodes 98765 nps 1500000 hashfull 12 tbhits 0 time 66 pv h0g2 ...
    < info depth 10 currmove h0g2 currmovenumber 1          (once a search has run for 3 s)
    < bestmove h0g2 ponder i9h9

With `setoption name UCI_ShowWDL value true` the info lines carry the chances after the score, as
Pikafish prints them: `score cp 21 wdl 281 455 264`.
"""
from __future__ import annotations

from typing import Optional, Sequence

from ..color import Color
from ..score import Score
from ..search_types import CurrentMove, PvLine, SearchLimits, SearchResult
from .commands import CommandError, parse_int, parse_moves, quote
from .debuglog import DebugLog
from .session import LazyEngine, Say, Session

#: `go` keywords followed by a whole number of ms (clock fields) or a count.
_CLOCK_WORDS = ("wtime", "btime", "winc", "binc", "movetime")
_COUNT_WORDS = ("movestogo", "depth", "nodes", "mate")


def format_info(info: PvLine, show_wdl: bool = False) -> str:
    """`info depth D seldepth S multipv K score cp X|mate M [wdl W D L] nodes N nps R hashfull H tbhits B
    time T pv ...`, as Pikafish prints it; the chances only with `show_wdl` (UCI_ShowWDL); tbhits the
    probes of the endgame tables (0 when none: GUIs parse the field)."""
    score = f"mate {info.score.mate}" if info.score.is_mate else f"cp {info.score.value}"
    if show_wdl and info.wdl is not None:
        score += " wdl {} {} {}".format(*info.wdl)
    line = (f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} score {score} "
            f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} tbhits {info.tbhits or 0} "
            f"time {info.time_ms}")
    return line + (" pv " + " ".join(info.pv) if info.pv else "")


def format_currmove(current: CurrentMove) -> str:
    """`info depth D currmove M currmovenumber N`, as Stockfish prints it."""
    return f"info depth {current.depth} currmove {current.move} currmovenumber {current.number}"


def format_bestmove(result: SearchResult) -> list[str]:
    """`bestmove M [ponder P]`, after `info depth 0 score cp S` for the static evaluation (`go depth 0`
    from the facade; UCI's own `depth 0` searches one ply). With no move to play: `info depth 0 score
    mate 0` (the side to move has lost; `cp S` otherwise) and `bestmove (none)`; without the info line
    when there is no score (no valid position)."""
    score = None
    if result.score is not None:
        score = "mate 0" if result.score == Score.mated() else f"cp {result.score.value}"
    if result.bestmove is None:
        return ([] if score is None else [f"info depth 0 score {score}"]) + ["bestmove (none)"]
    ponder = f" ponder {result.ponder}" if result.ponder else ""
    static = [f"info depth 0 score {score} pv {result.bestmove}"] if result.static and score else []
    return [*static, f"bestmove {result.bestmove}{ponder}"]


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
    """UCI. Also accepts the UCCI forms of `setoption` (`setoption newgame`) and `banmoves`."""

    dialect = "uci"
    handshake_done = "uciok"
    setoption_usage = "setoption needs 'name <option> [value <value>]'"

    def __init__(self, engine: LazyEngine, say: Say, log: Optional[DebugLog] = None) -> None:
        super().__init__(engine, say, log)
        self.handlers["debug"] = lambda args: None
        self.handlers["register"] = lambda args: None

    def parse_go(self, args: Sequence[str]) -> SearchLimits:
        return parse_go(args, self.engine.position.turn is Color.RED)

    def info_lines(self, info: PvLine) -> list[str]:
        return [format_info(info, self.show_wdl)]

    def currmove_lines(self, current: CurrentMove) -> list[str]:
        return [format_currmove(current)]

    def bestmove_lines(self, result: SearchResult) -> list[str]:
        return format_bestmove(result)

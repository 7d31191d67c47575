"""What UCI and UCCI share on the wire, and the interface each dialect's codec fills in.

A codec turns the client's requests into command lines and the engine's lines into values of
engine.search_types (an ``info`` line a PvLine, a ``bestmove`` line the SearchResult it begins). Both dialects read and write
``position fen ... moves ...``, ``info`` and ``bestmove`` the same way; they differ in the handshake word, the
option syntax, ``go`` and the new-game command (see :mod:`.uci` and :mod:`.ucci`).

Moves are ICCS with ranks 0..9 on the client's side. ``rank_base`` is the engine's first rank: 1 for
Fairy-Stockfish under UCI, which numbers ranks 1..10; the codec converts every move both ways.
"""
from __future__ import annotations

import re
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..color import Color
from ..score import Score
from ..search_types import PvLine, SearchLimits, SearchResult, Wdl

_MOVE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")
_NO_MOVE = {"(none)", "0000", "none", "null", "(null)"}
_INFO_NUMBERS = {"depth": "depth", "seldepth": "seldepth", "multipv": "multipv", "nodes": "nodes",
                 "time": "time_ms", "nps": "nps", "hashfull": "hashfull", "tbhits": "tbhits"}


class Codec:
    """One dialect's command lines and the parsing of the engine's answers. Subclasses set the class
    attributes and implement the dialect's methods; an instance holds one engine's settings."""

    name = ""                 # "uci" or "ucci"
    handshake = ""            # the first command, answered by `id`/`option` lines and then `ok`
    ok = ""

    def __init__(self, rank_base: int = 0) -> None:
        if rank_base not in (0, 1):
            raise ValueError(f"rank_base {rank_base!r}: expected 0 or 1")
        self.rank_base = rank_base

    # -- what each dialect says its own way ---------------------------------------------------------
    @staticmethod
    def default_rank_base(id_name: Optional[str]) -> int:
        """The first rank of an engine that calls itself `id_name` in this dialect."""
        return 0

    def setup(self, advertised: Mapping[str, str], id_name: Optional[str],
              user_options: Iterable[str]) -> List[Tuple[str, str]]:
        """The options to set after the handshake, before the user's (whose names are `user_options`)."""
        return []

    def option_sent(self, name: str, value: str) -> None:
        """Note an option the client set (a codec may depend on one, like UCCI's usemillisec)."""

    def option_line(self, name: str, value: Optional[str]) -> str:
        raise NotImplementedError

    def new_game_lines(self, advertised: Mapping[str, str]) -> List[str]:
        raise NotImplementedError

    def go_line(self, side: Color, limits: SearchLimits) -> str:
        """The `go` line for the side to move, whose clock is `limits.time` (its opponent's `opp_time`).
        Raises ValueError for limits that ask for nothing."""
        raise NotImplementedError

    # -- moves ----------------------------------------------------------------------------------------
    def to_engine(self, move: str) -> str:
        """An ICCS move (ranks 0..9) in the engine's numbering."""
        return to_engine_move(move, self.rank_base)

    def from_engine(self, move: str) -> str:
        """An engine's move string as ICCS with ranks 0..9; returned unchanged when it is not a square pair."""
        return from_engine_move(move, self.rank_base)

    def position_line(self, fen: str, moves: Sequence[str]) -> str:
        fields = fen.split()
        if len(fields) >= 2 and fields[1].lower() == "r":   # some tools write r for Red; engines want w
            fields[1] = "w"
        line = "position fen " + " ".join(fields)
        if moves:
            line += " moves " + " ".join(self.to_engine(m) for m in moves)
        return line

    # -- the engine's lines ---------------------------------------------------------------------------
    def parse_info(self, line: str) -> Optional[PvLine]:
        """An `info` line as a PvLine; None for other lines, `info string`/`info message`, the lines that
        only name the move being searched (`info depth 20 currmove h2e2 currmovenumber 1`) and malformed
        ones.

        Scores are read in every form either dialect's engines print: ``score cp N``, ``score mate N`` and
        UCCI's bare ``score N`` (Fairy-Stockfish prints ``cp`` in UCCI mode too), with the chances
        ``wdl W D L`` after them when the engine gives them (UCI_ShowWDL). The words after ``string``
        are text, and everything after ``pv`` is the variation."""
        words = line.split()
        if not words or words[0] != "info" or (len(words) > 1 and words[1] in ("string", "message")):
            return None
        if "currmove" in words and "pv" not in words:
            return None
        fields: Dict[str, object] = {}
        i = 1
        try:
            while i < len(words):
                key = words[i]
                if key in ("pv", "string"):
                    if key == "pv":
                        fields["pv"] = tuple(self.from_engine(m) for m in words[i + 1:])
                    break
                if key == "score":
                    kind = words[i + 1]
                    if kind == "cp":
                        fields["score"], i = Score.from_cp(int(words[i + 2])), i + 3
                    elif kind == "mate":
                        fields["score"], i = Score.from_mate(int(words[i + 2])), i + 3
                    else:
                        fields["score"], i = Score.from_cp(int(kind)), i + 2
                    continue
                if key == "wdl":
                    win, draw, loss = (int(word) for word in words[i + 1:i + 4])   # ValueError if fewer
                    fields["wdl"], i = Wdl(win, draw, loss), i + 4
                    continue
                if key in ("lowerbound", "upperbound"):
                    fields["bound"] = key[:-5]
                elif key in _INFO_NUMBERS and i + 1 < len(words):
                    fields[_INFO_NUMBERS[key]] = int(words[i + 1])
                    i += 2
                    continue
                i += 1
        except (ValueError, IndexError):
            return None
        return PvLine(**fields)  # type: ignore[arg-type]

    def parse_bestmove(self, line: str) -> Optional[SearchResult]:
        """A `bestmove` or `nobestmove` line as the SearchResult it says (the move, ponder, resign, draw; the
        move None for nobestmove, ``(none)`` or ``0000``; a string that is not a pair of squares passed
        through unchanged, for the caller to find illegal), else None."""
        words = line.split()
        if not words or words[0] not in ("bestmove", "nobestmove"):
            return None
        best = ponder = None
        resign = draw = False
        if words[0] == "bestmove":
            rest = words[1:]
            if rest and rest[0] not in ("ponder", "draw", "resign"):
                best = rest.pop(0)
            while rest:
                token = rest.pop(0)
                if token == "ponder" and rest:
                    ponder = rest.pop(0)
                elif token == "resign":
                    resign = True
                elif token == "draw":
                    draw = True
        return SearchResult(self._move_or_none(best), self._move_or_none(ponder), resign=resign, offers_draw=draw)

    def _move_or_none(self, move: Optional[str]) -> Optional[str]:
        return None if move is None or move.lower() in _NO_MOVE else self.from_engine(move)


# -- moves in the engine's rank numbering (0..9, or 1..10 for Fairy-Stockfish under UCI) ---------------------
def to_engine_move(move: str, rank_base: int) -> str:
    """An ICCS move (ranks 0..9) in an engine's numbering, whose first rank is `rank_base`."""
    if rank_base == 0:
        return move
    m = _MOVE.match(move)
    if not m:
        return move
    return f"{m.group(1)}{int(m.group(2)) + rank_base}{m.group(3)}{int(m.group(4)) + rank_base}"


def from_engine_move(move: str, rank_base: int) -> str:
    """An engine's move string as ICCS with ranks 0..9; returned unchanged when it is not a square pair."""
    m = _MOVE.match(move.strip())
    if not m:
        return move
    r1, r2 = int(m.group(2)) - rank_base, int(m.group(4)) - rank_base
    if not (0 <= r1 <= 9 and 0 <= r2 <= 9):
        return move
    return f"{m.group(1)}{r1}{m.group(3)}{r2}"


def is_square_pair(move: str) -> bool:
    """Whether `move` has the shape of a coordinate move in either numbering (``h2e2``, ``h3e10``)."""
    return _MOVE.match(move.strip()) is not None


# -- the handshake's lines, in either dialect's syntax (`auto` reads them before it knows which) -----------
def parse_id(line: str) -> Optional[Tuple[str, str]]:
    """("name" or "author", text) of an `id` line, else None."""
    words = line.split()
    if len(words) < 2 or words[0] != "id" or words[1] not in ("name", "author"):
        return None
    return words[1], line.split(None, 2)[2].strip() if len(words) > 2 else ""


def parse_option_name(line: str) -> Optional[str]:
    """The name an `option` line advertises: UCI ``option name <words...> type ...``, UCCI ``option <name> type
    ...``. None for other lines."""
    words = line.split()
    if len(words) < 2 or words[0] != "option":
        return None
    if words[1] == "name":
        end = words.index("type") if "type" in words else len(words)
        return " ".join(words[2:end]) or None
    return words[1]


def is_fairy_stockfish(id_name: Optional[str]) -> bool:
    """Whether the engine's `id name` is Fairy-Stockfish's (whose quirks the codecs know)."""
    return "fairy-stockfish" in (id_name or "").lower()


def ms(value: float) -> int:
    """A time in whole ms, never negative."""
    return int(max(0.0, value))

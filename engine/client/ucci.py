"""UCCI 3.0, as spoken to ElephantEye and Fairy-Stockfish.

* ``setoption <name> <value>`` (spaces in a name become ``_``); ``setoption newgame`` before each game when
  the engine advertises it.
* ``go time T [movestogo N | increment I] [opptime T2 [oppincrement I2]]`` with T the side to move's clock,
  in ms after ``setoption usemillisec true`` (sent when the engine advertises ``usemillisec``), otherwise in
  whole seconds. Fairy-Stockfish reads ms in UCCI mode whether or not it advertises the option (versions
  before its PR #407 do not), so it is always sent ms.
* One search mode per ``go``: depth, then nodes, then movetime (sent as ``go time <movetime> movestogo 1``),
  then the clock. A clock without movestogo is sent with ``increment`` (0 when none) because ElephantEye reads
  a bare ``time`` as "all of it for this move".
"""
from __future__ import annotations

from typing import Iterable, List, Mapping, Optional, Tuple

from ..color import Color
from ..search_types import SearchLimits
from .codec import Codec, is_fairy_stockfish, ms


class UcciCodec(Codec):
    name = "ucci"
    handshake = "ucci"
    ok = "ucciok"

    def __init__(self, rank_base: int = 0, millisec: bool = True) -> None:
        super().__init__(rank_base)
        self.millisec = millisec            # go times in ms (else seconds)

    def setup(self, advertised: Mapping[str, str], id_name: Optional[str],
              user_options: Iterable[str]) -> List[Tuple[str, str]]:
        user = {name.lower() for name in user_options}
        lines = []
        # Matches and analyses play their own openings: an engine's book is off unless the user sets it.
        if "usebook" in advertised and "usebook" not in user:
            lines.append(("usebook", "false"))
        if "usemillisec" in advertised:
            return [("usemillisec", "true"), *lines]        # option_sent() then turns millisec on
        self.millisec = is_fairy_stockfish(id_name)
        return lines

    def option_sent(self, name: str, value: str) -> None:
        if name.lower() == "usemillisec":
            self.millisec = str(value).strip().lower() in ("true", "on", "1", "yes")

    def option_line(self, name: str, value: Optional[str]) -> str:
        line = f"setoption {name.strip().replace(' ', '_')}"
        if value is not None and value != "":
            line += f" {value}"
        return line

    def new_game_lines(self, advertised: Mapping[str, str]) -> List[str]:
        return ["setoption newgame"] if "newgame" in advertised else []

    def go_line(self, side: Color, limits: SearchLimits) -> str:
        Color.parse(side)       # not needed (the clocks are the side to move's), but a bad side is an error
        if limits.depth is not None:
            return f"go depth {int(limits.depth)}"
        if limits.nodes is not None:
            return f"go nodes {int(limits.nodes)}"
        if limits.movetime is not None:
            return f"go time {self._time(limits.movetime)} movestogo 1"
        own, opp, own_inc, opp_inc = limits.time, limits.opp_time, limits.increment, limits.opp_increment
        if own is None:
            raise ValueError("SearchLimits: give a clock, movetime, depth or nodes")
        words = ["go", "time", str(self._time(own))]
        if limits.movestogo:
            words += ["movestogo", str(int(limits.movestogo))]
        else:
            words += ["increment", str(self._time(own_inc or 0, at_least_one=False))]
        if opp is not None:
            words += ["opptime", str(self._time(opp))]
            if not limits.movestogo:
                words += ["oppincrement", str(self._time(opp_inc or 0, at_least_one=False))]
        return " ".join(words)

    def _time(self, value_ms: float, at_least_one: bool = True) -> int:
        if self.millisec:
            value = ms(value_ms)
        else:
            value = int(max(0.0, value_ms) // 1000)   # whole seconds, truncated, as the UCCI league sends them
        return max(1, value) if at_least_one else value

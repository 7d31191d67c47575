"""UCI, as spoken to Pikafish and Fairy-Stockfish.

* ``setoption name <name> value <value>``; ``ucinewgame`` before each game.
* ``go wtime btime winc binc movestogo | movetime | depth | nodes``, all in ms, wtime being Red's clock; the
  limits combine.
* An engine that advertises ``UCI_Variant`` (Fairy-Stockfish) is switched to ``xiangqi``, unless the user sets
  it. Fairy-Stockfish in UCI mode numbers ranks 1..10.
"""
from __future__ import annotations

from typing import Iterable, List, Mapping, Optional, Tuple

from ..color import Color
from ..search_types import SearchLimits
from .codec import Codec, is_fairy_stockfish, ms


class UciCodec(Codec):
    name = "uci"
    handshake = "uci"
    ok = "uciok"

    @staticmethod
    def default_rank_base(id_name: Optional[str]) -> int:
        return 1 if is_fairy_stockfish(id_name) else 0

    def setup(self, advertised: Mapping[str, str], id_name: Optional[str],
              user_options: Iterable[str]) -> List[Tuple[str, str]]:
        user = {name.lower() for name in user_options}
        lines = []
        if "uci_variant" in advertised and "uci_variant" not in user:
            lines.append(("UCI_Variant", "xiangqi"))
        # Matches and analyses play their own openings: an engine's book is off unless the user sets it.
        if "ownbook" in advertised and "ownbook" not in user:
            lines.append((advertised["ownbook"], "false"))
        return lines

    def option_line(self, name: str, value: Optional[str]) -> str:
        line = f"setoption name {name}"
        if value is not None and value != "":
            line += f" value {value}"
        return line

    def new_game_lines(self, advertised: Mapping[str, str]) -> List[str]:
        return ["ucinewgame"]

    def go_line(self, side: Color, limits: SearchLimits) -> str:
        red = Color.parse(side) is Color.RED
        own = (limits.time, limits.increment)
        opp = (limits.opp_time, limits.opp_increment)
        (red_time, red_inc), (black_time, black_inc) = (own, opp) if red else (opp, own)
        words = ["go"]
        if red_time is not None or black_time is not None:
            for key, value in (("wtime", red_time), ("btime", black_time), ("winc", red_inc), ("binc", black_inc)):
                if value is not None:
                    words += [key, str(ms(value))]
            if limits.movestogo:
                words += ["movestogo", str(int(limits.movestogo))]
        if limits.movetime is not None:
            words += ["movetime", str(max(1, ms(limits.movetime)))]
        if limits.depth is not None:
            words += ["depth", str(int(limits.depth))]
        if limits.nodes is not None:
            words += ["nodes", str(int(limits.nodes))]
        if len(words) == 1:
            raise ValueError("SearchLimits: give a clock, movetime, depth or nodes")
        return " ".join(words)

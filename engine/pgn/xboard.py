"""XBoard's dialect of Xiangqi PGN, beside its moves (those are :mod:`engine.notation.san`).

What XBoard 4.9.1 writes (observed in files it saved, ``-variant xiangqi``) and so what
``write_game(..., notation="san")`` writes:

* the chess tag roster, ``White`` for Red: ``Event Site Date Round White Black Result``; then
  ``[Variant "xiangqi"]``; for another start, ``[FEN "..."]`` and ``[SetUp "1"]``;
* the FEN with XBoard's letters for Xiangqi, ``H`` for the horse and ``E`` for the elephant (XBoard refuses
  ``N`` and ``B`` here: "Bad FEN position"), and no castling or en passant fields:
  ``rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1``;
* after each engine move a comment ``{+0.12/9 4}``: the mover's score in pawns, ``/``, the depth, then the
  time it took in seconds: left out under 0.05 s, with one decimal under 3 s (``0.7``), whole seconds
  under a minute (``4``), else ``m:ss``. A mate is scored as the engine protocol sends it, 100000 + N
  centipawns for a mate in N moves (``+1000.03``; ``-1000.03`` for being mated in 3).

Reading needs nothing of this module: tags are kept as written, the FEN reader takes ``H``/``E`` and a
missing pair of fields, and :func:`engine.notation.parse_move` reads the SAN moves.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..score import Score

#: The value of the Variant tag.
VARIANT = "xiangqi"

#: Variant tag values that mean Xiangqi (lower case); a game of any other variant is refused.
XIANGQI_VARIANTS = ("xiangqi", "chinese chess", "chinesechess", "cchess")

#: The tags written first, in this order.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

#: Centipawns of a mate in 0 moves in the engine protocol's (and so XBoard's) scores.
MATE_CP = 100000

_LETTERS = str.maketrans({"N": "H", "n": "h", "B": "E", "b": "e"})


def is_xiangqi(variant: str) -> bool:
    """Whether a Variant tag's value names Xiangqi."""
    return variant.strip().lower() in XIANGQI_VARIANTS


def xboard_fen(fen: str) -> str:
    """A FEN as XBoard writes it for Xiangqi: H/E letters, side to move, and the two counters (``0 1``
    when the FEN has none)."""
    fields = fen.split()
    board = fields[0].translate(_LETTERS)
    side = "b" if len(fields) > 1 and fields[1] == "b" else "w"
    counters = [f for f in fields[2:] if f.isdigit()][-2:] or ["0", "1"]
    if len(counters) == 1:
        counters = ["0", counters[0]]
    return " ".join([board, side, *counters])


def xboard_headers(headers: Dict[str, str], result: str, starting_fen: Optional[str]) -> List[Tuple[str, str]]:
    """The tags of a game in XBoard's order and names: ``Red`` becomes ``White`` (a ``White`` tag already
    there stays), ``Game`` and ``Format`` are dropped (the Variant tag says what they said), the FEN is
    rewritten with XBoard's letters and ``SetUp`` added."""
    tags = {name: value for name, value in headers.items()
            if name not in ("Game", "Format", "FEN", "SetUp", "Variant")}
    if "Red" in tags:
        red = tags.pop("Red")
        tags.setdefault("White", red)
    tags["Result"] = result
    out = [(name, tags.pop(name)) for name in ROSTER if name in tags]
    out.append(("Variant", VARIANT))
    if starting_fen is not None:
        out += [("FEN", xboard_fen(starting_fen)), ("SetUp", "1")]
    return out + list(tags.items())


def _seconds(seconds: float) -> str:
    tenths = int(round(seconds * 10))
    if tenths <= 0:
        return ""
    if tenths < 30:
        return f" {tenths / 10:.1f}"
    whole = int(round(seconds))
    return f" {whole}" if whole < 60 else f" {whole // 60}:{whole % 60:02d}"


def eval_comment(score: Optional[Score], depth: Optional[int], seconds: float) -> str:
    """The comment XBoard writes after an engine's move: ``+0.12/9 4``, ``-1000.03/14 0.2``. ``score`` is
    from the mover's view; without one the score is 0."""
    if score is None:
        cp = 0
    elif score.is_mate:
        mate = score.mate or 0
        cp = MATE_CP + abs(mate) if score.value > 0 else -(MATE_CP + abs(mate))
    else:
        cp = score.value
    return f"{cp / 100:+.2f}/{depth or 0}{_seconds(seconds)}"

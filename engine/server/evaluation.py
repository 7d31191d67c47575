"""The `eval` command: the static evaluation of a position, explained (Stockfish's and Pikafish's `eval`).

    > position startpos moves h2e2
    > eval
    < Evaluation: NNUE evaluation with jiangjun.jjnn (256 hidden units, a hidden layer of 16) enabled
    < Static evaluation: -52 for Black (side to move), +52 from Red's view
    < Chances (side to move): W 19.9% D 45.0% L 35.1% (material count 110, engine.wdl)
    < NNUE output: -52 (side to move's view; through the network's hidden layer, not a sum of the sides' halves)
    < NNUE piece values, from Red's view: the score lost without the piece (centipawns)
    < 9  r -907 n -249 b -107 a  -85 k      a  -77 b -123 n -277 r -905
    < ...                                    (a board, rank 9 at the top)
    < Hand-crafted evaluation (not in use; for comparison): +0 from Red's view; material Red 4177, Black 4177
    <   term (Red's view)        value
    <   material                  +0.0
    < ...                                    (one line per term, then their total)

With the network, its output is the sum of three terms (engine._core.nnue_output_parts): the output
layer's weights times the side to move's accumulator, times the other side's, and its bias (a network
with a hidden layer has no such split: its output alone is shown); and each
piece's value is what removing it from the board costs the network's score (the generals excepted).
The hand-crafted evaluation is linear in its weights (ext/eval.pxi), so its terms are each weight
times its feature (engine._core.eval_features), grouped: material, the piece-square tables, and each
other weight by its name; they add up to its score up to rounding.

The module is loaded by the first `eval`; it reads the kernel directly (which evaluation is in use
and the final score are the facade's: Engine.explain_evaluation).
"""
from __future__ import annotations

from typing import Optional

from .. import _core, wdl
from ..color import Color
from ..fen import PIECE_LETTERS
from ..position import Position
from ..score import Score

#: The hand-crafted evaluation's material weights, by name (the piece types but the general).
MATERIAL_TERMS = ("advisor", "elephant", "horse", "rook", "cannon", "pawn")
#: The first piece-square weight; all after it are piece-square values.
_FIRST_PIECE_SQUARE = _core.EVAL_WEIGHT_NAMES.index("king_mg_a0")


def explain(position: Position, final: int, network: bool, summary: str) -> list[str]:
    """The lines of `eval` for `position`: `final` is the static evaluation the search uses (side to
    move's view), `network` whether it is the network's, `summary` which evaluation that is, in words."""
    turn = position.turn
    red = final if turn is Color.RED else -final
    material = wdl.material_of(position)
    lines = [
        f"Evaluation: {summary}",
        f"Static evaluation: {final:+d} for {turn.label} (side to move), {red:+d} from Red's view",
        f"Chances (side to move): {wdl.chances(Score(final), material).text()} (material count {material}, "
        "engine.wdl)",
    ]
    if network:
        lines += network_lines(position)
    lines += hand_crafted_lines(position, in_use=not network)
    return lines


def network_lines(position: Position) -> list[str]:
    """The network's output and its terms, and the value of each piece to it."""
    board = position.kernel_board
    parts = _core.nnue_output_parts(board)
    output = _core.nnue_evaluate(board)
    if parts is None:
        lines = [f"NNUE output: {output:+d} (side to move's view; through the network's hidden layer, not a sum "
                 "of the sides' halves)"]
    else:
        own, other, bias = parts
        lines = [f"NNUE output: {output:+d} (side to move's view) = the side to move's half {own:+.1f}, "
                 f"the other side's {other:+.1f}, bias {bias:+.1f}"]
    values = piece_values(position)
    lines.append("NNUE piece values, from Red's view: the score lost without the piece (centipawns)")
    lines += grid(position, values)
    return lines


def red_network_score(board: "_core.Board") -> int:
    value = _core.nnue_evaluate(board)
    return value if board.side == 0 else -value


def piece_values(position: Position) -> dict[tuple[int, int], int]:
    """{(file, rank): the network's score from Red's view minus the same without that piece}, for every
    piece but the generals."""
    pieces = position.kernel_board.pieces()
    side = position.kernel_board.side
    whole = red_network_score(position.kernel_board)
    values = {}
    for index, (_, ptype, file, rank) in enumerate(pieces):
        if PIECE_LETTERS[ptype] == "K":
            continue
        without = _core.Board()
        without.set_up(pieces[:index] + pieces[index + 1:], side, 0)
        values[(file, rank)] = whole - red_network_score(without)
    return values


def grid(position: Position, values: dict[tuple[int, int], int]) -> list[str]:
    """A board, rank 9 at the top, each piece with its value (`R +912`), the generals and empty points
    as their letter or a dot."""
    pieces = {(file, rank): letter for file, rank, letter in _letters(position)}
    lines = []
    for rank in range(9, -1, -1):
        cells = []
        for file in range(9):
            letter = pieces.get((file, rank))
            value: Optional[int] = values.get((file, rank))
            if letter is None:
                cells.append(f"{'.':<7}")
            elif value is None:
                cells.append(f"{letter:<7}")
            else:
                cells.append(f"{letter}{value:+5d} ")
        lines.append(f"{rank}  " + "".join(cells).rstrip())
    lines.append("   " + "".join(f"{name:<7}" for name in "abcdefghi").rstrip())
    return lines


def _letters(position: Position) -> list[tuple[int, int, str]]:
    out = []
    for square, letter in position.piece_map().items():
        out.append((ord(square[0]) - ord("a"), int(square[1:]), letter))
    return out


def hand_crafted_terms(position: Position) -> dict[str, float]:
    """The hand-crafted evaluation's terms from Red's view: material, the piece-square tables, and each
    other weight by its name (weight times feature)."""
    features = _core.eval_features(position.kernel_board)
    weights = _core.eval_weights()
    sign = 1.0 if position.turn is Color.RED else -1.0
    names = _core.EVAL_WEIGHT_NAMES
    terms = {"material": 0.0, "piece-square tables": 0.0}
    for index, (name, weight, feature) in enumerate(zip(names, weights, features)):
        value = sign * weight * feature
        if name in MATERIAL_TERMS:
            terms["material"] += value
        elif index >= _FIRST_PIECE_SQUARE:
            terms["piece-square tables"] += value
        else:
            terms[name.replace("_", " ")] = value
    return terms


def side_material(position: Position) -> dict[Color, int]:
    """Each side's material by the hand-crafted evaluation's piece values."""
    weights = dict(zip(_core.EVAL_WEIGHT_NAMES, _core.eval_weights()))
    value_of = {"A": weights["advisor"], "B": weights["elephant"], "N": weights["horse"], "R": weights["rook"],
                "C": weights["cannon"], "P": weights["pawn"], "K": 0}
    totals = {Color.RED: 0, Color.BLACK: 0}
    for letter in position.piece_map().values():
        totals[Color.RED if letter.isupper() else Color.BLACK] += value_of[letter.upper()]
    return totals


def hand_crafted_lines(position: Position, in_use: bool) -> list[str]:
    value = _core.hand_crafted_evaluation(position.kernel_board)
    red = value if position.turn is Color.RED else -value
    material = side_material(position)
    lines = [f"Hand-crafted evaluation{'' if in_use else ' (not in use; for comparison)'}: {red:+d} from "
             f"Red's view; material Red {material[Color.RED]}, Black {material[Color.BLACK]}",
             "  term (Red's view)        value"]
    terms = hand_crafted_terms(position)
    for name, term in terms.items():
        lines.append(f"  {name:<22} {term + 0.0:+7.1f}")    # + 0.0: no "-0.0"
    lines.append(f"  {'total':<22} {sum(terms.values()) + 0.0:+7.1f}")
    return lines

"""The distance to conversion (ext/tb_dtc.pxi) and the natural limit: the generator's DTC against an
independent solver (forward, level by level, over the kernel's Board) for a limit lowered so that some
wins run past it; and, with the shipped tables and the real limit, the probe, the library's choice of
moves and a game played out by them that the limit cannot draw."""
import pytest

from engine import Position, _core
from engine._core import TB_VALUE_MAX_DTM
from engine.color import Color
from engine.fen import format_board
from engine.tablebase import SHIPPED_DIRECTORY
from engine.tablebase.build import load_table, new_table, table_path
from engine.tablebase.material import Material
from engine.tablebase.probe import Tablebase
from engine.tablebase.values import TB_DTC_NO_VALUE, TB_NATURAL_LIMIT, TableValue, Wdl
from support.tb_points import legal_positions, successors


def generate_in_memory(names, limit):
    """Tables generated in memory, each after those its captures lead to, for a natural limit of `limit`."""
    tables = {}
    for name in names:
        material = Material.parse(name)
        table = new_table(material)
        for side, ptype, after in material.captures():
            canon, flipped = after.canonical()
            table.set_subtable(side, ptype, tables[canon] if canon.has_attackers else None, flipped)
        table.generate(None, limit)
        tables[material] = table
    return tables


def entry_of(tables, pieces, side):
    """(value, dtc) of a position from in-memory tables; None when no attacker is left."""
    material, flipped = Material.of_pieces(pieces).canonical()
    if not material.has_attackers:
        return None
    board = _core.Board()
    board.set_up(list(pieces), side, 0)
    index, table_side = tables[material].index_of(board, flipped)
    return tables[material].value(index, table_side), tables[material].dtc(index, table_side)


def solve_dtc(material, tables, limit):
    """{(pieces, side): DTC or None} for the order-0 results of a table, by levels: a mate is 0; a win is d
    when a move reaches the opponent's loss at d - 1 (or captures into a position within the limit, d = 1);
    a loss is d when every move is settled (a capture within the limit: 1) and the largest is d."""
    moves, dtc = {}, {}
    for key in legal_positions(material):
        value, _ = entry_of(tables, *key)
        fields = TableValue.of_entry(value) if value <= TB_VALUE_MAX_DTM else None
        if fields is None:
            continue                                  # a draw or a ruled result: no DTC
        found = []
        for after, pieces, capture in successors(*key):
            if capture:
                sub = entry_of(tables, pieces, 1 - key[1])
                clean = not after.legal_moves() if sub is None else sub[1] != TB_DTC_NO_VALUE
                found.append(("capture", clean, sub is not None and sub[0] % 2 == 0 and sub[0] <= TB_VALUE_MAX_DTM))
            else:
                after_value, _ = entry_of(tables, pieces, 1 - key[1])
                found.append(("quiet", (pieces, 1 - key[1]), after_value <= TB_VALUE_MAX_DTM and after_value % 2 == 0))
        moves[key] = (fields.wdl, found)
        if not found:
            dtc[key] = 0
    for d in range(1, limit + 1):
        settled = {}
        for key, (wdl, found) in moves.items():
            if key in dtc:
                continue
            if wdl is Wdl.WIN:
                if any(lost and (kind == "capture" and target and d == 1 or kind == "quiet" and dtc.get(target) == d - 1)
                       for kind, target, lost in found):
                    settled[key] = d
            else:
                reached = [1 if target else None for kind, target, _ in found if kind == "capture"]
                reached += [None if dtc.get(target) is None else dtc[target] + 1
                            for kind, target, _ in found if kind == "quiet"]
                if None not in reached and max(reached) == d:
                    settled[key] = d
        dtc.update(settled)
    return {key: dtc.get(key) for key in moves}


@pytest.mark.parametrize("names, limit", [(["KNK"], 7), (["KPK"], 9),
                                          pytest.param(["KRK", "KRKA"], 5, marks=pytest.mark.slow)])
def test_the_distance_to_conversion_agrees_with_a_forward_solver(names, limit):
    tables = generate_in_memory(names, limit)
    material = Material.parse(names[-1])
    solved = solve_dtc(material, tables, limit)
    assert any(value is None for value in solved.values()), "the limit should cut some wins"
    for key, expected in solved.items():
        _, dtc = entry_of(tables, *key)
        assert dtc == (TB_DTC_NO_VALUE if expected is None else expected), (sorted(key[0]), key[1])
    assert tables[material].verify() == (0, None)


@pytest.mark.slow
def test_captures_into_positions_past_the_limit_do_not_convert():
    """KNKA at a limit of 12 plies: some KNK positions its captures reach are past the limit themselves."""
    tables = generate_in_memory(["KNK", "KNKA"], 12)
    solved = solve_dtc(Material.parse("KNKA"), tables, 12)
    for key, expected in solved.items():
        assert entry_of(tables, *key)[1] == (TB_DTC_NO_VALUE if expected is None else expected)


def test_a_mate_within_the_limit_always_has_a_distance_to_conversion():
    """DTM <= 120 means DTC <= DTM: the shipped tables (whose mates are all within the limit) have no win
    or loss by mates without one."""
    material = Material.parse("KRKAABB")
    table = load_table(table_path(SHIPPED_DIRECTORY, material), material)
    for side in table.statistics():
        assert side["win_beyond_limit"] == side["loss_beyond_limit"] == 0 and 0 < side["longest_dtc"] <= 63


def knka_win_converting_first():
    """A KNKA position, Red to move, whose next capture comes well before its mate: (FEN without counters,
    DTM, DTC)."""
    material = Material.parse("KNKA")
    table = load_table(table_path(SHIPPED_DIRECTORY, material), material)
    best = max((table.value(i, 0) - table.dtc(i, 0), i) for i in range(table.size)
               if table.value(i, 0) <= TB_VALUE_MAX_DTM and table.value(i, 0) % 2 == 1)
    index = best[1]
    return format_board(table.position_of(index)) + " w - -", table.value(index, 0), table.dtc(index, 0)


def test_the_probe_trusts_a_win_whose_capture_comes_before_the_limit():
    board_fen, dtm, dtc = knka_win_converting_first()
    assert dtc < dtm
    material = Material.parse("KNKA")
    probe = _core.ProbeTables([load_table(table_path(SHIPPED_DIRECTORY, m), m)
                               for m in (material, Material.parse("KNK"))])
    fresh = Position(f"{board_fen} 0 1").kernel_board
    assert probe.probe(fresh) == (1, dtm)
    converting = Position(f"{board_fen} {TB_NATURAL_LIMIT - dtc} 1").kernel_board
    assert probe.probe(converting) == (1, dtc)                      # only the capture fits: still a win
    assert probe.probe(Position(f"{board_fen} {TB_NATURAL_LIMIT - dtc + 1} 1").kernel_board) is None


def test_the_tables_choice_wins_before_the_limit_where_the_quickest_mate_would_not():
    board_fen, dtm, dtc = knka_win_converting_first()
    position = Position(f"{board_fen} {TB_NATURAL_LIMIT - dtc} 1")
    tablebase = Tablebase([SHIPPED_DIRECTORY])
    first_move, first_value = tablebase.best_moves(position)[0]
    assert first_value.wdl is Wdl.WIN and first_value.dtc == dtc and first_value.sure_within(dtc)
    for _ply in range(2 * TB_NATURAL_LIMIT):           # both sides play the table's first choice
        if position.outcome() is not None:
            break
        position.push(tablebase.best_moves(position)[0][0])
    outcome = position.outcome()
    assert outcome is not None and outcome.winner is Color.RED, (first_move, position.fen())


def test_a_value_says_when_the_limit_may_draw_it():
    cursed = TableValue(Wdl.WIN, 125)                    # a mate past the limit, no capture before it
    assert cursed.beyond_limit and not cursed.sure_within(TB_NATURAL_LIMIT)
    assert "natural limit may draw it" in str(cursed)
    converting = TableValue(Wdl.WIN, 125, dtc=9)
    assert not converting.beyond_limit and converting.sure_within(9) and not converting.sure_within(8)
    assert "a capture in 9 plies" in str(converting)
    assert TableValue(Wdl.LOSS, 8, dtc=8).after_move() == TableValue(Wdl.WIN, 9, dtc=9)
    assert TableValue(Wdl.LOSS, 8, dtc=8).after_move(capture=True) == TableValue(Wdl.WIN, 9, dtc=1)
    assert TableValue(Wdl.LOSS, 130).after_move(capture=True).dtc is None

"""The generator (ext/tb_gen.pxi) against an independent solver: every legal position of a small ending,
enumerated by hand-written point lists and solved by forward minimax level by level over the kernel's
Board (no index, no un-moves), has the table's WDL and DTM. And the verifier finds planted errors."""

import pytest

from engine import _core
from engine._core import TB_VALUE_DRAW_RULES
from engine.tablebase.build import load_table, table_path
from engine.tablebase.material import Material
from engine.tablebase.values import DRAW_ENTRY, TableValue, Wdl
from support.tb_points import assert_marks_hold, legal_positions, safe_sides, single_kind_sides, successors


def solve(material, value_elsewhere):
    """{(pieces, side): DTM in plies, None for a draw}, solved forwards by distance levels."""
    moves_of = {key: [((pieces, 1 - key[1]), capture) for _board, pieces, capture in successors(*key)]
                for key in legal_positions(material)}
    fixed = {after: value_elsewhere(*after) for moves in moves_of.values() for after, capture in moves if capture}
    value = {}
    distance, last_change = 0, 0
    while distance <= last_change + 2 + max([v for v in fixed.values() if v is not None] + [0]):
        for key, moves in moves_of.items():
            if key in value:
                continue
            known = [fixed[after] if capture else value.get(after) for after, capture in moves]
            wins = any(v is not None and v % 2 == 0 and v + 1 == distance for v in known)
            losing = [v + 1 for v in known if v is not None and v % 2 == 1]
            if wins or (len(losing) == len(moves) and max(losing, default=0) == distance):
                value[key] = distance
                last_change = distance
        distance += 1
    return {key: value.get(key) for key in moves_of}


def probe_in_memory(tables, pieces, side):
    """A position's entry from in-memory tables (None: no attacker left, draw or no legal move)."""
    material, flipped = Material.of_pieces(pieces).canonical()
    board = _core.Board()
    board.set_up(list(pieces), side, 0)
    if not material.has_attackers:
        return None if board.legal_moves() else 0
    index, table_side = tables[material].index_of(board, flipped)
    entry = tables[material].value(index, table_side)
    return None if TableValue.of_entry(entry).wdl is Wdl.DRAW else entry


def loaded(table_dir, *names):
    return {Material.parse(n): load_table(table_path(table_dir, Material.parse(n)), Material.parse(n)) for n in names}


@pytest.mark.parametrize("name", ["KRK", "KNK", "KCK", "KPK"])
def test_every_position_agrees_with_forward_minimax(table_dir, name):
    tables = loaded(table_dir, name)
    solved = solve(Material.parse(name), lambda pieces, side: probe_in_memory(tables, pieces, side))
    for (pieces, side), dtm in solved.items():
        assert probe_in_memory(tables, pieces, side) == dtm, (sorted(pieces), side)


@pytest.mark.slow
def test_krka_agrees_with_forward_minimax(table_dir):
    tables = loaded(table_dir, "KRK", "KRKA")
    solved = solve(Material.parse("KRKA"), lambda pieces, side: probe_in_memory(tables, pieces, side))
    for (pieces, side), dtm in solved.items():
        assert probe_in_memory(tables, pieces, side) == dtm, (sorted(pieces), side)


@pytest.mark.parametrize("name", ["KRK", "KNK", "KCK", "KPK", "KRKA"])
def test_every_entry_follows_from_its_successors(table_dir, name):
    material = Material.parse(name)
    table = load_table(table_path(table_dir, material), material)
    for side, ptype, after in material.captures():
        canon, flipped = after.canonical()
        table.set_subtable(side, ptype, loaded(table_dir, canon.name)[canon] if canon.has_attackers else None,
                           flipped)
    assert table.verify() == (0, None)


def test_the_verifier_finds_a_planted_error(table_dir):
    material = Material.parse("KRK")
    table = load_table(table_path(table_dir, material), material)
    table.set_subtable(0, 4, None, False)
    data = bytearray(table.values_bytes(0))
    index = next(i for i in range(table.size) if table.value(i, 0) == 3)
    data[2 * index:2 * index + 2] = (5).to_bytes(2, "little")     # a win in 3 claimed to take 5 plies
    table.load_values(0, bytes(data))
    bad, _where = table.verify()
    assert bad >= 1      # the entry itself, and its predecessors whose distance it no longer explains


def test_known_results(table_dir):
    """The chariot and the horse mate a bare general from every position; a lone cannon never can; a
    soldier wins most positions but not all (docs/tablebases.md)."""
    stats = {name: loaded(table_dir, name)[Material.parse(name)].statistics() for name in ("KRK", "KNK", "KCK", "KPK")}
    assert stats["KRK"][0]["draw"] == 0 and stats["KRK"][0]["loss"] == 0
    assert stats["KNK"][0]["draw"] == 0 and stats["KNK"][0]["loss"] == 0
    assert stats["KCK"][0]["win"] == 0 and stats["KCK"][1]["loss"] == 0
    assert 0 < stats["KPK"][0]["draw"] < stats["KPK"][0]["win"]


@pytest.mark.parametrize("name, subtables", [("KPKA", ["KPK"]), ("KNKA", ["KNK"])])
def test_the_safe_sides_of_each_draw_hold(table_dir, name, subtables):
    """Where a draw's entry calls a side safe (a side with more than one kind: the exposure bound decides
    the others'), that side has a capture or a move that neither checks nor chases (the kernel's chase
    test) into a draw where it is safe again when it is to move, and every move of the opponent into a
    draw keeps it safe otherwise: so it never has to check or chase to hold it."""
    tables = loaded(table_dir, name, *subtables)
    checked_sides = {0, 1} - single_kind_sides(Material.parse(name))
    board = _core.Board()
    checked = 0
    for pieces, side in legal_positions(Material.parse(name)):
        safe = safe_sides(tables, pieces, side)
        if safe is None:
            continue
        safe &= checked_sides
        checked += bool(safe)
        board.set_up(list(pieces), side, 0)
        assert_marks_hold(tables, board, side, safe, (sorted(pieces), side))
    assert checked > 0 and checked_sides == {0}        # the attacker; the defender has one kind


@pytest.mark.parametrize("name", ["KPKA", "KNKA"])
def test_no_draw_of_a_one_attacker_ending_is_marked(table_dir, name):
    """The defender's one kind is a chase of the attacker, and the exposure bound finds it never exposed:
    the opponent cannot hold it to that chase for ever, so every draw is a draw under the rules."""
    for side in loaded(table_dir, name)[Material.parse(name)].statistics():
        assert side["draw"] > 0 and side["draw_rules"] == 0


def test_the_verifier_finds_a_draw_wrongly_called_safe(table_dir):
    """KNKA: the defender's draws with it to move marked at risk, so that its draws with the attacker to
    move, still called safe, lead nowhere safe: the exposure bound's check finds them."""
    material = Material.parse("KNKA")
    table = load_table(table_path(table_dir, material), material)
    table.set_subtable(1, 1, loaded(table_dir, "KNK")[Material.parse("KNK")], False)   # Red takes the advisor
    table.set_subtable(0, 3, None, False)                                                 # Black takes the horse
    assert table.verify() == (0, None)
    data = bytearray(table.values_bytes(1))
    for index in range(table.size):
        if table.value(index, 1) == DRAW_ENTRY:
            data[2 * index:2 * index + 2] = (TB_VALUE_DRAW_RULES | 2).to_bytes(2, "little")
    table.load_values(1, bytes(data))
    bad, (index, side) = table.verify()
    assert bad > 0 and side == 0 and table.value(index, 0) == DRAW_ENTRY


def test_a_table_built_by_several_threads_is_the_one_built_by_one(tmp_path):
    """The passes shared by threads (ext/tb_share.pxi) write every value and distance to conversion as one
    thread does: KRKN (437,400 entries per side, large enough to be shared; with rulings), by 1 and 3."""
    from engine.tablebase import build_tables

    arrays = {}
    for threads in (1, 3):
        directory = tmp_path / str(threads)
        build_tables(["KRKN"], directory, threads=threads)
        material = Material.parse("KRKN")
        table = load_table(table_path(directory, material), material)
        arrays[threads] = [bytes(array(side)) for array in (table.values_bytes, table.dtc_bytes) for side in (0, 1)]
    assert arrays[1] == arrays[3]

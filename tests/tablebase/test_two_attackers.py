"""Two-attacker endings, small ones: KPKP (symmetric material, one table) and KNKP, whose captures lead to
a colour-flipped sub-table (KKP is KPK with the colours swapped). Built and verified, then probed on
random positions and their colour flips."""
import random

import pytest

from engine import Position
from engine.errors import InvalidFenError
from engine.fen import format_board
from engine.tablebase import Wdl, build_tables, open_tablebase
from engine.tablebase.material import flip_pieces
from support.tb_points import assert_marks_hold, safe_sides


@pytest.fixture(scope="module")
def two_attacker_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("two-attackers")
    reports = build_tables(["KPKP", "KNKP"], directory, verify=True)
    assert [r.name for r in reports] == ["KPK", "KPKP", "KNK", "KNKP"]
    return directory


def random_positions(tb_dir, name, count, rng):
    from engine.tablebase.build import load_table, table_path
    from engine.tablebase.material import Material

    material = Material.parse(name)
    table = load_table(table_path(tb_dir, material), material)
    found = 0
    while found < count:
        index, side = rng.randrange(table.size), rng.randrange(2)
        pieces = table.position_of(index)
        if pieces is None:
            continue
        try:
            yield pieces, Position(f"{format_board(pieces)} {'wb'[side]} - - 0 1")
        except InvalidFenError:       # the side not to move in check
            continue
        found += 1


@pytest.mark.parametrize("name", ["KPKP", "KNKP"])
def test_the_colour_flip_has_the_same_value_with_the_sides_at_risk_swapped(two_attacker_dir, name):
    tb = open_tablebase(two_attacker_dir)
    rng = random.Random(name)
    for pieces, position in random_positions(two_attacker_dir, name, 300, rng):
        value = tb.probe(position)
        flipped_pieces = flip_pieces(pieces)
        side = "bw"[position.kernel_board.side]
        flipped = tb.probe(Position(f"{format_board(flipped_pieces)} {side} - - 0 1"))
        assert (flipped.wdl, flipped.plies) == (value.wdl, value.plies), position.fen()
        assert flipped.at_risk == tuple(sorted(1 - s for s in value.at_risk)), position.fen()


def test_both_sides_can_win(two_attacker_dir):
    from engine.tablebase.fileformat import TableFile

    red, black = TableFile(two_attacker_dir / "KNKP.jjtb").header["statistics"]
    assert red["win"] and red["loss"] and black["win"] and black["loss"]


def test_a_draw_the_rules_might_change_names_the_side_at_risk(two_attacker_dir):
    """KNKP: both sides can check and chase, so the marks stay where a side might have to."""
    from engine.tablebase.build import load_table
    from engine.tablebase.material import Material
    from engine.tablebase.values import DRAW_RULES_ENTRY

    table = load_table(two_attacker_dir / "KNKP.jjtb", Material.parse("KNKP"))
    index = next(i for i in range(table.size) if table.value(i, 0) == DRAW_RULES_ENTRY | 2)
    position = Position(f"{format_board(table.position_of(index))} w - - 0 1")
    value = open_tablebase(two_attacker_dir, shipped=False).probe(position)
    assert value.wdl is Wdl.DRAW and value.at_risk == (1,)
    assert "black may be forced" in str(value)
    assert open_tablebase(two_attacker_dir, shipped=False).probe(position.mirror()).at_risk == (0,)


def test_the_verifier_finds_a_draw_wrongly_called_safe(two_attacker_dir):
    from engine.tablebase.build import load_table
    from engine.tablebase.material import Material
    from engine.tablebase.values import DRAW_ENTRY, DRAW_RULES_ENTRY

    tables = {name: load_table(two_attacker_dir / f"{name}.jjtb", Material.parse(name)) for name in ("KNK", "KPK", "KNKP")}
    table = tables["KNKP"]
    for side, ptype, after in Material.parse("KNKP").captures():
        canon, flipped = after.canonical()
        table.set_subtable(side, ptype, tables[canon.name], flipped)
    assert table.verify() == (0, None)
    index = next(i for i in range(table.size) if table.value(i, 0) & ~3 == DRAW_RULES_ENTRY)
    data = bytearray(table.values_bytes(0))
    data[2 * index:2 * index + 2] = DRAW_ENTRY.to_bytes(2, "little")
    table.load_values(0, bytes(data))
    assert table.verify() == (1, (index, 0))


@pytest.mark.slow
def test_the_marks_of_knkpa_hold_where_both_sides_can_be_at_risk(tmp_path):
    """KNKPA: both sides can be at risk, and Black's capture of the horse leads to KPAK colour-flipped.
    On sampled draws, each side called safe is safe by its successors' marks (the kernel's chase test)."""
    from engine.tablebase.build import load_table, table_path
    from engine.tablebase.material import Material, dependencies

    build_tables(["KNKPA"], tmp_path, verify=True)
    tables = {m: load_table(table_path(tmp_path, m), m) for m in dependencies(Material.parse("KNKPA"))}
    rng = random.Random(5)
    risks = set()
    checked = 0
    for pieces, position in random_positions(tmp_path, "KNKPA", 3000, rng):
        side = position.kernel_board.side
        safe = safe_sides(tables, frozenset(pieces), side)
        if safe is None:
            continue
        risks |= {0, 1} - safe
        assert_marks_hold(tables, position.kernel_board, side, safe, position.fen())
        checked += 1
    assert checked > 1000 and risks == {0, 1}

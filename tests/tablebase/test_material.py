"""Ending names, their canonical form and the sub-tables they depend on (engine.tablebase.material)."""
import pytest

from engine.tablebase import Material, UnknownEndingError, canonical_name
from engine.tablebase.material import dependencies, flip_pieces, mirror_pieces


@pytest.mark.parametrize("name, canonical", [
    ("KRKAABB", "KRKAABB"), ("KAABBKR", "KRKAABB"), ("KNPKAABB", "KNPKAABB"), ("KAABBKPN", "KNPKAABB"),
    ("KRKNA", "KRKNA"), ("KNAKR", "KRKNA"), ("KRKR", "KRKR"), ("krk", "KRK"), ("KCKNA", "KCKNA"),
])
def test_canonical_names(name, canonical):
    assert canonical_name(name) == canonical


def test_a_fen_names_its_material():
    assert canonical_name("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1") == "KRK"
    assert canonical_name("3k5/4r4/9/9/9/9/9/9/4A4/4K4 w - - 0 1") == "KRKA"   # Black is the stronger side


def test_symmetric_material_is_one_table():
    material = Material.parse("KRKR")
    assert material.is_symmetric and material.canonical() == (material, False)


@pytest.mark.parametrize("bad", ["KRRRK", "KK K", "RKR", "KRKAAA", "KPPPPPPK", "KRXK", "", "K"])
def test_unknown_endings_are_refused(bad):
    with pytest.raises(UnknownEndingError):
        Material.parse(bad)


def test_dependencies_come_first_and_drawn_materials_are_left_out():
    order = [m.name for m in dependencies(Material.parse("KRKA"))]
    assert order == ["KRK", "KRKA"]        # KKA (no attacker) needs no table
    order = [m.name for m in dependencies(Material.parse("KRKNA"))]
    assert order[-1] == "KRKNA" and set(order) == {"KNK", "KNAK", "KRK", "KRKN", "KRKA", "KRKNA"}
    assert order.index("KNK") < order.index("KNAK") < order.index("KRKNA")


def test_flip_and_mirror_are_involutions():
    pieces = [(0, 0, 4, 0), (0, 4, 1, 7), (1, 0, 3, 9), (1, 1, 4, 8)]
    assert flip_pieces(flip_pieces(pieces)) == pieces
    assert mirror_pieces(mirror_pieces(pieces)) == pieces
    assert flip_pieces(pieces)[1] == (1, 4, 1, 2)
    assert mirror_pieces(pieces)[1] == (0, 4, 7, 7)

"""The set of item 3 (engine.tablebase.catalog): which endings, their names, sizes and memory, the 2 GiB rule."""
from engine.tablebase import canonical_name
from engine.tablebase.build import BYTES_PER_ENTRY, PROCESS_BYTES, SUB_TABLE_BYTES_PER_ENTRY, index_size
from engine.tablebase.catalog import MEMORY_BUDGET, candidates, catalog, left_out, the_set
from engine.tablebase.material import ADVISOR, ELEPHANT, Material
from engine.tablebase.shipped import shipped_names


def test_the_candidates_are_every_material_of_one_or_two_attackers():
    # 8 kinds of attacker (4 types, 2 sides): 8 singles and 36 pairs; 3^4 defences; colour flips
    # counted once, except the 4 x 9 materials that are their own flip (one attacker each, equal defences).
    materials = candidates()
    assert len(materials) == (44 * 81 + 4 * 9) // 2 == 1800
    assert len({m.name for m in materials}) == 1800
    for material in materials:
        assert material.red.attackers + material.black.attackers in (1, 2)
        assert all(side.counts[ADVISOR] <= 2 and side.counts[ELEPHANT] <= 2 for side in (material.red, material.black))
        assert canonical_name(material.name) == material.name


def test_the_set_is_what_fits_in_the_budget():
    entries = catalog()
    assert [entry.material for entry in entries] == candidates()
    kept = {entry.name for entry in the_set()}
    for entry in entries:
        assert entry.entries == index_size(entry.material)
        subs = sum(index_size(Material.parse(name)) for name in entry.sub_tables)
        assert entry.peak_bytes == int(BYTES_PER_ENTRY * entry.entries + SUB_TABLE_BYTES_PER_ENTRY * subs) + PROCESS_BYTES
        assert entry.in_set == (entry.peak_bytes <= MEMORY_BUDGET)   # no table needs one bigger than itself
        assert entry.in_set == (entry.name in kept)
    assert all("GiB budget" in entry.why_left_out for entry in left_out())
    assert len(the_set()) + len(left_out()) == 1800


def test_the_set_holds_its_sub_tables_before_the_tables_that_need_them():
    seen = set()
    for entry in the_set():
        assert all(name in seen for name in entry.sub_tables), entry.name
        seen.add(entry.name)
    assert set(shipped_names()) <= seen


def test_known_endings_in_and_out():
    names = {entry.name: entry for entry in catalog()}
    for inside in ("KRK", "KRKAABB", "KNPKAABB", "KRRKAABB", "KRKR", "KPKP"):
        assert names[inside].in_set, inside
    # Wu & Beal's cannon, soldier, advisor and elephant against the full defence: about 12 GiB.
    assert not names["KCPABKAABB"].in_set and "12.33 GiB" in names["KCPABKAABB"].why_left_out
    assert not names["KRAABBKRAABB"].in_set

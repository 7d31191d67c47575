"""The table file (engine.tablebase.fileformat): what it records, and that a damaged, truncated or foreign
file is refused with a clear error and never used."""
import shutil

import pytest

from engine.tablebase import DamagedTableError, open_tablebase
from engine.tablebase.build import build_tables, load_table
from engine.tablebase.fileformat import FORMAT_VERSION, MAGIC, TableFile
from engine.tablebase.material import Material
from engine import Position

KRK_FEN = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"


@pytest.fixture
def krk_copy(table_dir, tmp_path):
    path = tmp_path / "KRK.jjtb"
    shutil.copy(table_dir / "KRK.jjtb", path)
    return path


def test_header_records_rules_metric_material_and_counts(table_dir):
    header = TableFile(table_dir / "KRKA.jjtb").header
    assert header["format_version"] == FORMAT_VERSION and header["index_scheme"] == 1
    assert header["material"] == "KRKA" and header["sides"] == [0, 1]
    assert header["metric"] == "dtm-plies" and header["rules"]["rule_set"] == "asian"
    assert "distance to conversion" in header["rules"]["move_limit"] and "chase" in header["rules"]["cycles"]
    assert header["dtc_limit"] == 120 and [section[0] for section in header["sections"]] == ["values"] * 2 + ["dtc"] * 2
    red = header["statistics"][0]
    assert red["win"] > 0 and red["longest"] % 2 == 1 and Position(red["longest_fen"])
    table = load_table(table_dir / "KRKA.jjtb", Material.parse("KRKA"))
    assert tuple(side["positions"] for side in header["statistics"]) == table.count_legal()
    assert "mirror" in header["index"]


def test_a_file_of_an_older_format_is_refused_and_built_again(krk_copy):
    _corrupt(krk_copy, 8, FORMAT_VERSION - 1)           # the version before the distance to conversion
    with pytest.raises(DamagedTableError, match="older jiangjun.*build it again"):
        TableFile(krk_copy)
    reports = build_tables(["KRK"], krk_copy.parent)
    assert not reports[0].reused and TableFile(krk_copy).header["format_version"] == FORMAT_VERSION


def test_the_loaded_table_equals_the_built_one(table_dir):
    material = Material.parse("KRKA")
    again = build_tables(["KRKA"], table_dir)          # reused from disk, not rebuilt
    assert [report.reused for report in again] == [True, True]
    table = load_table(table_dir / "KRKA.jjtb", material)
    assert table.statistics() == list(again[-1].statistics)


def _corrupt(path, at, value=None):
    data = bytearray(path.read_bytes())
    data[at] = (data[at] ^ 0x55) if value is None else value
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("where, message", [
    (0, "wrong magic"), (8, "format version"), (20, "header's checksum"), (-40, "file's checksum"),
])
def test_a_damaged_file_is_refused(krk_copy, where, message):
    _corrupt(krk_copy, where)
    with pytest.raises(DamagedTableError, match=message):
        TableFile(krk_copy)
    with pytest.raises(DamagedTableError):
        open_tablebase(krk_copy.parent).probe(Position(KRK_FEN))


@pytest.mark.parametrize("keep", [0, 10, 100, -1])
def test_a_truncated_file_is_refused(krk_copy, keep):
    data = krk_copy.read_bytes()
    krk_copy.write_bytes(data[:keep] if keep >= 0 else data[:-1])
    with pytest.raises(DamagedTableError, match="truncated|checksum"):
        TableFile(krk_copy)


def test_a_foreign_file_is_refused(tmp_path):
    foreign = tmp_path / "KRK.jjtb"
    foreign.write_bytes(b"Syzygy or anything else" * 10)
    with pytest.raises(DamagedTableError, match="magic"):
        TableFile(foreign)


def test_another_materials_file_is_refused(table_dir, tmp_path):
    impostor = tmp_path / "KNK.jjtb"
    shutil.copy(table_dir / "KRK.jjtb", impostor)
    with pytest.raises(DamagedTableError, match="holds KRK"):
        load_table(impostor, Material.parse("KNK"))


def test_a_damaged_file_is_built_again(table_dir, tmp_path):
    shutil.copy(table_dir / "KRK.jjtb", tmp_path / "KRK.jjtb")
    _corrupt(tmp_path / "KRK.jjtb", -40)
    messages = []
    reports = build_tables(["KRK"], tmp_path, progress=messages.append)
    assert not reports[0].reused and any("building it again" in m for m in messages)
    TableFile(tmp_path / "KRK.jjtb")


def test_writing_leaves_no_temporary_file(tmp_path):
    build_tables(["KRK"], tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["KRK.jjtb"]
    assert (tmp_path / "KRK.jjtb").read_bytes().startswith(MAGIC)

"""The library (engine.tablebase): probe_wdl, probe_dtm, best_moves and their errors."""
import pytest

from engine import Position
from engine.tablebase import MissingTableError, Tablebase, TablebaseError, Wdl, open_tablebase
from engine.tablebase.shipped import shipped_names

KRK = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"


def test_probe_a_won_position(table_dir):
    tb = open_tablebase(table_dir)
    position = Position(KRK)
    assert tb.probe_wdl(position) is Wdl.WIN
    dtm = tb.probe_dtm(position)
    assert dtm > 0 and dtm % 2 == 1


def test_the_colour_flipped_position_has_the_same_value(table_dir):
    tb = open_tablebase(table_dir)
    for fen in (KRK, "4k4/9/3a5/9/9/9/9/9/2R6/3K5 b - - 0 1", "5k3/9/9/2P6/9/9/9/9/9/4K4 w - - 0 1"):
        position = Position(fen)
        assert tb.probe(position.mirror()) == tb.probe(position)


def test_best_moves_lists_every_move_best_first_and_agrees_with_the_probe(table_dir):
    tb = open_tablebase(table_dir)
    position = Position(KRK)
    moves = tb.best_moves(position)
    assert sorted(m for m, _ in moves) == sorted(position.legal_moves())
    best = moves[0][1]
    assert best.wdl is Wdl.WIN and best.plies == tb.probe_dtm(position)
    ranks = [value.rank() for _, value in moves]
    assert ranks == sorted(ranks)


def test_a_mated_side_has_lost_in_zero(table_dir):
    # Black's general on d9, checked by the chariot on the d-file, is kept off e9 by Red's general.
    position = Position("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1")
    assert position.legal_moves() == []
    tb = open_tablebase(table_dir)
    assert tb.probe_dtm(position) == 0 and tb.probe_wdl(position) is Wdl.LOSS


def test_no_attacker_left_is_a_draw_without_a_table(table_dir):
    tb = open_tablebase(table_dir)
    assert tb.probe_wdl(Position("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")) is Wdl.DRAW


def test_a_missing_table_is_a_precise_error(table_dir):
    tb = open_tablebase(table_dir, shipped=False)
    with pytest.raises(MissingTableError, match="KRKAABB"):
        tb.probe(Position("2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"))
    with pytest.raises(TablebaseError):
        open_tablebase(table_dir / "nothing-here.txt")


def test_the_shipped_tables_are_found_without_a_folder():
    tb = open_tablebase()
    assert set(shipped_names()) == set(tb.endings)
    assert tb.probe(Position("2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")).wdl in (Wdl.WIN, Wdl.DRAW)


def test_tables_read_into_memory_probe_as_their_files(table_dir):
    from engine.tablebase.build import load_table
    from engine.tablebase.material import Material

    loaded = {name: load_table(table_dir / f"{name}.jjtb", Material.parse(name)) for name in ("KRK", "KRKA")}
    in_memory, from_files = Tablebase.of_loaded(loaded), open_tablebase(table_dir, shipped=False)
    assert in_memory.endings == ["KRK", "KRKA"]
    position = Position("3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
    assert in_memory.probe(position) == from_files.probe(position)
    assert in_memory.best_moves(position) == from_files.best_moves(position)

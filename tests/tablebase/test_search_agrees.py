"""The engine's own search against the tables: on sampled positions of KRKA and KNKA whose mate is at most
MAX_PLIES away, a search of SEARCH_DEPTH finds the table's mate distance exactly, for the winner and the
loser; in drawn positions it finds no mate. (The search prunes, so a search only a few plies deeper than
the mate may report a longer one: 2 of 200 KRKA positions at depth DTM + 10.)"""
import random

import pytest

from engine import Position, _core
from engine.fen import format_board
from engine.tablebase.build import load_table, table_path
from engine.tablebase.material import Material
from engine.tablebase.values import ILLEGAL_ENTRY, TableValue, Wdl

SEARCH_DEPTH = 24
MAX_PLIES = 13
SAMPLES = 40


def expected_score(value: TableValue):
    if value.wdl is Wdl.DRAW:
        return None
    distance = _core.MATE - value.plies
    return distance if value.wdl is Wdl.WIN else -distance


@pytest.mark.parametrize("name", ["KRKA", "KNKA"])
def test_a_deep_search_finds_the_tables_mate_distance(table_dir, name):
    material = Material.parse(name)
    table = load_table(table_path(table_dir, material), material)
    searcher = _core.Searcher(16)
    rng = random.Random(name)
    checked = 0
    while checked < SAMPLES:
        index, side = rng.randrange(table.size), rng.randrange(2)
        entry = table.value(index, side)
        if entry == ILLEGAL_ENTRY or entry == 0:
            continue
        value = TableValue.of_entry(entry)
        if value.plies is not None and value.plies > MAX_PLIES:
            continue
        position = Position(f"{format_board(table.position_of(index))} {'wb'[side]} - - 0 1")
        searcher.clear()
        score = searcher.search(position.kernel_board, depth=SEARCH_DEPTH).score
        expected = expected_score(value)
        if expected is None:
            assert abs(score) < _core.MATE - 2 * SEARCH_DEPTH, position.fen()
        else:
            assert score == expected, (position.fen(), str(value))
        checked += 1

"""The search's probe of the endgame tables (ext/tb_probe.pxi): ProbeTables reads what the library reads,
either way round; the search probes right after captures, counts its hits, scores table wins below real
mates and table draws as draws, and changes nothing where no capture leads into a table."""
import random

import pytest

from engine import Position, _core
from engine.fen import format_board
from engine.tablebase import SHIPPED_DIRECTORY, Material, Tablebase, Wdl
from engine.tablebase.build import load_table, table_path
from engine.tablebase.values import ILLEGAL_ENTRY

NATURAL_LIMIT = 120     # plies without a capture (the probe trusts no mate beyond it)
ENDINGS = ("KRK", "KRKA", "KNK", "KNKA", "KNKBB", "KCK", "KCKA")
# Red's chariot takes the cannon on e7 (e1e7) and reaches KRKA, a table win.
ONE_CAPTURE_FROM_KRKA = "3ak4/9/4c4/9/9/9/9/9/4R4/4K4 w - - 0 1"


@pytest.fixture(scope="module")
def tables():
    return _core.ProbeTables([load_table(table_path(SHIPPED_DIRECTORY, Material.parse(name)), Material.parse(name))
                              for name in ENDINGS])


@pytest.fixture(scope="module")
def library():
    return Tablebase([table_path(SHIPPED_DIRECTORY, Material.parse(name)) for name in ENDINGS])


def flipped(fen: str) -> str:
    """The same position with the colours swapped (ranks mirrored, the other side to move)."""
    rows, side = fen.split()[0].split("/"), fen.split()[1]
    board = "/".join(row.swapcase() for row in reversed(rows))
    return f"{board} {'b' if side == 'w' else 'w'} - - 0 1"


def sampled_fens(name: str, count: int):
    """Legal positions of a table, drawn at random (Red and Black to move)."""
    material = Material.parse(name)
    table = load_table(table_path(SHIPPED_DIRECTORY, material), material)
    rng = random.Random(name)
    found = []
    while len(found) < count:
        index, side = rng.randrange(table.size), rng.randrange(2)
        pieces = table.position_of(index)
        if pieces is not None and table.value(index, side) != ILLEGAL_ENTRY:
            found.append(f"{format_board(pieces)} {'wb'[side]} - - 0 1")
    return found


@pytest.mark.parametrize("name", ["KRKA", "KNKA", "KCKA"])
def test_the_probe_reads_what_the_library_reads_either_way_round(tables, library, name):
    for fen in sampled_fens(name, 60):
        for text in (fen, flipped(fen)):
            position = Position(text)
            value = library.probe(position)
            beyond_limit = value.plies is not None and value.plies > NATURAL_LIMIT
            expected = None if value.at_risk or beyond_limit else (int(value.wdl), value.plies)
            assert tables.probe(position.kernel_board) == expected, text


def test_no_table_no_value(tables):
    assert tables.probe(Position("3k5/9/9/9/9/9/9/9/4R4/4KR3 w - - 0 1").kernel_board) is None   # KRRK
    assert tables.probe(Position().kernel_board) is None
    assert _core.ProbeTables().probe(Position("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").kernel_board) is None
    assert len(tables) == len(ENDINGS) and tables.max_pieces == 5


def test_a_win_whose_mate_and_capture_lie_past_the_natural_limit_is_not_trusted(tables, library):
    fen = "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1"          # KNKA, the longest win: mate in 37 plies
    value = library.probe(Position(fen))
    assert value.plies == 37 and value.dtc < 37           # the advisor is taken first
    assert tables.probe(Position(fen.replace(" 0 1", " 83 1")).kernel_board) == (1, 37)
    assert tables.probe(Position(fen.replace(" 0 1", " 84 1")).kernel_board) == (1, value.dtc)
    assert tables.probe(Position(fen.replace(" 0 1", f" {120 - value.dtc + 1} 1")).kernel_board) is None


def search(tables, fen, depth, threads=1, **limits):
    searcher = _core.Searcher(16, threads)
    searcher.set_tablebase(tables)
    return searcher.search(Position(fen).kernel_board, depth=depth, **limits)


def test_the_search_probes_after_a_capture_and_counts_its_hits(tables):
    found = search(tables, ONE_CAPTURE_FROM_KRKA, 4)
    assert found.bestmove == "e1e7" and found.tbhits > 0
    assert found.score >= _core.TB_WIN - _core.MATE // 100       # a table win, or a real mate above it
    assert search(None, ONE_CAPTURE_FROM_KRKA, 4).tbhits == 0
    assert search(tables, ONE_CAPTURE_FROM_KRKA, 4, threads=2).tbhits > 0


def test_a_table_win_scores_below_real_mates_and_above_evaluations(tables):
    found = search(tables, ONE_CAPTURE_FROM_KRKA, 2)
    after = Position(ONE_CAPTURE_FROM_KRKA)
    after.push("e1e7")
    won = tables.probe(after.kernel_board)
    assert won is not None and won[0] == -1                      # Black, to move in KRKA, is lost
    # Two plies deep the search sees no mate; it scores the capture as the table's win: the mate lies
    # one ply (the capture) plus the table's distance away.
    assert found.score == _core.TB_WIN - 1 - won[1]
    assert found.score < _core.MATE - 120 and found.score > 10_000


def test_a_table_draw_scores_a_draw(tables):
    # Red's horse takes the cannon on e5: KNKBB, a draw (the draws the rulings might change are unsure).
    found = search(tables, "2b1k1b2/9/9/9/4c4/9/3N5/9/9/3K5 w - - 0 1", 5, searchmoves=("d3e5",))
    assert found.score == 0 and found.tbhits > 0


def test_probing_changes_nothing_where_no_capture_reaches_a_table(tables):
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    with_tables, without = search(tables, fen, 6), search(None, fen, 6)
    assert (with_tables.bestmove, with_tables.score, with_tables.nodes) == (without.bestmove, without.score,
                                                                           without.nodes)
    assert with_tables.tbhits == 0


def test_the_searcher_holds_its_tables(tables):
    searcher = _core.Searcher(1)
    assert searcher.tablebase is None
    searcher.set_tablebase(tables, 3)
    assert searcher.tablebase is tables
    searcher.set_tablebase(_core.ProbeTables())
    assert searcher.tablebase is None

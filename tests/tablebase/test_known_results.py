"""The published results the tables reproduce (docs/tablebases.md, "Known results checked"), on the
chariot against the full defence and its sub-tables: about 15 s to build, so marked slow."""
import pytest

from engine import Position
from engine.tablebase import Wdl, build_tables, open_tablebase
from engine.tablebase.fileformat import TableFile

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def krkaabb_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("krkaabb")
    build_tables(["KRKAABB"], directory)
    return directory


def test_the_chariot_beats_every_incomplete_defence(krkaabb_dir):
    for name in ("KRKA", "KRKB", "KRKAA", "KRKBB", "KRKAB", "KRKAAB", "KRKABB"):
        red = TableFile(krkaabb_dir / f"{name}.jjtb").header["statistics"][0]
        assert red["draw"] == 0 and red["loss"] == 0 and red["win"] > 0, name


@pytest.mark.parametrize("fen", [
    "2bakab2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1",
    "2bakab2/9/9/9/R8/9/9/9/9/3K5 b - - 0 1",
    "3aka3/9/4b4/9/2b3R2/9/9/9/9/3K5 w - - 0 1",
])
def test_the_full_defence_in_formation_holds_against_a_lone_chariot(krkaabb_dir, fen):
    value = open_tablebase(krkaabb_dir, shipped=False).probe(Position(fen))
    assert value.wdl is Wdl.DRAW
    assert value.at_risk == ()          # a draw under the rules: the chase rulings cannot change it


def test_no_draw_of_the_chariot_against_the_full_defence_is_decided_or_marked(krkaabb_dir):
    """The defender may have to chase the chariot with an advisor or elephant (jiangjun's chase counts it,
    protected or not), but never on every move for ever: no ruling decides or could change a draw."""
    for side in TableFile(krkaabb_dir / "KRKAABB.jjtb").header["statistics"]:
        assert side["ruled_win"] == side["ruled_loss"] == side["draw_rules"] == 0


def test_most_placements_of_the_full_defence_lose_but_many_hold(krkaabb_dir):
    red = TableFile(krkaabb_dir / "KRKAABB.jjtb").header["statistics"][0]
    assert red["win"] > red["draw"] > 0 and red["loss"] == 0

"""tools/tb_long_wins.py: the longest wins of an ending, Red to move, as EPD lines naming the plies to mate
and the distance to conversion."""
from engine import Position
from engine.tablebase import SHIPPED_DIRECTORY, open_tablebase

import tb_long_wins  # noqa: E402


def test_the_longest_wins_are_written_longest_first(tmp_path):
    out = tmp_path / "long.epd"
    assert tb_long_wins.main(["KNKA", "KNKAA", "--tables", str(SHIPPED_DIRECTORY), "--count", "3",
                              "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("#") and len(lines) == 1 + 6
    tables = open_tablebase()
    plies = []
    for line in lines[1:]:
        board, side = line.split(" ;")[0].split()
        value = tables.probe(Position(f"{board} {side} - - 0 1"))
        assert f"mate in {value.plies}, a capture in {value.dtc}" in line
        plies.append((line.split('"')[1].split()[0], value.plies))
    assert plies[0] == ("KNKA", 37) and plies[3] == ("KNKAA", 43)
    assert [p for _, p in plies[:3]] == sorted((p for _, p in plies[:3]), reverse=True)

"""The compact index (ext/tb_index.pxi): round trips on random positions, colour flip, mirror, and the
number of legal positions it holds against a brute-force enumeration."""
import itertools
import random

import pytest

from engine import _core
from engine.tablebase.material import Material, flip_pieces, mirror_pieces
from support.tb_points import groups, points


def placements(material):
    """Every placement of the material's pieces on their points, identical pieces unordered, no overlap."""
    kinds = groups(material)

    def extend(g, used):
        if g == len(kinds):
            yield ()
            return
        side, ptype, n = kinds[g]
        for combo in itertools.combinations(points(side, ptype), n):
            if used.isdisjoint(combo):
                for rest in extend(g + 1, used | set(combo)):
                    yield tuple((side, ptype, f, r) for f, r in combo) + rest
    yield from extend(0, frozenset())


def brute_force_counts(material):
    board = _core.Board()
    counts = [0, 0]
    for pieces in placements(material):
        for side in (0, 1):
            board.set_up(list(pieces), side, 0)
            counts[side] += not board.general_attacked(1 - side)
    return tuple(counts)


def random_position(material, rng):
    while True:
        used, pieces = set(), []
        for side, ptype, n in groups(material):
            for f, r in rng.sample(points(side, ptype), n):
                pieces.append((side, ptype, f, r))
                used.add((f, r))
        if len(used) == len(pieces):
            return pieces


def table(name):
    material = Material.parse(name)
    return _core.TbTable(material.red.counts, material.black.counts)


@pytest.mark.parametrize("name", ["KRK", "KCK", "KNK", "KPK", "KRKA"])
def test_legal_positions_counted_from_the_index_equal_brute_force(name):
    assert table(name).count_legal() == brute_force_counts(Material.parse(name))


@pytest.mark.parametrize("name", ["KRK", "KRKA", "KNPKAABB", "KRKNA", "KRRKAB", "KPPKAB", "KRKR", "KCPKAABB"])
def test_index_round_trip_on_random_positions(name):
    rng = random.Random(name)
    material = Material.parse(name)
    tb = table(name)
    board = _core.Board()
    for _ in range(300):
        pieces = random_position(material, rng)
        side = rng.randrange(2)
        board.set_up(pieces, side, 0)
        index, table_side = tb.index_of(board)
        assert table_side == side
        stored = sorted(tb.position_of(index))
        assert stored in (sorted(pieces), sorted(mirror_pieces(pieces)))
        # The mirror lands on the same entry, unless Red's defence is symmetric: then on the entry of
        # the mirrored position. The colour flip, read flipped, lands on the same entry.
        board.set_up(mirror_pieces(pieces), side, 0)
        mirror_index, _ = tb.index_of(board)
        if tb.mirrored_twice(index):
            assert mirror_index == index
        else:
            assert sorted(tb.position_of(mirror_index)) == sorted(mirror_pieces(tb.position_of(index)))
        board.set_up(flip_pieces(pieces), 1 - side, 0)
        assert tb.index_of(board, True) == (index, side)


def test_other_material_is_not_in_the_index():
    board = _core.Board()
    board.set_up([(0, 0, 4, 0), (1, 0, 3, 9), (0, 5, 1, 1)], 0, 0)    # KCK in the KRK index
    assert table("KRK").index_of(board) is None


def test_index_sizes():
    # Red's general on 6 of its 9 points (the mirror), Black's on 9, a chariot on 90.
    assert table("KRK").size == 6 * 9 * 90
    assert table("KPK").size == 6 * 9 * 55
    assert table("KRRK").size == 6 * 9 * (90 * 89 // 2)

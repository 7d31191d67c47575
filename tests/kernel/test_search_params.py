"""The search's tuning parameters (ext/params.pxi): one table, settable at run time for tuning."""
from __future__ import annotations

import math

import pytest

from engine import Position, _core
from engine.server.bench import BENCH_FENS
from support import ROOT


@pytest.fixture(autouse=True)
def defaults():
    """Every test starts and ends with the default parameters (the module is shared by the whole run)."""
    _core.reset_search_parameters()
    yield
    _core.reset_search_parameters()


def _nodes(depth: int = 6) -> int:
    searcher = _core.Searcher(16, 1)
    return searcher.search(Position(BENCH_FENS[0]).kernel_board, depth=depth).nodes


def _value(name: str) -> int:
    return {row[0]: row[1] for row in _core.search_parameters()}[name]


def test_the_table_is_well_formed():
    table = _core.search_parameters()
    names = [row[0] for row in table]
    assert len(names) == len(set(names)) >= 50
    for name, value, low, high, meaning in table:
        assert name.isidentifier() and name == name.lower()
        assert low <= value <= high, name
        assert isinstance(meaning, str) and meaning.strip(), name


def test_a_few_defaults_are_the_ones_the_search_was_written_with():
    assert _value("rfp_margin") == 110
    assert _value("lmr_base") == 250 and _value("lmr_scale") == 590    # 0.25 and 0.59 per mille
    assert _value("aspiration_delta") == 25


def test_set_and_reset_round_trip():
    defaults = _core.search_parameters()
    _core.set_search_parameter("rfp_margin", 150)
    _core.set_search_parameter("qs_futility_margin", 0)
    assert _value("rfp_margin") == 150 and _value("qs_futility_margin") == 0
    changed = [old[0] for old, new in zip(defaults, _core.search_parameters()) if old != new]
    assert changed == ["rfp_margin", "qs_futility_margin"]
    _core.reset_search_parameters()
    assert _core.search_parameters() == defaults


def test_every_parameter_accepts_its_bounds_and_a_search_runs_at_them():
    defaults = _core.search_parameters()
    for name, value, low, high, _ in defaults:
        _core.set_search_parameter(name, low)
        _core.set_search_parameter(name, high)
        assert _value(name) == high
        _core.set_search_parameter(name, value)
    assert _core.search_parameters() == defaults
    for bound in (2, 3):                       # every minimum, then every maximum
        for row in defaults:
            _core.set_search_parameter(row[0], row[bound])
        assert _nodes(depth=4) > 0


def test_unknown_name_and_out_of_range_value_raise():
    with pytest.raises(ValueError, match="unknown search parameter 'no_such'"):
        _core.set_search_parameter("no_such", 1)
    name, value, low, high, _ = _core.search_parameters()[0]
    with pytest.raises(ValueError, match=f"{name} must be within {low}..{high}"):
        _core.set_search_parameter(name, high + 1)
    with pytest.raises(ValueError, match=name):
        _core.set_search_parameter(name, low - 1)
    with pytest.raises(ValueError, match=name):
        _core.set_search_parameter(name, 2 ** 70)
    with pytest.raises(TypeError, match=name):
        _core.set_search_parameter(name, 1.5)
    assert _value(name) == value          # a refused value changes nothing


def test_a_changed_parameter_changes_the_search_and_reset_restores_it():
    before = _nodes()
    _core.set_search_parameter("futility_margin", 40)
    changed = _nodes()
    assert changed != before
    _core.reset_search_parameters()
    assert _nodes() == before


@pytest.mark.parametrize("name, value", [("tt_eval", 0), ("capture_futility_max_depth", 9)])
def test_each_switch_reaches_the_search(name, value):
    # The switches of experiments (tt_eval on by default, futility pruning of captures off) change the tree.
    before = _nodes(depth=8)
    _core.set_search_parameter(name, value)
    assert _nodes(depth=8) != before


def test_the_reduction_table_follows_its_parameters():
    def expected(base: int, scale: int) -> list[list[int]]:
        return [[0 if d == 0 or m == 0 else int(base / 1000 + math.log(d) * math.log(m) * scale / 1000)
                 for m in range(64)] for d in range(64)]

    assert _core.testing.lmr_table() == expected(250, 590)
    _core.set_search_parameter("lmr_base", 500)
    _core.set_search_parameter("lmr_scale", 800)
    assert _core.testing.lmr_table() == expected(500, 800)
    _core.reset_search_parameters()
    assert _core.testing.lmr_table() == expected(250, 590)


def test_exchange_values_follow_their_parameters():
    # A chariot takes a defended soldier: it loses the chariot for the soldier.
    board = Position("4k4/9/9/9/4p4/4p4/9/9/4R4/3K5 w").kernel_board
    assert _core.testing.exchange_value(board, "e1e4") == 100 - 1000
    _core.set_search_parameter("see_chariot", 900)
    _core.set_search_parameter("see_pawn", 150)
    assert _core.testing.exchange_value(board, "e1e4") == 150 - 900


# The search and move-picking files name their numbers: no integer literal >= 3 stands inline.
SEARCH_FILES = ("search.pxi", "searcher.pxi", "movepick.pxi")
MAX_INLINE_LITERALS = 0


def inline_literals(text: str) -> list[tuple[int, str]]:
    """(line, literal) of each integer literal >= 3 in Cython source outside named constants: not in
    comments or strings, not in a `cdef enum` or `cdef extern` block, not an array size in a declaration
    (`int gain[34]`, a struct's fields)."""
    import io
    import re
    import tokenize

    lines = text.splitlines()
    in_block = set()        # lines of enum and extern blocks
    in_struct = set()
    for start, line in enumerate(lines):
        block = re.match(r"(\s*)cdef (enum|extern from|struct)\b", line)
        if not block:
            continue
        indent = len(block.group(1))
        end = start + 1
        while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        (in_struct if block.group(2) == "struct" else in_block).update(range(start + 1, end + 1))
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        row, col = token.start
        if token.type != tokenize.NUMBER or row in in_block or not re.fullmatch(r"\d+", token.string):
            continue
        before = lines[row - 1][:col]
        declaration = row in in_struct or re.match(r"\s*cdef\s", lines[row - 1])
        if int(token.string) >= 3 and not (declaration and before.count("[") > before.count("]")):
            found.append((row, token.string))
    return found


def test_search_files_name_their_numbers():
    ext = ROOT / "ext"
    counts = {name: inline_literals((ext / name).read_text()) for name in SEARCH_FILES}
    assert sum(len(found) for found in counts.values()) <= MAX_INLINE_LITERALS, counts


def test_the_literal_count_sees_what_it_should():
    assert inline_literals("x = y * 110 + 2\n# 300\ns = '400'\n") == [(1, "110")]
    assert inline_literals("cdef enum:\n    A = 64\n\ncdef int t[64][7]\nt[5] = 1\n") == [(5, "5")]

"""Perft against published reference counts.

Two sources, both copied into ``tests/data/`` so that the tests do not depend on the shared workspace:

* ``perft.epd``: lines ``FEN ; D1 n D2 n ...`` (a copy of ``shared/data/perft.epd``);
* ``perft_rules.txt``: lines ``FEN; depth; nodes`` (the ```perft block of ``shared/reference/rules.md`` §4.1).

Where the data is read from, in order:

1. ``$JIANGJUN_SHARED`` if set (the shared directory: ``data/perft.epd`` and ``reference/rules.md``);
2. ``tests/data/`` next to this file;
3. ``shared/`` next to the repository (``Path(__file__).resolve().parents[2] / "shared"``).

If none is found the tests skip with the reason. Cases with more than ``DEFAULT_MAX_LEAVES`` leaves are
marked ``slow`` (deselected by default; run them with ``pytest -m slow``).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

from engine import Position
from support import DATA, SHARED

DEFAULT_MAX_LEAVES = 3_600_000  # ~3 M: start position depth 4 (3 290 240) is in the default run
DIVIDE_DEPTH = 3

LOCAL_DATA = DATA
SHARED_ENV = "JIANGJUN_SHARED"


class Case(NamedTuple):
    source: str  # "epd" or "rules"
    line: int  # line number in the source file (1-based)
    fen: str
    depth: int
    nodes: int


def default_shared_dir() -> Path:
    return SHARED


def shared_dir() -> Optional[Path]:
    """The shared directory: $JIANGJUN_SHARED, else ``shared/`` next to the repository, if it exists."""
    env = os.environ.get(SHARED_ENV)
    path = Path(env) if env else default_shared_dir()
    return path if path.is_dir() else None


def parse_epd(text: str) -> list[Case]:
    """``FEN ; D1 n D2 n ...`` lines; ``#`` comments and blank lines are skipped."""
    cases = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fen, _, counts = line.partition(";")
        tokens = counts.split()
        if not tokens or len(tokens) % 2:
            raise ValueError(f"perft.epd line {number}: expected 'FEN ; D1 n D2 n ...', got {raw!r}")
        for label, count in zip(tokens[::2], tokens[1::2]):
            match = re.fullmatch(r"D(\d+)", label)
            if not match or not count.isdigit():
                raise ValueError(f"perft.epd line {number}: bad depth/count pair {label!r} {count!r}")
            cases.append(Case("epd", number, fen.strip(), int(match.group(1)), int(count)))
    return cases


def parse_rules_block(text: str) -> list[Case]:
    """``FEN; depth; nodes`` lines; ``#`` comments and blank lines are skipped."""
    cases = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split(";")]
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
            raise ValueError(f"perft rules line {number}: expected 'FEN; depth; nodes', got {raw!r}")
        cases.append(Case("rules", number, parts[0], int(parts[1]), int(parts[2])))
    return cases


def extract_rules_block(markdown: str) -> str:
    """The body of the first ```perft fenced block of rules.md."""
    match = re.search(r"^```perft[ \t]*\n(.*?)^```", markdown, re.S | re.M)
    if not match:
        raise ValueError("rules.md has no ```perft block")
    return match.group(1)


def load_cases() -> tuple[list[Case], Optional[str]]:
    """(cases, None) or ([], reason to skip)."""
    if os.environ.get(SHARED_ENV):
        shared = shared_dir()
        if shared is None:
            return [], f"${SHARED_ENV}={os.environ[SHARED_ENV]!r} is not a directory"
        epd, rules = shared / "data" / "perft.epd", shared / "reference" / "rules.md"
        missing = [str(p) for p in (epd, rules) if not p.is_file()]
        if missing:
            return [], f"perft data not found under ${SHARED_ENV}: missing {', '.join(missing)}"
        return parse_epd(epd.read_text()) + parse_rules_block(extract_rules_block(rules.read_text())), None
    epd, rules = LOCAL_DATA / "perft.epd", LOCAL_DATA / "perft_rules.txt"
    if epd.is_file() and rules.is_file():
        return parse_epd(epd.read_text()) + parse_rules_block(rules.read_text()), None
    shared = shared_dir()
    if shared is not None:
        s_epd, s_rules = shared / "data" / "perft.epd", shared / "reference" / "rules.md"
        if s_epd.is_file() and s_rules.is_file():
            return parse_epd(s_epd.read_text()) + parse_rules_block(extract_rules_block(s_rules.read_text())), None
    return [], (
        f"perft reference data not found: neither {epd} and {rules}, nor {default_shared_dir()}/data/perft.epd "
        f"and reference/rules.md (set ${SHARED_ENV} to the shared directory)"
    )


CASES, SKIP_REASON = load_cases()


def _params():
    if not CASES:
        return [pytest.param(None, marks=pytest.mark.skip(reason=SKIP_REASON), id="no-data")]
    params, seen = [], set()
    for case in CASES:
        key = (" ".join(case.fen.split()[:2]), case.depth)
        if key in seen:  # listed by both sources (their agreement is test_reference_counts_consistent)
            continue
        seen.add(key)
        marks = [pytest.mark.deep] if case.nodes > DEFAULT_MAX_LEAVES else []
        params.append(pytest.param(case, marks=marks, id=f"{case.source}-L{case.line}-d{case.depth}"))
    return params


@pytest.mark.parametrize("case", _params())
def test_perft(case: Case) -> None:
    got = Position(case.fen).perft(case.depth)
    assert got == case.nodes, f"perft({case.depth}) of {case.fen}: got {got}, expected {case.nodes} ({case.source} line {case.line})"


def _divide_fens() -> list:
    seen: dict[str, None] = {}
    for case in CASES:
        seen.setdefault(case.fen)
    if not seen:
        return [pytest.param(None, marks=pytest.mark.skip(reason=SKIP_REASON), id="no-data")]
    return [pytest.param(fen, id=f"fen{i}") for i, fen in enumerate(seen)]


@pytest.mark.parametrize("fen", _divide_fens())
def test_divide_sums_to_perft(fen: str) -> None:
    position = Position(fen)
    legal = set(position.legal_moves())
    assert position.divide(1) == {move: 1 for move in legal}
    split = position.divide(DIVIDE_DEPTH)
    assert set(split) == legal, "divide() must have exactly the legal root moves as keys"
    assert sum(split.values()) == position.perft(DIVIDE_DEPTH)
    # Each entry is the perft of the child position.
    for move in sorted(split)[:: max(1, len(split) // 5)]:
        child = position.copy()
        child.push(move)
        assert split[move] == child.perft(DIVIDE_DEPTH - 1), f"divide({DIVIDE_DEPTH})[{move}] of {fen}"
    assert position.fen() == Position(fen).fen(), "divide/perft must leave the position unchanged"


def test_reference_counts_consistent() -> None:
    """Where both sources list the same (FEN, depth), they agree; and the depth-1 counts match legal_moves()."""
    if not CASES:
        pytest.skip(SKIP_REASON)
    by_key: dict[tuple[str, int], Case] = {}
    for case in CASES:
        key = (" ".join(case.fen.split()[:2]), case.depth)
        other = by_key.setdefault(key, case)
        assert other.nodes == case.nodes, f"reference data disagree: {other} vs {case}"
        if case.depth == 1:
            assert len(Position(case.fen).legal_moves()) == case.nodes, case


def test_local_copy_matches_shared() -> None:
    """tests/data is a copy of the shared reference data; flag drift when the shared directory is present."""
    shared = shared_dir()
    if shared is None:
        pytest.skip(f"shared directory not found ({default_shared_dir()}; set ${SHARED_ENV})")
    epd, rules = shared / "data" / "perft.epd", shared / "reference" / "rules.md"
    if not (epd.is_file() and rules.is_file()):
        pytest.skip(f"{epd} or {rules} missing")
    if not (LOCAL_DATA / "perft.epd").is_file() or not (LOCAL_DATA / "perft_rules.txt").is_file():
        pytest.skip("tests/data copies missing")
    assert parse_epd((LOCAL_DATA / "perft.epd").read_text()) == parse_epd(epd.read_text())
    local = [c[2:] for c in parse_rules_block((LOCAL_DATA / "perft_rules.txt").read_text())]
    remote = [c[2:] for c in parse_rules_block(extract_rules_block(rules.read_text()))]
    assert local == remote

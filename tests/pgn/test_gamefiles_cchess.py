"""Differential tests: jiangjun's readers of XQF, CBR, CBL and CBF against those of the cchess library
(walker8088's, PyPI ``cchess``, installed by the test extra), on the same files: the samples of
tests/data/gamefiles (the two tournament libraries among them) and random games written in each format.
Both must find the same start position and the same main line; for XQF, CBR and CBL, where both read the
tree, the same set of lines from the start.

A game with an illegal move is compared too: cchess drops the move and what follows it, as jiangjun reads
a game by default (the line up to its first illegal move, the error recorded on the game).
"""

from __future__ import annotations

import lzma
from pathlib import Path
from typing import List

import pytest

cchess = pytest.importorskip("cchess", reason="the cchess library is not installed (pip install '.[test]')")

from support import DATA  # noqa: E402
from engine.pgn import Game, Variation, read_games  # noqa: E402
from engine.pgn.xqf import write_game as xqf_bytes  # noqa: E402
from support.samplewriters import cbl_library, cbr_record, xqf_encrypted, xqf_with_move  # noqa: E402
from support.game_strategies import games, writable_as_xqf  # noqa: E402
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

FILES = DATA / "gamefiles"


def theirs(path: Path) -> list:
    """cchess's games of a file."""
    kind = path.suffix.lower()
    if kind == ".xqf":
        return [cchess.read_from_xqf(str(path))]
    if kind == ".cbr":
        return [cchess.read_from_cbr(str(path))]
    if kind == ".cbf":
        return [cchess.read_from_cbf(str(path))]
    if kind == ".cbl":
        return cchess.read_from_cbl(str(path))["games"]
    raise ValueError(path)


def all_lines(game: Game) -> List[List[str]]:
    """Every line of a game from its start to a leaf, as cchess's dump_iccs_moves lists them."""
    out: List[List[str]] = []

    def walk(prefix: List[str], moves: List[str], variations: dict) -> None:
        for index in range(len(moves)):
            for variation in variations.get(index, []):
                walk(prefix + moves[:index], variation.moves, variation.variations)
        out.append(prefix + moves)

    walk([], game.moves, game.variations)
    return out


def board(fen: str) -> List[str]:
    return fen.split()[:2]


def compare(path: Path, trees: bool = True) -> int:
    """Compare both readers on a file; return how many games were compared."""
    ours = {game.number: game for game in read_games(path)}
    compared = 0
    for number, other in enumerate(theirs(path), start=1):
        game = ours[number]
        lines = other.dump_iccs_moves()
        assert board(other.init_board.to_fen()) == board(game.starting_fen()), (path, number)
        assert (lines[0] if lines else []) == game.moves, (path, number)
        if trees:
            assert sorted(lines) == sorted(line for line in all_lines(game) if line), (path, number)
        compared += 1
    return compared


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> List[Path]:
    folder = tmp_path_factory.mktemp("cbl")
    out = []
    for packed in sorted(FILES.glob("*.CBL.xz")):
        target = folder / packed.name[:-3]
        target.write_bytes(lzma.decompress(packed.read_bytes()))
        out.append(target)
    return out


def test_the_tournament_libraries_read_as_cchess_reads_them(unpacked) -> None:
    counts = [compare(path) for path in unpacked]
    assert counts == [93, 38]


def test_the_samples_read_as_cchess_reads_them() -> None:
    samples = sorted(p for p in FILES.iterdir() if p.suffix.lower() in (".xqf", ".cbr", ".cbf", ".cbl"))
    assert len(samples) >= 10
    for path in samples:
        compared = compare(path, trees=path.suffix.lower() != ".cbf")   # cchess reads CBF's main line only
        assert compared == (3 if path.name == "bad-second-game.CBL" else 1), path


def test_xqf_files_with_an_illegal_move_read_as_cchess_reads_them(tmp_path) -> None:
    nested = Game(moves=["h2e2", "h9g7", "h0g2"],
                  variations={1: [Variation(["b9c7", "b0c2"], variations={1: [Variation(["c3c4"])]})]})
    damaged = {"nested.xqf": xqf_with_move(nested, 5, "c3c9"),     # in the variation of a variation
               "main.xqf": xqf_with_move(nested, 2, "h0h5")}        # in the main line
    for name, data in damaged.items():
        (tmp_path / name).write_bytes(data)
        assert compare(tmp_path / name) == 1
        assert read_games(tmp_path / name)[0].errors


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(games(), st.integers(0, 2 ** 32))
def test_random_games_read_as_cchess_reads_them(tmp_path, game: Game, seed: int) -> None:
    files = {"cbr.cbr": cbr_record(game), "cbl.cbl": cbl_library([game, game], "库")}
    if writable_as_xqf(game):
        files.update({"v10.xqf": xqf_bytes(game), "v18.xqf": xqf_encrypted(game, 18, seed),
                      "v12.xqf": xqf_encrypted(game, 12, seed), "v11.xqf": xqf_encrypted(game, 11, seed)})
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        compare(path)

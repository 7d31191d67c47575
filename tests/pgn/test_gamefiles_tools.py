"""Every tool that takes games takes XQF, CBR, CBL, CBF and DhtmlXQ files as it takes PGN: `jiangjun
analyze` (a library's game N), `jiangjun book build` (folders and archives of them), `jiangjun match
-openings`, tools/label_positions.py. The files are the samples of tests/data/gamefiles."""

from __future__ import annotations

import json
import lzma
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from support import DATA, ROOT, engine_env
from engine import Position
from engine.book import open_book
from engine.book.build import BuildSettings, build_book
from engine.match.cli import parse_args
from engine.match.openings import OpeningError, load_openings
from engine.pgn import Game, read_games
from support.samplewriters import cbl_library, cbr_record

FILES = DATA / "gamefiles"


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """The 38 games of 1999, unpacked."""
    target = tmp_path_factory.mktemp("lib") / "1999.CBL"
    target.write_bytes(lzma.decompress((FILES / "1999年全国象棋团体赛对兵局38局.CBL.xz").read_bytes()))
    return target


def analyze(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", "analyze", *args], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, env=engine_env(), timeout=120)


@pytest.mark.slow
def test_analyze_an_xqf_and_a_library_game(tmp_path, library) -> None:
    done = analyze(str(FILES / "xqf18-annotated.xqf"), "--depth", "1", "--no-book", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    (game,) = read_games(FILES / "xqf18-annotated.xqf")
    assert doc["moves"] == game.moves and doc["headers"]["Red"] == "何順安"
    third = json.loads(analyze(str(library), "--game", "3", "--depth", "1", "--no-book", "--json",
                               cwd=tmp_path).stdout)
    assert third["moves"] == read_games(library)[2].moves
    bad = FILES / "bad-second-game.CBL"
    ok = analyze(str(bad), "--game", "3", "--depth", "1", "--no-book", "--json", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr       # game 2 is bad, game 3 is the file's third game all the same
    assert json.loads(ok.stdout)["moves"] == read_games(bad, errors="skip")[1].moves
    failed = analyze(str(bad), "--game", "2", "--depth", "1", cwd=tmp_path)
    assert failed.returncode == 2 and "game 2" in failed.stderr and "illegal move" in failed.stderr
    beyond = analyze(str(bad), "--game", "4", "--depth", "1", cwd=tmp_path)
    assert beyond.returncode == 2 and "holds 3 games" in beyond.stderr


@pytest.mark.slow
def test_analyze_saves_the_judged_game_as_xqf_or_pgn(tmp_path) -> None:
    source = FILES / "xqf18-annotated.xqf"
    done = analyze(str(source), "--depth", "2", "--no-book", "--save", str(tmp_path / "judged.xqf"),
                   "--notation", "iccs", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "wrote " + str(tmp_path / "judged.xqf") in done.stdout
    (original,) = read_games(source)
    (judged,) = read_games(tmp_path / "judged.xqf")
    assert judged.moves == original.moves and judged.variations == original.variations
    assert judged.start_comment == original.start_comment and judged.headers["Annotator"] == "jiangjun"
    assert judged.comments[0].startswith("中炮开局。\n")          # the file's comment, then the judgement
    assert all(c and (" best" in c or " loss " in c) for c in judged.comments)
    done = analyze(str(source), "--depth", "1", "--save", str(tmp_path / "judged.pgn"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "book" in (tmp_path / "judged.pgn").read_text(encoding="utf-8")
    refused = analyze("--fen", "3k5/9/9/9/9/9/9/9/9/4K4 w", "--depth", "1", "--save", "x.xqf", cwd=tmp_path)
    assert refused.returncode == 2 and "--save" in refused.stderr


def test_book_build_from_a_folder_and_an_archive_of_game_files(tmp_path, library) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(library, folder / "team.CBL")
    for name in ("xqf18-annotated.xqf", "game.cbf", "dpxq.html", "bad-second-game.CBL"):
        shutil.copy(FILES / name, folder / name)
    report = build_book([str(folder)], str(tmp_path / "book.jjbk"), BuildSettings(min_games=2, max_ply=6))
    # The library's 38 records are 19 games filed twice; the bad library's two good games are among them;
    # the CBF game and the page's second count; the annotated game (the XQF and the page's first) has no
    # result.
    assert report.files == 5 and report.skipped["games that do not read"] == 1
    assert report.games == 19 + 1 + 1 and report.skipped["games without a result"] == 2, report.summary()
    book = open_book(str(tmp_path / "book.jjbk"))
    assert "c3c4" in {m.move for m in book.moves(Position())}     # 对兵局: 38 games open with 兵七进一
    archive = tmp_path / "games.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(folder, arcname="games")
    again = build_book([str(archive)], str(tmp_path / "again.jjbk"), BuildSettings(min_games=2, max_ply=6))
    assert again.games == report.games


def test_match_openings_from_a_library_and_files_named_otherwise(tmp_path, library) -> None:
    openings = load_openings(library)
    games = read_games(library)
    assert len(openings) == 38 and openings[0].moves == tuple(games[0].moves)
    assert openings[0].name == games[0].headers["Event"]
    renamed = tmp_path / "openings.dat"     # not a known ending: the content says it is a game file
    shutil.copy(FILES / "xqf18-endgame-black.xqf", renamed)
    (endgame,) = load_openings(renamed)
    assert endgame.fen.split()[1] == "b" and len(endgame.moves) == 3
    # A damaged game opens as far as it reads, and the user is told once (engine.pgn's warning); a game of
    # which nothing reads (game 2's first move is illegal; a board without a general) opens nothing.
    damaged = load_openings(FILES / "bad-second-game.CBL")
    assert [len(opening.moves) for opening in damaged] == [57, 61]
    no_general = bytearray(cbr_record(Game(moves=["h2e2"])))
    no_general[2120 + 9 * 9 + 4] = 0            # Red's general gone from e0
    odd = tmp_path / "odd.CBL"
    odd.write_bytes(cbl_library([], "库", records=[bytes(no_general), cbr_record(Game(moves=["c3c4"]))]))
    assert [opening.moves for opening in load_openings(odd)] == [("c3c4",)]
    odd.write_bytes(cbl_library([], "库", records=[bytes(no_general)]))
    with pytest.raises(OpeningError, match="game 1.*not a Xiangqi position"):
        load_openings(odd)
    config = parse_args(["-engine", "cmd=a", "-engine", "cmd=b", "-tc", "1", "-openings", f"file={library}"])
    assert len(config.openings) == 38


def test_label_positions_reads_game_files(library) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import label_positions
    finally:
        sys.path.remove(str(ROOT / "tools"))
    from_library = label_positions.quiet_positions([str(library)], skip=8)
    from_xqf = label_positions.quiet_positions([str(FILES / "xqf18-big5.xqf")], skip=8)
    assert from_library and from_xqf and set(from_xqf) <= set(from_library)   # the same game is in both
    with_bad = label_positions.quiet_positions([str(FILES / "bad-second-game.CBL")], skip=8)
    assert with_bad                                                             # the good games' positions

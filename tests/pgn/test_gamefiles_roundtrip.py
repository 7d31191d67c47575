"""Property tests: a game written as XQF (jiangjun's writer, XQF 1.0; and encrypted versions 11 to 18 with
keys at random, as XQStudio writes them), CBR, CBL, DhtmlXQ or CBF reads back to the same game: the same
start, main line, comments, variations, tags and result (CBF: the main line and the tags; PGN: the moves,
variations and comments); every game read whole, without errors."""

from __future__ import annotations

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install '.[test]')")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from engine.pgn import Game, read_games, write_game  # noqa: E402
from engine.pgn.cbf import write_game as cbf_text  # noqa: E402
from engine.pgn.xqf import write_game as xqf_bytes  # noqa: E402
from support.samplewriters import cbl_library, cbr_record, dhtmlxq_page, xqf_encrypted  # noqa: E402
from support.game_strategies import as_read, games, writable_as_xqf  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_xqf_written_here_reads_back_to_the_same_game(game: Game) -> None:
    if not writable_as_xqf(game):
        return
    (back,) = read_games(xqf_bytes(game))
    assert back == as_read(game) and back.errors == []


@SETTINGS
@given(games(), st.sampled_from([11, 12, 15, 18]), st.integers(0, 2 ** 32))
def test_encrypted_xqf_of_every_version_and_key_reads_back(game: Game, version: int, seed: int) -> None:
    if not writable_as_xqf(game):
        return
    (back,) = read_games(xqf_encrypted(game, version, seed))
    assert back == as_read(game) and back.errors == []


@SETTINGS
@given(games())
def test_cbr_and_cbl_read_back(game: Game) -> None:
    cbr_tags = ("Title", "Event", "Date", "Site", "Red", "Black")
    (back,) = read_games(cbr_record(game))
    assert back == as_read(game, cbr_tags) and back.errors == []
    library = read_games(cbl_library([game, game], "库"), errors="raise")
    assert library == [as_read(game, cbr_tags)] * 2 and [g.number for g in library] == [1, 2]


@SETTINGS
@given(games())
def test_dhtmlxq_reads_back(game: Game) -> None:
    if not writable_as_xqf(game):    # nor has DhtmlXQ a side to move
        return
    page = dhtmlxq_page([game])
    tags = ("Title", "Event", "Date", "Site", "Red", "Black")
    for data in (page, page.encode("gbk")):
        (back,) = read_games(data)
        expected = as_read(game, tags)
        assert back == expected and back.errors == []


@SETTINGS
@given(games(variations=False))
def test_cbf_reads_back_its_main_line_and_tags(game: Game) -> None:
    (back,) = read_games(cbf_text(game), errors="raise")
    expected = as_read(game)
    assert back.moves == expected.moves and back.headers == expected.headers and back.result == game.result


@SETTINGS
@given(games())
def test_pgn_with_variations_reads_back(game: Game) -> None:
    (back,) = read_games(write_game(game, notation="chinese"))
    assert back.moves == game.moves and back.comments == game.comments and back.variations == game.variations
    assert back.start_comment == game.start_comment and back.errors == []

"""engine.analyze.engines, and the annotation and the command line on top of it, with jiangjun hosted in
process (no process is started: these tests are not slow). Searches are bound by depth."""
from __future__ import annotations

import io
import json

import pytest

from engine import Position
from engine.analyze.cli import main
from engine.analyze.engines import analyse, concluded, description, gives_chances, open_engine, usable_multipv
from engine.analyze.errors import AnalyzeError
from engine.analyze.game import annotate
from engine.client import SearchInterrupted
from engine.score import Score
from engine.search_types import SearchLimits, Wdl

MATED = "4k4/R8/9/9/9/9/9/9/9/3K4R b - - 0 1"        # after e9f9 i0i9: Black is mated


@pytest.fixture(scope="module")
def engine():
    engine = open_engine(None, threads=1, hash_mb=8)
    yield engine
    engine.quit()


def test_the_built_in_engine_in_process(engine):
    assert engine.process.in_process and gives_chances(engine)
    assert description(engine, 1, 8).endswith("(in-process, 1 thread, 8 MB hash)")
    with pytest.raises(AnalyzeError, match="--option applies to an engine given with --engine"):
        open_engine(None, options={"Hash": "32"})
    warnings = []
    assert usable_multipv(engine, 3, warnings.append) == 3 and warnings == []


def test_the_built_in_engine_searches_with_the_tables_shown(monkeypatch, tmp_path):
    from engine.analyze import engines
    given = []
    in_process = engines.SimpleEngine.in_process
    monkeypatch.setattr(engines.SimpleEngine, "in_process",
                        staticmethod(lambda options: (given.append(options), in_process(options=options))[1]))
    open_engine(None, table_folders=[tmp_path / "a", tmp_path / "b"]).quit()
    open_engine(None).quit()
    assert given[0]["TablebasePath"] == f"{tmp_path / 'a'};{tmp_path / 'b'}" and "TablebasePath" not in given[1]


def test_a_position_its_lines_and_a_finished_game(engine):
    position = Position()
    position.push("h2e2")
    shown = []
    result = analyse(engine, position, SearchLimits(depth=5), multipv=2, on_lines=shown.append)
    assert result.bestmove == result.lines[0].pv[0] and len(result.lines) == 2 and result.wdl is not None
    assert shown and all(line.pv for lines in shown for line in lines)
    finished = Position(MATED)
    for move in ("e9f9", "i0i9"):
        finished.push(move)
    over = analyse(engine, finished, SearchLimits(depth=5))
    assert over == concluded(finished, finished.outcome())
    assert over.bestmove is None and over.score == Score.mated() and over.wdl == Wdl(0, 0, 1000)


def test_ctrl_c_stops_the_annotation_before_the_cut_search(engine):
    def stop_at_ply_2(ply, lines) -> None:
        if ply == 2:
            raise KeyboardInterrupt

    game = annotate(engine, Position().fen(), ["h2e2", "h9g7", "h0g2"], SearchLimits(depth=6),
                    on_progress=stop_at_ply_2)
    assert game.interrupted and len(game.analyses) == 2 and len(game.records) == 1
    with pytest.raises(SearchInterrupted) as caught:
        analyse(engine, Position(), SearchLimits(depth=30), on_lines=lambda lines: stop_at_ply_2(2, lines))
    assert caught.value.result.bestmove in Position().legal_moves()


def test_the_command_line_in_process():
    out, err = io.StringIO(), io.StringIO()
    assert main(["--depth", "4", "--moves", "炮二平五", "--json", "--hash", "8"], stdout=out, stderr=err) == 0, err
    document = json.loads(out.getvalue())
    assert document["analysis"]["bestmove"] in document["analysis"]["lines"][0]["pv"][:1]
    assert "in-process" in document["engine"]["description"] and not err.getvalue()

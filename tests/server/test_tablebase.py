"""The engine and its endgame tables (engine.server.tablebases): the table's move at the root (the quickest
win, the slowest loss, a drawing move), within searchmoves, banmoves and MultiPV, not at a limited
strength nor past the natural limit; the interior probes in tbhits; TablebasePath, UseTablebase and
what the engine says about them, in-process and through the engine process (UCI, UCCI)."""
import threading

import pytest

from engine import Position
from engine.search_types import SearchLimits
from engine.server import tablebases
from engine.server.engine import Engine, EngineOptions
from engine.tablebase import SHIPPED_DIRECTORY, Wdl, open_tablebase
from engine.tablebase.shipped import shipped_files
from support.driver import EngineDriver, bestmove_of

KNKA_LONGEST = "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1"       # Red mates in 37 plies
KNKA_LOST = "9/3ka4/6N2/9/9/9/9/4K4/9/9 b - - 0 1"         # Black is mated in 26 plies at best (e8f7)
KNKAB_DRAWN = "4k4/4a4/1N7/9/2b6/9/9/9/9/3K5 b - - 0 1"     # c5e7 and c5a7 draw, the other five lose
KNKB_DRAWN = "2bk5/9/9/3N5/9/9/9/9/3K5/9 b - - 0 1"        # d9e9 and c9e7 draw, d9d8 and c9a7 lose
ONE_CAPTURE_FROM_KRKA = "3ak4/9/4c4/9/9/9/9/9/4R4/4K4 w - - 0 1"   # e1e7 takes the cannon: KRKA
SHIPPED = len(shipped_files())


@pytest.fixture(scope="module")
def library():
    return open_tablebase()


def run(engine: Engine, fen: str, limits: SearchLimits = SearchLimits(depth=4)):
    """(the answer, the info lines) of one `go` on `fen`."""
    infos, results = [], []
    engine.set_position(fen)
    engine.go(limits, on_info=infos.append, on_bestmove=results.append)
    assert engine.wait(60)
    return results[0], infos


def moves_valued(library, fen, plies=None, wdl=None):
    position = Position(fen)
    return {move for move, value in library.best_moves(position)
            if (plies is None or value.plies == plies) and (wdl is None or value.wdl is wdl)}


def test_a_won_root_plays_the_quickest_win(library):
    result, infos = run(Engine(), KNKA_LONGEST)
    assert result.bestmove in moves_valued(library, KNKA_LONGEST, plies=37)
    assert result.score.mate == 19 and result.pv[0] == result.bestmove and result.note.startswith("tablebase KNKA")
    assert [info.score.mate for info in infos] == [19]
    assert infos[0].tbhits == len(Position(KNKA_LONGEST).legal_moves()) and infos[0].pv == result.pv


def test_a_lost_root_loses_as_slowly_as_the_table_says(library):
    result, _ = run(Engine(), KNKA_LOST)
    assert result.bestmove == "e8f7" and result.score.mate == -13


@pytest.mark.parametrize("fen", [KNKAB_DRAWN, KNKB_DRAWN])
def test_a_drawn_root_keeps_a_drawing_move(library, fen):
    result, infos = run(Engine(), fen)
    assert result.bestmove in moves_valued(library, fen, wdl=Wdl.DRAW)
    assert "a draw; the search chose among the 2 moves" in result.note
    assert infos and infos[-1].depth == 4          # searched


def test_banmoves_and_searchmoves_narrow_the_tables_choice(library):
    engine = Engine()
    engine.set_position(KNKA_LOST)
    engine.set_banmoves(["e8f7"])
    results = []
    engine.go(SearchLimits(depth=4), on_info=lambda info: None, on_bestmove=results.append)
    assert engine.wait(60)
    assert results[0].bestmove == "e8d7" and results[0].score.mate == -9
    result, _ = run(Engine(), KNKA_LOST, SearchLimits(depth=4, searchmoves=("d8d7", "e8f9")))
    assert result.bestmove == "d8d7" and result.score.mate == -3


def test_multipv_shows_the_tables_lines():
    _, infos = run(Engine(EngineOptions(multipv=3)), KNKA_LOST)
    assert [(info.multipv, info.pv[0], info.score.mate) for info in infos] == [
        (1, "e8f7", -13), (2, "e8d7", -9), (3, "e8d9", -7)]


def test_a_limited_strength_and_use_tablebase_false_search_as_before():
    for options in (EngineOptions(skill_level=10), EngineOptions(use_tablebase=False)):
        result, infos = run(Engine(options), KNKA_LONGEST)
        assert result.note is None and result.nodes > 0
        assert all(info.tbhits == 0 for info in infos)


def test_a_win_past_the_natural_limit_is_searched():
    # The mate 37 plies away: the table plays while the mate or the next capture comes before the limit;
    # when neither does, the limit may come first, so the search decides.
    dtc = open_tablebase().probe(Position(KNKA_LONGEST)).dtc
    assert dtc < 37
    for counted in (120 - 37, 120 - dtc):
        assert run(Engine(), KNKA_LONGEST.replace(" 0 1", f" {counted} 1"))[0].note.startswith("tablebase KNKA")
    result, _ = run(Engine(), KNKA_LONGEST.replace(" 0 1", f" {120 - dtc + 1} 1"))
    assert result.note is None and result.nodes > 0


def test_the_search_counts_its_probes_below_the_root():
    result, infos = run(Engine(), ONE_CAPTURE_FROM_KRKA)
    assert result.bestmove == "e1e7" and result.note is None
    assert infos[-1].tbhits > 0


def test_a_folder_that_cannot_be_read_is_told_and_skipped(tmp_path):
    engine = Engine()
    engine.configure(tablebase_path=f"{tmp_path / 'missing'};{tmp_path}")
    summary = engine.tablebase_summary()
    assert "missing is not a folder that can be read" in summary and f"{SHIPPED} tables" in summary
    assert run(engine, KNKA_LONGEST)[0].note.startswith("tablebase KNKA")


def test_a_damaged_file_gives_way_to_the_next_folders(tmp_path):
    (tmp_path / "KNKA.jjtb").write_bytes((SHIPPED_DIRECTORY / "KNKA.jjtb").read_bytes()[:1000])
    (tmp_path / "notatable.jjtb").write_bytes(b"")
    engine = Engine(EngineOptions(tablebase_path=str(tmp_path)))
    assert engine.load_tablebases() is not None        # something was skipped: the user hears of it
    assert "notatable.jjtb" in engine.tablebase_summary() and f"{SHIPPED} tables found" in engine.tablebase_summary()
    assert run(engine, KNKA_LONGEST)[0].score.mate == 19     # read when needed: the shipped file
    assert "KNKA.jjtb" in engine.tablebase_summary()


def test_a_root_reads_only_the_tables_its_captures_can_reach():
    loader = tablebases.TablebaseLoader("", True)
    loader.ensure()
    assert loader.tables_for(Position()) is None          # the start: no table within reach
    assert loader.tables_for(Position(KNKA_LONGEST)).names == ("KNK", "KNKA")
    krkaabb = loader.tables_for(Position("2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")).names
    assert len(krkaabb) == 9 and all(name.startswith("KRK") for name in krkaabb)   # the chariot's tables


def test_large_files_are_read_in_the_background_for_the_next_roots(monkeypatch):
    monkeypatch.setattr(tablebases, "READ_AT_ONCE_BYTES", 0)
    monkeypatch.setattr(tablebases, "_READ", {})
    loader = tablebases.TablebaseLoader("", True)
    loader.ensure()
    first = loader.tables_for(Position(KNKA_LONGEST))      # reading starts; what is ready already, if any
    assert first is None or set(first.names) <= {"KNK", "KNKA"}
    assert loader.wait_reading(30)
    assert loader.tables_for(Position(KNKA_LONGEST)).names == ("KNK", "KNKA")


def test_the_roots_own_tables_are_read_at_once_when_the_move_has_the_time(monkeypatch):
    monkeypatch.setattr(tablebases, "READ_AT_ONCE_BYTES", 0)
    monkeypatch.setattr(tablebases, "_READ", {})
    loader = tablebases.TablebaseLoader("", True)
    loader.ensure()
    assert loader.tables_for(Position(KNKA_LONGEST), seconds=None).names == ("KNK", "KNKA")    # no limit
    monkeypatch.setattr(tablebases, "_READ", {})
    loader.select("", True)
    loader.ensure()
    readers = []
    read_into = tablebases._read_into
    monkeypatch.setattr(tablebases, "_read_into",
                        lambda *args: (readers.append(threading.current_thread()), read_into(*args)))
    loader.tables_for(Position(KNKA_LONGEST), seconds=1e-9)       # no time: in the background
    assert loader.wait_reading(30) and loader.tables_for(Position(KNKA_LONGEST)).names == ("KNK", "KNKA")
    assert readers and threading.main_thread() not in readers


def test_the_tables_read_for_a_root_stay_within_the_memory_budget(monkeypatch):
    monkeypatch.setattr(tablebases, "MEMORY_BUDGET", 6 * 100_000)
    loader = tablebases.TablebaseLoader("", True)
    loader.ensure()
    names = loader.tables_for(Position(KNKA_LONGEST)).names
    assert names == ("KNK", "KNKA")                       # 4,860 + 21,600 entries
    monkeypatch.setattr(tablebases, "MEMORY_BUDGET", 6 * 10_000)
    loader.select("", True)
    loader.ensure()
    assert loader.tables_for(Position(KNKA_LONGEST)).names == ("KNK",)   # the closest first, if it fits


def test_the_tables_are_read_when_the_options_change_and_not_during_a_search():
    engine = Engine()
    assert engine.load_tablebases() is None              # the shipped ones, read quietly
    engine.configure(use_tablebase=False)
    assert engine.tablebase_summary() == "tablebases off (UseTablebase false)"
    engine.set_position(None)
    engine.go(SearchLimits(infinite=True), on_info=lambda info: None, on_bestmove=lambda result: None)
    engine.configure(use_tablebase=True)                  # during the search: read afterwards
    assert engine.load_tablebases() is None and "next idle" in engine.tablebase_summary()
    engine.stop()
    assert engine.wait(10)
    assert engine.load_tablebases().startswith(f"tablebases: {SHIPPED} tables found")


def test_folders_are_separated_by_semicolons():
    assert tablebases.folders_of(" a ; ;b;") == ["a", "b"]


@pytest.mark.slow
def test_uci_reports_tbhits_and_a_bad_folder():
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("setoption name TablebasePath value /nonexistent/tables")
        told = eng.read_until("info string", timeout=30)
        assert "/nonexistent/tables is not a folder that can be read" in told[-1]
        eng.send(f"position fen {ONE_CAPTURE_FROM_KRKA}")
        eng.send("go depth 4")
        lines = eng.read_until("bestmove", timeout=30)
        assert bestmove_of(lines) == "e1e7"
        hits = [int(line.split(" tbhits ")[1].split()[0]) for line in lines if line.startswith("info depth")]
        assert hits and hits[-1] > 0
        eng.send("setoption name UseTablebase value false")
        eng.send(f"position fen {KNKA_LONGEST}")
        eng.send("go depth 3")
        lines = eng.read_until("bestmove", timeout=30)
        assert not [line for line in lines if "tablebase KNKA" in line]
        assert all(" tbhits 0 " in line for line in lines if line.startswith("info depth"))


@pytest.mark.slow
def test_ucci_offers_the_tables_options():
    with EngineDriver() as eng:
        lines = eng.handshake("ucci")
        assert "option useegtb type check default true" in lines
        assert "option tablebasepath type string default <empty>" in lines
        eng.send("setoption egtbpaths /nonexistent/tables")
        assert "not a folder" in eng.read_until("info string", timeout=30)[-1]
        eng.send(f"position fen {KNKA_LONGEST}")
        eng.send("go depth 3")
        lines = eng.read_until("bestmove", timeout=30)
        assert any("tablebase KNKA" in line for line in lines)
        assert "info depth 1 score 29963 pv" in " ".join(lines)     # mate in 37 plies: 30000 - 37

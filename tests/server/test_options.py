"""The option table (engine/server/options.py): one row per option, each dialect's wire form generated from
it, and rows appended at run time (the search's tuning parameters)."""
from __future__ import annotations

import pytest

from engine import book
from engine.server import options
from engine.server.engine import EngineOptions
from engine.server.options import (
    BUILTIN_OPTIONS, FEATURE, EngineOption, OptionError, OptionTable, Spelling, option_table, tuning_options,
)
from engine.server.session import LazyEngine
from engine.server.uci import UciSession
from engine.server.ucci import UcciSession


def test_the_table_gives_every_engine_options_field_its_default():
    rows = {row.field: row for row in BUILTIN_OPTIONS if row.field}
    assert set(rows) == set(EngineOptions.__dataclass_fields__)
    for field, row in rows.items():
        assert getattr(EngineOptions(), field) == row.default, field


def test_the_shipped_book_is_the_default_book_file():
    assert options.SHIPPED_BOOK == book.DEFAULT


def test_each_row_says_what_it_sets_and_what_it_does():
    for row in BUILTIN_OPTIONS:
        assert row.meaning, row
        assert sum(x is not None for x in (row.field, row.action, row.setting)) <= 1, row
        assert row.spelling("uci") or row.spelling("ucci"), row


def test_names_are_unique_within_each_dialect():
    table = option_table({})
    for dialect in ("uci", "ucci", "cecp"):
        names = [name for row in table.offered(dialect) for name in row.names()]
        assert len(names) == len(set(names)), dialect


def test_one_row_in_three_wire_forms():
    row = option_table({}).find("uci", "skill level")
    assert row is not None
    assert row.line("uci") == "option name Skill Level type spin default 20 min 0 max 20"
    assert row.line("ucci") == "option skilllevel type spin min 0 max 20 default 20"
    from engine.server.cecp_codec import option_feature
    assert option_feature(row) == 'feature option="Skill Level -spin 20 0 20"'


def test_show_wdl_is_a_setting_of_the_uci_family_only():
    table = option_table({})
    row = table.find("uci", "uci_showwdl")
    assert row is not None and row is table.find("ucci", "showwdl") and row.setting == "show_wdl"
    assert row.line("uci") == "option name UCI_ShowWDL type check default false"
    assert row.line("ucci") == "option showwdl type check default false"
    assert table.find("cecp", "UCI_ShowWDL") is None      # CECP's thinking lines have no room for it
    for session_type in (UciSession, UcciSession):
        session = session_type(LazyEngine(), lambda line: None)
        assert session.show_wdl is False
        options.apply(row, row.parse(session.dialect, "true"), session)
        assert session.show_wdl is True


def test_a_file_is_a_string_in_the_uci_family():
    row = option_table({}).find("uci", "BookFile")
    assert row is not None and row.kind == "file"
    assert row.line("uci") == f"option name BookFile type string default {book.DEFAULT}"
    assert row.line("ucci") == f"option bookfiles type string default {book.DEFAULT}"


def test_find_by_any_dialects_name_in_any_case_but_only_among_the_dialects_rows():
    table = option_table({})
    hash_row = table.find("uci", "Hash")
    assert table.find("ucci", "HASH") is hash_row and table.find("uci", "hashsize") is hash_row
    assert table.find("ucci", "Use NNUE") is table.find("uci", "usennue") is table.find("cecp", "use nnue")
    assert table.find("uci", "newgame") is table.find("ucci", "Clear Hash")
    assert table.find("ucci", "MultiPV") is None, "UCCI has no MultiPV"
    assert table.find("uci", "usemillisec") is None, "a setting of UCCI's wire"
    assert table.find("cecp", "Hash") is None, "CECP's memory command"
    assert table.find("uci", "nope") is None


def test_dialects_read_values_their_own_way():
    table = option_table({})
    hash_row, threads_row, book_row = (table.find("uci", name) for name in ("Hash", "Threads", "BookFile"))
    assert hash_row and threads_row and book_row
    assert hash_row.parse("ucci", "0") == options.DEFAULT_HASH_MB    # UCCI: 0 lets the engine choose
    assert threads_row.parse("ucci", "0") == options.default_threads()
    with pytest.raises(OptionError, match="Hash must be at least 1"):
        hash_row.parse("uci", "0")
    assert book_row.parse("ucci", "a.dat; b.dat") == "a.dat"          # ElephantEye's list: the first
    assert book_row.parse("uci", "a.dat; b.dat") == "a.dat; b.dat"
    assert book_row.parse("uci", "<empty>") == ""


@pytest.mark.parametrize("kind,text,message", [
    ("spin", "x", "whole number"), ("spin", "", "needs a value"), ("check", "maybe", "true or false"),
    ("combo", "chess", "accepts xiangqi"),
])
def test_bad_values_say_why(kind, text, message):
    row = EngineOption(kind, "test", uci="Test", default=1, minimum=0, maximum=9, choices=("xiangqi",))
    with pytest.raises(OptionError, match=message):
        row.parse("uci", text)


def test_cecp_commands_are_the_rows_cecp_sets_by_a_command_of_their_own():
    table = option_table({})
    assert [row.cecp for row in table.commands()] == ["memory", "cores"]
    assert [row.name("cecp") for row in table.offered("cecp")][:3] == ["MultiPV", "Move Overhead", "Clear Hash"]


# -- rows appended at run time: the tuning parameters ----------------------------------------------------
FAKE_PARAMETERS = [("FutilityMargin", 110, 50, 200, "futility margin per depth (cp)"),
                   ("LmrBase", 75, 0, 150, "late move reduction base (hundredths)")]


def test_tuning_parameters_become_spin_options_in_every_dialect():
    set_to: list[tuple[str, int]] = []
    said: list[str] = []
    session = UciSession(LazyEngine(), said.append)
    session.options.extend(tuning_options(FAKE_PARAMETERS, lambda name, value: set_to.append((name, value))))
    session.handshake()
    assert "option name FutilityMargin type spin default 110 min 50 max 200" in said
    assert said[-1] == "uciok"
    session.handle("setoption name futilitymargin value 120".split())
    assert set_to == [("FutilityMargin", 120)]
    with pytest.raises(OptionError, match="at most 150"):
        session.handle("setoption name LmrBase value 151".split())
    ucci = UcciSession(LazyEngine(), said.append)
    ucci.options.extend(tuning_options(FAKE_PARAMETERS, lambda name, value: set_to.append((name, value))))
    ucci.handle("setoption LmrBase 10".split())
    assert set_to[-1] == ("LmrBase", 10)


def test_the_table_offers_the_kernels_parameters_only_when_asked(monkeypatch):
    from engine import _core
    set_to: list[tuple[str, int]] = []
    monkeypatch.setattr(_core, "search_parameters", lambda: FAKE_PARAMETERS, raising=False)
    monkeypatch.setattr(_core, "set_search_parameter", lambda name, value: set_to.append((name, value)),
                        raising=False)
    builtin = len(BUILTIN_OPTIONS)
    assert len(option_table({}).rows) == builtin
    table = option_table({options.TUNE_VARIABLE: "1"})
    assert [row.name("uci") for row in table.rows[builtin:]] == ["FutilityMargin", "LmrBase"]
    row = table.find("uci", "LmrBase")
    assert row is not None and row.action is not None
    row.action(None, 3)   # type: ignore[arg-type]   # a tuning parameter is the kernel's, not the facade's
    assert set_to == [("LmrBase", 3)]


@pytest.mark.slow
def test_the_engine_offers_the_kernels_parameters_under_jiangjun_tune(monkeypatch):
    """Through the engine process, as an SPSA tuner drives it: the search's parameters are spin options
    only under JIANGJUN_TUNE, a value out of range is refused, and a changed value changes the search."""
    from engine import _core
    from support.driver import EngineDriver

    def nodes_at_depth_8(*setoptions: str) -> int:
        with EngineDriver() as eng:
            handshake = eng.handshake("uci")
            for line in setoptions:
                eng.send(line)
            eng.send("position startpos")
            eng.send("go depth 8")
            info = [line for line in eng.read_until("bestmove", timeout=30) if line.startswith("info depth 8 ")]
        assert info, handshake
        nodes_at_depth_8.handshake = handshake
        return int(info[-1].split(" nodes ")[1].split()[0])

    monkeypatch.delenv(options.TUNE_VARIABLE, raising=False)
    plain = nodes_at_depth_8()
    assert not any(" lmr_base " in line for line in nodes_at_depth_8.handshake)
    monkeypatch.setenv(options.TUNE_VARIABLE, "1")
    assert nodes_at_depth_8() == plain        # listed, at their defaults
    names = [name for name, *_ in _core.search_parameters()]
    offered = [line.split()[2] for line in nodes_at_depth_8.handshake if line.startswith("option name ")]
    assert offered[-len(names):] == names     # after the built-in options, in the table's order
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("setoption name lmr_base value 99999")
        assert "at most" in eng.ping()[0]
    assert nodes_at_depth_8("setoption name lmr_base value 600", "setoption name rfp_margin value 60") != plain


def test_a_table_can_be_extended():
    table = OptionTable([])
    table.extend([EngineOption("check", "test", uci="Test", ucci=Spelling("test"), cecp=FEATURE, default=False)])
    assert [row.line("ucci") for row in table.offered("ucci")] == ["option test type check default false"]

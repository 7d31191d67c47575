"""`jiangjun tb build` and `jiangjun tb show`, run in process."""
import io

from engine.cli import main as jiangjun
from engine.tablebase.cli import main

KRK = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def test_build_writes_the_tables_and_their_dependencies(tmp_path):
    code, out, err = run("build", "KRKA", "-o", str(tmp_path), "--verify")
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["KRK.jjtb", "KRKA.jjtb", "build-state.json"]
    assert "KRKA" in out and "written" in err
    code, out, _ = run("build", "3k5/4r4/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "-o", str(tmp_path))  # a FEN: KRKA
    assert code == 0 and out.count("reused") == 2


def test_show_prints_the_value_and_every_move(table_dir):
    code, out, _ = run("show", KRK, "--tables", str(table_dir))
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith("value     win, mate in")
    assert len(lines) == 2 + 17 and "车五" in out     # the position, its value, then one line per legal move


def test_show_says_when_a_capture_comes_before_the_mate():
    code, out, _ = run("show", "9/9/3ak4/9/9/9/9/9/9/N2K5 w - - 0 1")      # KNKA, shipped: mate in 37
    assert code == 0 and out.splitlines()[1].startswith("value     win, mate in 37 plies; a capture in ")


def test_errors_are_reported_not_raised(table_dir):
    code, _, err = run("show", "2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "--tables", str(table_dir))
    assert code == 0                                  # KRKAABB is shipped in the package
    code, _, err = run("show", "2bakab2/9/9/9/9/9/9/9/RR7/3K5 w - - 0 1", "--tables", str(table_dir))
    assert code == 2 and "no KRRKAABB table" in err
    code, _, err = run("build", "KRXK")
    assert code == 2 and "unknown ending" in err


def test_the_jiangjun_command_knows_tb(capsys):
    try:
        jiangjun(["tb", "--help"])
    except SystemExit as exit_:
        assert exit_.code == 0
    assert "build" in capsys.readouterr().out


def test_info_prints_what_the_header_records(table_dir):
    code, out, _ = run("info", str(table_dir / "KRKA.jjtb"))
    assert code == 0
    assert out.startswith("KRKA ") and "rules: asian" in out and "red to move: 18,507 positions" in out
    code, _, err = run("info", str(table_dir / "nothing.jjtb"))
    assert code == 2 and "cannot read" in err


def test_list_prints_the_set_and_with_all_what_is_left_out():
    from engine.tablebase.catalog import left_out, the_set

    code, out, _ = run("list")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:2] == ["ending", "entries/side"]
    assert lines[1].split()[:3] == [the_set()[0].name, f"{the_set()[0].entries:,}", "96"]
    assert len(lines) == 1 + len(the_set()) + 1 and lines[-1].endswith("--all lists them")
    code, out, _ = run("list", "--all")
    assert len(out.splitlines()) == 1 + len(the_set()) + len(left_out()) + 1
    assert "KCPABKAABB" in out and "left out: needs 12.33 GiB to build, over the 2 GiB budget" in out


def test_list_built_gives_each_built_tables_figures(tmp_path):
    assert run("build", "KRKA", "-o", str(tmp_path))[0] == 0
    code, out, _ = run("list", "--built", str(tmp_path), "--markdown")
    assert code == 0 and out.startswith("| ending | entries/side | estimated peak MiB | seconds | positions/s |")
    krka = next(line for line in out.splitlines() if line.startswith("| KRKA |"))
    assert krka.endswith(f"| {(tmp_path / 'KRKA.jjtb').stat().st_size:,} |")
    assert "| KNK | 4,860 | 96 | not built |" in out and "built in " in out and ": 2 of " in out
    code, out, _ = run("list", "--built", str(tmp_path), "--only-built", "--markdown")
    assert code == 0 and [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| K")] == ["| KRK", "| KRKA"]


def test_build_without_an_ending_builds_the_set(monkeypatch):
    from engine.tablebase import cli
    from engine.tablebase.catalog import the_set
    from engine.tablebase.runner import RunResult

    plans = []
    monkeypatch.setattr(cli, "run_build", lambda plan, *args, **kwargs: plans.append(plan) or RunResult())
    assert run("build", "-o", "nowhere")[0] == 0
    assert [table.name for table in plans[0]] == [entry.name for entry in the_set()]

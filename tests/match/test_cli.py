"""engine.match.cli: the command line into a MatchConfig, and the help text and docs/match.md's option reference
generated from the option table."""
import re
import shlex

import pytest

from support import ROOT
from engine.match import cli
from engine.match.cli import UsageError, help_text, markdown_reference, parse_args, with_reference
from engine.match.openings import default_book
from engine.match.options import TABLE

DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
PLACEHOLDERS = {"-seed S": "-seed 1"}     # values the docs leave to the reader
TWO = ["-engine", "cmd=a", "-engine", "cmd=b"]


def test_each_engine_its_own_time_control():
    # As cutechess: an engine's tc= wins over -each's and -tc; st=, depth=, nodes= over any tc.
    config = parse_args(["-engine", "cmd=jj", "-engine", "cmd=pk", "tc=20+0.2", "-engine", "cmd=fsf", "depth=9",
                         "-tc", "10+0.1", "-scale", "0.5"])
    jj, pk, fsf = (spec.tc for spec in config.engines)
    assert (jj.pgn_tag(), pk.pgn_tag(), fsf.depth, fsf.stages) == ("5+0.05", "10+0.1", 9, ())
    config = parse_args(TWO + ["-each", "tc=40/60", "-tc", "1+0"])
    assert {spec.tc.pgn_tag() for spec in config.engines} == {"40/60"}
    with pytest.raises(UsageError, match="no time control for engine a"):
        parse_args(TWO)


def test_no_adjudication():
    config = parse_args(TWO + ["-tc", "1+0", "-noadjudicate"])
    assert config.adjudication.rules_only and config.adjudication.max_moves == 0
    assert not parse_args(TWO + ["-tc", "1+0"]).adjudication.rules_only
    for other in (["-maxmoves", "100"], ["-draw", "movecount=3"], ["-resign", "score=900"]):
        with pytest.raises(UsageError, match=f"-noadjudicate adjudicates nothing: it cannot go with {other[0]}"):
            parse_args(TWO + ["-tc", "1+0", "-noadjudicate", *other])


def test_xboard_engines_take_no_node_limit_nor_fractions_of_a_second():
    with pytest.raises(UsageError, match="an XBoard engine takes no node limit"):
        parse_args(["-engine", "cmd=a", "proto=xboard", "-engine", "cmd=b", "-tc", "nodes=100"])
    with pytest.raises(UsageError, match="an XBoard engine's st is whole seconds, not 0.5"):
        parse_args(["-engine", "cmd=a", "proto=cecp", "st=0.5", "-engine", "cmd=b", "-tc", "1+0"])


def test_help_lists_every_option_and_setting(capsys):
    text = help_text()
    for row in TABLE:
        assert re.search(rf"^  {re.escape(row.flag)}\b", text, re.MULTILINE), row.flag
        for key in row.keys:
            assert key.spelling() in text
    assert "(default 100)" in text and "cn-90-40 (40 moves in 90 min" in text
    assert max(len(line) for line in text.splitlines()) <= 110
    assert cli.main(["-help"]) == 0 and capsys.readouterr().out.strip() == text
    assert cli.main(["-games", "x"]) == 2
    assert "jiangjun match: -games must be a whole number" in capsys.readouterr().err


def test_the_docs_reference_is_the_tables():
    """docs/match.md's option reference is generated: `python -m engine.match.cli --markdown docs/match.md`
    rewrites it after a change to the table."""
    document = (ROOT / "docs" / "match.md").read_text(encoding="utf-8")
    assert with_reference(document) == document, "run: python -m engine.match.cli --markdown docs/match.md"
    reference = markdown_reference()
    assert all(f"`{row.flag}" in reference for row in TABLE)
    assert "| `tc=TC` |" in reference and "| `-noadjudicate` |" in reference


def doc_commands():
    """Every `jiangjun match` command written out in the README, CONTRIBUTING and docs/ (not those
    abbreviated with `...`), its continuation lines joined."""
    for path in DOCS:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            found = re.match(r"\s*(?:\$ )?(?:jiangjun|python -m engine) match (.*)", line)
            if not found or "..." in line:
                continue
            text, following = found.group(1), number + 1
            while text.rstrip().endswith("\\"):
                text = text.rstrip()[:-1] + " " + lines[following].split("  #")[0]
                following += 1
            for placeholder, value in PLACEHOLDERS.items():
                text = text.replace(placeholder, value)
            yield pytest.param(text.split("  #")[0], id=f"{path.name}:{number + 1}")


@pytest.mark.parametrize("command", list(doc_commands()))
def test_the_docs_commands_are_read(command, monkeypatch):
    monkeypatch.setattr(cli, "load_openings", lambda *args: default_book()[:2])
    config = parse_args(shlex.split(command))
    assert len(config.engines) >= 2

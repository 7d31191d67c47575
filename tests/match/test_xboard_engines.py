"""jiangjun match with XBoard (CECP) engines: MaxQi and Sjaak II against jiangjun to results by the rules, jiangjun
itself as an XBoard player, result claims judged by the rules, faults; the gauntlet; the engines' names and
options in the PGN tags."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from support import MAXQI, SJAAK, needs_maxqi, needs_sjaak
from support.driver import ENGINE_COMMAND, fake_command
from engine.client import EngineConfig
from engine.match.cli import UsageError, parse_args
from engine.match.endings import MatchTermination
from engine.match.referee import Adjudication
from engine.match.openings import default_book
from engine.match.runner import EngineSpec, Match, MatchConfig, schedule
from engine.match.timecontrol import TimeControl
from engine.outcome import Termination
from engine.pgn import read_games

pytestmark = pytest.mark.usefixtures("engine_pythonpath")


def xfake(*flags: str, name: str | None = None, **kw) -> EngineConfig:
    return EngineConfig(fake_command("xboard_fake.py", *flags), name=name, proto="xboard", **kw)


def ufake(script: str = "random_mover.py", name: str | None = None) -> EngineConfig:
    return EngineConfig(fake_command(script), name=name or script[:-3])


def jiangjun(workdir: str, proto: str, name: str | None = None) -> EngineConfig:
    # The games are fast (2 s + 0.05 s) and the test machine may be busy: a GUI on a loaded machine would
    # raise the overhead kept back per move in the same way.
    options = {"Threads": "1"} if proto != "xboard" else {"Hash": "16"}
    return EngineConfig(ENGINE_COMMAND, proto=proto, workdir=workdir, name=name,
                        options={**options, "Move Overhead": "150"})


def run_match(engines, tc="10+0.1", **settings) -> tuple[Match, str]:
    out = io.StringIO()
    specs = [EngineSpec(config, TimeControl.parse(tc)) for config in engines]
    settings.setdefault("openings", default_book()[:2])
    match = Match(MatchConfig(engines=specs, **settings), out)
    match.run()
    return match, out.getvalue()


RULES_ENDINGS = {ending.words for ending in Termination}    # the PGN's Termination tags of the rules' endings


def ended_by_the_rules(record, theirs: str) -> bool:
    """The game ended by the rules, or by the rules' verdict on a claim of the other engine's (MaxQi, say,
    claims chess's fifty-move draw, which Xiangqi's 60-move rule does not give: it loses that game)."""
    if record.termination == MatchTermination.INVALID_CLAIM:
        return (record.red, record.black)[record.loser_index] == theirs
    return record.termination in Termination


def replays(pgn: Path) -> None:
    """Every game of the PGN replays legally to its end; a game ended by the rules ends there."""
    for game in read_games(pgn):
        position = game.end_position()
        if game.headers["Termination"] in RULES_ENDINGS:
            assert position.outcome() is not None and position.outcome().result == game.result


# -- the real programs ---------------------------------------------------------------------------------------
@pytest.mark.slow
@needs_maxqi
def test_maxqi_against_jiangjun(tmp_path, outside):
    pgn = tmp_path / "maxqi.pgn"
    match, output = run_match([jiangjun(outside, "uci"), EngineConfig(MAXQI, proto="xboard")], tc="2+0.05",
                              games=2, pgn_path=str(pgn))
    assert len(match.records) == 2 and "Results (2 games)" in output
    for record in match.records:
        assert ended_by_the_rules(record, "MaxQi 4.8G"), record.detail       # no fault of jiangjun's
    replays(pgn)
    tags = read_games(pgn)[0].headers
    assert "MaxQi 4.8G" in (tags["RedEngine"], tags["BlackEngine"])


@pytest.mark.slow
@needs_sjaak
def test_sjaak_against_jiangjun_as_an_xboard_engine(tmp_path, outside, sjaak_home):
    pgn = tmp_path / "sjaak.pgn"
    match, output = run_match([jiangjun(outside, "xboard", name="jj-xboard"), EngineConfig(SJAAK, proto="cecp")],
                              tc="2+0.05", games=2, pgn_path=str(pgn))
    assert len(match.records) == 2
    for record in match.records:
        assert ended_by_the_rules(record, "Sjaak II 1.4.1"), record.detail
    replays(pgn)
    tags = read_games(pgn)[0].headers
    ours = "Red" if tags["Red"] == "jj-xboard" else "Black"
    theirs = "Black" if ours == "Red" else "Red"
    assert tags[f"{ours}Engine"].startswith("jiangjun ") and tags[f"{ours}Options"] == "OwnBook=false; memory=16; Move Overhead=150"
    assert tags[f"{theirs}Engine"] == tags[theirs] == "Sjaak II 1.4.1"     # its myname


# -- result claims, judged by the rules -------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("flags,termination,result,words", [
    # Black (the fake, on its first move) claims a win the rules do not give: it loses.
    (("--claim-only", "0-1 {Black mates}"), "invalid_claim", "1-0", "claims 0-1 {Black mates}, which the rules"),
    # ... a draw, with its move: the move stands, and it loses.
    (("--claim", "1/2-1/2 {Draw by repetition}"), "invalid_claim", "1-0", "claims 1/2-1/2"),
    # ... its own loss: a resignation.
    (("--claim-only", "1-0 {White mates}"), "resignation", "1-0", "resigns: it claims 1-0"),
    (("--resign",), "resignation", "1-0", "resigns"),
])
def test_claims_are_judged_by_the_rules(flags, termination, result, words):
    match, output = run_match([ufake(), xfake("--at", "1", *flags, name="claimer")], games=1)
    record = match.records[0]
    assert (record.termination, record.result) == (termination, result), record.detail
    assert words in record.detail and "Black (claimer)" in record.detail
    if "--claim" in flags:
        assert len(record.moves) == len(default_book()[0].moves) + 2        # Red's move, then the claimer's


@pytest.mark.slow
def test_draw_offers_are_ignored():
    match, _ = run_match([ufake(), xfake("--offer-draw", name="offerer")], games=1,
                         adjudication=Adjudication(max_moves=12))
    assert match.records[0].termination == "max_moves"


@pytest.mark.slow
@pytest.mark.parametrize("flags,termination", [
    (("--illegal",), "illegal_move"),
    (("--crash",), "crash"),
    (("--hang",), "time_forfeit"),
    (("--refuse", "--at", "2"), "protocol_error"),
])
def test_a_faulty_xboard_engine_loses_and_the_match_goes_on(flags, termination):
    match, output = run_match([ufake(), xfake(*flags, name="faulty", rank_base=0)], tc="1+0.05", games=2)
    assert len(match.records) == 2, output
    faulty = [r for r in match.records if r.termination == termination]
    assert faulty and all((r.winner == "red") == (r.black == "faulty") for r in faulty), \
        [(r.termination, r.detail) for r in match.records]


# -- gauntlet -----------------------------------------------------------------------------------------------------
def test_a_gauntlet_plays_the_first_engine_against_each_other():
    specs = [EngineSpec(ufake(name=f"e{i}"), TimeControl.parse("depth=1")) for i in range(4)]
    config = MatchConfig(engines=specs, openings=default_book()[:2], games=2, tournament="gauntlet")
    assert [(job.first, job.second) for job in schedule(config)] == [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0)]
    assert len(schedule(MatchConfig(engines=specs, openings=default_book()[:2]))) == 6    # round-robin: 6 pairs
    with pytest.raises(ValueError, match="tournament"):
        schedule(MatchConfig(engines=specs, openings=[], tournament="knockout"))


@pytest.mark.slow
def test_gauntlet_summary_per_opponent_and_in_total():
    engines = [ufake(name="hero"), ufake(name="a"), xfake(name="b")]
    match, output = run_match(engines, tc="1+0.05", games=2, repeat=True, tournament="gauntlet",
                              adjudication=Adjudication(max_moves=10))
    assert len(match.records) == 4 and set(match.scores) == {(0, 1), (0, 2)}
    table = output[output.index("Results (4 games)"):]
    assert "hero vs a: W" in table and "hero vs b: W" in table and "a vs b" not in table
    assert "hero vs all 2 opponents: W" in table and table.count("pairs: Ptnml(0-2)") == 3
    assert match.scores[(0, 1)].games == match.scores[(0, 2)].games == 2


# -- command line ----------------------------------------------------------------------------------------------
def test_command_line_for_xboard_engines_and_the_tournament():
    config = parse_args(["-engine", "cmd=/usr/games/maxqi", "proto=xboard", "-engine", "cmd=x", "proto=cecp",
                         "-engine", "cmd=y", "-each", "tc=10+0.1", "-tournament", "gauntlet"])
    assert [spec.config.proto for spec in config.engines] == ["xboard", "cecp", "auto"]
    assert config.tournament == "gauntlet"
    assert parse_args(["-engine", "cmd=a", "-engine", "cmd=b", "-tc", "1"]).tournament == "round-robin"
    with pytest.raises(UsageError, match="tournament must be one of round-robin, gauntlet"):
        parse_args(["-engine", "cmd=a", "-engine", "cmd=b", "-tc", "1", "-tournament", "swiss"])
    with pytest.raises(UsageError, match="no node limit"):
        parse_args(["-engine", "cmd=a", "proto=xboard", "-engine", "cmd=b", "-tc", "nodes=1000"])
    with pytest.raises(UsageError, match="whole seconds"):
        parse_args(["-engine", "cmd=a", "proto=xboard", "-engine", "cmd=b", "-tc", "st=0.5"])
    with pytest.raises(UsageError, match="proto must be"):
        parse_args(["-engine", "cmd=a", "proto=winboard", "-engine", "cmd=b", "-tc", "1"])

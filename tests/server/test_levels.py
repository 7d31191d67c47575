"""The strength levels through the protocols, with the engine as a subprocess: every level answers a
short clock in time with a legal move, UCI_LimitStrength + UCI_Elo (and the UCCI names) set a level,
bad values are reported while the engine goes on, and a weaker level searches less, never longer."""
from __future__ import annotations

import re

import pytest

from engine import Position
from engine.server.strength import ELO_MAX, ELO_MIN, LEVELS, elo_to_level
from support.driver import EngineDriver, bestmove_of, start_cecp

pytestmark = pytest.mark.slow

INFO = re.compile(r"^info depth (\d+) .*multipv (\d+) .* nodes (\d+) .* time (\d+)")
LEVEL = re.compile(r"^info string (?:UCI_Elo (\d+): )?strength level (\d+\.\d\d) ")
#: A middlegame out of the book (from the master-game openings of benchmarks/openings-ccpd.txt).
MOVES = "h2e2 h9g7 h0g2 i9h9 c3c4 g6g5 b0c2 b9c7 i0i1 g9e7 i1f1 a9a8".split()
POSITION = "position startpos moves " + " ".join(MOVES)


def legal_moves() -> set[str]:
    position = Position()
    for move in MOVES:
        position.push(move)
    return set(position.legal_moves())


@pytest.fixture
def uci():
    with EngineDriver() as driver:
        driver.handshake("uci", book=False)
        yield driver
        assert driver.proc.poll() is None, "the engine exited"


def search(eng: EngineDriver, go: str, timeout: float = 10.0) -> list[str]:
    """The lines of one `go` from POSITION."""
    eng.send(POSITION)
    eng.send(go)
    return eng.read_until("bestmove", timeout)


def set_level(eng: EngineDriver, level: int) -> str:
    eng.send(f"setoption name Skill Level value {level}")
    return eng.ping()[-1]


def test_options_are_advertised():
    with EngineDriver() as eng:
        lines = eng.handshake("uci")
        assert "option name Skill Level type spin default 20 min 0 max 20" in lines
        assert "option name UCI_LimitStrength type check default false" in lines
        assert f"option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}" in lines
    with EngineDriver() as eng:
        lines = eng.handshake("ucci")
        assert "option skilllevel type spin min 0 max 20 default 20" in lines
        assert "option limitstrength type check default false" in lines
        assert f"option elo type spin min {ELO_MIN} max {ELO_MAX} default {ELO_MAX}" in lines


def test_every_level_answers_a_short_clock_with_a_legal_move(uci):
    legal = legal_moves()
    for level in range(21):
        said = set_level(uci, level)
        if level == 20:
            assert said == "info string full strength"
        else:
            assert LEVEL.match(said) and float(LEVEL.match(said).group(2)) == level, said
        lines = search(uci, "go wtime 1000 btime 1000")     # on its own, within the read's timeout
        assert bestmove_of(lines) in legal, (level, lines[-1])


def test_a_weak_level_searches_less_and_answers_sooner(uci):
    """Under the same `go`, a level below full strength stops at its caps: fewer nodes, no deeper than
    its depth; and under a minute's movetime it answers on its own, where full strength uses the minute."""
    set_level(uci, 20)
    full = search(uci, "go movetime 500")
    full_nodes = max(int(m.group(3)) for m in map(INFO.match, full) if m)
    for level in (0, 5, 10):
        set_level(uci, level)
        lines = search(uci, "go movetime 500")
        infos = [m for m in map(INFO.match, lines) if m]
        assert infos and all(m.group(2) == "1" for m in infos), "the candidates' lines are not shown"
        assert max(int(m.group(1)) for m in infos) <= int(LEVELS[level].depth) + 1
        nodes = max(int(m.group(3)) for m in infos)
        # The kernel polls its node limit every 1024 nodes.
        assert nodes <= LEVELS[level].nodes + 1024 and nodes < full_nodes, (level, nodes, full_nodes)
        bestmove_of(search(uci, "go movetime 60000"))


def test_weak_levels_vary_their_moves(uci):
    set_level(uci, 0)
    played = {bestmove_of(search(uci, "go wtime 60000 btime 60000")) for _ in range(12)}
    assert len(played) >= 2 and played <= legal_moves()


def test_multipv_still_shows_the_lines_asked_for(uci):
    uci.send("setoption name MultiPV value 2")
    set_level(uci, 8)
    lines = search(uci, "go depth 3")
    shown = {m.group(2) for m in map(INFO.match, lines) if m}
    assert shown == {"1", "2"}


def test_limit_strength_and_elo_set_a_level_that_wins_over_skill_level(uci):
    elo = (ELO_MIN + ELO_MAX) // 2
    uci.send("setoption name Skill Level value 20")
    uci.send("setoption name UCI_LimitStrength value true")
    uci.send(f"setoption name UCI_Elo value {elo}")
    said = uci.ping()
    match = LEVEL.match(said[-1])
    assert match and int(match.group(1)) == elo, said
    assert float(match.group(2)) == pytest.approx(elo_to_level(elo), abs=0.005)
    assert bestmove_of(search(uci, "go wtime 1000 btime 1000")) in legal_moves()
    uci.send("setoption name UCI_LimitStrength value false")
    assert uci.ping() == ["info string full strength"]


@pytest.mark.parametrize("command, words", [
    ("setoption name Skill Level value 21", ("Skill Level", "at most 20")),
    ("setoption name Skill Level value -1", ("Skill Level", "at least 0")),
    ("setoption name Skill Level value strong", ("Skill Level",)),
    (f"setoption name UCI_Elo value {ELO_MAX + 1}", ("UCI_Elo", f"at most {ELO_MAX}")),
    ("setoption name UCI_LimitStrength value maybe", ("UCI_LimitStrength",)),
])
def test_a_bad_value_is_reported_and_the_engine_goes_on(uci, command, words):
    set_level(uci, 3)
    uci.send(command)
    said = uci.ping()
    assert len(said) == 1 and said[0].startswith("info string") and all(w in said[0] for w in words), said
    assert set_level(uci, 3).startswith("info string strength level 3.00")    # the level is unchanged
    assert bestmove_of(search(uci, "go wtime 1000 btime 1000")) in legal_moves()


def test_ucci_names_set_the_level():
    with EngineDriver() as eng:
        eng.handshake("ucci")
        eng.send("setoption usebook false")
        eng.send("setoption skilllevel 4")
        assert eng.ping()[-1].startswith("info string strength level 4.00 ")
        eng.send("setoption skilllevel 99")
        assert "at most 20" in eng.ping()[-1]
        eng.send("setoption limitstrength true")
        eng.send(f"setoption elo {ELO_MIN}")
        assert eng.ping()[-1].startswith(f"info string UCI_Elo {ELO_MIN}: strength level 0.00 ")
        eng.send(POSITION)
        eng.send("go time 1 opptime 1")
        lines = eng.read_until("bestmove", 10)
        assert lines[-1].split()[1] in legal_moves()


def test_cecp_offers_the_levels_as_options():
    driver, cecp = start_cecp(extra=())
    with driver:
        driver.send("xboard")
        driver.send("protover 2")
        features = driver.read_until("feature done=1", timeout=5)
        assert 'feature option="Skill Level -spin 20 0 20"' in features
        assert 'feature option="UCI_LimitStrength -check 0"' in features
        cecp.send("option Skill Level=2")
        assert cecp.sync() == ["telluser strength level 2.00 (" + LEVELS[2].describe() + ")"]
        cecp.send("new", "variant xiangqi", "st 1", "usermove h2e2")
        move, _ = cecp.move()
        after = Position()
        after.push("h2e2")
        assert move in after.legal_moves()

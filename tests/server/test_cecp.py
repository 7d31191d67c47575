"""CECP (the xboard protocol), driving `python -m engine` as a subprocess: the handshake, the game flow
as XBoard drives it, time controls, thinking output, pondering, analysis, result claims and bad input."""
from __future__ import annotations

import re
import time

import pytest

from engine import Position, _core
from support.driver import (MATE_IN_ONE_FEN, REQUIRED_FEATURES, THINKING, XBOARD_START, Cecp,
                            EngineDriver, mates_in_one, start_cecp as start)

@pytest.fixture
def xb():
    driver, cecp = start()
    with driver:
        yield cecp
        assert driver.proc.poll() is None, "the engine exited"


def thinking(lines: list[str]) -> list[re.Match]:
    return [m for m in (THINKING.match(line) for line in lines) if m]


# -- handshake ---------------------------------------------------------------------------------------
@pytest.mark.slow
def test_handshake_lists_the_features_and_the_options():
    with EngineDriver() as eng:
        eng.send("xboard")
        eng.send("protover 2")
        lines = eng.read_until("feature done=1", timeout=5)
        assert all(line.startswith("feature ") for line in lines), lines
        assert all(line == line.strip() for line in lines), "no trailing spaces"
        text = " ".join(lines)
        for feature in REQUIRED_FEATURES:
            assert feature in text, feature
        options = [line for line in lines if line.startswith("feature option=")]
        assert 'feature option="MultiPV -spin 1 1 128"' in options
        assert 'feature option="Move Overhead -spin 10 0 5000"' in options
        assert 'feature option="Clear Hash -button"' in options
        assert 'feature option="Use NNUE -check 1"' in options
        assert any(line.startswith('feature option="EvalFile -file') for line in options)
        assert not any("Hash -spin" in line or "Threads" in line for line in options), "memory/cores instead"
        assert lines[-1] == "feature done=1"


@pytest.mark.slow
def test_protover_alone_selects_cecp_and_accepted_lines_are_quiet():
    with EngineDriver() as eng:
        eng.send("protover 2")
        eng.read_until("feature done=1", timeout=5)
        cecp = Cecp(eng)
        cecp.send("accepted setboard", "rejected nps", "xboard", "random", "computer", "name fsf",
                  "rating 0 0")
        assert cecp.sync() == []


# -- game flow --------------------------------------------------------------------------------------
@pytest.mark.slow
def test_go_plays_red_and_thinking_lines_follow_the_format(xb):
    xb.send("level 40 0:10 0", "post", "time 1000", "otim 1000", "go")
    move, lines = xb.move()
    assert move in Position().legal_moves()
    infos = thinking(lines)
    assert infos, lines
    assert [int(m.group(1)) for m in infos] == sorted(int(m.group(1)) for m in infos)
    assert all(m.group(7).split()[0] in Position().legal_moves() for m in infos)
    # Then it plays Red on: Black's reply is answered at once.
    xb.send("time 950", "otim 1000", "usermove h9g7" if move != "h9g7" else "usermove b9c7")
    reply, _ = xb.move()
    position = Position()
    position.push(move)
    position.push("h9g7" if move != "h9g7" else "b9c7")
    assert reply in position.legal_moves()


@pytest.mark.slow
def test_new_makes_the_engine_black_and_nopost_is_quiet(xb):
    xb.send("nopost", "st 0.3", "usermove h2e2")
    move, lines = xb.move()
    assert thinking(lines) == []
    position = Position()
    position.push("h2e2")
    assert move in position.legal_moves()


@pytest.mark.slow
def test_force_tracks_moves_and_go_plays_the_side_to_move(xb):
    xb.send("force", "usermove h2e2", "usermove h9g7", "usermove h0g2")
    assert xb.sync() == []        # no move in force mode
    fen, moves = xb.display()
    assert moves == ["h2e2", "h9g7", "h0g2"]
    xb.send("st 0.3", "go")
    move, _ = xb.move()
    position = Position()
    for m in moves:
        position.push(m)
    assert move in position.legal_moves()


@pytest.mark.slow
def test_bare_moves_are_read_as_usermove(xb):
    xb.send("force", "h2e2", "h9g7")
    assert xb.display()[1] == ["h2e2", "h9g7"]


@pytest.mark.slow
def test_playother_waits_for_the_opponent(xb):
    xb.send("force", "usermove h2e2", "st 0.3", "playother")
    assert not any(line.startswith("move") for line in xb.sync() + xb.eng.collect(0.5))
    xb.send("usermove h9g7")
    move, _ = xb.move()
    position = Position()
    position.push("h2e2")
    position.push("h9g7")
    assert move in position.legal_moves()


@pytest.mark.slow
def test_move_now_and_ping_while_thinking(xb):
    xb.send("st 60", "post", "force", "go")
    time.sleep(0.5)
    xb.pings += 1
    xb.send("?", f"ping {xb.pings}")
    move, _ = xb.move(timeout=5)           # long before its minute
    # The pong comes after the move, never before.
    assert xb.eng.read_until(f"pong {xb.pings}", 2)[-1] == f"pong {xb.pings}"
    assert move in Position().legal_moves()


@pytest.mark.slow
def test_ping_while_idle_is_answered(xb):
    xb.eng.send("ping 77")
    assert xb.eng.read_until("pong 77", timeout=5) == ["pong 77"]


@pytest.mark.slow
def test_force_during_the_search_abandons_it(xb):
    xb.send("st 60", "force", "go")
    time.sleep(0.3)
    xb.send("force")
    lines = xb.sync(timeout=3) + xb.eng.collect(0.3)
    assert not any(line.startswith("move") for line in lines)
    assert xb.display()[1] == []


@pytest.mark.slow
def test_result_and_new_stop_the_search_without_a_move(xb):
    xb.send("st 60", "usermove h2e2")
    time.sleep(0.3)
    xb.send("result 1-0 {Black resigns}")
    lines = xb.sync(timeout=3)
    assert not any(line.startswith("move") for line in lines)
    xb.send("new", "st 60", "usermove h2e2")
    time.sleep(0.2)
    xb.send("new")
    assert not any(line.startswith("move") for line in xb.sync(timeout=3))
    assert xb.display()[1] == []


@pytest.mark.slow
def test_setboard_reads_xboards_letters_and_the_side_to_move(xb):
    xb.send("force", f"setboard {XBOARD_START}")
    fen, moves = xb.display()
    assert fen == Position().fen() and moves == []
    black_to_move = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b - - 1 1"
    xb.send(f"setboard {black_to_move}", "st 0.3", "go")
    move, _ = xb.move()
    assert move in Position(black_to_move).legal_moves()


@pytest.mark.slow
def test_a_bad_setboard_refuses_moves_until_a_good_one(xb):
    xb.send("force", "setboard rnbakabnr/9/9/RNBAKABNR w")
    lines = xb.sync()
    assert any(line.startswith("tellusererror Illegal position") for line in lines), lines
    xb.send("usermove h2e2")
    assert xb.sync() == ["Illegal move: h2e2"]
    xb.send(f"setboard {XBOARD_START}", "usermove h2e2")
    assert xb.sync() == []
    assert xb.display()[1] == ["h2e2"]


@pytest.mark.slow
def test_undo_and_remove_take_moves_back(xb):
    xb.send("force", "usermove h2e2", "usermove h9g7", "usermove h0g2", "undo")
    assert xb.display()[1] == ["h2e2", "h9g7"]
    xb.send("remove")
    assert xb.display()[1] == []
    xb.send("undo")
    assert xb.sync()[0].startswith("Error (")


@pytest.mark.slow
def test_illegal_moves_are_refused_and_the_game_stays(xb):
    xb.send("force", "usermove h2e2")
    for bad in ("usermove h2e2", "usermove a0a5", "usermove i9i5", "usermove zz", "usermove h2e2 h9g7"):
        xb.send(bad)
    lines = xb.sync()
    assert lines[:4] == ["Illegal move: h2e2", "Illegal move: a0a5", "Illegal move: i9i5", "Illegal move: zz"]
    assert lines[4].startswith("Error (")
    assert xb.display()[1] == ["h2e2"]


# -- results claimed by the engine ----------------------------------------------------------------
@pytest.mark.slow
def test_the_engine_mates_and_claims(xb):
    xb.send("force", f"setboard {MATE_IN_ONE_FEN}", "post", "st 1", "go")
    move, lines = xb.move()
    assert move in mates_in_one(MATE_IN_ONE_FEN)
    assert thinking(lines)[-1].group(2) == "100001", "mate in 1 is 100000 + 1"
    claim = xb.eng.read_line(2)[1]
    assert claim in ("1-0 {Red mates}", "1-0 {Red wins, Black cannot move}"), claim


@pytest.mark.slow
def test_being_mated_is_claimed_without_a_move(xb):
    xb.send("force", f"setboard {MATE_IN_ONE_FEN}", "playother", "usermove b0b9")
    lines = xb.sync()
    assert lines == ["1-0 {Red mates}"], lines


@pytest.mark.slow
def test_a_perpetual_check_by_the_opponent_is_claimed(xb):
    fen = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1"     # Black's soldiers check the Red general
    moves = "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1".split()
    xb.send("force", f"setboard {fen}", *[f"usermove {m}" for m in moves], "playother", "usermove e2f2")
    assert xb.sync() == ["1-0 {Red wins, perpetual check by Black}"]


@pytest.mark.slow
def test_a_perpetual_chase_by_the_opponent_is_claimed(xb):
    fen = "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1"     # Black's elephant chases the Red cannon
    moves = "d6e6 e7g5 e6d6 g5e7 d6e6 e7g5 e6d6".split()
    xb.send("force", f"setboard {fen}", *[f"usermove {m}" for m in moves], "playother", "usermove g5e7")
    assert xb.sync() == ["1-0 {Red wins, perpetual chase by Black}"]


@pytest.mark.slow
def test_the_sixty_move_limit_is_claimed(xb):
    xb.send("force", "setboard 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80", "playother", "usermove e1f1")
    assert xb.sync() == ["1/2-1/2 {60-move rule}"]


@pytest.mark.slow
def test_go_on_a_finished_game_claims_at_once(xb):
    xb.send("force", "setboard 4k4/4R4/4P4/9/9/9/9/9/5R3/3K5 b - - 0 1", "go")
    assert xb.sync() == ["1-0 {Red mates}"]


@pytest.mark.slow
def test_bare_material_is_not_claimed_the_engine_plays_on(xb):
    # No rule of the game draws bare material (a GUI may adjudicate it): a claim would not be certain.
    bare = "4k4/4a4/b4a3/9/6b2/9/9/3AB3B/4A4/5K3 b - - 0 1"
    xb.send("force", f"setboard {bare}", "st 1", "sd 3", "go")
    move, lines = xb.move()
    assert move in Position(bare).legal_moves()
    assert not any(line.startswith(("1-0", "0-1", "1/2-1/2")) for line in lines + xb.sync()), lines


# -- time -------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_time_is_read_in_centiseconds(xb):
    # 10 s left of a 10-minute game: a move within the timeout (read as seconds, 1,000 s would have it
    # think for half a minute). The units themselves: test_cecp_codec.py.
    xb.send("level 0 10 0", "time 1000", "otim 60000")
    xb.send("usermove h2e2")
    xb.move(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("base", ["0:02", "0.0333"])
def test_level_base_in_minutes_or_min_sec(xb, base):
    xb.send(f"level 0 {base} 0")          # 2 s for the game, no `time` sent: the base is the clock
    xb.send("usermove h2e2")
    xb.move(timeout=5)


@pytest.mark.slow
def test_st_is_seconds_per_move(xb):
    xb.send("st 0.5", "post")
    xb.send("usermove h2e2")
    xb.move(timeout=5)                     # ended by its time, without a `?`
    xb.send("new", "st 60", "post", "usermove h2e2")
    assert not any(line.startswith("move ") for line in xb.eng.collect(0.3)), "a minute, not 60 ms"
    xb.send("?")
    xb.move(timeout=5)


@pytest.mark.slow
def test_sd_limits_the_depth_and_new_removes_it(xb):
    xb.send("sd 3", "st 30", "post", "usermove h2e2")
    _, lines = xb.move(timeout=20)
    assert max(int(m.group(1)) for m in thinking(lines)) == 3
    xb.send("new", "st 0.5", "post", "usermove h2e2")
    _, lines = xb.move(timeout=20)
    assert max(int(m.group(1)) for m in thinking(lines)) > 3


@pytest.mark.slow
def test_moves_per_session_control_is_played_through_a_session_change(xb):
    # `level 4 0:02 0`: 4 moves in 2 s, then 2 s more. The engine plays six moves through the change of
    # session, each on its own (XBoard sends a second left: the clock's bookkeeping is the GUI's). The
    # shares of the session: test_cecp_codec.py; how much of a real clock the moves use:
    # benchmarks/protocol_latency.py. The opponent's replies come from a shallow search of our own.
    xb.send("level 4 0:02 0", "force")
    position = Position()
    opponent = _core.Searcher(1, 1)
    reply = None
    for _ in range(6):
        xb.send("time 100", "otim 200")
        xb.send("go" if reply is None else f"usermove {reply}")
        move, _ = xb.move(timeout=5)
        assert move in position.legal_moves()
        position.push(move)
        reply = opponent.search(position.kernel_board, depth=3).bestmove
        position.push(reply)


# -- pondering and analysis ----------------------------------------------------------------------------
def hints(xb: Cecp) -> list[str]:
    xb.send("hint")
    return [line.split()[1] for line in xb.sync() if line.startswith("Hint: ")]


@pytest.mark.slow
def test_pondering_answers_the_predicted_move_and_another(xb):
    xb.send("hard", "post", "level 0 0:20 0", "time 2000", "otim 2000", "usermove h2e2")
    move, _ = xb.move()
    position = Position()
    position.push("h2e2")
    position.push(move)
    predicted = (hints(xb) or position.legal_moves())[0]
    assert predicted in position.legal_moves()
    time.sleep(0.3)   # pondering on the predicted move
    xb.send("time 1900", "otim 1900", f"usermove {predicted}")
    answer, _ = xb.move()
    position.push(predicted)
    assert answer in position.legal_moves()
    position.push(answer)
    expected = hints(xb)
    other = next(m for m in position.legal_moves() if m not in expected)
    time.sleep(0.3)   # pondering on another move than the one played
    xb.send("time 1800", "otim 1800", f"usermove {other}")
    third, _ = xb.move()
    position.push(other)
    assert third in position.legal_moves()
    xb.send("easy", "force")
    assert not any(line.startswith("move") for line in xb.sync() + xb.eng.collect(0.3))


def assert_analysis_switched(lines: list[str], to: Position) -> None:
    """The analysis moved to the position `to`: its lines come last, and none of the earlier position's
    follows them. The earlier analysis may print a line or two before the engine reads the command that
    changes the position; those are told apart by their first move, which is the other side's."""
    fresh = [m.group(7).split()[0] in to.legal_moves() for m in thinking(lines)]
    assert fresh and fresh[-1], lines
    assert all(fresh[fresh.index(True):]), lines


@pytest.mark.slow
def test_analysis_mode(xb):
    xb.send("post", "analyze")
    time.sleep(0.5)
    xb.send(".")
    lines = xb.sync()
    assert thinking(lines), lines
    assert any(re.match(r"^stat01: \d+ \d+ \d+ 0 44$", line) for line in lines), lines
    xb.send("usermove h2e2")
    time.sleep(0.4)
    after = Position()
    after.push("h2e2")
    assert_analysis_switched(xb.sync(), to=after)
    xb.send("undo")
    time.sleep(0.3)
    assert_analysis_switched(xb.sync(), to=Position())
    xb.send(f"setboard {MATE_IN_ONE_FEN}")
    time.sleep(0.3)
    assert thinking(xb.sync())[-1].group(2) == "100001"
    xb.send("exit")
    xb.sync()
    assert xb.eng.collect(0.4) == [], "no output after exit"
    assert not any(line.startswith("< move") for line in xb.eng.transcript)


# -- resources and options ------------------------------------------------------------------------
@pytest.mark.slow
def test_memory_cores_and_options(xb):
    xb.send("memory 32", "cores 2", "option MultiPV=2", "option Move Overhead=50", "option Clear Hash",
            "option Use NNUE=0")
    assert xb.sync() == ["telluser using the hand-crafted evaluation"]
    xb.send("post", "sd 4", "st 30", "usermove h2e2")
    _, lines = xb.move()
    assert sum(1 for m in thinking(lines) if m.group(1) == "4") == 2, "two lines per depth with MultiPV 2"


@pytest.mark.slow
def test_options_during_the_search_wait_for_the_move(xb):
    xb.send("st 0.5", "usermove h2e2")
    time.sleep(0.1)
    xb.send("memory 8", "cores 1", "option Clear Hash")
    move, _ = xb.move()
    assert xb.sync() == []


# -- bad input ----------------------------------------------------------------------------------------
BAD = [
    "foo", "level", "level 40 x 0", "level x 5 0", "level 40 5 -1", "level 40 5 0 9", "st", "st 0", "st abc",
    "sd", "sd 0", "sd x", "time abc", "otim", "variant chess", "memory x", "cores -1", "option",
    "option Nope=1", "option MultiPV=abc", "option MultiPV=0", "option Move Overhead", "usermove",
    "remove", "go perft 3", "位置",
]


@pytest.fixture(scope="module")
def bad_engine():
    driver, cecp = start(("new", "variant xiangqi", "force", "usermove h2e2"))
    with driver:
        yield cecp
        assert driver.proc.poll() is None
        driver.send("quit")
        assert driver.proc.wait(5) == 0
        assert b"Traceback" not in driver.stderr


@pytest.mark.slow
@pytest.mark.parametrize("line", BAD)
def test_bad_lines_get_an_error_and_change_nothing(bad_engine, line):
    bad_engine.send(line)
    lines = bad_engine.sync()
    assert len(lines) == 1 and lines[0].startswith("Error ("), lines
    assert "llegal" not in lines[0], "XBoard reads 'illegal' in an error as a refused move"
    assert lines[0].endswith(f": {line}"), lines
    assert bad_engine.display()[1] == ["h2e2"]


@pytest.mark.slow
@pytest.mark.parametrize("data", [bytes(range(1, 256)).replace(b"\n", b""), b"x" * 100_000, b"\xff\xfe go"],
                         ids=["all-bytes", "100KB", "bad-utf8"])
def test_junk_gets_an_error(bad_engine, data):
    bad_engine.eng.send(data)
    lines = bad_engine.sync()
    assert lines and all(line.startswith("Error (") for line in lines), lines
    assert bad_engine.display()[1] == ["h2e2"]


@pytest.mark.slow
def test_quit_while_thinking_exits_promptly():
    driver, cecp = start()
    cecp.send("st 60", "usermove h2e2")
    time.sleep(0.3)
    driver.send("quit")
    assert driver.proc.wait(5) == 0        # the minute's search does not keep it alive
    driver.close()
    assert b"Traceback" not in driver.stderr


@pytest.mark.slow
def test_end_of_input_while_thinking_exits_cleanly():
    driver, cecp = start()
    cecp.send("st 60", "usermove h2e2")
    time.sleep(0.2)
    assert driver.close() == 0
    assert b"Traceback" not in driver.stderr


@pytest.mark.slow
def test_xboard_after_uci_switches_to_cecp_and_uci_switches_back():
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("xboard")
        eng.send("protover 2")
        eng.read_until("feature done=1", timeout=5)
        cecp = Cecp(eng)
        cecp.send("new", "force", "usermove h2e2")
        assert cecp.display()[1] == ["h2e2"]
        eng.handshake("uci")
        assert eng.ping() == []


def test_a_repetition_the_engine_completes_in_its_favour_is_left_to_the_gui():
    """In-process: XBoard judges a perpetual against the side whose move completes the repetition and
    forfeits a win claim it does not share, so after its own move the engine claims only a ruling
    against itself; after the opponent's move it claims every ruling."""
    from engine.server.cecp import CecpSession
    from engine.server.engine import Engine
    from engine.server.session import LazyEngine

    said: list[str] = []
    session = CecpSession(LazyEngine(Engine()), said.append, lambda task: task())
    fen = "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1"
    cycle = "d6e6 e7g5 e6d6 g5e7 d6e6 e7g5 e6d6 g5e7 d6e6".split()   # Red's last move: third occurrence
    for line in ["force", f"setboard {fen}", *[f"usermove {m}" for m in cycle]]:
        session.handle(line.split())
    assert said == []
    outcome = session.game.outcome()
    assert outcome is not None and outcome.winner == "red" and outcome.reason == "perpetual_chase"
    assert session.claim(own_move=True) is False and said == []     # the engine (Red) just moved
    assert session.claim() is True and said == ["1-0 {Red wins, perpetual chase by Black}"]
    session.game.pop()
    session.game.pop()
    session.handle(["usermove", "g5e7"])   # Black (the engine, say) completes its own losing repetition
    said.clear()
    assert session.game.outcome() is not None
    assert session.claim(own_move=True) is True and said == ["1-0 {Red wins, perpetual chase by Black}"]

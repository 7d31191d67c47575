"""engine.client's CECP (XBoard) side: the wire read and written (cecp_codec), the options an engine declares in
any protocol (options), and CecpProcess against a fake XBoard engine with every fault, this project's engine
in xboard mode, and the real MaxQi, Sjaak II and Fairy-Stockfish."""
from __future__ import annotations

import tempfile

import pytest

from support import FSF, MAXQI, SJAAK, needs_fsf, needs_maxqi, needs_sjaak
from support.driver import ENGINE_COMMAND, fake_command
from engine import START_FEN, Position
from engine.client import (EngineConfig, EngineCrashed, EngineOptionError, EngineProcess, EngineProtocolError,
                           EngineTimeout, open_process)
from engine.client.cecp import CecpProcess
from engine.client.cecp_codec import (is_refusal, level_line, parse_claim, parse_features, parse_move_line,
                                      parse_thinking, pv_tokens, st_line, xboard_to_score)
from engine.client.options import DeclaredOption, parse_cecp_option, parse_option_line
from engine.color import Color
from engine.score import Score
from engine.search_types import SearchLimits

pytestmark = pytest.mark.usefixtures("engine_pythonpath")


def fake(*flags: str, **kw) -> EngineProcess:
    return open_process(EngineConfig(fake_command("xboard_fake.py", *flags), proto="xboard", **kw))


CLOCK = SearchLimits(time=3000, opp_time=2900, increment=100, opp_increment=100)


def play(engine: EngineProcess, plies: int, limits: SearchLimits = CLOCK, fen: str = START_FEN,
         reply: bool = True) -> tuple[Position, list[str]]:
    """The engine's moves, each checked legal; with `reply`, an opponent's (the first legal move) after each."""
    position, moves = Position(fen), []
    for _ in range(plies):
        answer = engine.go(fen, moves, position.turn, limits, timeout=20)
        assert answer.bestmove in position.legal_moves(), (answer, position.fen(), engine.log_tail(30))
        position.push(answer.bestmove)
        moves.append(answer.bestmove)
        if reply and position.outcome() is None:
            move = sorted(position.legal_moves())[0]
            position.push(move)
            moves.append(move)
    return position, moves


# -- the wire ------------------------------------------------------------------------------------------------
def test_features_are_read_with_quoted_values():
    line = ('feature ping=1 setboard=0 myname="MaxQi 4.8G" variants="xiangqi,normal" option="Hash -spin 64 1 1024" '
            'done=0')
    assert parse_features(line) == [("ping", "1"), ("setboard", "0"), ("myname", "MaxQi 4.8G"),
                                    ("variants", "xiangqi,normal"), ("option", "Hash -spin 64 1 1024"),
                                    ("done", "0")]


@pytest.mark.parametrize("line,depth,cp,time_ms,nodes,seldepth,pv", [
    ("9 21 41 2210454 14 536000 0\t h9g7 h0g2", 9, 21, 410, 2210454, 14, "h9g7 h0g2"),     # Fairy-Stockfish
    (" 5     28        5      37953 b7g7", 5, 28, 50, 37953, None, "b7g7"),                 # MaxQi
    ("  4    -3      5      6537  1. ... Hg7 2. Hc2 Hc7", 4, -3, 50, 6537, None, "1. ... Hg7 2. Hc2 Hc7"),   # Sjaak II
    ("12& 30 100 5000 pv", 12, 30, 1000, 5000, None, "pv"),
])
def test_thinking_lines(line, depth, cp, time_ms, nodes, seldepth, pv):
    info = parse_thinking(line)
    assert (info.depth, info.score.cp, info.time_ms, info.nodes, info.seldepth, info.pv) == \
        (depth, cp, time_ms, nodes, seldepth, pv)


@pytest.mark.parametrize("line", ["-1    440        0          1 h2h9", " 0 1 0 16 h2h9", "move h9g7",
                                  "1-0 {White mates}", "1/2-1/2 {Draw}", "# root hit 0 0 0", "pong 3", ""])
def test_other_lines_are_not_thinking(line):
    assert parse_thinking(line) is None


def test_scores_claims_moves_and_refusals():
    assert xboard_to_score(100003) == Score.from_mate(3) and xboard_to_score(-100002) == Score.from_mate(-2)
    assert xboard_to_score(-35) == Score.from_cp(-35)
    assert parse_claim("0-1 {Black mates}") == ("0-1", "Black mates")
    assert parse_claim("1/2-1/2 {Draw by repetition}") == ("1/2-1/2", "Draw by repetition")
    assert parse_claim("1-0") == ("1-0", "") and parse_claim("* {aborted}") is None
    assert parse_claim("1-0x") is None and parse_claim("10 20 30 40 pv") is None
    assert parse_move_line("move h9g7") == "h9g7" and parse_move_line("My move is: h9g7") == "h9g7"
    assert parse_move_line("movement") is None
    assert is_refusal("Illegal move: h2e2", "usermove h2e2") and is_refusal("Illegal move:h2e2", "h2e2")
    assert is_refusal("Error (Illegal move or unknown command): usermove h3e3", "usermove h3e3")
    assert not is_refusal("Error (unknown command): post", "h2e2")
    assert not is_refusal("Illegal move: b9c7", "h2e2")
    assert pv_tokens("1. ... Hg7 2. Hc2 {book}") == ["Hg7", "Hc2"]


def test_time_control_commands():
    assert level_line(0, 10_000, 100) == "level 0 0:10 0.1"
    assert level_line(40, 300_000, 0) == "level 40 5 0"
    assert level_line(0, 90_600, 2000) == "level 0 1:31 2"       # whole seconds
    assert level_line(0, 200, 0) == "level 0 0:01 0"             # at least a second
    assert st_line(5000) == "st 5" and st_line(300) == "st 1"


def test_options_declared_in_each_protocol():
    uci = parse_option_line("option name Hash type spin default 16 min 1 max 1024")
    assert uci == DeclaredOption("Hash", "spin", "16", 1, 1024)
    combo = parse_option_line("option name UCI_Variant type combo default chess var chess var xiangqi var shogi")
    assert combo.choices == ("chess", "xiangqi", "shogi") and combo.default == "chess"
    assert parse_option_line("option name Debug Log File type string default <empty>").default == ""
    assert parse_option_line("option name Clear Hash type button").kind == "button"
    ucci = parse_option_line("option hashsize type spin min 1 max 1024 default 16")
    assert (ucci.name, ucci.minimum, ucci.maximum, ucci.default) == ("hashsize", 1, 1024, "16")
    idle = parse_option_line("option idle type combo var none var small var medium var large default none")
    assert idle.choices == ("none", "small", "medium", "large")
    assert parse_cecp_option("MultiPV -spin 1 1 256") == DeclaredOption("MultiPV", "spin", "1", 1, 256)
    assert parse_cecp_option("Use NNUE -check 1") == DeclaredOption("Use NNUE", "check", "true")
    level = parse_cecp_option("Level -combo Clueless /// Random /// Static /// *Normal")
    assert level.choices == ("Clueless", "Random", "Static", "Normal") and level.default == "Normal"
    assert parse_cecp_option("Moves before draw offer (0 to disable) -spin 0 0 1000").name == \
        "Moves before draw offer (0 to disable)"
    assert parse_cecp_option("Variant configuration file -file ").kind == "file"
    assert parse_cecp_option("Clear Hash -button").kind == "button"
    assert parse_cecp_option("no type at all") is None


def test_values_are_checked_against_the_declaration():
    hash_mb = DeclaredOption("Hash", "spin", "16", 1, 1024)
    assert hash_mb.validate(64) == "64" and hash_mb.validate("128") == "128" and hash_mb.validate(8.0) == "8"
    with pytest.raises(EngineOptionError, match=r"'Hash' of X: 0 is below its minimum 1; .*1\.\.1024") as error:
        hash_mb.validate(0, "X")
    assert error.value.option == "Hash" and isinstance(error.value, ValueError)
    with pytest.raises(EngineOptionError, match="above its maximum"):
        hash_mb.validate(4096)
    with pytest.raises(EngineOptionError, match="not a number"):
        hash_mb.validate("lots")
    check = DeclaredOption("Ponder", "check", "false")
    assert check.validate(True) == "true" and check.validate("off") == "false"
    with pytest.raises(EngineOptionError, match="true or false"):
        check.validate("maybe")
    combo = DeclaredOption("Level", "combo", "Normal", choices=("Random", "Normal"))
    assert combo.validate("random") == "Random"
    with pytest.raises(EngineOptionError, match="one of Random, Normal"):
        combo.validate("Expert")
    with pytest.raises(EngineOptionError, match="line break"):
        DeclaredOption("Path", "string").validate("a\nb")


# -- a fake XBoard engine ---------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("flags,usermove", [((), True), (("--no-usermove",), False)])
def test_fake_plays_and_receives_the_protocols_commands(flags, usermove, tmp_path):
    log = tmp_path / "received.txt"
    engine = fake(*flags, "--log", str(log), "--option", "Strength -spin 5 1 10", "--option", "Fast -check 0",
                  options={"Strength": "7", "Fast": "true", "Hash": "32", "Unknown": "1"})
    with engine:
        assert isinstance(engine, CecpProcess) and engine.protocol == "xboard" and engine.name == "FakeXboard"
        assert engine.rank_base == 0 and engine.options_set == {"Strength": "7", "Fast": "true", "memory": "32"}
        assert any("Unknown" in warning for warning in engine.warnings)
        engine.new_game()
        play(engine, 3)
        engine.game_over("1-0", "Red mates")
    sent = log.read_text().splitlines()
    prefix = "usermove " if usermove else ""
    assert sent[:2] == ["xboard", "protover 2"]
    assert "accepted ping" in sent and "rejected sjef" in sent and "accepted done" in sent
    assert "option Strength=7" in sent and "option Fast=1" in sent and "memory 32" in sent
    first_game = sent[len(sent) - sent[::-1].index("new") - 1:]
    assert first_game[:3] == ["new", "variant xiangqi", "force"]
    assert ["level 0 0:03 0.1", "time 300", "otim 290", "go"] == first_game[first_game.index("level 0 0:03 0.1"):][:4]
    # the next move: the clocks, then the opponent's move starts the search (no force, no go)
    after = first_game[first_game.index("go") + 1:]
    assert after[:2] == ["time 300", "otim 290"] and after[2].startswith(prefix) and len(after[2].split()[-1]) == 4
    assert "go" not in after and "result 1-0 {Red mates}" in sent and sent[-1] == "quit"


@pytest.mark.slow
def test_ranks_from_one_are_found_and_converted(tmp_path):
    log = tmp_path / "received.txt"
    with fake("--ranks", "1", "--log", str(log)) as engine:
        assert engine.rank_base == 1
        engine.new_game()
        position, moves = play(engine, 3)
    sent = log.read_text().splitlines()
    assert sent.count("usermove h2e2") == 1 and "usermove h3e3" in sent     # the probe: refused, then taken
    # (the fake refuses a move in the wrong numbering, so play()'s legal moves both ways say the rest)
    with fake("--ranks", "1", rank_base=1) as engine:   # given: no probe
        assert engine.rank_base == 1 and not any("h2e2" in line for line in engine.log)
        engine.new_game()
        play(engine, 2)


@pytest.mark.slow
def test_an_engine_without_ping_or_with_done0(tmp_path):
    with fake("--no-ping", "--ranks", "0") as engine:
        assert not engine.pings and engine.rank_base == 0
        engine.new_game()
        play(engine, 2)
    with fake("--done0") as engine:
        engine.new_game()
        play(engine, 1)


@pytest.mark.slow
def test_an_engine_that_does_not_play_xiangqi_is_refused():
    with pytest.raises(EngineProtocolError, match="does not offer xiangqi .*'normal,shogi'"):
        fake("--variants", "normal,shogi").start()
    engine = fake("--v1")
    engine.feature_timeout = 0.3
    with pytest.raises(EngineProtocolError, match="its variants: none"):
        engine.start()


@pytest.mark.slow
def test_another_start_position_goes_by_setboard(tmp_path):
    fen = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"
    log = tmp_path / "received.txt"
    with fake("--log", str(log)) as engine:
        engine.new_game()
        play(engine, 2, fen=fen, limits=SearchLimits(movetime=1000))
    assert "setboard 3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1" in log.read_text().splitlines()
    assert "st 1" in log.read_text().splitlines()
    with fake("--no-setboard") as engine:
        engine.new_game()
        with pytest.raises(EngineProtocolError, match="setboard"):
            engine.go(fen, [], Color.RED, CLOCK, timeout=5)


@pytest.mark.slow
def test_limits_that_cecp_cannot_say_are_refused_before_sending():
    with fake() as engine:
        engine.new_game()
        for limits in (SearchLimits(nodes=1000), SearchLimits(infinite=True), SearchLimits()):
            with pytest.raises(ValueError):
                engine.go(START_FEN, [], Color.RED, limits, timeout=5)
        first = engine.go(START_FEN, [], Color.RED, SearchLimits(depth=3), timeout=5).bestmove
        assert "> st 86400" in engine.log and "> sd 3" in engine.log
        # other limits later in the game start the engine's board over (`new` lifts the depth limit)
        engine.go(START_FEN, [first, "a6a5"], Color.RED, SearchLimits(movetime=1000), timeout=5)
        log = list(engine.log)
        tail = log[len(log) - log[::-1].index(f"< move {first}"):]
        assert tail[:4] == ["> new", "> variant xiangqi", "> force", "> st 1"] and "> sd 3" not in tail
        assert tail[4:7] == [f"> usermove {first}", "> usermove a6a5", "> go"]


@pytest.mark.slow
def test_claims_resignations_and_draw_offers_are_reported():
    with fake("--at", "1", "--claim", "1-0 {White mates}") as engine:
        engine.new_game()
        answer = engine.go(START_FEN, [], Color.RED, CLOCK, timeout=5)
        assert answer.bestmove and answer.claim == "1-0" and answer.note == "White mates"
    with fake("--at", "1", "--claim-only", "1/2-1/2 {Draw by repetition}") as engine:
        engine.new_game()
        answer = engine.go(START_FEN, [], Color.RED, CLOCK, timeout=5)
        assert answer.bestmove is None and answer.claim == "1/2-1/2"
    with fake("--at", "1", "--resign", "--offer-draw") as engine:
        engine.new_game()
        answer = engine.go(START_FEN, [], Color.RED, CLOCK, timeout=5)
        assert answer.bestmove is None and answer.resign and answer.offers_draw


@pytest.mark.slow
def test_faults_raise_the_clients_errors():
    with fake("--refuse", "--at", "1", rank_base=0) as engine:      # no probe: the first move is the game's
        engine.new_game()
        with pytest.raises(EngineProtocolError, match="refused the move 'h2e2'"):
            engine.go(START_FEN, ["h2e2"], Color.BLACK, CLOCK, timeout=5)
        play(engine, 1)        # the board is sent again from `new`, and the engine goes on
    with fake("--crash", "--at", "1") as engine:
        engine.new_game()
        with pytest.raises(EngineCrashed):
            engine.go(START_FEN, [], Color.RED, CLOCK, timeout=5)
    with fake("--hang", "--at", "1") as engine:
        engine.new_game()
        engine.stop_grace = 0.2
        with pytest.raises(EngineTimeout, match="did not answer `\\?` either"):
            engine.go(START_FEN, [], Color.RED, CLOCK, timeout=0.5)
    assert not engine.alive


@pytest.mark.slow
def test_options_are_checked_when_set():
    with fake("--option", "Strength -spin 5 1 10") as engine:
        engine.set_option("strength", 3)
        assert engine.options_set["Strength"] == "3"
        with pytest.raises(EngineOptionError, match="'Strength' of FakeXboard: 11 is above its maximum 10"):
            engine.set_option("Strength", 11)
        with pytest.raises(EngineOptionError, match="declares no option 'Speed'"):
            engine.set_option("Speed", 1, strict=True)
        with pytest.raises(EngineOptionError, match="positive whole number"):
            engine.set_option("Threads", 0)
    with pytest.raises(EngineOptionError, match="Strength"):
        fake("--option", "Strength -spin 5 1 10", options={"Strength": "99"}).start()


# -- this project's engine and the real XBoard engines ------------------------------------------------------
@pytest.mark.slow
def test_jiangjun_in_xboard_mode():
    with tempfile.TemporaryDirectory() as workdir:
        config = EngineConfig(ENGINE_COMMAND, proto="cecp", workdir=workdir,
                              options={"Hash": "16"})
        with open_process(config) as engine:
            assert engine.id_name.startswith("jiangjun") and engine.rank_base == 0
            assert engine.options_set == {"OwnBook": "false", "memory": "16"}
            engine.new_game()
            answer = engine.go(START_FEN, [], Color.RED, SearchLimits(depth=3), timeout=20)
            assert answer.depth == 3 and answer.pv[0] == answer.bestmove and answer.score is not None
            play(engine, 2, SearchLimits(time=1500, opp_time=1500, increment=50, opp_increment=50))


@pytest.mark.slow
@needs_maxqi
def test_maxqi():
    with open_process(EngineConfig(MAXQI, proto="xboard")) as engine:
        assert engine.name.startswith("MaxQi") and engine.rank_base == 0
        assert engine.features.get("setboard") == "0"
        engine.new_game()
        position, moves = play(engine, 4, SearchLimits(time=1500, opp_time=1500, increment=50, opp_increment=50))
        answer = engine.go(START_FEN, moves, position.turn, SearchLimits(movetime=1000), timeout=5)
        assert answer.bestmove in position.legal_moves() and answer.depth and answer.pv


@pytest.mark.slow
@needs_sjaak
def test_sjaak_ii_and_its_pv_in_san(sjaak_home):
    with open_process(EngineConfig(SJAAK, proto="xboard", options={"MultiPV": "1"})) as engine:
        assert engine.name.startswith("Sjaak II") and engine.rank_base == 0
        assert engine.declared["multipv"].maximum == 256
        engine.new_game()
        answer = engine.go(START_FEN, [], Color.RED, SearchLimits(depth=4), timeout=20)
        assert answer.depth == 4 and len(answer.pv) >= 3 and answer.pv[0] == answer.bestmove   # read from SAN
        board = Position()
        for move in answer.pv:
            board.push(move)
        play(engine, 3, SearchLimits(time=1500, opp_time=1500, increment=50, opp_increment=50))
        fen = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"
        answer = engine.go(fen, [], Color.RED, SearchLimits(depth=2), timeout=10)    # setboard
        assert answer.bestmove in Position(fen).legal_moves()


@pytest.mark.slow
@needs_fsf
def test_fairy_stockfish_in_xboard_mode():
    with open_process(EngineConfig(FSF, proto="xboard", options={"Threads": "1", "Hash": "16"})) as engine:
        assert "Fairy-Stockfish" in engine.name and engine.rank_base == 0
        assert engine.options_set == {"cores": "1", "memory": "16"}     # XBoard's commands, not options
        engine.new_game()
        answer = engine.go(START_FEN, [], Color.RED, SearchLimits(depth=5), timeout=20)
        assert answer.depth == 5 and answer.pv[0] == answer.bestmove
        play(engine, 3, SearchLimits(time=1500, opp_time=1500, increment=50, opp_increment=50))

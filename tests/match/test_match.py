"""jiangjun match: real matches between engine processes (fake engines and Fairy-Stockfish), judged by
the rules; failures end games with the right result and reason and the match goes on."""
import io
import re
import subprocess
import sys

import pytest

from support import DATA, FSF, engine_env, needs_fsf
from support.driver import ENGINE_COMMAND, fake_command
from engine import Position
from engine.client import EngineConfig
from engine.match.cli import UsageError, parse_args
from engine.match.referee import Adjudication
from engine.match.openings import Opening, OpeningError, default_book, load_openings
from engine.match.runner import EngineSpec, Match, MatchConfig
from engine.match.stats import Sprt
from engine.match.timecontrol import TimeControl
from engine.pgn import read_games

pytestmark = pytest.mark.usefixtures("engine_pythonpath")


def fake(script: str, *flags: str, name: str | None = None) -> EngineConfig:
    return EngineConfig(fake_command(script, *flags), name=name or script[:-3])


def run_match(engines, tc="10+0.1", openings=None, **settings) -> tuple[Match, str]:
    out = io.StringIO()
    specs = [EngineSpec(config, TimeControl.parse(tc)) for config in engines]
    config = MatchConfig(engines=specs, openings=openings or default_book()[:2], **settings)
    match = Match(config, out)
    match.run()
    return match, out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(
    "script,termination,restarted",
    [
        ("illegal_mover.py", "illegal_move", False),
        ("crasher.py", "crash", True),
        ("hanger.py", "time_forfeit", True),
        ("slowpoke.py", "time_forfeit", True),
        ("none_mover.py", "no_move", False),
    ],
)
def test_misbehaving_engine_loses_and_the_match_goes_on(script, termination, restarted, tmp_path):
    # The bad engine misbehaves on the 2nd go of its process. A process that crashed, hung or overran
    # its clock is replaced for the next game, whose new process misbehaves again; a process that only
    # played a bad move is kept, so its second game is a normal one.
    match, output = run_match([fake("random_mover.py"), fake(script, name="bad")], tc="2+0",
                              games=2, pgn_path=str(tmp_path / "games.pgn"),
                              adjudication=Adjudication(max_moves=60))
    assert len(match.records) == 2
    failed = match.records if restarted else match.records[:1]
    for record in failed:
        assert record.termination == termination, record.detail
        assert record.result == ("0-1" if record.red == "bad" else "1-0")
    assert "Results (2 games)" in output
    games = read_games(tmp_path / "games.pgn")
    assert [g.result for g in games] == [r.result for r in match.records]
    assert games[0].headers["Termination"] != ""


@pytest.mark.slow
def test_hang_without_clock_is_a_hang(tmp_path):
    match, _ = run_match([fake("random_mover.py"), fake("hanger.py", name="bad")], tc="depth=1",
                         stall_timeout=1.5)
    assert match.records[0].termination == "hang"


@pytest.mark.slow
def test_games_end_by_the_rules_and_pgn_replays(tmp_path):
    pgn = tmp_path / "out.pgn"
    match, output = run_match([fake("random_mover.py", "--seed", "3", name="r1"),
                               fake("random_mover.py", "--seed", "4", name="r2")],
                              games=4, repeat=True, pgn_path=str(pgn), adjudication=Adjudication(max_moves=150))
    games = read_games(pgn)
    assert len(games) == 4 == len(match.records)
    rules_endings = {"checkmate", "stalemate", "perpetual_check", "perpetual_chase", "repetition",
                     "sixty_moves", "insufficient_material", "max_moves"}
    for game, record in zip(games, match.records):
        assert record.termination in rules_endings
        assert game.headers["Game"] == "Chinese Chess" and game.headers["Format"] == "ICCS"
        assert game.headers["Red"] == record.red and game.headers["Result"] == record.result
        assert game.moves == record.moves
        final = game.end_position()
        outcome = final.outcome()
        if record.termination != "max_moves":
            assert outcome is not None and outcome.result == game.result
    # With -repeat, consecutive games use the same opening with colours swapped.
    assert games[0].headers["Opening"] == games[1].headers["Opening"]
    assert games[0].headers["Red"] == games[1].headers["Black"]
    assert "Score of r1 vs r2" in output


@pytest.mark.slow
def test_pgn_in_other_notations_reads_back(tmp_path):
    for notation in ("wxf", "chinese"):
        pgn = tmp_path / f"{notation}.pgn"
        match, _ = run_match([fake("random_mover.py", name="a"), fake("random_mover.py", "--seed", "9", name="b")],
                             games=1, pgn_path=str(pgn), pgn_notation=notation,
                             adjudication=Adjudication(max_moves=40))
        (game,) = read_games(pgn)
        assert game.moves == match.records[0].moves


@pytest.mark.slow
def test_pgn_for_xboard(tmp_path):
    # notation=san: XBoard's PGN (tags, SAN moves, its {+0.12/9 0.3} comments), which reads back.
    pgn = tmp_path / "xboard.pgn"
    match, _ = run_match([fake("random_mover.py", name="a"), fake("random_mover.py", "--seed", "9", name="b")],
                         games=1, pgn_path=str(pgn), pgn_notation="san", adjudication=Adjudication(max_moves=40))
    text = pgn.read_text(encoding="utf-8")
    assert '[Variant "xiangqi"]' in text and '[White "a"]' in text and "[Red " not in text
    (game,) = read_games(pgn)
    record = match.records[0]
    assert game.moves == record.moves and game.result == record.result
    played = [c for c, note in zip(game.comments, record.evals) if note is not None]
    assert played and all(re.fullmatch(r"[+-]\d+\.\d\d/\d+( [\d.:]+)?", c) for c in played), played
    assert game.comments[0] == "book"


def test_pgn_openings_in_big5(tmp_path):
    # Master games of the Chinese Chess Practical Dataset (Yu-Han Tseng, CC BY 4.0), Big5: detected or given.
    sample = DATA / "pgn" / "ccpd" / "general-rear-00002312.pgn"
    (game,) = read_games(sample)
    for encoding in (None, "auto", "big5"):
        (opening,) = load_openings(sample, "pgn", encoding)
        assert opening.moves == tuple(game.moves)
    with pytest.raises(OpeningError, match="cannot read"):
        load_openings(sample, "pgn", "gbk")
    config = parse_args(["-engine", "cmd=a", "-engine", "cmd=b", "-tc", "1",
                         "-openings", f"file={sample}", "format=pgn", "encoding=big5"])
    assert config.openings[0].moves == tuple(game.moves)


@pytest.mark.slow
def test_multi_stage_time_control_sends_stage_clocks(tmp_path):
    # 3 moves in 6 s, then 2 moves in 3 s, repeating: check movestogo and the clock at each go.
    log = tmp_path / "red.log"
    engines = [fake("random_mover.py", "--log", str(log), name="logged"), fake("random_mover.py", name="other")]
    match, _ = run_match(engines, tc="3/6:2/3", openings=[Opening("start")], games=1,
                         adjudication=Adjudication(max_moves=8))
    record = match.records[0]
    red_goes = [entry for entry in record.clock_log if entry[1] == "red"]
    assert [entry[3] for entry in red_goes[:8]] == [3, 2, 1, 2, 1, 2, 1, 2]
    # The clock before each stage's first move has that stage's time added.
    assert 5.5 < red_goes[0][2] <= 6.0
    assert 8.0 < red_goes[3][2] <= 9.0        # 6 - (3 quick moves) + 3
    assert 10.5 < red_goes[5][2] <= 12.0      # + 3 more after the second stage
    sent = [line for line in log.read_text().splitlines() if line.startswith("go")]
    assert "movestogo 3" in sent[0] and "movestogo 2" in sent[3]
    wtime = [int(line.split("wtime ")[1].split()[0]) for line in sent if "wtime" in line]
    assert 8000 < wtime[3] <= 9000


@pytest.mark.slow
def test_an_engine_on_a_clock_against_one_at_a_fixed_depth(tmp_path):
    # Each engine has its own time control; the one at a depth has no clock, and none is sent for it.
    log = tmp_path / "clocked.log"
    engines = [fake("random_mover.py", "--log", str(log), name="clocked"), fake("random_mover.py", name="deep")]
    specs = [EngineSpec(engines[0], TimeControl.parse("10+0.1")),
             EngineSpec(engines[1], TimeControl.parse("depth=1"))]
    config = MatchConfig(engines=specs, openings=[Opening("start")], games=2,
                         adjudication=Adjudication(max_moves=6))
    match = Match(config, io.StringIO())
    match.run()
    assert len(match.records) == 2 and all(r.termination != "crash" for r in match.records)
    sent = [line.split() for line in log.read_text().splitlines() if line.startswith("go")]
    assert sent and all(("wtime" in go) != ("btime" in go) for go in sent), sent   # its own clock only


def test_scaled_rules_scheme_parses_for_the_match():
    tc = TimeControl.parse("cn-90-40", scale=1 / 60)
    assert tc.stages[0].moves == 40 and abs(tc.stages[0].seconds - 90) < 1e-9
    assert tc.stages[1].moves == 10 and abs(tc.stages[1].seconds - 15) < 1e-9


@pytest.mark.slow
def test_sprt_stops_the_match():
    # An engine that crashes on its first move loses every game: H1 is accepted after a few games.
    match, output = run_match([fake("random_mover.py", name="good"), fake("crasher.py", "--at", "1", name="bad")],
                              games=200, sprt=Sprt(0, 200, 0.05, 0.05), tc="5+0")
    assert "SPRT (trinomial)" in output and "H1 accepted" in output and "match stopped" in output
    assert 3 <= len(match.records) < 200


@pytest.mark.slow
def test_a_match_of_game_pairs_is_judged_pentanomially():
    # Under -repeat the games come in pairs (one opening, both colours): the score lines and the table
    # give the pair counts, and the SPRT decides on them.
    match, output = run_match([fake("random_mover.py", name="good"), fake("crasher.py", "--at", "1", name="bad")],
                              games=200, repeat=True, sprt=Sprt(0, 200, 0.05, 0.05), tc="5+0")
    assert "Ptnml(0-2) [0, 0, 0, 0, 1]" in output
    assert "SPRT (pentanomial)" in output and "H1 accepted" in output
    assert "(pentanomial)" in output.split("Results")[1]
    assert 4 <= len(match.records) < 200


@pytest.mark.slow
@needs_fsf
def test_match_against_fairy_stockfish_ucci(tmp_path):
    fsf = EngineConfig(FSF, name="fsf", proto="ucci")
    pgn = tmp_path / "fsf.pgn"
    match, output = run_match([fsf, fake("random_mover.py", name="random")], tc="depth=2", games=2,
                              pgn_path=str(pgn), adjudication=Adjudication(max_moves=120))
    assert len(match.records) == 2
    for record in match.records:
        assert record.termination not in ("illegal_move", "crash", "hang", "time_forfeit", "no_move"), record.detail
        position = Position(record.opening.fen)
        for move in record.moves:
            position.push(move)
    assert match.scores[(0, 1)].wins == 2   # FSF beats a random mover
    assert len(read_games(pgn)) == 2


def test_command_line_parsing(tmp_path):
    config = parse_args(
        ["-engine", "cmd=a", "name=A", "option.Hash=64", "-engine", "cmd=b", "proto=ucci", "tc=5+0.1",
         "-each", "tc=40/5400:10/900", "proto=uci", "-scale", "0.5", "-games", "2", "-rounds", "3",
         "-concurrency", "2", "-repeat", "-pgnout", str(tmp_path / "x.pgn"), "notation=wxf",
         "-sprt", "elo0=0", "elo1=10", "-draw", "movenumber=40", "movecount=8", "score=10",
         "-resign", "movecount=3", "score=600", "-maxmoves", "200", "-timemargin", "250"]
    )
    a, b = config.engines
    assert a.config.name == "A" and a.config.options == {"Hash": "64"} and a.config.proto == "uci"
    assert a.tc.stages[0].seconds == 2700 and b.config.proto == "ucci" and b.tc.stages[0].seconds == 2.5
    assert (config.games, config.rounds, config.concurrency, config.repeat) == (2, 3, 2, True)
    assert config.pgn_notation == "wxf" and config.sprt is not None
    assert config.adjudication.draw_movenumber == 40 and config.adjudication.resign_score == 600
    assert config.adjudication.max_moves == 200 and config.time_margin == 0.25
    assert len(config.openings) >= 30
    for bad in (["-engine", "cmd=a"], ["-engine", "cmd=a", "-engine", "cmd=b"], ["-bogus"],
                ["-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-games", "x"]):
        with pytest.raises(UsageError):
            parse_args(bad)


@pytest.mark.slow
def test_command_line_runs_a_match(tmp_path):
    env = engine_env()
    cmd = [sys.executable, "-m", "engine", "match",
           "-engine", f"cmd={fake_command('random_mover.py')}", "name=one",
           "-engine", f"cmd={fake_command('random_mover.py', '--seed', '2')}", "name=two",
           "-tc", "5+0", "-games", "2", "-maxmoves", "30", "-pgnout", str(tmp_path / "cli.pgn")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Results (2 games)" in done.stdout and "one vs two" in done.stdout
    assert len(read_games(tmp_path / "cli.pgn")) == 2


@pytest.mark.slow
def test_ctrl_c_prints_the_partial_table_and_keeps_the_pgn(tmp_path):
    import signal
    import time

    env = engine_env()
    slow = fake_command("random_mover.py")
    pgn = tmp_path / "partial.pgn"
    cmd = [sys.executable, "-m", "engine", "match", "-engine", f"cmd={slow}", "name=one",
           "-engine", f"cmd={slow} --seed 5", "name=two", "-tc", "5+0", "-games", "500",
           "-maxmoves", "20", "-pgnout", str(pgn)]
    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline and not (pgn.exists() and pgn.read_text().count("[Result") >= 2):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "Interrupted" in out and "Results (" in out
    finished = int(out.split("Results (")[1].split()[0])
    assert finished >= 2 and len(read_games(pgn)) == finished


@pytest.mark.slow
def test_resume_plays_only_the_missing_games_and_keeps_each_game_once(tmp_path):
    from engine.match.journal import JournalError

    journal, pgn = tmp_path / "match.journal", tmp_path / "games.pgn"
    engines = [fake("random_mover.py", "--seed", "3", name="r1"), fake("random_mover.py", "--seed", "4", name="r2")]
    settings = dict(games=4, pgn_path=str(pgn), resume_path=str(journal), adjudication=Adjudication(max_moves=20))
    first, _ = run_match(engines, **settings)
    # As if the runner had been killed during game 3: two games journaled, the third cut short in both files.
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = {number: first.games[number].moves for number in (1, 2)}
    assert [line.startswith(f'{{"game": {n},') for n, line in enumerate(lines)][1:3] == [True, True]
    journal.write_text("".join(lines[:3]) + lines[3][:40], encoding="utf-8")
    pgn.write_text(pgn.read_text(encoding="utf-8") + '[Event "jiangjun match"]\n[Round "3', encoding="utf-8")
    second, output = run_match(engines, **settings)
    assert f"Resumed from {journal}: 2 games already played, 2 to play" in output
    assert output.count("Finished game") == 2 and "Results (4 games)" in output
    assert sorted(second.games) == [1, 2, 3, 4] and {n: second.games[n].moves for n in (1, 2)} == kept
    games = read_games(pgn)
    assert sorted(int(game.headers["Round"]) for game in games) == [1, 2, 3, 4]
    third, output = run_match(engines, **settings)
    assert "4 games already played, 0 to play" in output and "Finished game" not in output
    assert len(read_games(pgn)) == 4 and "Results (4 games)" in output
    with pytest.raises(JournalError):
        run_match(engines, **{**settings, "games": 6})


@pytest.mark.slow
@pytest.mark.parametrize("proto", ["uci", "ucci"])
def test_an_engines_own_resignation_is_recorded_as_resignation(proto, tmp_path):
    pgn = tmp_path / "resign.pgn"
    quitter = fake("resigner.py", name="quitter")
    quitter.proto = proto
    match, output = run_match([fake("random_mover.py"), quitter], games=1, pgn_path=str(pgn))
    record = match.records[0]
    assert record.termination == "resignation" and record.result == "1-0", record.detail
    assert "resigns" in record.detail and "adjudicated" not in record.detail
    assert read_games(pgn)[0].headers["Termination"] == "resignation"
    assert "endings: resignation 1" in output


@pytest.mark.slow
def test_the_pgn_names_each_engine_and_its_options(tmp_path):
    pgn = tmp_path / "named.pgn"
    hashed = EngineConfig(fake("random_mover.py").cmd, options={"Hash": "32"}, proto="uci")   # no name=
    match, _ = run_match([hashed, fake("random_mover.py", "--name", "Other Engine 2.0", name="other")],
                         games=2, pgn_path=str(pgn), adjudication=Adjudication(max_moves=20))
    games = read_games(pgn)
    assert len(games) == 2
    for game in games:
        tags = game.headers
        red_is_first = tags["Red"] == "FakeRandom"          # the display name defaults to the `id name`
        first, other = ("Red", "Black") if red_is_first else ("Black", "Red")
        assert tags[first] == tags[f"{first}Engine"] == "FakeRandom"
        assert tags[other] == "other" and tags[f"{other}Engine"] == "Other Engine 2.0"
        assert tags[f"{first}Options"] == "Hash=32"
        assert tags[f"{other}Options"] == ""                  # the fake advertises no option the client sets
    # The journal keeps what the PGN is written from.
    from engine.match.journal import record_from_dict, record_to_dict
    again = record_from_dict(record_to_dict(match.records[0]))
    assert again.identities == match.records[0].identities and again.evals == match.records[0].evals


@pytest.mark.slow
def test_the_pgn_names_this_projects_engine_with_its_commit(tmp_path):
    from engine.version import ENGINE_NAME

    pgn = tmp_path / "jiangjun.pgn"
    # Run outside the checkout, so that `-m engine` finds the built engine (see conftest.engine_env).
    ours = EngineConfig(ENGINE_COMMAND, proto="uci", workdir=str(tmp_path),
                        options={"Threads": "1"})
    run_match([ours, fake("random_mover.py", name="random")], tc="depth=1", games=1, pgn_path=str(pgn),
              adjudication=Adjudication(max_moves=4))
    tags = read_games(pgn)[0].headers
    assert tags["RedEngine"] == tags["Red"] == ENGINE_NAME
    assert "Threads=1" in tags["RedOptions"] and "OwnBook=false" in tags["RedOptions"]


@pytest.mark.slow
def test_each_engine_plays_on_its_own_clock(tmp_path):
    # Time odds from the command line: the second engine's tc= wins over -tc. Each side is sent its own
    # clock and its opponent's, and the PGN names both.
    log, pgn = tmp_path / "fast.log", tmp_path / "odds.pgn"
    fast = fake_command("random_mover.py", "--log", str(log))
    slow = fake_command("random_mover.py", "--seed", "2")
    config = parse_args(["-engine", f"cmd={fast}", "name=fast", "-engine", f"cmd={slow}", "name=slow", "tc=4+0.2",
                         "-tc", "2+0.1", "-games", "2", "-maxmoves", "12", "-pgnout", str(pgn)])
    match = Match(config, io.StringIO())
    match.run()
    assert len(match.records) == 2 and all(r.termination == "max_moves" for r in match.records)
    for game in read_games(pgn):
        tags = (game.headers["RedTimeControl"], game.headers["BlackTimeControl"])
        assert tags == (("2+0.1", "4+0.2") if game.headers["Red"] == "fast" else ("4+0.2", "2+0.1"))
        assert "TimeControl" not in game.headers
    first = log.read_text().split("go ", 1)[1].splitlines()[0].split()
    sent = dict(zip(first[::2], map(int, first[1::2])))
    assert {(sent["wtime"], sent["winc"]), (sent["btime"], sent["binc"])} == {(2000, 100), (4000, 200)}


@pytest.mark.slow
def test_without_adjudication_an_engine_that_answers_no_move_forfeits():
    # Generals, advisors and elephants only: the rules library calls it a draw, and by default the runner
    # ends the game there before anyone moves. Under -noadjudicate the engines must play on, and one that
    # answers "no move" (UCI bestmove (none)) although it has legal moves forfeits.
    bare = Opening("bare", "4k4/4a4/b4a3/9/6b2/9/9/3AB3B/4A4/5K3 b")
    engines = [fake("random_mover.py", name="mover"), fake("none_mover.py", "--at", "1", name="none")]
    match, _ = run_match(engines, openings=[bare])
    record = match.records[0]
    assert (record.termination, record.result, len(record.moves)) == ("insufficient_material", "1/2-1/2", 0)
    match, output = run_match(engines, openings=[bare], adjudication=Adjudication(rules_only=True))
    record = match.records[0]
    assert (record.termination, record.result, record.loser_index) == ("no_move", "1-0", 1), record.detail
    assert record.detail.startswith("Black (none) gave no move in a live position (9 legal moves")
    assert "draw by insufficient material" in record.detail and "endings: no move in a live position 1" in output

"""engine.match.pgn: a finished game's PGN, its ending in words and each side's time control."""
import io

import pytest

from engine.color import Color
from engine.match.endings import TERMINATIONS, MatchTermination, Verdict, ending_of
from engine.match.openings import Opening
from engine.match.pgn import game_pgn, time_control_tags
from engine.match.record import EngineIdentity, GameRecord, MoveEval
from engine.outcome import Termination
from engine.pgn import read_games
from engine.score import Score


def a_game(verdict: Verdict) -> GameRecord:
    record = GameRecord("one", "two", Opening("start"),
                        identities=[EngineIdentity("one 1.0"), EngineIdentity("two 2.0", {"Hash": "16"})])
    record.add_book_move("h2e2")
    record.add_move("h9g7", "+0.35/9 0.512s", MoveEval(Score(35), 9, 512.0))
    return record.finish(verdict)


def read_back(text: str):
    (game,) = read_games(io.StringIO(text))
    return game


@pytest.mark.parametrize("reason", list(TERMINATIONS.values()))
def test_the_ending_is_written_in_its_words_and_reads_back(reason):
    verdict = Verdict.loss(Color.RED, reason, f"Red (one): {reason.words}")
    game = read_back(game_pgn(a_game(verdict), 3, "test", ("10+0.1", "10+0.1"), "iccs"))
    assert game.headers["Termination"] == reason.words and game.result == "0-1"
    assert {ending.words: ending for ending in TERMINATIONS.values()}[game.headers["Termination"]] is reason
    assert game.start_comment == f"Red (one): {reason.words}"
    assert ending_of(reason.value) is reason


def test_the_words_are_defined_once_and_tell_endings_apart():
    words = [ending.words for ending in TERMINATIONS.values()]
    assert len(set(words)) == len(words)
    assert list(TERMINATIONS)[:len(Termination)] == [t.value for t in Termination]
    assert MatchTermination.NO_MOVE.words == "no move in a live position"


def test_each_sides_time_control():
    # One TimeControl when both sides play the same; otherwise one per side, as cutechess writes
    # WhiteTimeControl and BlackTimeControl, named Red and Black as the engine tags are.
    assert time_control_tags("10+0.1", "10+0.1") == {"TimeControl": "10+0.1"}
    assert time_control_tags("10+0.1", "20+0.2") == {"RedTimeControl": "10+0.1", "BlackTimeControl": "20+0.2"}
    verdict = Verdict("1/2-1/2", Termination.REPETITION, "draw by repetition")
    for notation in ("iccs", "san"):
        game = read_back(game_pgn(a_game(verdict), 1, "odds", ("20+0.2", "-"), notation))
        assert (game.headers["RedTimeControl"], game.headers["BlackTimeControl"]) == ("20+0.2", "-")
        assert "TimeControl" not in game.headers and game.headers["RedEngine"] == "one 1.0"

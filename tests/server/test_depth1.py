"""A search can always stop, depth 1 included.

In this self-play game (a match at 20,000 nodes a move, 2026-12-01), the engine's depth-1 search of the
last position grew to millions of nodes in quiescence, with the history and table of the game's earlier
searches; depth 1 could not be stopped then, and the engine hung. The game is replayed as the match played
it, one process throughout: every answer must come within the node limit's time.
"""
import pytest

from support.driver import EngineDriver
from support import DATA

pytestmark = pytest.mark.slow
MOVES = (DATA / "depth1-blowup-moves.txt").read_text().split()


def test_every_search_of_the_game_answers_promptly():
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("setoption name OwnBook value false")
        eng.send("setoption name Hash value 16")
        eng.send("ucinewgame")
        for ply in range(1, len(MOVES) + 1, 2):        # Black's moves, as the base engine played them
            eng.send("position startpos moves " + " ".join(MOVES[:ply]))
            eng.send("go nodes 20000")
            answer, _ = eng.expect(lambda line: line.startswith("bestmove"), timeout=20)
            assert answer.split()[1] != "(none)"

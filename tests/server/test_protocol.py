"""The reader loop (engine/server/protocol.py) with long input: a whole game of 1,000 plies sent as one
`position` line is read and answered (its reading time against its length is measured by
benchmarks/position_length.py, not asserted here)."""
from __future__ import annotations

import io
import random

import pytest

from engine import Position
from engine.server.protocol import MAX_LINE, Protocol, serve
from engine.server.session import LazyEngine
from support.driver import EngineDriver


def random_game(plies: int, seed: int = 43) -> tuple[list[str], Position]:
    """A legal random game of `plies` moves that never leaves the side to move without a move, and the
    position it reaches."""
    rng = random.Random(seed)
    position = Position()
    moves: list[str] = []
    while len(moves) < plies:
        candidates = position.legal_moves()
        rng.shuffle(candidates)
        for move in candidates:
            position.push(move)
            if position.legal_moves():
                moves.append(move)
                break
            position.pop()
    return moves, position


def test_a_game_of_1000_plies_in_one_line_is_read_whole():
    moves, end = random_game(1000)
    line = "position startpos moves " + " ".join(moves)
    assert len(line) < MAX_LINE
    said: list[str] = []
    protocol = Protocol(LazyEngine(), said.append, lambda task: task())
    for text in ("uci", line):
        protocol.handle_line(text)
    assert not [text for text in said if text.startswith("info string")], said[-1]
    engine = protocol.engine.get()
    assert engine.position.move_stack == moves and engine.position.fen() == end.fen()


def test_the_longest_game_the_kernel_keeps_and_one_ply_more():
    # The kernel keeps MAX_HISTORY - 512 plies of record: the game one ply longer is refused whole.
    moves, end = random_game(3584, seed=7)
    stdout = io.StringIO()
    lines = ["uci", "position startpos moves " + " ".join(moves), "d",
             "position startpos moves " + " ".join([*moves, end.legal_moves()[0]]), "quit"]
    serve(io.StringIO("\n".join(lines) + "\n"), stdout)
    out = stdout.getvalue().splitlines()
    refused = [text for text in out if text.startswith("info string")]
    assert len(refused) == 1 and "the game record is full (3584 plies)" in refused[0], refused
    assert f"Fen: {end.fen()}" in out


@pytest.mark.slow
def test_a_game_of_1000_plies_is_answered_with_a_legal_move():
    moves, end = random_game(1000)
    with EngineDriver() as eng:
        eng.handshake("uci")
        eng.send("position startpos moves " + " ".join(moves))
        eng.send("go movetime 200")
        answer = eng.read_until("bestmove", timeout=20)[-1]
        assert answer.split()[1] in end.legal_moves(), answer

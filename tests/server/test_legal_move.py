"""A legal move whenever one exists (issue 43): under UCI and UCCI, `go` in a position with a legal move
ends in `bestmove <legal move>` whatever the rules say of the game (the ruling goes in an `info string`
before it, and the GUI adjudicates); `bestmove (none)` / `nobestmove` only without a legal move, or after
a refused `position`. Through the engine process, in both dialects."""
from __future__ import annotations

import re
from typing import Optional

import pytest

from engine import Position
from support.driver import MATED_FEN, EngineDriver, bestmove_of

pytestmark = pytest.mark.slow

REPETITION = ("startpos", "h0g2 h9g7 g2h0 g7h9 " * 3)     # the start position for the fourth time
BARE = ("fen 4k4/4a4/b4a3/9/6b2/9/9/3AB3B/4A4/5K3 b", "")   # no chariot, horse, cannon or soldier left
PAST_SIXTY = ("fen 3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 130 80", "")   # 130 plies without capture
# Black's soldiers check the Red general every move: Black's perpetual check, Red to move.
PERPETUAL_CHECK = ("fen 3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f1e1 f2e2 e1f1 e2f2 " * 2)
# Black's elephant chases the Red cannon every move: Black's perpetual chase, Red to move.
PERPETUAL_CHASE = ("fen 3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1", "d6e6 e7g5 e6d6 g5e7 " * 2)
RULED = {
    "repetition": (REPETITION, "repetition: a draw"),
    "bare material": (BARE, "insufficient material: a draw"),
    "past the 60-move limit": (PAST_SIXTY, "60-move rule: a draw"),
    "perpetual check": (PERPETUAL_CHECK, "perpetual check: Red wins"),
    "perpetual chase": (PERPETUAL_CHASE, "perpetual chase: Red wins"),
}
# Black's generals face each other on the e file: a position the engine refuses.
GENERALS_FACING = "fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


def position_of(spec: tuple[str, str]) -> Position:
    where, moves = spec
    position = Position() if where == "startpos" else Position(where.removeprefix("fen "))
    for move in moves.split():
        position.push(move)
    return position


def command(spec: tuple[str, str]) -> str:
    where, moves = spec
    return f"position {where}" + (f" moves {moves.strip()}" if moves.strip() else "")


@pytest.fixture(params=["uci", "ucci"])
def eng(request):
    with EngineDriver() as driver:
        driver.handshake(request.param)
        yield driver
        assert driver.proc.poll() is None, "the engine exited"


def answer(eng: EngineDriver, go: str = "go depth 4") -> list[str]:
    """The lines that answer `go`, up to its bestmove or nobestmove line."""
    eng.send(go)
    return eng.read_until(lambda line: line.startswith(("bestmove", "nobestmove")), timeout=30)


def played(lines: list[str]) -> Optional[str]:
    """The move of the answer's last line, None for `bestmove (none)` / `nobestmove`."""
    if lines[-1] in ("bestmove (none)", "nobestmove"):
        return None
    return bestmove_of(lines)


def no_move(eng: EngineDriver) -> str:
    return "bestmove (none)" if eng.dialect == "uci" else "nobestmove"


@pytest.mark.parametrize("case", sorted(RULED))
def test_a_ruled_position_gets_a_legal_move_with_the_ruling_before_it(eng, case):
    spec, ruling = RULED[case]
    eng.send(command(spec))
    lines = answer(eng)
    assert played(lines) in position_of(spec).legal_moves(), lines
    notes = eng.info_strings(lines)
    assert notes and ruling in notes[-1], lines
    assert any(line.startswith("info depth") for line in lines[:-1]), "the search's score is shown"


def test_searchmoves_and_banmoves_are_kept_in_a_ruled_position(eng):
    position = position_of(BARE)
    allowed = sorted(position.legal_moves())[:2]
    if eng.dialect == "uci":
        eng.send(command(BARE))
        assert played(answer(eng, "go depth 3 searchmoves " + " ".join(allowed))) in allowed
    eng.send(command(BARE))
    eng.send("banmoves " + " ".join(m for m in position.legal_moves() if m not in allowed))
    assert played(answer(eng, "go depth 3")) in allowed


def test_no_move_left_after_banmoves_gets_no_move(eng):
    eng.send(command(BARE))
    eng.send("banmoves " + " ".join(position_of(BARE).legal_moves()))
    lines = answer(eng)
    assert lines[-1] == no_move(eng)
    assert "no legal move left" in eng.info_strings(lines)[-1]


def test_depth_0_answers_a_legal_move_in_a_ruled_position(eng):
    eng.send(command(REPETITION))
    lines = answer(eng, "go depth 0")
    assert played(lines) in position_of(REPETITION).legal_moves(), lines


def test_a_strength_level_and_the_book_answer_a_legal_move_in_a_ruled_position(eng):
    # The start position repeated: the book (on by default) would know it, but it knows no rulings, so
    # the search answers; at a low level too.
    eng.send("setoption name Skill Level value 2" if eng.dialect == "uci" else "setoption skilllevel 2")
    eng.send(command(REPETITION))
    lines = answer(eng, "go depth 3")
    assert played(lines) in position_of(REPETITION).legal_moves(), lines
    assert not any("book move" in line for line in lines)


def test_a_position_without_a_legal_move_still_gets_no_move(eng):
    eng.send(f"position fen {MATED_FEN}")
    lines = answer(eng)
    assert lines[-1] == no_move(eng)
    assert "checkmate: Red wins" in eng.info_strings(lines)[-1]


@pytest.mark.parametrize("refused", [
    GENERALS_FACING,                                   # the generals face each other
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",   # nine ranks
    "startpos moves h2e2 h2e2",                        # an illegal move (no piece on h2 any more)
    "startpos moves h2",                               # a malformed move
])
def test_after_a_refused_position_go_answers_no_move_until_a_valid_one(eng, refused):
    eng.send("position startpos moves h2e2")           # a valid position first: never searched again
    eng.send(f"position {refused}")
    lines = answer(eng)
    assert lines[-1] == no_move(eng), lines
    assert "no valid position was given" in eng.info_strings(lines)[-1], lines
    eng.send("banmoves h9g7")
    assert "no valid position" in eng.info_strings(eng.ping())[-1]
    eng.send("position startpos")
    assert played(answer(eng)) in Position().legal_moves()


def test_ucci_depth_0_shows_the_static_evaluation_and_plays_a_legal_move():
    with EngineDriver() as eng:
        eng.handshake("ucci")
        eng.send("go depth 0")
        lines = eng.read_until(lambda line: line.startswith(("bestmove", "nobestmove")), timeout=10)
        evaluation = re.match(r"^info depth 0 score -?\d+ pv ([a-i]\d[a-i]\d)$", lines[-2])
        assert evaluation, lines
        assert played(lines) == evaluation.group(1) and evaluation.group(1) in Position().legal_moves()

"""Repetition rulings against Fairy-Stockfish: random 4-ply cycles repeated from the setup position.

How the cycles are made (fixed seed, all with our own rules library; pyffish only judges):

* a setup position, from one of two sources:
  - a random sparse legal FEN: the two generals plus a handful of pieces on points they can reach
    (elephants, advisors and soldiers on their own points), the kind of board where chases are common;
  - random play from the start position that prefers captures, stopped after a random number of plies;
* its FEN (counters reset to "0 1") becomes a NEW setup, so the first occurrence of the repeated
  position is the setup itself. There our cycle window (the moves from the first occurrence to now)
  and FSF's (which, for the side completing the repetition, also holds the move that led into the first
  occurrence) agree: FSF does not intersect the chased set of the setup entry;
* a non-capturing move A of the side to move, usually one that chases something
  (``_core.testing.chased_by(board, A)`` not empty); a non-capturing reply B, often a move of the chased piece (it
  flees, so that A reversed may chase it again), sometimes a move that chases back; then A reversed and
  B reversed. The 4-ply cycle is played twice, so the setup position occurs for the third time at ply 8.
  A candidate is skipped when a step is illegal or a capture.

What is compared: our ``outcome()`` after every ply (nothing before ply 8, a ruling at ply 8) against
``pyffish.is_optional_game_end`` at ply 8 (draw / win / loss, turned into an absolute winner), and at
plies 4..7 (second occurrences, where FSF at game level must not rule yet) for a sample of the cycles.

pyffish 0.0.90 rebuilds its variant tables on every call (a few ms), so the pyffish calls are what the
runtime is made of. pyffish moves use ranks 1..10 ("h3e3"); ours use 0..9 ("h2e2").

The second part holds positions that isolate quirks of FSF's chase detection (spec: the research notes
on FSF's ``Position::chased``), with FSF's result written down, so they run without pyffish.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from typing import Optional

import pytest

if __name__ == "__main__":  # run as a script (stats and timing): use this checkout's engine
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))

from engine import START_FEN, InvalidFenError, Position, _core
from engine.fen import REACHABLE, format_board

try:
    import pyffish as sf
except ImportError:  # pragma: no cover - the quirk cases below still run
    sf = None

VARIANT = "xiangqi"
SEED = 20261201
CYCLES = 1600  # cycles compared with pyffish
MIN_DECISIVE = 50  # of them ruled a perpetual check or chase
SECOND_OCCURRENCE_SAMPLE = 0.12  # share of the cycles whose plies 4..7 are also asked of pyffish

KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(7)
LETTERS = "KABNRCP"
PALACE = (REACHABLE[KING][0], REACHABLE[KING][1])
ALL_POINTS = {(f, r) for f in range(9) for r in range(10)}


def to_sf(move: str) -> str:
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def reverse(move: str) -> str:
    return move[2:] + move[:2]


def other(side: str) -> str:
    return "black" if side == "red" else "red"


def sf_winner(fen: str, moves: list[str], side_to_move: str) -> tuple[bool, Optional[str]]:
    """pyffish's optional game end as (ended, winner): winner "red", "black" or None (draw)."""
    ended, value = sf.is_optional_game_end(VARIANT, fen, [to_sf(m) for m in moves])
    if not ended:
        return False, None
    if value == 0:
        return True, None
    return True, side_to_move if value > 0 else other(side_to_move)


def ruling(position: Position) -> Optional[tuple[Optional[str], str]]:
    outcome = position.outcome()
    if outcome is None:
        return None
    return (None if outcome.winner is None else outcome.winner.value), outcome.reason


# -- setup positions ------------------------------------------------------------------------------

def random_sparse_fen(rng: random.Random) -> str:
    """The two generals (a third of the time on one file) and 2..8 other pieces on points they can reach;
    the side to move at random. The caller rejects positions that leave the side not to move in check."""
    red_general = rng.choice(sorted(PALACE[0]))
    black_general = rng.choice(sorted(PALACE[1]))
    if rng.random() < 0.3:  # generals on one file: the flying-general pin and FSF's shortcut for it
        black_general = (red_general[0], black_general[1])
    squares: dict[tuple[int, int], str] = {red_general: "K", black_general: "k"}
    pool = []
    for side in (0, 1):
        for ptype, count, weight in ((ROOK, 2, 3), (HORSE, 2, 3), (CANNON, 2, 3), (PAWN, 5, 1),
                                     (ADVISOR, 2, 1), (ELEPHANT, 2, 1)):
            pool += [(side, ptype)] * count * weight
    wanted = rng.randint(2, 8)
    counts: Counter = Counter()
    while sum(counts.values()) < wanted:
        side, ptype = rng.choice(pool)
        limit = 5 if ptype == PAWN else 2
        if counts[side, ptype] >= limit:
            continue
        points = sorted((REACHABLE[ptype][side] if ptype in REACHABLE else ALL_POINTS) - squares.keys())
        if not points:
            continue
        counts[side, ptype] += 1
        letter = LETTERS[ptype]
        squares[rng.choice(points)] = letter if side == 0 else letter.lower()
    pieces = [(0 if letter.isupper() else 1, LETTERS.index(letter.upper()), file, rank)
              for (file, rank), letter in squares.items()]
    return f"{format_board(pieces)} {rng.choice('wb')} - - 0 1"


def capture_biased_game_fen(rng: random.Random) -> Optional[str]:
    """The FEN after random play from the start that takes a capture 70% of the time one is available."""
    position = Position(START_FEN)
    for _ in range(rng.randint(8, 140)):
        moves = position.legal_moves()
        if not moves or position.outcome() is not None:
            return None
        taken = occupied(position)
        captures = [m for m in moves if m[2:4] in taken]
        position.push(rng.choice(captures if captures and rng.random() < 0.7 else moves))
    board, side = position.fen().split()[:2]
    return f"{board} {side} - - 0 1"


def random_setup(rng: random.Random) -> Optional[Position]:
    fen = random_sparse_fen(rng) if rng.random() < 0.6 else capture_biased_game_fen(rng)
    if fen is None:
        return None
    try:
        position = Position(fen)
    except InvalidFenError:  # the side not to move is in check, or the generals face each other
        return None
    if position.outcome() is not None:  # no legal move, or a bare board (our draw, FSF plays on)
        return None
    return position


# -- cycles ---------------------------------------------------------------------------------------

def occupied(position: Position) -> set[str]:
    return {f"{'abcdefghi'[file]}{rank}" for _, _, file, rank in position.kernel_board.pieces()}


def quiet_moves(position: Position) -> list[str]:
    taken = occupied(position)
    return [m for m in position.legal_moves() if m[2:4] not in taken]


def playable(position: Position, moves: list[str]) -> bool:
    """Whether the moves are legal non-captures one after the other (the position is left unchanged)."""
    played = 0
    ok = True
    for move in moves:
        if position.piece_at(move[2:4]) is not None or not position.is_legal(move):
            ok = False
            break
        position.push(move)
        played += 1
    for _ in range(played):
        position.pop()
    return ok


def choose_cycle(rng: random.Random, position: Position) -> Optional[list[str]]:
    """A 4-ply cycle A, B, A reversed, B reversed from the position, biased towards chases.

    A usually chases something; B is often a move of the chased piece (it flees) or a move that chases
    back. Of the playable candidates, most of the time one is taken where A reversed chases too (so the
    same piece may be chased all through the cycle), otherwise any.
    """
    quiet = quiet_moves(position)
    if not quiet:
        return None
    chasing = [m for m in quiet if _core.testing.chased_by(position.kernel_board, m)]
    rng.shuffle(chasing)
    firsts = chasing[:3] if chasing and rng.random() < 0.85 else [rng.choice(quiet)]
    candidates = []
    for first in firsts:
        victims = set(_core.testing.chased_by(position.kernel_board, first))
        position.push(first)
        try:
            replies = quiet_moves(position)
            fleeing = [m for m in replies if m[:2] in victims]
            chasing_back = [m for m in replies if _core.testing.chased_by(position.kernel_board, m)]
        finally:
            position.pop()
        roll = rng.random()
        if fleeing and roll < 0.55:
            pool = fleeing
        elif chasing_back and roll < 0.75:
            pool = chasing_back
        else:
            pool = replies
        rng.shuffle(pool)
        for second in pool[:6]:
            cycle = [first, second, reverse(first), reverse(second)]
            if playable(position, cycle * 2):
                candidates.append(cycle)
    if not candidates:
        return None
    if rng.random() < 0.7:
        again = [cycle for cycle in candidates if chases_again(position, cycle)]
        if again:
            return rng.choice(again)
    return rng.choice(candidates)


def chases_again(position: Position, cycle: list[str]) -> bool:
    """Whether A reversed, played after A and B, chases something."""
    position.push(cycle[0])
    position.push(cycle[1])
    try:
        return bool(_core.testing.chased_by(position.kernel_board, cycle[2]))
    finally:
        position.pop()
        position.pop()


def run_fuzz(cycles: int = CYCLES, seed: int = SEED):
    rng = random.Random(seed)
    stats: Counter = Counter()
    problems: list[str] = []
    while stats["compared"] < cycles:
        position = random_setup(rng)
        if position is None:
            stats["setup rejected"] += 1
            continue
        fen = position.fen()
        cycle = choose_cycle(rng, position)
        if cycle is None:
            stats["no cycle"] += 1
            continue
        moves = cycle * 2
        setup_side = position.turn.value
        ask_early = rng.random() < SECOND_OCCURRENCE_SAMPLE
        early_ruling = None
        gave_check = []  # per ply: did the move give check (our rules; FSF's checks are compared elsewhere)
        for ply, move in enumerate(moves, 1):
            position.push(move)
            gave_check.append(position.is_check())
            ours = ruling(position)
            if ply < 8:
                if ours is not None and early_ruling is None:
                    early_ruling = f"{fen}; {' '.join(moves[:ply])}: we rule {ours} before the 3rd occurrence"
                if ask_early and ply >= 4:
                    theirs = sf_winner(fen, moves[:ply], position.turn.value)
                    stats["pyffish calls"] += 1
                    if theirs[0]:
                        problems.append(f"{fen}; {' '.join(moves[:ply])}: pyffish rules {theirs} at ply {ply}")
        if early_ruling:
            problems.append(early_ruling)
        if ask_early:  # pyffish played the same moves: the board is back to the setup
            back = sf.get_fen(VARIANT, fen, [to_sf(m) for m in moves]).split()[:2]
            if back != fen.split()[:2]:
                problems.append(f"{fen}; {' '.join(moves)}: pyffish ends on {' '.join(back)}")
        theirs = sf_winner(fen, moves, setup_side)
        stats["pyffish calls"] += 1
        stats["compared"] += 1
        ours = ruling(position)
        # the reason must fit the winner and who checked on every move: A's side moves at odd plies
        checker = {side for side, plies in ((setup_side, gave_check[0::2]), (other(setup_side), gave_check[1::2]))
                   if all(plies)}
        if len(checker) == 1:
            reason = {(other(checker.pop()), "perpetual_check")}
        elif checker:
            reason = {(None, "repetition")}
        else:
            reason = {(None, "repetition"), ("red", "perpetual_chase"), ("black", "perpetual_chase")}
        ok = theirs[0] and ours is not None and ours[0] == theirs[1] and ours in reason
        if not ok:
            their_text = "no result" if not theirs[0] else ("draw" if theirs[1] is None else theirs[1] + " wins")
            problems.append(f"{fen}; {' '.join(moves)}: ours {ours}, pyffish {their_text}")
        if ours is not None:
            stats[ours[1]] += 1
    return stats, problems


@pytest.mark.skipif(sf is None, reason="pyffish is not installed")
def test_random_cycles_from_the_setup_agree_with_fairy_stockfish():
    stats, problems = run_fuzz()
    print(f"\nrepetition fuzz: {dict(stats)}")
    assert not problems, f"{len(problems)} disagreements with pyffish, first ones:\n" + "\n".join(problems[:15])
    assert stats["compared"] >= 1500
    assert stats["perpetual_chase"] + stats["perpetual_check"] >= MIN_DECISIVE, stats


# -- quirk positions (FSF's results written down; checked against pyffish when it is installed) -------

# name, FEN, ICCS moves (8 plies: the setup occurs for the third time), FSF's winner (None: draw)
QUIRKS = [
    # Flying-general pin shortcut: the generals share the f-file and Black has only one piece on it, so FSF
    # treats that piece (rook f7) as pinned, although a red advisor on f2 stands between the generals. The
    # rook's protection of the cannon on d7/c7 does not count: Red's rook chases, Red loses.
    ("fg pin shortcut, own piece between generals ignored",
     "5k3/9/3c1r3/9/9/9/2R6/5A3/9/5K3 w - - 0 1", "c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3 c7d7", "black"),
    # ... with a second black piece on the file (a crossed soldier on f4), neither is "pinned": a draw.
    ("fg pin shortcut, two pieces on the file",
     "5k3/9/3c1r3/9/9/5p3/2R6/5A3/9/5K3 w - - 0 1", "c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3 c7d7", None),
    # ... and with the generals on different files there is no pin at all: a draw.
    ("fg pin shortcut, generals on different files",
     "4k4/9/3c1r3/9/9/9/2R6/5A3/9/5K3 w - - 0 1", "c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3 c7d7", None),
    # The shortcut also "pins" a piece behind its own general (rook f9 behind the general on f8), so the
    # rook's protection of the cannon on rank 9 does not count: Red loses.
    ("fg pin shortcut, piece behind its own general",
     "3c1r3/5k3/9/9/9/9/2R6/5A3/9/5K3 w - - 0 1", "c3d3 d9c9 d3c3 c9d9 c3d3 d9c9 d3c3 c9d9", "black"),
    ("fg pin shortcut, piece behind its general, second piece on the file",
     "3c1r3/5k3/9/9/9/5p3/2R6/5A3/9/5K3 w - - 0 1", "c3d3 d9c9 d3c3 c9d9 c3d3 d9c9 d3c3 c9d9", None),
    ("piece behind its general, generals on different files",
     "3c1r3/4k4/9/9/9/9/2R6/5A3/9/5K3 w - - 0 1", "c3d3 d9c9 d3c3 c9d9 c3d3 d9c9 d3c3 c9d9", None),
    # The chaser's legality is never tested: the red rook is pinned on its general's file by the black
    # rook, yet chasing the cannon along rank 4/3 loses.
    ("pinned chaser still chases",
     "3k5/4r4/9/9/9/c8/4R4/9/9/4K4 w - - 0 1", "e3e4 a4a3 e4e3 a3a4 e3e4 a4a3 e4e3 a3a4", "black"),
    # Self-discovery: the rook retreating along the a-file away from the horse it already attacked counts
    # as newly attacking it (discovered attacks are diffed from the piece's new square).
    ("self-discovery by a retreating rook",
     "4k4/9/9/9/1P7/R8/9/n8/9/3K5 w - - 0 1", "a4a6 a2b4 a6a4 b4a2 a4a6 a2b4 a6a4 b4a2", "black"),
    # The cycle of quirks.py's "entry move also chases", judged at ply 8 where the setup is the first
    # occurrence (both windows agree; FSF also says Black wins at ply 9).
    ("rook chases a cannon along two ranks",
     "5k3/9/9/9/9/c8/4R4/9/9/3K5 w - - 0 1", "e3e4 a4a3 e4e3 a3a4 e3e4 a4a3 e4e3 a3a4", "black"),
]


@pytest.mark.parametrize("name,fen,moves,winner", QUIRKS, ids=[q[0] for q in QUIRKS])
def test_quirk_positions_follow_fairy_stockfish(name, fen, moves, winner):
    position = Position(fen)
    moves = moves.split()
    for ply, move in enumerate(moves, 1):
        position.push(move)
        if ply < len(moves):
            assert position.outcome() is None, f"ruled at ply {ply}"
    outcome = position.outcome()
    assert outcome is not None
    assert (None if outcome.winner is None else outcome.winner.value) == winner
    assert outcome.reason == ("repetition" if winner is None else "perpetual_chase")


@pytest.mark.skipif(sf is None, reason="pyffish is not installed")
@pytest.mark.parametrize("name,fen,moves,winner", QUIRKS, ids=[q[0] for q in QUIRKS])
def test_quirk_results_are_fairy_stockfish_results(name, fen, moves, winner):
    moves = moves.split()
    assert sf_winner(fen, moves, Position(fen).turn.value) == (True, winner)
    assert sf_winner(fen, moves[:-1], other(Position(fen).turn.value))[0] is False


def test_deliberate_difference_the_window_starts_at_the_first_occurrence():
    """Not FSF: Red enters with a rook move that chases nothing, then chases the cannon on every move of
    the cycle and completes the third occurrence (of the position after ply 1) at ply 9. Our window holds
    only the cycle's moves, so Red's perpetual chase loses; FSF also looks at Red's entry move and says draw."""
    fen = "5k3/9/9/9/9/c6R1/9/9/9/3K5 w - - 0 1"
    moves = "h4e4 a4a3 e4e3 a3a4 e3e4 a4a3 e4e3 a3a4 e3e4".split()
    position = Position(fen)
    for move in moves:
        assert position.outcome() is None
        position.push(move)
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == "black" and outcome.reason == "perpetual_chase"
    if sf is not None:
        assert sf_winner(fen, moves, "black") == (True, None)


if __name__ == "__main__":  # stats and timing: python tests/test_repetition_fuzz.py [cycles] [seed]
    count = int(sys.argv[1]) if len(sys.argv) > 1 else CYCLES
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    t0 = time.perf_counter()
    result, found = run_fuzz(count, seed)
    print(dict(result), f"{time.perf_counter() - t0:.1f} s")
    for line in found:
        print(line)

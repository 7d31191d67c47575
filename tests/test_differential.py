"""Differential tests: jiangjun's rules against Fairy-Stockfish (pyffish, and the FSF binary when installed).

The corpus (built once per module, fixed seeds, about 22 000 positions):

* random games from the start position and from every FEN of ``perft.epd``. Move choice leans towards
  checks and captures, so the games reach checks, pins, bare boards and mates;
* short random games from random sparse legal FENs of three kinds: the two generals on one file with
  exactly one piece between them (that piece is pinned by the flying-general rule); the side to move in
  check; and plain sparse positions. Each generated FEN is accepted by ``Position`` and checked with pyffish
  (``validate_fen`` and "the side not to move is not in check"). FENs that ``Position`` rejects are also
  checked: they must really leave the side not to move in check (for pyffish), or have the generals facing
  on an open file (which FSF forbids by move legality rather than by reporting a check).

What is compared at the positions:

* **every position** (pyffish, one ``get_san_moves`` call per game): the played move is legal for FSF,
  and the check status after every move (FSF's SAN check marker; a disagreement is re-checked with
  ``gives_check`` on the FEN before it counts as a failure);
* **sampled positions** (pyffish): the set of legal moves, the board and side to move of ``get_fen`` after
  the last move, the check status of each game's first position (``gives_check``);
* **every position with no legal move**: pyffish's ``game_result`` is ``-VALUE_MATE`` (the side to move
  loses) and our ``outcome()`` says checkmate or stalemate with the other side winning;
* **every position** with the Fairy-Stockfish binary (skipped if it is not installed): legal move set
  (``go perft 1``), check status (``Checkers:`` of ``d``) and board + side of ``Fen:`` after the move.

pyffish 0.0.90 rebuilds its variant tables on every call (``UCI::init_variant``), about 2-4 ms a call, so
one pyffish call per position for 20 000 positions would take over a minute: the default run samples the
full comparison and the ``slow`` test ``test_pyffish_every_position`` does it at every position.

pyffish moves use ranks 1..10 ("h3e3", "a10a9"); ours use 0..9 ("h2e2", "a9a8").
"""
from __future__ import annotations

import os
import random
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest

from engine import START_FEN, InvalidFenError, Position, _core
from engine.client import EngineConfig, open_process
from support import DATA, SHARED

sf = pytest.importorskip("pyffish")

VARIANT = "xiangqi"
MATED = -sf.VALUE_MATE
FSF_BINARY = os.environ.get("JIANGJUN_FSF") or shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"

# Size of the default corpus: together about 22 000 positions and 3 400 pyffish calls.
START_GAMES, START_PLIES = 60, 160
EPD_GAMES_PER_FEN, EPD_PLIES = 2, 70
RANDOM_FENS_PER_KIND, RANDOM_FEN_PLIES = 110, 40
FULL_EVERY = 50  # full pyffish comparison (legal set + get_fen) at every FULL_EVERY-th position of a game
REJECTED_SAMPLE = 100  # FENs rejected by Position that are checked with pyffish

# Minimum counts the corpus must reach (guards against a generator that silently stops doing its job).
MINIMUM = {
    "positions": 20_000,
    "in_check": 1_000,
    "in_check_start": 100,  # generated FENs with the side to move in check
    "facing_one_between": 500,  # generals on one file with exactly one piece between
    "pinned_by_general": 200,  # ... and that piece is the mover's
    "checkmate": 40,
    "stalemate": 15,
    "full_pyffish": 600,
    "captures": 2_000,
    "random_fens": 300,
    "rejected_fens_checked": 50,
}

_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_sf(move: str) -> str:
    """ICCS "h2e2" (ranks 0..9) -> pyffish "h3e3" (ranks 1..10)."""
    f1, r1, f2, r2 = _MOVE.match(move).groups()
    return f"{f1}{int(r1) + 1}{f2}{int(r2) + 1}"


def from_sf(move: str) -> str:
    """pyffish "a10a9" -> ICCS "a9a8"."""
    match = _MOVE.match(move)
    assert match, f"unexpected pyffish move {move!r}"
    f1, r1, f2, r2 = match.groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def board_side(fen: str) -> str:
    return " ".join(fen.split()[:2])


def flip_side(fen: str) -> str:
    fields = fen.split()
    fields[1] = "b" if fields[1] == "w" else "w"
    return " ".join(fields)


def parse_board(fen: str) -> dict[tuple[int, int], str]:
    squares = {}
    for index, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                squares[(file, 9 - index)] = ch
                file += 1
    return squares


def between_generals(squares: dict[tuple[int, int], str]) -> Optional[list[str]]:
    """The pieces between the generals if they stand on one file, else None."""
    (rf, rr), (bf, br) = (next(sq for sq, ch in squares.items() if ch == k) for k in "Kk")
    if rf != bf:
        return None
    return [ch for (f, r), ch in squares.items() if f == rf and rr < r < br]


def facing_one_between(squares: dict[tuple[int, int], str]) -> bool:
    """Both generals on one file with exactly one piece between them."""
    between = between_generals(squares)
    return between is not None and len(between) == 1


def generals_face(squares: dict[tuple[int, int], str]) -> bool:
    """Both generals on one file with nothing between them (the flying-general rule makes this illegal)."""
    return between_generals(squares) == []


def no_attackers(squares: dict[tuple[int, int], str]) -> bool:
    return not any(ch in "RNCPrncp" for ch in squares.values())


# ----------------------------------------------------------------------------------------------
# Random legal FENs
# ----------------------------------------------------------------------------------------------
_PALACE = [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]
_ADVISOR = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
_ELEPHANT = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
_PAWN = [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 4)] + [(f, r) for f in range(9) for r in range(5, 10)]
_ANY = [(f, r) for f in range(9) for r in range(10)]
_RED_SQUARES = {"K": _PALACE, "A": _ADVISOR, "B": _ELEPHANT, "P": _PAWN, "N": _ANY, "R": _ANY, "C": _ANY}
SQUARES = {
    (side, kind): (sqs if side == 0 else [(f, 9 - r) for f, r in sqs])
    for kind, sqs in _RED_SQUARES.items()
    for side in (0, 1)
}
MAX_COUNT = {"A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}
# Extra pieces, weighted towards the ones that attack.
EXTRA_KINDS = "RRRCCCNNNPPPAB"


def letter(side: int, kind: str) -> str:
    return kind if side == 0 else kind.lower()


def to_fen(squares: dict[tuple[int, int], str], side: int) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            ch = squares.get((file, rank))
            if ch is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + ch
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'wb'[side]} - - 0 1"


def _add_extras(rng: random.Random, squares: dict, count: int, forbidden: set = frozenset()) -> None:
    counts: Counter = Counter((0 if ch.isupper() else 1, ch.upper()) for ch in squares.values())
    for _ in range(count * 3):
        if count <= 0:
            break
        side, kind = rng.randrange(2), rng.choice(EXTRA_KINDS)
        if counts[side, kind] >= MAX_COUNT[kind]:
            continue
        free = [sq for sq in SQUARES[side, kind] if sq not in squares and sq not in forbidden]
        if not free:
            continue
        squares[rng.choice(free)] = letter(side, kind)
        counts[side, kind] += 1
        count -= 1


def gen_sparse(rng: random.Random, low: int = 2, high: int = 10) -> str:
    squares = {rng.choice(SQUARES[0, "K"]): "K", rng.choice(SQUARES[1, "K"]): "k"}
    _add_extras(rng, squares, rng.randint(low, high))
    return to_fen(squares, rng.randrange(2))


def gen_facing(rng: random.Random) -> str:
    """Generals on one file with exactly one piece (of either side) between them."""
    file = rng.choice((3, 4, 5))
    red_rank, black_rank = rng.randrange(3), rng.randrange(7, 10)
    squares = {(file, red_rank): "K", (file, black_rank): "k"}
    between = [(file, r) for r in range(red_rank + 1, black_rank)]
    square = rng.choice(between)
    options = [(side, kind) for side in (0, 1) for kind in "RNCPAB" if square in SQUARES[side, kind]]
    side, kind = rng.choice(options)
    squares[square] = letter(side, kind)
    _add_extras(rng, squares, rng.randint(1, 8), forbidden=set(between))
    return to_fen(squares, rng.randrange(2))


def gen_in_check(rng: random.Random) -> str:
    """A sparse position; kept by the caller only if the side to move is in check."""
    return gen_sparse(rng, 3, 12)


def _accept(fen: str) -> Optional[Position]:
    """The position, or None if Position rejects the FEN because the side not to move is in check."""
    try:
        return Position(fen)
    except InvalidFenError as exc:
        # The generators respect piece counts and squares: any other rejection is a generator (or parser) bug.
        assert "is not to move but its general is in check" in str(exc), f"{fen}: {exc}"
        return None


def random_fens(seed: int = 20240601) -> tuple[list[tuple[str, str]], list[str]]:
    """([(kind, fen)], [rejected fens]) with RANDOM_FENS_PER_KIND accepted FENs of each kind."""
    rng = random.Random(seed)
    accepted: list[tuple[str, str]] = []
    rejected: list[str] = []
    seen: set[str] = set()
    for kind, gen in (("facing", gen_facing), ("check", gen_in_check), ("sparse", gen_sparse)):
        got = 0
        for _ in range(RANDOM_FENS_PER_KIND * 200):
            if got == RANDOM_FENS_PER_KIND:
                break
            fen = gen(rng)
            if fen in seen:
                continue
            seen.add(fen)
            position = _accept(fen)
            if position is None:
                rejected.append(fen)
                continue
            if kind == "check" and not position.is_check():
                continue
            if kind == "facing":
                assert facing_one_between(parse_board(fen)), fen
            accepted.append((kind, fen))
            got += 1
        assert got == RANDOM_FENS_PER_KIND, f"generator {kind} produced only {got} FENs"
    return accepted, rejected


# ----------------------------------------------------------------------------------------------
# Random games
# ----------------------------------------------------------------------------------------------
@dataclass
class Line:
    """A random game: fens[i] is the position before moves[i]; len(fens) == len(moves) + 1."""

    label: str
    fens: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    legal: list[frozenset] = field(default_factory=list)
    check: list[bool] = field(default_factory=list)
    captures: int = 0
    outcome: object = None  # Position.outcome() of the last position


def choose(position: Position, moves: list[str], rng: random.Random) -> str:
    """A random move, biased towards checks and captures (the kernel board is used directly for speed)."""
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(moves)
    if roll < 0.65:
        board, checks = position.kernel_board, []
        for move in moves:
            board.push(move)
            if board.in_check():
                checks.append(move)
            board.pop()
        if checks:
            return rng.choice(checks)
    if roll < 0.85:
        captures = [move for move in moves if position.piece_at(move[2:]) is not None]
        if captures:
            return rng.choice(captures)
    return rng.choice(moves)


def play(label: str, fen: str, rng: random.Random, max_plies: int) -> Line:
    position = Position(fen)
    line = Line(label)
    while True:
        moves = sorted(position.legal_moves())  # sorted: the corpus must not depend on generation order
        line.fens.append(position.fen())
        line.legal.append(frozenset(moves))
        line.check.append(position.is_check())
        if not moves or len(line.moves) >= max_plies or no_attackers(parse_board(line.fens[-1])):
            break
        move = choose(position, moves, rng)
        if position.piece_at(move[2:]) is not None:
            line.captures += 1
        position.push(move)
        line.moves.append(move)
    line.outcome = position.outcome()
    return line


def data_file(name: str) -> Optional[Path]:
    local = DATA / name
    if local.is_file():
        return local
    shared = SHARED
    candidate = shared / "data" / name
    return candidate if candidate.is_file() else None


def epd_fens() -> list[str]:
    path = data_file("perft.epd")
    if path is None:
        return []
    return [line.split(";")[0].strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


@dataclass
class Corpus:
    lines: list[Line]
    random_fens: list[tuple[str, str]]
    rejected: list[str]


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    rng = random.Random(7)
    lines = [play(f"start#{i}", START_FEN, rng, START_PLIES) for i in range(START_GAMES)]
    for i, fen in enumerate(epd_fens()):
        lines += [play(f"epd{i}#{j}", fen, rng, EPD_PLIES) for j in range(EPD_GAMES_PER_FEN)]
    accepted, rejected = random_fens()
    lines += [play(f"{kind}#{i}", fen, rng, RANDOM_FEN_PLIES) for i, (kind, fen) in enumerate(accepted)]
    return Corpus(lines, accepted, rejected)


# ----------------------------------------------------------------------------------------------
# Comparisons
# ----------------------------------------------------------------------------------------------
class Failures(list):
    def add(self, message: str) -> None:
        self.append(message)

    def check(self, what: str) -> None:
        assert not self, f"{len(self)} {what} disagreement(s) with Fairy-Stockfish; first ones:\n" + "\n".join(self[:15])


def compare_legal(fen: str, ours: frozenset, theirs_sf: list[str], failures: Failures, where: str) -> None:
    theirs = frozenset(from_sf(m) for m in theirs_sf)
    if ours != theirs:
        failures.add(
            f"[{where}] legal moves differ in {fen}: only ours {sorted(ours - theirs)}, only FSF {sorted(theirs - ours)}"
        )


def compare_terminal(line: Line, failures: Failures, stats: Counter) -> None:
    fen = line.fens[-1]
    result = sf.game_result(VARIANT, fen, [])
    in_check = line.check[-1]
    stats["checkmate" if in_check else "stalemate"] += 1
    if result != MATED:
        failures.add(f"[{line.label}] no legal move in {fen}: pyffish game_result {result}, expected {MATED}")
    outcome = line.outcome
    mover = "red" if fen.split()[1] == "w" else "black"
    expected_reason = "checkmate" if in_check else "stalemate"
    if outcome is None or outcome.reason != expected_reason or outcome.winner is None or outcome.winner == mover:
        failures.add(f"[{line.label}] no legal move in {fen}: our outcome {outcome}, expected {expected_reason}, {mover} loses")


def first_illegal(line: Line) -> str:
    """Locate the first move of a line that pyffish rejects (after get_san_moves raised)."""
    for i, move in enumerate(line.moves):
        legal = sf.legal_moves(VARIANT, line.fens[i], [])
        if to_sf(move) not in legal:
            return (
                f"[{line.label}] move {move} ({to_sf(move)}) is illegal for pyffish in {line.fens[i]}; "
                f"only ours {sorted(line.legal[i] - {from_sf(m) for m in legal})}, "
                f"only FSF {sorted({from_sf(m) for m in legal} - line.legal[i])}"
            )
        after = sf.get_fen(VARIANT, line.fens[i], [to_sf(move)])
        if board_side(after) != board_side(line.fens[i + 1]):
            return f"[{line.label}] after {move} in {line.fens[i]}: our FEN {line.fens[i + 1]}, pyffish {after}"
    return f"[{line.label}] get_san_moves rejected the line but no single move is illegal (start {line.fens[0]})"


class PyffishCache:
    """Memoised pyffish queries on a FEN alone (the many games from one starting FEN share them)."""

    def __init__(self) -> None:
        self.memo: dict = {}

    def legal(self, fen: str) -> list[str]:
        key = ("legal", fen)
        if key not in self.memo:
            self.memo[key] = sf.legal_moves(VARIANT, fen, [])
        return self.memo[key]

    def in_check(self, fen: str) -> bool:
        key = ("check", fen)
        if key not in self.memo:
            self.memo[key] = sf.gives_check(VARIANT, fen, [])
        return self.memo[key]


def compare_line_pyffish(line: Line, full_every: int, failures: Failures, stats: Counter, cache: PyffishCache) -> None:
    n = len(line.fens)
    stats["positions"] += n
    stats["in_check"] += sum(line.check)
    stats["captures"] += line.captures
    for fen in line.fens:
        between = between_generals(parse_board(fen))
        if between is not None and len(between) == 1:
            stats["facing_one_between"] += 1
            # The single piece between is the mover's: it may only move along the file (pinned).
            stats["pinned_by_general"] += between[0].isupper() == (fen.split()[1] == "w")

    # Every position: the played move is legal for FSF, and the check status after it (one call per game).
    try:
        sans = sf.get_san_moves(VARIANT, line.fens[0], [to_sf(m) for m in line.moves], False, sf.NOTATION_SAN)
    except ValueError:
        failures.add(first_illegal(line))
        return
    for i, san in enumerate(sans):
        theirs = san.endswith(("+", "#"))
        if theirs != line.check[i + 1]:
            # Confirm from scratch before blaming either side (SAN marks come from gives_check(move)).
            confirmed = sf.gives_check(VARIANT, line.fens[i + 1], [])
            if confirmed != line.check[i + 1]:
                failures.add(
                    f"[{line.label}] check status after {line.moves[i]} in {line.fens[i]}: ours {line.check[i + 1]}, "
                    f"pyffish {confirmed} (SAN {san!r})"
                )
            else:
                stats["pyffish_san_marker_oddities"] += 1
    # The first position: check status and legal moves.
    if cache.in_check(line.fens[0]) != line.check[0]:
        failures.add(f"[{line.label}] check status of {line.fens[0]}: ours {line.check[0]}")
    compare_legal(line.fens[0], line.legal[0], cache.legal(line.fens[0]), failures, line.label)
    stats["full_pyffish"] += 1
    # The last position: board and side to move after the whole game, applied by pyffish.
    if line.moves:
        final = sf.get_fen(VARIANT, line.fens[0], [to_sf(m) for m in line.moves])
        if board_side(final) != board_side(line.fens[-1]):
            failures.add(f"[{line.label}] after {line.moves} from {line.fens[0]}: ours {line.fens[-1]}, pyffish {final}")
    # Sampled positions: the legal move set, and the FEN after the move that led there.
    for i in range(1, n):
        if i % full_every and not (i == n - 1 and not line.legal[i]):
            continue
        stats["full_pyffish"] += 1
        compare_legal(line.fens[i], line.legal[i], sf.legal_moves(VARIANT, line.fens[i], []), failures, line.label)
        after = sf.get_fen(VARIANT, line.fens[i - 1], [to_sf(line.moves[i - 1])])
        if board_side(after) != board_side(line.fens[i]):
            failures.add(
                f"[{line.label}] after {line.moves[i - 1]} in {line.fens[i - 1]}: ours {line.fens[i]}, pyffish {after}"
            )
    # The end of the game.
    if not line.legal[-1]:
        compare_terminal(line, failures, stats)
    elif no_attackers(parse_board(line.fens[-1])):
        stats["bare"] += 1
        if sf.has_insufficient_material(VARIANT, line.fens[-1], []) != (True, True):
            failures.add(f"[{line.label}] {line.fens[-1]}: no attacking piece left but pyffish sees sufficient material")
        if line.outcome is None or line.outcome.reason != "insufficient_material":
            failures.add(f"[{line.label}] {line.fens[-1]}: no attacking piece left, our outcome {line.outcome}")


def test_random_fens_are_valid(corpus: Corpus) -> None:
    """Every generated FEN is valid for pyffish; every FEN Position rejected really is illegal.

    FSF does not count facing generals as a check (it forbids the moves that would make them face), so
    facing generals are tested here directly; every other rejection must be a check pyffish sees.
    """
    failures = Failures()
    for kind, fen in corpus.random_fens:
        if sf.validate_fen(fen, VARIANT) != sf.FEN_OK:
            failures.add(f"pyffish validate_fen rejects {fen} ({kind})")
        if generals_face(parse_board(fen)):
            failures.add(f"Position accepted {fen} ({kind}) with the generals facing on an open file")
        if sf.gives_check(VARIANT, flip_side(fen), []):
            failures.add(f"Position accepted {fen} ({kind}) but pyffish says the side not to move is in check")
    rejected = random.Random(3).sample(corpus.rejected, min(REJECTED_SAMPLE, len(corpus.rejected)))
    facing = 0
    for fen in rejected:
        if sf.validate_fen(fen, VARIANT) != sf.FEN_OK:
            continue
        if generals_face(parse_board(fen)):
            facing += 1
        elif not sf.gives_check(VARIANT, flip_side(fen), []):
            failures.add(f"Position rejected {fen}, but for pyffish the side not to move is not in check")
    failures.check("FEN validity")
    counts = Counter(kind for kind, _ in corpus.random_fens)
    assert len(corpus.random_fens) >= MINIMUM["random_fens"], counts
    assert len(rejected) - facing >= MINIMUM["rejected_fens_checked"], (len(rejected), facing)
    starts_in_check = sum(Position(fen).is_check() for _, fen in corpus.random_fens)
    assert starts_in_check >= MINIMUM["in_check_start"], starts_in_check


def test_pyffish_differential(corpus: Corpus) -> None:
    failures, stats, cache = Failures(), Counter(), PyffishCache()
    for line in corpus.lines:
        compare_line_pyffish(line, FULL_EVERY, failures, stats, cache)
    print("\ndifferential counters:", dict(sorted(stats.items())))
    failures.check("pyffish")
    keys = (
        "positions", "in_check", "facing_one_between", "pinned_by_general", "checkmate", "stalemate", "full_pyffish",
        "captures",
    )
    short = {k: (stats[k], MINIMUM[k]) for k in keys if stats[k] < MINIMUM[k]}
    assert not short, f"corpus too weak (seen, required): {short}; all counters {dict(stats)}"


@pytest.mark.deep
def test_pyffish_every_position(corpus: Corpus) -> None:
    """The full pyffish comparison (legal set, FEN after the move) at every position (about 2 minutes)."""
    failures, stats, cache = Failures(), Counter(), PyffishCache()
    for line in corpus.lines:
        compare_line_pyffish(line, 1, failures, stats, cache)
    failures.check("pyffish")
    assert stats["full_pyffish"] == stats["positions"]


# ----------------------------------------------------------------------------------------------
# The Fairy-Stockfish binary: one cheap round trip per position
# ----------------------------------------------------------------------------------------------
_FSF_FEN = re.compile(r"^Fen: (.*?)\s*$", re.M)
_FSF_CHECKERS = re.compile(r"^Checkers:(.*?)$", re.M)
_FSF_PERFT = re.compile(r"^([a-i]\d+[a-i]\d+): \d+\s*$", re.M)


class FairyStockfish:
    """The Fairy-Stockfish binary through the engine client (UCI, variant xiangqi, its ranks 1..10 converted
    by the codec), asked with its debug commands `d` and `go perft 1`."""

    def __init__(self, path: str) -> None:
        self.process = open_process(EngineConfig(path, proto="uci"))
        self.process.start()

    def query(self, fen: str, move: Optional[str]) -> tuple[str, bool, frozenset]:
        """(FEN, in check, legal moves in ICCS) of `fen` after `move` (ICCS) if given."""
        codec = self.process.codec
        position = codec.position_line(fen, [move] if move else [])
        # `d` is answered by the UCI thread before `go` starts the search, so its output comes first.
        lines = self.process.command([position, "d", "go perft 1"], lambda line: line.startswith("Nodes searched"))
        out = "\n".join(lines)
        fen_out = _FSF_FEN.search(out).group(1)
        in_check = bool(_FSF_CHECKERS.search(out).group(1).strip())
        return fen_out, in_check, frozenset(codec.from_engine(m) for m in _FSF_PERFT.findall(out))

    def close(self) -> None:
        self.process.quit()


@pytest.fixture(scope="module")
def fsf():
    if not (os.path.isfile(FSF_BINARY) and os.access(FSF_BINARY, os.X_OK)):
        pytest.skip(f"Fairy-Stockfish binary not found at {FSF_BINARY} (set JIANGJUN_FSF)")
    engine = FairyStockfish(FSF_BINARY)
    yield engine
    engine.close()


@pytest.mark.slow
def test_fsf_binary_every_position(corpus: Corpus, fsf: FairyStockfish) -> None:
    failures, seen = Failures(), 0
    for line in corpus.lines:
        for i, fen in enumerate(line.fens):
            if i:
                fen_out, in_check, legal = fsf.query(line.fens[i - 1], line.moves[i - 1])
            else:
                fen_out, in_check, legal = fsf.query(fen, None)
            seen += 1
            where = f"{line.label} ply {i}" + (f", after {line.moves[i - 1]} in {line.fens[i - 1]}" if i else "")
            if board_side(fen_out) != board_side(fen):
                failures.add(f"[{where}] FEN: ours {fen}, FSF {fen_out}")
                break  # the rest of the line is off
            if in_check != line.check[i]:
                failures.add(f"[{where}] check status of {fen}: ours {line.check[i]}, FSF {in_check}")
            if legal != line.legal[i]:
                failures.add(
                    f"[{where}] legal moves differ in {fen}: only ours {sorted(line.legal[i] - legal)}, "
                    f"only FSF {sorted(legal - line.legal[i])}"
                )
    failures.check("Fairy-Stockfish binary")
    assert seen >= MINIMUM["positions"], seen


# ----------------------------------------------------------------------------------------------
# Zobrist keys
# ----------------------------------------------------------------------------------------------
def test_zobrist_incremental_matches_scratch() -> None:
    """After random push/pop sequences the incremental key (and structure key) equals the key computed from scratch, pop restores
    the previous key, and a position reached by moves has the key of the same position set up from its FEN."""
    rng = random.Random(11)
    fens = [START_FEN] + epd_fens()[:12] + [fen for _, fen in random_fens(99)[0][::25]]
    checked = 0
    for fen in fens:
        position = Position(fen)
        keys = [position.key]
        assert position.key == _core.testing.computed_key(position.kernel_board), fen
        for _ in range(500):
            moves = position.legal_moves()
            if moves and (len(keys) == 1 or rng.random() < 0.7):
                position.push(rng.choice(moves))
                keys.append(position.key)
            elif len(keys) > 1:
                position.pop()
                keys.pop()
                assert position.key == keys[-1], f"pop did not restore the key in {position.fen()}"
            else:
                break
            assert position.key == _core.testing.computed_key(position.kernel_board), f"{position.fen()} after {position.move_stack}"
            kernel = position.kernel_board
            assert _core.testing.structure_key(kernel) == _core.testing.computed_structure_key(kernel), f"{position.fen()} after {position.move_stack}"
            assert _core.testing.attacker_keys(kernel) == _core.testing.computed_attacker_keys(kernel), f"{position.fen()} after {position.move_stack}"
            checked += 1
            if rng.random() < 0.1:
                assert position.key == Position(position.fen()).key, f"{position.fen()} after {position.move_stack}"
                assert position.copy().key == position.key
        while len(keys) > 1:
            position.pop()
            keys.pop()
            assert position.key == keys[-1] == _core.testing.computed_key(position.kernel_board)
        assert position.fen() == Position(fen).fen()
    assert checked >= 10_000, checked


def test_zobrist_side_to_move_matters() -> None:
    for fen in [START_FEN] + epd_fens()[:10]:
        other = flip_side(fen)
        if _accept(other) is not None:
            assert Position(fen).key != Position(other).key, fen

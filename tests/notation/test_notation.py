"""Tests for engine.notation: Chinese, WXF and ICCS move notation.

The expected strings in the hand-made positions were worked out from
shared/reference/rules.md section 5; the random tests check round trips,
uniqueness and agreement with Fairy-Stockfish's WXF output (pyffish).
"""

from __future__ import annotations

import random
from typing import Iterator, List, Optional, Tuple

import pytest

from engine import Position
from engine.errors import IllegalMoveError
from engine.notation import (
    NotationError,
    legal_move_texts,
    parse_move,
    to_chinese,
    to_chinese_list,
    to_san,
    to_wxf,
    to_wxf_list,
)

FILES = "abcdefghi"

# Hand-made positions.  Kings stand on different files so that they never
# face each other; the side not to move is never in check.
ROOKS_RED = "5k3/9/9/R8/9/9/R8/9/9/3K5 w - - 0 1"            # a6, a3
ROOKS_BLACK = "5k3/9/9/8r/9/9/8r/9/9/3K5 b - - 0 1"          # i6, i3
HORSES_RED = "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1"         # c4, c2
CANNONS_RED = "3k5/9/9/9/9/7C1/9/7C1/9/4K4 w - - 0 1"        # h4, h2
ADVISORS_RED = "3k5/9/9/9/9/9/9/3A5/5K3/3A5 w - - 0 1"       # d2, d0
ELEPHANTS_RED = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1"      # c4, c0
TWO_PAWNS_RED = "5k3/9/9/2P6/2P6/9/4P4/9/9/3K5 w - - 0 1"    # c6 c5, e3
THREE_PAWNS_RED = "5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1"  # c7 c6 c5
THREE_PAWNS_BLACK = "5k3/9/9/9/9/6p2/6p2/6p2/9/3K5 b - - 0 1"  # g4 g3 g2
FOUR_PAWNS_RED = "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1"   # e8..e5
FIVE_PAWNS_RED = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1"  # c9..c5
TWO_TWO_RED = "5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1"     # c6 c5 g6 g5
THREE_TWO_RED = "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1"  # c7-c5, g6 g5
TWO_TWO_BLACK = "5k3/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1"   # c4 c3 g4 g3


def after(*moves: str, fen: Optional[str] = None) -> Position:
    """A position reached by playing ICCS ``moves`` from ``fen``."""
    p = Position() if fen is None else Position(fen)
    for m in moves:
        p.push(m)
    return p


# ---------------------------------------------------------------------------
# rules.md 5.1 examples
# ---------------------------------------------------------------------------

START_RED = [
    ("h2e2", "炮二平五", "C2.5"),
    ("h0g2", "马二进三", "H2+3"),
    ("c0e2", "相七进五", "E7+5"),
    ("d0e1", "仕六进五", "A6+5"),
    ("i0i1", "车一进一", "R1+1"),
    ("h2h9", "炮二进七", "C2+7"),
]
START_BLACK = [  # replies to h2e2
    ("h7e7", "炮8平5", "C8.5"),
    ("h9g7", "马8进7", "H8+7"),
    ("b9c7", "马2进3", "H2+3"),
    ("c9e7", "象3进5", "E3+5"),
    ("g6g5", "卒7进1", "P7+1"),
]


@pytest.mark.parametrize("move,chinese,wxf", START_RED)
def test_start_position_red(move: str, chinese: str, wxf: str) -> None:
    p = Position()
    assert to_chinese(p, move) == chinese
    assert to_wxf(p, move) == wxf
    assert parse_move(p, chinese) == move
    assert parse_move(p, wxf) == move


@pytest.mark.parametrize("move,chinese,wxf", START_BLACK)
def test_start_position_black_replies(move: str, chinese: str,
                                      wxf: str) -> None:
    p = after("h2e2")
    assert to_chinese(p, move) == chinese
    assert to_wxf(p, move) == wxf
    assert parse_move(p, chinese) == move
    assert parse_move(p, wxf) == move


def test_move_lists_leave_position_unchanged() -> None:
    p = Position()
    fen = p.fen()
    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert to_chinese_list(p, moves) == ["炮二平五", "马8进7", "马二进三", "车9平8"]
    assert to_wxf_list(p, moves) == ["C2.5", "H8+7", "H2+3", "R9.8"]
    assert p.fen() == fen


def test_king_moves() -> None:
    p = Position()
    assert to_chinese(p, "e0e1") == "帅五进一"
    assert to_wxf(p, "e0e1") == "K5+1"
    p = after("e0e1", "e9e8", "e1d1")
    assert to_chinese(p, "e8f8") == "将5平6"
    assert to_chinese(after("e0e1"), "e9e8") == "将5进1"


# ---------------------------------------------------------------------------
# Tandem pieces
# ---------------------------------------------------------------------------

TANDEM_CASES = [
    # Two rooks on Red's file 九 (a6 in front of a3).
    (ROOKS_RED, "a6a9", "前车进三", "R++3"),
    (ROOKS_RED, "a6e6", "前车平五", "R+.5"),
    (ROOKS_RED, "a3a5", "后车进二", "R-+2"),
    (ROOKS_RED, "a3a0", "后车退三", "R--3"),
    (ROOKS_RED, "a3d3", "后车平六", "R-.6"),
    # Black: the front rook is the one nearer Red (i3).
    (ROOKS_BLACK, "i3i0", "前车进3", "R++3"),
    (ROOKS_BLACK, "i3e3", "前车平5", "R+.5"),
    (ROOKS_BLACK, "i6i9", "后车退3", "R--3"),
    (ROOKS_BLACK, "i6d6", "后车平4", "R-.4"),
    # Horses and cannons.
    (HORSES_RED, "c4d6", "前马进六", "H++6"),
    (HORSES_RED, "c4a3", "前马退九", "H+-9"),
    (HORSES_RED, "c2e3", "后马进五", "H-+5"),
    (HORSES_RED, "c2e1", "后马退五", "H--5"),
    (CANNONS_RED, "h4e4", "前炮平五", "C+.5"),
    (CANNONS_RED, "h2h1", "后炮退一", "C--1"),
    # Advisors and elephants keep the file number: 进/退 picks the piece.
    (ADVISORS_RED, "d0e1", "仕六进五", "A6+5"),
    (ADVISORS_RED, "d2e1", "仕六退五", "A6-5"),
    (ELEPHANTS_RED, "c0e2", "相七进五", "E7+5"),
    (ELEPHANTS_RED, "c4e2", "相七退五", "E7-5"),
    (ELEPHANTS_RED, "c4a2", "相七退九", "E7-9"),
    # Two soldiers on one file, a single one elsewhere.
    (TWO_PAWNS_RED, "c6c7", "前兵进一", "P++1"),
    (TWO_PAWNS_RED, "c5d5", "后兵平六", "P-.6"),
    (TWO_PAWNS_RED, "e3e4", "兵五进一", "P5+1"),
    # Three soldiers on one file: 前/中/后; WXF keeps the middle one's file.
    (THREE_PAWNS_RED, "c7c8", "前兵进一", "P++1"),
    (THREE_PAWNS_RED, "c7d7", "前兵平六", "P+.6"),
    (THREE_PAWNS_RED, "c6b6", "中兵平八", "P7.8"),
    (THREE_PAWNS_RED, "c5d5", "后兵平六", "P-.6"),
    (THREE_PAWNS_BLACK, "g2g1", "前卒进1", "P++1"),
    (THREE_PAWNS_BLACK, "g3f3", "中卒平6", "P7.6"),
    (THREE_PAWNS_BLACK, "g4h4", "后卒平8", "P-.8"),
    # Four and five soldiers on one file: xqbase 一..五, WXF ++ + (n) - --.
    (FOUR_PAWNS_RED, "e8e9", "一兵进一", "+++1"),
    (FOUR_PAWNS_RED, "e8d8", "一兵平六", "++.6"),
    (FOUR_PAWNS_RED, "e7d7", "二兵平六", "P+.6"),
    (FOUR_PAWNS_RED, "e6f6", "三兵平四", "P-.4"),
    (FOUR_PAWNS_RED, "e5d5", "四兵平六", "--.6"),
    (FIVE_PAWNS_RED, "c9b9", "一兵平八", "++.8"),
    (FIVE_PAWNS_RED, "c8d8", "二兵平六", "P+.6"),
    (FIVE_PAWNS_RED, "c7b7", "三兵平八", "P7.8"),
    (FIVE_PAWNS_RED, "c6d6", "四兵平六", "P-.6"),
    (FIVE_PAWNS_RED, "c5b5", "五兵平八", "--.8"),
    # Soldiers doubled on two files: xqbase numbers them right to left, then
    # front to back; WXF writes file digit + (+, -, or the digit again).
    (TWO_TWO_RED, "g6g7", "一兵进一", "3++1"),
    (TWO_TWO_RED, "g5h5", "二兵平二", "3-.2"),
    (TWO_TWO_RED, "c6c7", "三兵进一", "7++1"),
    (TWO_TWO_RED, "c5b5", "四兵平八", "7-.8"),
    (THREE_TWO_RED, "g6g7", "一兵进一", "3++1"),
    (THREE_TWO_RED, "g5f5", "二兵平四", "3-.4"),
    (THREE_TWO_RED, "c7c8", "三兵进一", "7++1"),
    (THREE_TWO_RED, "c6d6", "四兵平六", "77.6"),
    (THREE_TWO_RED, "c5b5", "五兵平八", "7-.8"),
    (TWO_TWO_BLACK, "c3c2", "一卒进1", "3++1"),
    (TWO_TWO_BLACK, "c4b4", "二卒平2", "3-.2"),
    (TWO_TWO_BLACK, "g3g2", "三卒进1", "7++1"),
    (TWO_TWO_BLACK, "g4h4", "四卒平8", "7-.8"),
]


@pytest.mark.parametrize("fen,move,chinese,wxf", TANDEM_CASES)
def test_tandem_pieces(fen: str, move: str, chinese: str, wxf: str) -> None:
    p = Position(fen)
    assert to_chinese(p, move) == chinese
    assert to_wxf(p, move) == wxf
    assert parse_move(p, chinese) == move
    assert parse_move(p, wxf) == move


@pytest.mark.parametrize("fen,text,move", [
    (ROOKS_RED, "+R.5", "a6e6"),      # symbol before the letter
    (ROOKS_RED, "R+=5", "a6e6"),
    (ROOKS_RED, "R+5", "a6e6"),       # sideways with no operator
    (ROOKS_RED, "r-.6", "a3d3"),
    (ROOKS_RED, "车前进三", "a6a9"),   # position word after the piece
    (ROOKS_RED, "后车平六", "a3d3"),
    # A file number for one of two pieces: fine when only one can move so.
    (ROOKS_RED, "车九进三", "a6a9"),   # the rear rook is blocked
    (ROOKS_RED, "车九退三", "a3a0"),   # the front rook is blocked
    (ROOKS_RED, "R9-3", "a3a0"),
    (FOUR_PAWNS_RED, "Pb.6", "e7d7"),  # ElephantEye's a..e numbering
    (FOUR_PAWNS_RED, "前兵平六", "e8d8"),
    (FIVE_PAWNS_RED, "P7=8", "c7b7"),
    (FIVE_PAWNS_RED, "中兵平八", "c7b7"),
    (THREE_PAWNS_RED, "一兵进一", "c7c8"),
    (TWO_TWO_RED, "3+=2", "g6h6"),
    (TWO_TWO_RED, "兵三进一", "g6g7"),  # the rear one on 三 is blocked
    (TWO_TWO_BLACK, "3-=2", "c4b4"),
])
def test_tandem_alternative_forms(fen: str, text: str, move: str) -> None:
    assert parse_move(Position(fen), text) == move


# ---------------------------------------------------------------------------
# Other spellings
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("moves,text,move", [
    ((), "h2e2", "h2e2"),
    ((), "H2-E2", "h2e2"),
    ((), "h2-e2", "h2e2"),
    ((), " h2e2 ", "h2e2"),
    ((), "Ｈ２－Ｅ２", "h2e2"),
    # Traditional characters, full-width digits, other numeral styles.
    ((), "傌二進三", "h0g2"),
    ((), "馬二進三", "h0g2"),
    ((), "俥一進一", "i0i1"),
    ((), "車一進一", "i0i1"),
    ((), "帥五進一", "e0e1"),
    ((), "相七進五", "c0e2"),
    ((), "炮2平5", "h2e2"),          # ASCII digits for Red
    ((), "炮２平５", "h2e2"),
    ((), "炮二 平五", "h2e2"),
    (("h2e2",), "砲８平５", "h7e7"),
    (("h2e2",), "包8平5", "h7e7"),
    (("h2e2",), "馬８進７", "h9g7"),
    (("h2e2",), "马八进七", "h9g7"),  # Chinese numerals for Black
    (("h2e2",), "將5進1", "e9e8"),
    (("h2e2",), "象３進５", "c9e7"),
    (("h2e2",), "卒７進１", "g6g5"),
    ((), "相三进五", "g0e2"),
    ((), "象三进五", "g0e2"),         # 象 is accepted for Red too
    # WXF spellings.
    ((), "C2.5", "h2e2"),
    ((), "C2=5", "h2e2"),
    ((), "C25", "h2e2"),
    ((), "c2.5", "h2e2"),
    ((), "Ｃ２．５", "h2e2"),
    ((), "N2+3", "h0g2"),
    ((), "B3+5", "g0e2"),
    ((), "A4+5", "f0e1"),
    ((), "K5+1", "e0e1"),
    (("h2e2",), "C8=5", "h7e7"),
])
def test_spellings(moves: Tuple[str, ...], text: str, move: str) -> None:
    assert parse_move(after(*moves), text) == move


def test_traditional_rear_word() -> None:
    p = Position(ROOKS_RED)
    assert parse_move(p, "後車退三") == "a3a0"
    assert parse_move(p, "前俥進三") == "a6a9"


@pytest.mark.parametrize("moves,text,move", [
    ((), "炮25", "h2e2"),
    ((), "马23", "h0g2"),
    ((), "马87", "b0c2"),
    ((), "相75", "c0e2"),
    ((), "仕45", "f0e1"),
    ((), "H87", "b0c2"),
    ((), "炮２５", "h2e2"),
    (("h2e2",), "马87", "h9g7"),
    (("h2e2",), "炮85", "h7e7"),
    (("h2e2",), "马23", "b9c7"),
])
def test_shorthand(moves: Tuple[str, ...], text: str, move: str) -> None:
    assert parse_move(after(*moves), text) == move


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_error_type() -> None:
    assert issubclass(NotationError, IllegalMoveError)
    assert issubclass(NotationError, ValueError)


@pytest.mark.parametrize("text", [
    "", "   ", "foo", "炮二平十", "炮二平", "炮二平五五", "C2.0", "C2*5", "Z2.5",
    "i0j1", "37.6", "前前平五",
])
def test_malformed_text(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(Position(), text)


def test_malformed_message_names_the_forms() -> None:
    with pytest.raises(NotationError, match="ICCS"):
        parse_move(Position(), "foo")


@pytest.mark.parametrize("fen,text,fragment", [
    (None, "炮一平五", "no Red cannon on file 1"),
    (None, "马二平三", "cannot move that way"),
    (None, "车九进九", "cannot move that way"),
    (None, "前车进一", r"no Red chariot in front \(前, \+\)"),
    (None, "h2e3", "not a legal move for Red"),
    (None, "e0e2", "not a legal move for Red"),
    (None, "卒7进1", "names a Black piece, but Red is to move"),
    (None, "将5进1", "names a Black piece, but Red is to move"),
    (ROOKS_RED, "车九进四", "cannot move that way"),
    (FOUR_PAWNS_RED, "P5.6", "no Red soldier on file 5"),
    (THREE_PAWNS_RED, "五兵平六", "no Red soldier numbered 5"),
    ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "炮二平五",
     "no Red cannon on the board"),
])
def test_impossible_text(fen: Optional[str], text: str, fragment: str) -> None:
    p = Position() if fen is None else Position(fen)
    with pytest.raises(NotationError, match=fragment):
        parse_move(p, text)


def test_impossible_lists_the_legal_moves_of_the_piece() -> None:
    with pytest.raises(NotationError) as info:
        parse_move(Position(), "马二平三")
    assert "马二进三" in str(info.value) and "马二进一" in str(info.value)


@pytest.mark.parametrize("fen,text,candidates", [
    (THREE_PAWNS_RED, "兵七平八", ["c7b7", "c6b6", "c5b5"]),
    (ROOKS_RED, "车九进一", ["a6a7", "a3a4"]),
    (ROOKS_RED, "R9+1", ["a6a7", "a3a4"]),
    (ROOKS_RED, "车95", ["a6e6", "a3e3"]),
    (None, "车11", ["i0i1", "i0i2"]),
    (None, "炮22", ["h2h1", "h2h3"]),
    (TWO_TWO_RED, "前兵进一", ["g6g7", "c6c7"]),
    (TWO_TWO_RED, "P++1", ["g6g7", "c6c7"]),
])
def test_ambiguous_text(fen: Optional[str], text: str,
                        candidates: List[str]) -> None:
    p = Position() if fen is None else Position(fen)
    with pytest.raises(NotationError, match="ambiguous") as info:
        parse_move(p, text)
    for move in candidates:
        assert move in str(info.value)


@pytest.mark.parametrize("move", ["h2e3", "e0e2", "zz", "h2h2", "a0a1x"])
def test_writing_an_illegal_move_raises(move: str) -> None:
    with pytest.raises(NotationError):
        to_chinese(Position(), move)
    with pytest.raises(NotationError):
        to_wxf(Position(), move)


# ---------------------------------------------------------------------------
# Random play: round trips, uniqueness, agreement with Fairy-Stockfish
#
# The volumes below keep this file well under 20 s: each notation call reads
# the FEN and the legal moves of the position, and each pyffish call costs
# about 10 ms.
# ---------------------------------------------------------------------------

GAMES = 300          # random games from the start position
MAX_PLIES = 100      # plies per random game at most
ROUND_TRIP_EVERY = 4  # round-trip the played move every 4th ply
FSF_GAMES = 150      # of those, compared move by move with pyffish
TANDEM_POSITIONS = 120  # random positions rich in tandem pieces
TANDEM_PLIES = 40    # random plies played from each of them


def random_game(rng: random.Random, fen: Optional[str] = None,
                max_plies: int = MAX_PLIES) -> Tuple[str, List[str]]:
    """(starting FEN, ICCS moves) of one game of random legal moves."""
    p = Position() if fen is None else Position(fen)
    start = p.fen()
    moves: List[str] = []
    for _ in range(max_plies):
        legal = p.legal_moves()
        if not legal:
            break
        move = rng.choice(sorted(legal))
        moves.append(move)
        p.push(move)
    return start, moves


def replay(fen: str, moves: List[str]) -> Iterator[Tuple[int, Position, str]]:
    """(ply, position before the move, move) along a game."""
    p = Position(fen)
    for ply, move in enumerate(moves):
        yield ply, p, move
        p.push(move)


def random_tandem_fen(rng: random.Random) -> str:
    """A random position rich in soldiers and in paired pieces on files."""
    board = {}
    red_king = (rng.choice((3, 4, 5)), rng.choice((0, 1, 2)))
    black_king = (rng.choice([f for f in (3, 4, 5) if f != red_king[0]]),
                  rng.choice((7, 8, 9)))
    board[red_king] = "K"
    board[black_king] = "k"

    def place(letter: str, squares: List[Tuple[int, int]], count: int) -> None:
        free = [sq for sq in squares if sq not in board]
        for sq in rng.sample(free, min(count, len(free))):
            board[sq] = letter

    for red in (True, False):
        pawn_squares = []
        for f in rng.sample(range(9), 2):
            for r in range(10):
                advance = r if red else 9 - r
                if advance >= 5 or (advance >= 3 and f % 2 == 0):
                    pawn_squares.append((f, r))
        place("P" if red else "p", pawn_squares, rng.randint(2, 5))
        for letter in rng.sample("RNC", 2):
            f = rng.randrange(9)
            place(letter if red else letter.lower(),
                  [(f, r) for r in range(10)], 2)
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if (f, r) in board:
                row += (str(empty) if empty else "") + board[(f, r)]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {rng.choice('wb')} - - 0 1"


def random_tandem_positions(rng: random.Random, count: int) -> List[Position]:
    """Valid positions from :func:`random_tandem_fen` with a legal move."""
    positions: List[Position] = []
    while len(positions) < count:
        try:
            p = Position(random_tandem_fen(rng))
        except ValueError:  # e.g. the side not to move is in check
            continue
        moves = p.legal_moves()
        enemy_king = "k" if p.turn == "red" else "K"
        if moves and not any(p.piece_at(m[2:]) == enemy_king for m in moves):
            positions.append(p)
    return positions


def check_all_moves(p: Position) -> None:
    """Distinct texts and round trips for every legal move of ``p``."""
    moves = p.legal_moves()
    for notation in ("chinese", "wxf"):
        texts = legal_move_texts(p, notation)
        assert sorted(texts) == sorted(moves)
        assert len(set(texts.values())) == len(moves), (p.fen(), texts)
        for move, text in texts.items():
            assert parse_move(p, text) == move, (p.fen(), move, text)


@pytest.fixture(scope="module")
def random_games() -> List[Tuple[str, List[str]]]:
    rng = random.Random(20240501)
    return [random_game(rng) for _ in range(GAMES)]


@pytest.fixture(scope="module")
def tandem_positions() -> List[Position]:
    return random_tandem_positions(random.Random(7), TANDEM_POSITIONS)


def test_round_trips_in_random_games(
        random_games: List[Tuple[str, List[str]]]) -> None:
    checked = 0
    for game, (fen, moves) in enumerate(random_games):
        full_check_ply = game * 7 % len(moves) if game % 4 == 0 else -1
        for ply, p, move in replay(fen, moves):
            if ply == full_check_ply:
                check_all_moves(p)
            elif ply % 40 == game % 40:
                for notation in ("chinese", "wxf"):
                    texts = legal_move_texts(p, notation)
                    assert len(set(texts.values())) == len(texts), p.fen()
            if ply % ROUND_TRIP_EVERY != game % ROUND_TRIP_EVERY:
                continue
            chinese, wxf = to_chinese(p, move), to_wxf(p, move)
            assert parse_move(p, chinese) == move, (p.fen(), move, chinese)
            assert parse_move(p, wxf) == move, (p.fen(), move, wxf)
            checked += 1
    assert checked > GAMES * MAX_PLIES // ROUND_TRIP_EVERY // 2


def test_round_trips_with_many_tandem_pieces(
        tandem_positions: List[Position]) -> None:
    for p in tandem_positions:
        check_all_moves(p)


def test_move_texts_agree_with_single_move_functions() -> None:
    p = Position(THREE_TWO_RED)
    chinese, wxf = legal_move_texts(p), legal_move_texts(p, "wxf")
    san = legal_move_texts(p, "san")
    for move in p.legal_moves():
        assert chinese[move] == to_chinese(p, move)
        assert wxf[move] == to_wxf(p, move)
        assert san[move] == to_san(p, move)
    with pytest.raises(ValueError):
        legal_move_texts(p, "algebraic")


# --- Fairy-Stockfish -------------------------------------------------------

def fsf_move(move: str) -> str:
    """ICCS -> Fairy-Stockfish coordinates (ranks 1..10)."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def fsf_fen(fen: str) -> str:
    parts = fen.split()
    if len(parts) > 1 and parts[1] == "r":
        parts[1] = "w"
    return " ".join(parts)


def fsf_wxf_line(fen: str, moves: List[str]) -> List[str]:
    """pyffish's WXF for a line of ICCS moves, with '.' for its '='."""
    sf = pytest.importorskip("pyffish")
    sans = sf.get_san_moves("xiangqi", fsf_fen(fen),
                            [fsf_move(m) for m in moves], False,
                            sf.NOTATION_XIANGQI_WXF)
    return [san.replace("=", ".") for san in sans]


def fsf_divergence(p: Position, move: str) -> Optional[str]:
    """Why FSF's WXF may differ from the official form (rules.md 5.2), or None.

    * "indices": 3+ soldiers on the file, or soldiers doubled on two files;
    * "file fallback": two pieces on the file and the other one, shifted by
      the same displacement, would leave the board.
    """
    piece = p.piece_at(move[:2])
    assert piece is not None, (p.fen(), move)
    frm_file, frm_rank = FILES.index(move[0]), int(move[1])
    to_rank = int(move[3])
    same = [(f, r) for f in range(9) for r in range(10)
            if p.piece_at(f"{FILES[f]}{r}") == piece]
    column = [r for f, r in same if f == frm_file]
    files = [f for f, _ in same]
    tandem_files = {f for f in files if files.count(f) >= 2}
    if piece.upper() == "P" and (
            len(column) >= 3 or (len(column) == 2 and len(tandem_files) >= 2)):
        return "indices"
    if len(column) == 2 and piece.upper() not in "KAB":
        other = column[0] if column[1] == frm_rank else column[1]
        if not 0 <= other + to_rank - frm_rank <= 9:
            return "file fallback"
    return None


def compare_with_fsf(fen: str, moves: List[str]) -> Tuple[int, int]:
    """Compare our WXF with pyffish's along a game; (compared, skipped)."""
    compared = skipped = 0
    theirs = fsf_wxf_line(fen, moves)
    for ply, p, move in replay(fen, moves):
        ours = to_wxf(p, move)
        if ours == theirs[ply]:
            compared += 1
            continue
        reason = fsf_divergence(p, move)
        context = (p.fen(), move, ours, theirs[ply], reason)
        if reason == "file fallback":  # e.g. R-+5 (ours) vs R9+5 (FSF)
            file_no = 9 - FILES.index(move[0]) if p.turn == "red" \
                else FILES.index(move[0]) + 1
            assert theirs[ply] == f"{ours[0]}{file_no}{ours[2:]}", context
        else:  # "indices" (e.g. 27.8): only the move part is comparable
            assert reason == "indices", context
            assert theirs[ply][-2:] == ours[-2:], context
        skipped += 1
    return compared, skipped


def test_wxf_matches_fairy_stockfish_in_random_games(
        random_games: List[Tuple[str, List[str]]]) -> None:
    compared = 0
    for fen, moves in random_games[:FSF_GAMES]:
        compared += compare_with_fsf(fen, moves)[0]
    assert compared > FSF_GAMES * MAX_PLIES // 2


def test_wxf_matches_fairy_stockfish_with_tandem_pieces(
        tandem_positions: List[Position]) -> None:
    rng = random.Random(11)
    compared = skipped = 0
    for p in tandem_positions:
        c, s = compare_with_fsf(*random_game(rng, p.fen(), TANDEM_PLIES))
        compared, skipped = compared + c, skipped + s
    assert compared > 2000 and skipped > 50


def test_known_fairy_stockfish_divergences() -> None:
    """The two documented FSF deviations from official WXF (rules.md 5.2)."""
    # Rooks on a9 and a3: a3a8 shifted onto the a9 rook would leave the board.
    fen = "R8/5k3/9/9/9/9/R8/9/9/3K5 w - - 0 1"
    p = Position(fen)
    assert fsf_divergence(p, "a3a8") == "file fallback"
    assert to_wxf(p, "a3a8") == "R-+5"
    assert fsf_wxf_line(fen, ["a3a8"]) == ["R9+5"]
    # Three soldiers on one file: FSF prints a front-to-back index.
    p = Position(THREE_PAWNS_RED)
    assert fsf_divergence(p, "c6b6") == "indices"
    assert to_wxf(p, "c6b6") == "P7.8"
    assert fsf_wxf_line(THREE_PAWNS_RED, ["c6b6"]) == ["27.8"]

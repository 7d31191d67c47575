"""XBoard's SAN for Xiangqi (engine.notation.san): written exactly as XBoard writes it, read back, and told
apart from ICCS and WXF."""
from __future__ import annotations

import random
import re
from typing import Iterator

import pytest

from support import DATA
from engine import Position
from engine.notation import NotationError, legal_move_texts, parse_move, to_san, to_san_list
from engine.pgn import read_games

XBOARD = DATA / "pgn" / "xboard"


def xboard_tokens(path) -> list[list[str]]:
    """The move tokens of each game of a PGN file, as written (comments, numbers and results left out)."""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", path.read_text(encoding="utf-8")):
        _, _, movetext = chunk.partition("\n\n")
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        games.append([t for t in movetext.split()
                      if not re.fullmatch(r"\d+\.(\.\.)?", t) and t not in ("1-0", "0-1", "1/2-1/2", "*")])
    return games


@pytest.mark.parametrize("name", ["fsf_selfplay.pgn", "fsf_setup.pgn"])
def test_moves_are_written_as_xboard_wrote_them(name: str) -> None:
    # Both files were saved by XBoard 4.9.1 from games it ran (Fairy-Stockfish against itself).
    path = XBOARD / name
    (game,) = read_games(path)
    (tokens,) = xboard_tokens(path)
    assert len(tokens) == len(game.moves) > 10
    assert to_san_list(Position(game.starting_fen()), game.moves) == tokens


def test_start_position_moves() -> None:
    p = Position()
    assert to_san(p, "h2e2") == "Che2"      # both cannons reach e2: the file tells them apart
    assert to_san(p, "b2e2") == "Cbe2"
    assert to_san(p, "h0g2") == "Hg2"
    assert to_san(p, "g3g4") == "g4"        # a soldier's straight move: its file and the new rank
    assert to_san(p, "d0e1") == "Ade1"
    assert to_san(p, "c0e2") == "Ece2"
    assert to_san(p, "e0e1") == "Ke1"
    assert to_san(p, "a0a2") == "Ra2"
    assert to_san(p, "h2h9") == "Cxh9"
    p.push("h2e2")
    assert to_san(p, "b9c7") == "Hc7"       # ranks 0..9: Black's horse from b9
    assert to_san(p, "h7e7") == "Che7"
    assert legal_move_texts(p, "san")["h9g7"] == "Hg7"


def test_rank_disambiguation_and_check_marks() -> None:
    p = Position("3akae2/9/9/9/9/9/9/3R5/9/3R1K3 w - - 0 1")   # chariots on d2 and d0
    assert to_san(p, "d0d1") == "R0d1"
    assert to_san(p, "d2d1") == "R2d1"
    assert to_san(p, "d2d9") == "Rxd9+"
    p = Position("4k4/9/9/9/r8/9/9/3A5/9/3A1K3 w - - 0 1")     # advisors on d2 and d0
    assert to_san(p, "d2e1") == "A2e1"
    assert parse_move(p, "A2e1") == "d2e1"  # SAN, being in mixed case; "a5a4" in one case is ICCS
    mate = Position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert to_san(mate, "a0a9") == "Ra9+"


def test_checkmate_and_stalemate_get_a_hash() -> None:
    (game,) = read_games(XBOARD / "fsf_setup.pgn")  # ends in a stalemate that XBoard marked Re8#
    position = Position(game.starting_fen())
    for move in game.moves[:-1]:
        position.push(move)
    assert to_san(position, game.moves[-1]) == "Re8#"
    position.push(game.moves[-1])
    assert not position.is_check() and not position.legal_moves()


def test_soldier_moves() -> None:
    p = Position("4k4/9/9/9/2P1P4/9/9/9/9/3K5 w - - 0 1")   # Red soldiers c5 and e5, across the river
    assert to_san(p, "c5d5") == "cd5"       # sideways: its file, then the destination
    assert to_san(p, "e5d5") == "ed5"
    assert to_san(p, "c5c6") == "c6"        # straight: the destination only
    assert parse_move(p, "cd5") == "c5d5"
    assert parse_move(p, "ed5") == "e5d5"
    assert parse_move(p, "c6") == "c5c6"
    assert parse_move(p, "Pc6") == "c5c6"
    with pytest.raises(NotationError):
        parse_move(p, "d5")                 # a bare square names a straight move: no soldier on d4
    p = Position("4k4/9/9/9/9/2Pp5/9/9/9/3K5 b - - 0 1")   # Black soldier d4 (crossed), Red soldier c4
    assert to_san(p, "d4c4") == "dxc4"
    assert to_san(p, "d4e4") == "de4"
    assert to_san(p, "d4d3") == "d3"
    p = Position("4k4/9/9/4p4/4P4/9/9/9/9/3K5 w - - 0 1")
    assert to_san(p, "e5e6") == "exe6"      # a straight capture is written like a sideways one


def test_reading_variants() -> None:
    p = Position()
    for text, move in [("Che2", "h2e2"), ("Cbe2", "b2e2"), ("Hg2", "h0g2"), ("Ng2", "h0g2"), ("Hh0g2", "h0g2"),
                       ("Hh0-g2", "h0g2"), ("Bce2", "c0e2"), ("Ece2", "c0e2"), ("g4", "g3g4"), ("Pg4", "g3g4"),
                       ("Ke1", "e0e1"), ("Ra1", "a0a1"), ("Cxh9+", "h2h9"), ("Chxh9", "h2h9"), ("Ch9", "h2h9"),
                       ("Che2+", "h2e2"), ("h2e2", "h2e2"), ("H2-E2", "h2e2")]:
        assert parse_move(p, text) == move, text


def test_reading_errors_name_the_problem() -> None:
    p = Position()
    with pytest.raises(NotationError, match=r"'Ce2' is ambiguous for Red: it could be b2e2 \(Cbe2\), h2e2 \(Che2\)"):
        parse_move(p, "Ce2")
    with pytest.raises(NotationError, match="no Red horse can go to d2; the horses' legal moves: Ha2, Hc2, Hg2, Hi2"):
        parse_move(p, "Hd2")
    with pytest.raises(NotationError, match="no Red soldier"):
        parse_move(p, "e5")
    with pytest.raises(NotationError):
        parse_move(p, "Cj2")


def random_game_positions(seed: int, games: int, plies: int) -> Iterator[Position]:
    """The positions of random games, each yielded before its random move is played."""
    rng = random.Random(seed)
    for _ in range(games):
        p = Position()
        for _ in range(plies):
            if p.outcome() is not None:
                break
            yield p
            p.push(rng.choice(p.legal_moves()))


def test_sans_read_back_in_random_games() -> None:
    checked = 0
    for p in random_game_positions(seed=12, games=6, plies=120):
        legal = p.legal_moves()
        texts = legal_move_texts(p, "san")
        assert len(set(texts.values())) == len(legal)   # every move has its own text
        for move in legal:
            assert parse_move(p, texts[move]) == move
            checked += 1
    assert checked > 10000


def test_piece_moves_agree_with_fairy_stockfish() -> None:
    # pyffish (Fairy-Stockfish) writes SAN with ranks 1..10 and a P before soldier moves; with its ranks
    # shifted to XBoard's 0..9, its piece moves must read as ours (soldier moves are written differently).
    sf = pytest.importorskip("pyffish")

    def fsf_move(move: str) -> str:
        return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"

    def xboard_ranks(san: str) -> str:
        return re.sub(r"\d+", lambda m: str(int(m.group()) - 1), san)

    compared = 0
    for p in random_game_positions(seed=5, games=1, plies=60):
        fen, board, texts = p.fen(), p.piece_map(), legal_move_texts(p, "san")
        for move, text in texts.items():
            if board[move[:2]] not in "Pp":
                assert xboard_ranks(sf.get_san("xiangqi", fen, fsf_move(move))) == text, (fen, move)
                compared += 1
    assert compared > 1000

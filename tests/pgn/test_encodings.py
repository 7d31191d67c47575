"""PGN in the encodings game files come in: Big5 (real files of the Chinese Chess Practical Dataset, Yu-Han
Tseng, CC BY 4.0: tests/data/pgn/ccpd), GBK and UTF-8, told apart by the moves reading; the encoding
given by the caller; the broken records read as far as they go; and, in a deep test, the whole archive
read and replayed."""
from __future__ import annotations

import collections
import tarfile
import time
from pathlib import Path

import pytest

from support import DATA, SHARED
from engine import Position
from engine.outcome import Termination
from engine.pgn import PgnError, read_games, write_game

CCPD = DATA / "pgn" / "ccpd"
ARCHIVE = SHARED / "data" / "ccpd-games.tar.xz"
READABLE = ["checkmate-00003272.pgn", "repetition-00001046.pgn", "general-rear-00002312.pgn",
            "front-00000875.pgn", "rear-00002679.pgn", "one-move-00000591.pgn", "no-moves-00000149.pgn"]


@pytest.mark.parametrize("name", READABLE)
def test_big5_samples_read_and_replay(name: str) -> None:
    data = (CCPD / name).read_bytes()
    (game,) = read_games(CCPD / name)   # the encoding detected: Big5
    assert [game] == read_games(data, encoding="big5") == read_games(data.decode("cp950"))
    assert game.headers["Game"] == "Chinese Chess" and game.result in ("1-0", "0-1", "1/2-1/2", "*")
    game.end_position()                  # every move replayed from the FEN tag
    if game.moves:                       # under GBK the same bytes are other characters
        with pytest.raises(PgnError, match="cannot read"):
            read_games(data, encoding="gbk", errors="raise")


def test_big5_samples_content() -> None:
    (mate,) = read_games(CCPD / "checkmate-00003272.pgn")
    assert mate.result == "1-0" and len(mate.moves) == 61
    assert mate.end_position().outcome().reason is Termination.CHECKMATE
    (draw,) = read_games(CCPD / "repetition-00001046.pgn")
    assert draw.result == "1/2-1/2" and draw.end_position().outcome().reason is Termination.REPETITION
    (game,) = read_games(CCPD / "one-move-00000591.pgn")
    assert game.moves == ["h2d2"] and game.headers["Red"] == "黑龍江趙國榮" and game.headers["Site"] == "順德"
    (empty,) = read_games(CCPD / "no-moves-00000149.pgn")
    assert empty.moves == [] and empty.headers["Event"] == "第一輪 第一天"
    (front,) = read_games(CCPD / "front-00000875.pgn")
    assert front.moves[18] == "d6c6"     # 10. 前車平七: of the chariots on d6 and d1, the front one
    (rear,) = read_games(CCPD / "rear-00002679.pgn")
    assert rear.moves[20] == "d1d4"      # 11. 後車進三: of the chariots on d6 and d1, the rear one


def test_refused_samples_say_why_and_what_was_tried() -> None:
    with pytest.raises(PgnError) as info:
        read_games(CCPD / "illegal-move-00000753.pgn", errors="raise")
    error = info.value
    assert (error.move_number, error.side, error.token) == (35, "black", "士６進５")
    assert "is not a legal move for Black" in error.reason
    assert "[read as Big5; also tried: GBK (game 1, move 1 " in error.reason and "UTF-8 (byte " in error.reason
    with pytest.raises(PgnError, match=r"move 58 \(Red\) '帥五進一': the game is already over: Red is "
                                       r"checkmated and has no move"):
        read_games(CCPD / "after-mate-00000011.pgn", errors="raise")


def test_broken_records_read_up_to_their_error(caplog: pytest.LogCaptureFixture) -> None:
    (game,) = read_games(CCPD / "illegal-move-00000753.pgn")     # by default, as far as the game reads
    assert len(game.moves) == 2 * 34 + 1 and game.end_position().turn == "black"   # Red's 35th move is kept
    (error,) = game.errors
    assert (error.move_number, error.side, error.token) == (35, "black", "士６進５")
    assert "[read as Big5; also tried: GBK (game 1, move 1 " in error.reason
    assert [record.getMessage() for record in caplog.records] == [
        f"{CCPD / 'illegal-move-00000753.pgn'}: 1 of 1 games could not be read whole, kept as far as they "
        f"read; the first: {error.in_file()}"]
    (mated,) = read_games(CCPD / "after-mate-00000011.pgn")
    assert mated.end_position().outcome().reason is Termination.CHECKMATE and len(mated.moves) == 2 * 57
    assert "the game is already over" in mated.errors[0].reason


TRADITIONAL = """[Game "Chinese Chess"]
[Event "繁體字測試"]
[Red "紅方"]
[Black "黑方"]

1. 砲二平五 馬８進７ 2. 傌二進三 車９平８ 3. 俥一平二 砲８進４ 4. 兵三進一 卒３進１
5. 相三進一 象７進５ 6. 仕四進五 士４進５ 7. 帥五平四 將５平４ 8. 炮八平六 包２平１ *
"""
BIG5_TEXT = TRADITIONAL.replace("俥", "車")   # 俥 is in Big5-HKSCS, not in Big5
TRADITIONAL_MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3", "g3g4", "c6c5",
                     "g0i2", "g9e7", "f0e1", "d9e8", "e0f0", "e9d9", "b2d2", "b7a7"]


def test_traditional_characters_in_every_encoding() -> None:
    for encoding in ("cp950", "big5", "big5hkscs", "utf-8", "utf-16"):
        text = BIG5_TEXT if encoding in ("cp950", "big5") else TRADITIONAL
        data = text.encode(encoding)
        (game,) = read_games(data)  # detected
        assert game.moves == TRADITIONAL_MOVES, encoding
        assert game.headers["Event"] == "繁體字測試"
        assert read_games(data, encoding=encoding)[0].moves == TRADITIONAL_MOVES
    # GBK has the traditional characters too; a mainland file mixes them with simplified ones.
    mixed = TRADITIONAL.replace("繁體字測試", "简体字测试").replace("馬８", "马８").replace("車９", "车９")
    (game,) = read_games(mixed.encode("gbk"))
    assert game.moves == TRADITIONAL_MOVES and game.headers["Event"] == "简体字测试"


def test_headers_alone_decide_between_gbk_and_big5() -> None:
    # ICCS moves read under any encoding: then the likelier text wins.
    text = '[Event "全國象棋個人錦標賽"]\n[Red "許銀川"]\n[Black "呂欽"]\n\n1. h2e2 h9g7 *\n'
    assert read_games(text.encode("cp950"))[0].headers["Red"] == "許銀川"
    simplified = '[Event "全国象棋个人锦标赛"]\n[Red "许银川"]\n[Black "吕钦"]\n\n1. h2e2 h9g7 *\n'
    assert read_games(simplified.encode("gbk"))[0].headers["Red"] == "许银川"


def test_given_encoding_and_errors() -> None:
    data = BIG5_TEXT.encode("cp950")
    with pytest.raises(PgnError, match="cannot read"):
        read_games(data, encoding="gbk", errors="raise")   # decodes, but the moves do not read
    assert read_games(data, encoding="gbk")[0].moves == []   # ... from the first
    with pytest.raises(PgnError, match="cannot decode the text as utf-8"):
        read_games(data, encoding="utf-8")
    with pytest.raises(PgnError, match="unknown encoding 'klingon'"):
        read_games(data, encoding="klingon")
    assert read_games(data, encoding="auto")[0].moves == TRADITIONAL_MOVES
    # None of the readings works: the error is the furthest one's, naming the others.
    broken = BIG5_TEXT.replace("相三進一", "相三進五").encode("cp950")
    with pytest.raises(PgnError, match=r"move 5 \(Red\) '相三進五'.*\[read as Big5; also tried: GBK \(game 1, "
                                       r"move 1 .* does not read\); UTF-8 \(byte \d+ cannot be UTF-8\)\]"):
        read_games(broken, errors="raise")
    (kept,) = read_games(broken)
    assert kept.moves == TRADITIONAL_MOVES[:8] and "[read as Big5; also tried: GBK" in kept.errors[0].reason


def test_written_games_read_back_in_big5(tmp_path: Path) -> None:
    from engine.pgn import write_games

    games = read_games(CCPD / "general-rear-00002312.pgn")
    target = tmp_path / "big5.pgn"
    write_games(target, games, notation="wxf", encoding="cp950")  # Chinese moves are written simplified
    assert [g.moves for g in read_games(target)] == [g.moves for g in games]
    assert read_games(write_game(games[0], notation="san"))[0].moves == games[0].moves


def _error_kind(error: PgnError) -> str:
    """What kind of problem stopped a game, from its error's reason."""
    reason = error.reason.split(" [read as")[0]
    if reason.startswith("the game is already over"):
        return "moves after the end"
    if "is not a legal move" in reason:
        return "illegal move"
    if reason.startswith("cannot read"):
        return "unreadable move"
    if "none of the encodings" in reason:
        return "undecodable"
    if reason.startswith("invalid FEN"):
        return "bad FEN tag"
    return "other: " + reason[:80]


@pytest.mark.deep
@pytest.mark.skipif(not ARCHIVE.exists(), reason=f"no CCPD archive at {ARCHIVE}")
def test_the_whole_ccpd_archive(capsys: pytest.CaptureFixture) -> None:
    """Every file of the archive read with its encoding detected and every game replayed to its end; each
    game that does not read whole (the archive holds a few broken records) is read up to its error, which
    has a stated reason."""
    started = time.monotonic()
    files = games = moves = empty = 0
    broken: collections.Counter = collections.Counter()
    broken_files = {}
    with tarfile.open(ARCHIVE) as archive:
        for member in archive:
            if not (member.isfile() and member.name.lower().endswith(".pgn")):
                continue
            handle = archive.extractfile(member)
            assert handle is not None
            files += 1
            for game in read_games(handle.read()):
                position = Position(game.starting_fen())
                for move in game.moves:       # the reader replayed them; once more, independently
                    position.push(move)
                games += 1
                moves += len(game.moves)
                empty += not game.moves
                if game.errors:
                    kind = _error_kind(game.errors[0])
                    broken[kind] += 1
                    broken_files[member.name] = kind
                    assert all("[read as Big5" in error.reason for error in game.errors), game.errors
    elapsed = time.monotonic() - started
    with capsys.disabled():
        print(f"\nCCPD archive: {files} files, {games} games read ({moves} moves, {empty} without moves), "
              f"{sum(broken.values())} read up to an error: {dict(broken)}, {elapsed:.0f} s")
        for name, kind in sorted(broken_files.items()):
            print(f"  broken {name}: {kind}")
    # Measured: 53,893 games (4,704,730 moves, 81 without a move), 4 of them records read up to their error
    # (strict reading refuses those 4 and reads 53,889 games, 4,704,405 moves).
    assert files == 53893 and games == 53893
    assert dict(broken) == {"illegal move": 1, "moves after the end": 3}


def test_an_error_in_a_gbk_file_says_it_was_read_as_gbk() -> None:
    text = (DATA / "pgn" / "chinese_gbk.pgn").read_bytes().decode("gbk").replace("炮二平五", "炮二退五", 1)
    with pytest.raises(PgnError, match=r"move 1 \(Red\) '炮二退五'.*\[read as GBK; also tried: UTF-8 \(byte \d+ "
                                       r"cannot be UTF-8\); Big5 \(byte \d+ cannot be Big5\)"):
        read_games(text.encode("gbk"), errors="raise")

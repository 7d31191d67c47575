"""Game files other than PGN (engine.pgn's xqf, cbr, cbl, cbf, dhtmlxq modules) behind engine.pgn.read_games:
the samples of tests/data/gamefiles (README.md there says where each comes from), the format told from the
content, variations and comments kept, bad files read as far as they go with the place and the reason of
what does not read (or refused, with errors="raise"), the XQF and CBF writers."""

from __future__ import annotations

import lzma
import shutil

import pytest

from support import DATA
from engine import START_FEN, Position
from engine.notation import to_chinese
from engine.pgn import (Game, GameFileError, PgnError, Variation, detect_format, iter_games, read_games,
                        write_game, write_games)
from engine.pgn.cbl import library_name, record_offsets
from engine.pgn.xqf import write_game as xqf_bytes
from support.samplewriters import cbl_library, cbr_record, dhtmlxq_page, xqf_encrypted, xqf_with_move

FILES = DATA / "gamefiles"

#: The moves of XQF.TXT's example, as the description lists them.
XQF_TXT_MOVES = ("兵七进一 马8进7 兵三进一 炮2平3 相七进五 马2进1 马八进七 车1平2 车九平八 车2进4 炮八平九 车2平8 "
                 "炮二进五 炮3平8 马二进三 车9平8").split()


def chinese(game: Game) -> list:
    position = Position(game.starting_fen())
    texts = []
    for move in game.moves:
        texts.append(to_chinese(position, move))
        position.push(move)
    return texts


@pytest.fixture(scope="module")
def libraries(tmp_path_factory) -> dict:
    """The two tournament libraries, unpacked."""
    folder = tmp_path_factory.mktemp("libraries")
    out = {}
    for packed in sorted(FILES.glob("*.CBL.xz")):
        target = folder / packed.name[:-3]
        target.write_bytes(lzma.decompress(packed.read_bytes()))
        out[target.name.split("年")[0]] = target
    return out


# -- the samples -------------------------------------------------------------------------------------------

def test_the_xqf_description_example_reads_and_is_written_back_byte_for_byte() -> None:
    raw = (FILES / "xqf10-xqf-txt.xqf").read_bytes()
    (game,) = read_games(FILES / "xqf10-xqf-txt.xqf")
    assert chinese(game) == XQF_TXT_MOVES
    assert game.headers == {"Title": "仙人指路对起马局", "Event": '"中立杯"象棋电视快棋赛', "Date": "1997年11月16日",
                            "Site": "北京", "Red": "柳大华", "Black": "吕  钦", "Annotator": "刘殿中",
                            "Author": "过河象", "Result": "0-1"}
    assert game.result == "0-1" and game.starting_fen() == START_FEN and game.number == 1
    assert xqf_bytes(game) == raw   # jiangjun writes XQF 1.0 exactly as its description's example is


def test_every_xqf_version_reads_the_same_annotated_game() -> None:
    plain, = read_games(FILES / "xqf10-jiangjun.xqf")
    encrypted, = read_games(FILES / "xqf18-annotated.xqf")
    cbr, = read_games(FILES / "annotated.cbr")
    assert plain == encrypted
    assert len(plain.moves) == 24 and plain.start_comment == "本局选自1956年全国赛。"
    assert plain.comments[0] == "中炮开局。" and plain.comments[5] == "黑方补象，稳健。\n另有马２进３。"
    (black_first,) = plain.variations[1]       # instead of Black's first move, with a variation in it
    assert black_first.comments[0] == "另一应法" and len(black_first.moves) == 2
    assert black_first.variations[1][0].comments == ["再一变"]
    assert plain.variations[18][0].comments == ["也可以这样走"]
    assert set(plain.variations) == {1, 18}
    for key in ("moves", "comments", "variations", "start_comment"):
        assert getattr(cbr, key) == getattr(plain, key)
    assert cbr.headers["Title"] == plain.headers["Title"] == "1956全國賽 注释与变着"


def test_encrypted_versions_11_and_12_big5_strings_and_an_endgame_with_black_to_move(libraries) -> None:
    library = read_games(libraries["1956"])
    assert read_games(FILES / "xqf12.xqf")[0].moves == library[1].moves
    assert read_games(FILES / "xqf11.xqf")[0].moves == library[2].moves
    big5, = read_games(FILES / "xqf18-big5.xqf")
    assert big5.headers["Red"] == "河北劉殿中" and big5.headers["Event"] == "99全國象棋團體賽 對兵局"
    endgame, = read_games(FILES / "xqf18-endgame-black.xqf")
    assert endgame.starting_fen() == "3k5/4a4/9/9/9/9/9/4C4/4A4/4K4 b - - 0 1"
    assert endgame.headers["FEN"] == endgame.starting_fen() and endgame.comments[1] == "红方应着"


def test_the_tournament_libraries_read_all_their_games_with_their_tags(libraries) -> None:
    games = read_games(libraries["1956"])
    assert len(games) == 93 and [g.number for g in games] == list(range(1, 94))
    assert library_name(libraries["1956"].read_bytes()) == "1956年全国象棋锦标赛93局"
    first = games[0]
    assert first.headers["Event"] == "1956年全国象棋锦标赛" and first.headers["Red"] == "何順安"
    assert "1956" in first.headers["Title"]
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
    team = read_games(libraries["1999"])
    assert len(team) == 38 and team[0].headers["Site"] == "漳州" and team[0].headers["Result"] == "1-0"
    (big5,) = read_games(FILES / "xqf18-big5.xqf")
    assert big5.moves == team[0].moves


def test_cbr_cbf_and_a_dhtmlxq_page(libraries) -> None:
    team = read_games(libraries["1999"])
    cbr, = read_games(FILES / "game.cbr")
    assert cbr.moves == team[1].moves and cbr.headers == team[1].headers
    cbf, = read_games(FILES / "game.cbf")
    assert cbf.moves == read_games(libraries["1956"])[3].moves
    assert cbf.headers["Title"].startswith("1956全國賽") and cbf.headers["Event"] == "1956年全国象棋锦标赛"
    assert cbf.headers["Site"] == "北京體育館" and cbf.result == "1-0"
    page = read_games(FILES / "dpxq.html")   # GBK
    annotated, = read_games(FILES / "xqf10-jiangjun.xqf")
    assert len(page) == 2 and [g.number for g in page] == [1, 2]
    for key in ("moves", "comments", "variations", "start_comment"):
        assert getattr(page[0], key) == getattr(annotated, key)
    assert page[1].moves == read_games(libraries["1956"])[4].moves


def test_the_format_is_told_from_the_content_not_the_name(tmp_path) -> None:
    expected = {"xqf10-xqf-txt.xqf": "xqf", "xqf18-annotated.xqf": "xqf", "annotated.cbr": "cbr",
                "bad-second-game.CBL": "cbl", "game.cbf": "cbf", "dpxq.html": "dhtmlxq"}
    for name, kind in expected.items():
        data = (FILES / name).read_bytes()
        assert detect_format(data) == kind
        renamed = tmp_path / f"{name}.pgn"     # a misleading name changes nothing
        shutil.copy(FILES / name, renamed)
        assert read_games(renamed, errors="skip") == read_games(FILES / name, errors="skip")
    assert detect_format((DATA / "pgn" / "chinese_gbk.pgn").read_bytes()) == "pgn"
    text = (FILES / "game.cbf").read_text(encoding="utf-8")
    assert detect_format(text) == "cbf" and read_games(text)[0].moves == read_games(FILES / "game.cbf")[0].moves
    page = (FILES / "dpxq.html").read_bytes().decode("gbk")
    assert len(read_games(page)) == 2
    with pytest.raises(FileNotFoundError, match="no such game file"):
        read_games("missing.xqf")


# -- bad files ---------------------------------------------------------------------------------------------

def test_a_library_with_a_bad_game_gives_the_others_and_names_it(caplog) -> None:
    path = FILES / "bad-second-game.CBL"
    games = read_games(path)                  # by default every game, the bad one as far as it reads
    assert [g.number for g in games] == [1, 2, 3] and [len(g.errors) for g in games] == [0, 1, 0]
    (error,) = games[1].errors
    assert isinstance(error, GameFileError) and error.source == str(path)
    assert error.game_number == 2 and error.move_number == 1 and error.side == "red" and error.token == "c3a9"
    assert "illegal move c3a9" in str(error) and "game 2" in str(error) and "move 1 (Red)" in str(error)
    assert error.offset is not None and f"byte {error.offset}" in str(error)
    assert games[1].moves == [] and games[1].headers["Event"] == games[0].headers["Event"]
    (warning,) = caplog.records               # one line for the user
    assert warning.levelname == "WARNING" and warning.name == "engine.pgn"
    assert warning.getMessage() == (f"{path}: 1 of 3 games could not be read whole, kept as far as they read; "
                                    f"the first: {error.in_file()}")
    with pytest.raises(GameFileError) as raised:
        read_games(path, errors="raise")      # strict: today's exception
    assert str(raised.value) == str(error)
    failures: list = []
    games = read_games(path, errors="skip", failures=failures)
    assert [g.number for g in games] == [1, 3] and [f.game_number for f in failures] == [2]
    assert len(caplog.records) == 1           # a caller that takes the errors reports them: no warning
    caplog.clear()
    assert len(read_games(path, errors="skip")) == 2 and "left out" in caplog.records[0].getMessage()
    partial = []
    with pytest.raises(GameFileError):
        for game in iter_games(path, errors="raise"):
            partial.append(game.number)
    assert partial == [1]      # the games before the bad one come first
    with pytest.raises(ValueError, match="errors="):
        read_games(path, errors="ignore")


def _library_game(number: int) -> Game:
    return Game(headers={"Event": f"第{number}局"}, moves=["h2e2", "h9g7", "h0g2"], result="1-0")


#: Where the board of a CBR record starts, a byte a square, row by row from Black's back rank.
CBR_BOARD = 2120


def test_a_library_whose_first_game_has_no_red_general_gives_every_game() -> None:
    no_general = bytearray(cbr_record(_library_game(1)))
    no_general[CBR_BOARD + 9 * 9 + 4] = 0          # e0: Red's general gone
    empty_board = bytearray(cbr_record(Game(headers={"Event": "第3局"}, result="1-0")))
    empty_board[CBR_BOARD:CBR_BOARD + 90] = bytes(90)
    records = [bytes(no_general), cbr_record(_library_game(2)), bytes(empty_board), cbr_record(_library_game(4))]
    library = cbl_library([], "库", records=records)
    games = read_games(library)
    assert [g.number for g in games] == [1, 2, 3, 4]
    assert [g.headers["Event"] for g in games] == ["第1局", "第2局", "第3局", "第4局"]
    assert [g.moves for g in games] == [[], ["h2e2", "h9g7", "h0g2"], [], ["h2e2", "h9g7", "h0g2"]]
    assert [len(g.errors) for g in games] == [1, 0, 1, 0]
    for game in (games[0], games[2]):
        (error,) = game.errors
        assert "the start position is not a Xiangqi position" in str(error)
        assert error.game_number == game.number and f"game {game.number}" in str(error)
        with pytest.raises(PgnError):        # the FEN tag is the board as the record has it
            game.end_position()
    assert games[0].headers["FEN"].startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR")
    assert games[2].headers["FEN"].startswith("9/9/9/9/9/9/9/9/9/9")
    with pytest.raises(GameFileError, match="game 1.*not a Xiangqi position"):
        read_games(library, errors="raise")
    assert [g.number for g in read_games(library, errors="skip")] == [2, 4]


#: A game with a variation that holds a variation: its move records in preorder (each 8 bytes from byte
#: 1032, after the start's) are h2e2 h9g7 h0g2, b9c7 b0c2, c3c4.
NESTED = Game(moves=["h2e2", "h9g7", "h0g2"], result="1-0",
              variations={1: [Variation(["b9c7", "b0c2"], variations={1: [Variation(["c3c4"])]})]})
#: The damaged XQF files of the issue's kinds: an illegal move in a nested variation (the last record,
#: c3c4 through pieces to c9), and in the main line (h0g2 becomes h0h5, which no horse plays).
NESTED_BROKEN = xqf_with_move(NESTED, 5, "c3c9")
MAIN_LINE_BROKEN = xqf_with_move(NESTED, 2, "h0h5")


def test_an_illegal_move_in_a_nested_xqf_variation_keeps_the_rest() -> None:
    (read,) = read_games(NESTED_BROKEN)
    assert read.moves == NESTED.moves                    # the main line whole
    assert read.variations == {1: [Variation(["b9c7", "b0c2"])]}   # the variation without its broken line
    (error,) = read.errors
    assert error.token == "c3c9" and error.move_number == 2 and error.side == "red"
    assert "a variation of Red's move 2, in a variation of Black's move 1" in error.reason
    assert error.offset == 1032 + 8 * 5 and error.game_number == 1
    with pytest.raises(GameFileError, match="variation of Red's move 2"):
        read_games(NESTED_BROKEN, errors="raise")


def test_an_illegal_move_in_the_xqf_main_line_keeps_the_moves_before_it() -> None:
    (read,) = read_games(MAIN_LINE_BROKEN)
    assert read.moves == ["h2e2", "h9g7"] and read.variations == NESTED.variations   # Black's 1st move's kept
    (error,) = read.errors
    assert (error.token, error.move_number, error.side) == ("h0h5", 2, "red") and error.offset == 1032 + 8 * 2
    with pytest.raises(GameFileError, match=r"move 2 \(Red\) 'h0h5'"):
        read_games(MAIN_LINE_BROKEN, errors="raise")


def test_truncated_files_say_so_with_the_byte() -> None:
    xqf = (FILES / "xqf18-annotated.xqf").read_bytes()
    (whole,) = read_games(xqf)
    for cut in (3, 500):                      # the header truncated: nothing to read
        with pytest.raises(GameFileError, match="truncated") as raised:
            read_games(xqf[:cut])
        assert raised.value.game_number is None
    for cut in (1030, 1100, len(xqf) - 1):    # the moves truncated: the game as far as it goes
        with pytest.raises(GameFileError, match="truncated") as raised:
            read_games(xqf[:cut], errors="raise")
        assert raised.value.game_number == 1
        (game,) = read_games(xqf[:cut])
        assert "truncated" in str(game.errors[0]) and game.headers == whole.headers
        assert game.moves == whole.moves[:len(game.moves)]
    assert len(read_games(xqf[:len(xqf) - 1])[0].moves) == len(whole.moves)   # only a variation's end lost
    cbr = (FILES / "annotated.cbr").read_bytes()
    for cut in (100, 2200):
        with pytest.raises(GameFileError, match="truncated"):
            read_games(cbr[:cut])
    for cut in (2230, len(cbr) - 3):
        with pytest.raises(GameFileError, match="truncated"):
            read_games(cbr[:cut], errors="raise")
        assert "truncated" in str(read_games(cbr[:cut])[0].errors[0])
    with pytest.raises(GameFileError, match="truncated"):
        read_games((FILES / "bad-second-game.CBL").read_bytes()[:300])


def test_corrupt_and_wrongly_decrypted_files_are_refused_precisely() -> None:
    xqf = bytearray((FILES / "xqf18-annotated.xqf").read_bytes())
    wrong_key = bytearray(xqf)
    wrong_key[14] ^= 0x5A                     # the origin key: every move decrypts to another square
    with pytest.raises(GameFileError) as raised:
        read_games(bytes(wrong_key), errors="raise")
    assert raised.value.offset is not None and raised.value.game_number == 1
    assert read_games(bytes(wrong_key))[0].errors[0].offset == raised.value.offset
    wrong_pieces = bytearray(xqf)
    wrong_pieces[13] ^= 0x33                  # the pieces' key: the board decrypts to nonsense
    with pytest.raises(GameFileError):
        read_games(bytes(wrong_pieces), errors="raise")
    plain = bytearray((FILES / "xqf10-xqf-txt.xqf").read_bytes())
    plain[0x400 + 8 + 8 + 1] = 0x20 + 90      # Black's first move goes to "square 90"
    with pytest.raises(GameFileError, match="not a square") as raised:
        read_games(bytes(plain), errors="raise")
    assert raised.value.offset == 0x410
    (game,) = read_games(bytes(plain))        # Red's first move is all that reads
    assert len(game.moves) == 1 and game.errors[0].offset == 0x410 and "not a square" in game.errors[0].reason
    cbr = bytearray((FILES / "game.cbr").read_bytes())
    cbr[2214 + 4 + 2] = 200                   # the first move's origin: no square
    with pytest.raises(GameFileError, match="not a square") as raised:
        read_games(bytes(cbr), errors="raise")
    assert raised.value.offset == 2218
    cbr = bytearray((FILES / "game.cbr").read_bytes())
    cbr[2120 + 3] = 0x25                      # a second black general, on d9 (the advisor's square)
    with pytest.raises(GameFileError, match="not a Xiangqi position"):
        read_games(bytes(cbr), errors="raise")
    with pytest.raises(GameFileError, match="not a game file"):
        read_games(bytes(range(256)) * 8)
    with pytest.raises(GameFileError, match="does not parse"):
        read_games("<ChineseChessRecord><Head></ChineseChessRecord>")


def test_an_illegal_move_in_a_variation_is_named_as_such() -> None:
    game = Game(moves=["h2e2", "h9g7"], variations={1: [Variation(["b9c7", "b0c2", "a9a1"])]})
    record = bytearray(cbr_record(Game(moves=["h2e2", "h9g7"], variations={1: [Variation(["b9c7", "b0c2",
                                                                                            "a9a8"])]})))
    record[-1] = 81                           # a9a8 becomes a9a0: through its own pieces
    with pytest.raises(GameFileError, match="variation of Black's move 1") as raised:
        read_games(bytes(record), errors="raise")
    assert raised.value.move_number == 2 and raised.value.token == "a9a0"
    (read,) = read_games(bytes(record))
    assert read.moves == ["h2e2", "h9g7"] and read.variations == {1: [Variation(["b9c7", "b0c2"])]}
    assert str(read.errors[0]) == str(raised.value)
    with pytest.raises(PgnError, match="move 2"):
        xqf_bytes(game)                       # the writers check every line too


def test_a_cbf_game_reads_up_to_a_bad_move() -> None:
    cbf = (FILES / "game.cbf").read_text(encoding="utf-8")
    (whole,) = read_games(cbf)
    head, *moves = cbf.split('<Move value="')
    moves[2] = "x" + moves[2]                 # the third Move element (the first is the start): move 2
    broken = '<Move value="'.join([head, *moves])
    (game,) = read_games(broken)
    assert game.moves == whole.moves[:1] and "is not 'XY-XY'" in game.errors[0].reason
    with pytest.raises(GameFileError, match="is not 'XY-XY'"):
        read_games(broken, errors="raise")


def test_dhtmlxq_variations_out_of_order_and_unknown_places() -> None:
    page = ("[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]"
            "[DhtmlXQ_move_1_2_2]2042[/DhtmlXQ_move_1_2_2]"          # needs variation 1, given later
            "[DhtmlXQ_move_0_1_1]7967[/DhtmlXQ_move_0_1_1][DhtmlXQ_result]和棋[/DhtmlXQ_result][/DhtmlXQ]")
    (game,) = read_games(page)
    assert game.moves == ["h2e2", "h9g7"] and game.result == "1/2-1/2"
    assert game.variations == {0: [Variation(["h0g2", "c9e7"])]}   # variation 1 has no move 2: 2 goes on
    bad = page.replace("move_1_2_2", "move_7_2_2")
    with pytest.raises(GameFileError, match="variation 2"):
        read_games(bad, errors="raise")
    (kept,) = read_games(bad)                 # the variation with no place is left out, the rest read
    assert kept.moves == game.moves and kept.variations == {0: [Variation(["h0g2"])]}
    assert "variation 2 is played instead of move 2 of line 7" in kept.errors[0].reason
    cut = page.replace("77477062", "7747706")  # the move list's second move is three digits
    (short,) = read_games(cut)
    assert short.moves == ["h2e2"] and "not groups of four digits" in short.errors[0].reason


def _first_legal(position: Position, but: str = "") -> str:
    return sorted(move for move in position.legal_moves() if move != but)[0]


def test_a_long_game_and_deep_nests_of_variations() -> None:
    shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"] * 300            # 1,200 plies: read without recursion
    long_game = Game(moves=shuffle)
    for writer in (xqf_bytes, cbr_record, lambda g: xqf_encrypted(g, 18, 1)):
        assert read_games(writer(long_game))[0].moves == shuffle
    # A variation in a variation ... 150 deep: each replaces the second move of the one around it.
    position = Position()
    position.push("h2e2")
    levels = []
    for _ in range(150):
        first = _first_legal(position)
        position.push(first)
        levels.append((first, _first_legal(position)))
    inner = None
    for first, second in reversed(levels):
        inner = Variation([first, second], variations={1: [inner]} if inner else {})
    game = Game(moves=["h2e2", "h9g7"], variations={1: [inner]})
    for writer in (xqf_bytes, cbr_record):
        back, = read_games(writer(game))
        assert back.variations == game.variations


# -- writing -----------------------------------------------------------------------------------------------

def test_write_games_picks_the_format_from_the_name(tmp_path) -> None:
    annotated, = read_games(FILES / "xqf18-annotated.xqf")
    assert write_games(tmp_path / "out.xqf", [annotated]) == 1
    assert read_games(tmp_path / "out.xqf")[0] == annotated
    assert write_games(tmp_path / "out.cbf", [annotated]) == 1
    cbf, = read_games(tmp_path / "out.cbf")
    assert cbf.moves == annotated.moves and cbf.comments == [None] * len(annotated.moves)   # main line only
    assert {k: cbf.headers[k] for k in ("Title", "Event", "Red", "Black", "Annotator")} == \
        {k: annotated.headers[k] for k in ("Title", "Event", "Red", "Black", "Annotator")}
    write_games(tmp_path / "out.pgn", [annotated])             # PGN, the default: variations in parentheses
    text = (tmp_path / "out.pgn").read_text(encoding="utf-8")
    assert "(" in text and "{另一应法}" in text
    back, = read_games(tmp_path / "out.pgn")
    assert back.moves == annotated.moves and back.comments == annotated.comments
    with pytest.raises(GameFileError, match="holds one game"):
        write_games(tmp_path / "two.xqf", [annotated, annotated])
    with pytest.raises(GameFileError, match="appended"):
        write_games(tmp_path / "out.xqf", [annotated], append=True)
    write_games(tmp_path / "as-xqf.bin", [annotated], format="xqf")
    assert detect_format((tmp_path / "as-xqf.bin").read_bytes()) == "xqf"


def test_xqf_cannot_say_black_moves_first_without_a_move() -> None:
    with pytest.raises(GameFileError, match="no side to move"):
        xqf_bytes(Game(headers={"FEN": "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"}))
    empty, = read_games(xqf_bytes(Game(headers={"FEN": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"})))
    assert empty.moves == [] and empty.starting_fen() == "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


def test_header_strings_are_cut_to_their_fields_at_a_character() -> None:
    game = Game(headers={"Red": "一二三四五六七八九十", "Event": "E" * 100}, moves=["h2e2"])
    back, = read_games(xqf_bytes(game))
    assert back.headers["Red"] == "一二三四五六七" and back.headers["Event"] == "E" * 63


def test_pgn_writes_variations_in_parentheses() -> None:
    game = Game(moves=["h2e2", "h9g7", "h0g2"], comments=[None, "屏风马", None],
                variations={1: [Variation(["b9c7", "b0c2"], ["顺手炮?", None])], 2: [Variation(["g3g4"])]})
    text = write_game(game, notation="iccs")
    assert "1. h2e2 h9g7 {屏风马} (1... b9c7 {顺手炮?} 2. b0c2) 2. h0g2 (2. g3g4) *" in " ".join(text.split())
    assert read_games(text)[0].moves == game.moves


def test_a_page_with_several_games_and_a_bad_one(tmp_path) -> None:
    good = Game(headers={"Event": "甲"}, moves=["h2e2", "h9g7"], result="1-0")
    page = dhtmlxq_page([good, good]).replace("77477062", "77477069", 1)   # the first game's h9g7 -> h9g0
    failures: list = []
    games = read_games(page.encode("gbk"), errors="skip", failures=failures)
    assert len(games) + len(failures) == 2 and failures and failures[0].game_number == 1
    assert [g.number for g in games] == [2] and games[0].moves == good.moves
    first, second = read_games(page.encode("gbk"))
    assert first.moves == ["h2e2"] and first.errors[0].token == "h9g0" and second.moves == good.moves


def test_a_library_whose_index_is_not_where_its_slot_count_says(tmp_path) -> None:
    games = [Game(moves=["h2e2", "h9g7"], result="1-0"), Game(moves=["c3c4"], comments=["长" * 3000])]
    data = bytearray(cbl_library(games, "库"))
    assert len(record_offsets(bytes(data))) == 2    # the second record spans two blocks: still one game
    data[60:64] = (7).to_bytes(4, "little")         # a wrong slot count: the first record is searched for
    back = read_games(bytes(data))
    assert [g.moves for g in back] == [["h2e2", "h9g7"], ["c3c4"]] and back[1].comments == ["长" * 3000]

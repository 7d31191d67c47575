"""Write the sample game files of this folder (README.md says what each is and where it comes from).

    python tests/data/gamefiles/make_samples.py [CCPD-ARCHIVE]

The games are master games of the Chinese Chess Practical Dataset (Yu-Han Tseng, CC BY 4.0), read from
its archive (default ../shared/data/ccpd-games.tar.xz beside the checkout); the files are laid out by
tests/support/samplewriters.py (XQF 11-18, CBR, CBL, DhtmlXQ) and engine.pgn (XQF 1.0, CBF) as XQStudio, CCBridge
and dpxq.com lay theirs out. Running it again writes the same bytes.
"""

from __future__ import annotations

import lzma
import re
import sys
import tarfile
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from engine import Position  # noqa: E402
from engine.pgn import Game, Variation, read_games  # noqa: E402
from engine.pgn.cbf import write_game as cbf_text  # noqa: E402
from engine.pgn.xqf import write_game as xqf_v10  # noqa: E402
from support.samplewriters import cbl_library, cbr_record, dhtmlxq_page, xqf_encrypted  # noqa: E402

ARCHIVE = ROOT.parent / "shared" / "data" / "ccpd-games.tar.xz"
EVENTS = "Dataset/對局/大師對局/以賽事分類/"
#: The 1956 national championship: the events named "1956全國賽..." and four dated 1956.12.
CHAMPIONSHIP_1956 = re.compile(r"^1956全國賽|\(1956\.12\.\d+\)$")
TEAM_1999 = "99全國象棋團體賽 對兵局"

# The XQF 1.0 example of XQF.TXT (ElephantEye's XQFTOOLS), byte for byte: its non-zero rows.
XQF_TXT_EXAMPLE = {
    0x0000: "58 51 0A", 0x0010: "50 46 3C 32 28 1E 14 0A 00 48 0C 53 3F 2B 17 03",
    0x0020: "09 13 1D 27 31 3B 45 4F 59 11 4D 06 1A 2E 42 56", 0x0030: "00 00 00 02",
    0x0050: "10 CF C9 C8 CB D6 B8 C2 B7 B6 D4 C6 F0 C2 ED BE D6",
    0x00D0: "16 22 D6 D0 C1 A2 B1 AD 22 CF F3 C6 E5 B5 E7 CA D3 BF EC C6 E5 C8 FC",
    0x0110: "0E 31 39 39 37 C4 EA 31 31 D4 C2 31 36 C8 D5", 0x0120: "04 B1 B1 BE A9",
    0x0130: "06 C1 F8 B4 F3 BB AA", 0x0140: "06 C2 C0 20 20 C7 D5", 0x01D0: "06 C1 F5 B5 EE D6 D0",
    0x01E0: "06 B9 FD BA D3 CF F3",
    0x0400: "18 20 F0 FF 00 00 00 00 2F 38 F0 00 00 00 00 00 67 63 F0 00 00 00 00 00 57 60 F0 00 00 00 00 00 "
            "29 3B F0 00 00 00 00 00 2C 4A F0 00 00 00 00 00 2B 27 F0 00 00 00 00 00 22 36 F0 00 00 00 00 00 "
            "21 33 F0 00 00 00 00 00 18 2A F0 00 00 00 00 00 2B 2F F0 00 00 00 00 00 24 22 F0 00 00 00 00 00 "
            "27 6B F0 00 00 00 00 00 60 6D F0 00 00 00 00 00 33 6D F0 00 00 00 00 00 5E 5E F0 00 00 00 00 00 "
            "71 6F 00 00 00 00 00 00",
}
XQF_TXT_SIZE = 0x488


def xqf_txt_example() -> bytes:
    data = bytearray(XQF_TXT_SIZE)
    for offset, row in XQF_TXT_EXAMPLE.items():
        raw = bytes.fromhex(row)
        data[offset:offset + len(raw)] = raw
    return bytes(data)


def ccpd_games(archive: Path) -> Dict[str, List[Game]]:
    """The games of the two events, in the archive's order of file names."""
    found: Dict[str, List[Game]] = {"1956": [], "1999": []}
    kept = []
    with tarfile.open(archive) as tar:   # in the archive's order: an xz stream does not seek back cheaply
        for member in tar:
            if not (member.isfile() and member.name.startswith(EVENTS) and member.name.endswith(".pgn")):
                continue
            handle = tar.extractfile(member)
            assert handle is not None
            data = handle.read()
            tag = re.search(r'\[Event "([^"]*)"\]', data.decode("cp950", errors="replace"))
            event = tag.group(1) if tag else ""
            if CHAMPIONSHIP_1956.search(event) or event == TEAM_1999:
                kept.append((member.name, event, data))
    for _, event, data in sorted(kept):
        (game,) = read_games(data)
        found["1956" if CHAMPIONSHIP_1956.search(event) else "1999"].append(game)
    return found


def library_game(game: Game, event: str) -> Game:
    """A game as a library of its event files it: the record's own title, the event, players, date."""
    headers = {"Title": game.headers.get("Event", ""), "Event": event}
    for tag in ("Round", "Date", "Site", "Red", "RedTeam", "Black", "BlackTeam"):
        value = game.headers.get(tag, "").strip()
        if value:
            headers[tag] = value
    return Game(headers=headers, moves=list(game.moves), result=game.result)


def _legal(moves: List[str], but: str = "") -> str:
    """The first legal move, in ICCS order and other than ``but``, after ``moves`` from the start."""
    position = Position()
    for move in moves:
        position.push(move)
    return sorted(move for move in position.legal_moves() if move != but)[0]


def annotated(game: Game) -> Game:
    """The first 24 moves of a game with comments and variations, as an annotator leaves them: one of
    Black's first move, with one of its own second move, and one of Red's tenth move."""
    moves = list(game.moves[:24])
    comments: List[Optional[str]] = [None] * len(moves)
    comments[0] = "中炮开局。"
    comments[5] = "黑方补象，稳健。\n另有马２进３。"
    reply = _legal(moves[:1], but=moves[1])
    second = _legal([moves[0], reply])
    inner = Variation([_legal([moves[0], reply], but=second)], ["再一变"])
    variations = {1: [Variation([reply, second], ["另一应法", None], {1: [inner]})],
                  18: [Variation([_legal(moves[:18], but=moves[18])], ["也可以这样走"])]}
    return Game(headers={"Title": "1956全國賽 注释与变着", "Event": "1956年全国象棋锦标赛",
                         "Red": game.headers.get("Red", ""), "Black": game.headers.get("Black", ""),
                         "Annotator": "jiangjun", "Author": "jiangjun"},
                moves=moves, comments=comments, result="*", start_comment="本局选自1956年全国赛。",
                variations=variations)


def endgame() -> Game:
    """An endgame with Black to move (XQF's 残局 kind): its first three legal moves, in ICCS order."""
    fen = "3k5/4a4/9/9/9/9/9/4C4/4A4/4K4 b - - 0 1"
    position = Position(fen)
    moves = []
    for _ in range(3):
        move = sorted(position.legal_moves())[0]
        moves.append(move)
        position.push(move)
    return Game(headers={"Title": "残局 黑先", "FEN": fen}, moves=moves, comments=[None, "红方应着", None])


def main(argv: List[str]) -> None:
    archive = Path(argv[1]) if len(argv) > 1 else ARCHIVE
    events = ccpd_games(archive)
    assert len(events["1956"]) == 93 and len(events["1999"]) == 38, {k: len(v) for k, v in events.items()}
    lib_1956 = [library_game(game, "1956年全国象棋锦标赛") for game in events["1956"]]
    lib_1999 = [library_game(game, "1999年全国象棋团体赛") for game in events["1999"]]
    (HERE / "1956年全国象棋锦标赛93局.CBL.xz").write_bytes(
        lzma.compress(cbl_library(lib_1956, "1956年全国象棋锦标赛93局"), preset=9))
    (HERE / "1999年全国象棋团体赛对兵局38局.CBL.xz").write_bytes(
        lzma.compress(cbl_library(lib_1999, "1999年全国象棋团体赛对兵局38局"), preset=9))

    notes = annotated(events["1956"][0])
    (HERE / "xqf10-xqf-txt.xqf").write_bytes(xqf_txt_example())
    (HERE / "xqf10-jiangjun.xqf").write_bytes(xqf_v10(notes))
    (HERE / "xqf18-annotated.xqf").write_bytes(xqf_encrypted(notes, 18, seed=18))
    (HERE / "xqf12.xqf").write_bytes(xqf_encrypted(lib_1956[1], 12, seed=12))
    (HERE / "xqf11.xqf").write_bytes(xqf_encrypted(lib_1956[2], 11, seed=11))
    (HERE / "xqf18-big5.xqf").write_bytes(xqf_encrypted(events["1999"][0], 18, seed=5, codec="cp950"))
    (HERE / "xqf18-endgame-black.xqf").write_bytes(xqf_encrypted(endgame(), 18, seed=3))
    (HERE / "annotated.cbr").write_bytes(cbr_record(notes))
    (HERE / "game.cbr").write_bytes(cbr_record(lib_1999[1]))
    (HERE / "game.cbf").write_text(cbf_text(lib_1956[3]), encoding="utf-8", newline="\n")
    (HERE / "dpxq.html").write_bytes(dhtmlxq_page([notes, lib_1956[4]], "1956年全国赛").encode("gbk"))

    # A library whose second game has a move that is not legal where it stands: the record of a corrupted
    # library (its second move's destination byte changed), to show that the others are still read.
    records = [cbr_record(game) for game in lib_1999[:3]]
    second = bytearray(records[1])
    second[2214 + 4 + 3] = 0          # the first move's destination: square 0 (a9), where no Red piece goes
    records[1] = bytes(second)
    (HERE / "bad-second-game.CBL").write_bytes(cbl_library([], "一局坏了的库", records=records))
    print(f"wrote the samples in {HERE}")


if __name__ == "__main__":
    main(sys.argv)

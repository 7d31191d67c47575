"""DhtmlXQ, the game blocks of Chinese web pages (东萍象棋 dpxq.com and the sites that copy its viewer).

A page holds one or more blocks ``[DhtmlXQ] ... [/DhtmlXQ]`` (also ``[DhtmlXQiFrame]``, ``[DhtmlXQHTML]``)
of tags ``[DhtmlXQ_name]value[/DhtmlXQ_name]`` (docs/gamefiles.md lists them):

* ``binit``: the start position, 64 digits: for each of the 32 pieces (Red's chariot horse elephant advisor
  general advisor elephant horse chariot, two cannons, five soldiers, then Black's) its file 0-8 and its
  row 0-9 from Black's side; ``99`` for a piece off the board. Without it, the usual start;
* ``movelist``: the main line, four digits a move (origin file and row, destination file and row);
* ``move_B_S_N``: variation N, played instead of move S (counted from 1) of line B (0 the main line),
  its moves numbered S, S+1, ...;
* ``commentN`` the comment after move N of the main line (0: before the first), ``commentB_N`` after
  move N of variation B; ``||`` is a line break;
* ``title``, ``event``, ``date``, ``place``, ``round``, ``table``, ``red``, ``black``, their teams, the
  ``result`` (红胜, 黑胜, 和棋 ...), ``open`` and ``ecco``, and others, read into tags.

The side to move is the first move's piece's.
"""

from __future__ import annotations

import html
import re
from typing import Dict, Iterator, List, Optional, Tuple, Union

from ..fen import PIECE_LETTERS, START_FEN, parse_fen
from ..squares import FILES
from .game import Game, GameFileError, PgnError
from .source import decodings
from .tree import Board, Node, game_of_tree

_BLOCK = re.compile(r"\[(DhtmlXQ[A-Za-z]*)\](.*?)(?:\[/\1\]|(?=\[DhtmlXQ[A-Za-z]*\])|\Z)", re.S)
_TAG = re.compile(r"\[DhtmlXQ_(\w+)\](.*?)\[/DhtmlXQ_?\w*\]", re.S)
_VARIATION_TAG = re.compile(r"^move_(\d+)_(\d+)_(\d+)$")
_COMMENT_TAG = re.compile(r"comment(?:(\d+)_)?(\d+)")

#: DhtmlXQ tag -> PGN tag; the tags not listed are not read.
TAGS = {"title": "Title", "event": "Event", "date": "Date", "place": "Site", "round": "Round",
        "group": "Group", "table": "Table", "red": "Red", "redteam": "RedTeam", "redname": "RedName",
        "redrating": "RedRating", "redtime": "RedTime", "black": "Black", "blackteam": "BlackTeam",
        "blackname": "BlackName", "blackrating": "BlackRating", "blacktime": "BlackTime",
        "timerule": "TimeRule", "open": "Opening", "var": "Variation", "ecco": "ECCO", "remark": "Annotator",
        "author": "Author", "type": "Type", "gametype": "GameType", "class": "Class", "other": "Other",
        "judge": "Referee", "record": "Recorder"}
#: Result texts (the start of the value) -> result; anything else is unknown.
RESULTS = (("红胜", "1-0"), ("紅勝", "1-0"), ("红先胜", "1-0"), ("紅先勝", "1-0"), ("黑胜", "0-1"),
           ("黑勝", "0-1"), ("红先负", "0-1"), ("紅先負", "0-1"), ("和", "1/2-1/2"), ("红先和", "1/2-1/2"),
           ("紅先和", "1/2-1/2"), ("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "1/2-1/2"))
_PIECE_ORDER = [PIECE_LETTERS.index(letter) for letter in "RNBAKABNRCCPPPPP"]


def looks_like_dhtmlxq(text: str) -> bool:
    return "[DhtmlXQ" in text


def _result(text: str) -> str:
    text = text.strip()
    for start, result in sorted(RESULTS, key=lambda item: -len(item[0])):
        if text.startswith(start):
            return result
    return "*"


def _squares(digits: str, what: str) -> Tuple[List[str], Optional[GameFileError]]:
    """The moves of a DhtmlXQ move list (four digits each: file and row from Black's side, twice), up to
    the first group that is no move, and the error that says so (None when all read)."""
    digits = re.sub(r"\s+", "", digits)
    moves: List[str] = []
    for index in range(0, len(digits), 4):
        group = digits[index:index + 4]
        if len(group) < 4 or not group.isdigit():
            return moves, GameFileError(f"{what} {digits[:40]!r} is not groups of four digits (file 0-8, row "
                                        "0-9 twice)")
        a, b, c, d = (int(ch) for ch in group)
        if a > 8 or c > 8:
            return moves, GameFileError(f"move {index // 4 + 1} of {what}, {group!r}, has a file past 8")
        moves.append(f"{FILES[a]}{9 - b}{FILES[c]}{9 - d}")
    return moves, None


def _board(binit: str) -> Board:
    digits = re.sub(r"\s+", "", binit)
    if len(digits) != 64 or not digits.isdigit():
        raise GameFileError(f"the start position (binit) {digits[:70]!r} is not 64 digits")
    pieces = []
    for index in range(32):
        file, row = int(digits[2 * index]), int(digits[2 * index + 1])
        if file > 8:        # 99: the piece is not on the board
            continue
        pieces.append((index // 16, _PIECE_ORDER[index % 16], file, 9 - row))
    return Board(tuple(pieces))


def _read_block(body: str) -> Game:
    """The game of one block, as much of it as reads: what does not (a start that is not 64 digits, a move
    list or a variation that is not groups of four digits, a variation with no place, an illegal move) is
    in the game's ``errors``."""
    tags: Dict[str, str] = {}
    for name, value in _TAG.findall(body):
        tags.setdefault(name, value)
    headers: Dict[str, str] = {}
    for name, tag in TAGS.items():
        value = html.unescape(tags.get(name, "")).strip()
        if value:
            headers[tag] = value
    result = _result(html.unescape(tags.get("result", "")))
    if result != "*":
        headers["Result"] = result
    comments: Dict[Tuple[int, int], str] = {}
    for name, value in tags.items():
        match = _COMMENT_TAG.fullmatch(name)
        text = html.unescape(value).replace("||", "\n").strip()
        if match and text:
            comments[(int(match.group(1) or 0), int(match.group(2)))] = text
    errors: List[PgnError] = []
    try:
        board = _board(tags["binit"]) if tags.get("binit", "").strip() else Board(parse_fen(START_FEN).pieces)
    except GameFileError as exc:
        game = Game(headers=headers, result=result, start_comment=comments.get((0, 0)), errors=[exc])
    else:
        root = _tree(tags, comments, errors)
        game = game_of_tree(root, board, headers, result)
        game.errors[:0] = errors
    game.locate_errors(event=headers.get("Event") or headers.get("Title"))
    return game


def _tree(tags: Dict[str, str], comments: Dict[Tuple[int, int], str], errors: List[PgnError]) -> Node:
    """The tree of the move list and the variations (``move_B_S_N``), with their comments; what does not
    read goes to ``errors``: a list is kept up to its first group that is no move, a variation with no
    place is left out."""
    root = Node(comment=comments.get((0, 0)))
    # after[(line, step)]: the node reached by move `step` of `line` (step 0 of line 0: the root)
    after: Dict[Tuple[int, int], Node] = {(0, 0): root}
    starts: Dict[int, Tuple[int, int]] = {0: (0, 1)}   # line -> (the line it branches from, first step)

    def add_line(line: int, parent: Node, first_step: int, value: str, what: str) -> None:
        moves, error = _squares(value, what)
        if error is not None:
            errors.append(error)
        for step, move in enumerate(moves, start=first_step):
            node = Node(move, comments.get((line, step)))
            parent.children.append(node)
            after[(line, step)] = node
            parent = node

    add_line(0, root, 1, tags.get("movelist", ""), "the move list")
    pending = sorted((int(n), int(b), int(step), value) for name, value in tags.items()
                     for b, step, n in _VARIATION_TAG.findall(name))
    while pending:   # a variation of a variation needs that one first: numbers are usually in order
        unplaced = []
        for number, base, step, value in pending:
            parent = _before(after, starts, base, step)
            if parent is None:
                unplaced.append((number, base, step, value))
                continue
            starts[number] = (base, step)
            add_line(number, parent, step, value, f"variation {number}")
        if len(unplaced) == len(pending):
            for number, base, step, _ in unplaced:
                errors.append(GameFileError(f"variation {number} is played instead of move {step} of line "
                                            f"{base}, which has no such move"))
            break
        pending = unplaced
    return root


def _before(after: Dict[Tuple[int, int], Node], starts: Dict[int, Tuple[int, int]], line: int,
            step: int) -> Optional[Node]:
    """The node a move `step` of `line` is played from: the node after move step - 1 of that line, or, at
    or before the line's first move, of the line it branches from."""
    while True:
        if line not in starts:
            return None
        base, first = starts[line]
        if step > first or line == 0:
            return after.get((line, step - 1))
        line = base


def _text(data: Union[str, bytes], encoding: Optional[str], label: Optional[str]) -> str:
    if isinstance(data, str):
        return data
    readings, _ = decodings(data, encoding, label)
    return readings[0].text


def games_of(data: Union[str, bytes], label: Optional[str], encoding: Optional[str]) -> Iterator[Game]:
    """The games of the DhtmlXQ blocks of a page, in order, each with what of it could not be read in its
    ``errors`` (see :mod:`.formats`). The page's bytes are read in ``encoding``, else UTF-8, GBK or Big5,
    the likeliest."""
    text = _text(data, encoding, label)
    blocks = [body for _, body in _BLOCK.findall(text) if "[DhtmlXQ_" in body] or [text]
    for number, body in enumerate(blocks, start=1):
        game = _read_block(body)
        game.locate_errors(source=label, game_number=number)
        game.number = number
        yield game

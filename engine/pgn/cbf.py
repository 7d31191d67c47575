"""CBF, CCBridge's XML game file: reading and writing its tags and its main line.

A CBF file (docs/gamefiles.md) is::

    <?xml version="1.0" encoding="UTF-8"?>
    <ChineseChessRecord Version="1.0">
     <Head>
      <Name>title</Name> ... <Contest>event</Contest> <Round/> ... <Red/> <RedTeam/> ... <Black/> ...
      <RecordResult>0</RecordResult> ... <FEN>rnbakabnr/9/... w - - 0 1</FEN>
     </Head>
     <MoveList>
      <Move value="00-00" />          the start position
      <Move value="77-47" />          h2e2: file 0..8 and row 0..9 from Black's side, twice
      ...
      <Move value="19-27" end="1" />  the last move
     </MoveList>
    </ChineseChessRecord>

That much is what the readers and writers of real files agree on (cchess reads the FEN and the moves; a
template used by several converters writes the Head as above). How CCBridge stores comments and
variations in CBF is not documented, so neither is read or written: the main line is the ``Move``
elements after the first, up to the one marked ``end``. RecordResult is read as CBR's result byte is
(0 unknown, 1 Red wins, 2 Black wins, 3 draw).
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Union

from ..errors import IllegalMoveError, InvalidFenError
from ..fen import START_FEN
from ..position import Position
from ..squares import FILES
from .game import RESULTS, Game, GameFileError, start_position
from .source import codec_for, decodings

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

ROOT_TAG = "ChineseChessRecord"
#: The Head's elements in the order CCBridge writes them. Each is read into the tag of the same name, but
#: for those PGN names otherwise (below); RecordType, RecordKind and RecordResult are codes (the last is
#: the result), FEN the start.
HEAD = ("Name", "URL", "From", "ContestType", "Contest", "Round", "Group", "Table", "Date", "Site", "TimeRule",
        "Red", "RedTeam", "RedTime", "RedRating", "Black", "BlackTeam", "BlackTime", "BlackRating", "Referee",
        "Recorder", "Commentator", "CommentatorURL", "Creator", "CreatorURL", "DateCreated", "DateModified",
        "ECCO", "RecordType", "RecordKind", "RecordResult", "ResultType", "FEN")
#: Head elements read into a PGN tag of another name.
PGN_TAGS = {"Name": "Title", "Contest": "Event", "Commentator": "Annotator"}
_CODES = ("RecordType", "RecordKind", "RecordResult", "FEN")
_RESULTS = {"0": "*", "1": "1-0", "2": "0-1", "3": "1/2-1/2"}
_RESULT_CODES = {"*": "0", "1-0": "1", "0-1": "2", "1/2-1/2": "3"}
_MOVE_VALUE = re.compile(r"([0-8])([0-9])-([0-8])([0-9])")
_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.S)
_DECLARED = re.compile(rb"^\s*<\?xml[^>]*encoding=[\"']([A-Za-z0-9_.-]+)[\"']")


def looks_like_cbf(text: str) -> bool:
    return f"<{ROOT_TAG}" in text[:4096]


def _text(data: Union[str, bytes], encoding: Optional[str], label: Optional[str]) -> str:
    """The XML as text: in the given encoding, else the one it declares, else as detected."""
    if isinstance(data, str):
        return data
    if encoding in (None, "", "auto"):
        declared = _DECLARED.match(data[:200])
        if declared:
            try:
                return data.decode(codec_for(declared.group(1).decode("ascii")))
            except (UnicodeDecodeError, LookupError):
                pass
    readings, _ = decodings(data, encoding, label)
    return readings[0].text


def _square(value: str, offset: int) -> str:
    return f"{FILES[int(value[offset])]}{9 - int(value[offset + 1])}"


def read_game(data: Union[str, bytes], encoding: Optional[str] = None, label: Optional[str] = None) -> Game:
    """The game of a CBF file (its bytes or text), as much of it as reads: an invalid FEN in the Head (the
    game then has no move), a bad move value or an illegal move (the moves before it kept) is in the
    game's ``errors``, naming the move number. Raises GameFileError for XML that does not parse or is no
    CBF file."""
    root = _root(data, encoding, label)
    head = root.find("Head")
    headers: Dict[str, str] = {}
    fen = START_FEN
    result = "*"
    if head is not None:
        for element in head:
            value = (element.text or "").strip()
            if not value:
                continue
            if element.tag == "FEN":
                fen = value
            elif element.tag == "RecordResult":
                result = _RESULTS.get(value, "*")
            elif element.tag not in _CODES:
                headers[PGN_TAGS.get(element.tag, element.tag)] = value
    if result != "*":
        headers["Result"] = result
    game = Game(headers=headers, result=result, number=1)
    move_list = root.find("MoveList")
    _read_moves(game, fen, move_list.findall("Move") if move_list is not None else [])
    game.locate_errors(source=label, game_number=1, event=headers.get("Event") or headers.get("Title"))
    return game


def _root(data: Union[str, bytes], encoding: Optional[str], label: Optional[str]) -> "Element":
    """The XML's root element, a ``ChineseChessRecord``; GameFileError otherwise."""
    import xml.etree.ElementTree as ElementTree   # here: the XML parser is a fair part of engine.pgn's import

    text = _DECLARATION.sub("", _text(data, encoding, label).lstrip("\ufeff"), count=1)
    where = {"source": label, "game_number": 1}
    if "<!ENTITY" in text:
        raise GameFileError("the XML declares entities, which a CBF file never does: not read", **where)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise GameFileError(f"the XML does not parse: {exc}", **where) from None
    if root.tag != ROOT_TAG:
        raise GameFileError(f"the XML's root is <{root.tag}>, not <{ROOT_TAG}>: not a CBF file", **where)
    return root


def _read_moves(game: Game, fen: str, elements: List["Element"]) -> None:
    """The start (``fen``) and the main line (the Move elements after the first, the start's, to the one
    marked ``end``) into ``game``, up to the first that does not read, whose error is recorded."""
    try:
        position = Position(fen)
    except InvalidFenError as exc:
        game.headers["FEN"] = fen
        game.errors.append(GameFileError(f"invalid FEN {fen!r} in the Head: {exc}"))
        return
    if position.fen() != START_FEN:
        game.headers["FEN"] = position.fen()
    for element in elements[1:]:
        value = element.get("value", "")
        number, side = position.fullmove_number, str(position.turn)
        if not _MOVE_VALUE.fullmatch(value):
            game.errors.append(GameFileError(f"a Move value {value!r} is not 'XY-XY' (file 0-8, row 0-9 from "
                                             "Black's side)", move_number=number, side=side, token=value))
            return
        move = _square(value, 0) + _square(value, 3)
        try:
            position.push(move)
        except IllegalMoveError as exc:
            game.errors.append(GameFileError(str(exc), move_number=number, side=side, token=value))
            return
        game.moves.append(move)
        game.comments.append(None)
        if element.get("end") == "1":
            return


def games_of(data: Union[str, bytes], label: Optional[str], encoding: Optional[str]) -> Iterator[Game]:
    """The one game of a CBF file (see :mod:`.formats`)."""
    yield read_game(data, encoding, label)


def write_game(game: Game) -> str:
    """The text of a CBF file (UTF-8, as CCBridge writes it) holding the tags and the main line of
    ``game``; its comments and variations are not written (see the module's note). Raises PgnError for
    an invalid FEN tag or an illegal move."""
    from .game import push_checked

    if game.result not in RESULTS:
        raise GameFileError(f"unknown result {game.result!r}", event=game.headers.get("Event"))
    position = start_position(game)
    fen = position.fen()
    lines: List[str] = ['<?xml version="1.0" encoding="UTF-8"?>', f'<{ROOT_TAG} Version="1.0">', " <Head>"]
    for element in HEAD:
        if element == "FEN":
            value = fen
        elif element == "RecordResult":
            value = _RESULT_CODES[game.result]
        elif element == "RecordType":
            value = "1"
        elif element in _CODES:
            value = ""
        else:
            value = game.headers.get(PGN_TAGS.get(element, element), "")
        value = " ".join(str(value).splitlines()).strip()      # one line; inner spaces kept
        lines.append(f"  <{element}>{escape(value, quote=False)}</{element}>" if value else f"  <{element} />")
    lines += [" </Head>", " <MoveList>", '  <Move value="00-00" />']
    for index, move in enumerate(game.moves):
        push_checked(position, move, game.headers.get("Event"))
        iccs = position.move_stack[-1]
        value = (f"{FILES.index(iccs[0])}{9 - int(iccs[1])}-{FILES.index(iccs[2])}{9 - int(iccs[3])}")
        end = ' end="1"' if index == len(game.moves) - 1 else ""
        lines.append(f'  <Move value="{value}"{end} />')
    lines += [" </MoveList>", f"</{ROOT_TAG}>", ""]
    return "\n".join(lines)

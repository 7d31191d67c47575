"""Reading and writing Xiangqi game files: PGN, as exported by XQStudio, ChessDB, xqbase and XBoard/WinBoard,
and the formats most Chinese players' programs save (XQStudio's XQF, CCBridge's CBR, CBL and CBF, the
DhtmlXQ blocks of web pages), all read by :func:`read_games` into the same :class:`Game`.

The other formats (:mod:`.formats`, each in its own module; docs/gamefiles.md lists their fields)::

    games = read_games("1956年全国象棋锦标赛93局.CBL")   # any format, known by its content
    write_games("game.xqf", [games[0]])                 # XQF 1.0, which XQStudio opens

XQF (every version, the encrypted ones from 11 on), CBR and CBL keep the game's tree of moves: its
variations are read into :attr:`Game.variations`, its comments into :attr:`Game.comments`.

Damaged files are read as python-chess reads chess PGN: every game as far as it reads, each line (the
main line or a variation) up to its first illegal or unreadable move, what could not be read in
:attr:`Game.errors`, and one warning of the ``engine.pgn`` logger for the file; a library's odd game
(no general, an empty board) is a game with its error, and the games after it are read.
``errors="skip"`` leaves such games out, ``errors="raise"`` raises the first error, as strict reading
does.

A Xiangqi PGN game looks like chess PGN::

    [Game "Chinese Chess"]
    [Event "National Championship"]
    [Red "Hu Ronghua"]
    [Black "Liu Dahua"]
    [Result "1-0"]
    [Format "Chinese"]

    1. 炮二平五 马8进7 2. 马二进三 {the main line} 车9平8 ... 1-0

or, as XBoard writes it, ``[White "..."]`` for Red, ``[Variant "xiangqi"]`` and
SAN moves: ``1. Che2 {+0.12/9 4} Hg7 2. Hg2 Rh9 ...``.

Reading (:func:`read_games`, :func:`iter_games`):

* tags ``[Name "value"]`` are kept in file order in :attr:`Game.headers`
  (``\\"`` and ``\\\\`` escapes understood); a ``FEN`` tag sets the starting
  position;
* movetext may use move numbers (``1.``, ``1...``, attached or not:
  ``1.h2e2``), moves in ICCS (``h2e2``, ``H2-E2``), WXF (``C2.5``, ``C2=5``,
  ``H8+7``, ``R+.3``), Chinese (``炮二平五``, ``马8进7``, traditional
  characters, full-width digits) or XBoard's SAN (``Cbe2``, ``Hc7``,
  ``cxc5``, ``Rxf9+``; ranks 0..9), whatever the ``Format`` tag says.  Every
  move is read with :func:`engine.notation.parse_move` against the position
  replayed so far, and stored as ICCS (``"h2e2"``);
* ``{comments}`` and ``;`` line comments become :attr:`Game.comments` (the
  comment after each move) or :attr:`Game.start_comment`; NAGs (``$1``),
  ``!``/``?`` suffixes and ``%`` escape lines are skipped; variations
  ``( ... )``, nested or not, are read into :attr:`Game.variations` (the
  PGN writer writes them so);
* a result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) ends a game; a
  ``Variant`` tag other than ``xiangqi`` is refused;
* bytes are decoded with ``encoding=`` when given, else as UTF-8 when they
  are valid UTF-8, else as GBK or Big5 (Big5-HKSCS too): the first of them,
  likeliest first, under which every move reads (a decode that merely
  succeeds proves nothing).

What cannot be read is a :class:`PgnError` (:class:`GameFileError` for the other
formats) in the game's ``errors`` (raised with ``errors="raise"``), whose message
names the file, the game (number and Event), the line or byte, the move number
and the token.

Writing (:func:`write_game`, :func:`write_games`) produces the seven-tag
roster first, then ``FEN``, ``Format`` and the other tags, and movetext
wrapped at 80 columns in ICCS (``h2e2``), WXF (``C2.5``), Chinese
(``炮二平五``) or, with ``notation="san"``, XBoard's PGN (``Che2``; tags,
FEN letters and comments as XBoard writes them, so that it opens the file).

The modules, one job each: :mod:`.game` (the Game record, variations, results,
tags and PgnError), :mod:`.source` (paths, bytes, text and files, and the
guessing of encodings), :mod:`.formats` (which format a file is in, and
:func:`read_games`), :mod:`.reader` (PGN: tokens, games, movetext, the encoding
under which the moves read), :mod:`.tree` (the move trees of the binary
formats), :mod:`.xqf`, :mod:`.cbr`, :mod:`.cbl`, :mod:`.cbf` and
:mod:`.dhtmlxq` (one format each), :mod:`.writer` and :mod:`.xboard`
(XBoard's dialect: tags, FEN letters, ``{+0.12/9 4}`` comments).
"""

from .formats import FORMATS, SUFFIXES, detect_format, iter_games, read_games
from .game import RESULTS, SEVEN_TAG_ROSTER, Game, GameFileError, PgnError, Variation, player_name
from .source import PgnSource, likeliest_text
from .writer import NOTATIONS, WRITTEN_FORMATS, write_game, write_games

__all__ = [
    "Game",
    "Variation",
    "PgnError",
    "GameFileError",
    "FORMATS",
    "SUFFIXES",
    "WRITTEN_FORMATS",
    "detect_format",
    "RESULTS",
    "SEVEN_TAG_ROSTER",
    "player_name",
    "NOTATIONS",
    "read_games",
    "iter_games",
    "likeliest_text",
    "write_game",
    "write_games",
]

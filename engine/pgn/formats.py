"""Game files in any of the formats Chinese players have: which format a file is in (from its content, not
its name) and reading its games through one entry point, :func:`read_games`.

=========  ==========================================  ====================================  ============
format     what it is                                  recognised by                         module
=========  ==========================================  ====================================  ============
pgn        Xiangqi PGN (XQStudio, xqbase, XBoard)      anything not below                    .reader
xqf        XQStudio (象棋演播室), every version         ``XQ`` and a version byte             .xqf
cbr        CCBridge (象棋桥) record, one game           ``CCBridge Record``                   .cbr
cbl        CCBridge library, many games                ``CCBridgeLibrary``                   .cbl
cbf        CCBridge XML record                         ``<ChineseChessRecord``               .cbf
dhtmlxq    DhtmlXQ blocks of a web page (dpxq.com)     ``[DhtmlXQ``                          .dhtmlxq
=========  ==========================================  ====================================  ============

Each module's ``games_of(content, label, encoding)`` yields, game by game, the Game with what of it could
not be read in its ``errors`` (see :class:`.game.Game`); it raises only when the file as a whole cannot be
read. This module applies the caller's choice of what a game that did not read whole does (``errors=``):
be kept as far as it reads (the default, as python-chess reads chess PGN), be left out, or stop the
reading; and, unless the caller collects the errors itself (``failures=``), it says once, in a warning of
the ``engine.pgn`` logger, how many games did not read whole.
"""

from __future__ import annotations

import logging
from typing import Callable, Dict, Iterator, List, Optional, Union

from . import cbf, cbl, cbr, dhtmlxq, reader, xqf
from .game import Game, GameFileError, PgnError
from .source import GAME_SUFFIXES, PgnSource, read_source

#: The formats read, in the order they are tried on a file's content.
FORMATS = ("xqf", "cbr", "cbl", "cbf", "dhtmlxq", "pgn")
#: What a game that does not read whole does: "keep" (the default) gives it as far as it reads, what does
#: not in its ``errors``; "skip" leaves it out; "raise" stops the reading there, raising its first error
#: (the games before it are yielded first). With "keep" and "skip", ``failures`` (when given) receives
#: each such game's first error, and the caller, who reports them, gets no warning.
ERRORS = ("keep", "skip", "raise")
#: The logger of the one warning line a reading gives when games did not read whole (its name is the
#: package's, as python-chess logs to ``chess.pgn``): silence it with
#: ``logging.getLogger("engine.pgn").setLevel(logging.ERROR)``.
LOGGER = logging.getLogger("engine.pgn")
#: File name endings of game files, for the tools that look for them in folders and archives.
SUFFIXES = GAME_SUFFIXES

_Reader = Callable[[Union[str, bytes], Optional[str], Optional[str]], Iterator[Game]]
_READERS: Dict[str, _Reader] = {"pgn": reader.games_of, "xqf": xqf.games_of, "cbr": cbr.games_of,
                                "cbl": cbl.games_of, "cbf": cbf.games_of, "dhtmlxq": dhtmlxq.games_of}

# How far into a text file to look for the mark of an XML or DhtmlXQ file.
_SNIFF = 8192


def detect_format(content: Union[str, bytes]) -> str:
    """The format of a file's content (bytes, or text already decoded): one of :data:`FORMATS`. Binary
    files are known by their magic; XML with a ``ChineseChessRecord`` root is CBF, text with a
    ``[DhtmlXQ`` block DhtmlXQ; anything else is taken for PGN (whose reader says what is wrong if it is
    not)."""
    if isinstance(content, (bytes, bytearray)):
        data = bytes(content)
        if xqf.is_xqf(data):
            return "xqf"
        if cbr.is_cbr(data):
            return "cbr"
        if cbl.is_cbl(data):
            return "cbl"
        head = data[:_SNIFF]
        if head.startswith((b"\xff\xfe", b"\xfe\xff")):   # UTF-16 text: look at it as text
            try:
                return detect_format(head.decode("utf-16", errors="ignore"))
            except UnicodeError:
                return "pgn"
        if b"<" + cbf.ROOT_TAG.encode() in head:
            return "cbf"
        if b"[DhtmlXQ" in data:
            return "dhtmlxq"
        return "pgn"
    if cbf.looks_like_cbf(content[:_SNIFF]):
        return "cbf"
    if dhtmlxq.looks_like_dhtmlxq(content):
        return "dhtmlxq"
    return "pgn"


def _binary(data: bytes) -> bool:
    """Bytes that are no text: a NUL in their first kilobytes, and no UTF-16 byte order mark."""
    return b"\x00" in data[:_SNIFF] and not data.startswith((b"\xff\xfe", b"\xfe\xff"))


def iter_games(source: PgnSource, encoding: Optional[str] = None, *, errors: str = "keep",
               failures: Optional[List[PgnError]] = None, format: Optional[str] = None) -> Iterator[Game]:
    """Yield the games of a game file one by one (see :func:`read_games`).

    A game that does not read whole is yielded as far as it reads (``errors="keep"``), left out
    (``"skip"``), or stops the reading (``"raise"``: the games before it are yielded, then its first
    error is raised). An error of the whole file (not a game file, a truncated header, bytes in no
    encoding) is raised whatever ``errors`` says. When the games are all read, one warning of the
    ``engine.pgn`` logger says how many did not read whole, and why the first did not, unless ``failures``
    was given (the caller reports them).
    """
    if errors not in ERRORS:
        raise ValueError(f"errors={errors!r}: use one of {', '.join(map(repr, ERRORS))}")
    content, label = read_source(source)
    kind = (format or detect_format(content)).lower()
    if kind not in _READERS:
        raise ValueError(f"format={format!r}: use one of {', '.join(FORMATS)}")
    if kind != "pgn" and kind not in ("cbf", "dhtmlxq") and isinstance(content, str):
        raise GameFileError(f"a {kind.upper()} file is binary: pass its path or its bytes, not text",
                            source=label)
    if kind == "pgn" and format is None and isinstance(content, bytes) and _binary(content):
        raise GameFileError("not a game file in a format read here: its bytes are not text, and it does not "
                            f"start as an XQF (XQ), CBR (CCBridge Record) or CBL (CCBridgeLibrary) file does "
                            f"(it starts with {content[:16].hex(' ')})", source=label)
    count, damaged = 0, []
    for game in _READERS[kind](content, label, encoding):
        count += 1
        if game.errors:
            if errors == "raise":
                raise game.errors[0]
            damaged.append(game.errors[0])
            if failures is not None:
                failures.append(game.errors[0])
            if errors == "skip":
                continue
        yield game
    if damaged and failures is None:
        LOGGER.warning(_summary(label, count, damaged, errors))


def _summary(label: Optional[str], count: int, damaged: List[PgnError], errors: str) -> str:
    """The one line that says how many games did not read whole, what became of them, and the first's
    error (its place in the file and why)."""
    fate = "kept as far as they read" if errors == "keep" else "left out"
    more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
    where = f"{label}: " if label else ""
    return (f"{where}{len(damaged)} of {count} games could not be read whole, {fate}; the first: "
            f"{damaged[0].in_file()}{more}")


def read_games(source: PgnSource, encoding: Optional[str] = None, *, errors: str = "keep",
               failures: Optional[List[PgnError]] = None, format: Optional[str] = None) -> List[Game]:
    """Read every game of a game file: Xiangqi PGN, XQF (every version, decrypted), CBR, CBL (all its
    games), CBF or a page with DhtmlXQ blocks, whichever the content is (:func:`detect_format`; or
    ``format=`` to say).

    ``source`` may be:

    * a :class:`pathlib.Path` (or any ``os.PathLike``): the file is read;
    * ``bytes``: the content of a file;
    * a ``str`` that is an existing path: the file is read; a one-line ``str``
      ending in a game file's extension (``.pgn``, ``.xqf``...) that does not
      exist raises :class:`FileNotFoundError`; any other ``str`` is the text
      itself (PGN, CBF or DhtmlXQ);
    * an open file (text or binary).

    Text is decoded with ``encoding`` when given (``"utf-8"``, ``"gbk"``,
    ``"big5"`` or any Python codec; ``None`` or ``"auto"`` detects it).
    Detected: valid UTF-8 is read as UTF-8 (a byte order mark is dropped;
    UTF-16 is recognised by its own); other bytes as GBK (through its
    superset GB18030), Big5 (cp950) or Big5-HKSCS, for PGN the first under
    which every move reads, tried in the order their text looks likelier.
    XQF strings are GBK or Big5, whichever they look like; CBR and CBL store
    UTF-16; CBF is read in the encoding its XML declares.

    Every game is read as far as it can be, as python-chess reads chess PGN: a line (the main line or a
    variation) stops before a move that does not read or is not legal, a broken variation leaves the main
    line whole, and what could not be read is in the game's ``errors`` (PgnErrors; a game whose start
    position does not read has no move). A library's odd game (no general, an empty board, a truncated
    record) is such a game, and the games after it are read. ``errors=`` chooses what those games do:
    ``"keep"`` (the default) as above, ``"skip"`` leaves them out, ``"raise"`` raises the first one's
    first error, as strict reading does. One warning of the ``engine.pgn`` logger (:data:`LOGGER`; a
    program that sets up no logging prints it on stderr) says how many games did not read whole and why
    the first did not; a caller that reports them itself passes ``failures`` (a list), which receives each
    one's first error instead. Each game's ``number`` is its place in the file.

    Raises:
        PgnError: bytes in none of the encodings (or not in the one given); GameFileError (a PgnError)
            for content that is no game file, or a binary file whose header is truncated. With
            ``errors="raise"``, also the first error of a game that does not read whole: a malformed
            tag or comment, unbalanced variations, an invalid FEN tag, a move that cannot be read or is
            illegal, a truncated, corrupt or wrongly decrypted record. The message names the file, the
            game, the line or byte, the move number and the move.
    """
    return list(iter_games(source, encoding, errors=errors, failures=failures, format=format))

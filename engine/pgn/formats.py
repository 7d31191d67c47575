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

Each module's ``games_of(content, label, encoding)`` yields, game by game, the Game or the PgnError that
says why that game cannot be read; it raises only when the file as a whole cannot be read. This module
applies the caller's choice of what a bad game does (``errors=``): stop the reading, or be skipped and
listed.
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List, Optional, Union

from . import cbf, cbl, cbr, dhtmlxq, reader, xqf
from .game import Game, GameFileError, PgnError
from .source import GAME_SUFFIXES, PgnSource, read_source

#: The formats read, in the order they are tried on a file's content.
FORMATS = ("xqf", "cbr", "cbl", "cbf", "dhtmlxq", "pgn")
#: What a bad game does: "raise" stops the reading there (the games before it are yielded first);
#: "skip" leaves it out, the others read, and appends its error to ``failures``.
ERRORS = ("raise", "skip")
#: File name endings of game files, for the tools that look for them in folders and archives.
SUFFIXES = GAME_SUFFIXES

_Reader = Callable[[Union[str, bytes], Optional[str], Optional[str]], Iterator[Union[Game, PgnError]]]
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


def iter_games(source: PgnSource, encoding: Optional[str] = None, *, errors: str = "raise",
               failures: Optional[List[PgnError]] = None, format: Optional[str] = None) -> Iterator[Game]:
    """Yield the games of a game file one by one (see :func:`read_games`).

    With ``errors="raise"`` the games before a faulty one are yielded before its PgnError is raised; with
    ``errors="skip"`` a faulty game is left out, its error appended to ``failures`` (when given), and the
    reading goes on. An error of the whole file (not a game file, a truncated header, a PGN comment never
    closed) is raised in either case, but for PGN text, where the games before it are kept.
    """
    if errors not in ERRORS:
        raise ValueError(f"errors={errors!r}: use 'raise' or 'skip'")
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
    for item in _READERS[kind](content, label, encoding):
        if isinstance(item, PgnError):
            if errors == "raise":
                raise item
            if failures is not None:
                failures.append(item)
            continue
        yield item


def read_games(source: PgnSource, encoding: Optional[str] = None, *, errors: str = "raise",
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

    A game that cannot be read raises (``errors="raise"``, the default) or is
    left out and its error appended to ``failures`` (``errors="skip"``): a
    library with one bad game still gives the others. Each game's ``number``
    is its place in the file.

    Raises:
        PgnError: undecodable bytes, a malformed tag or comment, unbalanced
            variations, an invalid FEN tag, or a move that cannot be read or
            is illegal; GameFileError (a PgnError) for a truncated, corrupt or
            wrongly decrypted binary file. The message names the file, the
            game, the line or byte, the move number and the move.
    """
    return list(iter_games(source, encoding, errors=errors, failures=failures, format=format))

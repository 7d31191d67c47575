"""Where PGN text comes from (a path, bytes, the text itself or an open file), and the encodings its bytes
may be in.

Game files come in UTF-8, in GBK (mainland Chinese Windows software) and in Big5 (Taiwan and Hong Kong:
traditional characters, ``馬８進７``). A decode that succeeds proves little: GB18030 decodes nearly any
bytes, Big5 ones included, into the wrong characters. So this module only proposes readings
(:func:`decodings`): the given encoding; or UTF-8 when the bytes are valid UTF-8; or else GBK and Big5 in
the order their text looks likelier, of which the reader keeps the first under which every move reads
(:mod:`.reader`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, List, Optional, Tuple, Union

from .game import PgnError

#: What a PGN source may be; see :func:`read_games`.
PgnSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[str], IO[bytes]]

#: The encodings tried when none is given: (name in messages, Python codec). GB18030 is a superset of GBK
#: and GB2312; cp950 is Microsoft's Big5, the one Windows software writes (it has a few more characters
#: than Python's strict "big5"); Big5-HKSCS, Hong Kong's, adds characters such as 俥 that Big5 lacks.
CANDIDATES: Tuple[Tuple[str, str], ...] = (("UTF-8", "utf-8-sig"), ("GBK", "gb18030"), ("Big5", "cp950"),
                                           ("Big5-HKSCS", "big5hkscs"))

# Encoding names a user may give -> the codec used for them.
_CODEC_ALIASES = {"utf-8": "utf-8-sig", "utf8": "utf-8-sig", "gbk": "gb18030", "gb2312": "gb18030",
                  "cp936": "gb18030", "big5": "cp950", "big-5": "cp950", "big5-hkscs": "big5hkscs"}

#: ``encoding`` values that mean "detect it".
AUTO = (None, "", "auto")

# How many non-ASCII characters the likelihood test looks at.
_SAMPLE = 4000


@dataclass(frozen=True)
class Decoding:
    """One reading of a source's bytes: the encoding's name (for messages) and the text."""

    name: str
    text: str


def codec_for(encoding: str) -> str:
    """The Python codec used for an encoding name: ``big5`` reads as cp950, ``gbk`` and ``gb2312`` as their
    superset GB18030, ``utf-8`` drops a byte order mark; other names are Python's."""
    key = encoding.strip().lower().replace("_", "-")
    return _CODEC_ALIASES.get(key, encoding)


def _common_share(text: str, codec: str) -> float:
    """The share of the text's non-ASCII characters that are common ones in ``codec``'s character set:
    for GBK the GB2312 set (its 6,763 everyday characters and symbols), for Big5 its symbols and 5,401
    frequent characters (A140-C67E). Text read in the wrong one of the two is mostly rare characters,
    kana or Greek letters."""
    sample = [ch for ch in text if ord(ch) > 127][:_SAMPLE]
    if not sample:
        return 1.0
    common = 0
    for ch in sample:
        try:
            if codec == "gb18030":
                ch.encode("gb2312")
                common += 1
            else:
                code = int.from_bytes(ch.encode("cp950"), "big")
                common += 0xA140 <= code <= 0xC67E
        except UnicodeEncodeError:
            pass
    return common / len(sample)


def decodings(data: bytes, encoding: Optional[str], label: Optional[str]) -> Tuple[List[Decoding], List[str]]:
    """The readings of ``data`` to try, likeliest first, and what failed to decode (for messages).

    With an ``encoding``, that one only (PgnError if it does not decode or is unknown). Otherwise UTF-16
    by its byte order mark; plain ASCII as itself; UTF-8 alone if it decodes (valid UTF-8 is rarely an
    accident); else GBK, Big5 and Big5-HKSCS (when it reads otherwise than Big5), those whose text has the
    larger share of common characters first.
    """
    if encoding not in AUTO:
        assert encoding is not None
        codec = codec_for(encoding)
        try:
            return [Decoding(encoding, data.decode(codec))], []
        except UnicodeDecodeError as exc:
            raise PgnError(f"cannot decode the text as {encoding}: {exc}", source=label) from None
        except LookupError:
            raise PgnError(f"unknown encoding {encoding!r}", source=label) from None
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        try:
            return [Decoding("UTF-16", data.decode("utf-16"))], []
        except UnicodeDecodeError as exc:
            raise PgnError(f"the text starts with a UTF-16 byte order mark but is not UTF-16: {exc}",
                           source=label) from None
    if data.isascii():
        return [Decoding("ASCII", data.decode("ascii"))], []
    try:  # valid UTF-8 with non-ASCII characters in it is no accident: take it (and read lazily)
        return [Decoding("UTF-8", data.decode("utf-8-sig"))], []
    except UnicodeDecodeError as exc:
        failed = [f"UTF-8 (byte {exc.start} cannot be UTF-8)"]
    found: List[Decoding] = []
    for name, codec in CANDIDATES[1:]:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as exc:
            failed.append(f"{name} (byte {exc.start} cannot be {name})")
            continue
        if all(text != other.text for other in found):  # Big5-HKSCS mostly reads as Big5 does
            found.append(Decoding(name, text))
    if not found:
        raise PgnError(f"the text is in none of the encodings tried: {', '.join(failed)}; "
                       "pass the encoding (encoding=..., --encoding) to read it", source=label)
    found.sort(key=lambda d: -_common_share(d.text, codec_for(d.name)))
    return found, failed


def likeliest_text(data: bytes, label: Optional[str] = None) -> str:
    """The text of PGN bytes in their likeliest encoding (see :func:`decodings`), without reading the
    moves to confirm it: for callers that cut or sift the text before reading it. PgnError when the
    bytes are in none of the encodings tried."""
    readings, _ = decodings(data, None, label)
    return readings[0].text


#: File name endings of game files (PGN, XQF, CBR, CBL, CBF, web pages with DhtmlXQ blocks).
GAME_SUFFIXES = (".pgn", ".xqf", ".cbr", ".cbl", ".cbf", ".htm", ".html")


def _looks_like_file_name(text: str) -> bool:
    """A one-line string naming a game file (used to report a missing file)."""
    return ("\n" not in text and "[" not in text and "{" not in text and "<" not in text
            and text.strip().lower().endswith(GAME_SUFFIXES))


def read_source(source: PgnSource) -> Tuple[Union[str, bytes], Optional[str]]:
    """The content of ``source`` (text, or bytes still to decode) and a label for messages (the file name,
    if any)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, os.PathLike):
        path = Path(source)
        return path.read_bytes(), str(path)
    if isinstance(source, str):
        if "\n" not in source and len(source) < 4096 and os.path.exists(source):
            return Path(source).read_bytes(), source
        if _looks_like_file_name(source):
            raise FileNotFoundError(f"no such game file: {source!r} "
                                    "(a string that is not an existing path is read as the text of a game)")
        return source, None
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        label = getattr(source, "name", None)
        label = label if isinstance(label, str) else None
        if isinstance(data, (bytes, bytearray)):
            return bytes(data), label
        if isinstance(data, str):
            return data, label
        raise TypeError(f"{type(source).__name__}.read() returned {type(data).__name__}, "
                        "expected str or bytes")
    raise TypeError("a PGN source is a path (str or os.PathLike), bytes, PGN text or an open file, "
                    f"not {type(source).__name__}")

"""Where PGN text comes from: a path, bytes, the text itself or an open file; and the encoding of bytes
(the one given, else UTF-8 with or without BOM, UTF-16 by its BOM, or GBK through its superset GB18030)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Optional, Tuple, Union

from .game import PgnError

#: What a PGN source may be; see :func:`read_games`.
PgnSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[str], IO[bytes]]


def _decode(data: bytes, encoding: Optional[str], label: Optional[str]) -> str:
    """Bytes -> text: the given encoding, else UTF-8 (BOM or not), else GB18030."""
    if encoding is not None:
        codec = encoding
        if codec.lower().replace("_", "-") in ("utf-8", "utf8"):
            codec = "utf-8-sig"  # a BOM is not part of the text
        try:
            return data.decode(codec)
        except UnicodeDecodeError as exc:
            raise PgnError(f"cannot decode the text as {encoding}: {exc}", source=label) from None
        except LookupError:
            raise PgnError(f"unknown encoding {encoding!r}", source=label) from None
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise PgnError(f"the text starts with a UTF-16 byte order mark but is not UTF-16: {exc}",
                           source=label) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError as exc:
        raise PgnError(f"the text is neither UTF-8 nor GBK/GB18030 ({exc}); "
                       "pass encoding=... to read it", source=label) from None


def _looks_like_file_name(text: str) -> bool:
    """A one-line string naming a .pgn file (used to report a missing file)."""
    return ("\n" not in text and "[" not in text and "{" not in text
            and text.strip().lower().endswith(".pgn"))


def read_source(source: PgnSource, encoding: Optional[str]) -> Tuple[str, Optional[str]]:
    """The text of ``source`` and a label for messages (the file name, if any)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _decode(bytes(source), encoding, None), None
    if isinstance(source, os.PathLike):
        path = Path(source)
        return _decode(path.read_bytes(), encoding, str(path)), str(path)
    if isinstance(source, str):
        if "\n" not in source and len(source) < 4096 and os.path.exists(source):
            return _decode(Path(source).read_bytes(), encoding, source), source
        if _looks_like_file_name(source):
            raise FileNotFoundError(f"no such PGN file: {source!r} "
                                    "(a string that is not an existing path is read as PGN text)")
        return source, None
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        label = getattr(source, "name", None)
        label = label if isinstance(label, str) else None
        if isinstance(data, (bytes, bytearray)):
            return _decode(bytes(data), encoding, label), label
        if isinstance(data, str):
            return data, label
        raise TypeError(f"{type(source).__name__}.read() returned {type(data).__name__}, "
                        "expected str or bytes")
    raise TypeError("a PGN source is a path (str or os.PathLike), bytes, PGN text or an open file, "
                    f"not {type(source).__name__}")

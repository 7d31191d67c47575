"""The game files a book is built from: PGN files, folders of them, and tar archives (.tar, .tar.gz,
.tar.xz) of them, in UTF-8, GBK or Big5.

engine.pgn guesses UTF-8 or GBK; GB18030 decodes most Big5 bytes into the wrong characters without an
error, so bytes that are not UTF-8 are decoded both ways here and the reading that shows more of the
notation's characters (simplified for GBK, traditional for Big5) wins.
"""
from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Iterable, Iterator, Tuple

# Characters of Chinese move notation as each encoding writes them.
_SIMPLIFIED = set("车马炮进退平帅将仕士相象兵卒")
_TRADITIONAL = set("車馬砲炮進退平帥將仕士相象兵卒俥傌")


def decode(data: bytes) -> str:
    """The text of a PGN file: UTF-8 (with or without BOM), else GBK or Big5, whichever reads as
    notation. Raises UnicodeDecodeError when none of them decodes it."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    readings = []
    for codec, marks in (("gb18030", _SIMPLIFIED), ("cp950", _TRADITIONAL)):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        readings.append((sum(ch in marks for ch in text), text))
    if not readings:
        raise UnicodeDecodeError("gb18030/cp950", data[:1], 0, 1, "neither UTF-8, GBK nor Big5")
    return max(readings, key=lambda r: r[0])[1]


def pgn_files(sources: Iterable[str]) -> Iterator[Tuple[str, bytes]]:
    """(name, bytes) of every PGN file of the sources: files, folders (their .pgn files, sorted) and tar
    archives (their .pgn members, in archive order). Raises OSError for a source that does not exist."""
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for member in sorted(path.rglob("*")):
                if member.is_file() and member.suffix.lower() == ".pgn":
                    yield str(member), member.read_bytes()
        elif path.is_file() and tarfile.is_tarfile(path):
            with tarfile.open(path) as archive:
                for member in archive:
                    if member.isfile() and member.name.lower().endswith(".pgn"):
                        handle = archive.extractfile(member)
                        if handle is not None:
                            yield member.name, handle.read()
        else:
            yield str(path), path.read_bytes()

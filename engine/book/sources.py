"""The game files a book is built from: game files (PGN, XQF, CBR, CBL, CBF, web pages with DhtmlXQ),
folders of them, and tar archives (.tar, .tar.gz, .tar.xz) of them, as bytes (engine.pgn finds their format
and encoding)."""
from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Iterable, Iterator, Sequence, Tuple

from ..pgn import SUFFIXES


def game_files(sources: Iterable[str], suffixes: Sequence[str] = SUFFIXES) -> Iterator[Tuple[str, bytes]]:
    """(name, bytes) of every game file of the sources: files, folders (their files ending in one of
    ``suffixes``, any case, sorted) and tar archives (those members, in archive order). Raises OSError for
    a source that does not exist."""
    endings = tuple(suffix.lower() for suffix in suffixes)
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for member in sorted(path.rglob("*")):
                if member.is_file() and member.name.lower().endswith(endings):
                    yield str(member), member.read_bytes()
        elif path.is_file() and tarfile.is_tarfile(path):
            with tarfile.open(path) as archive:
                for member in archive:
                    if member.isfile() and member.name.lower().endswith(endings):
                        handle = archive.extractfile(member)
                        if handle is not None:
                            yield member.name, handle.read()
        else:
            yield str(path), path.read_bytes()

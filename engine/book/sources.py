"""The game files a book is built from: PGN files, folders of them, and tar archives (.tar, .tar.gz,
.tar.xz) of them, as bytes (engine.pgn finds their encoding)."""
from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Iterable, Iterator, Tuple


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

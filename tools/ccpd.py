"""The Chinese Chess Practical Dataset's game records, as the tools read them.

The dataset (Yu-Han Tseng, CC BY 4.0; ../shared/data/ccpd-games.tar.xz) is a tar.xz of 53,893 PGN files
in Big5. engine.pgn finds that encoding by itself (the one under which the moves read); the tools, knowing
it, decode the files as cp950 (Microsoft's Big5) and hand the text over, which skips the search.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, Tuple

from engine.book import sources as book_sources

CREDIT = "Chinese Chess Practical Dataset, Yu-Han Tseng (CC BY 4.0)"


def pgn_files(source: Path) -> Iterator[Tuple[str, bytes]]:
    """(name, bytes) of each .pgn file of a tar archive or a folder (sorted), or of the file itself."""
    return book_sources.game_files([str(source)], suffixes=(".pgn",))


def decode(data: bytes) -> str:
    """The text of a PGN file in Big5 (cp950). Raises UnicodeDecodeError for bytes that are not."""
    return data.decode("cp950")

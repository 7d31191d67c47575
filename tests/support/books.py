"""Book files made for the tests: BHGUI's .obk (its key table and a small database) and where ElephantEye's
BOOK.DAT is (its sources beside the checkout, in shared/anchors)."""
from __future__ import annotations

import random
import sqlite3
import struct
from pathlib import Path

from engine.book import obk
from engine.book.keys import mirror_move
from support import SHARED

ELEEYE_ARCHIVE = SHARED / "anchors" / "eleeye-a9d3914.tar.gz"


def make_keys(path: Path, seed: int = 7) -> tuple:
    rng = random.Random(seed)
    keys = tuple(rng.getrandbits(64) for _ in range(obk.KEY_COUNT))
    path.write_bytes(struct.pack(f"<{obk.KEY_COUNT}Q", *keys))
    return keys


def make_obk(path: Path, keys: tuple, rows: list) -> None:
    """A small .obk: rows of (position, move, wins, draws, losses, stored as the mirror image)."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE bhobk(id INTEGER PRIMARY KEY AUTOINCREMENT, vkey INTEGER, vmove INTEGER, "
               "vscore INTEGER, vwin INTEGER, vdraw INTEGER, vlost INTEGER, vvalid INTEGER, vmemo TEXT, "
               "vindex INTEGER)")
    for position, move, wins, draws, losses, mirrored in rows:
        key = obk.obk_key(position, keys, mirrored)
        stored = mirror_move(move) if mirrored else move
        db.execute("INSERT INTO bhobk(vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vmemo, vindex) "
                   "VALUES (?, ?, 0, ?, ?, ?, 1, '', 0)",
                   (obk._signed(key), obk.encode_move(stored), wins, draws, losses))
    db.commit()
    db.close()

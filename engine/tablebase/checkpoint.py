"""A table's generation saved between two of its passes, so that a build stopped in the middle of a large
table (a killed process, a machine shut down, a lost worker) goes on from its last save instead of from
the start: the largest tables take longer than many runs last.

    NAME.jjtb-partial    in the tables' folder, beside the NAME.jjtb it becomes

    bytes 0-7      magic b"JJTBPART"
    8-11           version (u32, little-endian), 12-15 header length H (u32)
    16..16+H       the header: UTF-8 JSON: the material and its entries per side, what the generation
                   depends on (the kernel's build and the sub-tables' files), the step reached, the
                   generator's scalars, the seconds spent so far, and the sections that follow
    then           the sections, raw: the values with Red to move, with Black to move (2 bytes per
                   entry), then, while the draws are marked, their safe sides (a byte per entry),
                   or the distances to conversion likewise once begun
    last 32 bytes  SHA-256 of everything before them

A save is made at the end of a pass once SAVE_EVERY seconds have passed since the generation began or was
last saved, under a temporary name renamed into place, so a stop while saving leaves the previous save.
A save is used only when it is whole and everything it depends on is unchanged (the same kernel file, the
same sub-table files); any other is deleted, with a message, and the table built from the start. The
table's file, once written, makes its save useless: build.py deletes it.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import struct
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from .. import _core

SUFFIX = ".jjtb-partial"
MAGIC = b"JJTBPART"
VERSION = 1
#: The time between two saves: a stop loses at most this (and the pass under way). A save of the largest
#: table of the set (1.1 GB of arrays) takes a few seconds.
SAVE_EVERY = 20 * 60.0
_PREFIX = struct.Struct("<8sII")
_DIGEST = hashlib.sha256().digest_size     # this file's, and the one a table file ends with (fileformat)
_CHUNK = 1 << 24


def partial_path(table_file: Path) -> Path:
    """Where the save of the table to be written at table_file is kept."""
    return table_file.with_suffix(SUFFIX)


@functools.lru_cache(maxsize=None)
def kernel_digest() -> str:
    """The SHA-256 of the kernel's file: a save is resumed only by the generator that made it."""
    return hashlib.sha256(Path(_core.__file__).read_bytes()).hexdigest()


def file_identity(path: Path) -> list:
    """A table file's name, size and the SHA-256 its last 32 bytes hold (fileformat): which file it is."""
    with open(path, "rb") as handle:
        handle.seek(-_DIGEST, os.SEEK_END)
        return [Path(path).name, os.fstat(handle.fileno()).st_size, handle.read(_DIGEST).hex()]


class Checkpoint:
    """The save of one table's generation: give it to TbTable.generate (ext/tb_api.pxi)."""

    def __init__(self, path: Path, material: str, sub_table_files: Iterable[Path],
                 say: Callable[[str], None] = lambda message: None, save_every: Optional[float] = None) -> None:
        self.path = Path(path)
        self.material = material
        self.depends_on = {"kernel": kernel_digest(),
                           "sub_tables": sorted(file_identity(sub) for sub in sub_table_files)}
        self.say = say
        self.save_every = SAVE_EVERY if save_every is None else save_every
        self.seconds_before = 0.0          # spent on this table by the runs before the save resumed
        self.started = time.perf_counter()
        self.last_saved = self.started

    @property
    def seconds(self) -> float:
        """The whole generation's time so far, the runs before a resumed save included."""
        return self.seconds_before + time.perf_counter() - self.started

    def passed(self, table: "_core.TbTable", step: dict) -> None:
        """After a pass: save, if it is time. A save that fails (a full disk) costs only the save: the
        generation goes on, and tries again after the interval."""
        if time.perf_counter() - self.last_saved >= self.save_every:
            try:
                self.save(table, step)
            except OSError as exc:
                self.last_saved = time.perf_counter()
                self.say(f"{self.material}: could not save ({exc}); going on without")

    def save(self, table: "_core.TbTable", step: dict) -> None:
        sections = [("values", side, table.values_bytes(side)) for side in (0, 1)]
        if step["step"] == "marks":
            sections += [("safe", side, table.safe_bytes(side)) for side in (0, 1)]
        if table.has_dtc:
            sections += [("dtc", side, table.dtc_bytes(side)) for side in (0, 1)]
        header = {"material": self.material, "entries": table.size, "depends_on": self.depends_on,
                  "step": step, "scalars": table.generator_scalars(), "seconds": round(self.seconds, 3),
                  "sections": [[what, side, len(data)] for what, side, data in sections]}
        head = json.dumps(header).encode("utf-8")
        digest = hashlib.sha256()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".part", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                for data in [_PREFIX.pack(MAGIC, VERSION, len(head)), head] + [data for _, _, data in sections]:
                    for start in range(0, len(data), _CHUNK):
                        chunk = data[start:start + _CHUNK]
                        digest.update(chunk)
                        handle.write(chunk)
                handle.write(digest.digest())
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.path)
        except BaseException:
            os.unlink(temp)
            raise
        self.last_saved = time.perf_counter()
        self.say(f"{self.material}: saved at {_where(step)} to {self.path}")

    def resume(self, table: "_core.TbTable") -> Optional[dict]:
        """Load the save, if there is a usable one, into the table (TbTable.generate): its step, or None
        (and an unusable save deleted)."""
        if not self.path.exists():
            return None
        try:
            step = self._load(table)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self.say(f"{self.material}: {self.path} not used ({exc}); building from the start")
            self.discard()
            return None
        self.say(f"{self.material}: resumed at {_where(step)} from {self.path}")
        return step

    def _load(self, table: "_core.TbTable") -> dict:
        digest = hashlib.sha256()
        with open(self.path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            header, head_length = _read_header(handle, digest)
            if header["material"] != self.material or header["entries"] != table.size:
                raise ValueError(f"a save of {header['material']}")
            if header["depends_on"] != self.depends_on:
                raise ValueError("made by another kernel or from other sub-table files")
            expected = _PREFIX.size + head_length + sum(length for _, _, length in header["sections"]) + _DIGEST
            if size != expected:
                raise ValueError(f"{size} bytes, not {expected}")
            for what, side, length in header["sections"]:
                data = _read(handle, length, digest)
                if what == "values":
                    table.load_values(side, data)
                elif what == "safe":
                    table.load_safe(side, data)
                else:
                    table.load_dtc(side, data, header["scalars"]["dtc_limit"])
                del data
            if handle.read(_DIGEST) != digest.digest():
                raise ValueError("its SHA-256 does not match: damaged")
        table.restore_generator_scalars(header["scalars"])
        self.seconds_before = header["seconds"]
        return header["step"]

    def discard(self) -> None:
        """Delete the save (the table is written, or the save is unusable)."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


def describe_save(path: Path) -> Optional[str]:
    """What will become of the save at `path`, for a person ("its generation was saved (values of order
    0, pass 41, 1,238 s in) and goes on from there"), checking only its kernel (resume checks the rest);
    None when there is none or its header cannot be read."""
    try:
        with open(path, "rb") as handle:
            header, _ = _read_header(handle, hashlib.sha256())
        where = f"{_where(header['step'])}, {header['seconds']:,.0f} s in"
        if header["depends_on"]["kernel"] != kernel_digest():
            return f"a save of its generation ({where}) was made by another build of the kernel: not used"
        return f"its generation was saved ({where}) and goes on from there"
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _where(step: dict) -> str:
    """A step of TbTable.generate, for a person."""
    stage = {"values": f"values of order {step['order']}", "marks": "marks of the draws"}.get(
        step["step"], "distances to conversion")
    return f"{stage}, pass {step['pass']}"


def _read_header(handle, digest) -> tuple[dict[str, Any], int]:
    """A save's header (the file at its start) and its length; ValueError when it is not a save."""
    magic, version, head_length = _PREFIX.unpack(_read(handle, _PREFIX.size, digest))
    if magic != MAGIC or version != VERSION:
        raise ValueError("not a save of this version")
    return json.loads(_read(handle, head_length, digest)), head_length


def _read(handle, length: int, digest) -> bytearray:
    """`length` bytes of the file, hashed as they are read; ValueError when it ends first."""
    data = bytearray(length)
    view = memoryview(data)
    done = 0
    while done < length:
        got = handle.readinto(view[done:done + _CHUNK])
        if not got:
            raise ValueError("truncated")
        done += got
    digest.update(data)
    return data

"""The debug log: every protocol line in and out, with the time and the direction, as Stockfish and
Pikafish write theirs. It is what a GUI user sends with a report. Set by the option `Debug Log File`
(UCI and CECP; UCCI `debuglogfile`); an empty value turns it off.

    -- 2026-12-05 09:18:02.998 jiangjun 0.1.0 (3b078ea): debug log opened
    2026-12-05 09:18:03.120 >> position startpos moves h2e2
    2026-12-05 09:18:03.121 >> go movetime 500
    2026-12-05 09:18:03.402 << info depth 12 seldepth 28 multipv 1 score cp -34 ...
    2026-12-05 09:18:03.619 << bestmove b7e7 ponder e2e6

Each line: the local date and time to the millisecond, `>>` for a line the engine read or `<<` for one it
wrote (Stockfish's marks), a space and the line. The file is appended to (a GUI restarts its engine for
each game, and the earlier sessions stay), with a `--` line at each opening. Lines are written by the
protocol thread (input, before the command is carried out) and by the output writer (output, as it is
sent), each flushed at once, so that a crash loses nothing; the search never writes to it.
"""
from __future__ import annotations

import threading
from datetime import datetime
from typing import IO, Optional

#: The marks of a line read by the engine and of a line it wrote.
IN, OUT = ">>", "<<"
_LINE_END = "\r\n"


def _now() -> str:
    return datetime.now().isoformat(sep=" ", timespec="milliseconds")


class DebugLog:
    """One process's debug log, off until `open`; safe to write from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._file: Optional[IO[str]] = None
        self.path = ""

    @property
    def active(self) -> bool:
        return self._file is not None

    def open(self, path: str, header: str = "") -> None:
        """Log to `path` from now on (appended to), closing the file in use; "" turns the log off.
        Raises OSError when the file cannot be opened: the log is then off."""
        self.close()
        if not path:
            return
        handle = open(path, "a", encoding="utf-8", errors="replace")
        with self._lock:
            self._file, self.path = handle, path
        self._write(f"-- {_now()} {header}: debug log opened" if header else f"-- {_now()} debug log opened")

    def close(self) -> None:
        with self._lock:
            handle, self._file, self.path = self._file, None, ""
        if handle is not None:
            try:
                handle.close()
            except OSError:
                pass

    def incoming(self, line: str) -> None:
        """A line the engine read."""
        if self._file is not None:
            self._write(f"{_now()} {IN} {line.rstrip(_LINE_END)}")

    def outgoing(self, line: str) -> None:
        """A line the engine wrote."""
        if self._file is not None:
            self._write(f"{_now()} {OUT} {line.rstrip(_LINE_END)}")

    def _write(self, text: str) -> None:
        with self._lock:
            if self._file is None:
                return
            try:
                self._file.write(text + "\n")
                self._file.flush()
            except (OSError, ValueError):   # the disk is full, the file gone: stop logging, go on playing
                self._file = None
                self.path = ""

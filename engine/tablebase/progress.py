"""The progress line of `jiangjun tb build`, on stderr:

    tables 12/1,254 | entries 3.1M/38.1G (0.0%) | 0:12:03 | about 71:10:00 left | KNPKAABB

On a terminal the line is redrawn in place (every second, and when a table finishes); messages are printed
above it. Elsewhere (a CI log, a file) it is a plain line when a table finishes, and every minute while
nothing else is printed. What is left is estimated from the entries built so far in this run and the time
until the last of them was done (tables found on disk count as done, not as speed), so that the estimate
holds still while a large table is built.
"""
from __future__ import annotations

import threading
import time
from typing import IO, Optional

CLEAR_TO_END = "\x1b[K"


class ProgressLine:
    """Counts tables and entries as they are done, and shows them on a stream."""

    redraw_seconds = 1.0      # on a terminal
    plain_seconds = 60.0      # elsewhere: a line at least this often

    def __init__(self, stream: IO[str], tables: int, entries: int, terminal: Optional[bool] = None) -> None:
        self.stream = stream
        self.total_tables, self.total_entries = tables, entries
        self.terminal = stream.isatty() if terminal is None else terminal
        self.tables = self.entries = 0
        self.built_entries = 0
        self.built_seconds = 0.0      # from the start to the last table built
        self.busy: list[str] = []
        self.start = time.monotonic()
        self._lock = threading.RLock()
        self._last_line = self.start
        self._shown = False
        self._stop = threading.Event()
        self._ticker: Optional[threading.Thread] = None

    # --- Counting --------------------------------------------------------------------------------------
    def started(self, name: str) -> None:
        with self._lock:
            if name not in self.busy:
                self.busy.append(name)
            self._draw(plain=False)

    def finished(self, name: str, entries: int, built: bool) -> None:
        """A table done: built now (counts towards the speed) or found already built."""
        with self._lock:
            if name in self.busy:
                self.busy.remove(name)
            self.tables += 1
            self.entries += entries
            if built:
                self.built_entries += entries
                self.built_seconds = time.monotonic() - self.start
            self._draw(plain=True)

    def found(self, tables: int, entries: int) -> None:
        """Tables done before this run (found on disk): counted, shown once."""
        with self._lock:
            self.tables += tables
            self.entries += entries
            self._draw(plain=True)

    def stopped(self, name: str) -> None:
        """A table no longer in progress that is not done (it failed)."""
        with self._lock:
            if name in self.busy:
                self.busy.remove(name)

    # --- Showing -----------------------------------------------------------------------------------------
    def say(self, message: str) -> None:
        """A message of its own line; on a terminal the progress line is drawn again below it."""
        with self._lock:
            if self.terminal and self._shown:
                self.stream.write("\r" + CLEAR_TO_END)
            self.stream.write(message + "\n")
            self._shown = False
            if self.terminal:
                self._draw(plain=False)
            else:
                self._last_line = time.monotonic()
            self.stream.flush()

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        share = self.entries / self.total_entries if self.total_entries else 1.0
        parts = [f"tables {self.tables:,}/{self.total_tables:,}",
                 f"entries {_count(self.entries)}/{_count(self.total_entries)} ({share:.1%})",
                 _duration(elapsed), self._left()]
        if self.busy:
            parts.append(", ".join(self.busy[:3]) + (f" +{len(self.busy) - 3}" if len(self.busy) > 3 else ""))
        return " | ".join(parts)

    def _left(self) -> str:
        remaining = self.total_entries - self.entries
        if remaining <= 0:
            return "done"
        if not self.built_entries:
            return "time left unknown"
        return f"about {_duration(remaining * self.built_seconds / self.built_entries)} left"

    def _draw(self, plain: bool) -> None:
        """On a terminal: redraw in place. Elsewhere: a line when `plain` (a table finished)."""
        if self.terminal:
            self.stream.write("\r" + self.line() + CLEAR_TO_END)
            self._shown = True
        elif plain:
            self.stream.write(self.line() + "\n")
            self._last_line = time.monotonic()
        self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(self.redraw_seconds if self.terminal else 1.0):
            with self._lock:
                if self.terminal:
                    self._draw(plain=False)
                elif time.monotonic() - self._last_line >= self.plain_seconds:
                    self._draw(plain=True)

    def __enter__(self) -> "ProgressLine":
        self._draw(plain=True)
        self._ticker = threading.Thread(target=self._tick, name="tb-progress", daemon=True)
        self._ticker.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self.terminal and self._shown:
                self.stream.write("\n")
                self._shown = False
            self.stream.flush()


def _count(number: int) -> str:
    """1234 -> "1.2k", 38104661880 -> "38.1G"."""
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if number >= size:
            return f"{number / size:.1f}{unit}"
    return str(number)


def _duration(seconds: float) -> str:
    """3723.4 -> "1:02:03"."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"

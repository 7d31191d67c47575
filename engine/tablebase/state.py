"""The state file of a build, `build-state.json` in the tables' folder: the plan of the last run, the
tables done with each one's figures, and the runs, so that a build spread over several runs (interrupted,
resumed, some tables on a cluster) still gives the figures of every table. The files on disk decide what
is done; the state file only remembers how each was made.

    {"format": 1,
     "plan": [{"name": "KRK", "entries": 4860, "peak_bytes": ..., "needs": []}, ...],
     "tables": {"KRK": {"status": "built", "run": 1, "seconds": 0.02, "positions_per_second": ...,
                        "peak_rss_mb": ..., "file_bytes": ..., "passes": 3, "where": "host:pid",
                        "verified": false, "statistics": [{"win": ..., ...}, {...}]}, ...},
     "failed": {"KRKAABB": "the error"},
     "runs": [{"number": 1, "started": "2025-...", "ended": ..., "cluster": "local:2", "built": 9, ...}]}

A table's status is "built" (by a run of this file, with all its figures) or "found" (on disk before any
run recorded it: the figures its file's header gives, no peak memory). The file is replaced atomically.
"""
from __future__ import annotations

import datetime
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional

from .build import BuildReport
from .plan import BuildPlan

STATE_NAME = "build-state.json"
STATE_FORMAT = 1


class BuildState:
    """The state file of one folder of tables."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / STATE_NAME
        self.data: dict[str, Any] = {"format": STATE_FORMAT, "plan": [], "tables": {}, "failed": {}, "runs": []}
        self.unreadable: Optional[str] = None      # why an existing file was not used
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if data.get("format") != STATE_FORMAT:
                    raise ValueError(f"format {data.get('format')}")
                self.data = data
            except (OSError, ValueError, AttributeError) as exc:
                self.unreadable = f"{self.path}: {exc}; starting a new state file"

    @property
    def tables(self) -> dict[str, dict]:
        return self.data["tables"]

    @property
    def runs(self) -> list[dict]:
        return self.data["runs"]

    def begin_run(self, plan: BuildPlan, cluster: str, verify: bool) -> int:
        """Record a new run and its plan; its number."""
        number = len(self.runs) + 1
        self.data["plan"] = plan.as_json()
        self.data["failed"] = {}
        self.runs.append({"number": number, "started": _now(), "ended": None, "cluster": cluster or "",
                          "verify": verify, "tables": len(plan), "built": 0, "found": 0, "failed": 0,
                          "finished": False})
        self.save()
        return number

    def built(self, report: BuildReport, verified: bool) -> None:
        """A table this run built."""
        run = self.runs[-1]
        run["built"] += 1
        self.tables[report.name] = {
            "status": "built", "run": run["number"], "entries": report.entries,
            "seconds": round(report.seconds, 3), "passes": report.passes,
            "positions_per_second": round(report.positions_per_second),
            "peak_rss_mb": round(report.peak_rss_mb, 1), "file_bytes": report.file_bytes,
            "where": report.where, "verified": verified, "statistics": _statistics(report.statistics)}
        self.data["failed"].pop(report.name, None)
        self.save()

    def found(self, name: str, entries: int, file_bytes: int, header: dict) -> None:
        """A table already on disk: its figures are kept when a run recorded them (and its file is the
        same size), else taken from its header. Not saved yet (the caller saves once for many)."""
        self.runs[-1]["found"] += 1
        known = self.tables.get(name)
        if known is not None and known.get("file_bytes") == file_bytes:
            return
        generation = header.get("generation", {})
        seconds = generation.get("seconds", 0.0)
        self.tables[name] = {
            "status": "found", "run": None, "entries": entries, "seconds": seconds,
            "passes": generation.get("passes", 0),
            "positions_per_second": round(2 * entries / seconds) if seconds else 0,
            "peak_rss_mb": None, "file_bytes": file_bytes, "where": "", "verified": False,
            "statistics": _statistics(header.get("statistics", ()))}

    def failed(self, name: str, error: str) -> None:
        self.runs[-1]["failed"] += 1
        self.data["failed"][name] = error
        self.save()

    def end_run(self, finished: bool) -> None:
        """The run's end: `finished` when every table of the plan is done."""
        self.runs[-1].update(ended=_now(), finished=finished)
        self.save()

    def save(self) -> None:
        """Replace the file atomically (a temporary file renamed), so that a killed run leaves the last
        complete state."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".part", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.data, handle, indent=1, sort_keys=True)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.path)
        except BaseException:
            if os.path.exists(temp):
                os.unlink(temp)
            raise


_KEPT = ("win", "draw", "draw_rules", "loss", "illegal", "positions", "longest")


def _statistics(statistics) -> list[dict]:
    """Per side to move, the counts worth keeping (not the kernel's index of the longest win)."""
    return [{key: side[key] for key in _KEPT if key in side} for side in statistics]


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")

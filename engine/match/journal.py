"""The match journal (`-resume FILE`): every finished game, written as it is accepted, so that a runner that
was killed can be started again with the same command line and play only the games still missing.

The file is JSON lines. The first line names the match (a fingerprint of its schedule and engines, so that
a journal is never resumed into a different match) and where the match's games begin in its PGN file; each
further line is one finished game: its number and its GameRecord. A game is journaled (and the file synced)
before it is written to the PGN, so the journal is the truth: a resumed run cuts the PGN back to where the
match began and writes the journaled games again, which leaves each game in it exactly once even when the
runner died between the two writes or in the middle of a PGN game. A last journal line cut short by the kill
is ignored (that game is played again).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import MISSING, Field, asdict, fields
from typing import Iterable, Optional

from ..client import EngineConfig
from ..score import Score
from .endings import ending_of
from .openings import Opening
from .record import EngineIdentity, GameRecord, MoveEval
from .referee import Adjudication
from .table import EngineSpec, Job

FORMAT = "jiangjun-match-journal-1"


class JournalError(ValueError):
    """A journal that cannot be resumed: of another match, or not a journal at all."""


def fingerprint(parts: Iterable[object]) -> str:
    """A short digest of what makes two runs the same match (the schedule, the engines, the rules)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


#: The fields each value of a fingerprint had when the first journals were written: their reprs made the
#: fingerprints. A field added since counts only when it is not at its default, so that a match journaled
#: before it (an interrupted one, to be resumed) keeps its fingerprint.
FINGERPRINT_FIELDS: dict[type, tuple[str, ...]] = {
    EngineConfig: ("cmd", "name", "proto", "options", "workdir", "rank_base"),
    Adjudication: ("draw_movenumber", "draw_movecount", "draw_score", "resign_movecount", "resign_score",
                   "resign_twosided", "max_moves"),
}


def match_id(jobs: list[Job], engines: list[EngineSpec], adjudication: Adjudication, time_margin: float,
             stall_timeout: float) -> str:
    """The fingerprint of a match: its games, each engine's command, settings and time control, and how
    games are judged (-draw, -resign, -maxmoves, -noadjudicate, the clock's margin)."""
    return fingerprint([jobs, [(_Stable.of(spec.config), spec.tc) for spec in engines], _Stable.of(adjudication),
                        time_margin, stall_timeout])


class _Stable:
    """A dataclass's repr as it was when the first journals were written (FINGERPRINT_FIELDS)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    @classmethod
    def of(cls, value: object) -> "_Stable":
        first = FINGERPRINT_FIELDS[type(value)]
        later = [f.name for f in fields(value) if f.name not in first and getattr(value, f.name) != _default(f)]
        shown = ", ".join(f"{name}={getattr(value, name)!r}" for name in (*first, *later))
        return cls(f"{type(value).__qualname__}({shown})")


def _default(spec: Field) -> object:
    if spec.default is not MISSING:
        return spec.default
    return spec.default_factory() if spec.default_factory is not MISSING else MISSING


def record_to_dict(record: GameRecord) -> dict:
    """A GameRecord as a journal line holds it: the ending by its key, each score in centipawns."""
    data = asdict(record)
    data["termination"] = record.termination.value if record.termination is not None else ""
    data["evals"] = [None if note is None else {"score": None if note.score is None else note.score.value,
                                                "depth": note.depth, "time_ms": note.time_ms}
                     for note in record.evals]
    return data


def record_from_dict(data: dict) -> GameRecord:
    """The GameRecord of a journal line, of this version or an earlier one."""
    opening = data["opening"]
    evals = [None if note is None else MoveEval(None if note["score"] is None else Score(note["score"]),
                                                note["depth"], _time_ms(note))
             for note in data["evals"]]
    return GameRecord(
        red=data["red"], black=data["black"],
        opening=Opening(opening["name"], opening["fen"], tuple(opening["moves"])),
        moves=list(data["moves"]), comments=list(data["comments"]), evals=evals,
        result=data["result"], termination=ending_of(data["termination"]), detail=data["detail"],
        loser_index=data["loser_index"], clock_log=[tuple(entry) for entry in data["clock_log"]],
        identities=[EngineIdentity(**identity) for identity in data.get("identities", [])],
    )


def _time_ms(note: dict) -> float:
    """A move's time: journals before the one vocabulary (engine.search_types) kept it in seconds."""
    return note["time_ms"] if "time_ms" in note else note["seconds"] * 1000


class Journal:
    """An open journal. `Journal.open(path, match_id, pgn_path)` reads what an earlier run of the same match
    wrote (`finished`: game number -> GameRecord, in the order they finished) and prepares the PGN file;
    `add(number, record)` journals one more game."""

    def __init__(self, path: str, handle, finished: dict[int, GameRecord]) -> None:
        self.path = path
        self._handle = handle
        self.finished = finished

    @classmethod
    def open(cls, path: str, match_id: str, pgn_path: Optional[str]) -> "Journal":
        header, finished, complete = _read(path) if os.path.exists(path) and os.path.getsize(path) else (None, {}, 0)
        if header is not None and header.get("match") != match_id:
            raise JournalError(f"{path} is the journal of another match (its schedule, engines or rules differ); "
                               f"use a new -resume file for this one")
        if header is None:
            start = os.path.getsize(pgn_path) if pgn_path and os.path.exists(pgn_path) else 0
            header = {"format": FORMAT, "match": match_id, "pgn": pgn_path, "pgn_start": start}
            handle = open(path, "w", encoding="utf-8")
            handle.write(json.dumps(header) + "\n")
            _sync(handle)
        else:
            with open(path, "r+b") as raw:
                raw.truncate(complete)     # drop a line cut short, so the next one starts on a line of its own
            handle = open(path, "a", encoding="utf-8")
            if pgn_path and os.path.exists(pgn_path) and header.get("pgn") == pgn_path:
                # The journaled games are written again by the runner; whatever followed them goes.
                with open(pgn_path, "r+b") as pgn:
                    pgn.truncate(min(header.get("pgn_start", 0), os.path.getsize(pgn_path)))
        return cls(path, handle, finished)

    def add(self, number: int, record: GameRecord) -> None:
        self._handle.write(json.dumps({"game": number, "record": record_to_dict(record)}, ensure_ascii=False) + "\n")
        _sync(self._handle)

    def close(self) -> None:
        self._handle.close()


def _read(path: str) -> tuple[dict, dict[int, GameRecord], int]:
    """The header, the finished games, and the length of the file up to its last complete line."""
    with open(path, "rb") as handle:
        data = handle.read()
    complete = data.rfind(b"\n") + 1     # a last line without its newline was cut short by a kill
    lines = data[:complete].decode("utf-8").split("\n")[:-1]
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{path} is not a match journal")
    finished: dict[int, GameRecord] = {}
    for number, line in enumerate(lines[1:], 2):
        try:
            entry = json.loads(line)
            record = record_from_dict(entry["record"])
        except (ValueError, KeyError, TypeError):
            raise JournalError(f"{path}:{number}: not a journal line") from None
        finished.setdefault(entry["game"], record)
    return header, finished, complete


def _sync(handle) -> None:
    handle.flush()
    os.fsync(handle.fileno())

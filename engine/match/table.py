"""A table of the match: the engine processes kept there between games, and the games played there one at
a time. The local runner has one table per thread (-concurrency); on a cluster each worker thread has one
(engine.match.cluster). Either way a Job goes in and a GameRecord comes out: the table knows nothing of
scores, files or where its results go."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from ..client import EngineConfig, EngineError, EngineProcess, open_process
from ..color import Color
from .endings import PROCESS_FAULTS, MatchTermination, Verdict
from .game import Player, play_game
from .openings import Opening
from .record import GameRecord
from .referee import Adjudication
from .timecontrol import TimeControl


@dataclass
class EngineSpec:
    """An engine of the match: how to start it, and its time control."""

    config: EngineConfig
    tc: TimeControl


@dataclass(frozen=True)
class Job:
    number: int          # 1-based game number
    first: int           # engine indices; `first` plays Red
    second: int
    opening: Opening


@dataclass
class GameRules:
    """What a table needs to play any game of the match: the engines and how games are judged. Small (no
    openings: each Job carries its own), since a cluster sends it with every game."""

    engines: list[EngineSpec]
    adjudication: Adjudication = field(default_factory=Adjudication)
    time_margin: float = 0.1
    stall_timeout: float = 60.0


# The display name of engine `index`, once its process has started (it may answer with its `id name`).
Namer = Callable[[int, EngineProcess], str]


class GameTable:
    """Plays Jobs one at a time, keeping each engine's process for the next game (after `new_game`) and
    replacing one that crashed, hung or overran its clock. `close()` ends the processes."""

    def __init__(self, rules: GameRules, namer: Namer) -> None:
        self.rules = rules
        self._namer = namer
        self._processes: dict[int, EngineProcess] = {}

    def play(self, job: Job, stop: threading.Event) -> GameRecord:
        """The game of `job`: result "*" when `stop` interrupted it."""
        players = []
        for side, index in enumerate((job.first, job.second)):
            spec = self.rules.engines[index]
            try:
                process = self._ready_process(index)
            except EngineError as exc:
                names = [self.rules.engines[i].config.name or self.rules.engines[i].config.cmd
                         for i in (job.first, job.second)]
                return GameRecord(names[0], names[1], job.opening).finish(Verdict.loss(
                    Color.of_index(side), MatchTermination.CRASH, f"{names[side]} could not start: {exc}",
                    at_fault=False))
            players.append(Player(process, self._namer(index, process), spec.tc))
        record = play_game(players[0], players[1], job.opening, self.rules.adjudication,
                           self.rules.time_margin, self.rules.stall_timeout, stop)
        if record.loser_index is not None and record.termination in PROCESS_FAULTS:
            # A process that crashed, hung or lost track of the game is replaced before its next game.
            failed = self._processes.pop((job.first, job.second)[record.loser_index], None)
            if failed is not None:
                failed.quit()
        return record

    def _ready_process(self, index: int) -> EngineProcess:
        """Engine `index`'s process, started if needed, told that a new game starts."""
        process = self._processes.get(index)
        try:
            if process is None or not process.alive:
                if process is not None:
                    process.quit()
                process = self._processes[index] = open_process(self.rules.engines[index].config)
                process.start()
            process.new_game()
        except EngineError:
            self._processes.pop(index, None)
            raise
        return process

    def close(self) -> None:
        for process in self._processes.values():
            process.quit()
        self._processes.clear()

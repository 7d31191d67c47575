"""A match: the schedule of games between engines, workers that play them in parallel, the running
score, SPRT, the final table and the PGN file."""
from __future__ import annotations

import queue
import random
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional, TextIO

from .journal import Journal, match_id
from .openings import Opening
from .pgn import game_pgn
from .record import GameRecord
from .referee import Adjudication
from .stats import Sprt
from .summary import PairScore, results_table, score_line
from .table import EngineSpec, GameRules, GameTable, Job

__all__ = ["EngineSpec", "Job", "Match", "MatchConfig", "PairScore", "TOURNAMENTS", "schedule"]

#: How the engines meet (cutechess-cli's -tournament): every pair, or the first engine against each other.
TOURNAMENTS = ("round-robin", "gauntlet")


@dataclass
class MatchConfig:
    engines: list[EngineSpec]
    openings: list[Opening]
    tournament: str = "round-robin"   # or "gauntlet": engine 0 against each of the others
    games: int = 1                 # games per pair of engines in each round
    rounds: int = 1
    concurrency: int = 1
    repeat: bool = False           # play each opening twice, with colours swapped
    random_order: bool = False     # openings in random order (seeded) instead of file order
    seed: int = 0
    adjudication: Adjudication = field(default_factory=Adjudication)
    sprt: Optional[Sprt] = None
    pgn_path: Optional[str] = None
    pgn_notation: str = "iccs"
    time_margin: float = 0.1       # seconds an engine may overrun its clock before it forfeits
    stall_timeout: float = 60.0    # seconds to wait for a move under depth/nodes limits
    event: str = "jiangjun match"
    cluster: Optional[str] = None  # play on a Dask cluster: "tcp://HOST:PORT" or "local:N" (engine.match.cluster)
    resume_path: Optional[str] = None  # the journal of finished games (engine.match.journal)

    def rules(self) -> GameRules:
        return GameRules(self.engines, self.adjudication, self.time_margin, self.stall_timeout)


def schedule(config: MatchConfig) -> list[Job]:
    """Every game of the match, in order: for each round, each pair, each game of the pair. The pairs are
    every two engines (round-robin), or engine 0 and each other (gauntlet)."""
    if config.tournament not in TOURNAMENTS:
        raise ValueError(f"tournament {config.tournament!r}: expected one of {', '.join(TOURNAMENTS)}")
    openings = list(config.openings)
    if config.random_order:
        random.Random(config.seed).shuffle(openings)
    n = len(config.engines)
    if config.tournament == "gauntlet":
        pairs = [(0, j) for j in range(1, n)]
    else:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    jobs = []
    per_pair = [0] * len(pairs)
    for _ in range(config.rounds):
        for index, (i, j) in enumerate(pairs):
            for _ in range(config.games):
                k = per_pair[index]
                per_pair[index] += 1
                opening = openings[(k // 2 if config.repeat else k) % len(openings)]
                first, second = (i, j) if k % 2 == 0 else (j, i)
                jobs.append(Job(len(jobs) + 1, first, second, opening))
    return jobs


def game_pairs(jobs: list[Job]) -> dict[int, tuple[int, int, int]]:
    """Under -repeat, the game pair of each game of the schedule: (engine, engine, n) for the n-th pair of
    games of those two engines, the same opening with the colours swapped, as schedule() makes them."""
    played: Counter = Counter()
    pairs = {}
    for job in jobs:
        engines = tuple(sorted((job.first, job.second)))
        pairs[job.number] = engines + (played[engines] // 2,)
        played[engines] += 1
    return pairs


class Match:
    """Runs a match. `run()` returns the scores; progress goes to `out`.

    The games (Jobs of the schedule) are played by GameTables: one per thread here, or one per worker thread
    of a Dask cluster (engine.match.cluster). Either way every finished game comes back through `_accept`,
    which takes each game number once and is the only place that counts, journals, writes the PGN and
    decides the SPRT."""

    def __init__(self, config: MatchConfig, out: TextIO = sys.stdout) -> None:
        if len(config.engines) < 2:
            raise ValueError("a match needs at least two engines (-engine ... -engine ...)")
        if config.sprt is not None and len(config.engines) != 2:
            raise ValueError("SPRT needs exactly two engines")
        self.config = config
        self.out = out
        # Display names: the -engine name=, else the engine's `id name` once it has started.
        self.names: list[Optional[str]] = [spec.config.name for spec in config.engines]
        self.scores: dict[tuple[int, int], PairScore] = {}
        self.records: list[GameRecord] = []           # the finished games, in the order they finished
        self.games: dict[int, GameRecord] = {}       # ... by game number
        self.stop = threading.Event()
        self.sprt_verdict: Optional[str] = None
        self._lock = threading.Lock()
        self._finished = 0
        self._journal: Optional[Journal] = None
        self._game_pairs: dict[int, tuple[int, int, int]] = {}   # game number -> its game pair (-repeat)

    # -- running ----------------------------------------------------------------------------
    def run(self) -> dict[tuple[int, int], PairScore]:
        jobs = schedule(self.config)
        self._game_pairs = game_pairs(jobs) if self.config.repeat else {}
        if self.config.resume_path:
            self._resume(jobs)
        pending = [job for job in jobs if job.number not in self.games]
        try:
            if pending and not self.stop.is_set():
                if self.config.cluster:
                    from .cluster import play_on_cluster   # imports Dask: only for -cluster

                    play_on_cluster(self.config.cluster, self.config.rules(), pending, self._accept,
                                    self._name, self.stop, self._say)
                else:
                    self._play_here(pending)
        except KeyboardInterrupt:
            self.stop.set()
            self._say("Interrupted: games in progress are not counted")
        finally:
            if self._journal is not None:
                self._journal.close()
        self._say(self.summary())
        return self.scores

    def _play_here(self, pending: list[Job]) -> None:
        """Play the games on this machine, `concurrency` at a time."""
        jobs: queue.Queue[Job] = queue.Queue()
        for job in pending:
            jobs.put(job)
        workers = [threading.Thread(target=self._work, args=(jobs,), daemon=True, name=f"game-worker-{i}")
                   for i in range(max(1, self.config.concurrency))]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(0.2)
        except BaseException:
            self.stop.set()     # Ctrl-C: the games in progress end now
            raise
        finally:
            for worker in workers:
                worker.join(10)

    def _work(self, jobs: "queue.Queue[Job]") -> None:
        table = GameTable(self.config.rules(), lambda index, process: self._name(index, process.name))
        try:
            while not self.stop.is_set():
                try:
                    job = jobs.get_nowait()
                except queue.Empty:
                    return
                self._accept(job, table.play(job, self.stop))
        finally:
            table.close()

    def _name(self, index: int, reported: str) -> str:
        """Engine `index`'s display name, fixed the first time it is asked for: the -engine name=, else the
        name its process reported (its `id name`), made unique among the engines."""
        with self._lock:
            if self.names[index] is None:
                name = reported
                if name in self.names:
                    name = f"{name}#{index + 1}"
                self.names[index] = name
            return self.names[index]

    def _display(self, index: int) -> str:
        return self.names[index] or self.config.engines[index].config.cmd

    # -- results ----------------------------------------------------------------------------
    def _resume(self, jobs: list[Job]) -> None:
        """Open the journal; count the games an earlier run of this match finished, and write them to the PGN
        again (the journal cut it back to where the match began)."""
        config = self.config
        self._journal = Journal.open(config.resume_path, self.fingerprint(jobs), config.pgn_path)
        by_number = {job.number: job for job in jobs}
        for number, record in self._journal.finished.items():
            self._count(by_number[number], record)
            if config.pgn_path:
                self._write_pgn(by_number[number], record)
        if self._journal.finished:
            self._say(f"Resumed from {config.resume_path}: {len(self._journal.finished)} games already played, "
                      f"{len(jobs) - len(self._journal.finished)} to play")
            for (i, j), pair in sorted(self.scores.items()):
                self._say(self._score_line(i, j, pair))
            pair = self.scores.get((0, 1))
            if pair is not None:
                self._judge_sprt(pair)

    def fingerprint(self, jobs: list[Job]) -> str:
        """What the journal knows this match by (engine.match.journal.match_id)."""
        config = self.config
        return match_id(jobs, config.engines, config.adjudication, config.time_margin, config.stall_timeout)

    def _accept(self, job: Job, record: GameRecord) -> None:
        """A game came back from a table: count it once, unless it was interrupted or the match has stopped."""
        if record.result == "*":
            return
        with self._lock:
            if self.stop.is_set() or job.number in self.games:   # a game is taken once
                return
            if self._journal is not None:
                self._journal.add(job.number, record)   # before the PGN: the journal is the truth
            i, j, pair = self._count(job, record)
            if self.config.pgn_path:
                self._write_pgn(job, record)
            self._say(f"Finished game {job.number} ({record.red} vs {record.black}): "
                      f"{record.result} {{{record.detail}}}")
            self._say(self._score_line(i, j, pair))
            self._judge_sprt(pair)

    def _count(self, job: Job, record: GameRecord) -> tuple[int, int, PairScore]:
        self._finished += 1
        self.records.append(record)
        self.games[job.number] = record
        i, j = sorted((job.first, job.second))
        pair = self.scores.setdefault((i, j), PairScore())
        red_points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[record.result]
        pair.add(red_points if job.first == i else 1 - red_points, record.termination,
                 self._game_pairs.get(job.number))
        return i, j, pair

    def _judge_sprt(self, pair: PairScore) -> None:
        """Stop the match once the SPRT decides: on the pentanomial counts of the finished game pairs when
        the match plays pairs (-repeat), else on the games' trinomial counts."""
        sprt = self.config.sprt
        if sprt is None:
            return
        if pair.pentanomial is not None:
            llr, model = sprt.llr_pairs(pair.pentanomial), "pentanomial"
        else:
            llr, model = sprt.llr(pair.wins, pair.draws, pair.losses), "trinomial"
        verdict = sprt.verdict(llr)
        if verdict:
            self.sprt_verdict = (f"SPRT ({model}): llr {llr:.2f}, bounds [{sprt.lower:.2f}, "
                                 f"{sprt.upper:.2f}]: {verdict}; match stopped")
            self._say(self.sprt_verdict)
            self.stop.set()

    def _score_line(self, i: int, j: int, pair: PairScore) -> str:
        return score_line(self._display(i), self._display(j), pair)

    def summary(self) -> str:
        """The final table (engine.match.summary)."""
        return results_table(self.scores, self._display, self._finished, self.sprt_verdict,
                             gauntlet=self.config.tournament == "gauntlet" and len(self.config.engines) > 2)

    def _write_pgn(self, job: Job, record: GameRecord) -> None:
        red, black = (self.config.engines[index].tc.pgn_tag() for index in (job.first, job.second))
        text = game_pgn(record, job.number, self.config.event, (red, black), self.config.pgn_notation)
        with open(self.config.pgn_path, "a", encoding="utf-8") as handle:
            handle.write(text.rstrip("\n") + "\n\n")

    def _say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

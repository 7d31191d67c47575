"""A match: the schedule of games between engines, workers that play them in parallel, the running
score, SPRT, the final table and the PGN file."""
from __future__ import annotations

import datetime
import queue
import random
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional, TextIO

from ..client import EngineConfig, EngineError, EngineProcess
from ..fen import START_FEN
from .game import TERMINATIONS, Adjudication, GameRecord, MatchTermination, Player, play_game
from .openings import Opening
from .stats import Sprt, draw_ratio, elo_difference, likelihood_of_superiority
from .timecontrol import TimeControl


@dataclass
class EngineSpec:
    """An engine of the match: how to start it, and its time control."""

    config: EngineConfig
    tc: TimeControl


@dataclass
class MatchConfig:
    engines: list[EngineSpec]
    openings: list[Opening]
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


@dataclass(frozen=True)
class Job:
    number: int          # 1-based game number
    first: int           # engine indices; `first` plays Red
    second: int
    opening: Opening


@dataclass
class PairScore:
    """The results of one pair of engines, from the first engine's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    terminations: Counter = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def schedule(config: MatchConfig) -> list[Job]:
    """Every game of the match, in order: for each round, each pair, each game of the pair."""
    openings = list(config.openings)
    if config.random_order:
        random.Random(config.seed).shuffle(openings)
    n = len(config.engines)
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


class Match:
    """Runs a match. `run()` returns the scores; progress goes to `out`."""

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
        self.records: list[GameRecord] = []
        self.stop = threading.Event()
        self.sprt_verdict: Optional[str] = None
        self._lock = threading.Lock()
        self._finished = 0

    # -- running ----------------------------------------------------------------------------
    def run(self) -> dict[tuple[int, int], PairScore]:
        jobs: queue.Queue[Job] = queue.Queue()
        for job in schedule(self.config):
            jobs.put(job)
        workers = [threading.Thread(target=self._work, args=(jobs,), daemon=True, name=f"game-worker-{i}")
                   for i in range(max(1, self.config.concurrency))]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(0.2)
        except KeyboardInterrupt:
            self.stop.set()
            self._say("Interrupted: finishing (games in progress are not counted)")
            for worker in workers:
                worker.join(10)
        self._say(self.summary())
        return self.scores

    def _work(self, jobs: "queue.Queue[Job]") -> None:
        processes: dict[int, EngineProcess] = {}
        try:
            while not self.stop.is_set():
                try:
                    job = jobs.get_nowait()
                except queue.Empty:
                    return
                record = self._play(job, processes)
                if record is not None and not self.stop.is_set():
                    self._record(job, record)
        finally:
            for process in processes.values():
                process.quit()

    def _play(self, job: Job, processes: dict[int, EngineProcess]) -> Optional[GameRecord]:
        players = []
        for side, index in enumerate((job.first, job.second)):
            spec = self.config.engines[index]
            process = processes.get(index)
            try:
                if process is None or not process.alive:
                    if process is not None:
                        process.quit()
                    process = processes[index] = EngineProcess(spec.config)
                    process.start()
                process.new_game()
            except EngineError as exc:
                processes.pop(index, None)
                names = [self.names[i] or self.config.engines[i].config.cmd for i in (job.first, job.second)]
                record = GameRecord(names[0], names[1], job.opening)
                record.result = "0-1" if side == 0 else "1-0"
                record.termination = MatchTermination.CRASH
                record.detail = f"{names[side]} could not start: {exc}"
                return record
            players.append(Player(process, self._name(index, process), spec.tc))
        record = play_game(players[0], players[1], job.opening, self.config.adjudication,
                           self.config.time_margin, self.config.stall_timeout, self.stop)
        if record.loser_index is not None and record.termination in (MatchTermination.CRASH, MatchTermination.HANG,
                                                                     MatchTermination.TIME_FORFEIT):
            # A process that crashed or hung is replaced before its next game.
            index = (job.first, job.second)[record.loser_index]
            failed = processes.pop(index, None)
            if failed is not None:
                failed.quit()
        return None if record.result == "*" else record

    def _name(self, index: int, process: EngineProcess) -> str:
        with self._lock:
            if self.names[index] is None:
                name = process.name
                if name in self.names:
                    name = f"{name}#{index + 1}"
                self.names[index] = name
            return self.names[index]

    def _display(self, index: int) -> str:
        return self.names[index] or self.config.engines[index].config.cmd

    # -- results ----------------------------------------------------------------------------
    def _record(self, job: Job, record: GameRecord) -> None:
        with self._lock:
            self._finished += 1
            self.records.append(record)
            i, j = sorted((job.first, job.second))
            pair = self.scores.setdefault((i, j), PairScore())
            first_is_red = job.first == i
            if record.result == "1/2-1/2":
                pair.draws += 1
            elif (record.result == "1-0") == first_is_red:
                pair.wins += 1
            else:
                pair.losses += 1
            pair.terminations[record.termination] += 1
            if self.config.pgn_path:
                self._write_pgn(job, record)
            self._say(f"Finished game {job.number} ({record.red} vs {record.black}): "
                      f"{record.result} {{{record.detail}}}")
            self._say(self._score_line(i, j, pair))
            if self.config.sprt is not None:
                verdict = self.config.sprt.status(pair.wins, pair.draws, pair.losses)
                if verdict:
                    llr = self.config.sprt.llr(pair.wins, pair.draws, pair.losses)
                    self.sprt_verdict = (f"SPRT: llr {llr:.2f}, bounds [{self.config.sprt.lower:.2f}, "
                                         f"{self.config.sprt.upper:.2f}]: {verdict}; match stopped")
                    self._say(self.sprt_verdict)
                    self.stop.set()

    def _score_line(self, i: int, j: int, pair: PairScore) -> str:
        total = pair.games
        score = (pair.wins + pair.draws / 2) / total
        elo, error = elo_difference(pair.wins, pair.draws, pair.losses)
        return (f"Score of {self._display(i)} vs {self._display(j)}: {pair.wins} - {pair.losses} - {pair.draws}  "
                f"[{score:.3f}] {total}   Elo {_fmt_elo(elo)} +/- {_fmt_elo(error, signed=False)}")

    def summary(self) -> str:
        """The final table: per pair W/D/L, score, Elo with its 95% margin, LOS, draw ratio, endings."""
        lines = [f"Results ({self._finished} games)"]
        if not self.scores:
            lines.append("  no game was finished")
        for (i, j), pair in sorted(self.scores.items()):
            elo, error = elo_difference(pair.wins, pair.draws, pair.losses)
            los = likelihood_of_superiority(pair.wins, pair.losses)
            score = (pair.wins + pair.draws / 2) / pair.games
            lines.append(f"  {self._display(i)} vs {self._display(j)}: W {pair.wins}  D {pair.draws}  L {pair.losses}  "
                         f"score {score:.3f}  Elo {_fmt_elo(elo)} +/- {_fmt_elo(error, signed=False)}  "
                         f"LOS {los * 100:.1f}%  draws {draw_ratio(pair.wins, pair.draws, pair.losses) * 100:.1f}%")
            endings = ", ".join(f"{TERMINATIONS[key].words} {count}" for key, count in
                                sorted(pair.terminations.items(), key=lambda kv: list(TERMINATIONS).index(kv[0])))
            lines.append(f"    endings: {endings}")
        if self.sprt_verdict:
            lines.append("  " + self.sprt_verdict)
        return "\n".join(lines)

    def _write_pgn(self, job: Job, record: GameRecord) -> None:
        from ..pgn import Game, write_game
        from ..pgn.xboard import eval_comment

        spec_tcs = {self.config.engines[job.first].tc.pgn_tag(), self.config.engines[job.second].tc.pgn_tag()}
        headers = {
            "Game": "Chinese Chess",
            "Event": self.config.event,
            "Site": "?",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "Round": str(job.number),
            "Red": record.red,
            "Black": record.black,
            "Result": record.result,
        }
        if record.opening.fen != START_FEN:
            headers["FEN"] = record.opening.fen
        headers["Opening"] = record.opening.name
        headers["TimeControl"] = " / ".join(sorted(spec_tcs))
        ending = TERMINATIONS.get(record.termination)
        headers["Termination"] = record.termination if ending is None else ending.words
        headers["PlyCount"] = str(len(record.moves))
        comments = list(record.comments)
        if self.config.pgn_notation == "san":  # XBoard's own comments, {+0.12/9 4}, which it reads back
            comments = [comment if note is None else eval_comment(note.score, note.depth, note.seconds)
                        for comment, note in zip(comments, record.evals)]
        game = Game(headers=headers, moves=list(record.moves), comments=comments,
                    result=record.result, start_comment=record.detail)
        text = write_game(game, notation=self.config.pgn_notation)
        with open(self.config.pgn_path, "a", encoding="utf-8") as handle:
            handle.write(text.rstrip("\n") + "\n\n")

    def _say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()


def _fmt_elo(value: float, signed: bool = True) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        return "inf" if value == float("inf") or not signed else "-inf"
    return f"{value:+.1f}" if signed else f"{value:.1f}"

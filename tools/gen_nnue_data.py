"""Generate training positions for the NNUE: self-play games, or master games, scored by a search.

    python tools/gen_nnue_data.py selfplay -o selfplay.bin [--games 100] [--nodes 5000 | --depth D]
        [--teacher CMD] [--seed 1] [--workers 1] [--openings FILE] [--random-plies 4] [--max-plies 300]
        [--resign 2000] [--cluster tcp://HOST:8786 | local:N]
    python tools/gen_nnue_data.py master -o master.bin [--games 500] [--nodes 5000 | --depth D]
        [--teacher CMD] [--seed 1] [--workers 1] [--archive ../shared/data/ccpd-games.tar.xz]
        [--skip N] [--cluster tcp://HOST:8786 | local:N]

The search that scores the positions (and plays the self-play games) is this engine hosted in each
worker's process (the kernel's Searcher, as the engine runs it: one thread, the shipped network or
--evalfile's, or the hand-crafted evaluation with --hce; no book, no tablebases), or with --teacher
another UCI engine, such as Pikafish-HCE, each worker with a process of its own; a fixed node count per
move or, with --depth, a fixed depth.

selfplay: games of the search against itself, each from a line of the match book
(engine/match/book.txt) or of --openings chosen at random and followed by --random-plies uniformly
random legal moves for variety. A game ends by the rules
(Position.outcome()); one longer than --max-plies is a draw; one in which the side to move's score has
stayed beyond --resign centipawns (or a mate) for --resign-plies consecutive plies, both sides agreeing,
is adjudicated to the side ahead.

master: the master games of the Chinese Chess Practical Dataset (Yu-Han Tseng, 2026, CC BY 4.0), a
tar.xz of Big5-encoded PGN files. engine.pgn guesses UTF-8 or GBK (GB18030 decodes most Big5 bytes into
the wrong characters without an error), so this tool decodes each file as cp950 (Microsoft's Big5) itself;
files that do not decode or read, and games without a result, are counted and skipped. --games distinct
games (the archive files the same game under player, event and opening) are taken in an order shuffled
by the seed; every position of them is searched. --skip N goes on from a run with the same seed that was
stopped after N games: those are passed over (their positions still count as seen).

Which positions are kept (both sources): each position is searched with --nodes nodes (the transposition
table and history are cleared at the start of each game, so a game's records do not depend on which
worker played it); it is kept when the side to move is not in check and the search's best move is not a
capture. Those are the positions whose static value the search score describes: in check or facing a
capture, the score belongs to the tactics that follow, which the network at the leaves never has to
judge. A position already written in this run (same pieces, same side to move) is not written again.
The label is the search score (centipawns, side to move's view; mates as +-10000, see nnue_data) and
the game's result.

The output is a training-position file (tools/nnue_data.py), written as games finish, in game order:
the same seed and options give the same file whatever --workers is, or --cluster. Progress goes to stderr.

--cluster plays the games on a Dask cluster instead of --workers local processes (engine.cluster): a
running scheduler (it and its workers started with PYTHONPATH=CHECKOUT:CHECKOUT/tools, since both unpickle
the tasks: `dask worker tcp://HOST:8786 --nworkers CORES --nthreads 1`, with the teacher's command
runnable on the workers), or local:N worker processes.
Each game is one task; each worker process opens its engine (or teacher process) once.
"""
from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional

import ccpd
from nnue_data import RecordWriter, describe, pack_record, read_records

from engine import _core, nets
from engine.client import EngineConfig, EngineError, open_process
from engine.search_types import SearchLimits
from engine.match.openings import default_book, load_openings
from engine.nets.loader import NetworkLoader
from engine.pgn import PgnError, read_games
from engine.position import Position
from engine.score import MATE_BOUND

CREDIT = ccpd.CREDIT
DEFAULT_ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "data" / "ccpd-games.tar.xz"
RESULTS_FOR_RED = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}
PROGRESS_SECONDS = 10.0


@dataclass(frozen=True)
class SearchSettings:
    """How each position is scored: by our in-process searcher, or by a teacher (another UCI engine's
    command, e.g. Pikafish-HCE); with `nodes` per search, or to `depth` when it is set."""

    nodes: int
    hash_mb: int
    depth: Optional[int] = None
    teacher: Optional[str] = None
    openings: Optional[str] = None      # the self-play starts (engine/match/openings formats); None: the match book
    hce: bool = False                   # our search with the hand-crafted evaluation instead of the network
    eval_file: str = nets.DEFAULT       # our search's network (engine.nets.locate finds it)


@dataclass(frozen=True)
class SelfPlayGame:
    """One self-play game to play: its number and the seed of its random choices."""

    number: int
    seed: int
    random_plies: int
    max_plies: int
    resign: int
    resign_plies: int


@dataclass(frozen=True)
class MasterGame:
    """One master game to score: its number, start, moves, result and the plies to search (the others
    were reached in earlier games)."""

    number: int
    fen: str
    moves: tuple[str, ...]
    result_for_red: int
    plies: tuple[int, ...]


@dataclass
class GameRecords:
    """What a worker sends back for a game: the keys and records of the positions kept, the number of
    positions searched, and the result for Red; `abandoned` when the teacher failed in it (no records)."""

    number: int
    keys: list[int]
    records: list[bytes]
    searched: int
    result_for_red: int
    abandoned: bool = False


# -- the worker ---------------------------------------------------------------------------------------

class OwnSearch:
    """Scores positions with this engine's search called in process (the kernel's Searcher, as the engine
    runs it, without the protocol): one thread, the network settings.eval_file (the shipped one by
    default) loaded into this process's kernel, or the hand-crafted evaluation with settings.hce; no book
    and no tablebases. The position carries the game's moves, so that the search judges its repetitions."""

    def __init__(self, settings: SearchSettings) -> None:
        if not settings.hce:
            NetworkLoader(settings.eval_file).load(settings.eval_file)
        self._searcher = _core.Searcher(settings.hash_mb, 1)
        self._searcher.use_nnue = not settings.hce
        self._limits = {"depth": settings.depth} if settings.depth else {"nodes": settings.nodes}

    def restart(self) -> None:
        self._searcher.clear()

    def new_game(self) -> None:
        self._searcher.clear()

    def search(self, position: Position) -> tuple[int, str]:
        report = self._searcher.search(position.kernel_board, **self._limits)
        if report.bestmove is None:
            raise RuntimeError(f"no move for {position.fen()}")
        return report.score, report.bestmove


class TeacherEngine:
    """Scores positions with another engine through UCI (the position as a FEN: the teacher judges the
    pieces, the game's history is ours to rule on)."""

    def __init__(self, settings: SearchSettings) -> None:
        self._settings = settings
        self._start()
        self._limits = SearchLimits(depth=settings.depth) if settings.depth else SearchLimits(nodes=settings.nodes)

    def _start(self) -> None:
        self._engine = open_process(EngineConfig(self._settings.teacher, proto="uci"))
        self._engine.start()
        if self._engine.option_name("Hash"):
            self._engine.set_option("Hash", str(self._settings.hash_mb))

    def restart(self) -> None:
        """Stop the teacher (killing it if it does not quit) and start a new process."""
        self._engine.quit()
        self._start()

    def new_game(self) -> None:
        self._engine.new_game()

    def search(self, position: Position) -> tuple[int, str]:
        result = self._engine.go(position.fen(), [], position.turn, self._limits, timeout=60)
        if result.bestmove is None or result.score is None:
            raise RuntimeError(f"teacher {self._engine.name}: no move or score for {position.fen()}")
        return result.score.value, result.bestmove


_scorer = None
_settings: Optional[SearchSettings] = None
_book: Optional[list] = None


def _start_worker(settings: SearchSettings) -> None:
    global _scorer, _settings, _book
    _scorer = TeacherEngine(settings) if settings.teacher else OwnSearch(settings)
    _settings = settings
    _book = load_openings(settings.openings) if settings.openings else default_book()


def _result_of(position: Position) -> Optional[int]:
    """The game's result for Red by the rules, or None while it goes on."""
    outcome = position.outcome()
    if outcome is None:
        return None
    return 0 if outcome.winner is None else (1 if outcome.winner == "red" else -1)


def _search(position: Position) -> tuple[int, str, bool]:
    """(score for the side to move, best move, whether the position is kept)."""
    score, move = _scorer.search(position)
    capture = position.kernel_board.piece_at(ord(move[2]) - ord("a"), int(move[3])) is not None
    return score, move, not capture and not position.is_check()


def _label(score: int) -> int:
    return (10000 if score > 0 else -10000) if abs(score) > MATE_BOUND else score


def play_selfplay(game: SelfPlayGame) -> GameRecords:
    """Play one self-play game and keep its quiet positions."""
    rng = random.Random(game.seed)
    position = _book[rng.randrange(len(_book))].position()
    for _ in range(game.random_plies):
        moves = position.legal_moves()
        if not moves or position.outcome() is not None:
            break
        position.push(rng.choice(moves))
    _scorer.new_game()
    kept: list[tuple[int, list, bool, int, int]] = []      # key, pieces, black to move, score, ply
    searched = streak = 0
    streak_sign = 0
    while True:
        result = _result_of(position)
        if result is not None:
            break
        ply = len(position.move_stack)
        if ply >= game.max_plies:
            result = 0
            break
        score, move, quiet = _search(position)
        searched += 1
        black = position.turn == "black"
        if quiet:
            kept.append((position.key, position.kernel_board.pieces(), black, _label(score), ply))
        # Resignation: the score for Red beyond the threshold, with the same sign, ply after ply.
        red_score = -score if black else score
        sign = (red_score > 0) - (red_score < 0)
        if abs(score) >= game.resign and sign == streak_sign:
            streak += 1
        else:
            streak, streak_sign = (1, sign) if abs(score) >= game.resign else (0, 0)
        if streak >= game.resign_plies:
            result = streak_sign
            break
        position.push(move)
    return _records(game.number, kept, searched, result, from_game_record=False)


def score_master(game: MasterGame) -> GameRecords:
    """Search the positions of one master game at the given plies and keep the quiet ones."""
    position = Position(game.fen)
    _scorer.new_game()
    wanted = set(game.plies)
    kept = []
    for ply, move in enumerate(game.moves):
        if ply in wanted:
            score, _, quiet = _search(position)
            if quiet:
                kept.append((position.key, position.kernel_board.pieces(), position.turn == "black",
                             _label(score), ply))
        position.push(move)
    return _records(game.number, kept, len(wanted), game.result_for_red, from_game_record=True)


def _records(number: int, kept: list, searched: int, result_for_red: int, from_game_record: bool) -> GameRecords:
    records = [pack_record(pieces, black, score, -result_for_red if black else result_for_red, ply, number,
                           from_game_record)
               for _, pieces, black, score, ply in kept]
    return GameRecords(number, [key for key, *_ in kept], records, searched, result_for_red)


def _run(task: object) -> GameRecords:
    """Play or score one game. An engine (a teacher, mostly) that hangs or dies abandons the game (its records
    are dropped: the game's result would be unknown) and is started again for the next one."""
    try:
        return play_selfplay(task) if isinstance(task, SelfPlayGame) else score_master(task)
    except EngineError as error:
        print(f"game {task.number} abandoned: {error}", file=sys.stderr)
        _scorer.restart()
        return GameRecords(task.number, [], [], 0, 0, abandoned=True)


_cluster_lock = threading.Lock()


def _run_on_cluster(task: object, settings: SearchSettings) -> GameRecords:
    """A Dask task: the worker process's state (_scorer, _book) is built on its first task. It is one per
    process, so a worker with several threads plays its tasks one at a time (see engine.cluster: one
    thread per worker process)."""
    with _cluster_lock:
        if _settings != settings:
            _start_worker(settings)
        return _run(task)


# -- the master games ----------------------------------------------------------------------------------

PASSED_OVER = "passed over by --skip"


def master_games(files: list[tuple[str, bytes]], count: int, seed: int, skipped: Counter,
                 skip: int = 0) -> Iterator[MasterGame]:
    """Up to `count` distinct games of the files, in an order shuffled by the seed, the first `skip` of
    them passed over (they were scored by an earlier run). Each game's plies are those whose position
    (pieces and side to move) no earlier game reached, the passed-over ones included."""
    order = list(range(len(files)))
    random.Random(seed).shuffle(order)
    seen_games: set[tuple[str, tuple[str, ...]]] = set()
    seen_positions: set[int] = set()
    number = 0
    for index in order:
        if number >= count:
            return
        name, data = files[index]
        try:
            # strict, as the data was made: a damaged record leaves its file out (reproducible runs)
            games = read_games(ccpd.decode(data), errors="raise")
        except UnicodeDecodeError:
            skipped["not Big5"] += 1
            continue
        except PgnError:
            skipped["unreadable"] += 1
            continue
        for game in games:
            if game.result not in RESULTS_FOR_RED:
                skipped["no result"] += 1
                continue
            identity = (game.starting_fen(), tuple(game.moves))
            if identity in seen_games:
                skipped["duplicate"] += 1
                continue
            seen_games.add(identity)
            position = Position(game.starting_fen())
            plies = []
            for ply, move in enumerate(game.moves):
                if position.key not in seen_positions:
                    seen_positions.add(position.key)
                    plies.append(ply)
                position.push(move)
            if number < skip:
                skipped[PASSED_OVER] += 1
            else:
                yield MasterGame(number, game.starting_fen(), tuple(game.moves), RESULTS_FOR_RED[game.result],
                                 tuple(plies))
            number += 1
            if number >= count:
                return


# -- the run -------------------------------------------------------------------------------------------

def generate(tasks: Iterable[object], settings: SearchSettings, workers: int, output: str, label: str,
             cluster: Optional[str] = None) -> int:
    """Run the tasks (on a Dask cluster, else in worker processes when workers > 1), write the records in
    task order, print progress; returns the number of positions written."""
    start = time.monotonic()
    last_report = start
    seen: set[int] = set()
    games = searched = abandoned = 0
    results: Counter = Counter()
    pool = None
    resources = contextlib.ExitStack()
    if cluster:
        from engine.cluster import connect, describe, ordered_results

        client = resources.enter_context(connect(cluster))
        print(f"{label}: cluster {cluster}: {describe(client)}", file=sys.stderr)
        finished = ordered_results(client, _run_on_cluster, tasks, settings)
    elif workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(workers, _start_worker, (settings,))
        finished = pool.imap(_run, tasks)
    else:
        _start_worker(settings)
        finished = map(_run, tasks)
    try:
        with RecordWriter(output) as writer:
            for game in finished:
                for key, record in zip(game.keys, game.records):
                    if key not in seen:
                        seen.add(key)
                        writer.write(record)
                games += 1
                searched += game.searched
                if game.abandoned:
                    abandoned += 1
                else:
                    results[game.result_for_red] += 1
                now = time.monotonic()
                if now - last_report >= PROGRESS_SECONDS:
                    last_report = now
                    writer.flush()
                    _progress(label, games, writer.count, searched, now - start)
            count = writer.count
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        resources.close()
    _progress(label, games, count, searched, time.monotonic() - start)
    print(f"{label}: results for Red: {results[1]} wins, {results[0]} draws, {results[-1]} losses"
          + (f"; {abandoned} games abandoned (the teacher failed)" if abandoned else ""), file=sys.stderr)
    return count


def _progress(label: str, games: int, positions: int, searched: int, seconds: float) -> None:
    seconds = max(seconds, 1e-9)
    print(f"{label}: {games} games, {positions} positions written ({positions / seconds:.1f}/s), "
          f"{searched} searched ({searched / seconds:.1f}/s), {seconds:.0f} s", file=sys.stderr)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sources = parser.add_subparsers(dest="source", required=True)
    selfplay = sources.add_parser("selfplay", help="self-play games of the in-process searcher")
    master = sources.add_parser("master", help=f"master games of the {CREDIT}")
    for sub in (selfplay, master):
        sub.add_argument("-o", "--output", required=True, help="training-position file to write")
        sub.add_argument("--games", type=int, default=100)
        sub.add_argument("--nodes", type=int, default=5000, help="nodes per search (default 5000)")
        sub.add_argument("--depth", type=int, help="search to this depth instead of a node count")
        sub.add_argument("--teacher", metavar="CMD", help="score with this UCI engine (e.g. Pikafish-HCE) "
                                                          "instead of our search")
        sub.add_argument("--hce", action="store_true", help="our search with its hand-crafted evaluation "
                                                            "instead of its network")
        sub.add_argument("--evalfile", default=nets.DEFAULT, metavar="FILE",
                         help=f"our search's network (default: the shipped {nets.DEFAULT})")
        sub.add_argument("--seed", type=int, default=1)
        sub.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
        sub.add_argument("--hash", type=int, default=16, help="transposition table MB per worker")
        sub.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Dask cluster: tcp://HOST:8786 "
                                                              "(a running scheduler) or local:N (instead of --workers)")
    selfplay.add_argument("--openings", metavar="FILE", help="starting lines (default: the match book)")
    selfplay.add_argument("--random-plies", type=int, default=4, help="random moves after the book line")
    selfplay.add_argument("--max-plies", type=int, default=300, help="a longer game is a draw")
    selfplay.add_argument("--resign", type=int, default=2000, help="adjudication threshold, centipawns")
    selfplay.add_argument("--resign-plies", type=int, default=6)
    master.add_argument("--archive", default=str(DEFAULT_ARCHIVE), help="ccpd-games.tar.xz")
    master.add_argument("--skip", type=int, default=0, metavar="N",
                        help="pass over the first N games of the seed's order (to go on from a run "
                             "stopped after N games)")
    options = parser.parse_args(argv)
    settings = SearchSettings(options.nodes, options.hash, options.depth, options.teacher,
                              getattr(options, "openings", None), options.hce, options.evalfile)

    if options.source == "selfplay":
        seeds = random.Random(options.seed)
        tasks: Iterable[object] = [
            SelfPlayGame(n, seeds.getrandbits(63), options.random_plies, options.max_plies, options.resign,
                         options.resign_plies) for n in range(options.games)]
        generate(tasks, settings, options.workers, options.output, "selfplay", options.cluster)
    else:
        print(f"master games: {CREDIT}", file=sys.stderr)
        skipped: Counter = Counter()
        files = list(ccpd.pgn_files(Path(options.archive)))
        written = generate(master_games(files, options.games, options.seed, skipped, options.skip), settings,
                           options.workers, options.output, "master", options.cluster)
        if skipped:
            print("skipped: " + ", ".join(f"{n} {why}" for why, n in sorted(skipped.items())), file=sys.stderr)
        if options.skip and not written:
            print(f"--skip {options.skip}: nothing left to score: all {skipped[PASSED_OVER]} distinct games "
                  f"with a result (up to --games {options.games}) were passed over", file=sys.stderr)
    print(describe(read_records(options.output), options.output), file=sys.stderr)
    return 0


if __name__ == "__main__":
    # Run as the module `gen_nnue_data` rather than as `__main__`, so that the tasks and their classes
    # are sent to Dask workers by name (a worker imports them) instead of by value.
    import gen_nnue_data

    sys.exit(gen_nnue_data.main())

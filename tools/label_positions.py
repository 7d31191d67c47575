"""Label the quiet positions of game records with a reference engine's search score.

    python tools/label_positions.py games.pgn [more.pgn lib.cbl game.xqf ...] -o labels.txt [--depth 7] [--jobs 2]
        [--engine /usr/games/fairy-stockfish] [--skip 8] [--encoding auto|utf-8|gbk|big5]
        [--cluster tcp://HOST:8786 | local:N]

The games come from any game file engine.pgn reads (PGN, XQF, CBR, CBL, CBF, DhtmlXQ pages); a game
that cannot be read is named on stderr and left out. Every position of the games after the first --skip
plies that is not in check and is quiet (our quiescence score equals our static evaluation) is searched by
the reference engine (UCI, Xiangqi variant, driven by engine.client's SimpleEngine) to a fixed depth. Positions reached more than
once are labelled once; mate scores are left out. Output: one line per position, ``FEN;score`` with the score in the reference engine's
centipawns from Red's point of view. tools/tune_eval.py --labels fits our evaluation to these.

--cluster labels the positions on a Dask cluster instead of --jobs local engine processes (engine.cluster):
batches of positions are tasks, each worker thread keeps one reference engine process, and the output is
the same, in the same order.

A development tool; the engine itself does not use it.
"""
from __future__ import annotations

import argparse
import sys
import threading
import uuid

from engine import _core
from engine.client import SimpleEngine
from engine.search_types import SearchLimits
from engine.pgn import read_games
from engine.position import Position

FSF = "/usr/games/fairy-stockfish"
BATCH = 64      # positions per cluster task


def quiet_positions(paths: list[str], skip: int, encoding: str | None = None) -> list[str]:
    """FENs of the quiet positions of the games, each once, in order of first appearance."""
    searcher = _core.Searcher(16, 1)
    seen: set[str] = set()
    fens = []
    for path in paths:
        failures: list = []
        games = read_games(path, encoding=encoding, errors="skip", failures=failures)
        for failure in failures:
            print(f"left out: {failure}", file=sys.stderr)
        for game in games:
            position = Position(game.starting_fen())
            for ply, move in enumerate(game.moves):
                if ply >= skip and not position.is_check():
                    board = position.kernel_board
                    fen = position.fen()
                    placement = " ".join(fen.split()[:2])
                    if placement not in seen and searcher.quiescence(board) == searcher.evaluate(board):
                        seen.add(placement)
                        fens.append(fen)
                position.push(move)
    return fens


def reference_engine(command: str) -> SimpleEngine:
    """The reference engine (UCI; a Xiangqi variant is chosen by the client), its hash at 16 MB when it has
    the option."""
    engine = SimpleEngine.popen_uci(command)
    name = engine.option_name("Hash", "hashsize")
    if name is not None:
        engine.configure({name: 16})
    return engine


def _red_score(engine: SimpleEngine, fen: str, depth: int) -> int | None:
    """The reference engine's score from Red's view; None for a mate (or no score)."""
    score = engine.analyse(fen, SearchLimits(depth=depth)).score
    if score is None or score.cp is None:
        return None
    return score.cp if fen.split()[1] in ("w", "r") else -score.cp


def label(fens: list[str], command: str, depth: int, jobs: int,
          cluster: str | None = None) -> list[tuple[str, int]]:
    """(FEN, Red's score) for each position the reference engine does not score as a mate."""
    if cluster:
        return _label_on_cluster(fens, command, depth, cluster)
    results: list[tuple[str, int] | None] = [None] * len(fens)

    def work(start: int) -> None:
        with reference_engine(command) as engine:
            for i in range(start, len(fens), jobs):
                red = _red_score(engine, fens[i], depth)
                if red is not None:
                    results[i] = (fens[i], red)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [r for r in results if r is not None]


_engines = None     # on a Dask worker: engine.cluster.PerThread of reference engine processes


def _label_batch(batch: list[str], command: str, depth: int, token: str) -> list[tuple[str, int | None]]:
    """A Dask task: label a batch of positions with this worker thread's reference engine."""
    global _engines
    if _engines is None:
        from engine.cluster import PerThread

        _engines = PerThread()
    engine = _engines.get(token, lambda: reference_engine(command))
    return [(fen, _red_score(engine, fen, depth)) for fen in batch]


def _label_on_cluster(fens: list[str], command: str, depth: int, cluster: str) -> list[tuple[str, int]]:
    from engine.cluster import connect, describe, ordered_results

    batches = [fens[i:i + BATCH] for i in range(0, len(fens), BATCH)]
    labelled = []
    with connect(cluster) as client:
        print(f"cluster {cluster}: {describe(client)}", file=sys.stderr)
        for answers in ordered_results(client, _label_batch, batches, command, depth, uuid.uuid4().hex):
            labelled.extend((fen, red) for fen, red in answers if red is not None)
    return labelled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", metavar="GAMES", help="game files (PGN, XQF, CBR, CBL, CBF, DhtmlXQ)")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engine", default=FSF)
    parser.add_argument("--skip", type=int, default=8, help="opening plies left out (default 8)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="label on a Dask cluster: tcp://HOST:8786 or local:N (instead of --jobs)")
    parser.add_argument("--encoding", default="auto",
                        help="the game files' encoding (default auto: UTF-8, GBK or Big5, whichever the moves read in)")
    options = parser.parse_args(argv)
    fens = quiet_positions(options.pgn, options.skip, options.encoding)
    print(f"{len(fens)} quiet positions", file=sys.stderr)
    labelled = label(fens, options.engine, options.depth, options.jobs, options.cluster)
    with open(options.output, "w") as out:
        for fen, score in labelled:
            out.write(f"{fen};{score}\n")
    print(f"{len(labelled)} labelled", file=sys.stderr)
    return 0


if __name__ == "__main__":
    # As the module `label_positions`, not `__main__`: Dask workers then import the tasks by name.
    import label_positions

    sys.exit(label_positions.main())

"""Label the quiet positions of game records with a reference engine's search score.

    python tools/label_positions.py games.pgn [more.pgn ...] -o labels.txt [--depth 7] [--jobs 2]
        [--engine /usr/games/fairy-stockfish] [--skip 8] [--encoding auto|utf-8|gbk|big5]

Every position of the games after the first --skip plies that is not in check and is quiet (our
quiescence score equals our static evaluation) is searched by the reference engine (UCI, Xiangqi
variant, driven by engine.analyze's ExternalBackend) to a fixed depth. Positions reached more than
once are labelled once; mate scores are left out. Output: one line per position, ``FEN;score`` with the score in the reference engine's
centipawns from Red's point of view. tools/tune_eval.py --labels fits our evaluation to these.

A development tool; the engine itself does not use it.
"""
from __future__ import annotations

import argparse
import sys
import threading

from engine import _core
from engine.analyze.backend import AnalysisLimits, ExternalBackend
from engine.pgn import read_games
from engine.position import Position

FSF = "/usr/games/fairy-stockfish"


def quiet_positions(paths: list[str], skip: int, encoding: str | None = None) -> list[str]:
    """FENs of the quiet positions of the games, each once, in order of first appearance."""
    searcher = _core.Searcher(16, 1)
    seen: set[str] = set()
    fens = []
    for path in paths:
        for game in read_games(path, encoding=encoding):
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


def label(fens: list[str], command: str, depth: int, jobs: int) -> list[tuple[str, int]]:
    """(FEN, Red's score) for each position the reference engine does not score as a mate."""
    results: list[tuple[str, int] | None] = [None] * len(fens)

    def work(start: int) -> None:
        with ExternalBackend(command, proto="uci", hash_mb=16) as engine:
            for i in range(start, len(fens), jobs):
                score = engine.analyse(fens[i], [], AnalysisLimits(depth=depth)).score.cp
                if score is not None:
                    red = score if fens[i].split()[1] in ("w", "r") else -score
                    results[i] = (fens[i], red)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [r for r in results if r is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engine", default=FSF)
    parser.add_argument("--skip", type=int, default=8, help="opening plies left out (default 8)")
    parser.add_argument("--encoding", default="auto",
                        help="the PGN files' encoding (default auto: UTF-8, GBK or Big5, whichever the moves read in)")
    options = parser.parse_args(argv)
    fens = quiet_positions(options.pgn, options.skip, options.encoding)
    print(f"{len(fens)} quiet positions", file=sys.stderr)
    labelled = label(fens, options.engine, options.depth, options.jobs)
    with open(options.output, "w") as out:
        for fen, score in labelled:
            out.write(f"{fen};{score}\n")
    print(f"{len(labelled)} labelled", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

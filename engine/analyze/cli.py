"""`jiangjun analyze`: analyse a position, or annotate a game, from the command line.

    jiangjun analyze                                  # the start position
    jiangjun analyze --fen FEN --moves "h2e2 马8进7"   # the position after the moves
    jiangjun analyze --moves 炮二平五 马8进7 --annotate  # every move of a move list, judged
    jiangjun analyze game.pgn [--game N]               # every move of a game from a game file: PGN (UTF-8,
                                                       # GBK or Big5), XQF, CBR, CBL, CBF or a DhtmlXQ page

A position the endgame tables hold (the tables shipped in the package, after those of --tables; none with
--no-tables) gets the table's line beside the engine's: its exact value and best moves (engine.analyze.tables).

Errors in the input (FEN, moves, file, options) or an engine that cannot be used print one line on
stderr and exit with status 2; Ctrl-C stops the search and prints what was found (status 130). A damaged
game of a file is analysed as far as it reads (engine.pgn's default), with one warning line on stderr; only
a game of which nothing reads is an error.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Dict, List, Optional, Sequence, Tuple

from ..book import DEFAULT as DEFAULT_BOOK, Book, BookError, open_book
from ..errors import InvalidFenError
from ..client import SearchInterrupted, SimpleEngine
from ..fen import START_FEN
from ..notation import CHINESE, NOTATIONS, to_notation
from ..pgn.game import Game as PgnGame
from ..position import Position
from ..search_types import SearchLimits, SearchResult
from . import pictures
from .engines import analyse, description, gives_chances, open_engine, outcome_of, usable_multipv
from .errors import AnalyzeError
from .game import GameAnalysis, Thresholds, annotate, mark_book_moves
from .moves import play_moves, ply_label, split_moves
from .report import (POVS, GameTable, LiveArea, Style, analysis_json, annotated_game, final_lines, game_header,
                     game_json, limits_json, limits_text, outcome_text, position_header, position_lines,
                     position_summary, summary_lines, table_line)
from .tables import TableLook, Tables

PROG = "jiangjun analyze"
#: Time per position when no limit is given (seconds): a single position, a position of a game.
DEFAULT_POSITION_TIME = 3.0
DEFAULT_GAME_TIME = 0.5

EPILOG = """\
modes:
  no FILE         analyse one position: --fen (default: the start position) after --moves
  --annotate      judge every move of --moves played from --fen, as in a game
  FILE            judge every move of a game in a game file: Xiangqi PGN (UTF-8, GBK or Big5, see
                  --encoding; moves in ICCS, WXF, Chinese or XBoard's SAN), XQStudio's XQF, CCBridge's
                  CBR, CBL (a library: --game N) or CBF, or a web page with DhtmlXQ blocks

Moves may be ICCS (h2e2, H2-E2), WXF (C2.5) or Chinese (炮二平五), as separate arguments or in one string,
with or without move numbers. Scores are centipawns; #N mates in N moves, -#N is mated in N.
A position inside the endgame tables gets a line "TB: red wins, mate in 5; best ..." (in JSON "tablebase",
in a saved game a comment).
A game move losing at least --inaccuracy/--mistake/--blunder centipawns (from the mover's view, scores
capped at +-1000 with a mate as the cap) is marked ?!, ? or ??; the engine's own best move never is.

examples:
  jiangjun analyze --depth 12 --multipv 3
  jiangjun analyze --fen "4k4/9/9/9/9/9/9/9/4A4/3K1A2R w" --depth 8 --notation wxf
  jiangjun analyze game.pgn --time 1 --svg final.svg --plot eval.svg
  jiangjun analyze game.pgn --engine /usr/games/fairy-stockfish --depth 12 --json > game.json
  jiangjun analyze --fen "9/9/3ak4/9/9/9/9/9/9/N2K5 w" --depth 12 --tables tablebases
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Analyse a Xiangqi position, or annotate a game move by move.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="a game file to annotate (PGN, XQF, CBR, CBL, CBF, DhtmlXQ)")
    what = parser.add_argument_group("what to analyse")
    what.add_argument("--fen", help="the starting position (default: the start position)")
    what.add_argument("--moves", nargs="+", action="extend", default=[], metavar="MOVE",
                      help="moves played from --fen (ICCS, WXF or Chinese; separate or in one string)")
    what.add_argument("--annotate", action="store_true",
                      help="judge every move of --moves instead of analysing the final position")
    what.add_argument("--encoding", default="auto", metavar="NAME",
                      help="FILE's encoding: auto (default: UTF-8, GBK or Big5, whichever its moves read in), "
                           "utf-8, gbk, big5 or any Python codec")
    what.add_argument("--game", type=int, default=1, metavar="N", help="the game of FILE to annotate (default 1)")
    what.add_argument("--ply", type=int, metavar="N",
                      help="for a game: the position after N plies for --svg and --board (default: the last)")
    limits = parser.add_argument_group("search limits (per position; default: "
                                       f"{DEFAULT_POSITION_TIME:g} s for a position, "
                                       f"{DEFAULT_GAME_TIME:g} s per position of a game)")
    limits.add_argument("--depth", type=int, metavar="N", help="search depth in plies")
    limits.add_argument("--time", type=float, metavar="SECONDS", help="search time in seconds")
    limits.add_argument("--nodes", type=int, metavar="N", help="nodes to search")
    limits.add_argument("--multipv", type=int, default=1, metavar="K", help="lines to show (default 1)")
    limits.add_argument("--threads", type=int, metavar="N", help="search threads (default 1)")
    limits.add_argument("--hash", type=int, metavar="MB", help="hash table in MB (built-in engine: default 64)")
    output = parser.add_argument_group("output")
    output.add_argument("--notation", choices=NOTATIONS, default=CHINESE,
                        help=f"how moves are written (default {CHINESE})")
    output.add_argument("--pov", choices=POVS, default="red",
                        help="scores from Red's view or the side to move's / the mover's (default red)")
    output.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    output.add_argument("--board", action="store_true", help="print a text board of the position, best move marked")
    output.add_argument("--ascii", action="store_true", help="the text board in ASCII (FEN letters)")
    output.add_argument("--flip", action="store_true", help="boards with Black at the bottom")
    output.add_argument("--svg", metavar="FILE", help="write an SVG diagram of the position with the best move")
    output.add_argument("--plot", metavar="FILE", help="write an SVG graph of the evaluation over the game")
    output.add_argument("--save", metavar="FILE",
                        help="write the game with each move's judgement as its comment: XQF for a .xqf name "
                             "(XQStudio opens it), CBF for .cbf (main line only), else PGN")
    tables = parser.add_argument_group("endgame tables (default: the tables shipped in the package)")
    choice = tables.add_mutually_exclusive_group()
    choice.add_argument("--tables", nargs="+", action="extend", default=[], metavar="DIR",
                        help="folders (or .jjtb files) of tables built with jiangjun tb build, read before the "
                             "shipped ones (by the built-in engine's search too)")
    choice.add_argument("--no-tables", action="store_true", help="show no table values")
    marks = parser.add_argument_group("marks for game moves (centipawns lost by the mover)")
    marks.add_argument("--book", default=DEFAULT_BOOK, metavar="FILE",
                       help="the opening book whose moves are marked 'book' and not judged (any format; "
                            "default: the shipped book)")
    marks.add_argument("--no-book", action="store_true", help="judge every move, book moves too")
    marks.add_argument("--inaccuracy", type=int, default=Thresholds.inaccuracy, metavar="CP",
                       help=f"default {Thresholds.inaccuracy}")
    marks.add_argument("--mistake", type=int, default=Thresholds.mistake, metavar="CP",
                       help=f"default {Thresholds.mistake}")
    marks.add_argument("--blunder", type=int, default=Thresholds.blunder, metavar="CP",
                       help=f"default {Thresholds.blunder}")
    engine = parser.add_argument_group("engine (default: jiangjun's own, in-process)")
    engine.add_argument("--engine", metavar="CMD",
                        help="a UCI, UCCI or XBoard engine command, e.g. /usr/games/fairy-stockfish")
    engine.add_argument("--proto", choices=("uci", "ucci", "xboard", "cecp", "auto"), default="auto",
                        help="the engine's protocol (default: auto-detect UCI or UCCI; an XBoard engine is named)")
    engine.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, sent after the handshake (repeatable)")
    return parser


def main(argv: Optional[Sequence[str]] = None, stdout: Optional[IO[str]] = None,
         stderr: Optional[IO[str]] = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        return _run(args, out, err)
    except AnalyzeError as exc:
        print(f"{PROG}: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=err)
        return 130
    except BrokenPipeError:     # e.g. piped into `head`
        try:
            sys.stdout = None  # type: ignore[assignment]  # no flush error at exit
        except Exception:
            pass
        return 1


# -- input ---------------------------------------------------------------------------------------------------

@dataclass
class _Job:
    """What to analyse, read and checked: a position (the end of `moves`) or, with `game`, every move."""

    start_fen: str = START_FEN
    moves: List[str] = field(default_factory=list)
    headers: Dict[str, str] = field(default_factory=dict)
    result: str = "*"
    game: bool = False
    record: Optional[PgnGame] = None   # the game as read from a file (its comments and variations)
    unread: Optional[str] = None       # what of that game could not be read (it is analysed as far as it reads)


def _check_numbers(args: argparse.Namespace) -> None:
    for name, value, low in (("--depth", args.depth, 1), ("--nodes", args.nodes, 1), ("--multipv", args.multipv, 1),
                             ("--threads", args.threads, 1), ("--hash", args.hash, 1), ("--game", args.game, 1),
                             ("--ply", args.ply, 0)):
        if value is not None and value < low:
            raise AnalyzeError(f"{name} must be at least {low}, not {value}")
    if args.time is not None and not args.time > 0:
        raise AnalyzeError(f"--time must be a positive number of seconds, not {args.time:g}")


def _options(pairs: Sequence[str]) -> Dict[str, str]:
    options: Dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise AnalyzeError(f"--option {pair!r}: expected NAME=VALUE, e.g. --option Hash=128")
        options[name.strip()] = value.strip()
    return options


def _read_job(args: argparse.Namespace) -> _Job:
    if args.file is not None:
        return _read_game_file(args)
    job = _Job()
    if args.game != 1:
        raise AnalyzeError("--game picks a game of a PGN FILE; no file was given")
    fen = START_FEN if args.fen is None else args.fen
    try:
        position = Position(fen)
    except InvalidFenError as exc:
        raise AnalyzeError(f"bad FEN {fen!r}: {exc}") from None
    job.start_fen = position.fen()
    job.moves = play_moves(position, split_moves(args.moves))
    job.game = args.annotate
    if args.fen is not None:
        job.headers["FEN"] = job.start_fen
    return job


def _read_game_file(args: argparse.Namespace) -> _Job:
    """Game N of the file, read as far as it reads (engine.pgn's default, as python-chess reads PGN); the other
    games of the file do not matter, and only a game of which nothing reads is refused."""
    if args.fen is not None or args.moves or args.annotate:
        raise AnalyzeError("give either a game FILE or --fen/--moves/--annotate, not both")
    from ..pgn import PgnError, read_games

    try:   # failures= collects what does not read: this tool says it of its game, in one line of its own
        games = read_games(Path(args.file), encoding=args.encoding, failures=[])
    except FileNotFoundError:
        raise AnalyzeError(f"cannot read {args.file}: no such file") from None
    except IsADirectoryError:
        raise AnalyzeError(f"cannot read {args.file}: it is a directory") from None
    except OSError as exc:
        raise AnalyzeError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except PgnError as exc:
        raise AnalyzeError(f"cannot read the game: {exc}") from None
    game = next((game for game in games if game.number == args.game), None)
    if game is None:
        count = len(games)
        if not count:
            raise AnalyzeError(f"{args.file} holds no game")
        raise AnalyzeError(f"--game {args.game}: {args.file} holds {count} game{'s' if count != 1 else ''}")
    if game.errors and not game.moves:       # neither its start nor its first move reads
        raise AnalyzeError(f"cannot read the game: {game.errors[0]}")
    job = _Job(start_fen=Position(game.starting_fen()).fen(), moves=list(game.moves), headers=dict(game.headers),
               result=game.result, game=True, record=game)
    if game.errors:
        more = len(game.errors) - 1
        first = " ".join(str(game.errors[0]).split())        # one line
        plies = len(game.moves)
        job.unread = (f"the game could not be read whole, so it is analysed as far as it reads ({plies} "
                      f"{'ply' if plies == 1 else 'plies'}): {first}"
                      + (f" (and {more} more error{'s' if more != 1 else ''})" if more else ""))
    return job


def _limits(args: argparse.Namespace, game: bool) -> SearchLimits:
    seconds = args.time
    if args.depth is None and seconds is None and args.nodes is None:
        seconds = DEFAULT_GAME_TIME if game else DEFAULT_POSITION_TIME
    return SearchLimits(depth=args.depth, nodes=args.nodes, movetime=None if seconds is None else seconds * 1000)


def _check_outputs(args: argparse.Namespace, job: _Job) -> None:
    if not job.game:
        if args.plot:
            raise AnalyzeError("--plot draws a game: give a PGN FILE or --annotate")
        if args.ply is not None:
            raise AnalyzeError("--ply picks a position of a game: give a PGN FILE or --annotate")
    elif args.ply is not None and args.ply > len(job.moves):
        raise AnalyzeError(f"--ply {args.ply}: the game has {len(job.moves)} plies")
    if args.save and not job.game:
        raise AnalyzeError("--save writes an analysed game: give a game FILE or --annotate")
    for option, path in (("--svg", args.svg), ("--plot", args.plot), ("--save", args.save)):
        if path:
            parent = Path(path).parent
            if not parent.is_dir():
                raise AnalyzeError(f"{option} {path}: the folder {parent} does not exist")


# -- running ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Setup:
    """The engine and how it searches and is shown: the same for every position of a run."""

    engine: SimpleEngine
    description: str           # for the headers: name, how it runs, its threads and hash
    chances: bool              # its lines carry win/draw/loss chances
    multipv: int               # the lines it searches (--multipv, or 1 when it cannot show more)
    limits: SearchLimits
    style: Style
    tables: Tables             # the endgame tables shown beside the engine's lines

    def engine_json(self) -> dict:
        return {"name": self.engine.name, "description": self.description}


def _run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    _check_numbers(args)
    options = _options(args.option)
    job = _read_job(args)
    _check_outputs(args, job)
    thresholds = Thresholds(args.inaccuracy, args.mistake, args.blunder)

    def warn(text: str) -> None:
        print(f"{PROG}: warning: {text}", file=err)

    if job.unread is not None:
        warn(job.unread)
    tables = Tables.open(args.tables, not args.no_tables, warn)

    engine = open_engine(args.engine, proto=args.proto, options=options, threads=args.threads,
                         hash_mb=args.hash, table_folders=args.tables, warn=warn)
    # The live lines go to stdout on a terminal; with --json (stdout is the document) to stderr, if a terminal.
    live_stream = err if args.json else out
    live = LiveArea(live_stream, enabled=_is_terminal(live_stream))
    try:
        setup = _Setup(engine, description(engine, args.threads, args.hash), gives_chances(engine),
                       usable_multipv(engine, args.multipv, warn), _limits(args, job.game),
                       Style(args.notation, args.pov), tables)
        if job.game:
            return _run_game(args, job, setup, thresholds, live, out)
        return _run_position(args, job, setup, live, out)
    finally:
        live.clear()
        engine.quit()


def _run_position(args: argparse.Namespace, job: _Job, setup: _Setup, live: LiveArea, out: IO[str]) -> int:
    style = setup.style
    position = Position(job.start_fen)
    for move in job.moves:
        position.push(move)
    if not args.json:
        for line in position_header(position, setup.description, limits_text(setup.limits), style, setup.chances):
            print(line, file=out)
        out.flush()
    interrupted = False
    try:
        analysis = analyse(setup.engine, position, setup.limits, setup.multipv,
                           on_lines=lambda lines: live.show(position_lines(position, lines, style, args.multipv)))
    except SearchInterrupted as stopped:     # Ctrl-C: what was found, if the engine still answered
        if stopped.result is None:
            raise
        analysis, interrupted = stopped.result, True
    live.clear()
    last_move = None
    if job.moves:
        before = Position(job.start_fen)
        for move in job.moves[:-1]:
            before.push(move)
        last_move = (before, job.moves[-1])
    pictures_done = _pictures(args, position, job.moves[-1] if job.moves else None, analysis.bestmove,
                              _caption(position, analysis, style, last_move))
    look = setup.tables.look_up(position)
    if args.json:
        _print_json({"type": "position", "engine": setup.engine_json(), "limits": limits_json(setup.limits),
                     "multipv": args.multipv, "notation": style.notation, "pov": style.pov,
                     "start_fen": job.start_fen, "moves": job.moves,
                     "analysis": analysis_json(position, analysis, style, interrupted, look), **pictures_done}, out)
    else:
        for line in position_lines(position, analysis.lines, style, args.multipv):
            print(line, file=out)
        if look is not None:
            print(table_line(look, style), file=out)
        for line in position_summary(position, analysis, style, interrupted):
            print(line, file=out)
        _print_pictures(pictures_done, out)
    return 130 if interrupted else 0


def _run_game(args: argparse.Namespace, job: _Job, setup: _Setup, thresholds: Thresholds, live: LiveArea,
              out: IO[str]) -> int:
    # Step 1. The moves, before any analysis: the book's and the table's layout, and the header.
    style = setup.style
    book = _open_book(args)
    layout = GameAnalysis(job.start_fen, job.moves, thresholds)
    mark_book_moves(layout, book)
    table = GameTable(layout, style)
    looks: Dict[int, Optional[TableLook]] = {0: setup.tables.look_up(Position(job.start_fen))}
    if not args.json:
        for line in game_header(job.headers, layout, setup.description, limits_text(setup.limits), style,
                                setup.chances):
            print(line, file=out)
        print("", file=out)
        if looks[0] is not None:
            print(table.note(table_line(looks[0], style)), file=out)
        out.flush()

    # Step 2. Every position analysed, each move's row printed as soon as it is judged (with the endgame
    # table's line of the position it leads to, when the tables hold it).
    def progress(ply: int, lines) -> None:
        live.show([table.status(layout, ply, lines)])

    def record(rec) -> None:
        after = Position(rec.fen_before)
        after.push(rec.move)
        looks[rec.ply] = look = setup.tables.look_up(after)
        if not args.json:
            live.print(table.row(rec))
            if look is not None:
                live.print(table.note(table_line(look, style)))

    game = annotate(setup.engine, job.start_fen, job.moves, setup.limits, thresholds, setup.multipv,
                    on_progress=progress if live.enabled else None, on_record=record, book=book)
    live.clear()

    # Step 3. The pictures and the saved game, then the summary or the document.
    analysed = len(game.analyses) - 1         # plies whose position was analysed
    ply = analysed if args.ply is None else args.ply
    if ply > analysed:
        raise AnalyzeError(f"--ply {ply}: the analysis was interrupted after {analysed} plies")
    pictures_done = _game_pictures(args, game, job, ply, style, looks)
    if args.json:
        document = {"type": "game", "engine": setup.engine_json(), "limits": limits_json(setup.limits),
                    "multipv": args.multipv, "notation": style.notation, "pov": style.pov,
                    **game_json(game, job.headers, job.result, style, looks)}
        if pictures_done:
            document["diagram_ply"] = ply
        document.update(pictures_done)
        _print_json(document, out)
    else:
        _print_game_summary(game, job, ply, analysed, pictures_done, style, out)
    return 130 if game.interrupted else 0


def _game_pictures(args: argparse.Namespace, game: GameAnalysis, job: _Job, ply: int, style: Style,
                   looks: Dict[int, Optional[TableLook]]) -> Dict[str, str]:
    """--svg, --board (the position after `ply` plies), --plot and --save (with the endgame tables' `looks`)
    of an analysed game."""
    pictures_done: Dict[str, str] = {}
    if game.analyses:
        position = game.position_at(ply)
        analysis = game.analyses[ply]
        last_move = game.moves[ply - 1] if ply > 0 else None
        caption = _caption(position, analysis, style, (game.position_at(ply - 1), last_move) if last_move else None)
        pictures_done = _pictures(args, position, last_move, analysis.bestmove, caption)
        if args.plot:
            points = pictures.graph_points(game, style.notation)
            pictures.write_text(args.plot, pictures.eval_graph_svg(points, _title(job.headers)))
            pictures_done["plot"] = args.plot
    if args.save:
        _save(args.save, game, job, style, looks)
        pictures_done["save"] = args.save
    return pictures_done


def _print_game_summary(game: GameAnalysis, job: _Job, ply: int, analysed: int, pictures_done: Dict[str, str],
                        style: Style, out: IO[str]) -> None:
    if game.interrupted:
        print(f"  (interrupted: {analysed} of {len(job.moves)} plies analysed)", file=out)
    print("", file=out)
    for line in summary_lines(game, job.headers):
        print(line, file=out)
    print("", file=out)
    for line in final_lines(game, style):
        print(line, file=out)
    if "board" in pictures_done:
        where = "the final position" if ply == len(job.moves) else f"the position after {ply} plies"
        print(f"\n{where}, best move marked:", file=out)
    _print_pictures(pictures_done, out)


def _print_pictures(pictures_done: Dict[str, str], out: IO[str]) -> None:
    """The text board, and the files written."""
    if "board" in pictures_done:
        print(pictures_done["board"], file=out)
    for key in ("svg", "plot", "save"):
        if key in pictures_done:
            print(f"wrote {pictures_done[key]}", file=out)


def _save(path: str, game: GameAnalysis, job: _Job, style: Style, looks: Dict[int, Optional[TableLook]]) -> None:
    """Write the analysed game (--save): PGN, XQF or CBF by the file's ending."""
    from ..pgn import Game, PgnError, write_games

    record = job.record or Game(headers=dict(job.headers), moves=list(job.moves), result=job.result)
    try:
        write_games(path, [annotated_game(game, record, style, looks)], notation=style.notation)
    except PgnError as exc:
        raise AnalyzeError(f"--save {path}: {exc}") from None
    except OSError as exc:
        raise AnalyzeError(f"--save {path}: {exc.strerror or exc}") from None


def _open_book(args: argparse.Namespace) -> Optional[Book]:
    """The book whose moves are not judged, or None with --no-book."""
    if args.no_book:
        return None
    try:
        return open_book(args.book)
    except BookError as exc:
        raise AnalyzeError(f"--book: {exc}") from None


def _caption(position: Position, analysis: SearchResult, style: Style,
             last_move: Optional[Tuple[Position, str]]) -> str:
    """``after 15... 马8进7: +35, best 马六进五`` (scores in the chosen view)."""
    prefix = ""
    if last_move is not None:
        before, move = last_move
        prefix = f"after {ply_label(before)} {to_notation(before, move, style.notation)}: "
    outcome = outcome_of(position, analysis)
    if outcome is not None:
        return prefix + outcome_text(outcome)
    score = style.score(analysis.score, position.turn).text()
    best = to_notation(position, analysis.bestmove, style.notation)
    depth = f", depth {analysis.depth}" if analysis.depth else ""
    return f"{prefix}{score}, best {best}{depth}"


def _pictures(args: argparse.Namespace, position: Position, last_move: Optional[str], best: Optional[str],
              caption: str) -> Dict[str, str]:
    done: Dict[str, str] = {}
    if args.svg:
        svg = pictures.board_svg(position.fen(), last_move=last_move, best=best, flip=args.flip, caption=caption)
        pictures.write_text(args.svg, svg)
        done["svg"] = args.svg
    if args.board:
        done["board"] = pictures.text_board(position.fen(), best=best, flip=args.flip, ascii=args.ascii)
    return done


def _title(headers: Dict[str, str]) -> str:
    from ..pgn import player_name

    red, black = player_name(headers, "red"), player_name(headers, "black")
    title = f"{red or '?'} vs {black or '?'}" if red or black else "jiangjun analyze"
    event = headers.get("Event", "").strip()
    return f"{title}, {event}" if event and event != "?" else title


def _print_json(document: dict, out: IO[str]) -> None:
    out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    out.flush()


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

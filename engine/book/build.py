"""Building a book from game records: count every position and every move played from it, with the
results, then keep what enough games played and did not score badly.

1. Games: every game of the files with a result, once (the same start and moves filed twice count
   once); its opening name from engine.book.names. A damaged game counts as far as it reads, as
   engine.pgn reads it by default (python-chess's way); one of which nothing reads is left out. The
   build says once, in a warning of this module's logger, how many games did not read whole.
2. Counting, up to `max_ply` plies into each game: each position by its canonical key (transpositions
   meet, a position and its mirror image are one; engine.book.keys), each move in the canonical
   orientation, with the games that played it and how they ended for the side that moved.
3. Selection: a move is kept when at least `min_games` games played it and it scored at least
   `min_score` for its side (a win 1, a draw 1/2). Its weight is its points, twice the wins plus the
   draws, so a move is chosen in proportion to the games that played it and to how well it did.
4. Names: a position reached by `min_games` games or more is named when one name (family and ECCO
   code) covers at least NAME_SHARE of its games; failing that, when one family does. (The start
   position, where most games are 中炮局 but not nearly all, has no name.)
"""
from __future__ import annotations

import logging
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from ..errors import IllegalMoveError, InvalidFenError
from ..pgn import PgnError, detect_format, likeliest_text, read_games
from ..position import Position
from .format import Record, write_book
from .keys import canonical_key, encode_move, mirror_move
from .names import Namer, family_of_path
from .sources import game_files

logger = logging.getLogger(__name__)
RESULTS_FOR_RED = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}
DEFAULT_MIN_GAMES = 8
DEFAULT_MAX_PLY = 30
DEFAULT_MIN_SCORE = 0.35
#: The share of a position's games a name must cover to name the position.
NAME_SHARE = 0.8


@dataclass(frozen=True)
class BuildSettings:
    min_games: int = DEFAULT_MIN_GAMES
    max_ply: int = DEFAULT_MAX_PLY
    min_score: float = DEFAULT_MIN_SCORE


@dataclass
class GameLine:
    """What the book needs of a game: its start, moves, result for Red (1, 0, -1) and opening."""

    fen: str
    moves: tuple[str, ...]
    result_for_red: int
    ecco: Optional[str] = None
    family: Optional[str] = None
    opening: Optional[str] = None


@dataclass
class BuildReport:
    files: int = 0
    games: int = 0
    skipped: Counter = field(default_factory=Counter)
    read_in_part: int = 0          # distinct games counted as far as they read (the others that did not read
                                   # whole are among the skipped: no result, duplicates, nothing read)
    unread: list[str] = field(default_factory=list)    # "file: error", the first of each game not read whole
    positions: int = 0
    moves: int = 0
    names: int = 0
    size: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        skipped = ", ".join(f"{n} {why}" for why, n in sorted(self.skipped.items())) or "none"
        partly = f", {self.read_in_part} of them as far as they read" if self.read_in_part else ""
        return (f"{self.files} files, {self.games} distinct games{partly} (skipped: {skipped}); "
                f"{self.positions} positions, {self.moves} moves, {self.names} named positions; "
                f"{self.size} bytes; {self.seconds:.1f} s")

    def note_unread(self, name: str, failures: Iterable[PgnError]) -> None:
        self.unread.extend(f"{name}: {error.in_file()}" for error in failures)

    def warning(self) -> str:
        """The one line that says how many games did not read whole, and the first's error."""
        count = len(self.unread)
        more = f" (and {count - 1} more)" if count > 1 else ""
        return (f"{count} game{'s' if count != 1 else ''} could not be read whole (each counted as far as it "
                f"reads; {self.read_in_part} of the distinct games counted); the first: {self.unread[0]}{more}")


Progress = Callable[[str], None]


_MOVE_NUMBER = re.compile(r"\d+\.+")
_RESULT_TAG = re.compile(r'^\[Result\s+"([^"]*)"\]', re.M)


def _split_single_game(text: str) -> Optional[tuple[str, str]]:
    """(tags, movetext) of a PGN text holding one game without comments or variations, else None."""
    tags, moves = [], []
    for line in text.splitlines():
        (tags if line.lstrip().startswith("[") and not moves else moves).append(line)
    movetext = " ".join(moves)
    if sum(line.lstrip().startswith("[Event ") for line in tags) > 1 or any(c in movetext for c in "{}();[%$"):
        return None
    return "\n".join(tags), movetext


def _opening_part(tags: str, movetext: str, plies: int) -> str:
    """The game cut after `plies` moves, its result kept (the movetext's, else the Result tag's)."""
    tokens = movetext.split()
    result = tokens[-1] if tokens and tokens[-1] in RESULTS_FOR_RED else None
    if result is None:
        found = _RESULT_TAG.search(tags)
        result = found.group(1) if found else "*"
    kept, count = [], 0
    for token in tokens:
        if token in RESULTS_FOR_RED or token == "*" or count >= plies:
            break
        kept.append(token)
        if not _MOVE_NUMBER.fullmatch(token):
            count += 1
    return f"{tags}\n\n{' '.join(kept)} {result}\n"


def collect_games(sources: Iterable[str], report: BuildReport, progress: Optional[Progress] = None,
                  max_ply: Optional[int] = None) -> list[GameLine]:
    """The distinct games with a result of the sources (files, folders, tar archives). With `max_ply`,
    only their first `max_ply` moves are read (a file of one game without comments is cut there, after
    its duplicates, whole texts alike, have been set aside: reading moves is most of the time)."""
    games: dict[tuple[str, tuple[str, ...]], GameLine] = {}
    texts: dict[str, tuple[str, tuple[str, ...]]] = {}
    last = time.monotonic()
    for name, data in game_files(sources):
        report.files += 1
        if progress is not None and time.monotonic() - last > 10:
            last = time.monotonic()
            progress(f"{report.files} files read, {len(games)} distinct games")
        family = family_of_path(name)
        failures: list[PgnError] = []     # each game as far as it reads; the build says it once, at the end
        if detect_format(data) != "pgn":   # XQF, CBR, CBL, CBF, DhtmlXQ: read whole
            try:
                parsed = read_games(data, failures=failures)
            except PgnError:
                report.skipped["files that do not read"] += 1
                continue
            report.note_unread(name, failures)
            _add_games(parsed, games, report, family)
            continue
        try:
            text = likeliest_text(data, name)
        except PgnError:
            report.skipped["files not UTF-8, GBK or Big5"] += 1
            continue
        whole = None
        single = _split_single_game(text) if max_ply is not None else None
        if single is not None:
            fen = re.search(r'^\[FEN\s+"([^"]*)"\]', single[0], re.M)
            whole = (fen.group(1) if fen else "") + "|" + " ".join(single[1].split())
            if whole in texts:
                report.skipped["duplicates"] += 1
                known = games.get(texts[whole])
                if known is not None:
                    known.family = known.family or family
                continue
            text = _opening_part(single[0], single[1], max_ply)
        try:
            parsed = read_games(text, failures=failures)
        except PgnError:
            report.skipped["files that do not read"] += 1
            continue
        report.note_unread(name, failures)
        _add_games(parsed, games, report, family, whole, texts, max_ply)
    report.games = len(games)
    if report.unread:
        logger.warning(report.warning())
    return list(games.values())


def _add_games(parsed: Iterable, games: dict, report: BuildReport, family: Optional[str],
               whole: Optional[str] = None, texts: Optional[dict] = None, max_ply: Optional[int] = None) -> None:
    """Count the games of one file in ``games`` (by start and moves), skipping those without a result and
    the duplicates and those of which nothing reads. ``whole`` is the text of a single game cut after
    ``max_ply`` moves, if it was."""
    for game in parsed:
        if game.errors and not game.moves:     # neither its start nor its first move reads
            report.skipped["games that do not read"] += 1
            continue
        result = RESULTS_FOR_RED.get(game.result)
        if result is None:
            report.skipped["games without a result"] += 1
            continue
        identity = (game.starting_fen(), tuple(game.moves))
        if whole is not None and max_ply is not None and len(game.moves) >= max_ply:
            identity = (whole, ())     # a game cut short is told apart by its whole text
        if whole is not None and texts is not None:
            texts[whole] = identity
        known = games.get(identity)
        if known is not None:
            report.skipped["duplicates"] += 1
            known.family = known.family or family
            continue
        headers = game.headers
        games[identity] = GameLine(game.starting_fen(), tuple(game.moves), result, headers.get("ECCO") or None,
                                   family, headers.get("Opening") or None)
        report.read_in_part += bool(game.errors)


class Counts:
    """Per canonical position: {move code: [games, wins, draws]} and the names of its games."""

    def __init__(self) -> None:
        self.moves: dict[int, dict[int, list[int]]] = defaultdict(dict)
        self.names: dict[int, Counter] = defaultdict(Counter)
        self.games: Counter = Counter()

    def add_game(self, game: GameLine, name: Optional[str], max_ply: int) -> None:
        try:
            position = Position(game.fen)
        except InvalidFenError:
            return
        seen: set[tuple[int, int]] = set()
        visited: set[int] = set()
        for ply, move in enumerate(game.moves[:max_ply + 1]):
            key, mirrored = canonical_key(position)
            if key not in visited:
                visited.add(key)
                self.games[key] += 1
                self.names[key][name] += 1
            if ply == max_ply:
                break
            code = encode_move(mirror_move(move) if mirrored else move)
            if (key, code) not in seen:
                seen.add((key, code))
                red = position.turn.value == "red"
                mover_result = game.result_for_red if red else -game.result_for_red
                stats = self.moves[key].setdefault(code, [0, 0, 0])
                stats[0] += 1
                stats[1] += mover_result == 1
                stats[2] += mover_result == 0
            try:
                position.push(move)
            except IllegalMoveError:
                return


def count_games(games: list[GameLine], max_ply: int) -> Counts:
    namer = Namer()
    for game in games:
        namer.learn(game.ecco, game.family)
    counts = Counts()
    for game in games:
        counts.add_game(game, namer.name(game.ecco, game.family, game.opening), max_ply)
    return counts


def select(counts: Counts, settings: BuildSettings) -> tuple[list[Record], dict[int, str]]:
    """The records and names the book keeps (step 3 and 4 of the module's description)."""
    records = []
    for key, moves in counts.moves.items():
        kept = []
        for code, (games, wins, draws) in moves.items():
            points = 2 * wins + draws
            if games >= settings.min_games and points >= 2 * settings.min_score * games:
                kept.append((code, games, points))
        if not kept:
            continue
        scale = max(1.0, max(points for _, _, points in kept) / 0xFFFF)
        for code, games, points in kept:
            records.append(Record(key, code, max(1, round(points / scale)), games, points))
    names = {}
    for key, total in counts.games.items():
        if total < settings.min_games:
            continue
        name = _majority(counts.names[key], total)
        if name is None:
            families: Counter = Counter()
            for full, n in counts.names[key].items():
                if full and " " in full:           # "family code"
                    families[full.rsplit(" ", 1)[0]] += n
            name = _majority(families, total)
        if name:
            names[key] = name
    return records, names


def _majority(votes: Counter, total: int) -> Optional[str]:
    if not votes:
        return None
    name, n = votes.most_common(1)[0]
    return name if name and n >= NAME_SHARE * total else None


def build_book(sources: Iterable[str], output: str, settings: BuildSettings = BuildSettings(),
               progress: Optional[Progress] = None) -> BuildReport:
    """Build a book file from the game files of `sources`; returns what was done."""
    started = time.monotonic()
    report = BuildReport()
    games = collect_games(sources, report, progress, settings.max_ply)
    if progress is not None:
        progress(f"{report.games} distinct games; counting positions")
    counts = count_games(games, settings.max_ply)
    records, names = select(counts, settings)
    report.size = write_book(Path(output), records, names)
    report.positions = len({r.key for r in records})
    report.moves = len(records)
    report.names = len(names)
    report.seconds = time.monotonic() - started
    return report

"""`jiangjun match`: command-line options in the style of cutechess-cli and fastchess.

    jiangjun match -engine cmd=jiangjun name=jj -engine cmd=/usr/games/fairy-stockfish proto=ucci \\
        -each tc=10+0.1 option.Hash=64 -games 2 -rounds 50 -repeat -concurrency 2 -pgnout games.pgn
"""
from __future__ import annotations

import sys
from typing import Optional, Sequence

from ..client import PROTOCOLS, XBOARD_NAMES, EngineConfig
from ..cluster import ClusterError, parse_cluster
from ..pgn import NOTATIONS
from .referee import Adjudication
from .openings import OpeningError, default_book, load_openings
from .runner import TOURNAMENTS, EngineSpec, Match, MatchConfig
from .stats import Sprt
from .timecontrol import TimeControl, TimeControlError

USAGE = """usage: jiangjun match -engine cmd=CMD [name=N] [proto=uci|ucci|xboard|auto] [dir=D] [tc=TC] [ranks=0|1]
                     [option.NAME=VALUE ...] -engine ... [options]
  proto=xboard (or cecp)   an XBoard (CECP) engine: MaxQi, Sjaak II, Fairy-Stockfish in xboard mode;
                           auto tries UCI, then UCCI
  -tournament round-robin|gauntlet
                           every engine against every other (default), or the first against each other
  -each KEY=VALUE ...      settings for every engine (an engine's own settings win)
  -tc TC                   time control for all engines: 10+0.1 (sudden death + increment, seconds),
                           40/5400:10/900 (stages: moves/seconds, the last repeats), 30/300 (repeating),
                           st=1 (seconds per move), depth=N, nodes=N, or a scheme of the Chinese rules:
                           cn-90-40, cn-60-30, cn-rapid, cn-5-30
  -scale F                 multiply all times by F (e.g. 0.0166667 plays a rules scheme at 1/60 speed)
  -games N  -rounds N      games per pair in each round (default 1), rounds (default 1)
  -concurrency N           games played at once (default 1)
  -openings file=F [format=epd|pgn|book] [order=sequential|random] [encoding=auto|utf-8|gbk|big5]
                           start positions (default: the built-in book); pgn: any game file (PGN, XQF,
                           CBR, CBL, CBF, DhtmlXQ), its encoding detected
  -repeat                  play each opening twice, with colours swapped
  -pgnout FILE [notation=iccs|wxf|chinese|san]   (san: XBoard's PGN, which XBoard opens)
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   (on the pentanomial pair counts under -repeat)
  -draw movenumber=N movecount=M score=S     -resign movecount=N score=S [twosided=true]
  -maxmoves N              draw after N full moves
  -timemargin MS           how far an engine may overrun its clock before it forfeits (default 100)
  -seed N  -event NAME
  -cluster tcp://HOST:8786 | local:N
                           play the games on a Dask cluster: a running scheduler, or N local worker
                           processes (pip install 'jiangjun[cluster]'); one game per worker thread
  -resume FILE             journal the finished games in FILE; run the same command again after the
                           runner was stopped or killed, and only the missing games are played"""


class UsageError(ValueError):
    """A command line that cannot be understood; the message says which part and what is expected."""


def main(argv: Sequence[str]) -> int:
    try:
        config = parse_args(list(argv))
    except (UsageError, TimeControlError, OpeningError) as exc:
        print(f"jiangjun match: {exc}", file=sys.stderr)
        print(USAGE, file=sys.stderr)
        return 2
    try:
        Match(config).run()
    except ValueError as exc:      # also a journal of another match (engine.match.journal.JournalError)
        print(f"jiangjun match: {exc}", file=sys.stderr)
        return 2
    except ClusterError as exc:
        print(f"jiangjun match: {exc}", file=sys.stderr)
        return 1
    return 0


def _key_values(words: list[str], flag: str) -> dict[str, str]:
    values = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise UsageError(f"{flag}: expected key=value, got {word!r}")
        values[key] = value
    return values


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {text!r}") from None


def _float(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number, not {text!r}") from None


def parse_args(argv: list[str]) -> MatchConfig:
    """Turn cutechess-style arguments into a MatchConfig."""
    groups: list[tuple[str, list[str]]] = []
    for word in argv:
        if word.startswith("-") and len(word) > 1 and not word[1].isdigit():
            groups.append((word, []))
        elif groups:
            groups[-1][1].append(word)
        else:
            raise UsageError(f"unexpected {word!r} before the first option")
    engine_settings: list[dict[str, str]] = []
    each: dict[str, str] = {}
    global_tc: Optional[str] = None
    scale = 1.0
    config = MatchConfig(engines=[], openings=[])
    openings_file: Optional[dict[str, str]] = None
    draw: dict[str, str] = {}
    resign: dict[str, str] = {}
    for flag, words in groups:
        def need_one() -> str:
            if len(words) != 1:
                raise UsageError(f"{flag} takes one value")
            return words[0]

        if flag == "-engine":
            engine_settings.append(_key_values(words, flag))
        elif flag == "-each":
            each.update(_key_values(words, flag))
        elif flag == "-tc":
            global_tc = need_one()
        elif flag == "-scale":
            scale = _float(need_one(), "-scale")
            if scale <= 0:
                raise UsageError("-scale must be positive")
        elif flag == "-tournament":
            config.tournament = need_one()
            if config.tournament not in TOURNAMENTS:
                raise UsageError(f"-tournament must be one of {', '.join(TOURNAMENTS)}, not {config.tournament!r}")
        elif flag == "-games":
            config.games = _int(need_one(), "-games")
        elif flag == "-rounds":
            config.rounds = _int(need_one(), "-rounds")
        elif flag == "-concurrency":
            config.concurrency = max(1, _int(need_one(), "-concurrency"))
        elif flag == "-openings":
            openings_file = _key_values(words, flag)
        elif flag == "-repeat":
            config.repeat = True
        elif flag == "-pgnout":
            if not words:
                raise UsageError("-pgnout takes a file name")
            config.pgn_path = words[0]
            extra = _key_values(words[1:], flag)
            config.pgn_notation = extra.get("notation", "iccs")
            if config.pgn_notation not in NOTATIONS:
                raise UsageError(f"-pgnout notation must be one of {', '.join(NOTATIONS)}")
        elif flag == "-sprt":
            values = _key_values(words, flag)
            if "elo0" not in values or "elo1" not in values:
                raise UsageError("-sprt needs elo0= and elo1=")
            config.sprt = Sprt(_float(values["elo0"], "elo0"), _float(values["elo1"], "elo1"),
                               _float(values.get("alpha", "0.05"), "alpha"), _float(values.get("beta", "0.05"), "beta"))
        elif flag == "-draw":
            draw = _key_values(words, flag)
        elif flag == "-resign":
            resign = _key_values(words, flag)
        elif flag == "-maxmoves":
            config.adjudication.max_moves = _int(need_one(), "-maxmoves")
        elif flag == "-timemargin":
            config.time_margin = _int(need_one(), "-timemargin") / 1000
        elif flag == "-seed":
            config.seed = _int(need_one(), "-seed")
        elif flag == "-cluster":
            config.cluster = need_one()
            try:
                parse_cluster(config.cluster)
            except ValueError as exc:
                raise UsageError(f"-cluster: {exc}") from None
        elif flag == "-resume":
            config.resume_path = need_one()
        elif flag == "-event":
            config.event = " ".join(words) or config.event
        elif flag in ("-h", "-help", "--help"):
            raise UsageError("help requested")
        else:
            raise UsageError(f"unknown option {flag}")
    if draw:
        config.adjudication.draw_movenumber = _int(draw.get("movenumber", "0"), "-draw movenumber")
        config.adjudication.draw_movecount = _int(draw.get("movecount", "1"), "-draw movecount")
        config.adjudication.draw_score = _int(draw.get("score", "0"), "-draw score")
    if resign:
        config.adjudication.resign_movecount = _int(resign.get("movecount", "1"), "-resign movecount")
        config.adjudication.resign_score = _int(resign.get("score", "600"), "-resign score")
        config.adjudication.resign_twosided = resign.get("twosided", "false").lower() in ("1", "true", "yes")
    for settings in engine_settings:
        config.engines.append(_engine_spec({**each, **settings}, global_tc, scale))
    if len(config.engines) < 2:
        raise UsageError("a match needs at least two -engine options")
    if openings_file:
        if "file" not in openings_file:
            raise UsageError("-openings needs file=")
        config.openings = load_openings(openings_file["file"], openings_file.get("format"),
                                        openings_file.get("encoding"))
        config.random_order = openings_file.get("order", "sequential") == "random"
    else:
        config.openings = default_book()
    return config


def _engine_spec(settings: dict[str, str], global_tc: Optional[str], scale: float) -> EngineSpec:
    if not settings.get("cmd"):
        raise UsageError("each -engine needs cmd=")
    options = {key[len("option."):]: value for key, value in settings.items() if key.startswith("option.")}
    proto = settings.get("proto", "auto")
    if proto not in PROTOCOLS:
        raise UsageError(f"proto must be uci, ucci, xboard (or cecp) or auto, not {proto!r}")
    rank_base = settings.get("ranks")
    config = EngineConfig(
        cmd=settings["cmd"], name=settings.get("name"), proto=proto, options=options,
        workdir=settings.get("dir"), rank_base=None if rank_base is None else _int(rank_base, "ranks"),
    )
    tc_text = settings.get("tc") or global_tc
    if "st" in settings:
        tc_text = f"st={settings['st']}"
    elif "depth" in settings:
        tc_text = f"depth={settings['depth']}"
    elif "nodes" in settings:
        tc_text = f"nodes={settings['nodes']}"
    if not tc_text:
        raise UsageError(f"no time control for engine {config.name or config.cmd}: use -tc or tc=")
    tc = TimeControl.parse(tc_text, scale=scale)
    if proto in XBOARD_NAMES:
        # What CECP cannot say (engine.client.cecp): a node limit, and st in fractions of a second.
        if tc.nodes is not None:
            raise UsageError(f"engine {config.name or config.cmd}: an XBoard engine takes no node limit")
        if tc.movetime is not None and (tc.movetime < 1 or not float(tc.movetime).is_integer()):
            raise UsageError(f"engine {config.name or config.cmd}: an XBoard engine's st is whole seconds, "
                             f"not {tc.movetime:g}")
    return EngineSpec(config, tc)

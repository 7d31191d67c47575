"""The options of `jiangjun match`, declared once: the table that the command line is read from and that
its help text (`jiangjun match -help`) and the option reference of docs/match.md are generated from
(engine.match.cli), as the engine's own options are one table (engine/server/options.py).

The syntax is cutechess-cli's: an option is a word starting with ``-``, followed by its values, up to the
next option. A row (MatchOption) says what its option takes:

* ``flag`` -- nothing (``-repeat``);
* ``value`` -- one value (``-games 2``), read as the row's type, among its choices, passed by its check;
* ``words`` -- any words, joined by spaces (``-event Club match``);
* ``settings`` -- ``KEY=VALUE`` words (``-sprt elo0=0 elo1=10``), each KEY a row of its own (Key), maybe
  after a first plain value (``-pgnout FILE notation=wxf``). A key may be a prefix (``option.``: any
  ``option.NAME=VALUE``). -engine's settings are also -each's, and -engine may be given again for each
  engine.

Reading a word checks it at once (a UsageError names the option, the key and what is expected); each
key's default is filled in where the settings are used (read_settings), after -each's and an engine's own
were merged. Turning the values into a MatchConfig is engine.match.cli's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal, Optional

from ..client import PROTOCOLS
from ..cluster import parse_cluster
from ..notation import NOTATIONS
from .openings import FORMATS
from .runner import TOURNAMENTS
from .timecontrol import SCHEMES, TimeControl, TimeControlError

Takes = Literal["flag", "value", "words", "settings"]
Reader = Callable[[str], Any]
Check = Callable[[Any], Optional[str]]   # the problem with a value, in words; None: fine


class UsageError(ValueError):
    """A command line that cannot be understood; the message says which part and what is expected."""


# -- value types and checks -----------------------------------------------------------------------------
def whole(text: str) -> int:
    """A whole number."""
    try:
        return int(text)
    except ValueError:
        raise ValueError("must be a whole number") from None


def number(text: str) -> float:
    """A number."""
    try:
        return float(text)
    except ValueError:
        raise ValueError("must be a number") from None


def boolean(text: str) -> bool:
    """true/false (also 1/0, yes/no, on/off)."""
    word = text.lower()
    if word in ("true", "1", "yes", "on"):
        return True
    if word in ("false", "0", "no", "off"):
        return False
    raise ValueError("must be true or false")


def at_least(low: float) -> Check:
    return lambda value: None if value >= low else f"must be at least {low:g}"


def positive(value: float) -> Optional[str]:
    return None if value > 0 else "must be positive"


def time_control(text: str) -> Optional[str]:
    try:
        TimeControl.parse(text)
    except TimeControlError as exc:
        return str(exc)
    return None


def cluster_address(text: str) -> Optional[str]:
    try:
        parse_cluster(text)
    except ValueError as exc:
        return str(exc)
    return None


# -- rows -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Key:
    """One KEY=VALUE setting of an option. A name ending in ``.`` is a prefix (``option.`` takes
    ``option.NAME=VALUE`` for any NAME)."""

    name: str
    help: str
    read: Reader = str
    default: Any = None              # filled in when the option is used without it; None: none
    metavar: str = ""                # how the help writes the value (default: the choices, or V)
    choices: tuple[str, ...] = ()
    check: Optional[Check] = None
    required: bool = False

    @property
    def is_prefix(self) -> bool:
        return self.name.endswith(".")

    def spelling(self) -> str:
        """``notation=iccs|wxf|chinese|san``, ``option.NAME=V``."""
        name = self.name + "NAME" if self.is_prefix else self.name
        return f"{name}={self.metavar or '|'.join(self.choices) or 'V'}"


@dataclass(frozen=True)
class MatchOption:
    """One option of the command line."""

    flag: str                        # "-games"
    help: str
    takes: Takes
    read: Reader = str
    default: Any = None
    metavar: str = ""                # "N", "TC", "FILE"
    choices: tuple[str, ...] = ()
    check: Optional[Check] = None
    keys: tuple[Key, ...] = ()       # takes "settings": its keys
    first: Optional[Key] = None      # ... and a plain value before them (-pgnout FILE)
    repeated: bool = False           # given once per item (-engine): its values are a list
    merged: bool = False             # its settings add up when given again (-each)
    aliases: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The key of its value in what read_command_line returns: the flag without its dash."""
        return self.flag.lstrip("-")

    def key(self, name: str) -> Optional[Key]:
        for key in self.keys:
            if key.is_prefix and name.startswith(key.name) and len(name) > len(key.name):
                return key
            if not key.is_prefix and key.name == name:
                return key
        return None


ENGINE_KEYS = (
    Key("cmd", "the command that starts it (split as a shell splits words, run without a shell)",
        metavar="CMD", required=True),
    Key("name", "its name in the tables and the PGN (default: the name the engine gives, its `id name`)",
        metavar="N"),
    Key("proto", "its protocol: auto tries UCI, then UCCI; xboard (or cecp) for an XBoard engine (MaxQi, "
        "Sjaak II, Fairy-Stockfish in xboard mode)", default="auto", choices=PROTOCOLS),
    Key("dir", "the folder it runs in", metavar="D"),
    Key("tc", "its own time control instead of -tc's: time odds (-engine ... tc=20+0.2 against -tc 10+0.1)",
        metavar="TC", check=time_control),
    Key("st", "its own fixed time per move, in seconds (instead of any tc)", read=number, metavar="S",
        check=positive),
    Key("depth", "its own depth per move (instead of any tc)", read=whole, metavar="N", check=at_least(1)),
    Key("nodes", "its own node count per move (instead of any tc)", read=whole, metavar="N", check=at_least(1)),
    Key("ranks", "its rank numbering when it is not the one the client finds: 0 (0..9) or 1 (1..10)",
        read=whole, metavar="0|1", check=lambda base: None if base in (0, 1) else "must be 0 or 1"),
    Key("option.", "an option of the engine, set after its handshake (`-each option.Hash=64` serves "
        "engines of every protocol)"),
)

TC_HELP = ("the time control of every engine without its own: 10+0.1 (sudden death + increment, seconds), "
           "40/5400:10/900 (stages: moves/seconds, the last repeats), 30/300 (repeating), st=1 (seconds per "
           "move), depth=N, nodes=N, or a scheme of the Chinese rules: "
           + ", ".join(f"{name} ({words})" for name, (_, words) in SCHEMES.items()))

TABLE: tuple[MatchOption, ...] = (
    MatchOption("-engine", "an engine of the match (two or more) and its settings", "settings",
                keys=ENGINE_KEYS, repeated=True),
    MatchOption("-each", "settings for every engine, as -engine's (an engine's own settings win)", "settings",
                keys=ENGINE_KEYS, merged=True),
    MatchOption("-tournament", "who plays whom: every pair of engines, or the first engine against each of "
                "the others", "value", default="round-robin", choices=TOURNAMENTS),
    MatchOption("-tc", TC_HELP, "value", metavar="TC", check=time_control),
    MatchOption("-scale", "multiply all times by F (0.0166667 plays a rules scheme at 1/60 speed)", "value",
                read=number, default=1.0, metavar="F", check=positive),
    MatchOption("-games", "games per pair of engines in each round", "value", read=whole, default=1,
                metavar="N", check=at_least(1)),
    MatchOption("-rounds", "rounds", "value", read=whole, default=1, metavar="N", check=at_least(1)),
    MatchOption("-concurrency", "games played at once (each game has its own engine processes)", "value",
                read=whole, default=1, metavar="N", check=at_least(1)),
    MatchOption("-openings", "start positions (default: the built-in book of 36 named lines); pgn is any game file (PGN, XQF, "
                "CBR, CBL, CBF, DhtmlXQ), its encoding detected", "settings", keys=(
                    Key("file", "the file", metavar="F", required=True),
                    Key("format", "its format (default: chosen by the file's ending or its content)",
                        choices=FORMATS),
                    Key("order", "the openings in the file's order, or shuffled by -seed",
                        default="sequential", choices=("sequential", "random")),
                    Key("encoding", "its text encoding", default="auto", metavar="auto|utf-8|gbk|big5"))),
    MatchOption("-repeat", "play each opening twice, with the colours swapped (game pairs, judged on their "
                "pentanomial counts)", "flag", default=False),
    MatchOption("-pgnout", "write every game to FILE as Xiangqi PGN (san: XBoard's PGN, which XBoard opens)",
                "settings", first=Key("FILE", "the file", required=True), keys=(
                    Key("notation", "the notation of the moves", default="iccs", choices=NOTATIONS),)),
    MatchOption("-sprt", "stop when the test decides (GSPRT, logistic Elo; on the pentanomial counts of game "
                "pairs under -repeat)", "settings", keys=(
                    Key("elo0", "H0's Elo", read=number, metavar="E0", required=True),
                    Key("elo1", "H1's Elo", read=number, metavar="E1", required=True),
                    Key("alpha", "the false positive rate", read=number, default=0.05, metavar="A"),
                    Key("beta", "the false negative rate", read=number, default=0.05, metavar="B"))),
    MatchOption("-draw", "adjudicate a draw: from full move movenumber on, when both sides' scores stayed "
                "within score centipawns for movecount moves each", "settings", keys=(
                    Key("movenumber", "from this full move on", read=whole, default=0, metavar="N"),
                    Key("movecount", "for this many moves", read=whole, default=1, metavar="N"),
                    Key("score", "within this many centipawns", read=whole, default=0, metavar="S"))),
    MatchOption("-resign", "adjudicate a loss: a side's score at or below -score for movecount moves "
                "(twosided: and its opponent's at or above score)", "settings", keys=(
                    Key("movecount", "for this many moves", read=whole, default=1, metavar="N"),
                    Key("score", "centipawns", read=whole, default=600, metavar="S"),
                    Key("twosided", "the opponent's score must agree", read=boolean, default=False,
                        metavar="true|false"))),
    MatchOption("-maxmoves", "adjudicate a draw after N full moves (0: no limit)", "value", read=whole,
                default=0, metavar="N", check=at_least(0)),
    MatchOption("-noadjudicate", "end games only by checkmate, stalemate and the repetition rulings (perpetual "
                "check, perpetual chase, repetition), as a GUI that does not adjudicate: no 60-move or "
                "material draw, and no -draw, -resign or -maxmoves; an engine that answers no move while it "
                "has legal moves forfeits", "flag", default=False),
    MatchOption("-timemargin", "how far an engine may overrun its clock, in ms, before it forfeits", "value",
                read=whole, default=100, metavar="MS", check=at_least(0)),
    MatchOption("-seed", "the seed of order=random", "value", read=whole, default=0, metavar="N"),
    MatchOption("-event", "the PGN's Event", "words", default="jiangjun match", metavar="NAME"),
    MatchOption("-cluster", "play the games on a Dask cluster: a running scheduler, or N local worker "
                "processes (pip install 'jiangjun[cluster]'); one game per worker thread", "value",
                metavar="tcp://HOST:8786|local:N", check=cluster_address),
    MatchOption("-resume", "journal the finished games in FILE; the same command run again after the runner "
                "was stopped or killed plays only the missing games", "value", metavar="FILE"),
    MatchOption("-help", "this help (also -h, --help)", "flag", default=False, aliases=("-h", "--help")),
)

BY_FLAG = {flag: row for row in TABLE for flag in (row.flag, *row.aliases)}


# -- reading --------------------------------------------------------------------------------------------
def read_command_line(argv: list[str]) -> dict[str, Any]:
    """Every option's value by its name (MatchOption.name): its default when not given; a settings
    option's given KEY=VALUEs (a list of them for -engine), None when not given."""
    values: dict[str, Any] = {row.name: [] if row.repeated else row.default for row in TABLE}
    for flag, words in _groups(argv):
        row = BY_FLAG.get(flag)
        if row is None:
            raise UsageError(f"unknown option {flag} (jiangjun match -help lists them)")
        values[row.name] = _take(row, words, values[row.name])
    return values


def _groups(argv: list[str]) -> list[tuple[str, list[str]]]:
    """The options and the words after each: a word starting with '-' and no digit starts an option."""
    groups: list[tuple[str, list[str]]] = []
    for word in argv:
        if word.startswith("-") and len(word) > 1 and not word[1].isdigit():
            groups.append((word, []))
        elif groups:
            groups[-1][1].append(word)
        else:
            raise UsageError(f"unexpected {word!r} before the first option")
    return groups


def _take(row: MatchOption, words: list[str], before: Any) -> Any:
    """The value of `row` after it was given `words`; `before`: its value until then."""
    if row.takes == "flag":
        if words:
            raise UsageError(f"{row.flag} takes no value, not {' '.join(words)!r}")
        return True
    if row.takes == "words":
        return " ".join(words) or before
    if row.takes == "value":
        if len(words) != 1:
            raise UsageError(f"{row.flag} takes one value ({row.metavar or 'V'})")
        return _value(row.flag, words[0], row.read, row.choices, row.check)
    settings = _settings(row, words)
    if row.repeated:
        return before + [settings]
    return {**before, **settings} if row.merged and before else settings


def _settings(row: MatchOption, words: list[str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if row.first is not None:
        if not words or "=" in words[0]:
            raise UsageError(f"{row.flag} takes {row.first.name} first")
        settings[row.first.name] = words[0]
        words = words[1:]
    for word in words:
        name, sep, text = word.partition("=")
        key = row.key(name) if sep else None
        if key is None:
            known = ", ".join(key.spelling() for key in row.keys)
            raise UsageError(f"{row.flag}: expected one of {known}; got {word!r}")
        settings[name] = _value(f"{row.flag} {key.name}", text, key.read, key.choices, key.check)
    return settings


def _value(what: str, text: str, read: Reader, choices: tuple[str, ...], check: Optional[Check]) -> Any:
    """`text` read as `what` takes it; a UsageError saying what is wrong."""
    if choices and text not in choices:
        raise UsageError(f"{what} must be one of {', '.join(choices)}, not {text!r}")
    try:
        value = read(text)
    except ValueError as exc:
        raise UsageError(f"{what} {exc}, not {text!r}") from None
    problem = check(value) if check is not None else None
    if problem is not None:
        raise UsageError(f"{what}: {problem}, not {text!r}")
    return value


def read_settings(row: MatchOption, given: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """A settings option's values with its keys' defaults filled in; None when it was not given. A
    missing required key is a UsageError."""
    if given is None:
        return None
    for key in (row.first, *row.keys):
        if key is not None and key.required and key.name not in given:
            raise UsageError(f"{row.flag} needs {key.name}=" if key is not row.first else f"{row.flag} needs {key.name}")
    defaults = {key.name: key.default for key in row.keys if key.default is not None and not key.is_prefix}
    return {**defaults, **given}


def prefixed(settings: dict[str, Any], prefix: str) -> dict[str, str]:
    """The settings of a prefix key by name: {"Hash": "64"} for option.Hash=64."""
    return {name[len(prefix):]: value for name, value in settings.items() if name.startswith(prefix)}

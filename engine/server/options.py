"""Every engine option, declared once for UCI, UCCI and CECP: the table that the handshakes, the
`setoption` look-up and parsing, and the setters of all three dialects are generated from.

A row says what the option sets (an EngineOptions field, an action on the engine, or a setting of the
protocol session), its name in each dialect (None: not offered there), its type, range, default and
what it does (the maximum of Hash is half the machine's memory: 8192 on 16 GB):

    table = option_table()
    row = table.find("ucci", "Hash")   # any of its names, in any case: UCCI's hashsize here
    row.line("uci")                    # 'option name Hash type spin default 16 min 1 max 8192'
    row.line("ucci")                   # 'option hashsize type spin min 0 max 8192 default 16'
    row.parse("ucci", "0")             # 16: in UCCI, 0 lets the engine choose
    apply(row, 64, session)            # session.engine.configure(hash_mb=64)

A session offers the rows that have a name in its dialect, and `setoption` finds a row by that name,
by its name in the other dialects, or by an alias. CECP offers its rows as `feature option=` under
the UCI name, except Hash and Threads, which are XBoard's `memory` and `cores` commands (a value out of
range is clamped there: XBoard sends what the user has, not what the engine offers). UCI_ShowWDL is
not offered in CECP: its thinking lines have fixed fields and no room for the chances.

Rows can be appended at run time (OptionTable.extend): `option_table()` appends the search's tuning
parameters when the environment variable JIANGJUN_TUNE is set (`tuning_options`), so that an SPSA
tuner can set them as spin options, as Stockfish's TUNE does.

The module is imported for the handshake: it must not load the search kernel.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Callable, Iterable, Literal, Mapping, NamedTuple, Optional, Protocol,
                    Sequence, Union)

from .. import nets
from . import memory
from .commands import CommandError, parse_bool, parse_int
from .strength import ELO_MAX, ELO_MIN, FULL_STRENGTH

if TYPE_CHECKING:
    from .engine import Engine

Dialect = Literal["uci", "ucci", "cecp"]
OptionKind = Literal["spin", "check", "button", "combo", "string", "file"]
OptionValue = Union[int, bool, str, None]
Action = Callable[["Engine", OptionValue], None]
Summary = Callable[["Engine"], str]

#: The environment variable that makes the search's tuning parameters options.
TUNE_VARIABLE = "JIANGJUN_TUNE"
#: `cecp` of a row offered to XBoard as `feature option="NAME -TYPE ..."` (under its UCI name).
FEATURE = "feature"
#: The hash table size when none is asked for (UCCI `hashsize 0` too). Its one home: the kernel's
#: Searcher takes its size from its caller, the facade from this table.
DEFAULT_HASH_MB = 16
#: The most search threads offered.
MAX_THREADS = 256
#: BookFile's default, the shipped book: engine.book.DEFAULT, not imported here because engine.book
#: loads the rules and the kernel, which the handshake does not need (tests/server/test_options.py checks
#: that the two agree).
SHIPPED_BOOK = "ccpd.jjbk"


class OptionTarget(Protocol):
    """What an option is set on: a protocol session, with its engine."""

    @property
    def engine(self) -> "Engine": ...

    def tell(self, text: str) -> None:
        """Tell the user something (UCI, UCCI: `info string`; CECP: `telluser`)."""


class OptionError(CommandError):
    """A `setoption` with an unknown name or a value the option does not accept."""


def max_hash_mb() -> int:
    """The largest Hash offered: half the physical memory (the table is allocated and cleared at once;
    a size the memory free at the time cannot hold is refused then: engine.server.memory)."""
    total = memory.physical_mb() or 8192
    return max(16, min(total // 2, 1 << 20))


def default_threads() -> int:
    """The thread count the engine picks when asked to choose (UCCI `threads 0`)."""
    return max(1, os.cpu_count() or 1)


class Spelling(NamedTuple):
    """An option's name in one dialect, and what that dialect reads differently."""

    name: str
    minimum: Optional[int] = None                    # its own lower bound (UCCI's 0: the engine chooses)
    convert: Optional[Callable[[Any], Any]] = None   # the value sent -> the value set


@dataclass(frozen=True)
class EngineOption:
    """One row of the table. At most one of field, action and setting says what it sets (none: the
    value is only checked, as UCI_Variant's is)."""

    kind: OptionKind
    meaning: str                              # one line: what it does
    uci: Union[str, Spelling, None] = None    # its name in UCI (CECP's feature name too)
    ucci: Union[str, Spelling, None] = None   # its name in UCCI
    cecp: Optional[str] = None                # FEATURE, the CECP command that sets it, or None
    field: Optional[str] = None               # the EngineOptions field it sets
    action: Optional[Action] = None           # or what it does to the engine
    setting: Optional[str] = None             # or the session attribute it sets (a setting of the wire)
    summary: Optional[Summary] = None         # what the user is told after setting it
    default: OptionValue = None
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    choices: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()             # other names `setoption` accepts, in every dialect

    def spelling(self, dialect: Dialect) -> Optional[Spelling]:
        """Its name in `dialect` (and what that dialect reads differently), None if not offered there."""
        if dialect == "cecp":
            return self.spelling("uci") if self.cecp == FEATURE else None
        name = self.uci if dialect == "uci" else self.ucci
        return Spelling(name) if isinstance(name, str) else name

    def offered_spelling(self, dialect: Dialect) -> Spelling:
        """Its name in `dialect`, where it is offered (an AssertionError otherwise)."""
        spelling = self.spelling(dialect)
        assert spelling is not None, f"{self.meaning!r} is not offered in {dialect}"
        return spelling

    def name(self, dialect: Dialect) -> str:
        return self.offered_spelling(dialect).name

    def names(self) -> set[str]:
        """Every name it answers to, in lower case."""
        spellings = (self.spelling("uci"), self.spelling("ucci"))
        return {s.name.lower() for s in spellings if s is not None} | {a.lower() for a in self.aliases}

    def parse(self, dialect: Dialect, text: Optional[str]) -> OptionValue:
        """The value `text` sets in `dialect` (None for a button). Raises OptionError for a bad value."""
        spelling = self.offered_spelling(dialect)
        value = self._parse(spelling, text)
        return spelling.convert(value) if spelling.convert is not None else value

    def _parse(self, spelling: Spelling, text: Optional[str]) -> OptionValue:
        what = f"option {spelling.name}"
        if self.kind == "button":
            return None
        if text is None or text == "":
            if self.kind in ("string", "file"):
                return ""
            raise OptionError(f"{what} needs a value")
        if self.kind in ("string", "file"):
            # "<empty>" is what the option line advertises as the empty default; some GUIs send it back.
            return "" if text == "<empty>" else text
        try:
            if self.kind == "spin":
                minimum = self.minimum if spelling.minimum is None else spelling.minimum
                return parse_int(text, what, minimum, self.maximum)
            if self.kind == "check":
                return parse_bool(text, what)
        except CommandError as exc:
            raise OptionError(str(exc)) from None
        for choice in self.choices:   # combo
            if choice.lower() == text.lower():
                return choice
        raise OptionError(f"{what} accepts {', '.join(self.choices)}, not {text[:40]!a}")

    def default_text(self) -> str:
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if self.default is None or self.default == "":
            return "<empty>"
        return str(self.default)

    def line(self, dialect: Dialect) -> str:
        """The handshake's `option ...` line: UCI's `option name N type T default D min A max B var C`,
        UCCI's `option N type T min A max B var C default D` (no `name`; the default last). CECP's
        `feature option=` line is engine.server.cecp_codec.option_feature."""
        assert dialect != "cecp", "CECP's form is cecp_codec.option_feature"
        spelling = self.offered_spelling(dialect)
        kind = "string" if self.kind == "file" else self.kind
        minimum = self.minimum if spelling.minimum is None else spelling.minimum
        bounds = [f"min {minimum} max {self.maximum}"] if self.kind == "spin" else []
        choices = [f"var {choice}" for choice in self.choices]
        default = [] if self.kind == "button" else [f"default {self.default_text()}"]
        if dialect == "uci":
            return " ".join([f"option name {spelling.name} type {kind}", *default, *bounds, *choices])
        return " ".join([f"option {spelling.name} type {kind}", *bounds, *choices, *default])


class OptionTable:
    """The rows in handshake order; more can be appended at run time."""

    def __init__(self, rows: Iterable[EngineOption]) -> None:
        self.rows = list(rows)

    def extend(self, rows: Iterable[EngineOption]) -> None:
        self.rows.extend(rows)

    def offered(self, dialect: Dialect) -> list[EngineOption]:
        """The rows `dialect` lists in its handshake (CECP: its `feature option=` rows)."""
        return [row for row in self.rows if row.spelling(dialect) is not None]

    def commands(self) -> list[EngineOption]:
        """The rows CECP sets by a command of their own (`memory`, `cores`)."""
        return [row for row in self.rows if row.cecp not in (None, FEATURE)]

    def find(self, dialect: Dialect, name: str) -> Optional[EngineOption]:
        """The row offered in `dialect` that answers to `name` (any case), or None."""
        key = name.lower()
        for row in self.offered(dialect):
            if key in row.names():
                return row
        return None


def apply(option: EngineOption, value: OptionValue, target: OptionTarget) -> None:
    """Set a parsed value (on the engine, or on the session for a setting of the wire), then tell the
    user what is in use now when the option changes that (which evaluation, book or strength)."""
    if option.field is not None:
        target.engine.configure(**{option.field: value})
    elif option.action is not None:
        option.action(target.engine, value)
    elif option.setting is not None:
        setattr(target, option.setting, value)
    if option.summary is not None:
        target.tell(option.summary(target.engine))


def _first_book(value: str) -> str:
    """UCCI's bookfiles is a list separated by ';' (ElephantEye's name): one file is read, the first."""
    return value.split(";")[0].strip()


def _builtin_options() -> tuple[EngineOption, ...]:
    """The engine's own options, in handshake order (each dialect lists those it has)."""
    def evaluation(engine: Engine) -> str:
        return engine.evaluation_summary()

    def books(engine: Engine) -> str:
        return engine.book_summary()

    def strength(engine: Engine) -> str:
        return engine.strength_summary()

    def tablebases(engine: Engine) -> str:
        return engine.tablebase_summary()

    return (
        EngineOption("check", "times in `go` are in ms, not seconds",
                     ucci="usemillisec", setting="millis", default=False),
        EngineOption("spin", "size of the transposition table in MB",
                     uci="Hash", ucci=Spelling("hashsize", minimum=0, convert=lambda mb: mb or DEFAULT_HASH_MB),
                     cecp="memory", field="hash_mb", default=DEFAULT_HASH_MB, minimum=1, maximum=max_hash_mb()),
        EngineOption("spin", "search threads",
                     uci="Threads", ucci=Spelling("threads", minimum=0, convert=lambda n: n or default_threads()),
                     cecp="cores", field="threads", default=1, minimum=1, maximum=MAX_THREADS),
        EngineOption("spin", "principal variations searched and shown",
                     uci="MultiPV", cecp=FEATURE, field="multipv", default=1, minimum=1, maximum=128),
        EngineOption("check", "the GUI ponders: plan for a little more time (CECP: its hard/easy commands)",
                     uci="Ponder", ucci="ponder", field="ponder", default=False),
        EngineOption("spin", "ms kept back on every move for the GUI and the pipe",
                     uci="Move Overhead", cecp=FEATURE, field="move_overhead_ms", default=10, minimum=0,
                     maximum=5000),
        EngineOption("button", "forget what the search has learnt: table and history (UCCI: a new game)",
                     uci="Clear Hash", ucci="newgame", cecp=FEATURE, action=lambda engine, value: engine.clear_hash()),
        EngineOption("check", "show the win/draw/loss chances (per mille) of each score in the info lines",
                     uci="UCI_ShowWDL", ucci="showwdl", setting="show_wdl", default=False),
        EngineOption("combo", "the variant: xiangqi is the only one",
                     uci="UCI_Variant", default="xiangqi", choices=("xiangqi",)),
        EngineOption("check", "batch mode: accepted; input is read during searches anyway",
                     ucci="batch", setting="batch", default=False),
        EngineOption("check", "verbose output: accepted",
                     ucci="debug", setting="debug", default=False),
        EngineOption("file", "write every line in and out to this file, with the time; empty for none",
                     uci="Debug Log File", ucci="debuglogfile", cecp=FEATURE, setting="debug_log_file",
                     default=""),
        EngineOption("file", "the NNUE network file (a shipped one by its name); empty for none",
                     uci="EvalFile", ucci="evalfile", cecp=FEATURE, field="eval_file", summary=evaluation,
                     default=nets.DEFAULT),
        EngineOption("check", "evaluate with the network rather than the hand-crafted evaluation",
                     uci="Use NNUE", ucci="usennue", cecp=FEATURE, field="use_nnue", summary=evaluation,
                     default=True),
        EngineOption("check", "play the opening book's moves in games",
                     uci="OwnBook", ucci="usebook", cecp=FEATURE, field="own_book", summary=books, default=True),
        EngineOption("file", "the opening book file, of any format; empty for none",
                     uci="BookFile", ucci=Spelling("bookfiles", convert=_first_book), cecp=FEATURE,
                     field="book_file", summary=books, default=SHIPPED_BOOK),
        EngineOption("spin", "strength level: 20 is full strength",
                     uci="Skill Level", ucci="skilllevel", cecp=FEATURE, field="skill_level", summary=strength,
                     default=FULL_STRENGTH, minimum=0, maximum=FULL_STRENGTH),
        EngineOption("check", "play at UCI_Elo rather than at Skill Level",
                     uci="UCI_LimitStrength", ucci="limitstrength", cecp=FEATURE, field="limit_strength",
                     summary=strength, default=False),
        EngineOption("spin", "the strength to play at with UCI_LimitStrength, on the measured scale",
                     uci="UCI_Elo", ucci="elo", cecp=FEATURE, field="elo", summary=strength,
                     default=ELO_MAX, minimum=ELO_MIN, maximum=ELO_MAX),
        EngineOption("string", "folders of endgame tables (.jjtb), separated by ';'; the shipped tables "
                     "are used after them, and alone when empty",
                     uci="TablebasePath", ucci="tablebasepath", cecp=FEATURE, field="tablebase_path",
                     summary=tablebases, default="", aliases=("egtbpaths",)),
        EngineOption("spin", "the search probes the endgame tables at nodes at least this many plies deep",
                     uci="TablebaseProbeDepth", ucci="tablebaseprobedepth", cecp=FEATURE,
                     field="tb_probe_depth", default=1, minimum=1, maximum=100),
        EngineOption("check", "use the endgame tables (the search and the move at the root; not at a "
                     "limited strength)",
                     uci="UseTablebase", ucci="useegtb", cecp=FEATURE, field="use_tablebase",
                     summary=tablebases, default=True),
    )


#: The engine's own options, in handshake order (each dialect lists those it has).
BUILTIN_OPTIONS = _builtin_options()
#: Each EngineOptions field's default, from the table.
FIELD_DEFAULTS: Mapping[str, Any] = {row.field: row.default for row in BUILTIN_OPTIONS if row.field}


SearchParameter = tuple[str, int, int, int, str]   # (name, value, minimum, maximum, meaning)


def tuning_options(parameters: Sequence[SearchParameter],
                   set_parameter: Callable[[str, int], None]) -> list[EngineOption]:
    """The search's tuning parameters as spin options under their own names, in every dialect."""
    def setter(name: str) -> Action:
        return lambda engine, value: set_parameter(name, int(value))  # type: ignore[arg-type]

    return [EngineOption("spin", meaning, uci=name, ucci=name, cecp=FEATURE, action=setter(name),
                         default=value, minimum=minimum, maximum=maximum)
            for name, value, minimum, maximum, meaning in parameters]


def option_table(environ: Mapping[str, str] = os.environ) -> OptionTable:
    """The options a session offers: the built-in ones, plus the search's tuning parameters
    (engine._core.search_parameters, ext/params.pxi) when JIANGJUN_TUNE is set."""
    table = OptionTable(BUILTIN_OPTIONS)
    if environ.get(TUNE_VARIABLE):
        from .. import _core   # only now: the handshake does not load the kernel otherwise
        table.extend(tuning_options(_core.search_parameters(), _core.set_search_parameter))
    return table

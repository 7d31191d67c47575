"""Time controls for engine matches, and the clock that a match runner keeps for each player.

A :class:`TimeControl` is a sequence of clock stages (:class:`Stage`) and/or search limits
(a fixed time per move, a depth, a node count).  :meth:`TimeControl.parse` reads it from text;
matching is case-insensitive and whitespace inside the text is ignored.

Accepted forms
--------------

``300``, ``300+2``, ``5:00+2``, ``1:30:00``
    Sudden death: the time (seconds, ``m:ss`` or ``h:mm:ss``) for the whole game, with an
    optional increment in seconds added after every move.
``40/60+0.5``, ``40/2:30``
    cutechess style: ``moves/time+increment``; the stage repeats every ``moves`` moves.
``40/5400:10/900``, ``40/5400:900``, ``40/5400+30:1800+30``
    PGN TimeControl style: stages joined by ``:``.  Every stage but the last needs a move count;
    a last stage without one is sudden death, a last stage with one repeats
    (``40/5400:10/900`` adds 15 minutes after move 40, 50, 60, ...).
    An increment may follow any stage's time and applies to the moves of that stage.
``inf`` / ``infinite``
    No limit at all.
``st=5`` / ``movetime=5``
    A fixed time per move, in seconds.
``depth=12``, ``nodes=100000``
    Search limits.
``cn-90-40``, ``cn-60-30``, ``cn-rapid``, ``cn-5-30``
    Schemes of the Chinese Xiangqi rules, see :data:`SCHEMES`.

Several items can be joined with commas (``depth=10,nodes=50000``, ``300+2,depth=20``,
``tc=40/60`` is also accepted); a clock and a fixed time per move exclude each other.

How ``:`` is read
-----------------

``:`` both separates PGN stages and writes times as ``m:ss``.  A ``:`` continues a time
(``m:ss``, ``h:mm:ss``) when the text after it is exactly two digits ``00``..``59`` that end the
item or are followed by ``+``, and the stage before it has no increment yet; every other ``:``
separates two stages.  So ``2:30+1``, ``40/2:30`` (as in cutechess) and ``1:30:00`` are single
stages, while ``40/5400:10/900``, ``40/5400:900`` and ``40/5400+30:1800+30`` have two.  The one
clash is a sudden-death stage of under a minute after a counted stage: write it ``40/60:0:30`` or
``40/60:30.0`` (:meth:`TimeControl.pgn_tag` writes the latter, so its output always parses back
to the same time control).  The seconds of ``m:ss`` are whole seconds.

``scale`` multiplies every time, increment and fixed move time, so ``parse("cn-90-40", 1/60)``
plays the 90-minute scheme in 90 seconds with the same move structure.

A :class:`Clock` follows one player's time through a game from the elapsed times the runner
measures; see :meth:`Clock.punch` for the order in which time is subtracted and added.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Optional, Tuple

__all__ = ["TimeControlError", "Stage", "TimeControl", "Clock", "SCHEMES"]


class TimeControlError(ValueError):
    """A time control text (or value) that cannot be used; the message shows the accepted forms."""


ACCEPTED_FORMS = (
    "accepted time controls: sudden death '300', '300+2', '5:00+2'; cutechess 'moves/time+inc' "
    "('40/60+0.5', '40/2:30'); PGN stages joined by ':' ('40/5400:10/900', '40/5400:900'); "
    "'inf'; 'st=5' or 'movetime=5' (seconds per move); 'depth=N'; 'nodes=N'; "
    "the Chinese-rules schemes 'cn-90-40', 'cn-60-30', 'cn-rapid', 'cn-5-30'; "
    "items may be joined with ',' (e.g. '300+2,depth=20')"
)

#: Named schemes of the Chinese Xiangqi competition rules: name -> (PGN-style text, description).
SCHEMES = {
    "cn-90-40": ("40/5400:10/900", "40 moves in 90 min, then 10 moves every 15 min"),
    "cn-60-30": ("30/3600:10/600", "30 moves in 60 min, then 10 moves every 10 min"),
    "cn-rapid": ("40/600:30/300", "40 moves in 10 min, then 30 moves every 5 min"),
    "cn-5-30": ("30/300", "30 moves every 5 min"),
}

_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_NUMBER_RE = re.compile(_NUMBER)
_INT_RE = re.compile(r"\d+")
# seconds / m:ss / h:mm:ss
_TIME_RE = re.compile(rf"(\d+):(?:([0-5]\d):)?([0-5]\d)|({_NUMBER})")
_STAGE_RE = re.compile(r"(?:(\d+)/)?([^/+]+)(?:\+([^/+]+))?")
# the start of the text after a ':' that makes the ':' part of an m:ss time
_SECONDS_FIELD_RE = re.compile(r"[0-5]\d(?:\+|$)")


def _error(message: str) -> TimeControlError:
    return TimeControlError(f"{message}; {ACCEPTED_FORMS}")


def _fmt(value: float) -> str:
    """A number of seconds written compactly: ``5400``, ``0.5``, ``0.008333``."""
    if math.isinf(value):
        return "inf"
    if abs(value - round(value)) < 5e-7:
        return str(int(round(value)))
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _human(seconds: float) -> str:
    """Seconds in words for describe(): ``90 min``, ``1 min 30 s``, ``45 s``."""
    if seconds >= 60:
        minutes, rest = divmod(seconds, 60)
        if abs(rest) < 5e-7 or abs(rest - 60) < 5e-7:
            return f"{int(round(seconds / 60))} min"
        return f"{int(minutes)} min {_fmt(rest)} s"
    return f"{_fmt(seconds)} s"


@dataclass(frozen=True)
class Stage:
    """One period of a clock: ``seconds`` are added when it starts, ``increment`` after each of its moves.

    ``moves`` is the number of moves the stage lasts, or None for the rest of the game (sudden death).
    """

    moves: Optional[int]
    seconds: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if self.moves is not None:
            if isinstance(self.moves, bool) or not isinstance(self.moves, int) or self.moves < 1:
                raise TimeControlError(f"a stage's move count must be a positive integer, not {self.moves!r}")
        for name in ("seconds", "increment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise TimeControlError(f"a stage's {name} must be a finite number >= 0, not {value!r}")
            object.__setattr__(self, name, float(value))

    def words(self, last_of_several: bool) -> str:
        """The stage in words: ``40 moves in 90 min``, ``5 min for the game + 2 s per move``."""
        if self.moves is None:
            word = f"{_human(self.seconds)} for the {'rest of the game' if last_of_several else 'game'}"
        else:
            word = f"{self.moves} move{'s' if self.moves != 1 else ''} in {_human(self.seconds)}"
        return word + (f" + {_human(self.increment)} per move" if self.increment else "")

    def pgn(self, follows_stage: bool = False) -> str:
        """This stage in PGN TimeControl form; ``follows_stage`` when it comes after another stage."""
        seconds = _fmt(self.seconds)
        if self.moves is not None:
            return f"{self.moves}/{seconds}" + (f"+{_fmt(self.increment)}" if self.increment else "")
        if follows_stage and _SECONDS_FIELD_RE.match(seconds):
            seconds += ".0"  # '40/60:30' would read as 40 moves in 60:30; '40/60:30.0' cannot
        return seconds + (f"+{_fmt(self.increment)}" if self.increment else "")


@dataclass(frozen=True)
class TimeControl:
    """Clock stages and/or search limits for one player.  Build it with :meth:`parse`."""

    stages: Tuple[Stage, ...] = ()
    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def __post_init__(self) -> None:
        stages = tuple(self.stages)
        object.__setattr__(self, "stages", stages)
        for stage in stages:
            if not isinstance(stage, Stage):
                raise TimeControlError(f"stages must be Stage objects, not {stage!r}")
        for stage in stages[:-1]:
            if stage.moves is None:
                raise TimeControlError("only the last stage may be sudden death (every earlier stage needs 'moves/')")
        if stages and stages[0].seconds <= 0:
            raise TimeControlError("the first stage needs some time (more than 0 s)")
        if self.movetime is not None:
            value = self.movetime
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise TimeControlError(f"movetime must be a positive number of seconds, not {value!r}")
            if stages:
                raise TimeControlError("a clock and a fixed time per move (st/movetime) cannot be combined")
            object.__setattr__(self, "movetime", float(value))
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise TimeControlError(f"{name} must be a positive integer, not {value!r}")

    # ------------------------------------------------------------------ parsing

    @classmethod
    def parse(cls, text: str, scale: float = 1.0) -> "TimeControl":
        """Read a time control; see the module documentation for the forms.  Raises TimeControlError."""
        if not isinstance(text, str):
            raise _error(f"a time control must be text, not {type(text).__name__}")
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale) or scale <= 0:
            raise TimeControlError(f"the time scale must be a positive number, not {scale!r}")
        cleaned = "".join(text.split()).lower()
        if not cleaned:
            raise _error("empty time control")
        stages: Optional[Tuple[Stage, ...]] = None  # None: no clock item seen yet
        limits: dict = {}
        for item in cleaned.split(","):
            if not item:
                raise _error(f"empty item in time control {text!r}")
            key, has_value, value = item.partition("=")
            if has_value and key != "tc":
                if key in ("st", "movetime"):
                    key = "movetime"
                if key in limits:
                    raise _error(f"{key} given twice in {text!r}")
                if key == "movetime":
                    seconds = _parse_number(value, item)
                    if seconds <= 0:
                        raise _error(f"the time per move must be positive in {item!r}")
                    limits[key] = seconds * scale
                elif key in ("depth", "nodes"):
                    if not _INT_RE.fullmatch(value) or int(value) < 1:
                        raise _error(f"{key} must be a positive integer in {item!r}")
                    limits[key] = int(value)
                else:
                    raise _error(f"unknown limit {key!r} in {item!r}")
                continue
            clock_text = value if has_value else item
            if stages is not None:
                raise _error(f"more than one clock in {text!r}")
            stages = _parse_clock(clock_text, scale)
        if stages and "movetime" in limits:
            raise _error(f"a clock and a fixed time per move (st/movetime) cannot be combined in {text!r}")
        return cls(stages=stages or (), **limits)

    # ------------------------------------------------------------------ output

    def pgn_tag(self) -> str:
        """The PGN ``TimeControl`` tag: ``40/5400:10/900``, ``300+2``; ``5/move`` for a fixed time per
        move (the cutechess spelling, PGN has none); ``-`` when there is no clock."""
        if self.stages:
            return ":".join(stage.pgn(follows_stage=index > 0) for index, stage in enumerate(self.stages))
        if self.movetime is not None:
            return f"{_fmt(self.movetime)}/move"
        return "-"

    def describe(self) -> str:
        """The time control in words, e.g. ``40 moves in 90 min, then 10 moves in 15 min (repeating)``."""
        limits = (
            (self.stages, self._clock_words),
            (self.movetime, lambda: f"{_human(self.movetime)} per move"),
            (self.depth, lambda: f"depth {self.depth}"),
            (self.nodes, lambda: f"{self.nodes} nodes"),
        )
        parts = [words() for value, words in limits if value]
        return "; ".join(parts) or "no limit (infinite)"

    def _clock_words(self) -> str:
        """The stages in words: ``40 moves in 90 min, then 15 min for the rest of the game``."""
        words = [stage.words(last_of_several=len(self.stages) > 1) for stage in self.stages]
        repeating = " (repeating)" if self.stages[-1].moves is not None else ""
        return ", then ".join(words) + repeating


def _parse_number(text: str, item: str) -> float:
    if not _NUMBER_RE.fullmatch(text):
        raise _error(f"{text!r} is not a number of seconds in {item!r}")
    return float(text)


def _parse_time(text: str, item: str) -> float:
    """Seconds, ``m:ss`` or ``h:mm:ss`` (the seconds may have a fraction)."""
    match = _TIME_RE.fullmatch(text)
    if match is None:
        raise _error(f"{text!r} is not a time (seconds, m:ss or h:mm:ss with seconds 00-59) in {item!r}")
    first, middle, last, plain = match.groups()
    if plain is not None:
        return float(plain)
    if middle is None:  # m:ss
        return 60 * int(first) + int(last)
    return 3600 * int(first) + 60 * int(middle) + int(last)  # h:mm:ss


def _split_stages(text: str) -> list:
    """Split on the ``:`` that separate stages, keeping those that belong to m:ss times (module docs)."""
    pieces = text.split(":")
    stages = [pieces[0]]
    for piece in pieces[1:]:
        if "+" not in stages[-1] and _SECONDS_FIELD_RE.match(piece):
            stages[-1] += ":" + piece
        else:
            stages.append(piece)
    return stages


def _parse_clock(text: str, scale: float) -> Tuple[Stage, ...]:
    if text in ("inf", "infinite"):
        return ()
    if text in SCHEMES:
        text = SCHEMES[text][0]
    stages = []
    for part in _split_stages(text):
        match = _STAGE_RE.fullmatch(part)
        if match is None:
            raise _error(f"cannot read the stage {part!r} of {text!r}")
        moves_text, time_text, increment_text = match.groups()
        moves = None
        if moves_text is not None:
            moves = int(moves_text)
            if moves < 1:
                raise _error(f"the move count must be positive in {part!r}")
        seconds = _parse_time(time_text, part)
        increment = _parse_number(increment_text, part) if increment_text is not None else 0.0
        stages.append(Stage(moves, seconds * scale, increment * scale))
    for stage in stages[:-1]:
        if stage.moves is None:
            raise _error(f"only the last stage may be sudden death (every earlier stage needs 'moves/'), "
                         f"and m:ss needs two-digit seconds 00-59, in {text!r}")
    if stages[0].seconds <= 0:
        raise _error(f"the first stage needs some time (more than 0 s) in {text!r}")
    return tuple(stages)


class Clock:
    """One player's clock, kept from wall time by the runner.

    With clock stages, ``remaining`` starts at the first stage's time.  With only a fixed time per
    move it is that time (for every move); with no clock at all it is ``math.inf``.
    """

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.moves_played = 0
        self.stage_index = 0          # index into tc.stages of the current stage
        self._stage_moves = 0         # moves played in the current stage (this round of it)
        self._lowest = math.inf       # lowest time left at the moment a move was made
        if tc.stages:
            self.remaining = tc.stages[0].seconds
        elif tc.movetime is not None:
            self.remaining = tc.movetime
        else:
            self.remaining = math.inf

    @property
    def stage(self) -> Optional[Stage]:
        """The current stage, None without a clock."""
        return self.tc.stages[self.stage_index] if self.tc.stages else None

    def moves_to_go(self) -> Optional[int]:
        """Moves left in the current stage (including the next one), None in sudden death or without a clock."""
        stage = self.stage
        if stage is None or stage.moves is None:
            return None
        return stage.moves - self._stage_moves

    def increment(self) -> float:
        """The increment of the current stage (0 without a clock)."""
        stage = self.stage
        return stage.increment if stage is not None else 0.0

    def punch(self, elapsed: float) -> None:
        """Record a move that took ``elapsed`` seconds.

        The time is subtracted first (and the lowest point checked for a flag), then the stage's
        increment is added, and when this move completes the stage's move count the next stage
        starts and its time is added (the last stage with a move count repeats).  With only a fixed
        time per move, the move is checked against that time and ``remaining`` resets to it.
        """
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not elapsed >= 0:
            raise ValueError(f"elapsed time must be a number >= 0, not {elapsed!r}")
        self.moves_played += 1
        stages = self.tc.stages
        if stages:
            stage = stages[self.stage_index]
            self.remaining -= elapsed
            self._lowest = min(self._lowest, self.remaining)
            self.remaining += stage.increment
            if stage.moves is not None:
                self._stage_moves += 1
                if self._stage_moves >= stage.moves:
                    self._stage_moves = 0
                    if self.stage_index + 1 < len(stages):
                        self.stage_index += 1
                    self.remaining += stages[self.stage_index].seconds
        elif self.tc.movetime is not None:
            self._lowest = min(self._lowest, self.tc.movetime - elapsed)
            self.remaining = self.tc.movetime

    def flagged(self, margin: float = 0.0) -> bool:
        """Whether the player ran out of time by more than ``margin`` seconds.

        This looks at the time left at the moment each move was made, before the increment and
        the next stage's time were added (a flag that fell during a move is not undone by them),
        and at ``remaining`` now.  Once true it stays true.
        """
        return min(self._lowest, self.remaining) < -margin

    def __repr__(self) -> str:
        return (f"Clock(remaining={self.remaining:.3f}, moves_played={self.moves_played}, "
                f"moves_to_go={self.moves_to_go()}, stage={self.stage_index})")

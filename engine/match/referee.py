"""The referee of a match game: the rules' rulings, the engines' faults and claims, and adjudication, each
a small function from what happened to a Verdict (engine.match.endings) or None while the game goes on.
The game loop (engine.match.game) asks it at each step and plays no part in the judging.

* **The rules** (:func:`rules_ruling`): engine.position.Position.outcome(), the rules library's verdict.
  By default every ruling ends the game before the side to move is asked: checkmate, stalemate, the
  repetition rulings, the 60-move rule and a board without attacking pieces. Under ``-noadjudicate``
  (Adjudication.rules_only) only the :data:`DECISIVE_RULINGS` do, mate, stalemate and the repetition
  rulings, and the engines play on past the others: an engine that answers "the game is over" instead of
  a move there forfeits (``no move in a live position``), as it would under a GUI that does not
  adjudicate.
* **Faults** (:func:`fault_ruling`, :func:`time_forfeit`, :func:`answer_ruling`): a crash, a hang, a
  protocol error, an overrun clock, no move where moves are legal, an illegal move; each loses.
* **Claims** (:func:`judge_claim`): a CECP engine's result claim, judged by the rules as cutechess does
  with its claims validated.
* **Adjudication** (:func:`resign_adjudication`, :func:`draw_adjudication`, :func:`move_limit`):
  cutechess-cli's score-based resign and draw and a move limit, from the engines' reported scores.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ..client import EngineCrashed, EngineError, EngineProtocolError
from ..color import Color
from ..outcome import Termination
from ..position import Position
from ..score import Score
from ..search_types import SearchResult
from .endings import MatchTermination, Verdict, loss_for

#: The rulings that end a game under -noadjudicate: no move (mate, stalemate) and the repetition rulings.
DECISIVE_RULINGS = frozenset({Termination.CHECKMATE, Termination.STALEMATE, Termination.PERPETUAL_CHECK,
                              Termination.PERPETUAL_CHASE, Termination.REPETITION})


@dataclass
class Adjudication:
    """What the runner rules beyond the rules' own endings: score-based adjudication as in cutechess-cli,
    and a move limit; or, `rules_only`, nothing but mate, stalemate and the repetition rulings."""

    draw_movenumber: int = 0      # draw: from this full move on ...
    draw_movecount: int = 0       # ... when both sides' scores stayed within draw_score for this many moves each
    draw_score: int = 0
    resign_movecount: int = 0     # resign: a side's score at or below -resign_score for this many moves
    resign_score: int = 0
    resign_twosided: bool = False  # ... and the opponent's at or above resign_score
    max_moves: int = 0            # full moves after which the game is a draw (0: no limit)
    rules_only: bool = False      # -noadjudicate: none of the above, and only the DECISIVE_RULINGS


@dataclass(frozen=True)
class Mover:
    """The side to move and the display name of its engine."""

    side: Color
    name: str

    @property
    def who(self) -> str:
        """``Red (fsf)``, as the details name an engine."""
        return f"{self.side.label} ({self.name})"


def rules_ruling(position: Position, adjudication: Adjudication) -> Optional[Verdict]:
    """The rules' ending of the game in `position`, among those the runner applies; None: play on."""
    outcome = position.outcome()
    if outcome is None or (adjudication.rules_only and outcome.reason not in DECISIVE_RULINGS):
        return None
    return Verdict.of_outcome(outcome)


def fault_ruling(error: EngineError, mover: Mover, on_clock: bool) -> Verdict:
    """The loss of an engine that gave no answer: it crashed, broke the protocol, or stayed silent past
    its time (a time forfeit on a clock, else a hang)."""
    if isinstance(error, EngineCrashed):
        return Verdict.loss(mover.side, MatchTermination.CRASH, f"{mover.who}: {error}")
    if isinstance(error, EngineProtocolError):
        return Verdict.loss(mover.side, MatchTermination.PROTOCOL_ERROR, f"{mover.who}: {error}")
    if on_clock:
        return Verdict.loss(mover.side, MatchTermination.TIME_FORFEIT,
                            f"{mover.who} did not move in time and stopped answering: {error}")
    return Verdict.loss(mover.side, MatchTermination.HANG, f"{mover.who}: {error}")


def time_forfeit(mover: Mover, overrun: str) -> Verdict:
    """The loss of an engine that moved after its time (`overrun`: engine.match.clocks' words for it)."""
    return Verdict.loss(mover.side, MatchTermination.TIME_FORFEIT, f"{mover.who} {overrun}")


def answer_ruling(answer: SearchResult, position: Position, mover: Mover,
                  adjudication: Adjudication) -> Optional[Verdict]:
    """What the answer to `go` in `position` ends, before its move is played: a resignation, a claim
    without a move, no move, an illegal move; None for a legal move."""
    if answer.resign:
        return Verdict.loss(mover.side, MatchTermination.RESIGNATION, f"{mover.who} resigns", at_fault=False)
    if answer.claim is not None and answer.bestmove is None:
        return judge_claim(answer, position, mover.name)
    if answer.bestmove is None:
        return no_move(position, mover, adjudication)
    if not position.is_legal(answer.bestmove):
        return Verdict.loss(mover.side, MatchTermination.ILLEGAL_MOVE,
                            f"{mover.who} played the illegal move {answer.bestmove}")
    return None


def no_move(position: Position, mover: Mover, adjudication: Adjudication) -> Verdict:
    """The forfeit of an engine that answered no move (UCI `bestmove (none)`, UCCI `nobestmove`) where it
    has legal moves (the runner asks for a move only there). Under -noadjudicate the detail names the
    ruling the engine may have taken for the game's end, which the runner does not apply."""
    detail = f"{mover.who} gave no move in a live position"
    outcome = position.outcome()
    if adjudication.rules_only and outcome is not None:
        ruled = Verdict.of_outcome(outcome).detail
        detail += (f" ({len(position.legal_moves())} legal moves; the rules library's '{ruled}' is not a "
                   f"ruling the runner applies under -noadjudicate)")
    return Verdict.loss(mover.side, MatchTermination.NO_MOVE, detail)


def judge_claim(answer: SearchResult, position: Position, name: str) -> Verdict:
    """A result a CECP engine claimed (``1-0 {...}``, with or without its move) where the runner has not
    ended the game: the rules are the referee, as in cutechess (claims validated). A claim of the
    claimer's own loss is a resignation; a result the rules give (a ruling the runner does not apply by
    itself, under -noadjudicate) ends the game by that ruling; any other claim loses the game for the
    claimer.

    `position` is the position after the claimer's move, if it made one; the claimer is the side that moved
    last then, else the side to move."""
    claimer = position.turn.other if answer.bestmove is not None else position.turn
    said = f"{answer.claim} {{{answer.note}}}" if answer.note else answer.claim
    who = Mover(claimer, name).who
    outcome = position.outcome()
    if outcome is not None and outcome.result == answer.claim:
        return Verdict.of_outcome(outcome, f", claimed by {who}")
    if answer.claim == loss_for(claimer):
        return Verdict.loss(claimer, MatchTermination.RESIGNATION, f"{who} resigns: it claims {said}",
                            at_fault=False)
    return Verdict.loss(claimer, MatchTermination.INVALID_CLAIM, f"{who} claims {said}, which the rules do not give")


def record_full(position: Position, error: Exception) -> Verdict:
    """A draw where the rules library can hold no more moves of the game (thousands of plies: only a game
    that no ruling ends, under -noadjudicate, gets there)."""
    return Verdict("1/2-1/2", MatchTermination.MAX_MOVES, f"draw after {len(position.move_stack)} plies: {error}")


# -- adjudication ------------------------------------------------------------------------------------------
class Scores:
    """Each side's scores as adjudication compares them: centipawns from its own view, a mate beyond every
    threshold, None where it gave no score."""

    def __init__(self) -> None:
        self.by_side: tuple[list[Optional[float]], list[Optional[float]]] = ([], [])

    def add(self, side: Color, score: Optional[Score]) -> None:
        self.by_side[side.index].append(adjudication_cp(score))

    def last(self, side: Color, count: int) -> Optional[list[float]]:
        """`side`'s last `count` scores, None unless it has that many, all given."""
        recent = self.by_side[side.index][-count:]
        if count <= 0 or len(recent) < count or any(score is None for score in recent):
            return None
        return recent      # type: ignore[return-value]


def adjudication_cp(score: Optional[Score]) -> Optional[float]:
    """The mover's score as adjudication compares it: centipawns, a mate beyond every threshold."""
    if score is None:
        return None
    if score.is_mate:
        return math.copysign(math.inf, score.value)
    return float(score.value)


def adjudicate(rule: Adjudication, scores: Scores, mover: Color, position: Position) -> Optional[Verdict]:
    """Adjudication after a move by `mover`: resignation, then a draw, then the move limit; none under
    -noadjudicate."""
    if rule.rules_only:
        return None
    return (resign_adjudication(rule, scores, mover) or draw_adjudication(rule, scores, position)
            or move_limit(rule, position))


def resign_adjudication(rule: Adjudication, scores: Scores, mover: Color) -> Optional[Verdict]:
    """-resign: the mover's score at or below -score for movecount moves (and, twosided, its opponent's at
    or above score as long) loses for it."""
    own = scores.last(mover, rule.resign_movecount)
    if own is None or not all(score <= -rule.resign_score for score in own):
        return None
    if rule.resign_twosided:
        other = scores.last(mover.other, rule.resign_movecount)
        if other is None or not all(score >= rule.resign_score for score in other):
            return None
    return Verdict.loss(mover, MatchTermination.RESIGN_ADJUDICATION, f"{mover.label} resigns (adjudicated)",
                        at_fault=False)


def draw_adjudication(rule: Adjudication, scores: Scores, position: Position) -> Optional[Verdict]:
    """-draw: from full move movenumber on, both sides' scores within score for movecount moves each."""
    if rule.draw_movecount <= 0 or len(position.move_stack) // 2 < rule.draw_movenumber:
        return None
    red, black = (scores.last(side, rule.draw_movecount) for side in Color)
    if red is None or black is None or not all(abs(score) <= rule.draw_score for score in red + black):
        return None
    return Verdict("1/2-1/2", MatchTermination.DRAW_ADJUDICATION, "draw by adjudication")


def move_limit(rule: Adjudication, position: Position) -> Optional[Verdict]:
    """-maxmoves: a draw after that many full moves."""
    if rule.max_moves <= 0 or len(position.move_stack) // 2 < rule.max_moves:
        return None
    return Verdict("1/2-1/2", MatchTermination.MAX_MOVES, f"draw: the {rule.max_moves}-move limit of the match")


class Referee:
    """Judges one game: the functions above with the game's adjudication settings and score history."""

    def __init__(self, adjudication: Adjudication) -> None:
        self.adjudication = adjudication
        self.scores = Scores()

    def before_move(self, position: Position) -> Optional[Verdict]:
        """Before the side to move is asked: the rules' rulings."""
        return rules_ruling(position, self.adjudication)

    def fault(self, error: EngineError, mover: Mover, on_clock: bool) -> Verdict:
        """No answer to `go`."""
        return fault_ruling(error, mover, on_clock)

    def on_answer(self, answer: SearchResult, position: Position, mover: Mover) -> Optional[Verdict]:
        """The answer to `go`, before its move is played."""
        return answer_ruling(answer, position, mover, self.adjudication)

    def after_move(self, answer: SearchResult, position: Position, mover: Mover) -> Optional[Verdict]:
        """After the answer's move was played: a claim that came with it (unless the rules end the game
        at once: they are asked before the next move), then adjudication."""
        self.scores.add(mover.side, answer.score)
        if answer.claim is not None and rules_ruling(position, self.adjudication) is None:
            return judge_claim(answer, position, mover.name)
        return adjudicate(self.adjudication, self.scores, mover.side, position)

"""One game between two engine processes: the loop that asks each side for its move, plays it and records
it. The clocks are engine.match.clocks', the judging engine.match.referee's: the loop only carries what
happens from one to the other, and ends the game at the first Verdict."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Optional

from ..client import EngineError, EngineProcess
from ..errors import IllegalMoveError
from ..search_types import SearchResult
from .clocks import GameClocks
from .endings import INTERRUPTED, Verdict
from .openings import Opening
from .record import EngineIdentity, GameRecord, MoveEval, move_comment
from .referee import Adjudication, Mover, Referee, record_full, time_forfeit
from .timecontrol import TimeControl


@dataclass
class Player:
    """An engine in a game: its process, time control and display name."""

    process: EngineProcess
    name: str
    tc: TimeControl


def play_game(
    red: Player,
    black: Player,
    opening: Opening,
    adjudication: Adjudication,
    time_margin: float,
    stall_timeout: float,
    stop: threading.Event,
    on_move: Optional[Callable[[GameRecord], None]] = None,
) -> GameRecord:
    """Play one game to its end by the rules, a failure, adjudication or a stop request."""
    game = _Game((red, black), opening, GameClocks(red.tc, black.tc, time_margin, stall_timeout),
                 Referee(adjudication), stop)
    verdict: Optional[Verdict] = None
    while verdict is None:
        verdict = game.turn(on_move)
    return game.finish(verdict)


class _Game:
    """A game in progress: the position, the record, the clocks and the referee."""

    def __init__(self, players: tuple[Player, Player], opening: Opening, clocks: GameClocks, referee: Referee,
                 stop: threading.Event) -> None:
        self.players = players
        self.opening = opening
        self.clocks = clocks
        self.referee = referee
        self.stop = stop
        self.position = opening.position()
        self.record = GameRecord(players[0].name, players[1].name, opening,
                                 identities=[EngineIdentity.of(player.process) for player in players])
        for move in opening.moves:
            self.record.add_book_move(move)

    def turn(self, on_move: Optional[Callable[[GameRecord], None]]) -> Optional[Verdict]:
        """One move of the side to move; the Verdict that ends the game, or None."""
        # Step 1. The rules may have ended the game; a stop request ends it unfinished.
        verdict = self.referee.before_move(self.position)
        if verdict is not None or self.stop.is_set():
            return verdict or INTERRUPTED
        # Step 2. Ask the side to move; an engine that gives no answer loses.
        mover = Mover(self.position.turn, self.players[self.position.turn.index].name)
        answer = self._ask(mover)
        if isinstance(answer, Verdict):
            return answer
        # Step 3. The clock, then what the answer says: a move, or no move, an illegal one, a claim.
        overrun = self.clocks.punch(mover.side, answer.time_ms)
        if overrun is not None:
            return time_forfeit(mover, overrun)
        verdict = self.referee.on_answer(answer, self.position, mover)
        if verdict is not None:
            return verdict
        # Step 4. Play and record the move; then a claim made with it, and adjudication.
        try:
            self.position.push(answer.bestmove)
        except IllegalMoveError as exc:      # legal (step 3), so the game record is full
            return record_full(self.position, exc)
        self.record.add_move(answer.bestmove, move_comment(answer), MoveEval.of(answer))
        if on_move is not None:
            on_move(self.record)
        return self.referee.after_move(answer, self.position, mover)

    def _ask(self, mover: Mover) -> SearchResult | Verdict:
        """The engine's answer to `go` with its clocks; the Verdict when it failed to give one."""
        side = mover.side
        self.record.clock_log.append(self.clocks.log_entry(side, len(self.record.moves)))
        try:
            return self.players[side.index].process.go(self.opening.fen, self.record.moves, side,
                                                        self.clocks.limits(side), self.clocks.timeout(side))
        except EngineError as exc:
            if self.stop.is_set():
                return INTERRUPTED
            return self.referee.fault(exc, mover, self.clocks.on_clock(side))

    def finish(self, verdict: Verdict) -> GameRecord:
        """The record, ended by `verdict`; CECP engines are told the result (`result 1-0 {...}`)."""
        for player in self.players:
            player.process.game_over(verdict.result, verdict.detail)
        return self.record.finish(verdict)

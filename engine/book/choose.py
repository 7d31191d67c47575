"""Choosing the engine's book move: at random by weight, among the book moves that the `go` allows
and that do not walk into a ruling of the rules (a repetition that draws or loses, the natural limit).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional, Sequence

from ..position import Position
from .base import Book, BookMove


@dataclass(frozen=True)
class BookChoice:
    """The move chosen, the moves it was chosen from, and the book's favourite reply (for pondering)."""

    move: BookMove
    candidates: tuple[BookMove, ...]
    ponder: Optional[str] = None

    def describe(self) -> str:
        """`h2e2 (weight 40%, 1234 games, score 55%)`, for the `info string book move ...` line."""
        total = sum(c.weight for c in self.candidates) or 1
        parts = [f"weight {100 * self.move.weight / total:.0f}%"]
        if self.move.games is not None:
            parts.append(f"{self.move.games} games")
        if self.move.score is not None:
            parts.append(f"score {100 * self.move.score:.0f}%")
        return f"{self.move.move} ({', '.join(parts)}; {len(self.candidates)} book moves)"


def playable(book: Book, position: Position, banmoves: Sequence[str] = (),
             searchmoves: Sequence[str] = ()) -> list[BookMove]:
    """The book moves of the position that may be played: not banned, among `searchmoves` when given,
    and not ending the game by the rules (the engine's own move never completes a repetition ruling)."""
    banned = set(banmoves)
    allowed = set(searchmoves)
    moves = []
    for entry in book.moves(position):
        if entry.move in banned or (allowed and entry.move not in allowed):
            continue
        after = position.copy()
        after.push(entry.move)
        if after.outcome() is not None:
            continue
        moves.append(entry)
    return moves


def choose(book: Book, position: Position, banmoves: Sequence[str] = (), searchmoves: Sequence[str] = (),
           rng: Optional[random.Random] = None) -> Optional[BookChoice]:
    """A book move picked at random in proportion to its weight, or None when the book has none."""
    moves = playable(book, position, banmoves, searchmoves)
    if not moves:
        return None
    rng = rng or random.Random()
    pick = rng.uniform(0, sum(m.weight for m in moves))
    chosen = moves[-1]
    for entry in moves:
        pick -= entry.weight
        if pick < 0:
            chosen = entry
            break
    after = position.copy()
    after.push(chosen.move)
    replies = book.moves(after)
    return BookChoice(chosen, tuple(moves), replies[0].move if replies else None)

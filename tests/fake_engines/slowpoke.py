"""Fake engine: legal random moves, but on its 2nd go (--at N) it sleeps 400 ms longer than the time it was
given (its clock, or movetime; 1 s when it got neither), then moves."""
import time

from _fake import run


def behaviour(go):
    if go.misbehave:
        given = go.remaining_ms()
        time.sleep(1.0 if given is None else given / 1000 + 0.4)
    return go.random_move()


if __name__ == "__main__":
    run("FakeSlowpoke", behaviour)

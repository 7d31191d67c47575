"""Fake engine: legal random moves, but exits abruptly (code 1) on its 2nd go (--at N)."""
import os

from _fake import run


def behaviour(go):
    if go.misbehave:
        os._exit(1)
    return go.random_move()


if __name__ == "__main__":
    run("FakeCrasher", behaviour)

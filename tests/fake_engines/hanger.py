"""Fake engine: legal random moves, but never answers its 2nd go (--at N): it sleeps, reading nothing, so it
ignores stop and quit and must be killed. It gives up by itself after 10 minutes so that it cannot linger."""
import os
import time

from _fake import run


def behaviour(go):
    if go.misbehave:
        end = time.monotonic() + 600
        while time.monotonic() < end:
            time.sleep(1)
        os._exit(3)
    return go.random_move()


if __name__ == "__main__":
    run("FakeHanger", behaviour)

"""Fake engine: legal random moves, except on its 2nd go (--at N) a move of one of the opponent's pieces."""
from _fake import run

if __name__ == "__main__":
    run("FakeIllegal", lambda go: go.illegal_move() if go.misbehave else go.random_move())

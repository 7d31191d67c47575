"""Fake engine: a random legal move (seeded with --seed); a valid sparring partner."""
from _fake import run

if __name__ == "__main__":
    run("FakeRandom", lambda go: go.random_move())

"""Fake engine: legal random moves, but on its 2nd go (--at N) it answers `bestmove (none)` (UCI) or
`nobestmove` (UCCI) although the position has legal moves."""
from _fake import run

if __name__ == "__main__":
    run("FakeNone", lambda go: None if go.misbehave else go.random_move())

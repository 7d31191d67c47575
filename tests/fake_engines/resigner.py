"""Fake engine: legal random moves, but on its 2nd go (--at N) it gives the game up with its move:
`bestmove <move> resign` (the UCCI form; UCI engines such as Pikafish print the same words)."""
from _fake import run

if __name__ == "__main__":
    run("FakeResigner", lambda go: f"{go.random_move()} resign" if go.misbehave else go.random_move())

"""What both sides of a protocol need: the engine's (engine.server) and the interface's (engine.client).

A fact of the wire that the engine writes and the client reads lives here once, below both layers, so that
neither imports the other:

* :mod:`.cecp` -- CECP's scores: centipawns, or ±(100000 + N) for a mate in N moves, both ways.

This package imports only the rules library's values (engine.score); nothing of the server or the client.
"""

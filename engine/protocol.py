"""The engine's text protocol on stdin/stdout.

For now it answers the handshakes of UCCI and UCI and `isready`, so that GUIs and scripts can detect
the engine; the search and the full command set are the subject of the engine issue.
"""
from __future__ import annotations

from typing import TextIO

ENGINE_NAME = "jiangjun 0.1.0"
AUTHOR = "the jiangjun developers"
HELP_LINE = "jiangjun, a Xiangqi engine: type 'uci' or 'ucci' to start, 'quit' to leave."


def serve(stdin: TextIO, stdout: TextIO) -> int:
    """Read commands until `quit` or end of input. Never raises on bad input."""

    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    if stdin.isatty():
        say(HELP_LINE)
    for raw in stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            say(f"id name {ENGINE_NAME}")
            say(f"id author {AUTHOR}")
            say("uciok")
        elif command == "ucci":
            say(f"id name {ENGINE_NAME}")
            say(f"id author {AUTHOR}")
            say("ucciok")
        elif command == "isready":
            say("readyok")
        elif command == "quit":
            break
        else:
            say(f"info string unknown or not yet supported command: {command[:40]}")
    return 0

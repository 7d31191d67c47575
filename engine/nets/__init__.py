"""The NNUE network shipped with the package, and how an ``EvalFile`` value finds a network file
(:mod:`.loader` loads it into the kernel when the engine first needs it).

The engine evaluates with :data:`DEFAULT` unless told otherwise (``Use NNUE`` off: the hand-crafted
evaluation; ``EvalFile``: another network). README, "The neural evaluation", gives the commands that
made it.
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DIRECTORY", "DEFAULT", "locate"]

#: Where the shipped networks are.
DIRECTORY = Path(__file__).resolve().parent
#: The file name of the network the engine uses by default (the ``EvalFile`` option's default value).
DEFAULT = "jiangjun.jjnn"


def locate(name: str) -> str:
    """The path of the network file `name`: `name` itself when such a file exists (absolute, or relative
    to the working directory), else the shipped network of that file name when there is one, else
    `name` unchanged (so that reading it fails with the name the user gave)."""
    if os.path.exists(name):
        return name
    shipped = DIRECTORY / os.path.basename(name)
    return str(shipped) if os.path.basename(name) == name and shipped.is_file() else name

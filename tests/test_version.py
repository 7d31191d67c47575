"""engine.version: the name the engine gives itself, with the commit setup.py stamped at build time."""
import re

from engine import __version__
from engine.version import COMMIT, ENGINE_NAME


def test_the_engine_name_carries_the_version_and_the_commit_when_known():
    assert re.fullmatch(r"[0-9a-f]{4,40}(\+dirty)?", COMMIT or "0000")
    assert ENGINE_NAME == f"jiangjun {__version__}" + (f" ({COMMIT})" if COMMIT else "")
    assert re.fullmatch(r"jiangjun \d+\.\d+\.\d+( \([0-9a-f]+(\+dirty)?\))?", ENGINE_NAME)


def test_every_front_end_announces_that_name():
    from engine.server import cecp, session

    assert session.ENGINE_NAME is cecp.ENGINE_NAME is ENGINE_NAME   # UCI and UCCI: session's handshake

"""engine.client.factory: open_process makes the process of the config's protocol (no process is started)."""
from __future__ import annotations

import pytest

from engine.client import CecpProcess, EngineConfig, EngineProcess, UciProcess, open_process


@pytest.mark.parametrize("proto, kind", [("uci", UciProcess), ("ucci", UciProcess), ("auto", UciProcess),
                                         ("xboard", CecpProcess), ("cecp", CecpProcess)])
def test_the_protocol_picks_the_conversation(proto, kind):
    for config in (EngineConfig("some-engine", proto=proto), EngineConfig.in_process(proto=proto)):
        process = open_process(config)
        assert type(process) is kind and isinstance(process, EngineProcess)
        assert not process.alive and process.protocol is None and process.config is config


def test_an_unknown_protocol_and_the_interface_itself_are_refused():
    with pytest.raises(ValueError, match="protocol 'winboard'"):
        open_process(EngineConfig("some-engine", proto="winboard"))
    with pytest.raises(TypeError, match="open_process"):
        EngineProcess(EngineConfig("some-engine"))
    with pytest.raises(ValueError, match="rank_base"):
        open_process(EngineConfig("some-engine", rank_base=2))

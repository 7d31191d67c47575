"""The debug log (engine/server/debuglog.py; the option `Debug Log File`, UCCI `debuglogfile`): every line
in and out with its time and direction, read back."""
from __future__ import annotations

import io
import re

import pytest

from engine.server.debuglog import DebugLog
from engine.server.protocol import serve
from support.driver import EngineDriver

LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} (>>|<<) (.*)$")


def logged(path) -> list[tuple[str, str]]:
    """(direction, line) of each logged line; the `--` lines that mark an opening are left out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert all(LINE.match(line) or line.startswith("-- ") for line in lines), lines
    return [LINE.match(line).groups() for line in lines if not line.startswith("-- ")]


def test_the_log_writes_both_directions_and_appends(tmp_path):
    path = tmp_path / "engine.log"
    log = DebugLog()
    log.incoming("ignored: the log is off\n")
    log.open(str(path), header="jiangjun test")
    log.incoming("uci\n")
    log.outgoing("uciok\n")
    log.open("")
    log.outgoing("ignored again")
    assert not log.active and log.path == ""
    log.open(str(path))
    log.incoming("quit")
    log.close()
    assert logged(path) == [(">>", "uci"), ("<<", "uciok"), (">>", "quit")]
    assert path.read_text().count("debug log opened") == 2


def test_a_path_that_cannot_be_opened_raises_and_leaves_the_log_off(tmp_path):
    log = DebugLog()
    with pytest.raises(OSError):
        log.open(str(tmp_path / "no such folder" / "engine.log"))
    assert not log.active


@pytest.mark.parametrize("dialect, setting", [
    ("uci", "setoption name Debug Log File value {}"),
    ("ucci", "setoption debuglogfile {}"),
])
def test_the_option_logs_the_session_and_a_bad_path_is_reported(tmp_path, dialect, setting):
    path = tmp_path / "engine log.txt"             # a space in the path: UCI's value runs to the end
    # No search here: its bestmove would race the next command (a later setoption may turn the log off
    # before the search thread writes it); what the engine writes is read from `isready` and `d`.
    lines = [dialect, setting.format(path), "position startpos moves h2e2", "isready", "d",
             setting.format(tmp_path / "missing" / "x.log"), "isready", setting.format(path), "quit"]
    stdout = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), stdout)
    entries = logged(path)
    sent = [line for direction, line in entries if direction == ">>"]
    assert sent[:2] == ["position startpos moves h2e2", "isready"]
    assert sent[-1] == "quit", "logging went on after the refused path: a new opening"
    written = [line for direction, line in entries if direction == "<<"]
    assert "readyok" in written
    assert any(line.startswith("Fen: ") for line in written)
    out = stdout.getvalue().splitlines()
    assert any(line.startswith("info string cannot open the debug log file") for line in out), out
    assert not any("cannot open" in line for line in written), "the log was off when the error was said"


@pytest.mark.slow
def test_cecp_offers_the_option_and_a_bad_path_gets_a_dialog(tmp_path):
    path = tmp_path / "xboard.log"
    with EngineDriver() as eng:
        eng.send("xboard")
        eng.send("protover 2")
        features = eng.read_until("feature done=1", timeout=5)
        assert 'feature option="Debug Log File -file "' in features
        eng.send(f"option Debug Log File={path}")
        eng.send("ping 1")
        eng.read_until("pong 1", timeout=5)
        eng.send(f"option Debug Log File={tmp_path / 'missing' / 'x.log'}")
        eng.send("ping 2")
        lines = eng.read_until("pong 2", timeout=5)
        assert any(line.startswith("tellusererror cannot open the debug log file") for line in lines), lines
    assert (">>", "ping 1") in logged(path) and ("<<", "pong 1") in logged(path)

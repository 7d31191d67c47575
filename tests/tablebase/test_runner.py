"""`jiangjun tb build`'s run in one process (engine.tablebase.runner): resuming from the files on disk, the
state file across runs, failures, leftovers of a killed run, and the progress line (engine.tablebase.progress)."""
import io
import json

import pytest

from engine.tablebase import build_tables
from engine.tablebase import runner as runner_module
from engine.tablebase.errors import TablebaseError
from engine.tablebase.plan import BuildPlan
from engine.tablebase.progress import CLEAR_TO_END, ProgressLine
from engine.tablebase.runner import run_build
from engine.tablebase.state import STATE_NAME


def run(directory, *endings):
    stream = io.StringIO()
    result = run_build(BuildPlan.of_endings(endings), directory, stream=stream, terminal=False)
    return result, stream.getvalue()


def state_of(directory):
    return json.loads((directory / STATE_NAME).read_text())


def test_a_run_resumes_from_the_tables_on_disk(tmp_path):
    build_tables(["KRKA"], tmp_path)                  # built before, without a state file
    result, _ = run(tmp_path, "KRKAA")
    assert result.complete
    assert [(r.name, r.reused) for r in result.reports] == [("KRK", True), ("KRKA", True), ("KRKAA", False)]
    state = state_of(tmp_path)
    assert [t["name"] for t in state["plan"]] == ["KRK", "KRKA", "KRKAA"]
    assert state["tables"]["KRKA"]["status"] == "found" and state["tables"]["KRKA"]["peak_rss_mb"] is None
    built = state["tables"]["KRKAA"]
    assert built["status"] == "built" and built["run"] == 1 and built["peak_rss_mb"] > 0
    assert built["positions_per_second"] > 0 and built["file_bytes"] == (tmp_path / "KRKAA.jjtb").stat().st_size
    assert built["statistics"][0]["win"] > 0 and "longest_index" not in built["statistics"][0]
    assert state["runs"][0]["finished"] and state["runs"][0]["built"] == 1 and state["runs"][0]["found"] == 2


def test_an_interrupted_run_is_resumed_with_its_figures_kept(tmp_path, monkeypatch):
    real = runner_module.build_table
    calls = []

    def interrupted(directory, material, verify, progress, threads):
        calls.append(material.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(directory, material, verify, progress, threads)

    monkeypatch.setattr(runner_module, "build_table", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, "KRKA")
    first = state_of(tmp_path)
    assert list(first["tables"]) == ["KRK"] and not first["runs"][0]["finished"]
    monkeypatch.undo()
    result, _ = run(tmp_path, "KRKA")
    assert result.complete and [(r.name, r.reused) for r in result.reports] == [("KRK", True), ("KRKA", False)]
    second = state_of(tmp_path)
    assert second["tables"]["KRK"] == first["tables"]["KRK"]     # run 1's figures, not the header's
    assert second["tables"]["KRKA"]["run"] == 2 and second["runs"][1]["finished"]


def test_a_failed_table_stops_only_the_tables_waiting_for_it(tmp_path, monkeypatch):
    real = runner_module.build_table

    def failing(directory, material, verify, progress, threads):
        if material.name == "KRKA":
            raise TablebaseError("the verifier found 1 inconsistent entries")
        return real(directory, material, verify, progress, threads)

    monkeypatch.setattr(runner_module, "build_table", failing)
    result, output = run(tmp_path, "KRKAA", "KNK")
    assert not result.complete
    assert result.failed == {"KRKA": "TablebaseError: the verifier found 1 inconsistent entries"}
    assert result.waiting == ["KRKAA"] and {r.name for r in result.reports} == {"KRK", "KNK"}
    assert "KRKA: failed" in output and state_of(tmp_path)["failed"] == {"KRKA": result.failed["KRKA"]}
    monkeypatch.undo()
    result, _ = run(tmp_path, "KRKAA", "KNK")
    assert result.complete and state_of(tmp_path)["failed"] == {}


def test_leftovers_of_a_killed_run_are_removed_and_damaged_tables_built_again(tmp_path):
    build_tables(["KRK"], tmp_path)
    (tmp_path / "KRKA.jjtb.x1y2.part").write_bytes(b"half a table")
    (tmp_path / f"{STATE_NAME}.x1y2.part").write_text("{")
    data = bytearray((tmp_path / "KRK.jjtb").read_bytes())
    data[-40] ^= 0x55
    (tmp_path / "KRK.jjtb").write_bytes(bytes(data))
    result, output = run(tmp_path, "KRKA")
    assert result.complete and [r.reused for r in result.reports] == [False, False]
    assert "removed 2 temporary files" in output and "KRK.jjtb: the file's checksum does not match" in output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["KRK.jjtb", "KRKA.jjtb", STATE_NAME]


def test_an_unreadable_state_file_is_started_again(tmp_path):
    (tmp_path / STATE_NAME).write_text("not json")
    result, output = run(tmp_path, "KRK")
    assert result.complete and "starting a new state file" in output
    assert state_of(tmp_path)["tables"]["KRK"]["status"] == "built"


def test_the_progress_is_plain_lines_when_not_a_terminal(tmp_path):
    _, output = run(tmp_path, "KRKA")
    assert "\r" not in output and CLEAR_TO_END not in output
    progress = [line for line in output.splitlines() if line.startswith("tables ")]
    assert progress[0].startswith("tables 0/2 | entries 0/26.5k (0.0%) | 0:00:00 | time left unknown")
    assert progress[1].startswith("tables 1/2 | entries 4.9k/26.5k (18.4%) | ") and " left" in progress[1]
    assert progress[-1].startswith("tables 2/2 | entries 26.5k/26.5k (100.0%) | ") and progress[-1].endswith("| done")
    assert "KRKA: generating 21,600 entries per side" in output and "written to" in output


def test_the_progress_is_redrawn_in_place_on_a_terminal():
    stream = io.StringIO()
    with ProgressLine(stream, tables=2, entries=3000, terminal=True) as progress:
        progress.started("KRK")
        progress.say("KRK: written")
        progress.finished("KRK", 1000, built=True)
    text = stream.getvalue()
    assert text.startswith("\rtables 0/2 | entries 0/3.0k (0.0%) | 0:00:00 | time left unknown" + CLEAR_TO_END)
    assert "\r" + CLEAR_TO_END + "KRK: written\n" in text        # a message clears the line, then it comes back
    assert "| KRK" + CLEAR_TO_END in text
    assert "tables 1/2 | entries 1.0k/3.0k (33.3%)" in text and text.endswith(CLEAR_TO_END + "\n")

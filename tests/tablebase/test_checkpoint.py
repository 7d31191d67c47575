"""A generation stopped after a save (engine.tablebase.checkpoint) and resumed gives the table an
uninterrupted one gives, wherever it stopped; a save that is damaged or made from other files is not used."""

import io

import pytest

from engine.tablebase import build_tables
from engine.tablebase import checkpoint as checkpoint_module
from engine.tablebase import build
from engine.tablebase.build import build_table, load_table, table_path
from engine.tablebase.checkpoint import Checkpoint, describe_save, partial_path
from engine.tablebase.fileformat import DTC_LIMIT
from engine.tablebase.material import Material
from engine.tablebase.plan import BuildPlan
from engine.tablebase.runner import run_build

#: With rulings of order 1 and 2, the exposure bound and the distance to conversion: every kind of step.
KRKN = Material.parse("KRKN")


class Stop(Exception):
    """Raised to stop a generation after a given save."""


class SaveEveryPass(Checkpoint):
    """Saves after every pass; raises Stop after save number `stop_after` (counted from 1)."""

    def __init__(self, *args, stop_after=None, **kwargs):
        super().__init__(*args, save_every=0, **kwargs)
        self.stop_after = stop_after
        self.steps = []

    def save(self, table, step):
        super().save(table, step)
        self.steps.append(dict(step))
        if len(self.steps) == self.stop_after:
            raise Stop()


@pytest.fixture(scope="module")
def krkn_subs(tmp_path_factory):
    directory = tmp_path_factory.mktemp("krkn-subs")
    build_tables(["KRK", "KNK"], directory)
    return directory


def wired_table(directory):
    """KRKN's empty table with its sub-tables, and their files."""
    return build.wired_table(directory, KRKN)


def arrays(table):
    return [bytes(array(side)) for array in (table.values_bytes, table.dtc_bytes) for side in (0, 1)]


@pytest.fixture(scope="module")
def uninterrupted(krkn_subs):
    """KRKN generated once without a stop: its arrays, passes and the steps saved after each pass."""
    table, files = wired_table(krkn_subs)
    recorder = SaveEveryPass(krkn_subs / "record.jjtb-partial", KRKN.name, files)
    passes = table.generate(None, DTC_LIMIT, 1, recorder)
    return arrays(table), passes, recorder.steps


def test_the_saves_cover_every_step(uninterrupted):
    _, _, steps = uninterrupted
    kinds = {(step["step"], step["order"] if step["step"] == "values" else None, step["pass"] > 0) for step in steps}
    assert {("values", 0, True), ("values", 1, True), ("marks", None, True), ("distances", None, False),
            ("distances", None, True)} <= kinds


@pytest.mark.parametrize("where", ["first", "order 1", "marks", "values final", "distances", "last"])
def test_a_generation_resumed_from_any_save_is_the_uninterrupted_one(krkn_subs, uninterrupted, tmp_path, where):
    expected, passes, steps = uninterrupted
    stop_after = {"first": 1, "last": len(steps),
                  "order 1": next(n for n, s in enumerate(steps, 1) if s["step"] == "values" and s["order"] == 1),
                  "marks": next(n for n, s in enumerate(steps, 1) if s["step"] == "marks"),
                  "values final": next(n for n, s in enumerate(steps, 1) if s["step"] == "distances"),
                  "distances": len(steps) - 3}[where]
    path = tmp_path / "KRKN.jjtb-partial"
    table, files = wired_table(krkn_subs)
    with pytest.raises(Stop):
        table.generate(None, DTC_LIMIT, 1, SaveEveryPass(path, KRKN.name, files, stop_after=stop_after))
    del table
    resumed, files = wired_table(krkn_subs)
    messages = []
    checkpoint = Checkpoint(path, KRKN.name, files, messages.append)
    assert resumed.generate(None, DTC_LIMIT, 1, checkpoint) == passes
    assert arrays(resumed) == expected
    assert any("resumed" in message for message in messages)


def test_a_damaged_save_is_deleted_and_the_table_built_from_the_start(krkn_subs, uninterrupted, tmp_path):
    path = tmp_path / "KRKN.jjtb-partial"
    table, files = wired_table(krkn_subs)
    with pytest.raises(Stop):
        table.generate(None, DTC_LIMIT, 1, SaveEveryPass(path, KRKN.name, files, stop_after=10))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    table, files = wired_table(krkn_subs)
    messages = []
    table.generate(None, DTC_LIMIT, 1, Checkpoint(path, KRKN.name, files, messages.append))
    assert arrays(table) == uninterrupted[0]
    assert not path.exists() and any("SHA-256" in message for message in messages)


def test_a_save_made_from_other_sub_table_files_is_not_used(krkn_subs, uninterrupted, tmp_path):
    path = tmp_path / "KRKN.jjtb-partial"
    table, files = wired_table(krkn_subs)
    with pytest.raises(Stop):
        table.generate(None, DTC_LIMIT, 1, SaveEveryPass(path, KRKN.name, files, stop_after=10))
    table, _ = wired_table(krkn_subs)
    messages = []
    assert Checkpoint(path, KRKN.name, files[:1], messages.append).resume(table) is None
    assert not path.exists() and any("other sub-table files" in message for message in messages)


def test_a_save_made_by_another_build_of_the_kernel_is_said_unused_and_not_used(krkn_subs, tmp_path,
                                                                                monkeypatch):
    path = tmp_path / "KRKN.jjtb-partial"
    table, files = wired_table(krkn_subs)
    with pytest.raises(Stop):
        table.generate(None, DTC_LIMIT, 1, SaveEveryPass(path, KRKN.name, files, stop_after=10))
    monkeypatch.setattr(checkpoint_module, "kernel_digest", lambda: "0" * 64)
    assert "another build of the kernel: not used" in describe_save(path)
    table, _ = wired_table(krkn_subs)
    messages = []
    assert Checkpoint(path, KRKN.name, files, messages.append).resume(table) is None
    assert not path.exists() and any("another kernel" in message for message in messages)


def test_a_build_goes_on_from_a_save_and_deletes_it(tmp_path, monkeypatch):
    """A build stopped after a save, run again, says so and writes the file an uninterrupted build writes."""
    build_tables(["KRK", "KNK"], tmp_path)
    path = table_path(tmp_path, KRKN)
    monkeypatch.setattr(checkpoint_module, "SAVE_EVERY", 0.0)
    stops = {"saves": 0}
    original_save = Checkpoint.save

    def save_then_stop(self, table, step):
        original_save(self, table, step)
        stops["saves"] += 1
        if stops["saves"] == 12:
            raise Stop()

    monkeypatch.setattr(Checkpoint, "save", save_then_stop)
    with pytest.raises(Stop):
        build_table(tmp_path, KRKN)
    assert partial_path(path).exists() and not path.exists()
    assert describe_save(partial_path(path)).startswith("its generation was saved (values of order 0, pass 13, ")
    monkeypatch.setattr(Checkpoint, "save", original_save)
    stream = io.StringIO()
    assert run_build(BuildPlan.of_endings(["KRKN"]), tmp_path, stream=stream, terminal=False).complete
    assert not partial_path(path).exists()
    assert "KRKN: its generation was saved (values of order 0, pass 13, " in stream.getvalue()
    assert "KRKN: resumed at values of order 0, pass 13 from" in stream.getvalue()
    fresh = tmp_path / "fresh"
    build_tables(["KRKN"], fresh)
    resumed, whole = load_table(path, KRKN), load_table(table_path(fresh, KRKN), KRKN)
    assert arrays(resumed) == arrays(whole)


def test_a_save_that_fails_stops_nothing(krkn_subs, uninterrupted, tmp_path):
    """A save into a folder that cannot be written (here: a path under a file) leaves no file and the
    generation goes on to the same table."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    table, files = wired_table(krkn_subs)
    messages = []
    checkpoint = Checkpoint(blocker / "KRKN.jjtb-partial", KRKN.name, files, messages.append, save_every=0)
    table.generate(None, DTC_LIMIT, 1, checkpoint)
    assert arrays(table) == uninterrupted[0]
    assert any("could not save" in message for message in messages)

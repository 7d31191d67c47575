"""Build plans (engine.tablebase.plan): a table after the tables it needs, what can start when, urgency."""
import pytest

from engine.tablebase.build import index_size
from engine.tablebase.catalog import the_set
from engine.tablebase.material import Material
from engine.tablebase.plan import BuildPlan


def test_a_plan_holds_each_table_once_after_what_it_needs():
    plan = BuildPlan.of_endings(["KRKA", "KNKP", "KAAKR", "3k5/4r4/9/9/9/9/9/9/4A4/4K4 w - - 0 1"])
    assert [table.name for table in plan] == ["KRK", "KRKA", "KPK", "KNK", "KNKP", "KRKAA"]
    assert set(plan["KNKP"].needs) == {"KNK", "KPK"} and plan["KRK"].needs == ()
    assert plan["KNKP"].entries == index_size(Material.parse("KNKP"))
    assert plan.total_entries == sum(table.entries for table in plan)


def test_what_is_ready_follows_what_is_done():
    plan = BuildPlan.of_endings(["KRKAA", "KNKP"])
    assert {t.name for t in plan.ready(done=set())} == {"KRK", "KPK", "KNK"}
    assert {t.name for t in plan.ready(done={"KRK", "KPK"}, busy={"KNK"})} == {"KRKA"}
    assert {t.name for t in plan.ready(done={"KRK", "KPK", "KNK"})} == {"KRKA", "KNKP"}
    assert plan.waiting_on({"KRK"}) == {"KRKA", "KRKAA"}


def test_long_chains_are_the_most_urgent():
    plan = BuildPlan.of_endings(["KRKAA", "KNKP"])
    assert plan.urgency["KRK"] == sum(plan[n].entries for n in ("KRK", "KRKA", "KRKAA"))
    assert plan.urgency["KNKP"] == plan["KNKP"].entries
    ready = plan.ready(done={"KRK", "KPK", "KNK"})
    assert [t.name for t in ready] == sorted(["KRKA", "KNKP"], key=lambda name: -plan.urgency[name])


def test_the_set_is_a_plan():
    plan = BuildPlan.of_set()
    assert len(plan) == len(the_set())
    assert plan.as_json()[0] == {"name": plan.tables[0].name, "entries": plan.tables[0].entries,
                                 "peak_bytes": plan.tables[0].peak_bytes, "needs": []}


def test_a_table_before_its_needs_is_refused():
    with pytest.raises(ValueError, match="KRKA comes before KRK"):
        BuildPlan([Material.parse("KRKA"), Material.parse("KRK")])

"""Fixtures of the tablebase tests: small tables built once per session into a temporary folder."""
import pytest

from engine.tablebase import build_tables


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    """KRK, KNK, KCK, KPK and KRKA (with KRK as its sub-table), each checked by the verifier while built."""
    directory = tmp_path_factory.mktemp("tables")
    build_tables(["KRK", "KNK", "KCK", "KPK", "KRKA"], directory, verify=True)
    return directory

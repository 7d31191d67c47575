"""Fixtures of the tablebase tests: small tables built once per session into a temporary folder."""
import pytest

from engine.tablebase import build_tables


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    """KRK, KNK, KCK, KPK, KRKA, KNKA and KPKA (with their sub-tables), each checked by the verifier
    while built."""
    directory = tmp_path_factory.mktemp("tables")
    build_tables(["KRK", "KNK", "KCK", "KPK", "KRKA", "KNKA", "KPKA"], directory, verify=True)
    return directory

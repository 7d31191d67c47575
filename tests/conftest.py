from pathlib import Path

DATA = Path(__file__).parent / "data"


def read_table(name: str) -> list[list[str]]:
    """Rows of a `;`-separated data file in tests/data, comments and blank lines skipped."""
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append([field.strip() for field in line.split(";")])
    return rows


ROOT = Path(__file__).resolve().parents[1]


def engine_env() -> dict:
    """Environment for a subprocess that imports `engine`: this checkout when its extension is built in
    place (development), else the installed package (CI installs it; the checkout then has no compiled
    engine._core). Run such subprocesses outside the checkout, so that `python -m engine` does not pick
    up the uncompiled source tree from the working directory."""
    import os

    env = dict(os.environ)
    if any((ROOT / "engine").glob("_core*.so")):
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env

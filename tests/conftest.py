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

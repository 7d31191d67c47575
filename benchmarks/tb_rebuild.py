"""Build endings again and compare them with the tables of a folder: the generator's speed, and proof that a
change to it leaves every entry and distance to conversion as it was.

    python benchmarks/tb_rebuild.py DIR KNPKAB KRKNB [--threads N]

Each ending is built into a scratch folder whose other tables are links to DIR's (so only the ending itself
is generated), timed, and its value and distance-to-conversion arrays compared with DIR's file. Prints,
per ending, the seconds of generation, the process's CPU seconds and whether the arrays are identical;
exits 1 when one differs.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tablebase.build import build_table, load_table, table_path  # noqa: E402
from engine.tablebase.fileformat import SUFFIX  # noqa: E402
from engine.tablebase.material import Material  # noqa: E402


def arrays(directory: Path, material: Material) -> list[bytes]:
    table = load_table(table_path(directory, material), material)
    return [bytes(read(side)) for read in (table.values_bytes, table.dtc_bytes) for side in (0, 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path, help="a folder of built tables (the endings and their sub-tables)")
    parser.add_argument("endings", nargs="+")
    parser.add_argument("--threads", type=int, default=1)
    options = parser.parse_args(argv)
    same = True
    for name in options.endings:
        material = Material.parse(name)
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            for path in options.directory.glob(f"*{SUFFIX}"):
                if path.name != table_path(folder, material).name:
                    (folder / path.name).symlink_to(path.resolve())
            cpu = time.process_time()
            report = build_table(folder, material, threads=options.threads)
            cpu = time.process_time() - cpu
            identical = arrays(folder, material) == arrays(options.directory, material)
        same = same and identical
        print(f"{material.name}: {report.seconds:.2f} s generating, {cpu:.2f} s of CPU, "
              f"{'identical' if identical else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

"""Write the BHGUI Zobrist key table that jiangjun's .obk reader needs (engine/book/obk.py), from a copy
of a source file that lists it, such as ZobristUtils.java of sojourners/public-Xiangqi:

    python tools/binghe_keys.py ZobristUtils.java -o engine/book/binghe_keys.bin
    export JIANGJUN_BINGHE_KEYS=$PWD/engine/book/binghe_keys.bin     # or leave it in engine/book/

The source must hold the side-to-move number first, as `zobristPlayer = 0x...L`, and the 3,584 piece
numbers (14 pieces x 256 squares) as the hexadecimal literals of the `zobristTable` array, in order.
"""
from __future__ import annotations

import argparse
import re
import struct
import sys
from pathlib import Path

HEX = re.compile(r"0x([0-9A-Fa-f]{1,16})L?")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="a source file listing BHGUI's Zobrist table")
    parser.add_argument("-o", "--output", required=True, help="the key table file to write")
    args = parser.parse_args(argv)
    text = Path(args.source).read_text(encoding="utf-8", errors="replace")
    player = re.search(r"zobristPlayer\s*=\s*0x([0-9A-Fa-f]+)", text)
    table = re.search(r"zobristTable\s*=\s*new\s+long\s*\[\]\s*\{(.*?)\}", text, re.S)
    if player is None or table is None:
        print("binghe_keys: no zobristPlayer / zobristTable found", file=sys.stderr)
        return 2
    numbers = [int(m.group(1), 16) for m in HEX.finditer(table.group(1))]
    if len(numbers) != 14 * 256:
        print(f"binghe_keys: {len(numbers)} table numbers, not {14 * 256}", file=sys.stderr)
        return 2
    values = [int(player.group(1), 16), *numbers]
    Path(args.output).write_bytes(struct.pack(f"<{len(values)}Q", *values))
    print(f"wrote {args.output}: {len(values)} keys")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The browser board's Chinese letters, for machines without a Chinese font: a subset of a Kai font with
exactly the characters the page shows, and the outlines of the pieces' characters as SVG paths.

    pip install 'fonttools[woff]'
    python tools/web_font.py /usr/share/fonts/truetype/arphic/ukai.ttc    # Debian's fonts-arphic-ukai

writes, into engine/web/static/:

* ``jiangjun-kai.woff2`` -- AR PL UKai CN cut down to the characters of the page: the words of
  index.html and i18n.js, the board's numerals and river, the Chinese notation's tables
  (engine/notation/chinese.py), the shipped book's opening names and the endgame tables' words
  (engine/tablebase/describe.py). The page's CSS names it
  "Jiangjun Kai" after the fonts a system may have;
* ``pieces.js`` -- the outlines of the fourteen pieces' characters (帥仕相傌俥炮兵 將士象馬車砲卒), centred on
  (0, 0) in font units, y down: the board draws them as paths, so that a piece never depends on a font.

The font is under the Arphic Public License, which allows a changed copy under the same licence, with a
notice in the changed file of how and when it was changed (written into the font's name table and at the
head of pieces.js) and the licence text beside it (engine/web/static/ARPHICPL.TXT, NOTICE.txt).
Run it again when the page gains a Chinese word: tests/web/test_fonts.py fails until the font has it.
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import textwrap
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "engine" / "web" / "static"
FONT_FILE = STATIC / "jiangjun-kai.woff2"
PIECES_FILE = STATIC / "pieces.js"
FAMILY = "Jiangjun Kai"
#: The page's files whose text (words, symbols) is shown; app.js and board.js hold a few words too.
PAGE_FILES = ("index.html", "i18n.js", "app.js", "board.js")
#: Red's pieces (upper case) and Black's, by their FEN letters: the characters drawn on the board.
PIECE_CHARACTERS = {"K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
                    "k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒"}
#: The face of Debian's ukai.ttc with the simplified forms (0: AR PL UKai CN).
FACE = 0


def shown(text: str) -> set[str]:
    """The characters of `text` that a Latin font may lack: everything beyond ASCII but spaces and marks."""
    return {ch for ch in text if ord(ch) > 0x7E and not ch.isspace() and unicodedata.category(ch)[0] != "C"}


def opening_names() -> list[str]:
    """The opening names of the shipped book (the page shows the game's, while it is in the book)."""
    from engine.book import DEFAULT, DIRECTORY
    from engine.book.format import HEADER

    data = (DIRECTORY / DEFAULT).read_bytes()
    _, _, _, _, _, strings, _, _ = HEADER.unpack_from(data, 0)
    return [name.decode("utf-8") for name in data[len(data) - strings:].split(b"\0") if name]


def notation_words() -> list[str]:
    """Every string of the Chinese notation's tables (numerals, piece names, directions, positions)."""
    from engine.notation import chinese

    words = []
    for value in vars(chinese).values():
        if isinstance(value, str):
            words.append(value)
        elif isinstance(value, dict):
            words.extend(str(item) for pair in value.items() for item in pair)
    return words


def tablebase_words() -> list[str]:
    """The endgame tables' words in every language (the server sends the page a position's value in them)."""
    from engine.tablebase.describe import all_words

    return all_words()


def page_characters() -> str:
    """Every character beyond ASCII that the page can show, sorted."""
    characters = set()
    for name in PAGE_FILES:
        characters |= shown((STATIC / name).read_text(encoding="utf-8"))
    for text in notation_words() + opening_names() + tablebase_words() + list(PIECE_CHARACTERS.values()):
        characters |= shown(text)
    return "".join(sorted(characters))


def notice(source_name: str) -> str:
    today = datetime.date.today().isoformat()
    return (f"Changed on {today} by jiangjun's tools/web_font.py (fontTools' subsetter) from {source_name}: only "
            f"the characters of jiangjun's browser board kept, renamed {FAMILY}; the outlines are unchanged. "
            "Arphic Public License (ARPHICPL.TXT).")


def subset(source: Path, characters: str) -> "object":
    """The font cut down to `characters`, renamed, with the notice of the change in its name table."""
    from fontTools import subset as subsetter
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=FACE, recalcTimestamp=False)
    source_name = f"{font['name'].getDebugName(4)} {font['name'].getDebugName(5).strip()}"
    options = subsetter.Options(layout_features=[], hinting=False, name_IDs=["*"], name_languages=["*"],
                                notdef_outline=True, glyph_names=False)
    options.drop_tables += ["FFTM"]                   # FontForge's timestamps: nothing the page needs
    worker = subsetter.Subsetter(options)
    worker.populate(text=characters)
    worker.subset(font)
    font.flavor = "woff2"
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 3, 4, 6, 16, 17, 18):     # the family's names: a changed font gets its own
            names.removeNames(nameID=record.nameID)
    for name_id, text in ((1, FAMILY), (2, "Regular"), (4, FAMILY), (6, FAMILY.replace(" ", "")), (3, FAMILY),
                          (10, notice(source_name))):
        names.setName(text, name_id, 3, 1, 0x409)
        names.setName(text, name_id, 1, 0, 0)
    return font, source_name


def piece_paths(font) -> dict[str, str]:
    """Each piece character's outline as SVG path data, centred on its ink's middle, y pointing down."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    paths = {}
    for character in PIECE_CHARACTERS.values():
        glyph = glyphs[cmap[ord(character)]]
        bounds = BoundsPen(glyphs)
        glyph.draw(bounds)
        x_min, y_min, x_max, y_max = bounds.bounds
        pen = SVGPathPen(glyphs, ntos=lambda value: str(round(value)))
        glyph.draw(TransformPen(pen, (1, 0, 0, -1, -(x_min + x_max) / 2, (y_min + y_max) / 2)))
        paths[character] = pen.getCommands()
    return paths


def pieces_js(font, source_name: str) -> str:
    paths = piece_paths(font)
    head = textwrap.wrap("The pieces' characters as SVG paths, written by tools/web_font.py (do not edit): font "
                         f"units ({font['head'].unitsPerEm} to the em), centred on the ink's middle, y down. "
                         + notice(source_name), 100)
    return ("".join(f"// {line}\n" for line in head) +
            "\"use strict\";\n"
            f"const GLYPH_EM = {font['head'].unitsPerEm};\n"
            "const PIECE_GLYPHS = " + json.dumps(paths, ensure_ascii=False, indent=0) + ";\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="AR PL UKai (Debian's fonts-arphic-ukai: ukai.ttc)")
    args = parser.parse_args(argv)
    characters = page_characters()
    font, source_name = subset(args.source, characters)
    missing = [ch for ch in characters if ord(ch) not in font.getBestCmap()]
    PIECES_FILE.write_text(pieces_js(font, source_name), encoding="utf-8")
    font.save(FONT_FILE)
    print(f"{FONT_FILE.relative_to(ROOT)}: {len(characters) - len(missing)} characters, "
          f"{FONT_FILE.stat().st_size} bytes; {PIECES_FILE.relative_to(ROOT)}: {len(PIECE_CHARACTERS)} pieces")
    if missing:
        print(f"the font lacks {''.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

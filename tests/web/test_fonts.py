"""The browser board reads on a machine without a Chinese font: the pieces are paths (static/pieces.js) and the
page's Chinese words come from its own font (static/jiangjun-kai.woff2), both made by tools/web_font.py.

The quick tests read the files; the slow ones look at the page in the real Chromium, where a character that
no font has is drawn as an empty box: each character the page can show is drawn on a canvas with the shipped
font alone and with a family that does not exist (the browser's fallback), and the two must differ.
"""
from __future__ import annotations

import importlib.util
import json
import re

import pytest

from support import ROOT, TOOLS

STATIC = ROOT / "engine" / "web" / "static"


def _web_font_tool():
    spec = importlib.util.spec_from_file_location("web_font", TOOLS / "web_font.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


web_font = _web_font_tool()


def _piece_glyphs() -> dict[str, str]:
    text = (STATIC / "pieces.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const PIECE_GLYPHS = (\{.*?\});", text, re.S).group(1))


def test_every_piece_has_its_outline():
    glyphs = _piece_glyphs()
    assert set(glyphs) == set(web_font.PIECE_CHARACTERS.values())
    for character, path in glyphs.items():
        assert path.startswith("M") and path.endswith("Z") and len(path) > 200, character   # closed outlines
    assert len(set(glyphs.values())) == len(glyphs)


def test_the_board_draws_the_pieces_of_the_tool():
    board = (STATIC / "board.js").read_text(encoding="utf-8")
    table = re.search(r"const PIECE_CHARS = \{(.*?)\};", board, re.S).group(1)
    assert dict(re.findall(r'(\w): "(.)"', table)) == web_font.PIECE_CHARACTERS


def test_the_font_is_shipped_with_its_licence():
    assert (STATIC / "jiangjun-kai.woff2").read_bytes()[:4] == b"wOF2"
    assert (STATIC / "ARPHICPL.TXT").read_text(encoding="utf-8").startswith("ARPHIC PUBLIC LICENSE")
    notice = (STATIC / "NOTICE.txt").read_text(encoding="utf-8")
    assert "AR PL UKai" in notice and "ARPHICPL.TXT" in notice
    assert "Arphic Public License" in (STATIC / "pieces.js").read_text(encoding="utf-8").split("\n\"use strict\"")[0]


def test_the_page_characters_include_its_words_and_the_notation():
    characters = web_font.page_characters()
    for word in ("悔棋", "炮二平五", "马8进7", "楚河汉界", "帥將傌俥", "中炮局", "长将判负", "红胜，23步杀", "裁决（）"):
        assert all(ch in characters for ch in word if ord(ch) > 0x7E), word
    assert not any(ch.isascii() for ch in characters)


# --- In the real Chromium ----------------------------------------------------------------------------------

#: Characters the page never shows, so not in the font: the first is the empty box the font draws for a
#: character it lacks, the second must be found missing as such (the check can fail).
EMPTY_BOX, ABSENT = "龘", "齉"

DRAWN_JS = """([family, characters, emptyBox]) => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  const pixels = (character, font) => {
    context.clearRect(0, 0, 64, 64);
    context.font = font; context.textBaseline = "middle"; context.textAlign = "center";
    context.fillText(character, 32, 32);
    return context.getImageData(0, 0, 64, 64).data;
  };
  const own = `48px "${family}"`, box = pixels(emptyBox, own);
  const differ = (a, b) => { let n = 0; for (let i = 3; i < a.length; i += 4) n += a[i] !== b[i]; return n; };
  const result = {};
  for (const character of characters) {
    const drawn = pixels(character, own);
    // not the font's empty box, nor what the browser draws without the font (a system's Chinese font)
    result[character] = Math.min(differ(drawn, box), differ(drawn, pixels(character, "48px jiangjun-no-such-font")));
  }
  return result;
}"""


@pytest.fixture(scope="module")
def font_page(tmp_path_factory):
    pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
    pytest.importorskip("uvicorn", reason="uvicorn (the [web] extra) is not installed")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from support.web import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, chromium_installed, serve

    if not chromium_installed():
        pytest.skip(f"chromium is not installed ({CHROMIUM})")
    for url in serve(tmp_path_factory.mktemp("web-fonts")):
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 860})
            page.goto(url)
            page.wait_for_function("typeof state !== 'undefined' && state !== null", timeout=WAIT_MS)
            page.evaluate("document.fonts.ready")
            yield page
            browser.close()


@pytest.mark.slow
def test_the_page_loads_its_font_by_itself(font_page):
    """The page's Chinese text made the browser load the shipped font (nothing here asked for it)."""
    faces = font_page.evaluate("[...document.fonts].map(f => [f.family, f.status])")
    assert ['"Jiangjun Kai"', "loaded"] in faces or ["Jiangjun Kai", "loaded"] in faces


@pytest.mark.slow
def test_every_character_of_the_page_is_drawn_by_the_shipped_font(font_page):
    characters = web_font.page_characters()
    font_page.evaluate("characters => document.fonts.load('48px \"Jiangjun Kai\"', characters)", characters)
    drawn = font_page.evaluate(DRAWN_JS, ["Jiangjun Kai", characters + ABSENT, EMPTY_BOX])
    assert drawn[ABSENT] == 0
    missing = [ch for ch in characters if drawn[ch] == 0]
    assert not missing, f"not drawn by the shipped font: {''.join(missing)}"


SWAP_JS = """([square, what, character]) => {
  const piece = document.querySelector(`[data-square="${square}"] .piece`);
  piece.querySelectorAll(".swapped").forEach(e => e.remove());
  const glyph = piece.querySelector("path.glyph");
  glyph.style.visibility = what === "glyph" ? "visible" : "hidden";
  glyph.setAttribute("d", PIECE_GLYPHS[character] || glyph.getAttribute("d"));
  if (what === "text") {
    const circle = piece.querySelector("circle"), text = svgEl("text", { x: circle.getAttribute("cx"),
      y: circle.getAttribute("cy"), "font-size": 25, "text-anchor": "middle", "dominant-baseline": "central",
      class: "swapped" }, piece);
    text.textContent = character;
  }
}"""


@pytest.mark.slow
def test_the_pieces_are_drawn_as_paths_not_as_empty_boxes(font_page):
    glyphs = font_page.locator("#board .piece path.glyph")
    assert glyphs.count() == 32
    assert font_page.locator("#board .piece text").count() == 0       # no piece depends on a font
    sizes = glyphs.evaluate_all("paths => paths.map(p => { const b = p.getBBox(); return [b.width, b.height]; })")
    assert all(width > 500 and height > 500 for width, height in sizes)   # font units: ink, not a dot
    # One piece's picture, the same square and background each time: its own outline, another piece's, none,
    # and a character no font has as text (the empty box the pieces were before): all four differ.
    piece = font_page.locator('[data-square="e0"] .piece')
    pictures = []
    for what, character in (("glyph", "帥"), ("glyph", "仕"), ("none", ""), ("text", ABSENT)):
        font_page.evaluate(SWAP_JS, ["e0", what, character])
        pictures.append(piece.screenshot())
    font_page.evaluate(SWAP_JS, ["e0", "glyph", "帥"])
    assert len(set(pictures)) == len(pictures)

// The board: an SVG drawn as engine/pictures/diagram.py draws its pictures (same geometry and colours),
// with each of the 90 points a <g data-square="h2"> that takes clicks and drags.
"use strict";
const FILES = "abcdefghi";
const CELL = 50, BORDER = 1.25, SIZE = 10 * CELL, HEIGHT = (9 + 2 * BORDER) * CELL;
const COLOURS = { board: "#f1d29b", line: "#5b3a1c", piece: "#fbecd0", red: "#b3141b", black: "#1b1b1b",
                  last: "#f5c400", target: "#2e8b3a", check: "#e0201b", selected: "#1f63c6" };
const PIECE_CHARS = { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
                      k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" };
const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs, parent) {
  const el = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// A piece's character as a path (pieces.js: the outlines of the shipped Kai font), so that the board reads
// on a machine without a Chinese font. `em` is the size of the character's em square in board units; a thin
// stroke of the same colour makes the letter bold.
const PIECE_EM = 25;
function drawGlyph(parent, piece, x, y, em, colour) {
  const scale = em / GLYPH_EM;
  return svgEl("path", { class: "glyph", d: PIECE_GLYPHS[PIECE_CHARS[piece]], fill: colour, stroke: colour,
                         "stroke-width": 0.9 / scale, "stroke-linejoin": "round",
                         transform: `translate(${x} ${y}) scale(${scale})` }, parent);
}

function piecesOfFen(fen) {
  const pieces = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 9 - i; let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += parseInt(ch, 10);
      else { pieces[FILES[file] + rank] = ch; file += 1; }
    }
  });
  return pieces;
}

class Board {
  // onMove(iccs) is called with a move the person made; canMove() says whether they may move now.
  constructor(svg, onMove, canMove, onRefused) {
    this.svg = svg; this.onMove = onMove; this.canMove = canMove; this.onRefused = onRefused;
    this.flipped = false; this.pieces = {}; this.targets = {}; this.last = null; this.check = null;
    this.selected = null; this.drag = null;
    svg.setAttribute("viewBox", `0 0 ${SIZE} ${HEIGHT}`);
    svg.addEventListener("pointermove", e => this.dragMove(e));
    svg.addEventListener("pointerup", e => this.dragEnd(e));
    svg.addEventListener("pointercancel", () => this.dragCancel());
  }

  xy(square) {
    let col = FILES.indexOf(square[0]), row = 9 - parseInt(square.slice(1), 10);
    if (this.flipped) { col = 8 - col; row = 9 - row; }
    return [CELL * (col + 1), CELL * (row + BORDER)];
  }

  set(view) {
    Object.assign(this, view);
    if (this.selected && !(this.targets[this.selected])) this.selected = null;
    this.draw();
  }

  draw() {
    const svg = this.svg;
    svg.innerHTML = "";
    svgEl("rect", { width: "100%", height: "100%", fill: COLOURS.board }, svg);
    this.drawGrid(svg);
    const layer = svgEl("g", { class: "points" }, svg);
    for (let rank = 9; rank >= 0; rank--) {
      for (let f = 0; f < 9; f++) this.drawPoint(layer, FILES[f] + rank);
    }
  }

  drawGrid(svg) {
    const left = CELL, right = 9 * CELL, top = BORDER * CELL, bottom = (9 + BORDER) * CELL;
    let d = "";
    for (let row = 0; row < 10; row++) d += `M${left} ${top + CELL * row}H${right}`;
    d += `M${left} ${top}V${bottom}M${right} ${top}V${bottom}`;
    for (let col = 1; col < 8; col++) {
      const x = CELL * (col + 1);
      d += `M${x} ${top}V${top + 4 * CELL}M${x} ${top + 5 * CELL}V${bottom}`;
    }
    for (const row of [0, 7]) {
      const y0 = top + CELL * row, y2 = top + CELL * (row + 2);
      d += `M${4 * CELL} ${y0}L${6 * CELL} ${y2}M${6 * CELL} ${y0}L${4 * CELL} ${y2}`;
    }
    svgEl("rect", { x: left - 6, y: top - 6, width: 8 * CELL + 12, height: 9 * CELL + 12, fill: "none",
                    stroke: COLOURS.line, "stroke-width": 3.75 }, svg);
    svgEl("path", { d, fill: "none", stroke: COLOURS.line, "stroke-width": 1.25 }, svg);
    // the marks of the cannons' and soldiers' points
    let marks = "";
    const marked = [];
    for (const f of [1, 7]) for (const r of [2, 7]) marked.push([f, r]);
    for (const f of [0, 2, 4, 6, 8]) for (const r of [3, 6]) marked.push([f, r]);
    for (const [f, r] of marked) {
      const [x, y] = this.xy(FILES[f] + r);
      const col = this.flipped ? 8 - f : f;
      for (const dx of [-1, 1]) {
        if (col + dx < 0 || col + dx > 8) continue;
        for (const dy of [-1, 1]) marks += `M${x + dx * 4} ${y + dy * 14}V${y + dy * 4}H${x + dx * 14}`;
      }
    }
    svgEl("path", { d: marks, fill: "none", stroke: COLOURS.line, "stroke-width": 1.25 }, svg);
    const riverY = top + 4.5 * CELL;
    ["楚", "河", "汉", "界"].forEach((ch, i) => {
      const text = svgEl("text", { x: CELL * ([1.5, 2.5, 5.5, 6.5][i] + 1), y: riverY, "font-size": 27.5,
        "text-anchor": "middle", "dominant-baseline": "central", fill: COLOURS.line, class: "river" }, svg);
      text.textContent = ch;
    });
    const redNumerals = "一二三四五六七八九";
    for (let f = 0; f < 9; f++) {
      const [x] = this.xy(FILES[f] + 0);
      const redLabel = redNumerals[8 - f], blackLabel = String(f + 1);
      const redY = this.flipped ? 0.45 * CELL : bottom + (BORDER - 0.45) * CELL;
      const blackY = this.flipped ? bottom + (BORDER - 0.45) * CELL : 0.45 * CELL;
      for (const [label, y] of [[redLabel, redY], [blackLabel, blackY]]) {
        const text = svgEl("text", { x, y, "font-size": 16, "text-anchor": "middle", "dominant-baseline": "central",
                                     fill: COLOURS.line, class: "file-number" }, svg);
        text.textContent = label;
      }
    }
  }

  drawPoint(layer, square) {
    const [x, y] = this.xy(square);
    const piece = this.pieces[square];
    const g = svgEl("g", { class: "point", "data-square": square, role: "gridcell",
                           "aria-label": square + (piece ? " " + PIECE_CHARS[piece] : "") }, layer);
    if (piece) g.dataset.piece = piece;
    svgEl("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, fill: "transparent" }, g);
    const lastMove = this.last ? [this.last.slice(0, 2), this.last.slice(2, 4)] : [];
    if (lastMove.includes(square)) {
      g.classList.add("last");
      svgEl("rect", { x: x - 24, y: y - 24, width: 48, height: 48, rx: 6, fill: COLOURS.last, "fill-opacity": 0.55 }, g);
    }
    if (piece && !(this.drag && this.drag.from === square && this.drag.moved)) {
      const colour = piece === piece.toUpperCase() ? COLOURS.red : COLOURS.black;
      const pg = svgEl("g", { class: "piece" }, g);
      svgEl("circle", { cx: x, cy: y, r: 22, fill: COLOURS.piece, stroke: colour, "stroke-width": 2.5 }, pg);
      svgEl("circle", { cx: x, cy: y, r: 18, fill: "none", stroke: colour, "stroke-width": 1 }, pg);
      drawGlyph(pg, piece, x, y, PIECE_EM, colour);
    }
    if (square === this.check) {
      g.classList.add("check");
      svgEl("circle", { cx: x, cy: y, r: 24, fill: "none", stroke: COLOURS.check, "stroke-width": 4 }, g);
    }
    if (square === this.selected) {
      g.classList.add("selected");
      svgEl("circle", { cx: x, cy: y, r: 24, fill: "none", stroke: COLOURS.selected, "stroke-width": 3 }, g);
    }
    if (this.selected && (this.targets[this.selected] || []).includes(square)) {
      g.classList.add("target");
      svgEl("circle", { cx: x, cy: y, r: piece ? 24 : 7, fill: piece ? "none" : COLOURS.target,
                        stroke: COLOURS.target, "stroke-width": piece ? 3 : 0, "fill-opacity": 0.8 }, g);
    }
    g.addEventListener("pointerdown", e => this.pointerDown(e, square));
  }

  // -- click-click and drag --------------------------------------------------------------------------
  pointerDown(event, square) {
    event.preventDefault();
    if (!this.canMove()) { this.onRefused("viewing"); return; }
    if (this.selected && square !== this.selected && (this.targets[this.selected] || []).includes(square)) {
      const move = this.selected + square;
      this.selected = null;
      this.onMove(move);
      return;
    }
    if (this.targets[square]) {
      this.selected = square;
      this.drag = { from: square, moved: false, startX: event.clientX, startY: event.clientY, ghost: null };
      this.svg.setPointerCapture && this.svg.setPointerCapture(event.pointerId);
      this.draw();
      return;
    }
    if (this.selected) {
      this.selected = null;
      this.draw();
      this.onRefused("illegal");
    }
  }

  svgPoint(event) {
    const rect = this.svg.getBoundingClientRect();
    return [(event.clientX - rect.left) * SIZE / rect.width, (event.clientY - rect.top) * HEIGHT / rect.height];
  }

  squareAt(event) {
    const [px, py] = this.svgPoint(event);
    let col = Math.round(px / CELL - 1), row = Math.round(py / CELL - BORDER);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    if (this.flipped) { col = 8 - col; row = 9 - row; }
    return FILES[col] + (9 - row);
  }

  dragMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 6) return;
    if (!drag.moved) { drag.moved = true; this.draw(); }
    const [px, py] = this.svgPoint(event);
    if (!drag.ghost) {
      const piece = this.pieces[drag.from];
      const colour = piece === piece.toUpperCase() ? COLOURS.red : COLOURS.black;
      drag.ghost = svgEl("g", { class: "ghost", "pointer-events": "none" }, this.svg);
      svgEl("circle", { r: 24, fill: COLOURS.piece, stroke: colour, "stroke-width": 2.5 }, drag.ghost);
      drawGlyph(drag.ghost, piece, 0, 0, PIECE_EM * 1.08, colour);
    }
    drag.ghost.setAttribute("transform", `translate(${px} ${py})`);
  }

  dragEnd(event) {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    if (!drag.moved) return;          // a click: the piece stays selected
    const square = this.squareAt(event);
    if (square && square !== drag.from && (this.targets[drag.from] || []).includes(square)) {
      this.selected = null;
      this.onMove(drag.from + square);
    } else {
      if (square && square !== drag.from) this.onRefused("illegal");
      this.draw();
    }
  }

  dragCancel() { this.drag = null; this.draw(); }
}

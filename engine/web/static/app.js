// The page: one WebSocket to the server, which holds this tab's game and engine. Every change comes back
// as a "state" message, drawn here; the page itself knows no rules.
"use strict";
const $ = id => document.getElementById(id);
let state = null;          // the server's last "state"
let viewPly = null;        // null: the game's last position; else the ply shown while playing through
let lines = [];            // the latest analysis lines
let socket = null;
let refused = false;
let review = null;         // {moves: [...iccs], points: {ply: point}, summary} of the game reviewed
let tableFen = null;       // the position shown, whose endgame table value was asked for
let table = null;          // the server's "tablebase" answer for tableFen (none: not in the tables, or not yet)
let messageTimer = null;
let LEVEL_ELO = {};        // level -> Elo, from the server's table (docs/levels.md)

const board = new Board($("board"), move => send({ type: "move", move }), () => viewPly === null,
                        why => showMessage(t(why === "viewing" ? "viewing" : "illegal_click"), "info"));
WORDS.zh.illegal_click = "不能这样走"; WORDS.en.illegal_click = "not a legal move";

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function settings() {
  return { mode: $("mode").value, engine_color: $("engine-color").value, level: +$("level").value,
           movetime: +$("movetime").value, analysis_ms: Math.max(2000, 5 * +$("movetime").value),
           multipv: +$("multipv").value };
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => send({ type: "hello", ...settings() });
  socket.onmessage = event => receive(JSON.parse(event.data));
  socket.onclose = () => { if (!refused) showMessage(t("connection_lost"), "error", true); };
}

function receive(message) {
  if (message.type === "state") {
    state = message; viewPly = null;
    if (review && !sameStart(review.moves, state.moves.map(m => m.iccs))) review = null;
    drawState(); drawGraph();
  } else if (message.type === "lines") {
    lines = message.lines; drawLines();
  } else if (message.type === "status") {
    if (message.status === "thinking" || message.status === "analysing") { lines = []; drawLines(); }
    $("engine-status").textContent = t(message.status);
    $("engine-status").dataset.status = message.status;
  } else if (message.type === "warning") {
    showMessage(message.message, "info");
  } else if (message.type === "error") {
    if (message.fatal) refused = true;       // the server will not serve this tab (too many are open)
    showMessage(message.message, "error", message.fatal);
  } else if (message.type === "review_start") {
    review = { moves: message.moves, points: {}, summary: null }; drawGraph();
  } else if (message.type === "review_point") {
    if (review) { review.points[message.ply] = message; drawState(); drawGraph(); }
  } else if (message.type === "review_done") {
    if (review) { review.summary = message; drawGraph(); }
  } else if (message.type === "config") {
    LEVEL_ELO = message.levels || {}; labelLevels();
  } else if (message.type === "file") {
    download(message.name, message.mime, message.text);
  } else if (message.type === "tablebase") {
    if (message.fen === tableFen) { table = message; drawTable(); }    // else an answer for a position left
  }
}

function sameStart(reviewed, moves) {
  // the review still holds while the game is the one reviewed, or a part of it
  return moves.length <= reviewed.length && moves.every((m, i) => m === reviewed[i]);
}

function drawGraph() {
  const svg = $("graph");
  svg.innerHTML = "";
  const points = review ? Object.values(review.points).sort((a, b) => a.ply - b.ply) : [];
  if (points.length) svg.removeAttribute("hidden"); else svg.setAttribute("hidden", "");   // an SVG element has no .hidden
  $("review-summary").textContent = review && review.summary ? summaryText(review.summary) : "";
  if (!points.length) return;
  const plies = Math.max(review.moves.length, 1), W = 500, H = 120;
  const x = ply => 4 + (W - 8) * ply / plies, y = v => H / 2 - (H / 2 - 4) * v / 1000;
  svgEl("rect", { x: 0, y: 0, width: W, height: H / 2, fill: "#fbecd0" }, svg);
  svgEl("rect", { x: 0, y: H / 2, width: W, height: H / 2, fill: "#e9dcc4" }, svg);
  svgEl("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#5b3a1c", "stroke-width": 0.5 }, svg);
  svgEl("polyline", { points: points.map(p => `${x(p.ply)},${y(p.graph)}`).join(" "), fill: "none",
                      stroke: "#b3141b", "stroke-width": 1.5 }, svg);
  const colours = { inaccuracy: "#d9a400", mistake: "#e06a00", blunder: "#c8101a" };
  for (const p of points) {
    const marked = p.classification;
    const dot = svgEl("circle", { cx: x(p.ply), cy: y(p.graph), r: marked ? 4 : 2.5,
      fill: marked ? colours[marked] : "#5b3a1c", class: "graph-point" + (marked ? " " + marked : ""),
      "data-ply": p.ply }, svg);
    const title = svgEl("title", {}, dot);
    title.textContent = `${p.ply}. ${p.move || ""} ${p.red.text}` + (marked ? ` ${t(marked)}` : "") +
                        (p.best ? ` (${t("best_was")} ${p.best})` : "");
    dot.addEventListener("click", () => {
      if (!state) return;
      viewPly = p.ply >= state.moves.length ? null : p.ply; drawState();
    });
  }
}

function summaryText(summary) {
  const side = s => `${s.inaccuracies}?! ${s.mistakes}? ${s.blunders}??`;
  return `${t("red")}: ${side(summary.red)}   ${t("black")}: ${side(summary.black)}`;
}

function showMessage(text, kind, sticky) {
  const box = $("message");
  box.textContent = text; box.className = kind; box.hidden = false;
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

function moveText(move) { return move[$("notation").value] || move.iccs; }

function drawState() {
  if (!state) return;
  const moves = state.moves;
  const shown = viewPly === null ? moves.length : viewPly;
  const fen = shown === moves.length ? state.fen : (shown === 0 ? state.start_fen : moves[shown - 1].fen);
  const atEnd = shown === moves.length;
  board.set({ pieces: atEnd ? state.pieces : piecesOfFen(fen), targets: atEnd ? state.targets : {},
              last: shown > 0 ? moves[shown - 1].iccs : null, check: atEnd ? state.check : null });
  $("play-from-here").hidden = atEnd;
  $("fen").textContent = fen;
  askTable(fen);
  // the move list: numbered pairs; a Black first move gets a "…" before it
  const list = $("moves");
  list.innerHTML = "";
  const blackFirst = state.start_fen.split(" ")[1] === "b";
  moves.forEach((move, i) => {
    const li = document.createElement("li");
    li.className = "move" + (i + 1 === shown ? " current" : "");
    li.dataset.ply = i + 1;
    const number = Math.floor((i + (blackFirst ? 1 : 0)) / 2) + 1;
    const redMove = (i + (blackFirst ? 1 : 0)) % 2 === 0;
    li.dataset.number = redMove ? number + "." : (i === 0 ? number + "…" : "");
    const point = review && review.points[i + 1];
    li.textContent = moveText(move) + (point && point.mark ? point.mark : "");
    if (point && point.classification) {
      li.classList.add(point.classification);
      li.title = t(point.classification) + (point.best ? `: ${t("best_was")} ${point.best}` : "");
    }
    li.addEventListener("click", () => { viewPly = i + 1 === moves.length ? null : i + 1; drawState(); });
    list.appendChild(li);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  $("turn").textContent = t(state.turn === "red" ? "red_to_move" : "black_to_move");
  const outcome = $("outcome");
  if (state.outcome) {
    const who = state.outcome.winner ? t(state.outcome.winner + "_wins") : t("draw");
    outcome.textContent = `${state.outcome.result} ${who}: ${t(state.outcome.reason)}`;
    outcome.dataset.reason = state.outcome.reason;
    outcome.hidden = false;
  } else { outcome.hidden = true; delete outcome.dataset.reason; }
  const opening = $("opening");
  if (state.book && state.book.moves.length) {
    $("opening-name").textContent = state.book.name || "";
    $("book-moves").textContent = state.book.moves.map(m => m.chinese).join("  ");
    opening.hidden = false;
  } else opening.hidden = true;
  const games = $("games");
  games.innerHTML = "";
  games.hidden = !state.games.length;
  state.games.forEach((label, i) => {
    const option = document.createElement("option");
    option.value = i; option.textContent = label; games.appendChild(option);
  });
  const s = state.settings;
  if (s) { $("mode").value = s.mode; $("engine-color").value = s.engine_color; $("level").value = s.level; }
}

// The rows and their moves are updated in place, not made anew: lines arrive several times a second
// while the engine thinks, and a move replaced between the press and the release of the mouse button
// would never receive its click. A move's click reads the line it shows now (playLineMove).
function drawLines() {
  const body = $("lines").querySelector("tbody");
  while (body.rows.length > lines.length) body.deleteRow(-1);
  const notation = $("notation").value;
  lines.forEach((line, k) => {
    const tr = body.rows[k] || lineRow(body);
    tr.dataset.multipv = line.multipv;
    const [score, wdl, depth, pv] = tr.cells;
    score.textContent = line.score ? line.score.text : "";
    wdl.textContent = line.wdl ? line.wdl.map(x => (x / 10).toFixed(0)).join("/") + "%" : "";
    depth.textContent = line.depth != null ? `${t("depth")} ${line.depth}` : "";
    const texts = notation === "iccs" ? line.pv : line[notation];
    while (pv.children.length > texts.length) pv.lastChild.remove();
    texts.forEach((text, i) => {
      const span = pv.children[i] || pv.appendChild(document.createElement("span"));
      span.className = "pv-move"; span.textContent = text;
    });
  });
  // the evaluation bar: Red's share, from the chances when given, else from the score
  const best = lines[0];
  if (best && best.red_score) {
    let red = 50;
    if (best.red_wdl) red = (best.red_wdl[0] + best.red_wdl[1] / 2) / 10;
    else if (best.red_score.mate != null) red = best.red_score.mate > 0 || (best.red_score.mate === 0 && best.red_score.text.startsWith("#")) ? 100 : 0;
    else red = 100 / (1 + Math.exp(-best.red_score.cp / 250));
    $("evalbar-fill").style.height = `${red.toFixed(1)}%`;
    $("evalbar-text").textContent = best.red_score.text;
    $("evalbar").title = best.red_score.text;
  }
}

function lineRow(body) {
  const tr = body.insertRow();
  tr.className = "line";
  for (const name of ["score", "wdl", "depth", "pv"]) tr.insertCell().className = name;
  return tr;
}

// a click on the i-th move of a line plays the line up to it
function playLineMove(event) {
  const span = event.target.closest(".pv-move");
  if (!span) return;
  const line = lines[span.closest("tr").sectionRowIndex];
  const i = Array.prototype.indexOf.call(span.parentElement.children, span);
  if (line && i < line.pv.length) send({ type: "play_line", moves: line.pv.slice(0, i + 1) });
}

// -- the endgame tables: the server's value of the position shown, asked for each new one ------------------
function askTable(fen) {
  if (fen === tableFen) return;
  tableFen = fen; table = null; drawTable();
  send({ type: "tablebase", fen });
}

function drawTable() {
  const box = $("tablebase");
  if (!table || !table.value || !table.line) { box.hidden = true; return; }
  $("tb-line").textContent = table.line[LANG] || table.line.en;
  const list = $("tb-moves");
  list.innerHTML = "";
  const notation = $("notation").value;
  for (const move of table.moves || []) {
    const item = document.createElement("span");
    item.className = "tb-move"; item.dataset.move = move.iccs;
    const text = document.createElement("span");
    text.textContent = move[notation] || move.iccs;
    const value = document.createElement("span");
    value.className = "tb-value"; value.textContent = move.text ? (move.text[LANG] || move.text.en) : "";
    item.append(text, value);
    list.appendChild(item);
  }
  box.hidden = false;
}

function labelLevels() {
  for (const option of $("level").options) {
    const i = +option.value;
    option.textContent = i === 20 ? `20 (${t("full_strength")})` : String(i) + (LEVEL_ELO[i] ? ` (~${LEVEL_ELO[i]} Elo)` : "");
  }
}

function download(name, mime, text) {
  const url = URL.createObjectURL(new Blob([text], { type: mime + ";charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url; a.download = name; document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// -- controls ---------------------------------------------------------------------------------------------
function setup() {
  const level = $("level");
  for (let i = 20; i >= 0; i--) {
    const option = document.createElement("option");
    option.value = i;
    level.appendChild(option);
  }
  labelLevels();
  for (const id of ["mode", "engine-color", "level", "movetime", "multipv"]) {
    $(id).addEventListener("change", () => send({ type: "settings", ...settings() }));
  }
  $("lines").addEventListener("click", playLineMove);
  $("notation").addEventListener("change", () => { drawState(); drawLines(); drawTable(); });
  $("lang").addEventListener("click", () => {
    LANG = LANG === "zh" ? "en" : "zh"; localStorage.setItem("jiangjun-lang", LANG);
    applyLanguage(); labelLevels(); drawState(); drawLines(); drawGraph(); drawTable();
  });
  $("new").addEventListener("click", () => send({ type: "new" }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("flip").addEventListener("click", () => { board.flipped = !board.flipped; board.draw(); });
  $("engine-move").addEventListener("click", () => send({ type: "engine_move" }));
  $("review-start").addEventListener("click", () => send({ type: "review" }));
  $("nav-first").addEventListener("click", () => { if (state) { viewPly = state.moves.length ? 0 : null; drawState(); } });
  $("nav-prev").addEventListener("click", () => {
    if (!state) return;
    const shown = viewPly === null ? state.moves.length : viewPly;
    viewPly = Math.max(0, shown - 1); if (viewPly === state.moves.length) viewPly = null; drawState();
  });
  $("nav-next").addEventListener("click", () => {
    if (!state || viewPly === null) return;
    viewPly += 1; if (viewPly >= state.moves.length) viewPly = null; drawState();
  });
  $("nav-last").addEventListener("click", () => { viewPly = null; drawState(); });
  $("play-from-here").addEventListener("click", () => { if (viewPly !== null) send({ type: "truncate", plies: viewPly }); });
  $("pgn-file").addEventListener("change", async event => {
    const file = event.target.files[0];
    if (!file) return;
    if (file.size > 2000000) { showMessage(`${file.name}: too large (at most 2 MB)`, "error"); return; }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    send({ type: "load_pgn", data: btoa(binary) });
    event.target.value = "";
  });
  $("games").addEventListener("change", () => send({ type: "choose", index: +$("games").value }));
  $("load-text").addEventListener("click", () => send({ type: "load_text", text: $("paste").value }));
  $("new-from-fen").addEventListener("click", () => send({ type: "new", fen: $("paste").value }));
  $("save-pgn").addEventListener("click", () => send({ type: "save_pgn", notation: $("save-notation").value }));
  $("save-svg").addEventListener("click", () => send({ type: "save_svg", flip: board.flipped }));
  applyLanguage();
  board.draw();
  connect();
}
setup();

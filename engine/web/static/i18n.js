// The page's words in simplified Chinese and English. t(key) gives the current language's.
"use strict";
const WORDS = {
  zh: {
    lang: "English", notation: "记法", mode: "模式", mode_play: "对弈", mode_analyse: "分析", mode_free: "摆棋",
    engine_plays: "引擎执", black: "黑", red: "红", level: "等级", movetime: "每步时间", lines: "分析线",
    new: "新局", undo: "悔棋", flip: "翻转", engine_move: "引擎走", book: "棋谱着法", moves_title: "着法",
    play_from_here: "从这里继续", analysis_title: "分析", files_title: "文件", open_pgn: "打开 PGN",
    paste_hint: "粘贴 FEN、PGN 或着法", load: "载入", new_from_fen: "从 FEN 开局", save_pgn: "保存 PGN",
    save_svg: "保存图片 SVG", red_to_move: "红方走棋", black_to_move: "黑方走棋", thinking: "引擎思考中…",
    analysing: "分析中…", failed: "引擎出错", idle: "", full_strength: "全力",
    red_wins: "红胜", black_wins: "黑胜", draw: "和棋", depth: "深度",
    checkmate: "将死", stalemate: "困毙", perpetual_check: "长将判负", perpetual_chase: "长捉判负",
    repetition: "重复局面判和", sixty_moves: "六十回合自然限着", insufficient_material: "双方无进攻子力",
    viewing: "查看中：回到最后一步才能走棋", review_title: "复盘", review_start: "复盘全局", reviewing: "复盘中…",
    inaccuracy: "欠佳", mistake: "错着", blunder: "败着", best_was: "应走", connection_lost: "与服务器的连接已断开，请刷新页面",
  },
  en: {
    lang: "中文", notation: "Notation", mode: "Mode", mode_play: "Play", mode_analyse: "Analyse", mode_free: "Both sides",
    engine_plays: "Engine plays", black: "Black", red: "Red", level: "Level", movetime: "Time per move", lines: "Lines",
    new: "New game", undo: "Take back", flip: "Flip", engine_move: "Engine move", book: "book moves",
    moves_title: "Moves", play_from_here: "Play from here", analysis_title: "Analysis", files_title: "Files",
    open_pgn: "Open PGN", paste_hint: "Paste a FEN, a PGN or a move list", load: "Load", new_from_fen: "New game from FEN",
    save_pgn: "Save PGN", save_svg: "Save picture (SVG)", red_to_move: "Red to move", black_to_move: "Black to move",
    thinking: "engine thinking…", analysing: "analysing…", failed: "engine failed", idle: "", full_strength: "full strength",
    red_wins: "Red wins", black_wins: "Black wins", draw: "Draw", depth: "depth",
    checkmate: "checkmate", stalemate: "stalemate (no legal move)", perpetual_check: "perpetual check loses",
    perpetual_chase: "perpetual chase loses", repetition: "repetition: draw", sixty_moves: "60-move rule",
    insufficient_material: "insufficient material",
    viewing: "viewing an earlier position: go to the last move to play", review_title: "Review",
    review_start: "Review the game", reviewing: "reviewing…", inaccuracy: "inaccuracy", mistake: "mistake",
    blunder: "blunder", best_was: "best", connection_lost: "the connection to the server was lost: reload the page",
  },
};
let LANG = localStorage.getItem("jiangjun-lang") || "zh";
function t(key) { return (WORDS[LANG] && WORDS[LANG][key]) ?? key; }
function applyLanguage() {
  document.documentElement.lang = LANG === "zh" ? "zh-CN" : "en";
  document.querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach(el => { el.placeholder = t(el.dataset.i18nPlaceholder); });
}

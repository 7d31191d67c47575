"""What the engine reports beside the scores, through the real protocol (`python -m engine` as a
subprocess): UCI_ShowWDL's `wdl W D L`, `currmove`/`currmovenumber` in long searches, `hashfull`; and
the debug commands `eval` and `flip`."""
from __future__ import annotations

import re

import pytest

from engine import Position, wdl
from engine.client import UcciCodec, UciCodec
from engine.score import Score
from engine.search_types import CurrentMove, PvLine, Wdl
from engine.server import ucci, uci
from support.driver import START_FEN, EngineDriver

# The info line of today, without the chances (tests/server/test_uci.py's INFO_LINE).
INFO_LINE = re.compile(
    r"^info depth (\d+) seldepth (\d+) multipv (\d+) score (cp -?\d+|mate -?\d+) nodes (\d+) nps (\d+) "
    r"hashfull (\d+) tbhits (\d+) time (\d+) pv( [a-i]\d[a-i]\d)+$"
)
# The same with UCI_ShowWDL: the chances right after the score, as Pikafish and Stockfish print them.
WDL_INFO_LINE = re.compile(
    r"^info depth (\d+) seldepth (\d+) multipv (\d+) score (cp -?\d+|mate -?\d+) wdl (\d+) (\d+) (\d+) "
    r"nodes (\d+) nps (\d+) hashfull (\d+) tbhits (\d+) time (\d+) pv( [a-i]\d[a-i]\d)+$"
)
CURRMOVE_LINE = re.compile(r"^info depth (\d+) currmove ([a-i]\d[a-i]\d) currmovenumber (\d+)$")

#: Four positions of every phase, each with at least three legal moves.
POSITIONS = (
    START_FEN,
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",   # Black to move
    "2bak4/4a4/4b4/p3p3p/2p6/6P2/P1P1c4/4C4/4A4/2BAK1B2 w - - 0 30",               # cannons and soldiers
    "3k5/4a4/9/9/9/9/9/4B4/4A4/3AK1R2 w - - 0 1",                                   # a chariot up
)


@pytest.fixture
def eng():
    with EngineDriver() as driver:
        driver.handshake("uci", book=False)
        yield driver


def last_iteration(lines: list[str], codec=UciCodec()) -> list[PvLine]:
    """The PV lines of the deepest iteration reported, by multipv, read as a GUI (the client) reads them."""
    infos = [info for info in map(codec.parse_info, lines) if info is not None and info.pv]
    deepest = max(info.depth for info in infos)
    return sorted((info for info in infos if info.depth == deepest), key=lambda info: info.multipv)


@pytest.mark.slow
def test_show_wdl_with_multipv_3_gives_three_lines_with_chances_on_four_positions(eng):
    """A GUI that sets UCI_ShowWDL and MultiPV 3 reads three lines with win/draw/loss for each position:
    per mille, summing to 1000, right after the score, the model's chances for that score at the
    position's material, and ordered as the scores are."""
    eng.send("setoption name UCI_ShowWDL value true")
    eng.send("setoption name MultiPV value 3")
    for fen in POSITIONS:
        eng.send(f"position fen {fen}")
        eng.send("go depth 5")
        lines = eng.read_until("bestmove", timeout=60)
        infos = [line for line in lines if line.startswith("info depth")]
        assert infos and all(WDL_INFO_LINE.match(line) for line in infos), "\n".join(infos)
        best = last_iteration(lines)
        assert [info.multipv for info in best] == [1, 2, 3], fen
        material = wdl.material_of(Position(fen))
        for info in best:
            assert info.wdl is not None and sum(info.wdl) == 1000 and min(info.wdl) >= 0
            assert info.wdl == wdl.chances(info.score, material), (fen, info)
        wins = [info.wdl.win - info.wdl.loss for info in best]
        assert wins == sorted(wins, reverse=True), (fen, best)


@pytest.mark.slow
def test_without_show_wdl_the_info_lines_are_as_before(eng):
    eng.send("position startpos moves h2e2 h9g7")
    eng.send("go depth 4")
    lines = eng.read_until("bestmove", timeout=30)
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(INFO_LINE.match(line) for line in infos), "\n".join(infos)
    eng.send("setoption name UCI_ShowWDL value true")
    eng.send("go depth 2")
    assert all(WDL_INFO_LINE.match(line) for line in eng.read_until("bestmove", timeout=30)
               if line.startswith("info depth"))
    eng.send("setoption name UCI_ShowWDL value false")
    eng.send("go depth 3")
    lines = eng.read_until("bestmove", timeout=30)
    assert all(INFO_LINE.match(line) for line in lines if line.startswith("info depth")), "\n".join(lines)
    assert not eng.info_strings(lines)


@pytest.mark.slow
def test_the_option_is_offered_in_uci_and_ucci_and_refuses_a_bad_value():
    with EngineDriver() as eng:
        lines = eng.handshake("uci")
        assert "option name UCI_ShowWDL type check default false" in lines
        eng.send("setoption name UCI_ShowWDL value maybe")
        errors = eng.info_strings(eng.ping())
        assert len(errors) == 1 and "UCI_ShowWDL" in errors[0], errors
    with EngineDriver() as eng:
        lines = eng.handshake("ucci")
        assert "option showwdl type check default false" in lines
        eng.send("setoption showwdl true")
        eng.send("position startpos moves h2e2")
        eng.send("go depth 3")
        lines = eng.read_until("bestmove", timeout=30)
        scored = [line for line in lines if re.match(r"^info depth \d+ score", line)]
        assert scored and all(re.match(r"^info depth \d+ score -?\d+ wdl \d+ \d+ \d+ pv ", line) for line in scored)
        best = last_iteration(lines, UcciCodec())[0]
        assert best.wdl == wdl.chances(best.score, 110)


@pytest.mark.slow
def test_a_long_search_names_its_current_move_after_three_seconds(eng):
    """As Stockfish: `info depth D currmove M currmovenumber N` from the main thread each time it starts
    on a root move, once the search has run for 3 s; D is the iteration under way, M a legal move, N
    its number in the iteration. The info lines carry hashfull."""
    fen = POSITIONS[2]     # few moves: the root moves follow one another quickly
    eng.send(f"position fen {fen}")
    eng.send("go movetime 2000")           # stopped by its own clock before 3 s: no current move named
    assert not [line for line in eng.read_until("bestmove", timeout=10) if "currmove" in line]
    eng.send("go infinite")
    lines = eng.read_until(lambda text: "currmove" in text, timeout=30) + eng.collect(0.3)
    eng.send("stop")
    lines += eng.read_until("bestmove", timeout=10)
    legal = set(Position(fen).legal_moves())
    current = [CURRMOVE_LINE.match(line) for line in lines if "currmove" in line]
    assert current and all(current), lines[-5:]
    depth_reported = 0
    for line in lines:
        info = INFO_LINE.match(line)
        if info:
            depth_reported = int(info.group(1))
            assert 0 <= int(info.group(7)) <= 1000                 # hashfull, per mille
            continue
        match = CURRMOVE_LINE.match(line)
        if match:
            depth, move, number = int(match.group(1)), match.group(2), int(match.group(3))
            assert depth == depth_reported + 1 and move in legal and 1 <= number <= len(legal), line
    assert not [line for line in lines if line.startswith("info string")]


def test_the_current_move_lines_of_each_dialect():
    current = CurrentMove(depth=14, move="h0g2", number=3)
    assert uci.format_currmove(current) == "info depth 14 currmove h0g2 currmovenumber 3"
    assert ucci.format_currmove(current) == "info currmove h0g2 currmovenumber 3"
    line = PvLine(depth=3, seldepth=5, score=Score(21), nodes=9, nps=9000, hashfull=1, time_ms=1, pv=("h0g2",),
                  wdl=Wdl(300, 450, 250))
    assert uci.format_info(line) == ("info depth 3 seldepth 5 multipv 1 score cp 21 nodes 9 nps 9000 hashfull 1 "
                                     "tbhits 0 time 1 pv h0g2")
    assert " score cp 21 wdl 300 450 250 nodes 9 " in uci.format_info(line, show_wdl=True)
    assert ucci.format_info(line, show_wdl=True)[0] == "info depth 3 score 21 wdl 300 450 250 pv h0g2"


def eval_lines(eng) -> list[str]:
    eng.send("eval")
    return eng.ping(timeout=10)


def static_value(lines: list[str]) -> tuple[int, str]:
    """(the side to move's static evaluation, the side to move) from `eval`'s lines."""
    match = next(re.match(r"^Static evaluation: ([+-]\d+) for (Red|Black) \(side to move\), ([+-]\d+) from Red's view$",
                          line) for line in lines if line.startswith("Static evaluation"))
    value, side, red = int(match.group(1)), match.group(2), int(match.group(3))
    assert red == (value if side == "Red" else -value)
    return value, side


@pytest.mark.slow
def test_eval_explains_the_static_evaluation(eng):
    eng.send("position startpos moves h2e2")
    lines = eval_lines(eng)
    value, side = static_value(lines)
    assert side == "Black"
    assert lines[0].startswith("Evaluation: NNUE evaluation with jiangjun.jjnn")
    chances = next(line for line in lines if line.startswith("Chances"))
    assert re.search(r"W \d+\.\d% D \d+\.\d% L \d+\.\d% \(material count 110", chances)
    line = next(line for line in lines if line.startswith("NNUE output"))
    split = re.match(r"^NNUE output: ([+-]\d+) \(side to move's view\) = the side to move's half "
                     r"([+-]\d+\.\d), the other side's ([+-]\d+\.\d), bias ([+-]\d+\.\d)$", line)
    if split:       # a network without a hidden layer: its output is the sum of the three parts
        assert int(split.group(1)) == value
        assert abs(sum(float(split.group(k)) for k in (2, 3, 4)) - value) < 1.2
    else:
        layered = re.match(r"^NNUE output: ([+-]\d+) \(side to move's view; through the network's hidden layer, "
                           r"not a sum of the sides' halves\)$", line)
        assert layered and int(layered.group(1)) == value, line
    board = lines.index(next(line for line in lines if line.startswith("NNUE piece values")))
    grid = lines[board + 1:board + 12]
    assert [row[:1] for row in grid[:10]] == [str(rank) for rank in range(9, -1, -1)] and grid[10].split()[0] == "a"
    assert re.search(r"R\s*\+\d+", grid[9]) and re.search(r"r\s*-\d+", grid[0]) and " K " in grid[9] + " "
    hand = next(line for line in lines if line.startswith("Hand-crafted evaluation"))
    assert "not in use" in hand and re.search(r"material Red \d+, Black \d+", hand)
    # The hand-crafted terms add up to its score (up to rounding).
    eng.send("setoption name Use NNUE value false")
    eng.ping()
    lines = eval_lines(eng)
    value, _ = static_value(lines)
    assert not any(line.startswith("NNUE") for line in lines)
    terms = {m.group(1).strip(): float(m.group(2)) for m in
             (re.match(r"^  (\S.*?)\s+([+-]\d+\.\d)$", line) for line in lines) if m}
    assert {"material", "piece-square tables", "tempo", "total"} <= set(terms)
    red = -value  # Black to move
    assert abs(terms.pop("total") - red) <= 3 and abs(sum(terms.values()) - red) <= 3, terms


@pytest.mark.slow
def test_flip_mirrors_the_position_and_swaps_the_colours(eng):
    fen = POSITIONS[1]
    eng.send(f"position fen {fen}")
    before = eval_lines(eng)
    eng.send("flip")
    eng.send("d")
    lines = eng.ping()
    shown = next(line for line in lines if line.startswith("Fen: "))[5:]
    assert shown == Position(fen).mirror().fen()
    assert shown.split()[0] == "rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKAB1R"
    assert shown.split()[1] == "w" and "Side to move: red" in lines
    # The evaluation is the same for the side to move in the mirror (both evaluations see the board
    # from the side's own end).
    assert static_value(eval_lines(eng)) == (static_value(before)[0], "Red")
    eng.send("flip")
    eng.send("d")
    assert f"Fen: {Position(fen).fen()}" in eng.ping()
    eng.send("go depth 3")
    assert re.match(r"^bestmove [a-i]\d[a-i]\d", eng.read_until("bestmove", timeout=30)[-1])


@pytest.mark.slow
def test_eval_and_flip_refuse_arguments_and_the_engine_goes_on(eng):
    for line in ("eval now", "flip 2", "eval\x00"):
        eng.send(line)
    errors = eng.info_strings(eng.ping())
    assert errors == ["info string eval takes no arguments, not 'now'",
                      "info string flip takes no arguments, not '2'",
                      "info string unknown command 'eval\\x00' (type 'help' for the list)"], errors
    eng.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    eng.send("flip")
    eng.send("eval")
    assert any(line.startswith("Static evaluation") for line in eng.ping())

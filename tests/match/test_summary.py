"""engine.match.summary: the running score line and the final table of a match."""
from collections import Counter

from engine.match.summary import PairScore, format_elo, results_table, score_line


def test_score_line_and_table():
    pair = PairScore(6, 2, 2, Counter({"resignation": 2, "checkmate": 7, "repetition": 1}))
    assert score_line("A", "B", pair).startswith("Score of A vs B: 6 - 2 - 2  [0.700] 10   Elo +147.2 +/- ")
    table = results_table({(0, 1): pair}, lambda index: "AB"[index], 10, "SPRT: llr 3.00: H1 accepted").splitlines()
    assert table[0] == "Results (10 games)"
    assert table[1].startswith("  A vs B: W 6  D 2  L 2  score 0.700  Elo +147.2 +/- ") and "draws 20.0%" in table[1]
    # The rules' endings first, then the runner's, each by its words.
    assert table[2] == "    endings: checkmate 7, repetition 1, resignation 2"
    assert table[3] == "  SPRT: llr 3.00: H1 accepted"
    assert results_table({}, str, 0).splitlines() == ["Results (0 games)", "  no game was finished"]


def test_format_elo():
    assert (format_elo(147.23), format_elo(-3.0), format_elo(66.0, signed=False)) == ("+147.2", "-3.0", "66.0")
    assert (format_elo(float("inf")), format_elo(float("-inf")), format_elo(float("inf"), signed=False)) == \
        ("inf", "-inf", "inf")


def test_game_pairs_are_counted_pentanomially():
    pair = PairScore()
    # Two pairs: (win, loss) and (draw, win); the games of a pair come in any order, a lone game waits.
    for points, key in ((1, "p1"), (1, "p2"), (0, "p1"), (0.5, "p2"), (0, "p3")):
        pair.add(points, "checkmate", key)
    assert (pair.wins, pair.draws, pair.losses) == (2, 1, 2)
    assert pair.pentanomial == (0, 0, 1, 1, 0) and pair.half_pairs == {"p3": 0}
    assert score_line("A", "B", pair).endswith("Ptnml(0-2) [0, 0, 1, 1, 0]")
    table = results_table({(0, 1): pair}, lambda index: "AB"[index], 5).splitlines()
    assert table[3].startswith("    pairs: Ptnml(0-2) [0, 0, 1, 1, 0]  Elo ") and table[3].endswith("(pentanomial)")
    single = PairScore()
    single.add(1, "checkmate")
    assert single.pentanomial is None and "Ptnml" not in score_line("A", "B", single)

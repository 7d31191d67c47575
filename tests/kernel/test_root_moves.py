"""The searcher's root-move list (ext/search.pxi RootMove): MultiPV, searchmoves, banmoves, helpers and
the rescue search after a stop at depth 1 all work on it."""
from __future__ import annotations

from engine import Position
from engine._core import Searcher
from engine.server.bench import BENCH_FENS

START = Position()


def _search(**limits):
    infos = []
    found = Searcher(16, limits.pop("threads", 1)).search(START.kernel_board, on_info=infos.append, **limits)
    return found, infos


def test_multipv_lines_are_distinct_sorted_and_each_has_its_own_seldepth():
    found, infos = _search(depth=5, multipv=4)
    last = [info for info in infos if info.depth == 5]
    assert [info.multipv for info in last] == [1, 2, 3, 4]
    assert len({info.bestmove for info in last}) == 4
    assert [info.score for info in last] == sorted((info.score for info in last), reverse=True)
    assert all(info.seldepth >= info.depth and info.pv[0] == info.bestmove for info in last)
    assert (found.bestmove, found.score, found.pv) == (last[0].bestmove, last[0].score, last[0].pv)


def test_searchmoves_and_banmoves_together():
    found, infos = _search(depth=4, multipv=5, searchmoves=["h2e2", "b0c2", "a3a4"], banmoves=["b0c2", "zzzz"])
    assert found.bestmove in ("h2e2", "a3a4")
    assert {info.bestmove for info in infos} <= {"h2e2", "a3a4"}
    assert [info.multipv for info in infos if info.depth == 4] == [1, 2]      # only two root moves left


def test_no_root_move_left():
    found, infos = _search(depth=3, banmoves=START.legal_moves())
    assert found.bestmove is None and infos == []


def test_helpers_keep_to_the_root_moves():
    found, _ = _search(depth=6, threads=2, searchmoves=["a3a4", "c3c4"])
    assert found.bestmove in ("a3a4", "c3c4")


def test_the_threads_vote_for_a_root_move():
    """Without a depth limit the move played is voted for by every thread (searcher.pxi _vote): it is one
    of the root moves, with its own line."""
    for fen in BENCH_FENS[:6]:
        position = Position(fen)
        allowed = position.legal_moves()[:4]
        infos = []
        found = Searcher(16, 2).search(position.kernel_board, nodes=20000, searchmoves=allowed, on_info=infos.append)
        assert found.bestmove in allowed and found.pv[0] == found.bestmove
        assert {info.bestmove for info in infos} <= set(allowed)


def test_a_search_cut_short_still_plays_a_move_of_the_root_list():
    # The tightest limits: the first poll of the node limit, a 1 ms deadline (a stop at depth 1 is
    # finished by the rescue search on its own node budget).
    for fen in BENCH_FENS[:4]:
        position = Position(fen)
        allowed = position.legal_moves()[1:3]
        for limits in (dict(nodes=1), dict(hard_ms=1, soft_ms=1)):
            found = Searcher(16, 1).search(position.kernel_board, searchmoves=allowed, **limits)
            assert found.depth >= 1 and found.bestmove in allowed and found.pv[0] == found.bestmove


def test_the_root_move_callback_names_every_root_move_and_changes_nothing():
    """on_root_move (UCI's currmove): the main thread's root moves in the order searched, numbered from 1
    in each iteration (MultiPV line k's from k, as Stockfish counts), with the iteration's depth; the
    search itself (nodes, lines) is the same with it as without; what it raises is ignored; after the
    delay only (none here: the search is done long before a minute)."""
    plain, plain_infos = _search(depth=5, multipv=2)
    seen = []
    found, infos = _search(depth=5, multipv=2, on_root_move=lambda *report: seen.append(report))
    assert (found.nodes, found.pv, [i.pv for i in infos]) == (plain.nodes, plain.pv, [i.pv for i in plain_infos])
    legal = set(START.legal_moves())
    assert {depth for depth, _, _ in seen} == {1, 2, 3, 4, 5}
    assert all(move in legal and 1 <= number <= len(legal) for _, move, number in seen)
    firsts = [number for k, (_, _, number) in enumerate(seen) if k == 0 or number <= seen[k - 1][2]]
    assert set(firsts) <= {1, 2}           # each search of line 1 starts at 1, of line 2 at 2

    def fails(*report):
        raise RuntimeError("a GUI that went away")

    assert _search(depth=4, on_root_move=fails)[0].nodes == _search(depth=4)[0].nodes
    late = []
    _search(depth=4, on_root_move=lambda *report: late.append(report), root_move_after_ms=60_000)
    assert late == []

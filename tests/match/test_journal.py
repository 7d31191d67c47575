"""engine.match.journal: the records of finished games, written and read back (those of earlier versions too),
and the fingerprint that keeps a journal to its own match."""
import json
import lzma

import pytest

from support import ROOT
from engine.color import Color
from engine.match.cli import parse_args
from engine.match.endings import MatchTermination, Verdict
from engine.match.journal import Journal, JournalError, match_id, record_from_dict, record_to_dict
from engine.match.openings import Opening
from engine.match.record import EngineIdentity, GameRecord, MoveEval
from engine.match.runner import schedule
from engine.outcome import Termination
from engine.score import Score

# A journal committed with its match (benchmarks/matches), written before the ending was typed: a record
# that must go on reading back, and a match that must go on resuming (docs/strength.md).
COMMITTED = ROOT / "benchmarks" / "matches" / "pikafish-hce-10s-3ff98da.journal.xz"

# Matches and the fingerprints the runner gave them before the option table, the referee and -noadjudicate
# (computed by the code of 8d2caba): a journal of such a match resumes with the same command line.
FINGERPRINTS = [
    (["-engine", "cmd=env PYTHONPATH=/x python -m engine", "name=jiangjun 0.1.0 (7d253e9)", "dir=/tmp",
      "-engine", "cmd=pikafish", "name=Pikafish-HCE 2026-12-02", "-each", "proto=uci", "-tc", "10+0.1",
      "-games", "2", "-rounds", "200", "-repeat", "-concurrency", "2", "-openings",
      f"file={ROOT / 'benchmarks' / 'openings-ccpd.txt'}", "format=book", "order=random", "-seed", "5"],
     "267f33c459edcc4b"),
    (["-engine", "cmd=a", "name=A", "option.Hash=64", "tc=5+0.1", "-engine", "cmd=b", "proto=ucci", "st=2",
      "-each", "tc=40/5400:10/900", "-scale", "0.5", "-games", "3", "-rounds", "2",
      "-draw", "movenumber=40", "movecount=8", "score=10", "-resign", "movecount=3", "score=600", "twosided=true",
      "-maxmoves", "200", "-timemargin", "250"],
     "5f3bba1cb4f56445"),
    (["-engine", "cmd=a", "-engine", "cmd=b", "-engine", "cmd=c", "ranks=1", "proto=xboard", "-tournament",
      "gauntlet", "-tc", "depth=3", "-games", "2"],
     "da1d6081b71095c2"),
]


def fingerprint_of(argv: list[str]) -> str:
    config = parse_args(argv)
    return match_id(schedule(config), config.engines, config.adjudication, config.time_margin,
                    config.stall_timeout)


@pytest.mark.parametrize("argv,expected", FINGERPRINTS)
def test_the_fingerprint_of_a_match_is_the_one_earlier_versions_gave_it(argv, expected):
    assert fingerprint_of(argv) == expected


def test_the_fingerprint_tells_matches_apart():
    base = ["-engine", "cmd=a", "-engine", "cmd=b", "-tc", "10+0.1", "-games", "2"]
    odds = ["-engine", "cmd=a", "-engine", "cmd=b", "tc=20+0.2", "-tc", "10+0.1", "-games", "2"]
    fingerprints = {fingerprint_of(base), fingerprint_of(odds), fingerprint_of(base + ["-noadjudicate"]),
                    fingerprint_of(base + ["-maxmoves", "100"])}
    assert len(fingerprints) == 4           # each engine's clock and how games are judged are the match's


def test_a_committed_journal_reads_back_and_resumes(tmp_path):
    data = lzma.decompress(COMMITTED.read_bytes())
    path = tmp_path / "match.journal"
    path.write_bytes(data)
    header, *lines = data.decode("utf-8").splitlines()
    journal = Journal.open(str(path), json.loads(header)["match"], None)
    journal.close()
    assert len(journal.finished) == len(lines) == 172 and path.read_bytes() == data
    records = list(journal.finished.values())
    assert all(record.termination in Termination for record in records)
    assert {record.termination for record in records} >= {Termination.CHECKMATE, Termination.REPETITION}
    assert all(isinstance(note, MoveEval) for record in records for note in record.evals if note is not None)
    # Each line reads into a record that writes it again as it was.
    for line in lines:
        entry = json.loads(line)["record"]
        assert json.loads(json.dumps(record_to_dict(record_from_dict(entry)))) == entry
    with pytest.raises(JournalError, match="journal of another match"):
        Journal.open(str(path), "0123456789abcdef", None)


def a_record() -> GameRecord:
    record = GameRecord("one", "two", Opening("start"), identities=[EngineIdentity("one 1.0", {"Hash": "16"}),
                                                                    EngineIdentity("two", {})])
    record.add_book_move("h2e2")
    record.add_move("h9g7", "+0.35/9 0.512s", MoveEval(Score(35), 9, 512.0))
    record.add_move("h0g2", "?/0 0.001s", MoveEval(None, None, 1.0))
    return record


@pytest.mark.parametrize("verdict", [
    Verdict("1-0", Termination.PERPETUAL_CHASE, "Red wins by perpetual chase"),
    Verdict.loss(Color.BLACK, MatchTermination.NO_MOVE, "Black (two) gave no move"),
    Verdict("1/2-1/2", MatchTermination.MAX_MOVES, "draw: the 40-move limit of the match"),
])
def test_a_typed_ending_round_trips_through_the_journal(verdict, tmp_path):
    record = a_record().finish(verdict)
    path = tmp_path / "games.journal"
    journal = Journal.open(str(path), "match", None)
    journal.add(7, record)
    journal.close()
    line = json.loads(path.read_text(encoding="utf-8").splitlines()[1])
    assert line["record"]["termination"] == verdict.reason.value       # the key, as journals always wrote it
    again = Journal.open(str(path), "match", None).finished[7]
    assert again == record and again.termination is verdict.reason
    assert again.evals[1] == MoveEval(Score(35), 9, 512.0) and again.evals[0] is None


def test_journals_of_earlier_versions_read_back():
    # An unfinished game's ending was "" and a move's time was in seconds before engine.search_types.
    entry = record_to_dict(a_record())
    assert entry["termination"] == ""
    entry["evals"][1] = {"score": 35, "depth": 9, "seconds": 0.512}
    record = record_from_dict(entry)
    assert record.termination is None and record.evals[1] == MoveEval(Score(35), 9, 512.0)
    entry["termination"] = "no_such_ending"
    with pytest.raises(ValueError):
        record_from_dict(entry)

"""Perpetual check and chase inside the tables (ext/tb_rules.pxi): the entries the rulings decide, read and
shown; checked by the verifier; and played out with the kernel's own judge (Position.outcome()), which must
rule as the table says: a ruled loss ends, when a position has occurred three times, in a perpetual check
or chase by the ruled side (or in a mate), and a side that a draw's mark calls safe is never ruled
against when it plays as the mark says it can."""
import random

import pytest

from engine import Position, _core
from engine.color import Color
from engine.fen import format_board
from engine.outcome import Termination
from engine.tablebase import Wdl, build_tables, open_tablebase
from engine.tablebase.build import load_table, table_path
from engine.tablebase.material import Material, dependencies
from engine.tablebase.values import CHASED_PIECES, ILLEGAL_ENTRY, TableValue
from support.tb_points import safe_sides

#: Raw entries of the encoding (ext/tb_index.pxi): order 1's block starts at 0x8000; slots 1..127 are the
#: kinds of a position lost now, slot 127 + d is distance d.
RULED_NOW_CHECK = 0x8000 | 1
RULED_NOW_CHARIOT = 0x8000 | (1 << 4)
RULED_WIN_IN_1 = 0x8000 + 127 + 1
RULED_LOSS_IN_2_ORDER_2 = 0x8000 + 1024 + 127 + 2


def test_ruled_entries_read_as_wins_and_losses_with_their_order():
    now = TableValue.of_entry(RULED_NOW_CHECK)
    assert (now.wdl, now.plies, now.order, now.kinds) == (Wdl.LOSS, 0, 1, ("check",))
    assert now.dtm is None and now.ruled
    assert str(now) == "loss by the perpetual check ruling: every move loses otherwise or checks"
    chase = TableValue.of_entry(RULED_NOW_CHARIOT)
    assert str(chase) == "loss by the perpetual chase ruling: every move loses otherwise or chases the chariot"
    win = TableValue.of_entry(RULED_WIN_IN_1)
    assert (win.wdl, win.plies, win.order, win.kinds) == (Wdl.WIN, 1, 1, ())
    assert str(win) == "win by the perpetual check/chase ruling in 1 ply (order 1)"
    assert now.after_move() == win
    loss = TableValue.of_entry(RULED_LOSS_IN_2_ORDER_2)
    assert (loss.wdl, loss.plies, loss.order) == (Wdl.LOSS, 2, 2)


def test_ruled_values_rank_after_mates_for_the_winner_and_before_them_for_the_loser():
    mate = TableValue(Wdl.WIN, 41)
    ruled = TableValue.of_entry(RULED_WIN_IN_1)
    assert sorted([ruled, mate], key=TableValue.rank) == [mate, ruled]
    mated = TableValue(Wdl.LOSS, 2)
    ruled_loss = TableValue.of_entry(RULED_LOSS_IN_2_ORDER_2)
    assert sorted([mated, ruled_loss], key=TableValue.rank) == [ruled_loss, mated]


def test_a_ruled_win_is_said_without_a_mate_distance():
    from engine.tablebase.describe import mate_moves, tb_text, value_json

    win = TableValue.of_entry(RULED_WIN_IN_1)
    assert mate_moves(win) is None and win.dtm is None
    assert tb_text(win, Color.RED) == "TB: red wins by the perpetual check/chase ruling"
    assert tb_text(win, Color.BLACK, "zh") == "TB: 黑胜（长将、长捉的裁决）"
    assert value_json(TableValue.of_entry(RULED_NOW_CHECK), Color.RED)["winner"] == "black"


@pytest.fixture(scope="module")
def krkn_dir(tmp_path_factory):
    """KRKN, the smallest ending found with rulings: the horse's side must check for ever in 1,291
    positions (Black to move). Built and verified."""
    directory = tmp_path_factory.mktemp("krkn")
    build_tables(["KRKN"], directory, verify=True)
    return directory


def loaded(directory, name):
    material = Material.parse(name)
    table = load_table(table_path(directory, material), material)
    for side, ptype, after in material.captures():
        canon, flipped = after.canonical()
        sub = load_table(table_path(directory, canon), canon) if canon.has_attackers else None
        table.set_subtable(side, ptype, sub, flipped)
    return table


@pytest.mark.slow
def test_krkn_has_ruled_losses_and_the_verifier_checks_them(krkn_dir):
    table = loaded(krkn_dir, "KRKN")
    red, black = table.statistics()
    assert black["ruled_now"] > 0 and red["ruled_win"] > 0 and black["order"] >= 1
    assert table.verify() == (0, None)
    index = next(i for i in range(table.size) if _core.tb_entry_fields(table.value(i, 1)) is not None
                 and _core.tb_entry_fields(table.value(i, 1))[3])
    data = bytearray(table.values_bytes(1))
    data[2 * index:2 * index + 2] = RULED_NOW_CHARIOT.to_bytes(2, "little")   # a kind it does not have
    table.load_values(1, bytes(data))
    assert table.verify()[0] >= 1


def move_kinds(position, move):
    """What a move does for the rulings: "check", and the types of the pieces it newly chases."""
    board = position.kernel_board
    kinds = {CHASED_PIECES[board.piece_at(ord(square[0]) - 97, int(square[1:]))[1]]
             for square in _core.testing.chased_by(board, move)}
    after = position.copy()
    after.push(move)
    if after.kernel_board.in_check():
        kinds.add("check")
    return kinds


def is_capture(position, move):
    return position.kernel_board.piece_at(ord(move[2]) - 97, int(move[3])) is not None


def keeps(position, move, kind):
    """Whether the winner's reply keeps the kind alive: no capture, no check, and no chase for a chase."""
    if is_capture(position, move):
        return False
    done = move_kinds(position, move)
    return "check" not in done and (kind == "check" or not done)


def after(position, move):
    out = position.copy()
    out.push(move)
    return out


def same_result(a, b):
    """The same win or loss at the same distance and order (their distances to conversion aside)."""
    return (a.wdl, a.plies, a.order) == (b.wdl, b.plies, b.order)


class RuledLine:
    """The winner's strategy in a ruled win: the table's best move while far from the ruling, then, at a
    position lost now, one kind of its mask kept for ever by replies into positions lost now that keep it."""

    def __init__(self, tb):
        self.tb = tb
        self.kind = None

    def winner_move(self, position):
        value = self.tb.probe(position)
        assert value.wdl is Wdl.WIN, position.fen()
        scored = [(move, self.tb.probe(after(position, move))) for move in position.legal_moves()]
        if not value.ruled or value.plies > 1:
            self.kind = None
            return next(move for move, v in scored if same_result(v.after_move(), value))
        now = [(move, v) for move, v in scored if v.ruled and v.plies == 0 and v.order == value.order]
        if self.kind is not None:
            kept = [move for move, v in now if self.kind in v.kinds and keeps(position, move, self.kind)]
            assert kept, f"no reply keeps {self.kind} in {position.fen()}"
            return kept[0]
        move, v = sorted(now, key=lambda item: not keeps(position, item[0], item[1].kinds[0]))[0]
        self.kind = v.kinds[0]
        return move

    def check_loser_move(self, position, move):
        """At a position lost now, the loser's move loses otherwise (leaves the ruling) or is of the kind."""
        value = self.tb.probe(position)
        if self.kind is None or not (value.ruled and value.plies == 0):
            return
        then = self.tb.probe(after(position, move))
        if then.wdl is Wdl.WIN and then.order < value.order:
            self.kind = None
        else:
            assert self.kind in move_kinds(position, move), (position.fen(), move, self.kind)


def loser_move(tb, position, seen, rng):
    """Mostly the longest defence (a move that stays in the ruling rather than into a mate), half the time
    one that repeats a position seen before (cycles come soon); now and then any move."""
    moves = position.legal_moves()
    if rng.random() < 0.8:
        ranked = [(tb.probe(after(position, m)).after_move().rank(), m) for m in moves]
        best = min(rank for rank, _m in ranked)
        moves = [m for rank, m in ranked if rank[:2] == best[:2]]
    if rng.random() < 0.5:
        repeating = [m for m in moves if seen.get(after(position, m).fen().rsplit(" ", 2)[0], 0)]
        if repeating:
            return rng.choice(repeating)
    return rng.choice(moves)


def play_ruled(tb, fen, rng, max_plies=300):
    """Play out a ruled position; returns the outcome, the loser being the side the table says loses."""
    position = Position(fen)
    value = tb.probe(position)
    winner = position.turn if value.wdl is Wdl.WIN else position.turn.other
    line = RuledLine(tb)
    seen = {}
    for _ply in range(max_plies):
        outcome = position.outcome()
        if outcome is not None:
            return winner, outcome
        key = position.fen().rsplit(" ", 2)[0]
        seen[key] = seen.get(key, 0) + 1
        if position.turn == winner:
            move = line.winner_move(position)
        else:
            move = loser_move(tb, position, seen, rng)
            line.check_loser_move(position, move)
        position.push(move)
    return winner, None


def ruled_fens(table, rng, count):
    fens = []
    for side in (0, 1):
        found = [i for i in range(table.size)
                 if (f := _core.tb_entry_fields(table.value(i, side))) is not None and f[1] > 0]
        for index in rng.sample(found, min(count, len(found))):
            fens.append(f"{format_board(table.position_of(index))} {'wb'[side]} - - 0 1")
    return fens


@pytest.mark.slow
def test_the_judge_rules_every_ruled_loss_of_krkn_a_loss(krkn_dir):
    tb = open_tablebase(krkn_dir, shipped=False)
    rng = random.Random(44)
    table = loaded(krkn_dir, "KRKN")
    endings = {}
    for fen in ruled_fens(table, rng, 40):
        for _line in range(3):
            winner, outcome = play_ruled(tb, fen, rng)
            assert outcome is not None, fen
            assert outcome.winner == winner, (fen, outcome)
            endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
    assert set(endings) <= {Termination.PERPETUAL_CHECK, Termination.PERPETUAL_CHASE, Termination.CHECKMATE,
                            Termination.STALEMATE}
    rulings = endings.get(Termination.PERPETUAL_CHECK, 0) + endings.get(Termination.PERPETUAL_CHASE, 0)
    assert 3 * rulings >= sum(endings.values())        # the loser's longest defence mostly ends in one


def entry_of(tables, board):
    """(material, index, side to move) of a board in table orientation, None without attackers."""
    material, flipped = Material.of_pieces(board.pieces()).canonical()
    if not material.has_attackers:
        return None
    index, side = tables[material].index_of(board, flipped)
    return material, index, side


def safe_move(tables, position, side, rng):
    """A move of `side` into a draw where it stays safe: a capture, or a move that neither checks nor chases
    (the marks of a side with more than one kind promise one)."""
    options = []
    for move in position.legal_moves():
        then = safe_sides(tables, frozenset(after(position, move).kernel_board.pieces()), 1 - side)
        if then is not None and side in then and (is_capture(position, move) or not move_kinds(position, move)):
            options.append(move)
    assert options, position.fen()
    return rng.choice(options)


def drawn_value(table, index, side):
    """The TableValue of a drawn entry, None for any other (illegal ones included)."""
    entry = table.value(index, side)
    if entry == ILLEGAL_ENTRY or _core.tb_entry_fields(entry) is not None:
        return None
    return TableValue.of_entry(entry)


def value_of(tables, board):
    """The TableValue of a board's position (for its side to move, in its colours), from in-memory tables."""
    material, flipped = Material.of_pieces(board.pieces()).canonical()
    if not material.has_attackers:
        return TableValue(Wdl.DRAW, None) if board.legal_moves() else TableValue(Wdl.LOSS, 0)
    index, side = tables[material].index_of(board, flipped)
    return TableValue.of_entry(tables[material].value(index, side), flipped)


class Attractor:
    """For a side with one kind (KPKA's defender: a chase of the soldier), the strategy the exposure bound
    promises, computed here afresh over the table's draws called safe for it: rank 0 where it has an
    escape (a move that leaves the table into a draw safe for it or a win, or a move not of its kind into
    a draw called safe); otherwise one more than its best move's, the opponent's being the worst of its
    moves' (each into a ranked draw, a win of the holder, or a capture into a draw safe for it)."""

    BAD = "bad"
    FINE = "fine"

    def __init__(self, tables, material, holder, kind):
        self.tables, self.material, self.holder, self.kind = tables, material, holder, kind
        table = tables[material]
        self.moves = {}
        for index in range(table.size):
            pieces = table.position_of(index)
            for side in (0, 1):
                value = drawn_value(table, index, side) if pieces is not None else None
                if value is not None and holder not in value.at_risk:
                    board = _core.Board()
                    board.set_up(pieces, side, 0)
                    position = Position(f"{format_board(pieces)} {'wb'[side]} - - 0 1")
                    self.moves[(index, side)] = [self._classify(position, move) for move in board.legal_moves()]
        self.rank = {}
        while True:
            new = {key: r for key in self.moves if key not in self.rank and (r := self._rank_of(key)) is not None}
            if not new:
                break
            self.rank.update(new)

    def _classify(self, position, move):
        """(move, where it leads: a successor entry of this table, FINE or BAD, whether it is of the kind)."""
        then = after(position, move).kernel_board
        kind = position.kernel_board.side == self.holder and self.kind in move_kinds(position, move)
        value = value_of(self.tables, then)
        if value.wdl is not Wdl.DRAW:
            return move, self.FINE if (value.wdl is Wdl.WIN) == (then.side == self.holder) else self.BAD, kind
        entry = entry_of(self.tables, then)
        if entry is not None and entry[0] == self.material:
            return move, entry[1:], kind
        return move, self.BAD if self.holder in value.at_risk else self.FINE, kind

    def _escape(self, there, kind):
        return there == self.FINE or (not kind and there in self.moves)

    def _rank_of(self, key):
        steps = []
        for _move, there, kind in self.moves[key]:
            if key[1] == self.holder and self._escape(there, kind):
                return 0
            steps.append(-1 if there == self.FINE else self.rank.get(there))
        if key[1] == self.holder:
            ranked = [step for step in steps if step is not None and step >= 0]
            return 1 + min(ranked) if ranked else None
        return None if None in steps else max([0] + steps)

    def move(self, position):
        """The holder's move: an escape, else the move to the lowest rank (classified on the board itself,
        which may be its entry's mirror)."""
        ranked = []
        for move in position.legal_moves():
            _move, there, kind = self._classify(position, move)
            if self._escape(there, kind):
                return move
            if there in self.rank:
                ranked.append((self.rank[there], move))
        return min(ranked)[1]


@pytest.mark.slow
def test_a_side_safe_by_its_marks_is_never_ruled_against(krkn_dir):
    """KRKN: a side with more than one kind, where its mark calls it safe, holds the draw with captures and
    moves that neither check nor chase, and the judge never rules against it."""
    tables = {m: load_table(table_path(krkn_dir, m), m) for m in dependencies(Material.parse("KRKN"))}
    rng = random.Random(7)
    for holder, position in sampled_draws(tables, Material.parse("KRKN"), rng, 40):
        outcome = play_draw(tables, position, holder, lambda p: safe_move(tables, p, holder, rng), rng)
        assert outcome is None or outcome.winner != Color.of_index(1 - holder), (position.fen(), outcome)


@pytest.mark.slow
def test_a_side_with_one_kind_is_never_ruled_against_by_its_attractor(table_dir):
    """KPKA: the defender's draws are all unmarked, though it must chase the soldier in many of them (the
    old rule marked 4,794 + 5,082 entries). The attractor, computed here, ranks every one of them, and the
    defender following it is never ruled against, the attacker playing to keep it chasing."""
    material = Material.parse("KPKA")
    tables = {m: load_table(table_path(table_dir, m), m) for m in dependencies(material)}
    attractor = Attractor(tables, material, 1, "soldier")
    assert set(attractor.rank) == set(attractor.moves)
    assert max(attractor.rank.values()) > 0                     # some draws need a chase first
    rng = random.Random(8)
    forced = [key for key, r in attractor.rank.items() if key[1] == 1 and r > 0]
    for index, side in rng.sample(forced, min(40, len(forced))):
        position = Position(f"{format_board(tables[material].position_of(index))} b - - 0 1")
        outcome = play_draw(tables, position, 1, attractor.move, rng, attractor)
        assert outcome is None or outcome.winner != Color.RED, (position.fen(), outcome)


def sampled_draws(tables, material, rng, count):
    """(a side its mark calls safe, the position) of random draws."""
    table = tables[material]
    found = 0
    while found < count:
        index, side = rng.randrange(table.size), rng.randrange(2)
        pieces = table.position_of(index)
        if pieces is None or drawn_value(table, index, side) is None:
            continue
        safe = safe_sides(tables, frozenset(pieces), side)
        if not safe:
            continue
        found += 1
        yield rng.choice(sorted(safe)), Position(f"{format_board(pieces)} {'wb'[side]} - - 0 1")


def play_draw(tables, position, holder, holder_move, rng, attractor=None, max_plies=200):
    """Play a draw out: the holder by holder_move, the other side at random among its moves into draws,
    preferring those that repeat a position and (given an attractor) those the attractor ranks highest."""
    seen = {}
    for _ply in range(max_plies):
        if position.outcome() is not None:
            break
        key = position.fen().rsplit(" ", 2)[0]
        seen[key] = seen.get(key, 0) + 1
        if position.kernel_board.side == holder:
            position.push(holder_move(position))
            continue
        drawing = [m for m in position.legal_moves()
                   if safe_sides(tables, frozenset(after(position, m).kernel_board.pieces()), holder) is not None]
        if not drawing:
            break
        repeating = [m for m in drawing if seen.get(after(position, m).fen().rsplit(" ", 2)[0])]
        if attractor is not None and rng.random() < 0.7:
            ranked = [(attractor.rank.get(entry_of(tables, after(position, m).kernel_board)[1:], -1), m)
                      for m in drawing if entry_of(tables, after(position, m).kernel_board) is not None]
            if ranked:
                drawing = [m for r, m in ranked if r == max(ranked)[0]]
        position.push(rng.choice(repeating if repeating and rng.random() < 0.5 else drawing))
    return position.outcome()

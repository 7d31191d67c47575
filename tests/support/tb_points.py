"""Shared by the tablebase tests. The points each piece may stand on, written out by hand from the rules (not taken from the kernel), for
the tablebase tests that count or enumerate an ending's positions independently of its index."""

PALACE = {0: [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)], 1: [(f, r) for f in (3, 4, 5) for r in (7, 8, 9)]}
ADVISOR = {0: [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)], 1: [(3, 9), (5, 9), (4, 8), (3, 7), (5, 7)]}
ELEPHANT = {0: [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]}
ELEPHANT[1] = [(f, 9 - r) for f, r in ELEPHANT[0]]
EVERYWHERE = [(f, r) for f in range(9) for r in range(10)]
SOLDIER = {0: [(f, r) for f, r in EVERYWHERE if r >= 5 or (r >= 3 and f % 2 == 0)]}
SOLDIER[1] = [(f, 9 - r) for f, r in SOLDIER[0]]


def points(side, ptype):
    """The points a piece may stand on, written out by hand from the rules (not from the kernel)."""
    return {0: PALACE, 1: ADVISOR, 2: ELEPHANT, 6: SOLDIER}.get(ptype, {0: EVERYWHERE, 1: EVERYWHERE})[side]


def groups(material):
    """(side, piece type, count) of each kind of piece of `material` (engine.tablebase.material)."""
    return [(side, ptype, n) for side, s in enumerate((material.red, material.black))
            for ptype, n in enumerate(s.counts) if n]


def legal_positions(material):
    """(pieces, side to move) of every legal position of `material`, enumerated from the hand-written points:
    no two pieces on one point, the side not to move not in check."""
    import itertools

    from engine import _core

    kinds = groups(material)
    board = _core.Board()
    for combos in itertools.product(*[itertools.combinations(points(s, t), n) for s, t, n in kinds]):
        squares = [sq for combo in combos for sq in combo]
        if len(set(squares)) < len(squares):
            continue
        pieces = frozenset((s, t, f, r) for (s, t, _n), combo in zip(kinds, combos) for f, r in combo)
        for side in (0, 1):
            board.set_up(list(pieces), side, 0)
            if not board.general_attacked(1 - side):
                yield pieces, side


def successors(pieces, side):
    """(board after, its pieces, whether the move captured) for each legal move of a position."""
    from engine import _core

    board = _core.Board()
    board.set_up(list(pieces), side, 0)
    out = []
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        after_pieces = frozenset(after.pieces())
        out.append((after, after_pieces, len(after_pieces) < len(pieces)))
    return out


def safe_sides(tables, pieces, side):
    """The sides (board colours) a drawn position's entry calls safe; None when it is not a draw."""
    from engine import _core
    from engine.tablebase.material import Material
    from engine.tablebase.values import TableValue, Wdl

    material, flipped = Material.of_pieces(pieces).canonical()
    board = _core.Board()
    board.set_up(list(pieces), side, 0)
    if not material.has_attackers:
        return {0, 1} if board.legal_moves() else None
    index, table_side = tables[material].index_of(board, flipped)
    value = TableValue.of_entry(tables[material].value(index, table_side), flipped)
    return None if value.wdl is not Wdl.DRAW else {0, 1} - set(value.at_risk)


def assert_marks_hold(tables, board, side, safe, where):
    """The marks of a drawn position (`board`, `side` to move, `safe` the sides its entry calls safe), checked
    one ply deep with the kernel's chase test: the mover, when safe, has a move into a draw still safe for
    it that captures, or neither checks nor chases; the other side, when safe, stays safe after every move
    into a draw. `where` names the position in a failure."""
    from engine import _core

    quiet_exit = False
    for move in board.legal_moves():
        capture = board.piece_at(ord(move[2]) - 97, int(move[3])) is not None
        chased = _core.testing.chased_by(board, move)
        after = board.copy()
        after.push(move)
        then = safe_sides(tables, frozenset(after.pieces()), 1 - side)
        if then is None:
            continue
        quiet_exit |= side in then and (capture or (not chased and not after.in_check()))
        assert 1 - side not in safe or 1 - side in then, (where, move)
    assert side not in safe or quiet_exit, where


def single_kind_sides(material):
    """The sides (0 Red, 1 Black) with exactly one kind of perpetual they could be ruled for, derived here
    from the rules (not from the kernel): a side with no chariot, horse, cannon or soldier cannot check, and
    it can only chase the opponent's advisors, elephants and attackers; one kind when all of those are of
    one type. The tables' exposure bound decides these sides' marks (docs/tablebases.md)."""
    sides = set()
    for side, own, other in ((0, material.red, material.black), (1, material.black, material.red)):
        can_check = any(own.counts[ptype] for ptype in (3, 4, 5, 6))
        chaseable = [ptype for ptype in range(1, 7) if other.counts[ptype]]
        if not can_check and len(chaseable) == 1:
            sides.add(side)
    return sides

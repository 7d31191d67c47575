"""One engine process spoken to in CECP, the XBoard protocol (version 2): MaxQi, Sjaak II, Fairy-Stockfish's
xboard mode, this project's engine.

    cfg = EngineConfig("/usr/games/maxqi", proto="xboard")
    with open_process(cfg) as eng:             # a CecpProcess
        eng.new_game()
        result = eng.go(START_FEN, ["h2e2"], Color.BLACK, SearchLimits(time=10_000, increment=100), timeout=12)
        result.bestmove                         # "h9g7": ICCS with ranks 0..9, like every client's
        eng.game_over("1-0", "Red mates")

The conversation (engine-intf.html; what XBoard and cutechess send):

1. **Handshake.** ``xboard``, ``protover 2``; the engine's ``feature`` lines are answered ``accepted`` or
   ``rejected`` one by one until ``done=1``. ``done=0`` asks for more time (up to the start timeout); an
   engine that says nothing for :attr:`CecpProcess.feature_timeout` seconds is a protocol 1 engine and keeps
   the protocol's defaults. The engine must list ``xiangqi`` in ``variants=``; its name is ``myname=``, its
   options the ``option=`` features. ``reuse=0`` makes it restarted before every game.
2. **Options.** A declared option is checked and sent as ``option NAME=VALUE``; Hash and Threads, when not
   declared, become ``memory N`` and ``cores N`` for an engine with ``memory=1`` and ``smp=1`` (as XBoard
   does); an undeclared name is not sent (warnings). An ``OwnBook`` option is switched off unless set: a
   match or an analysis plays its own openings.
3. **Ranks.** XBoard numbers the 10 ranks of a xiangqi board 0..9, and so do MaxQi, Sjaak II and
   Fairy-Stockfish 11 in xboard mode (checked). For an engine that counts 1..10, the numbering is found at the
   start when the config leaves it open (``ranks=`` unset) and the engine answers ``ping``: in force mode,
   ``h2e2`` (legal from 0, from an empty point from 1) and, if refused, ``h3e3``; the one taken is the
   numbering. Without ``ping`` the numbering is 0..9.
4. **A game.** ``new``, ``variant xiangqi``, ``force``, ``easy`` (no pondering), ``post``. The engine keeps
   the game itself, so the process remembers what the engine's board holds and sends only what it lacks:
   before a search, a new board by ``setboard`` (H/E letters) for another start (an engine without
   ``setboard=1`` plays only from the start position), the game's limits (step 5) once, the moves since
   (``usermove m`` for an engine that asked for it with ``usermove=1``, a bare ``m`` otherwise),
   ``time``/``otim`` in centiseconds, and then ``go`` -- or, when the engine already plays the side to move
   and only the opponent's reply is new, the clocks and that move, which starts its search (cutechess's way).
5. **Limits.** A clock is ``level MPS BASE INC`` from the game's first search (moves to go, the clock, the
   increment) and ``time``/``otim`` before each move; a fixed time a move is ``st`` in whole seconds (at
   least 1: MaxQi reads ``st 0.3`` as 0); a depth is ``sd``, with ``st`` or ``level`` when also given, else
   with ``st 86400`` (the protocol has no search by depth alone; cutechess does the same). Limits are set
   once a game, before its moves: other limits later start the engine's board over from ``new``. CECP has
   no node limit, no infinite search and no pondering here: ValueError.
6. **Answers.** ``move m`` ends the search; thinking lines are read as PvLines (the PV in coordinates, or in
   SAN as Sjaak II prints it: ``1. ... Hg7 2. Hc2``). ``resign`` is a resignation, ``offer draw`` sets
   ``offers_draw``, and a result line (``1-0 {...}``) is a claim, returned as ``SearchResult.claim`` with its
   comment in ``note``, with the move when it came with it: the referee (engine.match.referee) judges it by the
   rules. ``Illegal move`` for a move of the game is an EngineProtocolError.
7. **Overrun.** When no move comes in time, ``?`` (move now), a short grace for a late move, then
   EngineTimeout (after Ctrl-C: the same, then SearchInterrupted); before the next command ``force`` and a ``ping``/``pong`` drop whatever came late, and the
   board is sent again from ``new``.
8. **End.** ``result R {comment}`` after each game (:meth:`game_over`), ``quit`` at the end.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..color import Color
from ..fen import START_FEN
from ..search_types import PvLine, SearchLimits, SearchResult
from .base import EngineProcess, InfoCallback
from .cecp_codec import (
    ACCEPTED_FEATURES, centiseconds, is_refusal, level_line, parse_claim, parse_features, parse_move_line,
    parse_thinking, pv_tokens, quote_option, st_line,
)
from .codec import from_engine_move, is_square_pair, to_engine_move
from .errors import EngineError, EngineOptionError, EngineProtocolError, EngineTimeout, SearchInterrupted
from .options import parse_cecp_option
from .transport import Stamped
from .values import EngineConfig

#: The time a move sent with a depth alone (cutechess's way): a day, so that the depth decides.
_DEPTH_ONLY = "st 86400"
#: Options that are commands of the protocol when the engine does not declare them as options: the
#: hash table's size in MB (`memory`, feature memory=1) and the threads (`cores`, feature smp=1).
_RESOURCES = {"hash": "memory", "memory": "memory", "threads": "cores", "cores": "cores"}
#: The rank probe's moves: the cannon h2e2 in 0..9 numbering, the same move in 1..10.
_PROBES = ((0, "h2e2"), (1, "h3e3"))


@dataclass
class _Board:
    """What the engine's board holds: the start it was given and the moves since (ICCS, 0..9)."""

    fen: str
    moves: List[str]


class CecpProcess(EngineProcess):
    """An engine spoken to in CECP. Made by ``open_process(config)`` for ``proto="xboard"`` (or "cecp")."""

    interrupt_line = "?"        # move now
    feature_timeout = 2.0       # a protocol 1 engine sends no features: how long to wait for them (XBoard's 2 s)
    ping_timeout = 10.0         # how long a `ping` may take to be answered
    claim_grace = 0.01          # how long after a move a result claim is waited for (seconds)

    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self.features: Dict[str, str] = {}     # the last value of each feature the engine sent
        self.rank_base = 0 if config.rank_base is None else config.rank_base
        self._started = False
        self._board: Optional[_Board] = None    # None: unknown, send `new` first
        self._plays: Optional[Color] = None     # the side the engine plays (None: force mode)
        self._limits_sent: Optional[Tuple[str, ...]] = None   # the limit lines of this game so far
        self._level: Optional[str] = None       # the level of this game (from its first search on a clock)
        self._need_sync = False
        self._pings = 0
        self._games = 0

    @property
    def protocol(self) -> Optional[str]:
        return "xboard" if self._started else None

    def _feature(self, name: str, default: str) -> str:
        return self.features.get(name, default)

    @property
    def pings(self) -> bool:
        return self._feature("ping", "0") == "1"

    # -- handshake ---------------------------------------------------------------------------------
    def _start(self, timeout: float) -> None:
        self._transport.start()
        self._send("xboard")
        self._send("protover 2")
        self._read_features(timeout)
        variants = self.features.get("variants")
        if variants is None or "xiangqi" not in [v.strip() for v in variants.split(",")]:
            shown = "none" if variants is None else repr(variants)
            raise EngineProtocolError(f"{self.name} does not offer xiangqi (its variants: {shown}); an XBoard "
                                      "engine must announce feature variants=\"xiangqi\"",
                                      details=self._transport.context())
        self.id_name = self.features.get("myname") or None
        self._started = True
        user = {name.lower() for name in self.config.options}
        if "ownbook" in self.declared and "ownbook" not in user:
            self._set("OwnBook", "false")
        for name, value in self.config.options.items():
            self._set(name, value)
        self._ping(timeout)
        if self.config.rank_base is None and self.pings:
            self.rank_base = self._probe_ranks(timeout)

    def _read_features(self, timeout: float) -> None:
        """Read `feature` lines until done=1; answer each one. See the module's step 1 for the timeouts."""
        hard = time.monotonic() + timeout
        deadline = time.monotonic() + self.feature_timeout
        while True:
            got = self._transport.read(deadline)
            if got is None:
                if self._feature("done", "") == "0" and time.monotonic() < hard:
                    deadline = hard
                    continue
                if self._feature("done", "") == "0":
                    raise EngineTimeout(f"{self.name} sent feature done=0 but not done=1 within {timeout:g} s",
                                        details=self._transport.context())
                return          # protocol 1: the defaults stand
            stamp, line = got
            if line is None:
                raise self._transport.crash("during the `xboard` handshake")
            if not line.startswith("feature"):
                continue
            for name, value in parse_features(line):
                self._send(f"{'accepted' if name in ACCEPTED_FEATURES else 'rejected'} {name}")
                if name == "option":
                    option = parse_cecp_option(value)
                    if option is not None:
                        self.declared[option.name.lower()] = option
                        self.advertised[option.name.lower()] = option.name
                    continue
                self.features[name] = value
                if name == "done":
                    if value == "1":
                        return
                    deadline = hard

    def _set(self, name: str, value: Optional[object], strict: bool = False) -> None:
        """Send one option (module step 2); a refused value raises EngineOptionError before anything is sent."""
        spelled, text = self.checked_option(name, value, strict)
        declared = self.declared.get(spelled.lower())
        if declared is not None:
            self._send(quote_option(spelled, text, declared.kind))
        elif spelled in ("memory", "cores") and self._has(spelled):
            self._send(f"{spelled} {text}")
        else:
            self.warnings.append(f"{self.name} declares no option {name!r}: not sent")
            return
        self.options_set[spelled] = text

    def _ping(self, timeout: float, seen: Optional[Callable[[str], None]] = None) -> None:
        """`ping N` and wait for `pong N`, showing the lines before it to `seen`; nothing without ping."""
        if not self.pings:
            return
        self._pings += 1
        wanted = f"pong {self._pings}"
        self._send(f"ping {self._pings}")
        self._expect(lambda line: line.strip() == wanted, time.monotonic() + min(timeout, self.ping_timeout),
                     f"ping {self._pings}", seen)

    def _probe_ranks(self, timeout: float) -> int:
        """The engine's first rank, 0 or 1 (module step 3)."""
        for base, move in _PROBES:
            refused: List[str] = []
            self._new_board()
            self._send(self._move_command(move))
            self._ping(timeout, lambda line: refused.append(line) if is_refusal(line, move) else None)
            if not refused:
                self._board = None
                return base
        self._board = None
        self.warnings.append(f"{self.name} refused the first move in both rank numberings; assuming ranks 0..9")
        return 0

    # -- games -------------------------------------------------------------------------------------
    def _require_started(self) -> None:
        if not self._started:
            raise RuntimeError(f"{self.name}: start() it first")
        if not self.alive:
            raise self._transport.crash("earlier")

    def _new_board(self) -> None:
        """`new` and the variant, in force mode: the engine's board is the start position."""
        self._send("new")
        self._send("variant xiangqi")
        self._send("force")
        self._board = _Board(START_FEN, [])
        self._plays = None
        self._limits_sent = None     # `new` resets the time control and removes the depth limit

    def new_game(self, timeout: float = 10.0) -> None:
        self._require_started()
        if self._games and self._feature("reuse", "1") == "0":     # the engine wants a fresh process
            self.quit()
            self._transport = type(self._transport)(self.config.cmd, self.config.workdir, self._transport.name)
            self._started = False
            self.features.clear()
            self.declared.clear()
            self.advertised.clear()
            self.options_set.clear()
            self.start(timeout)
        self._between_searches(timeout)
        self._games += 1
        self._level = None
        self._new_board()
        self._send("easy")
        self._send("post")
        self._ping(timeout)

    def set_option(self, name: str, value: Optional[object] = None, timeout: float = 10.0,
                   strict: bool = False) -> None:
        self._require_started()
        self.checked_option(name, value, strict)     # before anything is sent
        self._between_searches(timeout)
        self._set(name, value, strict)
        self._ping(timeout)

    def checked_option(self, name: str, value: object, strict: bool = False) -> tuple[str, str]:
        resource = _RESOURCES.get(name.strip().lower())
        if name.strip().lower() not in self.declared and resource is not None and self._has(resource):
            number = "" if value is None else str(value).strip()
            if not number.isdigit() or int(number) < 1:
                raise EngineOptionError(f"option {name!r} of {self.name}: {number!r} is not a positive whole "
                                        f"number (sent as `{resource} N`)", name)
            return resource, number
        return super().checked_option(name, value, strict)

    def _has(self, resource: str) -> bool:
        """Whether the engine takes `memory N` or `cores N` (features memory=1, smp=1)."""
        return self._feature("smp" if resource == "cores" else "memory", "0") == "1"

    def game_over(self, result: str, comment: str = "") -> None:
        if not self._started or not self.alive:
            return
        try:
            self._between_searches(self.ping_timeout)
            self._send(f"result {result} {{{comment or result}}}")
        except EngineError:
            pass
        self._board = None
        self._plays = None

    def _between_searches(self, timeout: float) -> None:
        """After a search that overran: `force` and a ping drop what came late (module step 7)."""
        if self._need_sync:
            self._send("force")
            self._plays = None
            self._board = None
            if self.pings:
                self._ping(timeout)
            else:
                time.sleep(self.stop_grace)
            self._need_sync = False
        self._transport.drain()

    def _after_command(self) -> None:
        self._board = None     # the command may have changed the engine's board

    # -- searches ------------------------------------------------------------------------------------
    def _move_command(self, move: str) -> str:
        text = to_engine_move(move, self.rank_base)
        return f"usermove {text}" if self._feature("usermove", "0") == "1" else text

    def _limit_lines(self, limits: SearchLimits) -> Tuple[str, ...]:
        """The lines that set `limits` (module step 5); ValueError for what CECP cannot say."""
        if limits.nodes is not None:
            raise ValueError("an XBoard engine takes no node limit: use a clock, a time a move or a depth")
        if limits.infinite or limits.ponder or limits.mate is not None or limits.searchmoves:
            raise ValueError("an XBoard engine is searched here with a clock, a time a move or a depth only")
        lines: List[str] = []
        if limits.movetime is not None:
            lines.append(st_line(limits.movetime))
        elif limits.time is not None:
            if self._level is None:
                self._level = level_line(limits.movestogo or 0, limits.time, limits.increment or 0)
            lines.append(self._level)
        elif limits.depth is None:
            raise ValueError("SearchLimits: give a clock, movetime or depth")
        else:
            lines.append(_DEPTH_ONLY)
        if limits.depth is not None:
            lines.append(f"sd {int(limits.depth)}")
        return tuple(lines)

    def _clock_lines(self, limits: SearchLimits) -> List[str]:
        if limits.time is None or limits.movetime is not None or self._feature("time", "1") != "1":
            return []
        lines = [f"time {centiseconds(limits.time)}"]
        if limits.opp_time is not None:
            lines.append(f"otim {centiseconds(limits.opp_time)}")
        return lines

    def go(self, fen: str, moves: Sequence[str], side: Color, limits: SearchLimits, timeout: float,
           on_info: Optional[InfoCallback] = None) -> SearchResult:
        self._require_started()
        side = Color.parse(side)
        limit_lines = self._limit_lines(limits)          # ValueError before anything is sent
        moves = list(moves)
        self._between_searches(timeout)
        # Step 4: bring the engine's board to fen + moves, by the shortest way. Other limits than the game's
        # so far start it over too: `new` is the only way to lift an `sd`.
        board = self._board
        if board is None or board.fen != fen or board.moves != moves[:len(board.moves)] \
                or (self._limits_sent is not None and limit_lines != self._limits_sent):
            if fen.split()[:2] != START_FEN.split()[:2] and self._feature("setboard", "0") != "1":
                raise EngineProtocolError(f"{self.name} cannot start from another position than the start "
                                          f"(it has no feature setboard=1): {fen}")
            self._new_board()
            if fen.split()[:2] != START_FEN.split()[:2]:
                self._send(f"setboard {_setboard_fen(fen)}")
            self._board = board = _Board(fen, [])
        if self._limits_sent is None:
            for line in limit_lines:
                self._send(line)
            self._limits_sent = limit_lines
        new = moves[len(board.moves):]
        sent: List[str] = []
        starts_search = self._plays is side and len(new) == 1
        if not starts_search:
            if self._plays is not None:
                self._send("force")
                self._plays = None
            for move in new:
                sent.append(self._move_command(move))
                self._send(sent[-1])
        for line in self._clock_lines(limits):
            self._send(line)
        if starts_search:
            sent.append(self._move_command(new[0]))
            self._send(sent[-1])
        else:
            self._send("go")
        board.moves.extend(new)
        self._plays = side
        return self._wait(fen, moves, sent, time.monotonic(), time.monotonic() + timeout, timeout, on_info)

    def _wait(self, fen: str, moves: List[str], sent: List[str], start: float, deadline: float, timeout: float,
              on_info: Optional[InfoCallback]) -> SearchResult:
        """Read the engine's answer (module step 6)."""
        answer = _Answer(lambda: _position(fen, moves))
        try:
            while True:
                got = self._transport.read(deadline)
                if got is None:
                    late = self._move_now(answer, sent, start, on_info)
                    what = "moved late, after `?`" if late is not None else "did not answer `?` either"
                    raise EngineTimeout(f"{self.name} gave no move within {timeout:g} s and {what}",
                                        details=self._transport.context(), result=late)
                stamp, line = got
                if line is None:
                    self._board = self._plays = None
                    raise self._transport.crash("while thinking")
                if self._take(line, answer, sent, on_info):
                    if answer.move is not None:
                        self._read_claim(answer, sent, stamp, on_info)
                    return self._finish(answer, stamp - start)
        except SearchInterrupted:
            raise
        except KeyboardInterrupt:       # no more lines for `on_info`: its caller is being interrupted
            raise SearchInterrupted(self._move_now(answer, sent, start, None)) from None

    def _read_claim(self, answer: "_Answer", sent: List[str], stamp: float, on_info: Optional[InfoCallback]) -> None:
        """A result claimed with the move comes right after it: read what comes within claim_grace of the move
        (wall time only: the move's time is its arrival)."""
        end = max(stamp + self.claim_grace, 0.0)
        while answer.claim is None and not answer.resign:
            more = self._transport.read(end)
            if more is None or more[1] is None:
                break
            self._take(more[1], answer, sent, on_info)

    def _take(self, line: str, answer: "_Answer", sent: List[str], on_info: Optional[InfoCallback]) -> bool:
        """One line of a search; True once it ended the search (a move, a resignation, a claim)."""
        text = line.strip()
        move = parse_move_line(text)
        if move is not None:
            if answer.move is None:
                answer.move = from_engine_move(move, self.rank_base)
            return True
        claim = parse_claim(text)
        if claim is not None:
            answer.claim = claim
            return True
        if text == "resign":
            answer.resign = True
            return True
        if text == "offer draw":
            answer.offers_draw = True
            return False
        for command in sent:
            if is_refusal(text, command):
                self._board = None
                self._plays = None
                self._need_sync = True
                raise EngineProtocolError(f"{self.name} refused the move {command.split()[-1]!r} of the game "
                                          f"({text})", details=self._transport.context())
        thinking = parse_thinking(line)
        if thinking is not None:
            info = PvLine(depth=thinking.depth, seldepth=thinking.seldepth, score=thinking.score,
                          nodes=thinking.nodes, time_ms=thinking.time_ms, nps=thinking.nps,
                          tbhits=thinking.tbhits, pv=answer.read_pv(thinking.pv, self.rank_base))
            answer.info = info
            if on_info is not None:
                try:
                    on_info(info)
                except Exception:
                    pass
        return False

    def _finish(self, answer: "_Answer", elapsed: float) -> SearchResult:
        board = self._board
        if answer.move is not None and board is not None:
            board.moves.append(answer.move)     # the engine played it on its board
        if answer.move is None:
            self._plays = None if answer.claim or answer.resign else self._plays
        info = answer.info
        return SearchResult(
            bestmove=answer.move, score=info.score if info else None, depth=info.depth if info else None,
            nodes=info.nodes if info else None, time_ms=max(0.0, elapsed) * 1000, pv=info.pv if info else (),
            resign=answer.resign, offers_draw=answer.offers_draw,
            claim=answer.claim[0] if answer.claim else None, note=answer.claim[1] if answer.claim else None,
        )

    def _move_now(self, answer: "_Answer", sent: List[str], start: float,
                  on_info: Optional[InfoCallback]) -> Optional[SearchResult]:
        """Send `?` and read a late move for up to stop_grace seconds; start the engine's board over (from
        `new`, after a ping) before the next command."""
        self._need_sync = True

        def take(got: Stamped) -> Optional[SearchResult]:
            stamp, line = got
            done = line is not None and self._take(line, answer, sent, on_info)
            return self._finish(answer, stamp - start) if done else None

        return self._collect_late(take)


class _Answer:
    """What one search has answered so far. The position (for a PV in SAN) is built only when needed."""

    def __init__(self, position: Callable[[], object]) -> None:
        self.move: Optional[str] = None
        self.claim: Optional[Tuple[str, str]] = None
        self.resign = False
        self.offers_draw = False
        self.info: Optional[PvLine] = None
        self._position = position
        self._root = None

    def read_pv(self, text: str, rank_base: int) -> Tuple[str, ...]:
        """The PV's moves in ICCS: coordinates (either numbering), or SAN read on the board; cut at the first
        word that is neither."""
        pv: List[str] = []
        board = None
        for token in pv_tokens(text):
            if is_square_pair(token):
                move = from_engine_move(token, rank_base)
                if board is not None:
                    if not board.is_legal(move):
                        break
                    board.push(move)
                pv.append(move)
                continue
            from ..notation.san import read_san

            try:
                if board is None:
                    if self._root is None:
                        self._root = self._position()
                    board = self._root.copy()
                    for move in pv:
                        board.push(move)
                move = read_san(board, token)
                board.push(move)
            except ValueError:
                break
            pv.append(move)
        return tuple(pv)


def _position(fen: str, moves: Sequence[str]):
    from ..position import Position

    position = Position(fen)
    for move in moves:
        position.push(move)
    return position


def _setboard_fen(fen: str) -> str:
    """The FEN of `setboard`: XBoard's H/E letters and the six fields of a FEN."""
    from ..pgn.xboard import xboard_fen

    board, side, *counters = xboard_fen(fen).split()
    return " ".join([board, side, "-", "-", *counters])

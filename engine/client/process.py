"""One engine process spoken to in UCI or UCCI: handshake, options, games, searches with a deadline.

    cfg = EngineConfig("/usr/games/fairy-stockfish", proto="ucci")
    with open_process(cfg) as eng:             # a UciProcess; start() is called on entry, quit() on exit
        eng.new_game()
        result = eng.go(START_FEN, ["h2e2"], Color.BLACK, SearchLimits(depth=5), timeout=30)
        result.bestmove                         # "h9g7" -- always ICCS with ranks 0..9

Everything the two dialects say differently is the codec's (:mod:`.uci`, :mod:`.ucci`); the pipes are the
transport's (:mod:`.transport`, a program; :mod:`.inprocess`, an engine on a thread). What is left here is the conversation both dialects share: ``isready`` /
``readyok`` after every change, ``stop`` when a search overruns and a resynchronisation before the next
command (after Ctrl-C too), ``quit`` and then a kill.

A process is used by one thread at a time. Every read has a deadline, so ``go`` waits exactly ``timeout``
seconds.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Dict, List, Optional, Sequence, Type

from ..color import Color
from ..score import Score
from ..search_types import PvLine, SearchLimits, SearchResult, Wdl
from .base import EngineProcess, InfoCallback
from .codec import Codec, parse_id, parse_option_name
from .errors import EngineError, EngineProtocolError, EngineTimeout, SearchInterrupted
from .options import parse_option_line
from .transport import Stamped
from .uci import UciCodec
from .ucci import UcciCodec
from .values import EngineConfig

CODECS: Dict[str, Type[Codec]] = {"uci": UciCodec, "ucci": UcciCodec}
_BY_OK = {codec.ok: codec.name for codec in CODECS.values()}

__all__ = ["CODECS", "EngineProcess", "InfoCallback", "UciProcess"]


class UciProcess(EngineProcess):
    """An engine spoken to in UCI or UCCI (``auto``: whichever answers). Made by ``open_process(config)``."""

    uci_probe_timeout = 2.0     # auto mode: how long to wait for `uciok` before trying `ucci`

    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self.codec: Optional[Codec] = None      # set by the handshake
        self._stale = False          # we sent stop and have not seen the answer
        self._need_sync = False      # resynchronise with isready before the next command
        self._gos = 0

    @property
    def protocol(self) -> Optional[str]:
        """"uci" or "ucci" once started."""
        return None if self.codec is None else self.codec.name

    def _spawn(self) -> None:
        self._transport.start()
        self._stale = self._need_sync = False

    # -- handshake ---------------------------------------------------------------------------------
    def _start(self, timeout: float) -> None:
        self._spawn()
        proto = self.config.proto
        if proto == "auto":
            answered = self._handshake(UciCodec, min(self.uci_probe_timeout, timeout), probing=True)
            if answered in (None, "dead"):
                if answered == "dead":      # e.g. ElephantEye exits on anything but `ucci`: start it again
                    self._transport.kill()
                    self.advertised.clear()
                    self.declared.clear()
                    self.id_name = self.id_author = None
                    self._spawn()
                answered = self._handshake(UcciCodec, timeout, probing=False)
        else:
            answered = self._handshake(CODECS[proto], timeout, probing=False)
        assert answered in CODECS
        codec = CODECS[answered]
        rank_base = self.config.rank_base
        self.codec = codec(codec.default_rank_base(self.id_name) if rank_base is None else rank_base)
        for name, value in self.codec.setup(self.advertised, self.id_name, self.config.options):
            self._setoption(name, value)
        for name, value in self.config.options.items():
            self._setoption(*self.checked_option(name, value))
        self._isready(timeout, collect=True)

    def _handshake(self, codec: Type[Codec], timeout: float, probing: bool) -> Optional[str]:
        """Send `uci`/`ucci` and read up to uciok/ucciok. Returns the protocol that answered; when probing,
        None if the engine did not answer in time and "dead" if it closed its output or exited."""
        word = codec.handshake
        deadline = time.monotonic() + timeout
        try:
            self._send(word)
        except EngineError:
            if probing:
                return "dead"
            raise
        other_lines = 0
        while True:
            got = self._transport.read(deadline)
            if got is None:
                if probing:
                    return None
                if other_lines:
                    raise EngineProtocolError(f"{self.name} printed output but never `{codec.ok}` "
                                              f"(does it speak {word.upper()}?)", details=self._transport.context())
                raise EngineTimeout(f"{self.name} did not answer `{word}` within {timeout:g} s",
                                    details=self._transport.context())
            stamp, line = got
            if line is None:
                if probing:
                    return "dead"
                raise self._transport.crash(f"during the `{word}` handshake")
            words = line.split()
            if not words:
                continue
            if words[0] in _BY_OK:
                return _BY_OK[words[0]]
            if words[0] not in ("id", "option") or len(words) < 2:
                other_lines += 1
            elif words[0] == "id":
                field = parse_id(line)
                if field is not None:
                    setattr(self, f"id_{field[0]}", field[1] or None)
            else:
                option = parse_option_name(line)
                if option:
                    self.advertised[option.lower()] = option
                    declared = parse_option_line(line)
                    if declared is not None:
                        self.declared[option.lower()] = declared

    def _setoption(self, name: str, value: Optional[str]) -> None:
        assert self.codec is not None
        value = "" if value is None else str(value)
        self._send(self.codec.option_line(name, value))
        self.codec.option_sent(name, value)
        self.options_set[name] = value

    def _isready(self, timeout: float, collect: bool = False) -> None:
        def other(line: str) -> None:
            if collect and line.strip():
                self.warnings.append(line)
        self._send("isready")
        self._expect(lambda line: line.strip() == "readyok", time.monotonic() + timeout, "isready", other)

    def _sync(self, timeout: float) -> None:
        """After a `stop` that timed out: wait for readyok, dropping the late bestmove (if it comes)."""
        if not self._need_sync:
            return
        self._transport.drain()
        deadline = time.monotonic() + timeout
        assert self.codec is not None
        codec = self.codec

        def late(line: str) -> None:
            if codec.parse_bestmove(line) is not None:
                self._stale = False
        self._send("isready")
        self._expect(lambda line: line.strip() == "readyok", deadline, "isready after an earlier timeout", late)
        if self._stale:   # a UCI engine may answer isready before the stopped search prints bestmove
            end = time.monotonic() + self.stop_grace
            while self._stale:
                got = self._transport.read(end)
                if got is None:
                    break
                if got[1] is None:
                    raise self._transport.crash("after an earlier timeout")
                late(got[1])
        self._stale = self._need_sync = False

    def _require_started(self) -> Codec:
        if not self._transport.started or self.codec is None:
            raise RuntimeError(f"{self.name}: start() it first")
        if not self.alive:
            raise self._transport.crash("earlier")
        return self.codec

    def _between_searches(self, timeout: float) -> None:
        """Resynchronise the engine if a search overran, and drop the output nobody waited for."""
        self._sync(timeout)
        self._transport.drain()

    # -- games -------------------------------------------------------------------------------------
    def new_game(self, timeout: float = 10.0) -> None:
        """Tell the engine a new game starts (UCI ucinewgame; UCCI `setoption newgame` if advertised)."""
        codec = self._require_started()
        self._between_searches(timeout)
        for line in codec.new_game_lines(self.advertised):
            self._send(line)
        self._isready(timeout)

    def set_option(self, name: str, value: Optional[object] = None, timeout: float = 10.0,
                   strict: bool = False) -> None:
        """Set one option between searches, in the protocol's syntax, and wait for readyok (used by
        `jiangjun analyze` for MultiPV, Threads and Hash once the advertised options are known)."""
        self._require_started()
        name, value = self.checked_option(name, value, strict)
        self._between_searches(timeout)
        self._setoption(name, value)
        self._isready(timeout)

    def go(self, fen: str, moves: Sequence[str], side: Color, limits: SearchLimits, timeout: float,
           on_info: Optional[InfoCallback] = None) -> SearchResult:
        """Search `fen` + `moves` (ICCS, ranks 0..9) for `side`, the side to move, whose clock `limits.time`
        is. Waits for the answer for up to `timeout` seconds; then sends stop and raises EngineTimeout (with
        .result if stop was answered). Ctrl-C sends stop too, and raises SearchInterrupted (.result alike).

        `on_info` is called with every `info` line of this search that carries information (every MultiPV
        line); an exception it raises is ignored (the search goes on), except KeyboardInterrupt."""
        codec = self._require_started()
        go_line = codec.go_line(side, limits)   # ValueError before anything is sent
        self._between_searches(timeout)
        self._send(codec.position_line(fen, moves))
        self._send(go_line)
        self._gos += 1
        sent = time.monotonic()
        deadline = sent + timeout
        main = _MainLine()
        try:
            while True:
                got = self._transport.read(deadline)
                if got is None:
                    late = self._stop(sent, main, on_info)
                    what = "answered stop late" if late is not None else "did not answer stop either"
                    raise EngineTimeout(f"{self.name} gave no move within {timeout:g} s and {what}",
                                        details=self._transport.context(), result=late)
                stamp, line = got
                if line is None:
                    raise self._transport.crash(f"while thinking (go #{self._gos})")
                best = self._take(line, main, on_info)
                if best is not None:
                    return main.result(best, stamp - sent)
        except SearchInterrupted:
            raise
        except KeyboardInterrupt:       # no more lines for `on_info`: its caller is being interrupted
            raise SearchInterrupted(self._stop(sent, main, None)) from None

    def _take(self, line: str, main: "_MainLine", on_info: Optional[InfoCallback]) -> Optional[SearchResult]:
        """Read one line of a search: an `info` goes to `main` and `on_info`; a `bestmove` is returned."""
        assert self.codec is not None
        info = self.codec.parse_info(line)
        if info is not None:
            main.add(info)
            if on_info is not None:
                try:
                    on_info(info)
                except Exception:
                    pass
            return None
        return self.codec.parse_bestmove(line)

    def _stop(self, sent: float, main: "_MainLine", on_info: Optional[InfoCallback]) -> Optional[SearchResult]:
        """Send stop and read its answer for up to stop_grace seconds; resynchronise before the next command."""
        self._stale = self._need_sync = True

        def take(got: Stamped) -> Optional[SearchResult]:
            stamp, line = got
            best = self._take(line, main, on_info) if line is not None else None
            return None if best is None else main.result(best, stamp - sent)

        late = self._collect_late(take)
        if late is not None:
            self._stale = False
        return late

    # -- shutdown ----------------------------------------------------------------------------------
    def _quit_lines(self) -> List[str]:
        return ["stop", "quit"] if self._stale else ["quit"]


class _MainLine:
    """What a SearchResult reports besides the move: the latest multipv-1 information of one search. Nodes
    come from any such line (UCCI prints them on a line of their own); depth, chances and PV from a line with
    a score."""

    def __init__(self) -> None:
        self.score: Optional[Score] = None
        self.wdl: Optional[Wdl] = None
        self.depth: Optional[int] = None
        self.nodes: Optional[int] = None
        self.pv: tuple[str, ...] = ()

    def add(self, info: PvLine) -> None:
        if info.multipv != 1:
            return
        if info.nodes is not None:
            self.nodes = info.nodes
        if info.score is not None:
            self.score, self.wdl = info.score, info.wdl
            if info.depth is not None:
                self.depth = info.depth
            if info.pv:
                self.pv = info.pv

    def result(self, best: SearchResult, elapsed: float) -> SearchResult:
        """The `bestmove` line's result with the main line's figures and the time since the `go`."""
        return replace(best, score=self.score, wdl=self.wdl, depth=self.depth, nodes=self.nodes, pv=self.pv,
                       time_ms=max(0.0, elapsed) * 1000)

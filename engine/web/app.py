"""The web server: the page's static files, and one WebSocket per tab that carries its game (Starlette).

Each tab's socket owns a `Tab`: a WebGame (engine.web.game) and an EngineSeat (engine.web.seat), both
ended when the socket closes. At most `max_tabs` run at once; a tab beyond the cap is told so and closed.

The page sends JSON requests ``{"type": ..., ...}``, each checked whole by engine.web.protocol before
anything is done, and receives ``state`` (the whole game after every change), ``lines`` (analysis while an
engine thinks), ``error`` (a message to show; the game is kept), ``warning`` (what a file opened did not
read), ``file`` (a PGN or SVG to save), ``status`` (what the engine is doing) and ``tablebase`` (the endgame
tables' value of the position the page asked for: engine.web.tables). Every request the server cannot use
gets one ``error``. The engine's command is the server's configuration only: no message names a
program.

The tabs share one event loop, so nothing a tab asks may hold it: requests are served one at a time per tab
with the other tabs' turn between two; reading a file runs on a worker thread; each engine call runs on a
thread of its own, so that any number of tabs may search at once; and an engine that does not answer
within STOP_WAIT of being stopped is killed by its seat (engine.web.seat), the tab going on with a new one.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..server.strength import FULL_STRENGTH
from .game import WebGame, WebInputError
from .protocol import SETTINGS, BadRequest, decode
from .seat import STOP_WAIT, EngineFailure, EngineHung, EngineSeat, EngineSpec, line_json
from .tables import TableSource

logger = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"
#: Tabs (each with its own engine) that may run at once.
DEFAULT_MAX_TABS = 4
#: Analysis lines are sent at most this often (seconds), and at each new depth.
LINES_INTERVAL = 0.15
#: Seconds a stopped search may take to end once the seat has killed its engine (STOP_WAIT after the stop),
#: before the tab leaves it behind with its seat: only an engine still starting (its handshake) takes longer.
KILLED_WAIT = 5.0
#: Seconds a closing tab waits for its engine to end.
CLOSE_WAIT = 10.0
#: An error message is cut to this length (a message may quote what the page sent).
MAX_ERROR_CHARS = 400


@dataclass
class Settings:
    """What the page chose: who plays, how strong, how long, how many lines."""

    mode: str = "play"                 # "play" (against the engine), "analyse", or "free" (both sides by hand)
    engine_color: str = "black"        # the side the engine plays in "play" mode
    level: int = FULL_STRENGTH
    movetime: int = 1000               # ms per engine move
    analysis_ms: int = 5000            # ms per analysed position
    multipv: int = 3

    def update(self, request: dict) -> None:
        """Take the settings of a checked request (engine.web.protocol.SETTINGS: each of its kind and range)."""
        for name in SETTINGS:
            if name in request:
                setattr(self, name, request[name])


@dataclass
class ServerConfig:
    engine: EngineSpec = field(default_factory=EngineSpec.builtin)
    max_tabs: int = DEFAULT_MAX_TABS
    tables: TableSource = field(default_factory=TableSource)     # the endgame tables, shared by the tabs


async def in_thread(function: Callable, *args: Any) -> Any:
    """`function(*args)` on a thread of its own (an engine call blocks for as long as it searches, and a hung
    one for longer: none of them may wait for a free worker of a shared pool, nor hold one)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(result: Any, error: Optional[BaseException]) -> None:
        if future.done():                     # the awaiting task was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def run() -> None:
        try:
            result, error = function(*args), None
        except BaseException as exc:          # handed to the awaiting task, which sorts it out
            result, error = None, exc
        with contextlib.suppress(RuntimeError):      # the server's loop has ended: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)
    threading.Thread(target=run, name=f"jiangjun-web-{getattr(function, '__name__', 'call')}", daemon=True).start()
    return await future


class Tab:
    """One tab's game, engine and settings, and the one engine task it runs at a time."""

    def __init__(self, socket: WebSocket, config: ServerConfig, left_behind: Optional[set] = None) -> None:
        self.socket = socket
        self.config = config
        self.left_behind = left_behind if left_behind is not None else set()   # seats being closed apart
        self.game = WebGame()
        self.seat = EngineSeat(config.engine)
        self.settings = Settings()
        self.generation = 0                  # bumped at every change: an older search's answer is dropped
        self.task: Optional[asyncio.Task] = None
        self.task_kind = ""                  # "move", "analyse" or "review": what the task does
        self._send_lock = asyncio.Lock()

    async def send(self, message: dict) -> None:
        try:
            text = json.dumps(message, ensure_ascii=False)
            text.encode("utf-8")
        except UnicodeEncodeError:           # a lone surrogate from a file: escaped, the message still goes
            text = json.dumps(message)
        async with self._send_lock:
            with contextlib.suppress(Exception):       # the tab is gone: its socket's loop ends the tab
                await self.socket.send_text(text)

    async def error(self, text: str) -> None:
        await self.send({"type": "error", "message": _cut(text)})

    # -- the conversation -----------------------------------------------------------------------------
    async def serve(self, frame: dict) -> None:
        """One WebSocket frame: a request checked and carried out, or one error message that says why not."""
        try:
            request = decode(frame.get("text"), frame.get("bytes"))
            await getattr(self, f"on_{request['type']}")(request)
        except (BadRequest, WebInputError) as exc:
            await self.error(str(exc))
        except Exception as exc:             # a bug must not end the tab: report it, keep the game
            logger.exception("jiangjun web: a request failed")
            await self.error(f"the server failed on this request ({type(exc).__name__}: {exc}); the game is kept")

    async def on_hello(self, request: dict) -> None:
        self.settings.update(request)
        await self.send({"type": "config", "levels": _level_elo()})
        await self.changed(search=False)

    async def on_settings(self, request: dict) -> None:
        self.settings.update(request)
        await self.changed()

    async def on_move(self, request: dict) -> None:
        self._refuse_while_engine_moves()
        self.game.play(request["move"])
        await self.changed()

    async def on_play_line(self, request: dict) -> None:
        self._refuse_while_engine_moves()
        self.game.play_line(request["moves"])
        await self.changed()

    async def on_undo(self, request: dict) -> None:
        await self.stop_search()
        plies = 1
        if self.settings.mode == "play" and self.game.position.turn.value != self.settings.engine_color:
            plies = 2                        # the engine's reply and the person's move: the person moves again
        self.game.take_back(plies)
        await self.changed(search=self.settings.mode != "play")

    async def on_new(self, request: dict) -> None:
        self.game.new(request.get("fen"))
        await self.changed()

    async def on_load_text(self, request: dict) -> None:
        await self._load(lambda: self.game.load_text(request["text"]))

    async def on_load_pgn(self, request: dict) -> None:
        data = _decoded(request["data"])
        await self._load(lambda: self.game.load_pgn(data).note)

    async def on_choose(self, request: dict) -> None:
        await self._load(lambda: self.game.choose(request["index"]))

    async def _load(self, read: Callable[[], Optional[str]]) -> None:
        """Open a game on a worker thread (a large file takes seconds), with no search running meanwhile, then
        send the state and the note of what did not read (a `warning`), if any."""
        await self.stop_search()

        def opened() -> Optional[str]:
            note = read()
            self.game.moves()                # the texts of a long game's moves, computed here once
            return note
        note = await asyncio.to_thread(opened)
        await self.changed(search=False)
        if note:
            await self.send({"type": "warning", "message": _cut(note)})

    async def on_truncate(self, request: dict) -> None:
        await self.stop_search()
        self.game.truncate(request["plies"])
        await self.changed(search=False)

    async def on_review(self, request: dict) -> None:
        await self.stop_search()
        if not self.game.position.move_stack:
            raise WebInputError("no move to review")
        self.task, self.task_kind = asyncio.create_task(self._review(self.generation)), "review"

    async def on_engine_move(self, request: dict) -> None:
        await self.changed(engine_moves=True)

    async def on_save_pgn(self, request: dict) -> None:
        text = await asyncio.to_thread(self.game.pgn, request.get("notation", "chinese"))
        await self.send({"type": "file", "name": "game.pgn", "mime": "application/x-chess-pgn", "text": text})

    async def on_save_svg(self, request: dict) -> None:
        text = await asyncio.to_thread(self.game.svg, request.get("flip", False))
        await self.send({"type": "file", "name": "position.svg", "mime": "image/svg+xml", "text": text})

    async def on_tablebase(self, request: dict) -> None:
        # on a worker thread: the first look at a table reads and checks its file
        await self.send(await asyncio.to_thread(self.config.tables.answer, request["fen"]))

    def _refuse_while_engine_moves(self) -> None:
        if self.task_kind == "move" and self.task is not None and not self.task.done():
            raise WebInputError("wait: the engine is thinking")

    async def changed(self, search: bool = True, engine_moves: bool = False) -> None:
        """After a change: drop the search under way, send the state, start what the mode asks for."""
        await self.stop_search()
        await self.send({"type": "state", **self.game.state(), "settings": asdict(self.settings)})
        if self.game.position.outcome() is not None:
            return
        position = self.game.position
        if engine_moves or (search and self.settings.mode == "play"
                            and position.turn.value == self.settings.engine_color):
            self.task, self.task_kind = asyncio.create_task(self._engine_move(self.generation)), "move"
        elif self.settings.mode == "analyse":
            self.task, self.task_kind = asyncio.create_task(self._analyse(self.generation)), "analyse"

    async def stop_search(self) -> None:
        """Drop the search under way: ask its engine to stop and wait for the search to end. The seat kills an
        engine that has not answered within STOP_WAIT (engine.web.seat), and the search then ends at once with
        EngineHung, which its task tells the page. A search that does not end even then (its engine was still
        starting) is left behind with its seat, and the tab goes on with a new one. A review is not waited for:
        it runs its own engine and ends at its next position."""
        self.generation += 1
        task, self.task = self.task, None
        if task is None or task.done() or self.task_kind == "review":
            return
        self.seat.interrupt()
        done, _ = await asyncio.wait({task}, timeout=STOP_WAIT + KILLED_WAIT)
        if not done:
            logger.warning("jiangjun web: a search did not end within %g s of its stop: a new seat replaces its own",
                           STOP_WAIT + KILLED_WAIT)
            hung, self.seat = self.seat, EngineSeat(self.config.engine)
            _end_apart(hung, self.left_behind)
            await self.error(f"the engine did not stop within {STOP_WAIT + KILLED_WAIT:g} s; a new one is started "
                             "for the next search")

    # -- the engine's tasks -----------------------------------------------------------------------------
    def _lines_sender(self, generation: int, position):
        """An on_info callback, called in the engine's thread, that sends the latest lines to the page."""
        loop = asyncio.get_running_loop()
        latest: dict[int, dict] = {}
        sent = {"at": 0.0, "depth": None}

        def seen(info) -> None:
            if not info.pv or info.score is None or info.bound is not None:
                return
            latest[info.multipv] = line_json(position, info)
            now = time.monotonic()
            if info.depth != sent["depth"] or now - sent["at"] >= LINES_INTERVAL:
                sent["at"], sent["depth"] = now, info.depth
                lines = [latest[k] for k in sorted(latest)]
                with contextlib.suppress(RuntimeError):     # the server's loop has ended
                    asyncio.run_coroutine_threadsafe(self._send_lines(generation, lines), loop)
        return seen

    def _superseded(self, generation: int) -> Callable[[], bool]:
        """Whether the game has changed since `generation` (asked from the engine call's thread): a call that
        begins after the change was stopped before it began (stop_search bumps the generation first)."""
        return lambda: generation != self.generation

    async def _send_lines(self, generation: int, lines: list, final: bool = False) -> None:
        if generation == self.generation:
            await self.send({"type": "lines", "lines": lines, "final": final, "engine": self.seat.name})

    async def _engine_failed(self, generation: int, exc: EngineFailure) -> None:
        """Tell the page of a failure of the current search, or of a hang of any: an engine killed for not
        stopping was stopped because the game changed."""
        if generation == self.generation or isinstance(exc, EngineHung):
            await self.error(str(exc))
        if generation == self.generation:
            await self.send({"type": "status", "status": "failed"})

    async def _engine_move(self, generation: int) -> None:
        position = self.game.position.copy()
        await self.send({"type": "status", "status": "thinking"})
        try:
            result = await in_thread(self.seat.play, position, self.settings.level, self.settings.movetime,
                                     self._lines_sender(generation, position), self._superseded(generation))
        except EngineFailure as exc:
            await self._engine_failed(generation, exc)
            return
        if generation != self.generation:
            return
        await self.send({"type": "status", "status": "idle"})
        if result.bestmove is None:
            await self.error(f"the engine gave no move ({result.note or 'no reason given'})")
            return
        self.task = None
        self.game.position.push(result.bestmove)
        await self.changed()

    async def _analyse(self, generation: int) -> None:
        position = self.game.position.copy()
        await self.send({"type": "status", "status": "analysing"})
        try:
            lines = await in_thread(self.seat.analyse, position, self.settings.analysis_ms, self.settings.multipv,
                                    self._lines_sender(generation, position), self._superseded(generation))
        except EngineFailure as exc:
            await self._engine_failed(generation, exc)
            return
        await self._send_lines(generation, [line_json(position, line) for line in lines if line.score is not None],
                               final=True)
        await self._send_current(generation, {"type": "status", "status": "idle"})

    async def _review(self, generation: int) -> None:
        """The whole game judged move by move, one point of the graph at a time (engine.web.review)."""
        from .review import ReviewCancelled, review

        loop = asyncio.get_running_loop()
        game = self.game.position
        start_fen, moves = game.starting_fen, list(game.move_stack)
        await self.send({"type": "status", "status": "reviewing"})
        await self.send({"type": "review_start", "moves": moves})

        def on_point(point: dict) -> None:
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(self._send_current(generation, {"type": "review_point", **point}),
                                                 loop)

        await in_thread(self.seat.release)   # one engine per tab: the review's
        try:
            summary = await in_thread(review, self.config.engine, start_fen, moves, min(self.settings.movetime, 2000),
                                      on_point, lambda: generation != self.generation)
        except ReviewCancelled:
            return
        except EngineFailure as exc:
            await self._engine_failed(generation, exc)
            return
        await self._send_current(generation, {"type": "review_done", **summary})
        await self._send_current(generation, {"type": "status", "status": "idle"})

    async def _send_current(self, generation: int, message: dict) -> None:
        if generation == self.generation:
            await self.send(message)

    async def close(self) -> None:
        self.generation += 1
        self.seat.interrupt()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(in_thread(self.seat.close), CLOSE_WAIT)


def _end_apart(seat: EngineSeat, left_behind: set) -> None:
    """Close a seat whose search did not end on a thread of its own (its engine, if one is still starting, is
    ended when it has started), kept in `left_behind` until it is done, so that the server waits for it when
    it shuts down."""
    def end() -> None:
        try:
            seat.close()
        finally:
            left_behind.discard(thread)
    thread = threading.Thread(target=end, name="jiangjun-web-hung-engine", daemon=True)
    left_behind.add(thread)
    thread.start()


def _join(threads: set, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for thread in list(threads):
        thread.join(max(0.0, deadline - time.monotonic()))


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS] + "…"


def _level_elo() -> dict:
    """The Elo of each level below full strength (the UCI_Elo table), rounded for the page."""
    from ..server.strength import level_to_elo

    return {level: int(round(level_to_elo(level), -1)) for level in range(FULL_STRENGTH)}


def _decoded(data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise WebInputError("the file did not arrive whole (not base64); try again") from None


def create_app(config: Optional[ServerConfig] = None) -> Starlette:
    config = config or ServerConfig()
    open_tabs: set = set()
    left_behind: set = set()                 # threads closing the seats of searches that did not end

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        # Waited for, so that no engine program outlives the server (an engine hosted in it ends with it).
        await asyncio.to_thread(_join, left_behind, CLOSE_WAIT)

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        if len(open_tabs) >= config.max_tabs:
            await websocket.send_text(json.dumps({"type": "error", "fatal": True, "message":
                                                  f"too many tabs are open (at most {config.max_tabs}): "
                                                  "close one and reload this page"}))
            await websocket.close()
            return
        tab = Tab(websocket, config, left_behind)
        open_tabs.add(tab)
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                await tab.serve(frame)
                await asyncio.sleep(0)       # one request of this tab, then the other tabs' turn
        finally:
            open_tabs.discard(tab)
            await tab.close()

    app = Starlette(lifespan=lifespan, routes=[
        Route("/", index),
        WebSocketRoute("/ws", socket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.open_tabs = open_tabs
    return app

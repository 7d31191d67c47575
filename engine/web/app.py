"""The web server: the page's static files, and one WebSocket per tab that carries its game (Starlette).

Each tab's socket owns a `Tab`: a WebGame (engine.web.game) and an EngineSeat (engine.web.seat), both
ended when the socket closes. At most `max_tabs` run at once; a tab beyond the cap is told so and closed.

The page sends JSON messages ``{"type": ..., ...}`` and receives ``state`` (the whole game after every
change), ``lines`` (analysis while an engine thinks), ``error`` (a message to show; the game is kept),
``file`` (a PGN or SVG to save) and ``status`` (what the engine is doing). The engine's command is the
server's configuration only: no message names a program.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..server.strength import FULL_STRENGTH
from .game import MAX_UPLOAD_BYTES, WebGame, WebInputError
from .seat import EngineFailure, EngineSeat, EngineSpec, line_json

logger = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"
#: Tabs (each with its own engine process) that may run at once.
DEFAULT_MAX_TABS = 4
#: The limits the page may choose within (ms per move, analysis lines).
MOVETIME_RANGE = (50, 60_000)
MULTIPV_RANGE = (1, 5)
#: A WebSocket message larger than this is refused: a PGN upload (base64) and a little more.
MAX_MESSAGE_CHARS = MAX_UPLOAD_BYTES * 4 // 3 + 4096
#: Analysis lines are sent at most this often (seconds), and at each new depth.
LINES_INTERVAL = 0.15


@dataclass
class Settings:
    """What the page chose: who plays, how strong, how long, how many lines."""

    mode: str = "play"                 # "play" (against the engine), "analyse", or "free" (both sides by hand)
    engine_color: str = "black"        # the side the engine plays in "play" mode
    level: int = FULL_STRENGTH
    movetime: int = 1000               # ms per engine move
    analysis_ms: int = 5000            # ms per analysed position
    multipv: int = 3

    def update(self, message: dict) -> None:
        if message.get("mode") in ("play", "analyse", "free"):
            self.mode = message["mode"]
        if message.get("engine_color") in ("red", "black"):
            self.engine_color = message["engine_color"]
        self.level = _bounded(message.get("level"), 0, FULL_STRENGTH, self.level)
        self.movetime = _bounded(message.get("movetime"), *MOVETIME_RANGE, self.movetime)
        self.analysis_ms = _bounded(message.get("analysis_ms"), *MOVETIME_RANGE, self.analysis_ms)
        self.multipv = _bounded(message.get("multipv"), *MULTIPV_RANGE, self.multipv)


def _bounded(value: Any, low: int, high: int, default: int) -> int:
    try:
        return max(low, min(high, int(value)))
    except (TypeError, ValueError):
        return default


@dataclass
class ServerConfig:
    engine: EngineSpec = field(default_factory=EngineSpec.builtin)
    max_tabs: int = DEFAULT_MAX_TABS


class Tab:
    """One tab's game, engine and settings, and the one engine task it runs at a time."""

    def __init__(self, socket: WebSocket, config: ServerConfig) -> None:
        self.socket = socket
        self.config = config
        self.game = WebGame()
        self.seat = EngineSeat(config.engine)
        self.settings = Settings()
        self.generation = 0                  # bumped at every change: an older search's answer is dropped
        self.task: Optional[asyncio.Task] = None
        self.task_kind = ""                  # "move", "analyse" or "review": what the task does
        self._send_lock = asyncio.Lock()

    async def send(self, message: dict) -> None:
        async with self._send_lock:
            with contextlib.suppress(Exception):
                await self.socket.send_text(json.dumps(message, ensure_ascii=False))

    async def error(self, text: str) -> None:
        await self.send({"type": "error", "message": text})

    # -- the conversation -----------------------------------------------------------------------------
    async def handle(self, message: dict) -> None:
        kind = message.get("type")
        game = self.game
        if kind == "hello":
            self.settings.update(message)
            await self.send({"type": "config", "levels": _level_elo()})
            await self.changed(search=False)
        elif kind == "settings":
            self.settings.update(message)
            await self.changed()
        elif kind == "move":
            if self._engine_to_move():
                await self.error("wait: the engine is thinking")
                return
            game.play(str(message.get("move", "")))
            await self.changed()
        elif kind == "undo":
            await self.stop_search()
            plies = 1
            if self.settings.mode == "play" and game.position.turn.value != self.settings.engine_color:
                plies = 2                    # the engine's reply and the person's move: the person moves again
            game.take_back(plies)
            await self.changed(search=self.settings.mode != "play")
        elif kind == "new":
            game.new(message.get("fen"))
            await self.changed()
        elif kind == "load_text":
            game.load_text(str(message.get("text", "")))
            await self.changed(search=False)
        elif kind == "load_pgn":
            game.load_pgn(_decoded(message.get("data", "")))
            await self.changed(search=False)
        elif kind == "choose":
            game.choose(_bounded(message.get("index"), 0, 10**6, -1))
            await self.changed(search=False)
        elif kind == "play_line":
            if self._engine_to_move():
                await self.error("wait: the engine is thinking")
                return
            moves = message.get("moves")
            game.play_line(moves if isinstance(moves, list) else [])
            await self.changed()
        elif kind == "truncate":
            await self.stop_search()
            game.truncate(_bounded(message.get("plies"), 0, 10**6, len(game.position.move_stack)))
            await self.changed(search=False)
        elif kind == "review":
            await self.stop_search()
            if not game.position.move_stack:
                await self.error("no move to review")
                return
            self.task, self.task_kind = asyncio.create_task(self._review(self.generation)), "review"
        elif kind == "engine_move":
            await self.changed(engine_moves=True)
        elif kind == "save_pgn":
            notation = message.get("notation") if message.get("notation") in ("iccs", "chinese", "wxf", "san") \
                else "chinese"
            await self.send({"type": "file", "name": "game.pgn", "mime": "application/x-chess-pgn",
                             "text": game.pgn(notation)})
        elif kind == "save_svg":
            await self.send({"type": "file", "name": "position.svg", "mime": "image/svg+xml",
                             "text": game.svg(flip=bool(message.get("flip")))})
        else:
            await self.error(f"unknown request {kind!r}")

    def _engine_to_move(self) -> bool:
        return self.task_kind == "move" and self.task is not None and not self.task.done()

    async def changed(self, search: bool = True, engine_moves: bool = False) -> None:
        """After a change: drop the search under way, send the state, start what the mode asks for."""
        await self.stop_search()
        await self.send({"type": "state", **self.game.state(), "settings": self.settings.__dict__})
        if self.game.position.outcome() is not None:
            return
        position = self.game.position
        if engine_moves or (search and self.settings.mode == "play"
                            and position.turn.value == self.settings.engine_color):
            self.task, self.task_kind = asyncio.create_task(self._engine_move(self.generation)), "move"
        elif self.settings.mode == "analyse":
            self.task, self.task_kind = asyncio.create_task(self._analyse(self.generation)), "analyse"

    async def stop_search(self) -> None:
        self.generation += 1
        task, self.task = self.task, None
        if task is not None and not task.done():
            self.seat.interrupt()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task

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
                asyncio.run_coroutine_threadsafe(self._send_lines(generation, lines), loop)
        return seen

    async def _send_lines(self, generation: int, lines: list, final: bool = False) -> None:
        if generation == self.generation:
            await self.send({"type": "lines", "lines": lines, "final": final, "engine": self.seat.name})

    async def _engine_move(self, generation: int) -> None:
        position = self.game.position.copy()
        await self.send({"type": "status", "status": "thinking"})
        try:
            result = await asyncio.to_thread(self.seat.play, position, self.settings.level, self.settings.movetime,
                                             self._lines_sender(generation, position))
        except EngineFailure as exc:
            if generation == self.generation:
                await self.error(str(exc))
                await self.send({"type": "status", "status": "failed"})
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
            lines = await asyncio.to_thread(self.seat.analyse, position, self.settings.analysis_ms,
                                            self.settings.multipv, self._lines_sender(generation, position))
        except EngineFailure as exc:
            if generation == self.generation:
                await self.error(str(exc))
                await self.send({"type": "status", "status": "failed"})
            return
        await self._send_lines(generation, [line_json(position, line) for line in lines if line.score is not None],
                               final=True)
        if generation == self.generation:
            await self.send({"type": "status", "status": "idle"})

    async def _review(self, generation: int) -> None:
        """The whole game judged move by move, one point of the graph at a time (engine.web.review)."""
        from .review import ReviewCancelled, review

        loop = asyncio.get_running_loop()
        game = self.game.position
        start_fen, moves = game.starting_fen, list(game.move_stack)
        await self.send({"type": "status", "status": "reviewing"})
        await self.send({"type": "review_start", "moves": moves})

        def on_point(point: dict) -> None:
            asyncio.run_coroutine_threadsafe(self._send_current(generation, {"type": "review_point", **point}), loop)

        await asyncio.to_thread(self.seat.release)     # one engine process per tab: the review's
        try:
            summary = await asyncio.to_thread(review, self.config.engine, start_fen, moves,
                                              min(self.settings.movetime, 2000), on_point,
                                              lambda: generation != self.generation)
        except ReviewCancelled:
            return
        except EngineFailure as exc:
            if generation == self.generation:
                await self.error(str(exc))
                await self.send({"type": "status", "status": "failed"})
            return
        await self._send_current(generation, {"type": "review_done", **summary})
        await self._send_current(generation, {"type": "status", "status": "idle"})

    async def _send_current(self, generation: int, message: dict) -> None:
        if generation == self.generation:
            await self.send(message)

    async def close(self) -> None:
        self.generation += 1
        self.seat.interrupt()
        await asyncio.to_thread(self.seat.close)


def _level_elo() -> dict:
    """The Elo of each level below full strength (the UCI_Elo table), rounded for the page."""
    from ..server.strength import level_to_elo

    return {level: int(round(level_to_elo(level), -1)) for level in range(FULL_STRENGTH)}


def _decoded(data: object) -> bytes:
    try:
        return base64.b64decode(str(data), validate=True)
    except (binascii.Error, ValueError):
        raise WebInputError("the file did not arrive whole; try again") from None


def create_app(config: Optional[ServerConfig] = None) -> Starlette:
    config = config or ServerConfig()
    open_tabs: set = set()

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
        tab = Tab(websocket, config)
        open_tabs.add(tab)
        try:
            while True:
                text = await websocket.receive_text()
                if len(text) > MAX_MESSAGE_CHARS:
                    await tab.error(f"the request is too large (at most {MAX_UPLOAD_BYTES} bytes of file)")
                    continue
                try:
                    message = json.loads(text)
                    if not isinstance(message, dict):
                        raise ValueError("not an object")
                except ValueError:
                    await tab.error("the page sent a malformed request")
                    continue
                try:
                    await tab.handle(message)
                except WebInputError as exc:
                    await tab.error(str(exc))
                except Exception as exc:     # a bug must not end the tab: report it, keep the game
                    logger.exception("jiangjun web: request %r failed", message.get("type"))
                    await tab.error(f"the server failed on this request ({type(exc).__name__}: {exc}); "
                                    "the game is kept")
        except WebSocketDisconnect:
            pass
        finally:
            open_tabs.discard(tab)
            await tab.close()

    app = Starlette(routes=[
        Route("/", index),
        WebSocketRoute("/ws", socket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.open_tabs = open_tabs
    return app

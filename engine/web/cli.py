"""`jiangjun web`: serve the page on this machine and open it in the browser."""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from ..analyze.errors import AnalyzeError
from ..client import PROTOCOLS


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="jiangjun web",
        description="Play and analyse in the browser: a local web server, one game and engine per tab.")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free one)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--engine", nargs="+", metavar=("CMD", "proto=..."), default=None,
                        help="a UCI, UCCI or XBoard engine to run instead of jiangjun, e.g. "
                             "--engine /usr/games/fairy-stockfish proto=ucci (default protocol: auto)")
    parser.add_argument("--max-tabs", type=int, default=None,
                        help="tabs (each with its own engine) that may be open at once (default 4)")
    tables = parser.add_mutually_exclusive_group()
    tables.add_argument("--tables", nargs="+", default=[], metavar="DIR",
                        help="folders (or .jjtb files) of endgame tables, read before the tables shipped in "
                             "the package")
    tables.add_argument("--no-tables", action="store_true", help="show no endgame table values")
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from .app import DEFAULT_MAX_TABS, ServerConfig, create_app
        from .protocol import MAX_FRAME_BYTES, MAX_QUEUED_FRAMES
        from .seat import EngineSpec
        from .tables import TableSource
    except ImportError as exc:
        print(f"jiangjun web: {exc.name or exc} is missing; install the web extra: pip install 'jiangjun[web]'",
              file=sys.stderr)
        return 2
    spec = EngineSpec.builtin(args.tables)
    if args.engine:
        try:
            spec = _engine_spec(args.engine)
        except ValueError as exc:
            parser.error(str(exc))
    try:
        tables = TableSource(args.tables, enabled=not args.no_tables)
    except AnalyzeError as exc:
        parser.error(str(exc))
    config = ServerConfig(engine=spec, max_tabs=args.max_tabs or DEFAULT_MAX_TABS, tables=tables)
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                           ws_max_size=MAX_FRAME_BYTES, ws_max_queue=MAX_QUEUED_FRAMES))
    if not args.no_browser:
        _open_when_started(server, args.host)
    _announce(server, args.host)
    server.run()
    return 0


def _engine_spec(words: Sequence[str]):
    """`CMD [proto=...]`: the command (one word, or several that are its arguments) and the protocol."""
    from .seat import EngineSpec

    proto = "auto"
    command = []
    for word in words:
        if word.startswith("proto="):
            proto = word.split("=", 1)[1]
            if proto not in PROTOCOLS:
                raise ValueError(f"unknown protocol {proto!r}: one of {', '.join(PROTOCOLS)}")
        else:
            command.append(word)
    if not command:
        raise ValueError("--engine needs a command")
    return EngineSpec(" ".join(command), proto)


def _url(server, host: str) -> str:
    port = server.servers[0].sockets[0].getsockname()[1] if server.servers else server.config.port
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}/"


def _announce(server, host: str) -> None:
    """Print the page's address once the server listens (the port may have been chosen by the system)."""
    import threading
    import time

    def wait() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            print(f"jiangjun web: serving {_url(server, host)} (Ctrl-C to stop)", flush=True)
    threading.Thread(target=wait, daemon=True).start()


def _open_when_started(server, host: str) -> None:
    import threading
    import time
    import webbrowser

    def wait() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            webbrowser.open(_url(server, host))
    threading.Thread(target=wait, daemon=True).start()

"""``arena serve [--results DIR] [--port P] [--host H] [--token T]``: the live web view of a
results folder (``arena.serve``; ``docs/how-to/serve.md``)."""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import os
import socket
import threading
from pathlib import Path

import typer

from arena.errors import ConfigError, ResultsError
from arena.cli.options import ResultsFolder

#: The addresses served without a token: this machine only.
LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: Environment variable that may give the token instead of ``--token`` (kept out of ``ps``).
TOKEN_ENV = "ARENA_SERVE_TOKEN"


def check_serve(results: Path, host: str, port: int, token: str | None) -> None:
    """Refuse bad options before anything is served.

    Raises:
        ResultsError: ``results`` is not a folder.
        ConfigError: a port outside 0..65535, a host that is no address, or an address other
            than this machine's loopback without a token.
    """
    if not results.is_dir():
        raise ResultsError(f"no results folder {str(results)!r}; give the folder arena run wrote to (--results DIR)")
    if not 0 <= port <= 65535:
        raise ConfigError(f"bad --port {port}; accepted: 0 to 65535 (0: any free port)")
    if host in LOOPBACK:
        return
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ConfigError(f"bad --host {host!r}; accepted: an IP address such as 127.0.0.1 or 0.0.0.0") from None
    if not token:
        raise ConfigError(f"--host {host} serves other machines: give --token T (or {TOKEN_ENV}); "
                          "accepted without a token: --host 127.0.0.1")


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (0: any free port) for the server to listen on,
    bound before the server starts so that a port in use is one line, not a traceback.

    Raises:
        ConfigError: the port is in use, or the address cannot be bound here.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"bad --host {host!r}: {exc}; accepted: an address of this machine such as 127.0.0.1") \
            from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a closed server's port is free
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is in use (another server listens there); accepted: a free "
                              "port, or --port 0 for any free port") from None
        raise ConfigError(f"cannot listen on {host} port {port}: {exc.strerror or exc}; accepted: an address of "
                          "this machine and a free port (--port 0: any)") from None
    return sock


def serve(
    results: ResultsFolder = Path("results"),
    port: int = typer.Option(8000, "--port", help="Port to listen on (0: any free port, printed)."),
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on; any other than 127.0.0.1 needs --token."),
    token: str | None = typer.Option(None, "--token",
                              help=f"Token every request must carry (?token=T, a cookie, or Authorization: Bearer T); "
                                   f"also read from {TOKEN_ENV}."),
) -> None:
    """Serve a live web view of a results folder: tournaments, games in progress, a game browser,
    replays, exports and a human seat."""
    token = token or os.environ.get(TOKEN_ENV) or None
    check_serve(results, host, port, token)
    sock = bind(host, port)
    import uvicorn

    from arena.serve import create_app

    app = create_app(results, token)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                            access_log=False)
    server = uvicorn.Server(config)
    warm = threading.Thread(target=warm_up, daemon=True, name="arena-serve-warm-up")
    warm.start()
    shown = f"[{host}]" if ":" in host else host

    async def announce() -> None:
        while not server.started or warm.is_alive():  # ready: listening, and the reports' modules loaded
            if server.should_exit:
                return
            await asyncio.sleep(0.05)
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        query = "?token=..." if token else ""
        typer.echo(f"arena serve: {results} at http://{shown}:{bound}/{query} (Ctrl-C stops)")

    async def main() -> None:
        await asyncio.gather(server.serve(sockets=[sock]), announce())

    asyncio.run(main())


def warm_up() -> None:
    """Import what the pages compute with (pandas, scipy, plotly: seconds on a busy machine),
    so that the first page does not wait for it."""
    import arena.reports.html  # noqa: F401
    import arena.reports.render  # noqa: F401


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)

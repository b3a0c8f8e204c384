"""``arena engine SPEC``: serve a bot over the engine protocol on stdin/stdout
(``docs/engine-protocol.md``), so another program (a GUI, a script, another arena) can drive it."""

from __future__ import annotations

import typer


def engine(spec: str = typer.Argument(
        ..., help="bot spec [LABEL=]KIND[:key=value,...] (built-in, package.module.Class or file.py#Class)")) -> None:
    """Serve one bot over the engine protocol until `quit` or end of input."""
    from arena.engine.server import main
    raise typer.Exit(main(spec))


def register(app: typer.Typer) -> None:
    app.command("engine")(engine)

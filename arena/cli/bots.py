"""``arena bots``: the registered bot kinds and their spec options."""

from __future__ import annotations

import typer

from arena.cli.console import make_console


def list_bots() -> None:
    """List the registered bot kinds with their options; specs are [LABEL=]KIND[:key=value,...]."""
    from rich.table import Table  # imported on use: other commands start without rich

    import bots

    table = Table(title="bots  (spec: [LABEL=]KIND[:key=value,...], or package.module.Class, or file.py#Class, "
                        "or exec:PATH for an engine program, docs/engine-protocol.md)")
    for col in ("kind", "options (default)", "about"):
        table.add_column(col)
    for kind in bots.names():
        cls = bots.registry.bot_class(kind)
        params = getattr(cls, "PARAMS", {}) or {}
        opts = "\n".join(f"{k}={p.default!r}" + (f": {p.help}" if p.help else "") for k, p in params.items())
        table.add_row(kind, opts or "-", getattr(cls, "summary", ""))
    make_console().print(table)


def register(app: typer.Typer) -> None:
    app.command("bots")(list_bots)

"""``arena games``: the registered games and their parameters."""

from __future__ import annotations

import typer

from arena.cli.console import make_console


def games() -> None:
    """List the registered games with their parameters and defaults (and, for Solo Interaction,
    each layout's figures: "10 balls, 16 moves, 68 solutions")."""
    from rich.table import Table  # imported on use: other commands start without rich

    import arena.games

    table = Table(title="games")
    for col in ("game", "players", "parameters (default)", "about"):
        table.add_column(col)
    for name in arena.games.names():
        cls = arena.games.game_class(name)
        params = "\n".join(
            f"{k}={p.default!r}" + (f" ({'|'.join(map(str, p.choices))})" if p.choices else "")
            + (f": {p.help}" if p.help else "")
            for k, p in cls.PARAMS.items()
        )
        about = "\n".join((cls.summary, *getattr(cls, "catalogue", ())))
        table.add_row(name, str(cls().num_players), params or "-", about)
    make_console().print(table)


def register(app: typer.Typer) -> None:
    app.command("games")(games)

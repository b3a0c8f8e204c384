"""``arena games``: the registered games and their parameters, then the games of each family
(``openspiel:NAME``, when its library is installed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from arena.cli.console import make_console
from arena.errors import ConfigError

if TYPE_CHECKING:
    from arena.games.protocol import Game


def _params(cls: type[Game]) -> str:
    return "\n".join(
        f"{k}={p.default!r}" + (f" ({'|'.join(map(str, p.choices))})" if p.choices else "")
        + (f": {p.help}" if p.help else "")
        for k, p in cls.PARAMS.items()
    ) or "-"


def games() -> None:
    """List the registered games with their parameters and defaults (and, for Solo Interaction,
    each layout's figures: "10 balls, 16 moves, 68 solutions"), then OpenSpiel's games
    (`openspiel:NAME`: seat counts from OpenSpiel's game type) when OpenSpiel is installed."""
    from rich.table import Table  # imported on use: other commands start without rich

    import arena.games

    table = Table(title="games")
    for col in ("game", "players", "parameters (default)", "about"):
        table.add_column(col)
    for name in arena.games.names():
        cls = arena.games.game_class(name)
        about = "\n".join((cls.summary, *getattr(cls, "catalogue", ())))
        table.add_row(name, str(cls().num_players), _params(cls), about)
    notes = []
    for family in arena.games.families():
        try:
            found = arena.games.family_names(family)
        except ConfigError as exc:  # the family's library is not installed
            notes.append(f"{family}:NAME games: {exc}")
            continue
        for name in found:
            cls = arena.games.game_class(name)
            table.add_row(name, cls.type.seats(), _params(cls), cls.summary)
    console = make_console()
    console.print(table)
    for note in notes:
        console.print(note, markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("games")(games)

"""The typer app: registers one module per command and turns ``ArenaError`` into one line.

Bad input never shows a traceback: ``main`` prints ``error: <message>`` on stderr and exits 2.
"""

from __future__ import annotations

import importlib
import sys

import typer

from arena.errors import ArenaError, one_line

app = typer.Typer(
    name="arena",
    help="Tournament engine-vs-engine arena for board-game AI.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Command modules under arena.cli; each defines ``register(app)``.
COMMANDS = ["games", "bots", "play", "solve", "bench", "run", "replay", "export", "report"]

for _name in COMMANDS:
    importlib.import_module(f"arena.cli.{_name}").register(app)


def fail(message: str) -> typer.Exit:
    """Print a one-line error on stderr; return the ``typer.Exit(2)`` to raise."""
    typer.secho(f"error: {' '.join(str(message).split())}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: ``arena ...``. Exit code 2 on bad input."""
    try:
        app(args=argv, standalone_mode=True)
    except ArenaError as exc:
        typer.secho(f"error: {one_line(exc)}", fg=typer.colors.RED, err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()

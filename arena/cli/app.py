"""The typer app: registers one module per command and turns ``ArenaError`` into one line.

Bad input never shows a traceback: ``main`` prints ``error: <message>`` on stderr and exits 2.
"""

from __future__ import annotations

import importlib
import sys

import typer

try:  # typer >= 0.20 vendors click; older releases use click itself
    from typer._click import exceptions as cx
except ImportError:  # pragma: no cover
    import click.exceptions as cx

from arena.errors import ArenaError, one_line

app = typer.Typer(
    name="arena",
    help="Tournament engine-vs-engine arena for board-game AI.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Command modules under arena.cli; each defines ``register(app)``.
COMMANDS = ["games", "bots", "play", "bench", "solve", "run", "replay", "export", "report", "engine"]

for _name in COMMANDS:
    importlib.import_module(f"arena.cli.{_name}").register(app)


def fail(message: str) -> typer.Exit:
    """Print a one-line error on stderr; return the ``typer.Exit(2)`` to raise."""
    typer.secho(f"error: {' '.join(str(message).split())}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: ``arena ...``. Exit code 2 on bad input, one line, no traceback."""
    try:
        code = app(args=argv, standalone_mode=False)
    except cx.NoArgsIsHelpError as exc:  # the help text is already printed by rich
        message = exc.format_message()
        if message.strip():
            typer.echo(message)
        sys.exit(0)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except cx.UsageError as exc:  # bad option or argument: one line, not a usage box
        command = exc.ctx.command_path if exc.ctx else "arena"
        typer.secho(f"error: {' '.join(exc.format_message().split())} (see: {command} --help)",
                    fg=typer.colors.RED, err=True)
        sys.exit(2)
    except typer.Abort:
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        sys.exit(130)
    except ArenaError as exc:
        typer.secho(f"error: {one_line(exc)}", fg=typer.colors.RED, err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()

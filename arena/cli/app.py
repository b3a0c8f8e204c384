"""The typer app: registers one module per command and turns ``ArenaError`` into one line.

Bad input never shows a traceback: ``main`` prints ``error: <message>`` on stderr and exits 2.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from typing import Any

import typer

try:  # typer >= 0.20 vendors click; older releases use click itself
    from typer._click import exceptions as cx
except ImportError:  # pragma: no cover
    import click.exceptions as cx  # type: ignore[no-redef]  # the same module, older typer

from typer.core import TyperCommand

from arena.cli.helptext import PlainGroup, plain_help, plain_help_option
from arena.errors import ArenaError, as_line, one_line
from bots.registry import masked

#: what a command stopped by Ctrl-C (or SIGTERM) says after ``interrupted: `` (the others: ``interrupted``)
STOPPED_SAYS = {name: "finished games are stored; re-run the same command to resume" for name in ("run", "ladder")}


class Stopped(BaseException):
    """A stop signal inside a command: ``main`` says so in one line and exits 130 (typer would
    turn the ``KeyboardInterrupt`` into a silent exit 130).

    Attributes:
        command: the name of the command stopped (``None``: stopped before one was chosen).
    """

    def __init__(self, command: str | None) -> None:
        super().__init__(command)
        self.command = command


class ArenaGroup(PlainGroup):
    """The ``arena`` group: a ``KeyboardInterrupt`` anywhere in a command (starting, playing,
    writing its report) becomes ``Stopped``."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Stopped(ctx.invoked_subcommand) from None


app = typer.Typer(
    name="arena",
    help="Tournament engine-vs-engine arena for board-game AI.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=ArenaGroup,
)

#: Command modules under arena.cli; each defines ``register(app)``.
COMMANDS = ["games", "bots", "play", "bench", "solve", "run", "list", "ladder", "replay", "export", "report",
            "openings", "engine", "serve"]


def _version(value: bool) -> None:
    if value:
        from arena import __version__

        typer.echo(f"arena {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the arena's version and exit."),
) -> None:
    """Tournament engine-vs-engine arena for board-game AI."""


#: options whose value may be left out (typer has no optional values): the value they then take
OPTIONAL_VALUES = {"--until-ranked": "0.95"}


def optional_values(args: list[str]) -> list[str]:
    """``args`` with each option of ``OPTIONAL_VALUES`` given without a value (last, or before
    another option) written ``--option=VALUE``."""
    out = list(args)
    for i, arg in enumerate(out):
        if arg in OPTIONAL_VALUES and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = f"{arg}={OPTIONAL_VALUES[arg]}"
    return out


class OnceCommand(TyperCommand):
    """A command whose single-value options and flags may be given once: ``--seed 1 --seed 2``
    and ``--json --json`` (or ``-q --quiet``) are refused (click keeps the last value
    silently), as a bot spec's option or a TOML key given twice is. Repeatable options
    (``multiple``, ``count``) and ``--help`` are not checked. An option of ``OPTIONAL_VALUES``
    may be given without its value."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        plain_help(self)

    def get_help_option(self, ctx):
        return plain_help_option(super().get_help_option(ctx))

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        args = optional_values(args)
        if args:  # click's parser, run once more on a copy: it records every occurrence in order
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            seen: set[int] = set()
            for param in order:
                if getattr(param, "multiple", False) or getattr(param, "count", False) \
                        or param.param_type_name != "option" or param.name == "help":
                    continue
                if id(param) in seen:
                    name = next((o for o in param.opts if o.startswith("--")), param.opts[0])
                    off = next((o for o in getattr(param, "secondary_opts", ()) if o.startswith("--")), None)
                    name += f"/{off}" if off else ""  # --write/--no-write: either form counts
                    raise cx.BadOptionUsage(name, f"option {name} given twice; give it once", ctx=ctx)
                seen.add(id(param))
        return super().parse_args(ctx, args)


for _name in COMMANDS:
    importlib.import_module(f"arena.cli.{_name}").register(app)
for _info in [*app.registered_commands, *(c for g in app.registered_groups if g.typer_instance
                                          for c in g.typer_instance.registered_commands)]:
    if _info.cls in (None, TyperCommand):  # a command of its own class keeps it
        _info.cls = OnceCommand


#: seconds a command may take to stop after Ctrl-C (or SIGTERM) before the process exits at once
STOP_GRACE = 30.0
#: the signals that stop a command as Ctrl-C does (``KeyboardInterrupt``), and their names in a message
STOP_SIGNALS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
#: set when ``main`` returns: an armed stop watchdog stands down
_stopped = threading.Event()
#: a stop signal was seen in this ``main`` call (the next one exits at once)
_armed = False
#: the stop signal seen in this ``main`` call, if any (``interrupt_code``)
_signal: int | None = None
#: the process whose ``main`` installed the handler (a forked child inherits it, not the role)
_owner = os.getpid()


def interrupt_code() -> int:
    """The exit code of a command the user stopped: 128 + the signal's number (130 for Ctrl-C,
    SIGINT; 143 for SIGTERM), as a shell reports a process the signal ended."""
    return 128 + int(_signal or signal.SIGINT)


def _on_stop_signal(signum, frame) -> None:
    """Ctrl-C (SIGINT) or SIGTERM: raise ``KeyboardInterrupt`` as Python's default SIGINT
    handler does (``arena run`` stores what it finished and says how to resume), and arm a
    watchdog once: a command still running ``STOP_GRACE`` seconds later says so in one line and
    exits at once (``interrupt_code``). ``arena run`` commits each game as it is stored, so
    nothing stored is lost; the watchdog bounds a teardown that waits too long (a worker or
    engine slow to die on a starved machine). It stands down when ``main`` returns (a caller in
    the same process lives on). Not installed for a signal the process inherited ignored (Ctrl-C
    in a background job): it then does nothing, as for any Unix program. In a forked child that
    inherited it (a worker), SIGTERM keeps its default action (the process ends; the pool replays
    its game) and SIGINT raises ``KeyboardInterrupt`` as Python's handler would."""
    global _armed, _signal
    if os.getpid() != _owner:  # a forked child (a pool worker) inherited the handler: the signal's own action
        if signum != signal.SIGTERM:
            raise KeyboardInterrupt  # Python's default SIGINT handler
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    if not _armed:
        _armed, _signal = True, signum
        stop, code, name = _stopped, interrupt_code(), STOP_SIGNALS.get(signum, "a signal")

        def stop_later() -> None:
            if stop.wait(STOP_GRACE):
                return
            os.write(2, f"arena: still stopping {STOP_GRACE:g}s after {name}; exiting now "
                        "(finished games are stored)\n".encode())
            os._exit(code)

        threading.Thread(target=stop_later, name="arena-stop-watchdog", daemon=True).start()
    raise KeyboardInterrupt


def _late_stop(signum, frame) -> None:
    """Ctrl-C (or SIGTERM) after the command returned, while the process exits (its atexit work):
    one line, and the process ends at once with 128 + the signal's number (Python's handler would
    print a traceback and end by the signal)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or its reader left
            pass
    os.write(2, f"interrupted after the command finished ({STOP_SIGNALS.get(signum, 'a signal')})\n".encode())
    os._exit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: ``arena ...`` (``argv``: the arguments; ``None``: the process's
    command line). Exit code 2 on bad input, one line, no traceback; 130 after Ctrl-C, 143 after
    SIGTERM (within ``STOP_GRACE`` seconds), in every phase of the command, and with ``argv``
    ``None`` also while the process exits after it."""
    global _stopped, _armed, _signal, _owner
    main_thread = threading.current_thread() is threading.main_thread()
    default: dict[signal.Signals, Any] = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    own = [s for s in STOP_SIGNALS if main_thread and signal.getsignal(s) is default[s]]
    if own:
        _stopped = threading.Event()  # this call's own: a watchdog of an earlier call stood down already
        _armed, _signal, _owner = False, None, os.getpid()
    for s in own:
        signal.signal(s, _on_stop_signal)
    try:
        _main(argv)
    finally:
        for s in own:  # a caller in the same process (tests) gets Python's handlers back, and lives on;
            # the command line of the process (no argv): a stop signal while it exits is said and ends it
            signal.signal(s, default[s] if argv is not None else _late_stop)
        if own:
            _stopped.set()
            _armed = False


def _main(argv: list[str] | None) -> None:
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
        typer.secho(f"error: {masked(as_line(exc.format_message()))} (see: {command} --help)",
                    fg=typer.colors.RED, err=True)
        sys.exit(2)
    except typer.Abort:
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        sys.exit(interrupt_code())
    except ArenaError as exc:
        # a key typed into a spec (key_env=sk-...) is never printed back, whichever check quotes the spec
        typer.secho(f"error: {masked(one_line(exc))}", fg=typer.colors.RED, err=True)
        sys.exit(2)
    except Stopped as exc:
        said = STOPPED_SAYS.get(exc.command or "")
        typer.secho("interrupted" + (f": {said}" if said else ""), fg=typer.colors.YELLOW, err=True)
        sys.exit(interrupt_code())
    except KeyboardInterrupt:
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        sys.exit(interrupt_code())
    except BrokenPipeError:  # `arena report NAME | head`: the reader left; stop quietly
        _quiet_stdout()
        sys.exit(0)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
    sys.exit(code if isinstance(code, int) else 0)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush raises no second
    ``BrokenPipeError`` (the recipe of the Python docs, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    main()

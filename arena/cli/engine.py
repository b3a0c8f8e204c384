"""``arena engine SPEC``: serve a bot over the engine protocol on stdin/stdout
(``docs/engine-protocol.md``), so another program (a GUI, a script, another arena) can drive it;
``arena engine check SPEC [--game G]``: the protocol's compliance test of an engine
(``arena.engine.compliance``), one line per check, exit 0 only if none fails."""

from __future__ import annotations

from typing import Optional

import typer

from arena.cli.console import make_console, styled
from arena.errors import ConfigError


def engine(
    spec: str = typer.Argument(
        ..., help="bot spec [LABEL=]KIND[:key=value,...] (built-in, package.module.Class or file.py#Class) to serve; "
                  "or 'check' followed by the SPEC of an engine to test (exec:COMMAND, or a Python bot served as one)"),
    target: Optional[str] = typer.Argument(None, metavar="ENGINE", help="with check: the SPEC of the engine to test"),
    game: str = typer.Option("interaction", "--game", help="with check: the (sequential) game its positions come from"),
    timeout: float = typer.Option(10.0, "--timeout", metavar="SECONDS",
                                  help="with check: seconds for aepok and each readyok"),
) -> None:
    """Serve one bot over the engine protocol until `quit` or end of input; `arena engine check SPEC`
    tests an engine's compliance with the protocol (pass/fail per check)."""
    if spec != "check":
        if target is not None:
            raise ConfigError(f"unexpected argument {target!r}: serve one SPEC (arena engine SPEC), or test one "
                              "(arena engine check SPEC)")
        from arena.engine.server import main
        raise typer.Exit(main(spec))
    if target is None:
        raise ConfigError("arena engine check needs the SPEC of the engine to test, e.g. "
                          "arena engine check exec:./my_engine")
    if not 0 < timeout <= 600:
        raise ConfigError(f"bad --timeout {timeout:g}; accepted: seconds above 0, at most 600")
    from arena.engine.compliance import Check, check_engine

    console = make_console()
    marks = {"pass": ("PASS", "green"), "fail": ("FAIL", "red"), "skip": ("SKIP", "yellow")}
    def show(check: Check) -> None:
        console.print(styled(marks[check.status], f"  {check.name:<18} ", check.detail), highlight=False)

    left: list[int] = []
    results = check_engine(target, game, timeout, show, left)
    if left:  # as arena run: killed, and said (its log's warning)
        make_console(stderr=True).print(f"note: killed {len(left)} process(es) the engine left running after it was "
                                        f"stopped (in a session of their own): {', '.join(map(str, left))}",
                                        highlight=False, soft_wrap=True)
    failed = [c.name for c in results if c.status == "fail"]
    console.print(f"{len(results) - len(failed)} of {len(results)} checks passed or skipped"
                  + (f"; failed: {', '.join(failed)}" if failed else ""), highlight=False)
    raise typer.Exit(1 if failed else 0)


def register(app: typer.Typer) -> None:
    app.command("engine")(engine)

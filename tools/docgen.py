"""The parts of the documentation generated from the code, and the MkDocs hook that fills them.

Two kinds of generated text, each marked by an HTML comment in a page of ``docs/``:

- ``<!-- generate: NAME -->`` (one line) is replaced when the site is built: the command-line
  reference (``cli``) and the state API of each game (``state-api``). Nothing is committed, so a
  command or option added to the code appears in the site without an edit.
- ``<!-- begin generated: NAME -->`` ... ``<!-- end generated -->`` holds a committed copy that
  the build refreshes too: the terminations table (``terminations``, from
  ``arena.referee.Termination`` and each game's ``Game.TERMINATIONS``) and the engine protocol's
  lines (``protocol-to-engine``, ``protocol-from-engine``, ``protocol-summary``, from
  ``arena.engine.protocol.TO_ENGINE`` / ``FROM_ENGINE``). The copy keeps the pages readable as
  plain Markdown; ``tests/docs/test_generated.py`` fails when it differs from the code, and
  ``python -m tools.docgen`` rewrites it.

MkDocs loads this file as a hook (``mkdocs.yml``: ``hooks``); the functions are plain
generators of Markdown text, used by the tests too.
"""

from __future__ import annotations

import inspect
import re
import sys
import typing
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: a one-line marker replaced at build time
_GENERATE = re.compile(r"^<!-- generate: (?P<name>[\w-]+) -->$", re.M)
#: a committed block refreshed at build time and checked by the tests
_BLOCK = re.compile(r"(?P<open>^<!-- begin generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)"
                    r"(?P<close>^<!-- end generated -->$)", re.M | re.S)


def _md(text: str) -> str:
    """reStructuredText literals (````x````) of a docstring as Markdown code (```x```), on one line."""
    return " ".join(text.replace("``", "`").split())


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell (``|`` escaped, on one line)."""
    return _md(text).replace("|", "\\|")


def _code(line: str) -> str:
    """A protocol line as code in a table cell (``/`` between alternatives outside the code)."""
    return " / ".join(f"`{part}`" for part in line.split(" / ")).replace("|", "\\|")


# --- terminations -------------------------------------------------------------------------------

def terminations_table() -> str:
    """Every termination a stored game can carry: the rule endings each built-in game declares
    (``Game.TERMINATIONS``) and the arena's own (``arena.referee.Termination``, from the
    members' docstrings), with who is blamed. Markdown table."""
    import arena.games as games
    from arena.referee import FAULTS, Termination

    rows = ["| termination | ends | meaning | who is blamed |", "|---|---|---|---|"]
    for name in games.names():
        game = games.make(name)
        for reason, meaning in type(game).TERMINATIONS.items():
            rows.append(f"| `{reason}` | the rules of `{name}` | {_cell(meaning)} | nobody: the rules rank the seats |")
    for member in Termination:
        if member is Termination.CRASH:
            blamed = "the bot on move (nobody, every seat first, when no bot had moved yet)"
        elif member in FAULTS:
            blamed = "the bot on move: it ranks last, the others share first"
        elif member is Termination.VOID:
            blamed = "nobody: kept apart, no rating effect; the game is played again"
        else:
            blamed = "nobody: every seat ranks first" if member in (Termination.GAME_ERROR, Termination.UNFINISHED) \
                else "nobody"
        rows.append(f"| `{member.value}` | the arena | {_cell(member.__doc__ or '')} | {blamed} |")
    return "\n".join(rows) + "\n"


# --- the engine protocol ------------------------------------------------------------------------

def protocol_to_engine() -> str:
    """The table of the messages the arena sends an engine."""
    from arena.engine.protocol import TO_ENGINE

    rows = ["| line | meaning |", "|---|---|"]
    rows += [f"| {_code(m.line)} | {_cell(m.meaning)} |" for m in TO_ENGINE]
    return "\n".join(rows) + "\n"


def protocol_from_engine() -> str:
    """The table of the messages an engine sends the arena."""
    from arena.engine.protocol import FROM_ENGINE

    rows = ["| line | meaning |", "|---|---|"]
    rows += [f"| {_code(m.line)} | {_cell(m.meaning)} |" for m in FROM_ENGINE]
    return "\n".join(rows) + "\n"


def protocol_summary() -> str:
    """Each message to the engine beside the engine's answer (the guide's short table)."""
    from arena.engine.protocol import TO_ENGINE

    rows = ["| arena → engine | engine → arena |", "|---|---|"]
    rows += [f"| {_code(m.line)} | {m.reply.replace('|', chr(92) + '|')} |" for m in TO_ENGINE]
    return "\n".join(rows) + "\n"


# --- the command line ---------------------------------------------------------------------------

def _plain(text: str) -> str:
    """Help text without rich markup (``\\[`` escapes, ``[bold]`` tags) and typer's ``\\b``."""
    from rich.text import Text

    try:
        text = Text.from_markup(text).plain
    except Exception:  # noqa: BLE001 - text that is not valid markup is shown as written
        pass
    return text.replace("\b", "")


def _paragraphs(text: str) -> str:
    """A docstring's paragraphs, each joined onto one line."""
    paras = re.split(r"\n\s*\n", inspect.cleandoc(_plain(text)))
    return "\n\n".join(" ".join(p.split()) for p in paras if p.strip())


#: the value placeholder of an option without a metavar, by its Python type
_TYPE_NAMES = {str: "TEXT", int: "INTEGER", float: "NUMBER", Path: "PATH", bool: "BOOL"}


def _value(param) -> str:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    if param.metavar:
        return param.metavar
    kind = getattr(param, "type", None)  # click's ParamType; typer >= 0.20 keeps the annotation instead
    if kind is not None:
        return str(getattr(kind, "name", "value")).upper()
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", str)
    while typing.get_args(annotation):  # list[str], Optional[int]: the element type
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    return _TYPE_NAMES.get(annotation, "VALUE")


def _default(param) -> str:
    default = param.default
    if callable(default) or default is None or default is False or default == () or default == []:
        return ""
    if getattr(param, "is_flag", False) and param.secondary_opts:
        return param.opts[0] if default else param.secondary_opts[0]
    if getattr(param, "is_flag", False):
        return ""
    return f"`{default}`"


def _usage(command, ctx) -> str:
    """``arena run [OPTIONS]``, ``arena report [OPTIONS] NAME [FILE]``, ``arena [OPTIONS] COMMAND [ARGS]...``."""
    pieces = ["[OPTIONS]"] if any(p.param_type_name == "option" for p in command.params) else []
    for p in command.params:
        if p.param_type_name == "argument":
            name = (p.metavar or p.name or "").upper()
            pieces.append(name if p.required else f"[{name}]")
    if hasattr(command, "commands"):
        pieces.append("COMMAND [ARGS]...")
    return " ".join([ctx.command_path, *pieces])


def _command_page(command, ctx, level: int) -> list[str]:
    path = ctx.command_path
    out = [f"{'#' * level} `{path}`", ""]
    if command.help:
        out += [_paragraphs(command.help), ""]
    out += ["```text", _usage(command, ctx), "```", ""]
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    options = [p for p in command.params if p.param_type_name == "option" and not getattr(p, "hidden", False)]
    if arguments:
        out += ["| argument | help |", "|---|---|"]
        for p in arguments:
            name = (p.metavar or p.name or "").upper()
            optional = "" if p.required else " (optional)"
            out.append(f"| `{name}`{optional} | {_cell(_plain(getattr(p, 'help', '') or ''))} |")
        out.append("")
    if options:
        defaults = any(_default(p) for p in options)  # a column of defaults only where one is declared
        out += ["| option | value | default | help |" if defaults else "| option | value | help |",
                "|---|---|---|---|" if defaults else "|---|---|---|"]
        for p in options:
            names = ", ".join(f"`{o}`" for o in [*p.opts, *p.secondary_opts])
            value = _value(p)
            value = f"`{value}`".replace("|", "\\|") if value else ""
            extra = " (repeatable)" if p.multiple and "repeatable" not in (p.help or "") else ""
            extra += " (required)" if p.required else ""
            default = f" {_default(p).replace('|', chr(92) + '|')} |" if defaults else ""
            out.append(f"| {names} | {value} |{default} {_cell(_plain(p.help or ''))}{extra} |")
        out.append("")
    if command.epilog:
        out += ["```text", inspect.cleandoc(_plain(command.epilog)), "```", ""]
    if hasattr(command, "commands"):
        for name in command.list_commands(ctx):
            sub = command.commands[name]
            if getattr(sub, "hidden", False):
                continue
            out += _command_page(sub, type(ctx)(sub, info_name=name, parent=ctx), level + (ctx.parent is not None))
    return out


def cli_reference() -> str:
    """Every command of ``arena`` with its help, usage, arguments and options, read from the
    typer app itself (click's introspection), in the app's order. Markdown."""
    import typer

    from arena.cli.app import app

    command = typer.main.get_command(app)
    ctx = command.context_class(command, info_name="arena")
    lines = _command_page(command, ctx, 2)
    return "\n".join(lines).rstrip() + "\n"


# --- the state API of each game -----------------------------------------------------------------

def state_api() -> str:
    """For each registered game: what it is (seats, dynamics, parameters, terminations), its
    start position and first legal moves as a bot sees them, and its state class documented by
    mkdocstrings (``:::`` blocks). Markdown."""
    import arena.games as games
    from arena.games import SIMULTANEOUS

    out: list[str] = []
    for name in games.names():
        game = games.make(name)
        cls = type(game)
        state = game.initial_state(1)
        scls = type(state)
        out += [f"## `{name}`", "", _md(cls.summary), ""]  # the docstring's first paragraph unless set
        kind = cls.type
        out += [f"- seats: {kind.seats()}; dynamics: {kind.dynamics.value}; random setup: "
                f"{'yes' if kind.chance else 'no'}; game class `{cls.__module__}.{cls.__qualname__}`, state class "
                f"`{scls.__module__}.{scls.__qualname__}`",
                f"- terminations: {', '.join(f'`{t}`' for t in cls.TERMINATIONS) or 'see the game'}", ""]
        if cls.PARAMS:
            out += ["| parameter | default | meaning |", "|---|---|---|"]
            for pname, param in cls.PARAMS.items():
                default = param.default
                text = f"`{default}`" if default not in (None, "") else "none"
                if isinstance(default, str) and len(default) > 40:
                    text = "(see `arena games`)"
                choices = f" ({', '.join(map(str, param.choices))})" if param.choices else ""
                out.append(f"| `{pname}` | {text} | {_cell(param.help)}{choices} |")
            out.append("")
        legal = [str(m) for m in state.legal_moves()[:8]] if state.to_move != SIMULTANEOUS else []
        out += ["The start position (seed 1) as `to_text()` gives it, and the first legal moves:", "",
                "```text", state.to_text()]
        if legal:
            out.append("legal: " + " ".join(legal) + (" ..." if len(state.legal_moves()) > 8 else ""))
        else:
            out.append("(a simultaneous round: every seat answers at once, no legal-move list)")
        out += ["```", "", f"::: {scls.__module__}.{scls.__qualname__}", "    options:",
                "      heading_level: 3", "      show_root_full_path: false", "      members_order: source",
                "      filters: [\"!^_\"]", ""]
    return "\n".join(out).rstrip() + "\n"


#: committed blocks (``begin generated`` .. ``end generated``)
BLOCKS: dict[str, Callable[[], str]] = {
    "terminations": terminations_table,
    "protocol-to-engine": protocol_to_engine,
    "protocol-from-engine": protocol_from_engine,
    "protocol-summary": protocol_summary,
}
#: build-time pages (``generate: NAME``)
PAGES: dict[str, Callable[[], str]] = {"cli": cli_reference, "state-api": state_api}


def _body(text: str) -> str:
    """A block's text between its markers: blank lines around it, so that Markdown reads the
    comments as HTML blocks of their own and the text as Markdown."""
    return "\n" + text.rstrip("\n") + "\n\n"


def expand(markdown: str) -> str:
    """``markdown`` with every marker filled from the code.

    Raises:
        KeyError: a marker names no generator.
    """
    cache: dict[str, str] = {}

    def made(name: str, table: dict[str, Callable[[], str]]) -> str:
        if name not in table:
            raise KeyError(f"no generated text named {name!r}; known: {', '.join(sorted(table))}")
        if name not in cache:
            cache[name] = table[name]()
        return cache[name]

    markdown = _BLOCK.sub(lambda m: m["open"] + _body(made(m["name"], BLOCKS)) + m["close"], markdown)
    return _GENERATE.sub(lambda m: made(m["name"], PAGES).rstrip("\n"), markdown)


def stale(paths: list[Path] | None = None) -> list[tuple[Path, str]]:
    """The committed blocks that differ from the code: (page, block name)."""
    out = []
    for path in paths or sorted(DOCS.rglob("*.md")):
        text = path.read_text()
        for m in _BLOCK.finditer(text):
            if m["body"] != _body(BLOCKS[m["name"]]()):
                out.append((path, m["name"]))
    return out


def write() -> list[Path]:
    """Rewrite the committed blocks of every page from the code; the pages changed."""
    changed = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text()
        new = _BLOCK.sub(lambda m: m["open"] + _body(BLOCKS[m["name"]]()) + m["close"], text)
        if new != text:
            path.write_text(new)
            changed.append(path)
    return changed


# --- the MkDocs hook ----------------------------------------------------------------------------

def on_config(config):
    """MkDocs event: document the code of this checkout, also when another one is installed
    (the hook's own module loading has put ``sys.path`` back by now)."""
    if sys.path[:1] != [str(ROOT)]:
        sys.path.insert(0, str(ROOT))
    return config


def on_page_markdown(markdown: str, page, config, files) -> str:
    """MkDocs event: fill the page's markers from the code."""
    return expand(markdown)


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.docgen [--check]``: rewrite the committed blocks (or only list the
    stale ones, exit 1 when any)."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        bad = stale()
        for path, name in bad:
            print(f"{path.relative_to(ROOT)}: block {name!r} differs from the code")
        return 1 if bad else 0
    if args:
        print("usage: python -m tools.docgen [--check]", file=sys.stderr)
        return 2
    for path in write():
        print(f"rewrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Help text as engine testers read it: typer (0.29) prints ``<bool>`` beside every flag and
``<str>`` beside options and arguments that declare no metavar; ``plain_help`` gives a flag no
placeholder and a value its name (``--seed SEED``), and adds each command's examples
(``EXAMPLES``) under its ``--help``."""

from __future__ import annotations

try:  # typer >= 0.20 vendors click; older releases use click itself
    from typer._click.core import Command, Parameter
except ImportError:  # pragma: no cover
    from click import Command, Parameter  # type: ignore[assignment]

from typer.core import TyperGroup

#: a few runnable examples per command, shown under its ``--help``
EXAMPLES: dict[str, list[str]] = {
    "arena": ["arena run", "arena report NAME", "arena run --help"],
    "openings": ["arena openings select NAME --max-bias 0.1 --out balanced.txt",
                 "arena openings random interaction --plies 4 --count 20 --out openings.txt"],
    "games": ["arena games"],
    "bots": ["arena bots"],
    "play": ["arena play interaction --bot alphabeta:depth=3 --bot greedy --seed 7",
             "arena play sandpile --bot random --bot greedy --bot random --bot greedy -q"],
    "bench": ["arena bench --quick", "arena bench --only runner"],
    "solve": ["arena solve '1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'", "arena solve --file puzzles.txt --json"],
    "run": ["arena run", "arena run --bot me=mybot.py#MyBot --bot greedy --bot alphabeta:depth=3 --games 20",
            "arena run --bot new=alphabeta:depth=4 --bot old=alphabeta:depth=3 --sprt elo0=0,elo1=10",
            "arena run --game sandpile --bot greedy --fill random --games 40 --name seats"],
    "list": ["arena list", "arena list --json"],
    "ladder": ["arena ladder --bot 'mcts:playouts={50,100,200,400,800}'",
               "arena ladder --bot 'ab=alphabeta:depth={1..4}' --games 40"],
    "replay": ["arena replay NAME 1"],
    "export": ["arena export NAME --format parquet --out games.parquet"],
    "report": ["arena report NAME", "arena report NAME --section ratings --json", "arena report NAME --html"],
    "select": ["arena openings select NAME --max-bias 0.1 --out balanced.txt"],
    "random": ["arena openings random interaction --plies 4 --count 20 --out openings.txt"],
    "serve": ["arena serve", "arena serve --results results --port 8080",
              "arena serve --host 0.0.0.0 --token SECRET"],
    "engine": ["arena engine alphabeta:depth=3", "arena engine check exec:./my_engine.py"],
}


def plain_help(command: Command) -> None:
    """Help as engine testers read it: a flag shows no ``<bool>``, an option its value's
    name (``--seed SEED``) where it declares none; the examples of ``EXAMPLES`` below."""
    for param in command.params:
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""
        elif param.metavar is None and param.param_type_name == "option":
            param.metavar = (param.name or "").upper()
        elif param.param_type_name == "argument":  # typer brackets it in the usage line
            param.metavar = param.metavar or (param.name or "").upper()
            param.display_type_rich = lambda ctx: ""  # type: ignore[attr-defined]  # no <str>: the name says it
    if command.help and not command.short_help:  # the command list: the first paragraph on one line
        command.short_help = " ".join(command.help.split("\n\n")[0].split()).replace("``", "`")
    examples = EXAMPLES.get(command.name or "")
    if examples and not command.epilog:
        command.epilog = "Examples:\n\n" + "\n\n".join(f"  {line}" for line in examples)


def plain_help_option(option: Parameter | None) -> Parameter | None:
    """``--help`` without a ``<bool>`` placeholder."""
    if option is not None:
        option.metavar = ""
    return option


class PlainGroup(TyperGroup):
    """A command group (``arena``, ``arena openings``) with ``plain_help``'s help text."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        plain_help(self)

    def get_help_option(self, ctx):
        return plain_help_option(super().get_help_option(ctx))

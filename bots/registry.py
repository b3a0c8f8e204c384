"""Bot specs and the bot registry (``docs/arena.md`` "Contracts / Python API").

A spec is ``[LABEL=]KIND[:key=value,...]`` (the options ``tc=`` and ``restart=`` are the
arena's: the bot's own game clock, ``BotSpec.tc``, and ``BotSpec.restart``); KIND is a
registered name (built in, given to ``register``, or from the ``arena.bots`` entry points), a dotted import path
``package.module.ClassName``, a file path ``path/to/file.py#ClassName`` (imported with its folder
first on the import path, so it may import the modules beside it), or
``PREFIX:ARGUMENT`` for a registered prefix kind: ``register(PREFIX, factory, prefix=True)`` or
the ``arena.bot_prefixes`` entry points, where ``factory(ARGUMENT)`` returns the class.
``exec:PATH`` (an engine program driven over the engine protocol, ``docs/engine-protocol.md``,
its options sent as ``setoption``) is such a kind, registered by the ``arena`` distribution's
own entry point (``exec = "arena.engine.client:engine_class"`` in ``pyproject.toml``): this
package never imports ``arena.engine``.

A third-party package registers its bots in its ``pyproject.toml``::

    [project.entry-points."arena.bots"]
    mybot = "mypackage.mybot:MyBot"
    [project.entry-points."arena.bot_prefixes"]
    remote = "mypackage.remote:remote_class"     # remote:HOST[:key=value,...]

or, without installing anything, at run time: ``bots.register("mybot", MyBot)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from arena.errors import ArenaError, BotSpecError, ConfigError
from arena.games import Game
from arena.games.protocol import coerce_params
from bots.base import refusal
from bots.clock import check_tc
# the kinds and their classes live in ``kinds``; ``register``, ``names``, ``bot_class``... are read here
from bots.kinds import GROUP as GROUP, PREFIX_GROUP as PREFIX_GROUP, bot_class as bot_class, builtin as builtin
from bots.kinds import names as names, prefix_kinds as prefix_kinds, prefix_of as prefix_of, prefixes
from bots.kinds import register as register, registry

#: the spec options that are the arena's, not the bot's: the bot's own game clock (time odds),
#: and a new engine process for every game
TC_OPTION, RESTART_OPTION = "tc", "restart"
#: the values of an on/off spec option
SWITCH = {"on": True, "off": False, "true": True, "false": False, "1": True, "0": False}

_LABEL = re.compile(r"^[A-Za-z0-9_.+-]+$")
#: spec options that may hold a secret: an error quoting a spec shows their value only when it
#: is an environment variable's name (``key_env=OPENAI_API_KEY``), never a key typed in by mistake
SECRET_OPTIONS = ("key_env", "api_key", "key", "token")
_SECRET = re.compile(r"([:,]\s*(?:" + "|".join(SECRET_OPTIONS) + r")\s*=)([^,'\"\s]*)", re.IGNORECASE)
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def masked(text: str) -> str:
    """``text`` (a spec, a label, or a message quoting one) with the value of each option of
    ``SECRET_OPTIONS`` that is no environment variable's name replaced by ``***``."""
    return _SECRET.sub(lambda m: m.group(0) if not m.group(2) or _ENV_NAME.fullmatch(m.group(2)) else
                       m.group(1) + "***", text)


def _refused(message: str) -> BotSpecError:
    """A ``BotSpecError`` whose message quotes a spec, its secrets ``masked``."""
    return BotSpecError(masked(message))


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec.

    Attributes:
        label: the bot's name in a tournament (default: the spec without label).
        kind: registered name, dotted path or ``file.py#Class``.
        options: ``key -> value`` strings, in the order given (the bot's own: ``tc`` is not one).
        text: the spec as written.
        tc: the bot's own game clock, ``tc=`` in the spec (``bots.clock.TimeControl`` text:
            time odds, it replaces ``--tc`` for this bot), or ``None``.
        restart: ``restart=on`` in the spec: an engine (``exec:``, or a Python bot under
            ``--isolation process``) gets a new process for every game.
    """

    label: str
    kind: str
    options: dict[str, str] = field(default_factory=dict)
    text: str = ""
    tc: str | None = None
    restart: bool = False


def parse_spec(text: str) -> BotSpec:
    """Parse ``[LABEL=]KIND[:key=value,...]``.

    Raises:
        BotSpecError: empty spec, bad label, or an option not of the form ``key=value``.
    """
    raw = str(text).strip()
    if not raw:
        raise _refused("empty bot spec; expected [LABEL=]KIND[:key=value,...], e.g. ab3=alphabeta:depth=3")
    head, sep, tail = raw.partition(":")
    label = ""
    if "=" in head:
        label, _, head = head.partition("=")
        label = label.strip()
        if not _LABEL.match(label):
            raise _refused(f"bad bot label {label!r} in {raw!r}; labels use ASCII letters, digits and _ . + -")
    kind = head.strip()
    if sep and not builtin(kind) and kind in prefixes():
        # PREFIX:ARGUMENT[:key=value,...] (exec:COMMAND...); the options are after the last ':'
        # outside quotes (exec:'/opt/a:b=c/x' is a path)
        argument, sep, tail = _argument_and_options(tail)
        if not argument.strip():
            noun, shape = ("executable", "PATH") if kind == "exec" else ("argument", "ARGUMENT")
            raise _refused(f"bot spec {raw!r} has no {noun}; expected {kind}:{shape}[:key=value,...]")
        kind = f"{kind}:{argument.strip()}"
    if not kind:
        raise _refused(f"bot spec {raw!r} has no kind; accepted kinds: {', '.join(names())}")
    options: dict[str, str] = {}
    if sep:
        for item in tail.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise _refused(f"bad option {item!r} in bot spec {raw!r}; expected key=value")
            if key.strip() in options:
                raise _refused(f"option {key.strip()!r} given twice in bot spec {raw!r}")
            options[key.strip()] = value.strip()
    if not label:
        label = kind if not options else f"{kind}:{','.join(f'{k}={v}' for k, v in options.items())}"
    tc = options.pop(TC_OPTION, None)
    if tc is not None:
        try:
            tc = check_tc(tc)
        except ConfigError as exc:
            raise _refused(f"bot spec {raw!r}: {exc}") from None
    restart = options.pop(RESTART_OPTION, "off").lower()
    if restart not in SWITCH:
        raise _refused(f"bot spec {raw!r}: bad restart={restart!r}; accepted: {', '.join(SWITCH)}")
    return BotSpec(label=label, kind=kind, options=options, text=raw, tc=tc, restart=SWITCH[restart])


def _argument_and_options(text: str) -> tuple[str, str, str]:
    """``(ARGUMENT, ":", OPTIONS)`` of a prefix kind's ``ARGUMENT[:key=value,...]``, split at the
    last ``:`` outside shell quotes (``'...'``, ``"..."``, a backslash escape) when an ``=``
    follows it; ``(text, "", "")`` when there are no options."""
    quote, escaped, last = "", False, -1
    for i, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ":":
            last = i
    if last < 0 or "=" not in text[last + 1:]:
        return text, "", ""
    return text[:last], ":", text[last + 1:]


def make(spec: str | BotSpec, needs: str = "choose(state, limits)") -> Any:
    """A bot instance from a spec; its ``label`` attribute is set. ``needs``: the method the
    class must have, with its arguments (``arena solve``: a solver's ``solve_puzzle(puzzle,
    limits)``).

    Raises:
        BotSpecError: bad spec, unknown kind, unknown option (the message lists the accepted
            ones), bad value, or a class without the method ``needs``.
    """
    parsed = spec if isinstance(spec, BotSpec) else parse_spec(spec)
    cls = bot_class(parsed.kind)
    if not callable(getattr(cls, needs.partition("(")[0], None)):
        raise _refused(f"bot class {parsed.kind!r} has no {needs} method")
    try:
        bot = cls(**parsed.options)
    except ArenaError as exc:  # its own "bot NAME: " prefix (base.coerce_params) gives way to the spec's
        detail = str(exc).removeprefix(f"bot {getattr(cls, 'name', parsed.kind)}: ")
        raise _refused(f"bot {parsed.text!r}: {detail}") from None
    except TypeError as exc:
        raise _refused(f"bot {parsed.text!r}: {exc}") from None
    try:
        bot.label = parsed.label
    except AttributeError:
        pass
    if ":" in parsed.kind and prefix_of(parsed.kind) is not None and callable(getattr(bot, "probe", None)):
        bot.probe()  # an engine: start it once, so no handshake or an unknown option is a spec error now
    return bot


def precheck(spec: BotSpec, game: Game | None = None) -> None:
    """Refuse at once what needs no bot code run: a kind that is no registered name, file,
    dotted path or prefix kind (``bot_class``'s message), and for a built-in kind a bad option
    or value (``make``'s message) or a game it cannot play (``check_field``'s). A file,
    dotted, installed or prefix kind is left to ``make`` (the field check runs it in a child).

    Raises:
        BotSpecError: as above.
    """
    kind = spec.kind
    if builtin(kind):
        cls = bot_class(kind)
        try:
            coerce_params(f"bot {getattr(cls, 'name', kind)}", getattr(cls, "PARAMS", {}), dict(spec.options))
        except ArenaError as exc:  # as ``make`` words it
            detail = str(exc).removeprefix(f"bot {getattr(cls, 'name', kind)}: ")
            raise _refused(f"bot {spec.text!r}: {detail}") from None
        if game is not None:
            check_field([spec], game)
        return
    if any(c in kind for c in "#.:") or kind in registry():
        return
    bot_class(kind)  # an unknown kind: its one-line error


def with_each(spec: BotSpec, cls: type, each: dict[str, str] | None) -> BotSpec:
    """``spec`` with the options of ``each`` (``--each key=value``) that ``cls`` declares in its
    ``PARAMS`` and the spec does not set itself (the spec's own value wins)."""
    declared = getattr(cls, "PARAMS", None) or {}
    extra = {k: v for k, v in (each or {}).items() if k in declared and k not in spec.options}
    return replace(spec, options={**extra, **spec.options}) if extra else spec


#: a repeated spec's label: the spec's own, then ``#2``, ``#3``... (``alphabeta:depth=1#2``: the
#: second ``alphabeta:depth=1``; ``-2`` read as part of the last option's value, ``depth=1-2``)
REPEAT_MARK = "#"
#: the mark of a repeat's label in tournaments stored before ``REPEAT_MARK`` (``random-2``)
LEGACY_REPEAT_MARK = "-"


def legacy_repeat_label(spec: BotSpec) -> str | None:
    """The label ``assign_labels`` gave this repeated spec before ``REPEAT_MARK``
    (``random#2`` -> ``random-2``: a stored tournament's member), or ``None`` for a label that
    is not a repeat's."""
    try:
        base = parse_spec(spec.text).label
    except BotSpecError:
        return None
    found = re.fullmatch(re.escape(base + REPEAT_MARK) + "([0-9]+)", spec.label)
    return f"{base}{LEGACY_REPEAT_MARK}{found.group(1)}" if found else None


def seed_name(spec: BotSpec) -> str:
    """The name a bot's seeds derive from (``arena.referee.bot_seeds``): its label, and for a
    repeat the label it had before ``REPEAT_MARK`` (``random#2`` seeds as ``random-2``), so the
    same command plays the same games as before the labels changed."""
    return legacy_repeat_label(spec) or spec.label


def assign_labels(specs: list[str], typed: int | None = None) -> list[BotSpec]:
    """Parse a tournament's specs and make labels unique: a repeat gets ``#2``, ``#3``...
    (``REPEAT_MARK``; a tournament stored with ``-2`` labels keeps them, ``legacy_repeat_label``).
    ``typed``: how many of ``specs``, from the first, the user gave (default all); the rest fill
    seats on the arena's own (``arena play``'s ``random``), numbered past a label they share.

    Raises:
        BotSpecError: a bad spec, the same explicit label given twice, or an explicit label that
            is another spec's default label (``random=greedy`` beside ``random``: the real
            ``random`` would be renamed ``random#2``).
    """
    parsed = [parse_spec(s) for s in specs]
    labelled = ["=" in s.partition(":")[0] for s in specs]
    explicit = [p.label for p, given in zip(parsed, labelled) if given]
    dup = {lab for lab in explicit if explicit.count(lab) > 1}
    if dup:
        raise _refused(f"bot label {sorted(dup)[0]!r} given twice; labels in one tournament must be unique")
    default = {p.label: s for p, s, given in list(zip(parsed, specs, labelled))[:typed] if not given}
    clash = next(((s, p.label) for p, s, given in zip(parsed, specs, labelled) if given and p.label in default), None)
    if clash is not None:
        spec, label = clash
        raise _refused(f"bot label {label!r} of {spec.strip()!r} is also the label of {default[label].strip()!r}; "
                           f"give one of them a label of its own: NAME=SPEC (e.g. {label}2={default[label].strip()})")
    seen: dict[str, int] = {}
    out = []
    for p in parsed:
        n = seen.get(p.label, 0) + 1
        seen[p.label] = n
        out.append(p if n == 1 else replace(p, label=f"{p.label}{REPEAT_MARK}{n}"))
    taken = [p.label for p in out]
    if len(set(taken)) != len(taken):
        raise _refused(f"bot labels clash after numbering repeats: {', '.join(taken)}; give explicit LABEL=")
    return out


def check_field(specs: list[BotSpec], game: Game) -> None:
    """Refuse, before any game, a bot whose kind cannot play ``game`` (its ``PLAYS`` against
    ``game.type``: seats, sequential/simultaneous, which games).

    Raises:
        BotSpecError: the first such bot (the message says why), or an unknown kind.
    """
    for spec in specs:
        why = refusal(bot_class(spec.kind), game)
        if why is not None:
            raise _refused(f"bot {(spec.text or spec.kind)!r} cannot play {game.name}: {spec.kind} {why}")

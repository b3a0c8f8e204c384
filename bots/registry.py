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

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, BotSpecError, ConfigError
from arena.games import Game
from arena.games.protocol import coerce_params
from bots.base import refusal
from bots.clock import check_tc

#: the spec options that are the arena's, not the bot's: the bot's own game clock (time odds),
#: and a new engine process for every game
TC_OPTION, RESTART_OPTION = "tc", "restart"
#: the values of an on/off spec option
SWITCH = {"on": True, "off": False, "true": True, "false": False, "1": True, "0": False}

#: Built-in bots: kind -> "module:Class" (imported lazily).
_BUILTIN: dict[str, str] = {
    "random": "bots.random:RandomBot",
    "paranoid": "bots.multiplayer:ParanoidBot",
    "maxn": "bots.maxn:MaxNBot",
    "brs": "bots.multiplayer:BestReplyBot",
    "greedy": "bots.greedy:GreedyBot",
    "alphabeta": "bots.alphabeta:AlphaBetaBot",
    "mcts": "bots.mcts:MCTSBot",
    "ismcts": "bots.ismcts:ISMCTSBot",
    "openspiel.cfr": "bots.openspiel_cfr:CfrBot",
    "ricochet-optimal": "bots.ricochet:OptimalSolver",
    "ricochet-greedy": "bots.ricochet:GreedySolver",
    "interaction-solo-optimal": "bots.interaction_solo:OptimalSoloSolver",
    "interaction-solo-greedy": "bots.interaction_solo:GreedySoloSolver",
    "known": "bots.known:KnownBot",
}

#: Entry-point group of bot kinds: ``name = "module:Class"``.
GROUP = "arena.bots"
#: Entry-point group of prefix kinds: ``prefix = "module:factory"``, ``factory(argument) -> class``.
PREFIX_GROUP = "arena.bot_prefixes"

#: Kinds given to ``register``: kind -> class or ``"module:Class"``.
_REGISTERED: dict[str, type | str] = {}
#: Prefix kinds given to ``register(..., prefix=True)``: prefix -> factory or ``"module:factory"``.
_REGISTERED_PREFIXES: dict[str, Callable[[str], type] | str] = {}
_KIND = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_+-]*$")

_LABEL = re.compile(r"^[A-Za-z0-9_.+-]+$")


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


def register(kind: str, target: type | str | Callable[[str], type], *, prefix: bool = False) -> None:
    """Register a bot kind for this process, beside the entry points (``GROUP``,
    ``PREFIX_GROUP``).

    Args:
        kind: the name used in specs (letters, digits, ``_ + -``; not ``.`` or ``:``).
        target: the bot class, or ``"module:Class"`` imported on first use; with ``prefix``, a
            factory ``(argument: str) -> class`` or ``"module:factory"``: the spec
            ``KIND:ARGUMENT[:key=value,...]`` makes ``factory(ARGUMENT)(**options)``, and a bot
            of a prefix kind with a ``probe()`` method is probed once by ``make``.
        prefix: register a prefix kind (like ``exec:PATH``) instead of a plain kind.

    Raises:
        BotSpecError: a malformed kind, a ``"module:attr"`` text without ``:``, or a kind that
            is built in or already registered to another target.
    """
    if not isinstance(kind, str) or not _KIND.match(kind):
        raise BotSpecError(f"bad bot kind {kind!r} to register; kinds use letters, digits and _ + -")
    if isinstance(target, str) and ":" not in target:
        raise BotSpecError(f"bot kind {kind!r}: target {target!r} is not 'module:attr'")
    table: dict = _REGISTERED_PREFIXES if prefix else _REGISTERED
    if kind in _BUILTIN or table.get(kind, target) != target:
        raise BotSpecError(f"bot kind {kind!r} is already registered")
    table[kind] = target


def _load(target: object) -> Any:
    """``target`` itself, or the attribute a ``"module:attr"`` text names."""
    if not isinstance(target, str):
        return target
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


@cache
def _entry_points(group: str) -> dict[str, str]:
    """Name -> ``"module:attr"`` of an entry-point group (scanned once: about 25 ms)."""
    return {ep.name: ep.value for ep in entry_points(group=group)}


def _registry() -> dict[str, type | str]:
    """Kind -> class or ``"module:attr"``: the built-ins, then ``register``'s, then the
    ``arena.bots`` entry points (an earlier name wins). ``bot_class`` looks a built-in kind up
    without scanning the installed distributions."""
    found: dict[str, type | str] = {**_BUILTIN}
    for table in (_REGISTERED, _entry_points(GROUP)):
        for name, target in table.items():
            found.setdefault(name, target)
    return found


def _prefixes() -> dict[str, Callable[[str], type] | str]:
    """Prefix kind -> factory or ``"module:factory"``: ``register``'s, then the
    ``arena.bot_prefixes`` entry points."""
    found: dict[str, Callable[[str], type] | str] = dict(_REGISTERED_PREFIXES)
    for name, target in _entry_points(PREFIX_GROUP).items():
        found.setdefault(name, target)
    return found


def prefix_of(kind: str) -> str | None:
    """The registered prefix kind of ``kind`` (``exec`` of ``exec:./engine``), or None."""
    head, colon, _ = kind.partition(":")
    return head if colon and head not in _BUILTIN and head in _prefixes() else None


def builtin(kind: str) -> bool:
    """Whether ``kind`` is a built-in bot kind (``random``, ``alphabeta``...; not a registered,
    installed or file kind)."""
    return kind in _BUILTIN


def names() -> list[str]:
    """Registered bot kinds, sorted (prefix kinds are in ``prefix_kinds``)."""
    return sorted(_registry())


def prefix_kinds() -> list[str]:
    """Registered prefix kinds, sorted (``exec`` once the arena is installed): the spec is
    ``PREFIX:ARGUMENT[:key=value,...]``."""
    return sorted(_prefixes())


def parse_spec(text: str) -> BotSpec:
    """Parse ``[LABEL=]KIND[:key=value,...]``.

    Raises:
        BotSpecError: empty spec, bad label, or an option not of the form ``key=value``.
    """
    raw = str(text).strip()
    if not raw:
        raise BotSpecError("empty bot spec; expected [LABEL=]KIND[:key=value,...], e.g. ab3=alphabeta:depth=3")
    head, sep, tail = raw.partition(":")
    label = ""
    if "=" in head:
        label, _, head = head.partition("=")
        label = label.strip()
        if not _LABEL.match(label):
            raise BotSpecError(f"bad bot label {label!r} in {raw!r}; labels use letters, digits and _ . + -")
    kind = head.strip()
    if sep and kind not in _BUILTIN and kind in _prefixes():
        # PREFIX:ARGUMENT[:key=value,...] (exec:COMMAND...); the options are after the last ':'
        # outside quotes (exec:'/opt/a:b=c/x' is a path)
        argument, sep, tail = _argument_and_options(tail)
        if not argument.strip():
            noun, shape = ("executable", "PATH") if kind == "exec" else ("argument", "ARGUMENT")
            raise BotSpecError(f"bot spec {raw!r} has no {noun}; expected {kind}:{shape}[:key=value,...]")
        kind = f"{kind}:{argument.strip()}"
    if not kind:
        raise BotSpecError(f"bot spec {raw!r} has no kind; accepted kinds: {', '.join(names())}")
    options: dict[str, str] = {}
    if sep:
        for item in tail.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise BotSpecError(f"bad option {item!r} in bot spec {raw!r}; expected key=value")
            if key.strip() in options:
                raise BotSpecError(f"option {key.strip()!r} given twice in bot spec {raw!r}")
            options[key.strip()] = value.strip()
    if not label:
        label = kind if not options else f"{kind}:{','.join(f'{k}={v}' for k, v in options.items())}"
    tc = options.pop(TC_OPTION, None)
    if tc is not None:
        try:
            tc = check_tc(tc)
        except ConfigError as exc:
            raise BotSpecError(f"bot spec {raw!r}: {exc}") from None
    restart = options.pop(RESTART_OPTION, "off").lower()
    if restart not in SWITCH:
        raise BotSpecError(f"bot spec {raw!r}: bad restart={restart!r}; accepted: {', '.join(SWITCH)}")
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


def _load_file_class(kind: str) -> type:
    path_text, _, cls_name = kind.partition("#")
    path = Path(path_text)
    if not _is_file(path) or not cls_name:
        raise BotSpecError(f"bot file {path_text!r} not found or no #ClassName given; "
                           "expected path/to/file.py#ClassName")
    module_name = f"arena_user_bot_{abs(hash(str(path.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        _import_beside(path)
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise BotSpecError(f"cannot load bot file {path_text!r}: not a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # a user's file: report, never trace back
            del sys.modules[module_name]
            raise BotSpecError(f"cannot load bot file {path_text!r}: {_import_failure(exc)}") from None
    try:
        return getattr(module, cls_name)
    except AttributeError:
        raise BotSpecError(f"bot file {path_text!r} has no class {cls_name!r}") from None


def _import_beside(path: Path) -> None:
    """Put the folder of the bot file at ``path`` first on the import path (``sys.path``), as
    ``python path/to/file.py`` does, so the file may import the modules beside it (its version
    follows them: ``arena.tournament.bot_code``). It stays for the process: a module the bot
    imports while it plays is found too. A module already imported (the standard library's, the
    arena's) is not replaced by one of the same name beside the file."""
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
        importlib.invalidate_caches()


def _is_file(path: Path) -> bool:
    """``path.is_file()``, and ``False`` where it would raise: a file name too long for the
    file system (``OSError`` ENAMETOOLONG), a NUL byte (``ValueError``)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _import_failure(exc: BaseException) -> str:
    """Why a user's module failed at import, in words: ``ValueError: bad`` or, for a module
    that calls ``sys.exit`` at import (``SystemExit`` would end the arena silently),
    ``it called sys.exit(1) at import``. ``os._exit`` at import ends the process at once and
    cannot be reported."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({'' if exc.code is None else repr(exc.code)}) at import"
    return f"{type(exc).__name__}: {exc}"


def bot_class(kind: str) -> type:
    """The class for a bot kind (registered name, dotted path or ``file.py#Class``).

    Raises:
        BotSpecError: unknown kind, unimportable module or missing class.
    """
    prefix = prefix_of(kind) if ":" in kind else None
    if prefix is not None:  # e.g. exec:COMMAND, an engine process (docs/engine-protocol.md)
        return _load(_prefixes()[prefix])(kind[len(prefix) + 1:])
    target = _BUILTIN.get(kind) or _registry().get(kind)
    if target is not None:
        return _load(target)
    if "#" in kind:
        return _load_file_class(kind)
    if kind.endswith(".py"):  # "mybot.py": a file, not a dotted path ending in class "py"
        missing = "" if _is_file(Path(kind)) else " (and no such file)"
        raise BotSpecError(f"bot file {kind!r} needs a class: give it as {kind}#ClassName{missing}; "
                           "expected path/to/file.py#ClassName")
    if "." in kind:
        module, _, attr = kind.rpartition(".")
        try:
            return getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise BotSpecError(f"cannot import bot class {kind!r}: {exc}{_file_hint(module, attr, exc)}") from None
        except (Exception, SystemExit) as exc:
            raise BotSpecError(f"cannot import bot class {kind!r}: {_import_failure(exc)}") from None
    raise BotSpecError(
        f"unknown bot kind {kind!r}; accepted: {', '.join(names())}, "
        "a dotted path package.module.ClassName or path/to/file.py#ClassName"
    )


def _file_hint(module: str, attr: str, exc: Exception) -> str:
    """``"; did you mean mybot.py#FirstMove?"`` when ``module`` is not importable but a file
    ``mybot.py`` exists in the current folder (a dotted path imports installed modules only)."""
    if not isinstance(exc, ModuleNotFoundError):
        return ""
    path = Path(module.replace(".", "/") + ".py")  # not with_suffix: "/." has an empty name
    if not _is_file(path):
        return ""
    return f"; did you mean {path.as_posix()}#{attr}? (a bot in a file is given as path/to/file.py#ClassName)"


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
        raise BotSpecError(f"bot class {parsed.kind!r} has no {needs} method")
    try:
        bot = cls(**parsed.options)
    except ArenaError as exc:  # its own "bot NAME: " prefix (base.coerce_params) gives way to the spec's
        detail = str(exc).removeprefix(f"bot {getattr(cls, 'name', parsed.kind)}: ")
        raise BotSpecError(f"bot {parsed.text!r}: {detail}") from None
    except TypeError as exc:
        raise BotSpecError(f"bot {parsed.text!r}: {exc}") from None
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
    if kind in _BUILTIN:
        cls = bot_class(kind)
        try:
            coerce_params(f"bot {getattr(cls, 'name', kind)}", getattr(cls, "PARAMS", {}), dict(spec.options))
        except ArenaError as exc:  # as ``make`` words it
            detail = str(exc).removeprefix(f"bot {getattr(cls, 'name', kind)}: ")
            raise BotSpecError(f"bot {spec.text!r}: {detail}") from None
        if game is not None:
            check_field([spec], game)
        return
    if any(c in kind for c in "#.:") or kind in _registry():
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


def assign_labels(specs: list[str]) -> list[BotSpec]:
    """Parse a tournament's specs and make labels unique: a repeat gets ``#2``, ``#3``...
    (``REPEAT_MARK``; a tournament stored with ``-2`` labels keeps them, ``legacy_repeat_label``).

    Raises:
        BotSpecError: a bad spec, or the same explicit label given twice.
    """
    parsed = [parse_spec(s) for s in specs]
    explicit = [p.label for p, s in zip(parsed, specs) if "=" in s.partition(":")[0]]
    dup = {lab for lab in explicit if explicit.count(lab) > 1}
    if dup:
        raise BotSpecError(f"bot label {sorted(dup)[0]!r} given twice; labels in one tournament must be unique")
    seen: dict[str, int] = {}
    out = []
    for p in parsed:
        n = seen.get(p.label, 0) + 1
        seen[p.label] = n
        out.append(p if n == 1 else replace(p, label=f"{p.label}{REPEAT_MARK}{n}"))
    taken = [p.label for p in out]
    if len(set(taken)) != len(taken):
        raise BotSpecError(f"bot labels clash after numbering repeats: {', '.join(taken)}; give explicit LABEL=")
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
            raise BotSpecError(f"bot {(spec.text or spec.kind)!r} cannot play {game.name}: {spec.kind} {why}")

"""The bot kinds a spec may name, and the class each stands for (split from ``bots.registry``,
which re-exports ``register``, ``names``, ``bot_class``...): the built-in kinds, those given to
``register`` in this process, the ``arena.bots`` and ``arena.bot_prefixes`` entry points, dotted
paths and bot files (``path/to/file.py#ClassName``). ``bots.registry`` parses the specs and makes
the bots.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from arena.errors import BotSpecError

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
    "human": "bots.human:Human",
}

#: The kinds of the ``arena`` distribution's own ``arena.bots`` entry points (``pyproject.toml``),
#: known also when the installed metadata predates them (an editable install not reinstalled)
_OWN_ENTRY_POINTS: dict[str, str] = {"llm": "arena.llm.bot:LLMBot"}

#: Entry-point group of bot kinds: ``name = "module:Class"``.
GROUP = "arena.bots"
#: Entry-point group of prefix kinds: ``prefix = "module:factory"``, ``factory(argument) -> class``.
PREFIX_GROUP = "arena.bot_prefixes"

#: Kinds given to ``register``: kind -> class or ``"module:Class"``.
_REGISTERED: dict[str, type | str] = {}
#: Prefix kinds given to ``register(..., prefix=True)``: prefix -> factory or ``"module:factory"``.
_REGISTERED_PREFIXES: dict[str, Callable[[str], type] | str] = {}
_KIND = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_+-]*$")

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
        raise BotSpecError(f"bad bot kind {kind!r} to register; kinds use ASCII letters, digits and _ + -")
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


def registry() -> dict[str, type | str]:
    """Kind -> class or ``"module:attr"``: the built-ins, then ``register``'s, then the
    ``arena.bots`` entry points (an earlier name wins). ``bot_class`` looks a built-in kind up
    without scanning the installed distributions."""
    found: dict[str, type | str] = {**_BUILTIN}
    for table in (_REGISTERED, _entry_points(GROUP), _OWN_ENTRY_POINTS):
        for name, target in table.items():
            found.setdefault(name, target)
    return found


def prefixes() -> dict[str, Callable[[str], type] | str]:
    """Prefix kind -> factory or ``"module:factory"``: ``register``'s, then the
    ``arena.bot_prefixes`` entry points."""
    found: dict[str, Callable[[str], type] | str] = dict(_REGISTERED_PREFIXES)
    for name, target in _entry_points(PREFIX_GROUP).items():
        found.setdefault(name, target)
    return found


def prefix_of(kind: str) -> str | None:
    """The registered prefix kind of ``kind`` (``exec`` of ``exec:./engine``), or None."""
    head, colon, _ = kind.partition(":")
    return head if colon and head not in _BUILTIN and head in prefixes() else None


def builtin(kind: str) -> bool:
    """Whether ``kind`` is a built-in bot kind (``random``, ``alphabeta``...; not a registered,
    installed or file kind)."""
    return kind in _BUILTIN


def names() -> list[str]:
    """Registered bot kinds, sorted (prefix kinds are in ``prefix_kinds``)."""
    return sorted(registry())


def prefix_kinds() -> list[str]:
    """Registered prefix kinds, sorted (``exec`` once the arena is installed): the spec is
    ``PREFIX:ARGUMENT[:key=value,...]``."""
    return sorted(prefixes())


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
        return _load(prefixes()[prefix])(kind[len(prefix) + 1:])
    target = _BUILTIN.get(kind) or registry().get(kind)
    if target is not None:
        return _load(target)
    if "#" in kind:
        return _load_file_class(kind)
    if kind.endswith(".py"):  # "mybot.py": a file, not a dotted path ending in class "py"
        missing = "" if _is_file(Path(kind)) else " (and no such file)"
        raise BotSpecError(f"bot file {kind!r} needs a class: give it as {kind}#ClassName{missing}; "
                           "expected path/to/file.py#ClassName")
    if _is_file(Path(kind)):  # "./engine.sh": a program, served over the engine protocol
        raise BotSpecError(f"{kind!r} is a program: give an engine as exec:{kind}")
    if "/" in kind or kind.startswith("."):  # a path, never a dotted path
        raise BotSpecError(f"no file {kind!r}; accepted: a program as exec:PATH, a bot file as "
                           "path/to/file.py#ClassName")
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

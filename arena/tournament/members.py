"""Bot identity and versions: who a tournament's members are, and when one changed
(``docs/tournaments.md`` "Bot versions and growing fields").

A member of a tournament is a bot label plus a **version**. A version is the bot's spec
(kind and options, the options in sorted order: their order in the spec does not matter) and
a digest of its code:

- a built-in bot (``random``, ``alphabeta``...): the arena's version;
- a bot file (``path/to/file.py#Class``): the digest of its parsed code (comments, formatting
  and docstrings left out) and of each module it imports from beside it
  (``arena.tournament.bot_code``); a store written when this was the SHA-256 of the file's bytes
  alone keeps its versions: a stored digest of that older scheme for the same bytes is the same
  version, its row brought up to date (``Identity.legacy``);
- an installed bot (``package.module.Class``, an ``arena.bots`` entry point, a kind given to
  ``bots.register``): its module file's SHA-256 and its distribution's name and version, read
  in the field check's child process (``arena.tournament.field_check``), never in the runner;
- an engine (``exec:COMMAND``): the SHA-256 of every file its command names (the executable,
  and a script given to an interpreter) and the ``id name`` it told at its probe.

The first version of bot ``me`` is stored as ``me``; a later one as ``me@2``, ``me@3``... The
games a version played are stored under its label, so a report shows each version as a bot of
its own. ``resolve`` decides, from the stored members and today's field, which version each bot
is now: a stored one with the same digest, or a new one (with a one-line note). A member stored
before versions existed (no digest) takes today's version on first use, with a note.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import arena
from arena.errors import BotSpecError
from arena.results.store import Member
from arena.tournament.bot_code import file_code
from bots.registry import BotSpec, builtin, prefix_of

#: the label of version ``n`` of bot ``base``: ``base`` for the first, ``base@n`` after
VERSION_MARK = "@"


def version_label(base: str, version: int) -> str:
    """The stored label of version ``version`` (1-based) of the bot labelled ``base``."""
    return base if version <= 1 else f"{base}{VERSION_MARK}{version}"


def canonical_spec(spec: BotSpec) -> str:
    """``KIND[:key=value,...]`` with the options sorted by key (the label left out; a bot's own
    game clock ``tc=`` among them); a bot file by its file name only (``./mybot.py``,
    ``mybot.py`` and ``/home/me/mybot.py`` are one bot: its code is told apart by its digest,
    not by how its path was spelled)."""
    given = {**spec.options, **({"tc": spec.tc} if spec.tc is not None else {})}
    options = ",".join(f"{k}={v}" for k, v in sorted(given.items()))
    kind = spec.kind
    if "#" in kind and not (":" in kind and prefix_of(kind)):  # a bot file: by its name (see below)
        path, _, cls = kind.partition("#")
        kind = f"{os.path.basename(path)}#{cls}"
    return kind + (f":{options}" if options else "")


def file_digest(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 (hex) of a file's bytes, or ``None`` if it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None


def module_code(cls: type) -> dict[str, Any]:
    """The code identity of an installed bot class (run where the class is imported: the field
    check's child): ``module``, its file's ``sha256`` and ``distribution`` (``name version``)
    when the module belongs to one."""
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    out: dict[str, Any] = {"module": cls.__module__}
    if path:
        out["sha256"] = file_digest(path)
    top = cls.__module__.partition(".")[0]
    try:
        dists = importlib.metadata.packages_distributions().get(top) or []
        if dists:
            out["distribution"] = f"{dists[0]} {importlib.metadata.version(dists[0])}"
    except (importlib.metadata.PackageNotFoundError, OSError, ValueError):
        pass
    return out


def engine_code(command: str) -> dict[str, Any]:
    """The files an ``exec:COMMAND`` names, each with its SHA-256: the executable (found on
    ``PATH`` when it has no ``/``) and every argument that is an existing file (a script).

    Raises:
        BotSpecError: a badly quoted command (``arena.engine.argv.engine_argv``).
    """
    from arena.engine.argv import engine_argv
    argv = engine_argv(command)
    files: dict[str, str | None] = {}
    first = argv[0] if os.sep in argv[0] else (shutil.which(argv[0]) or argv[0])
    for word in (first, *argv[1:]):
        if os.path.isfile(word):
            files[os.path.abspath(word)] = file_digest(word)
    return {"files": files}


@dataclass(frozen=True)
class Identity:
    """What makes one version of a bot.

    Attributes:
        spec: ``canonical_spec``.
        code: what of its code was digested (JSON values; see the module doc).
        digest: 16 hex digits of the BLAKE2b digest of ``spec`` and ``code``.
        source: a few words naming the code (``mybot.py``, ``arena 0.1.0``, ``engine ./eng``).
        legacy: the digests an older scheme gave this same code (a bot file's by its bytes):
            a stored version with one of them is this version.
        unfollowed: what of a bot file's imports its digest cannot follow (``mybot.py:12
            import_module``), for a note.
    """

    spec: str
    code: dict[str, Any]
    digest: str
    source: str
    legacy: tuple[str, ...] = ()
    unfollowed: tuple[str, ...] = ()


def _digest(spec: str, code: dict[str, Any]) -> str:
    """16 hex digits of the BLAKE2b digest of a canonical spec and its code."""
    text = json.dumps({"spec": spec, "code": code}, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _file_identity(spec: BotSpec) -> Identity:
    """The identity of a bot file: its parsed code and the modules it imports from beside it
    (``bot_code.file_code``); the SHA-256 of its bytes when it does not parse, ``None`` when it
    cannot be read. ``legacy``: the digest of the scheme before, the file's bytes alone."""
    path = spec.kind.partition("#")[0]
    found = file_code(path)
    canonical = canonical_spec(spec)
    code: dict[str, Any]
    if found is None or not found.parsed:
        code = {"sha256": None if found is None else found.digest}
    else:
        code = {"parsed": found.digest, **({"beside": found.modules} if found.modules else {})}
    old = _digest(canonical, {"sha256": file_digest(path)})
    digest = _digest(canonical, code)
    return Identity(canonical, code, digest, path, () if old == digest else (old,),
                    tuple(found.unfollowed) if found is not None else ())


def identify(spec: BotSpec, facts: dict[str, Any] | None = None) -> Identity:
    """The identity of ``spec`` as it is now. ``facts``: what the field check's child told of it
    (``code`` of an installed class, ``id_name`` of an engine).

    Raises:
        BotSpecError: an engine command that cannot be split.
    """
    facts = facts or {}
    kind = spec.kind
    prefix = prefix_of(kind) if ":" in kind else None
    if builtin(kind):
        code: dict[str, Any] = {"arena": arena.__version__}
        source = f"arena {arena.__version__}"
    elif prefix == "exec":
        code = engine_code(kind[len("exec:"):])
        if facts.get("id_name"):
            code["id_name"] = facts["id_name"]
        source = f"engine {kind[len('exec:'):]}"
    elif prefix is None and "#" in kind:
        return _file_identity(spec)
    else:
        code = dict(facts.get("code") or {})
        source = code.get("distribution") or code.get("module") or kind
    return Identity(canonical_spec(spec), code, _digest(canonical_spec(spec), code), source)


@dataclass
class Resolution:
    """Which stored version each bot of today's field is (``resolve``).

    Attributes:
        labels: the field's label -> the label of its version now (field order).
        new: versions to store (new bots, new versions of stored bots).
        adopted: stored members given today's identity: members stored before versions (as
            their first), and versions stored with an older digest scheme of the same code.
        notes: one line each for the user (a changed bot, adopted versions).
    """

    labels: dict[str, str] = field(default_factory=dict)
    new: list[Member] = field(default_factory=list)
    adopted: list[Member] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def resolve(stored: Sequence[Member], field_: Sequence[tuple[BotSpec, Identity]], games: Counter[str],
            id_names: dict[str, str] | None = None) -> Resolution:
    """The version of each bot of today's field.

    Args:
        stored: the stored members (``Store.members``), any order.
        field_: today's field: each spec (its label the bot's) with its ``Identity``.
        games: stored games per label (a version's games, for the notes).
        id_names: label -> an engine's ``id name`` (stored with a new member).

    Returns:
        A stored version with the same digest is that version again; a bot stored before
        versions, given as the same spec text, takes today's identity (``adopted``); any other
        change is a new version ``base@n`` (``new``), as is a bot never stored (version 1).
    """
    out, id_names = Resolution(), id_names or {}
    taken = {m.label for m in stored}
    position = max((m.position for m in stored), default=-1) + 1
    adopted: list[str] = []
    for spec, ident in field_:
        base = spec.label
        versions = sorted((m for m in stored if m.base == base), key=lambda m: (m.version or 1, m.position))
        if ident.unfollowed:
            out.notes.append(f"bot {base!r} ({ident.source}) imports modules its version cannot follow "
                             f"({', '.join(ident.unfollowed[:3])}): edits to those keep its version; "
                             "give it another label to play it again")
        same = next((m for m in versions if m.digest == ident.digest), None)
        if same is None:  # stored with an older scheme's digest of this same code: brought up to date
            same = next((m for m in versions if m.digest is not None and m.digest in ident.legacy), None)
            if same is not None:
                out.adopted.append(replace(same, digest=ident.digest, code=ident.code))
        legacy = [m for m in versions if m.digest is None]
        if same is not None:
            out.labels[base] = same.label
            if same is not versions[-1]:
                out.notes.append(f"bot {base!r} is its version {same.label} again ({ident.source}): "
                                 f"its {games[same.label]} stored games count")
            continue
        if legacy and legacy[-1] is versions[-1] and _canonical_text(legacy[-1].spec) == ident.spec:
            old = legacy[-1]
            out.adopted.append(Member(old.position, old.label, old.spec, base, 1, ident.digest, ident.code,
                                      old.id_name or id_names.get(base)))
            out.labels[base] = old.label
            adopted.append(f"{old.label} ({ident.source})")
            continue
        number = max((m.version or 1 for m in versions), default=0) + 1
        label = version_label(base, number)
        while label in taken:  # a label of another bot that looks like a version (exec:x@2)
            number += 1
            label = version_label(base, number)
        taken.add(label)
        out.new.append(Member(position, label, spec.text, base, number, ident.digest, ident.code, id_names.get(base)))
        position += 1
        out.labels[base] = label
        if versions:
            last = versions[-1]
            out.notes.append(f"bot {base!r} changed since its {games[last.label]} stored games "
                             f"({_what_changed(last, spec, ident)}): playing them again as {label}")
    if adopted:
        out.notes.append("stored before bot versions: " + ", ".join(adopted) + " taken as version 1 "
                         "(the code as it is now)")
    return out


def _what_changed(old: Member, spec: BotSpec, new: Identity) -> str:
    """A few words on how ``new`` differs from the stored version ``old``."""
    if _canonical_text(old.spec) != new.spec:
        return f"{old.spec} -> {spec.text}"
    before = old.code or {}
    if "arena" in new.code and before.get("arena") != new.code["arena"]:
        return f"arena {before.get('arena', '?')} -> {new.code['arena']}"
    if "id_name" in new.code and before.get("id_name") != new.code.get("id_name"):
        return f"id name {before.get('id_name')!r} -> {new.code['id_name']!r}"
    if "files" in new.code:
        changed = [os.path.basename(p) for p, d in new.code["files"].items() if (before.get("files") or {}).get(p) != d]
        return f"{', '.join(changed) or 'engine files'} changed"
    if "parsed" in new.code and "parsed" in before:  # a bot file: it, or the modules beside it
        was, now = before.get("beside") or {}, new.code.get("beside") or {}
        changed = [new.source] * (before["parsed"] != new.code["parsed"])
        changed += [name for name in sorted({*was, *now}) if was.get(name) != now.get(name)]
        return ", ".join(changed) or new.source
    return new.source


def _canonical_text(text: str) -> str:
    """``canonical_spec`` of a spec text, or the text if it does not parse."""
    from bots.registry import parse_spec
    try:
        return canonical_spec(parse_spec(text))
    except BotSpecError:
        return text


def stored_counts(seats: Iterable[Sequence[str]]) -> Counter[str]:
    """Games per label, from each stored game's seats (a label counted once per game)."""
    counts: Counter[str] = Counter()
    for labels in seats:
        counts.update(set(labels))
    return counts

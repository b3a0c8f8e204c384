"""The field's check before a run (``planning.plan``): every bot can be made and can play the game.

In-process (``--isolation none``) each bot's class is imported, checked against the game
(``check_field``: ``PLAYS``) and made once with its options, in a forked child of the runner
that has ``LOAD_TIMEOUT`` seconds for each bot: a module import or a constructor that hangs is a
one-line ``BotSpecError`` naming the bot and the seconds, never a run that hangs for ever, and
what the bot's code does stays out of the runner's process. With ``--isolation process`` the
runner never imports nor makes a bot given as a file (``file.py#Class``): the start-up probe
of its confined engine does (``arena.engine.sandbox.check_isolated``); the built-in and
installed kinds are checked here as in-process ones.
"""

from __future__ import annotations

import json
import os
import select
import time

import arena.errors
from arena.engine.protocol import STARTUP_TIMEOUT
from arena.errors import ArenaError, BotSpecError
from arena.games import Game
from bots.registry import BotSpec, bot_class, builtin, check_field, make, prefix_of, with_each

#: seconds a bot's import and constructor may take in the field check (an engine's start-up time)
LOAD_TIMEOUT = STARTUP_TIMEOUT


def isolated_file(spec: BotSpec, isolation: str) -> bool:
    """Whether ``spec`` is a bot file that only its confined engine may import (``--isolation
    process`` and a ``file.py#Class`` kind)."""
    return isolation == "process" and "#" in spec.kind and not spec.kind.startswith("exec:")


def check_bots(specs: list[BotSpec], game: Game, isolation: str,
               timeout: float | None = None, each: dict[str, str] | None = None) -> dict[str, dict[str, object]]:
    """Check the field in a child process: each bot not left to its engine (``isolated_file``)
    can play ``game`` and can be made (``timeout`` seconds each, import and constructor;
    ``None``: ``LOAD_TIMEOUT``), with the options of ``each`` it declares (``--each``).

    Returns:
        label -> what the child learnt of the bot: ``id_name``, the ``id name`` an engine bot
        (``exec:``) told at its probe; ``code``, an installed class's module identity
        (``arena.tournament.members.module_code``), for the bots that have them.

    Raises:
        BotSpecError: a bot that cannot be made, cannot play the game, or is not made within
            ``timeout`` seconds. ArenaError: another error of the arena's family the check raised
            (the same class, one line).
    """
    timeout = LOAD_TIMEOUT if timeout is None else timeout
    todo = [s for s in specs if not isolated_file(s, isolation)]
    if not todo:
        return {}
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        _child(todo, game, write, each)
    os.close(write)
    try:
        return _wait(todo, read, timeout)
    finally:
        os.close(read)
        try:
            os.kill(pid, 9)
        except OSError:
            pass
        os.waitpid(pid, 0)


def _child(specs: list[BotSpec], game: Game, out: int, each: dict[str, str] | None = None) -> None:
    """Check each spec; write ``ok [JSON]\\n`` after each (``_facts``), or ``error CLASS MESSAGE\\n``
    and stop."""
    from arena.engine.client import engine_refusal
    code = 0
    made = []  # kept until the child is killed: a bot whose __del__ blocks never holds up the check
    try:
        for spec in specs:
            try:
                check_field([spec], game)
                made.append(make(with_each(spec, bot_class(spec.kind), each)))  # as a worker makes it
                why = engine_refusal(made[-1], game)  # an engine of a protocol before views, in a hidden game
                if why is not None:
                    raise BotSpecError(f"bot {spec.text!r} cannot play {game.name}: {why}")
                facts = _facts(spec, made[-1])
                line = "ok" + (" " + json.dumps(facts) if facts else "")
            except ArenaError as exc:
                line = f"error {type(exc).__name__} {' '.join(str(exc).split())}"
            except Exception as exc:  # noqa: BLE001 - a broken constructor: the bot's error, one line
                line = f"error BotSpecError bot {spec.text!r} cannot be made: {type(exc).__name__}: " \
                       f"{' '.join(str(exc).split())}"
            os.write(out, (line + "\n").encode())
            if not line.startswith("ok"):
                break
    except BaseException:  # noqa: BLE001 - anything else: the parent sees the pipe end
        code = 1
    os._exit(code)


def _facts(spec: BotSpec, bot: object) -> dict[str, object]:
    """What the runner learns of a made bot: an engine's ``id name``; an installed (not built-in,
    not file, not prefix) class's module identity, with the bot's ``code_identity`` (a dict of
    what else its play depends on: ``arena.llm``'s prompt templates) when it has one."""
    from arena.tournament.members import module_code
    facts: dict[str, object] = {}
    name = getattr(bot, "id_name", None)
    if isinstance(name, str) and name.strip():
        facts["id_name"] = " ".join(name.split())
    if not builtin(spec.kind) and "#" not in spec.kind and not (":" in spec.kind and prefix_of(spec.kind)):
        code = module_code(type(bot))
        extra = getattr(bot, "code_identity", None)  # what else decides its play: an llm bot's prompt templates
        facts["code"] = {**code, **extra} if isinstance(extra, dict) else code
    return facts


def _wait(specs: list[BotSpec], read: int, timeout: float) -> dict[str, dict[str, object]]:
    """Read the child's lines, one bot at a time, each within ``timeout`` seconds; what the
    child learnt of each bot (``_facts``), by label."""
    buffer = b""
    names: dict[str, dict[str, object]] = {}
    for spec in specs:
        deadline = time.monotonic() + timeout
        while b"\n" not in buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                what = ("its engine's start-up: no aepok to aep; `arena engine check` tests the handshake"
                        if prefix_of(spec.kind) == "exec" else "its module import and constructor")
                raise BotSpecError(f"bot {spec.text!r} was not made within {timeout:g}s ({what})")
            chunk = os.read(read, 65536)
            if not chunk:
                raise BotSpecError(f"bot {spec.text!r} cannot be made: the process checking it ended")
            buffer += chunk
        line, _, buffer = buffer.partition(b"\n")
        text = line.decode("utf-8", "replace")
        if text == "ok" or text.startswith("ok "):
            if text[3:]:
                names[spec.label] = json.loads(text[3:])
            continue
        _, name, message = (text.split(" ", 2) + ["", ""])[:3]
        cls = getattr(arena.errors, name, None)
        raise (cls if isinstance(cls, type) and issubclass(cls, ArenaError) else BotSpecError)(message)
    return names

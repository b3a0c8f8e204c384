"""``--isolation process``: each Python bot as its own ``arena engine`` process, fenced in.

``docs/engine-protocol.md`` "Process rules". The child (set up in ``Sandbox.preexec``, run
between ``fork`` and ``exec``) gets its own session and process group (``start_new_session``),
hard ``RLIMIT_AS`` (the address space of the process starting it plus ``--memory-limit``
MiB: the same "MiB the bots may add" as in-process workers), hard ``RLIMIT_NPROC``
(``MAX_PROCESSES``) and ``RLIMIT_CORE`` 0 (soft = hard, so it cannot raise them); it dies with
its parent as every engine does (``PR_SET_PDEATHSIG``, set by ``arena.engine.process`` for all
of them, sandboxed or not). Its working directory is a private temporary directory. When the
arena runs as root, the server drops to ``UNPRIVILEGED_USER`` (``nobody``) after warming up (see
``arena.engine.server``): it can then neither write the results nor signal the runner. The
server also lowers its own hard ``RLIMIT_AS`` to its size after start-up plus ``--memory-limit``
MiB (``limit_address_space``) before it loads a bot file: the parent's size, used here, is only an
outer bound.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shlex
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from arena.errors import BotSpecError
from bots.registry import BotSpec

#: the user an isolated bot runs as when the arena runs as root
UNPRIVILEGED_USER = "nobody"
#: hard limit on the processes (and threads) of an isolated bot's user (RLIMIT_NPROC counts
#: per user: every isolated bot of the machine shares it when they run as ``nobody``)
MAX_PROCESSES = 256
class Isolation(StrEnum):
    """Where a tournament's Python bots run (``--isolation``; a ``str``: ``"process"`` compares equal)."""

    NONE = "none"
    """In the game worker's own process (fastest; a bot can reach the worker's objects)."""
    PROCESS = "process"
    """Each Python bot as its own sandboxed ``arena engine`` process (``isolate``, ``Sandbox``)."""


#: ``--isolation`` values, as the command line accepts them
ISOLATIONS = tuple(Isolation)


@dataclass(frozen=True)
class Sandbox:
    """How an isolated bot is fenced in.

    Attributes:
        memory_limit: MiB of address space it may add to a fresh arena process, or ``None``.
        max_processes: hard RLIMIT_NPROC.
    """

    memory_limit: int | None = None
    max_processes: int = MAX_PROCESSES

    def preexec(self) -> Callable[[], None]:
        """The function run in the child before ``exec``: the hard limits (the parent-death
        signal is ``arena.engine.process``'s, for every engine)."""
        base = _address_space()
        memory = None if self.memory_limit is None else base + self.memory_limit * 2**20
        nproc = self.max_processes

        def limit() -> None:  # between fork and exec: no imports, no allocation to speak of
            if memory is not None:
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        return limit

    def workdir(self) -> str:
        """A new private temporary directory (owned by the unprivileged user when root), named
        after this process; those of processes that have ended are removed first (a worker
        ends with ``os._exit`` and its engines die with it, leaving theirs)."""
        _sweep()
        path = tempfile.mkdtemp(prefix=f"arena-engine-{os.getpid()}-")
        if os.geteuid() == 0:
            uid, gid = _user_ids(UNPRIVILEGED_USER)
            os.chown(path, uid, gid)
        return path


PR_SET_PDEATHSIG = 1
_swept: set[int] = set()


def _sweep() -> None:
    """Remove the working directories left by processes that have ended (once per process)."""
    if os.getpid() in _swept:
        return
    _swept.add(os.getpid())
    sweep_ended()


def sweep_ended() -> None:
    """Remove every ``arena-engine-PID-*`` working directory whose starting process ``PID`` has
    ended (a worker killed, or ended by ``os._exit``, with engines still running)."""
    for path in Path(tempfile.gettempdir()).glob("arena-engine-*-*"):
        try:
            os.kill(int(path.name.split("-")[2]), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except (ValueError, PermissionError, IndexError):
            pass


def prctl_function():
    """libc's ``prctl`` (ctypes), or ``None`` where there is none."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies (``PR_SET_PDEATHSIG``)."""
    prctl = prctl_function()
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _address_space() -> int:
    """This process's address space, bytes (``/proc/self/statm``; 0 where unknown)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _user_ids(name: str) -> tuple[int, int]:
    import pwd
    entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid


def drop_privileges(name: str) -> None:
    """Become user ``name`` for good (groups, gid, uid), then re-arm the parent-death signal
    (the kernel clears it on a change of credentials).

    Raises:
        KeyError: no such user. PermissionError: not root.
    """
    uid, gid = _user_ids(name)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    die_with_parent()


def engine_command(spec: BotSpec, memory_limit: int | None = None) -> list[str]:
    """The command serving ``spec`` confined (``python -m arena.engine``): ``--user nobody``
    when the arena runs as root, ``--memory MIB`` the MiB the bot may add."""
    text = spec.kind + (":" + ",".join(f"{k}={v}" for k, v in spec.options.items()) if spec.options else "")
    user = ["--user", UNPRIVILEGED_USER] if os.geteuid() == 0 else []
    memory = ["--memory", str(int(memory_limit))] if memory_limit is not None else []
    return [sys.executable, "-m", "arena.engine", *user, *memory, text]


def limit_address_space(mib: int) -> None:
    """Cap this process's address space, hard, at its size now plus ``mib`` MiB."""
    limit = _address_space() + mib * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def isolate(specs: dict[str, BotSpec], isolation: str, memory_limit: int | None) -> dict[str, BotSpec]:
    """The specs a worker plays: with ``isolation`` ``Isolation.PROCESS`` (or its string), every
    Python bot replaced by an engine spec running it sandboxed (``exec:`` bots are external
    already); labels kept."""
    if isolation != Isolation.PROCESS:
        return specs
    out = {}
    for label, spec in specs.items():
        if spec.kind.startswith("exec:"):
            out[label] = spec
            continue
        options = {"_isolation": "process"}
        if memory_limit is not None:
            options["_memory_limit"] = str(int(memory_limit))
        spec = _absolute(spec)  # the engine runs in a private directory: a relative file is lost there
        out[label] = BotSpec(label, "exec:" + shlex.join(engine_command(spec, memory_limit)), options, spec.text)
    return out


def _absolute(spec: BotSpec) -> BotSpec:
    """``spec`` with the file of a ``path/to/file.py#Class`` kind made absolute (relative to
    the current directory); any other kind unchanged."""
    path, sep, cls = spec.kind.partition("#")
    if not sep or not path.endswith(".py"):
        return spec
    return BotSpec(spec.label, os.path.abspath(path) + sep + cls, spec.options, spec.text)


def check_isolated(specs: dict[str, BotSpec], isolated: dict[str, BotSpec], game, seed: int = 0) -> None:
    """Start every isolated bot of ``isolated`` once, up to its first ``newgame`` of ``game``
    (where its engine loads the bot, confined), then quit it: a bot that cannot be loaded there
    is a spec error before any game, as an ``exec:`` engine that cannot start
    (``bots.registry.make``). ``specs``: the specs before ``isolate`` (for the message).

    Raises:
        BotSpecError: an engine that does not start, or whose bot cannot be loaded or made.
    """
    from bots.registry import make
    for label, spec in isolated.items():
        if spec is specs.get(label) or not spec.options.get("_isolation"):
            continue  # an exec: engine: probed by the plan already
        bot = make(spec)
        try:
            bot.reset(game, 0, seed)
            if bot.fault is not None:
                detail = bot.fault[1].removeprefix("BotSpecError: ")
                raise BotSpecError(f"bot {specs[label].text!r} cannot be loaded in its isolated engine process "
                                   f"(--isolation process): {detail}")
        finally:
            bot.close()

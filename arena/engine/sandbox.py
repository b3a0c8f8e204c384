"""``--isolation process``: each Python bot as its own ``arena engine`` process, fenced in.

``docs/engine-protocol.md`` "Process rules". The child (set up in ``Sandbox.preexec``, run
between ``fork`` and ``exec``) gets its own session and process group (``start_new_session``),
hard ``RLIMIT_AS`` (the address space of the process starting it plus ``--memory-limit``
MiB: the same "MiB the bots may add" as in-process workers), hard ``RLIMIT_NPROC``
(``MAX_PROCESSES``), ``RLIMIT_FSIZE`` (``TMP_BYTES`` per file) and ``RLIMIT_CORE`` 0 (soft =
hard, so it cannot raise them); it joins the run's cgroup (``arena.reaper``) and dies with its
parent as every engine does (``PR_SET_PDEATHSIG``, set by ``arena.engine.process``).

Each start is a ``Cell``: a private directory (0700) and, when the arena runs as root, a user of
its own (``arena.engine.users``: a uid no account or other engine has) that owns it. The engine
then has a mount namespace whose ``/tmp`` is a tmpfs of ``TMP_BYTES`` (its working directory
and ``TMPDIR``; other engines' directories are not visible in it) and the server drops to that
user after warming up (``arena.engine.server``): it can neither write the results, signal or
trace the runner or another bot, nor read another bot's files. When the engine is killed, every
process of its user goes with it (``kill_user``), the uid is given back and the directory
removed. Not root: no user of its own, no namespace; ``TMPDIR`` is the cell's ``tmp`` directory
and only ``RLIMIT_FSIZE`` caps it (per file: the number of files, hence the total, is not
capped). The server also lowers its own hard ``RLIMIT_AS`` to its size after start-up plus
``--memory-limit`` MiB (``limit_address_space``) before it loads a bot file: the parent's size,
used here, is only an outer bound.
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
from typing import Any
from dataclasses import dataclass, replace
from enum import StrEnum

from arena import reaper
from arena.engine.process import PR_SET_PDEATHSIG, prctl_function
from arena.engine.users import DynamicUser, claim, kill_user
from arena.errors import BotSpecError
from bots.registry import BotSpec
from arena.reaper import sweep_ended  # noqa: F401 (re-exported: its home before arena.reaper)
from arena.watchdog import ENGINE_DIR_PREFIX

#: the ``--user`` argument of an isolated engine's command when the arena runs as root: replaced,
#: at each start, by the ``UID:GID`` of a user of its own (``arena.engine.users``)
DYNAMIC_USER = "dynamic"
#: hard limit on the processes (and threads) of an isolated bot's user (``RLIMIT_NPROC``,
#: counted per user: as root each engine has a user of its own, so the limit is its own)
MAX_PROCESSES = 256
#: bytes an isolated bot may write to one file (hard ``RLIMIT_FSIZE``; a longer write fails
#: with ``EFBIG``) and the size of its private ``/tmp`` (a tmpfs, when it has one)
TMP_BYTES = 64 * 2**20
#: mount(2) and unshare(2) flags (linux/mount.h, linux/sched.h)
_CLONE_NEWNS, _MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REMOUNT, _MS_BIND = 0x20000, 1, 2, 4, 32, 4096
_MS_REC, _MS_PRIVATE = 16384, 1 << 18


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

    def cell(self) -> Cell:
        """A new private directory for one engine process (``workdir``) and, as root, a user of
        its own (``arena.engine.users.claim``) owning it.

        Raises:
            NoFreeUser: every uid of the range is taken.
        """
        user = claim() if os.geteuid() == 0 else None
        try:
            return Cell(user, self.workdir(user))
        except BaseException:
            if user is not None:
                user.release()
            raise

    def command(self, command: list[str], cell: Cell) -> list[str]:
        """``command`` with its ``--user DYNAMIC_USER`` made the cell's ``UID:GID``."""
        if cell.user is None or DYNAMIC_USER not in command:
            return list(command)
        return [f"{cell.user.uid}:{cell.user.gid}" if arg == DYNAMIC_USER else arg for arg in command]

    def preexec(self, cell: Cell | None = None, command: list[str] | None = None) -> Callable[[], None]:
        """The function run in the child before ``exec``: the hard limits (``RLIMIT_AS``,
        ``RLIMIT_NPROC``, ``RLIMIT_CORE`` 0, ``RLIMIT_FSIZE`` ``TMP_BYTES``), the run's cgroup
        (``arena.reaper.join``), and the cell's private directory: with a user of its own, a
        mount namespace where it is a tmpfs of ``TMP_BYTES`` owned by that user, mounted on the
        cell's directory (the working directory) and on ``/tmp`` (``TMPDIR=/tmp``), gone with
        the engine's last process; the directory of a bot file of ``command`` under ``/tmp`` is
        mounted back in it, read-only. When the engine's Python, its installation or the arena's
        code lie under ``/tmp`` (``_runs_from_tmp``: a checkout or a virtual environment there),
        ``/tmp`` stays the machine's and ``TMPDIR`` is the private tmpfs. Else, or where the
        namespace cannot be made, ``TMPDIR`` is the cell's ``tmp`` directory (the parent-death
        signal is ``arena.engine.process``'s)."""
        base = _address_space()
        memory = None if self.memory_limit is None else base + self.memory_limit * 2**20
        nproc, group, libc = self.max_processes, reaper.cgroup(), _libc()
        user = None if cell is None else cell.user
        mounts = None
        if cell is not None and user is not None and libc is not None:
            options = f"size={TMP_BYTES},nr_inodes=4096,mode=0700,uid={user.uid},gid={user.gid}".encode()
            mounts = _Mounts(libc, options, cell.workdir.encode(), _bot_dir(command or []),
                             not _runs_from_tmp(command or []))
        fallback = None if cell is None else os.path.join(cell.workdir, "tmp")

        def limit() -> None:  # between fork and exec: no imports, no allocation to speak of
            if memory is not None:
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (TMP_BYTES, TMP_BYTES))
            reaper.join(group)
            if mounts is not None and mounts.make():
                os.putenv("TMPDIR", "/tmp" if mounts.hide_tmp else os.fsdecode(mounts.workdir))
            elif fallback is not None:
                os.putenv("TMPDIR", fallback)
        return limit

    def workdir(self, user: DynamicUser | None = None) -> str:
        """A new private directory (mode 0700, with a ``tmp`` directory inside, both owned by
        ``user`` when given), named after this process; those of processes that have ended are
        removed first (a worker ends with ``os._exit`` and its engines die with it, leaving
        theirs)."""
        _sweep()
        path = tempfile.mkdtemp(prefix=f"{ENGINE_DIR_PREFIX}{os.getpid()}-")
        os.mkdir(os.path.join(path, "tmp"), 0o700)
        if user is not None:
            for part in (path, os.path.join(path, "tmp")):
                os.chown(part, user.uid, user.gid)
        return path


@dataclass
class Cell:
    """What one isolated engine process owns: its user (``None`` when the arena is not root)
    and private directory. ``release`` (when the engine is killed) kills every process of the
    user, gives the uid back and removes the directory."""

    user: DynamicUser | None
    workdir: str

    def release(self) -> None:
        """Kill the user's processes (``kill_user``), free the uid, remove the directory. Idempotent."""
        if self.user is not None and self.user.fd >= 0:
            kill_user(self.user.uid)
            self.user.release()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _libc() -> Any:
    """libc (ctypes), or ``None`` where there is none."""
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _bot_dir(command: list[str]) -> bytes | None:
    """What of the bot file (``/abs/file.py#Class``) an engine command serves its private
    ``/tmp`` would hide: its directory when under ``/tmp``, the file alone when right in
    ``/tmp``; else ``None``."""
    path = command[-1].partition("#")[0] if command and "#" in command[-1] else ""
    if not path.endswith(".py") or not path.startswith("/tmp/"):
        return None
    folder = os.path.dirname(path)
    return (path if folder == "/tmp" else folder).encode()


def _runs_from_tmp(command: list[str]) -> bool:
    """Whether what an engine needs to start lies under ``/tmp``, which its private tmpfs would
    hide: the program of ``command``, this Python's installation (``sys.prefix``,
    ``sys.base_prefix``), an entry of ``sys.path`` (the arena's code among them)."""
    paths = [shutil.which(command[0]) or command[0]] if command else []
    paths += [sys.prefix, sys.base_prefix, *(p for p in sys.path if p)]
    for path in paths:
        real = os.path.realpath(path)
        if real == "/tmp" or real.startswith("/tmp/"):
            return True
    return False


@dataclass(frozen=True)
class _Mounts:
    """The private directory of an engine as its own mount namespace (``Sandbox.preexec``)."""

    libc: Any
    options: bytes
    workdir: bytes
    keep: bytes | None
    #: bind the tmpfs on ``/tmp`` too (else ``/tmp`` stays the machine's: ``_runs_from_tmp``)
    hide_tmp: bool = True

    def make(self) -> bool:
        """In a child about to ``exec``, as root: a new mount namespace, a tmpfs (``options``:
        size, owner, mode) on ``workdir`` (made the working directory) and bound on ``/tmp``,
        and ``keep`` bound back at its path, read-only. Whether it worked."""
        libc = self.libc
        if libc.unshare(_CLONE_NEWNS) != 0 or libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
            return False
        keep = os.open(self.keep, os.O_PATH) if self.keep is not None else -1
        try:
            if libc.mount(b"tmpfs", self.workdir, b"tmpfs", _MS_NOSUID | _MS_NODEV, self.options) != 0:
                return False
            os.chdir(self.workdir)  # the tmpfs (the directory under it is hidden from here on)
            if not self.hide_tmp:
                return True
            if libc.mount(b".", b"/tmp", None, _MS_BIND, None) != 0:
                return False
            if self.keep is not None:
                if os.path.isdir(b"/proc/self/fd/%d" % keep):
                    os.makedirs(self.keep, 0o755, exist_ok=True)
                else:  # a file right in /tmp: bound alone
                    os.close(os.open(self.keep, os.O_WRONLY | os.O_CREAT, 0o644))
                source = b"/proc/self/fd/%d" % keep
                if (libc.mount(source, self.keep, None, _MS_BIND | _MS_REC, None) != 0
                        or libc.mount(None, self.keep, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY, None) != 0):
                    return False
            return True
        finally:
            if keep >= 0:
                os.close(keep)


_swept: set[int] = set()


def _sweep() -> None:
    """Remove the working directories left by processes that have ended (once per process)."""
    if os.getpid() in _swept:
        return
    _swept.add(os.getpid())
    reaper.sweep_ended()


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
    """``UID:GID`` as numbers, or the ids of the account ``name``.

    Raises:
        KeyError: no such account.
    """
    uid, colon, gid = name.partition(":")
    if colon and uid.isdecimal() and gid.isdecimal():
        return int(uid), int(gid)
    import pwd
    entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid


def drop_privileges(name: str) -> None:
    """Become user ``name`` (``UID:GID``, or an account's name) for good (groups, gid, uid),
    then re-arm the parent-death signal (the kernel clears it on a change of credentials).

    Raises:
        KeyError: no such account. PermissionError: not root.
    """
    uid, gid = _user_ids(name)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    die_with_parent()


def engine_command(spec: BotSpec, memory_limit: int | None = None) -> list[str]:
    """The command serving ``spec`` confined (``python -m arena.engine``): ``--user
    DYNAMIC_USER`` when the arena runs as root (each start gets a user of its own:
    ``Sandbox.command``), ``--memory MIB`` the MiB the bot may add."""
    text = spec.kind + (":" + ",".join(f"{k}={v}" for k, v in spec.options.items()) if spec.options else "")
    user = ["--user", DYNAMIC_USER] if os.geteuid() == 0 else []
    memory = ["--memory", str(int(memory_limit))] if memory_limit is not None else []
    return [sys.executable, "-m", "arena.engine", *user, *memory, text]


def limit_address_space(mib: int) -> None:
    """Cap this process's address space, hard, at its size now plus ``mib`` MiB."""
    limit = _address_space() + mib * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def isolate(specs: dict[str, BotSpec], isolation: str, memory_limit: int | None,
            each: dict[str, str] | None = None) -> dict[str, BotSpec]:
    """The specs a worker plays: with ``isolation`` ``Isolation.PROCESS`` (or its string), every
    Python bot replaced by an engine spec running it sandboxed (``exec:`` bots are external
    already); labels kept. ``each`` (``--each``): sent to an isolated bot's engine for the options
    it declares (``_each``)."""
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
        if each:
            options["_each"] = ";".join(f"{k}={v}" for k, v in each.items())
        spec = _absolute(spec)  # the engine runs in a private directory: a relative file is lost there
        out[label] = replace(spec, label=label, kind="exec:" + shlex.join(engine_command(spec, memory_limit)),
                             options=options)
    return out


def _absolute(spec: BotSpec) -> BotSpec:
    """``spec`` with the file of a ``path/to/file.py#Class`` kind made absolute (relative to
    the current directory); any other kind unchanged."""
    path, sep, cls = spec.kind.partition("#")
    if not sep or not path.endswith(".py"):
        return spec
    return replace(spec, kind=os.path.abspath(path) + sep + cls)


def check_isolated(specs: dict[str, BotSpec], isolated: dict[str, BotSpec], game: Any) -> None:
    """Load every isolated bot of ``isolated`` once, the way it will play ``game``: start its
    engine (confined: its own user and cell), send ``newgame`` (where the engine loads the bot
    file and makes the bot, after the privilege drop, and checks its options and ``PLAYS``) and
    ``isready``, then kill it. Only loading is checked (no ``seat``: a bot's ``reset`` runs in
    its games, where a slow one is a ``timeout`` loss), and in a game with hidden information one
    move from a view (``arena.engine.views.trial``): a bot that cannot play from a view sent over
    the protocol is refused before the first game. The runner never imports nor makes an
    isolated bot itself. ``specs``: the specs before ``isolate`` (for the message).

    Raises:
        BotSpecError: an engine that does not start, a bot that cannot be loaded or made there,
            or one that is not loaded within its engine's ``startup_timeout`` seconds.
    """
    from arena.engine.process import EngineClosed, LineTooLong, StartError
    from arena.engine.protocol import format_newgame
    from arena.engine.views import trial
    from bots.registry import make
    for label, spec in isolated.items():
        if spec is specs.get(label) or not spec.options.get("_isolation"):
            continue  # an exec: engine: probed by the plan already
        bot, text = make(spec), specs[label].text  # an engine client: no code of the bot runs here
        where = f"bot {text!r} cannot be loaded in its isolated engine process (--isolation process)"
        try:
            engine = bot._start()
        except (StartError, OSError) as exc:
            raise BotSpecError(f"{where}: {exc}") from None
        try:
            engine.send(format_newgame(game.name, dict(game.params)))
            engine.sync(bot.startup_timeout)
            why = trial(engine, game, bot.startup_timeout) if game.type.hidden_information else None
            if why is not None:  # one move from a view: a bot that samples states cannot play so
                raise BotSpecError(f"bot {text!r} cannot play {game.name} in its isolated engine process "
                                   f"(--isolation process): {why}")
        except StartError:
            raise BotSpecError(f"bot {text!r} was not loaded within {bot.startup_timeout:g}s (its module import "
                               f"and constructor, in its isolated engine process)") from None
        except (EngineClosed, LineTooLong) as exc:
            said = engine.last_info_string or f"its engine ended: {exc}"
            detail = said.removeprefix("fault ").removeprefix("exception ").removeprefix("BotSpecError: ")
            raise BotSpecError(f"{where}: {detail}") from None
        finally:
            engine.kill()

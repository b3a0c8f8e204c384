"""A user of its own for every isolated engine process (``--isolation process`` as root).

Like systemd's ``DynamicUser``: a uid (and the gid of the same number) is taken from a range no
account uses (``FIRST_UID`` to ``FIRST_UID + COUNT - 1``, below systemd's own dynamic range
61184-65519) for one engine process and given back when it ends. No ``/etc/passwd`` entry is
needed: ``setresuid``/``setresgid`` take any number. Two bots then never share a uid, so
neither can signal, ``ptrace`` or read the other's processes and private files, and
``RLIMIT_NPROC`` (counted per user) is each engine's own.

A claim is an ``flock`` on ``CLAIMS/<uid>`` (``CLAIMS``: a directory owned by root, mode 0700),
held by the process that started the engine: the kernel releases it when that process ends,
however it ends, so a killed worker's uids come free by themselves. A uid is skipped while
``pwd``/``grp`` know it or any process runs under it (a survivor of an earlier run).
"""

from __future__ import annotations

import errno
import fcntl
import grp
import os
import pwd
import random
import signal
import stat
from dataclasses import dataclass

#: the first uid (and gid) of the range, and how many it has
FIRST_UID, COUNT = 61000, 184
#: the directory of the claims (``/run`` when writable, else the temporary directory)
CLAIMS_NAME = "arena-users"


class NoFreeUser(OSError):
    """Every uid of the range is taken (more than ``COUNT`` isolated engines at once on the
    machine), or the claims directory is unsafe."""


@dataclass
class DynamicUser:
    """A claimed uid/gid pair, until ``release``.

    Attributes:
        uid: the user id. gid: the group id (the same number). fd: the claim's locked file.
    """

    uid: int
    gid: int
    fd: int

    def release(self) -> None:
        """Give the uid back (closes the claim's file, releasing its lock). Idempotent."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _claims_dir() -> str:
    """The claims directory, made if missing; it must be a real directory owned by root with
    mode 0700 (never one another user made first).

    Raises:
        NoFreeUser: it exists with another owner, mode or type.
    """
    import tempfile
    base = "/run" if os.access("/run", os.W_OK) else tempfile.gettempdir()
    path = os.path.join(base, CLAIMS_NAME)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or stat.S_IMODE(info.st_mode) != 0o700:
        raise NoFreeUser(errno.EPERM, f"unsafe claims directory {path} (must be root's, mode 0700)")
    return path


def _busy_uids() -> set[int]:
    """The uids of the range that some process runs under now (one ``/proc`` scan)."""
    busy: set[int] = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                uid = os.stat(f"/proc/{name}").st_uid
            except OSError:
                continue
            if FIRST_UID <= uid < FIRST_UID + COUNT:
                busy.add(uid)
    return busy


def _known(uid: int) -> bool:
    """Whether an account or group of the system has this number."""
    for lookup in (pwd.getpwuid, grp.getgrgid):
        try:
            lookup(uid)
            return True
        except KeyError:
            pass
    return False


def claim() -> DynamicUser:
    """Take a free uid of the range for one engine process (root only).

    Raises:
        NoFreeUser: none is free, or the claims directory is unsafe.
    """
    root, busy = _claims_dir(), _busy_uids()
    start = random.randrange(COUNT)  # concurrent claimers rarely try the same numbers
    for i in range(COUNT):
        uid = FIRST_UID + (start + i) % COUNT
        if uid in busy or _known(uid):
            continue
        fd = os.open(os.path.join(root, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return DynamicUser(uid, uid, fd)
    raise NoFreeUser(errno.EAGAIN, f"no free uid in {FIRST_UID}-{FIRST_UID + COUNT - 1} for an isolated engine")


def kill_user(uid: int) -> None:
    """SIGKILL every process running as ``uid`` (root only; a uid of the range, never an
    account's): a forked child becomes ``uid`` and sends ``kill(-1, SIGKILL)``, which the kernel
    delivers to every process of that user at once (a bot forking fast cannot slip out, as it
    could from a ``/proc`` scan), ``setsid`` ones and those in other sessions included."""
    if not FIRST_UID <= uid < FIRST_UID + COUNT:
        raise ValueError(f"uid {uid} is not a dynamic user's")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)

"""The temporary files of ``arena.results.writing.atomic_path`` (a report, an export or an
openings file is filled in ``.<name>.XXXXXXXX.tmp`` beside it, then renamed over it).

A writer holds an ``flock`` on its temporary file from the moment it makes it until it is done,
so a temporary file nobody holds is one whose writer is gone (killed with ``kill -9``, or the
machine stopped: the kernel drops a dead process's locks). ``make`` removes those of the same
target before it makes its own: a later report or export of the same file cleans what an
earlier, killed one left, and temporary files never pile up.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import stat
import tempfile
import time
from pathlib import Path

log = logging.getLogger("arena.results.temps")

#: seconds a temporary file nobody holds must be old before it is removed (a writer takes its
#: lock right after it makes the file: never within this)
STALE_AFTER = 5.0
#: the random part ``tempfile.mkstemp`` puts in a name
_RANDOM = r"[a-z0-9_]{8}"


def make(final: Path) -> tuple[Path, int]:
    """A new temporary file for ``final`` in its folder (``.<name>.XXXXXXXX.tmp``, mode 0600)
    and an fd holding its lock: close the fd when the file is renamed or removed. The stale
    temporary files of ``final`` are removed first (``sweep``).

    Raises:
        OSError: the folder cannot be written.
    """
    sweep(final)
    fd, name = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
    with contextlib.suppress(OSError):  # a file system without locks: no sweep can lock it either
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else holds it
    return Path(name), fd


def sweep(final: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files of ``final`` whose writer is gone: regular files named as
    ``make`` names them, held by no process, last written more than ``STALE_AFTER`` seconds
    before ``now`` (``time.time()``). Returns those removed. Never raises: one that cannot be
    removed is logged and left."""
    pattern = re.compile(re.escape(f".{final.name}.") + _RANDOM + re.escape(".tmp"))
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(final.parent or ".") if pattern.fullmatch(n)]
    except OSError:
        return removed
    clock = time.time() if now is None else now
    for name in names:
        path = final.parent / name
        try:
            if _remove_if_stale(path, clock):
                removed.append(path)
        except OSError as exc:
            log.warning("could not remove the stale temporary file %s: %s", path, exc)
    return removed


def _remove_if_stale(path: Path, now: float) -> bool:
    """Remove ``path`` if its writer is gone (``sweep``); whether it was removed.

    Raises:
        OSError: it cannot be opened or removed.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return False  # its writer renamed or removed it meanwhile
    try:
        held = os.fstat(fd)
        if not stat.S_ISREG(held.st_mode) or now - held.st_mtime <= STALE_AFTER:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # its writer is alive (or the file system has no locks: nothing is known)
            return False
        with contextlib.suppress(FileNotFoundError):
            current = os.stat(path, follow_symlinks=False)
            if (current.st_dev, current.st_ino) == (held.st_dev, held.st_ino):
                path.unlink()
                return True
        return False
    finally:
        os.close(fd)

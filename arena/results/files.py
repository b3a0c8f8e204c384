"""A tournament's files under a results directory: where they are, their mode, their removal.

``db_path`` and ``resolve`` find a tournament's database (``<results>/<name>.sqlite``; by
name or by path); ``make_private`` gives the database, its ``-wal``/``-shm``, the run lock and
the log ``PRIVATE_MODE`` (the runner's alone); ``remove_db`` deletes a database and its WAL
files. ``open_lock`` and ``still_locked`` open a run lock file and check, once it is locked,
that it is still the file at its path (a refused run removes the lock file it created:
``Store.abandon``); ``missing_dirs`` and ``remove_dirs`` undo the folders a run created;
``Made``, ``give_up``, ``unmake`` and ``remove_empty`` leave nothing new behind a refused
``Store.open`` or run.
``arena.results.store.Store`` opens, locks and writes them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ResultsError

log = logging.getLogger("arena.results.store")


def db_path(name: str, results: str | os.PathLike = "results") -> Path:
    """``<results>/<name>.sqlite``."""
    return Path(results) / f"{name}.sqlite"


#: what a file that is not a regular file is, by its ``stat`` type test
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def not_regular(path: str | os.PathLike) -> str | None:
    """What ``path`` is when it is there but no regular file (a symbolic link followed):
    ``"a directory"``, ``"a named pipe (FIFO)"``, ``"a socket"``...; ``None`` for a regular
    file, a missing path or one that cannot be looked at (its opening names that error)."""
    try:
        return _kind(os.stat(path).st_mode)
    except (OSError, ValueError):
        return None


def read_regular(path: str | os.PathLike) -> str:
    """The text of the regular file ``path`` (UTF-8), opened without blocking: a named pipe
    (which would block the opening until a writer comes) or a device is no such file.

    Raises:
        OSError: ``path`` is missing, cannot be read or is no regular file.
        ValueError: it is not UTF-8.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is no regular file")
        return file.read().decode("utf-8")


def _kind(mode: int) -> str | None:
    """``not_regular``'s answer for a file of ``stat`` mode ``mode``."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def resolve(name_or_path: str | os.PathLike, results: str | os.PathLike = "results") -> Path:
    """The database of a tournament given by name (under ``results``) or by path.

    Raises:
        ResultsError: no such tournament (the message lists those under ``results``), or a
            directory where the database would be.
    """
    given = Path(name_or_path)
    candidates = (given, db_path(str(name_or_path), results))
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    for candidate in candidates:  # a directory, a named pipe... where the database would be
        what = not_regular(candidate) if candidate.suffix == ".sqlite" else None
        if what is not None:
            raise ResultsError(f"{str(candidate)!r} is {what}, not a results database; give a tournament's "
                               "NAME or the path of its .sqlite file")
    found = sorted(p.stem for p in Path(results).glob("*.sqlite") if p.is_file()) if Path(results).is_dir() else []
    raise ResultsError(
        f"no tournament {str(name_or_path)!r} under {str(results)!r}; "
        + (f"found: {', '.join(found)}" if found else "none stored there yet")
    )


def remove_db(path: Path) -> None:
    """Delete a database and its WAL files (``-wal``, ``-shm``)."""
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


#: the first bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"
#: the files of a tournament beside its results folder's other files, by suffix of its name
TOURNAMENT_FILES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".lock", ".log")
#: the mode of a tournament's files (database, its ``-wal``/``-shm``, lock and log): the runner's alone
PRIVATE_MODE = 0o600


def make_private(root: Path, name: str) -> None:
    """Create ``root/<name>.sqlite`` with ``PRIVATE_MODE`` if missing and give that mode to each of
    the tournament's files that exists (SQLite gives ``-wal``/``-shm`` the database's mode); a
    ``.sqlite`` that is not a database keeps its mode (opening it is refused, in one line).
    Raises ``OSError``: a file that cannot be created or changed; ``ResultsError``: one of
    those paths is no regular file (a named pipe, a device...: opened without waiting, never
    read or written)."""
    for suffix in TOURNAMENT_FILES[1:]:  # the run would wait for ever on a named pipe (its log)
        what = not_regular(root / f"{name}{suffix}")
        if what is not None:
            raise ResultsError(f"{str(root / (name + suffix))!r} is {what}, not a file of a tournament; remove it "
                               "or choose another --name")
    db = root / f"{name}.sqlite"
    fd = os.open(db, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK, PRIVATE_MODE)
    try:
        what = _kind(os.fstat(fd).st_mode)
        if what is not None:
            raise ResultsError(f"{str(db)!r} is {what}, not a results database; remove it or choose another --name")
        head = os.read(fd, len(SQLITE_HEADER))
    finally:
        os.close(fd)
    if head and head != SQLITE_HEADER:  # not a database: the store refuses it; its mode stays the user's
        return
    for suffix in TOURNAMENT_FILES:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(root / f"{name}{suffix}", PRIVATE_MODE)


def open_lock(path: Path) -> tuple[int, bool]:
    """Open (creating it if missing) the run lock file ``path``, ``PRIVATE_MODE``: ``(fd,
    created)``, ``created`` when this call made the file.

    Raises:
        OSError: the file cannot be opened or created.
    """
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, PRIVATE_MODE), True
    except FileExistsError:
        return os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_MODE), False


def still_locked(fd: int, path: Path) -> bool:
    """Whether the lock file open as ``fd`` (just ``flock``-ed) is still the file at ``path``.
    A run that removes its lock file does so while holding it, so a process that locked the
    removed file meanwhile holds a lock nobody else can see: it must open ``path`` again."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def missing_dirs(root: Path) -> list[Path]:
    """``root`` and its ancestors that do not exist yet, deepest first (what ``mkdir(parents=
    True)`` will create)."""
    out = []
    for folder in (root, *root.parents):
        if folder.exists():
            break
        out.append(folder)
    return out


def remove_dirs(folders: Sequence[Path]) -> None:
    """Remove ``folders`` (deepest first) while each is empty; stops at the first that is not
    (or cannot be removed). Never raises."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def give_up(path: Path, conn: sqlite3.Connection | None, lock_fd: int, created: bool,
            made: Made | None = None) -> None:
    """``Store.open`` failed: close, remove the file if this open created it (else a 0-byte
    file stays), release the run lock (and remove what ``open`` made, ``unmake``)."""
    try:
        if conn is not None:
            conn.close()
        if created:
            remove_db(path)
    except OSError:
        pass  # the error that made open fail is the one to report
    finally:
        unmake(made or Made(), lock_fd)


@dataclass(frozen=True)
class Made:
    """What ``Store.open`` created besides the database: the run lock file (``None``: it was
    there) and the folders of the results path, deepest first."""

    lock: Path | None = None
    folders: tuple[Path, ...] = ()


def unmake(made: Made, lock_fd: int) -> None:
    """Remove the run lock file of ``made`` while ``lock_fd`` still holds it (``still_locked``:
    a run that opened it meanwhile opens it again), close ``lock_fd``, then remove the folders
    of ``made`` while empty. Never raises."""
    try:
        if made.lock is not None:
            made.lock.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("could not remove the run lock %s of a refused run: %s", made.lock, exc)
    finally:
        os.close(lock_fd)
    remove_dirs(made.folders)


def remove_empty(path: Path) -> None:
    """Remove ``path`` if it is an empty file. Never raises: a file that cannot be removed is
    logged and left."""
    try:
        if path.exists() and not path.stat().st_size:
            path.unlink()
    except OSError as exc:
        log.warning("could not remove the empty log %s of a refused run: %s", path, exc)

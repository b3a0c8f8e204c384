"""OS mechanics of a process that runs bots: memory cap, parent-death signal, output isolation,
SIGINT, and the text of a dead process's exit code (Linux; ``docs/arena.md`` "Contracts / Faults").

Used by the tournament's worker processes (``arena.tournament.worker``, ``arena.tournament.pool``)
and by the child of ``arena play`` (``arena.watch``): both run bots that may print, allocate
without end, or kill their own process, and neither may outlive or garble its parent.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

#: a worker's exit code when a bot closed its pipe to the runner
PIPE_CLOSED = 3


def exit_text(code: int | None) -> str:
    """How a child process ended, from ``Process.exitcode``: ``"SIGKILL"``, ``"signal 99"``,
    ``"exit code 1"``, or the meaning of ``PIPE_CLOSED``."""
    if code == PIPE_CLOSED:
        return f"exit code {code}: the bot closed the worker's pipe to the runner"
    if code is not None and code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def death_text(code: int | None) -> str:
    """How a child process ended, as a phrase: ``"killed by signal SIGKILL"``,
    ``"exited with code 1"``."""
    if code is not None and code < 0:
        return f"killed by signal {exit_text(code).removeprefix('signal ')}"
    return f"exited with code {code}"


def limit_memory(mib: int) -> None:
    """Cap this process's address space at its current size plus ``mib`` MiB (``RLIMIT_AS``), so
    a bot allocating without end gets ``MemoryError``. Linux (reads ``/proc/self/statm``)."""
    import resource
    with open("/proc/self/statm") as f:
        base = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = base + mib * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies (a killed run leaves no orphan)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def ignore_sigint() -> None:
    """Ctrl-C reaches the whole process group: the parent stops its children itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: most bytes of bot output (fds 1 and 2) one process forwards to its log file in its lifetime;
#: the rest is dropped after one ``TRUNCATED`` line (``docs/arena.md`` "Contracts / Faults")
OUTPUT_CAP = 2**20
TRUNCATED = b"\n[bot output truncated]\n"
_drain: threading.Thread | None = None


def redirect_output(path: str | None, cap: int = OUTPUT_CAP) -> None:
    """fd 0 from ``/dev/null``; fds 1 and 2 to ``path`` (``None``: to ``/dev/null``).
    A bot's prints, at Python or fd level, never reach the parent's terminal.

    With a ``path``, fds 1 and 2 are the write end of a pipe that a daemon thread of this
    process drains: it appends the first ``cap`` bytes to ``path`` (``O_APPEND``), then one
    ``TRUNCATED`` line, and reads and discards the rest, so a bot that prints megabytes neither
    blocks nor grows the log without bound (the cap is per process lifetime, in bytes)."""
    global _drain
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    if path:
        out = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        read, write = os.pipe()  # both close-on-exec; fds 1 and 2 below are inheritable copies
        _drain = threading.Thread(target=_forward, args=(read, out, cap), name="arena-output", daemon=True)
        _drain.start()
        os.dup2(write, 1)
        os.dup2(write, 2)
        os.close(write)
    else:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
    os.close(devnull)
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
    sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)


def _forward(read: int, out: int, cap: int) -> None:
    """The drain of ``redirect_output``: copy pipe ``read`` to file ``out`` up to ``cap`` bytes."""
    left = cap
    try:
        while chunk := os.read(read, 65536):
            if left >= 0:
                if left:
                    os.write(out, chunk[:left])
                if len(chunk) > left:
                    os.write(out, TRUNCATED)
                left -= len(chunk)
    except OSError:  # the log file is gone or full: keep draining so the bot never blocks
        while True:
            try:
                if not os.read(read, 65536):
                    break
            except OSError:
                break


def flush_output(timeout: float = 2.0) -> None:
    """Before ``os._exit``: flush ``sys.stdout``/``sys.stderr``, point fds 1 and 2 at
    ``/dev/null`` and give the drain of ``redirect_output`` up to ``timeout`` seconds to forward
    what is left in the pipe (a process the bot started may still hold it open)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a bot closed it
            pass
    if _drain is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    _drain.join(timeout)


def guard_child(memory_limit: int | None, output: str | None = None) -> None:
    """Everything a forked child that runs bots does first: join the run's cgroup (``arena.reaper``:
    nothing its bots start outlives the run), ignore SIGINT, die with its parent, send its output
    to ``output`` (``None``: nowhere), cap the address space the bots may add (``memory_limit``
    MiB, ``None``: no cap)."""
    from arena import reaper
    reaper.join()
    ignore_sigint()
    die_with_parent()
    redirect_output(output)
    if memory_limit:
        limit_memory(memory_limit)


#: prctl options (linux/prctl.h)
_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


def new_session() -> None:
    """Start a new session (and process group) led by this process, so the parent can kill the
    process and every descendant still in its group with one ``killpg``."""
    try:
        os.setsid()
    except OSError:  # already a group leader
        pass


def set_subreaper(on: bool) -> bool:
    """Linux: make this process a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``): an
    orphaned descendant (one that called ``setsid`` or whose parent died) is re-parented to it
    instead of to init, so ``kill_orphans`` finds it. Returns whether it was a subreaper before
    (``False`` where ``prctl`` is missing). Code that wants it for a while uses
    ``hold_subreaper``/``release_subreaper`` (several at once in one process)."""
    was = is_subreaper()
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, int(on))
    except (OSError, AttributeError):
        pass
    return was


def is_subreaper() -> bool:
    """Whether this process is a child subreaper now (``False`` where ``prctl`` is missing)."""
    try:
        import ctypes
        was = ctypes.c_int(0)
        ctypes.CDLL(None, use_errno=True).prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(was))
        return bool(was.value)
    except (OSError, AttributeError):
        return False


#: held while a child that sweeps must spare is started and recorded by its owner (a pool's
#: worker, ``arena.tournament.pool``), and by every sweep (``kill_orphans``) from its list of
#: children to spare to its last kill: a sweep never meets such a child before it is recorded
_children_lock = threading.RLock()
#: holders of the subreaper state (``hold_subreaper``) and the state from before the first
_subreaper_holders = 0
_subreaper_was = False


def children_lock() -> threading.RLock:
    """The lock (re-entrant) that an owner of children a sweep must spare holds while it starts
    them and records them, and that ``kill_orphans`` holds while it sweeps."""
    return _children_lock


def _forgotten_in_child() -> None:
    """A forked child is no subreaper (the kernel does not pass it on), holds nothing, and
    owns a lock of its own (the parent's may be held by another of its threads)."""
    global _children_lock, _subreaper_holders, _subreaper_was
    _children_lock, _subreaper_holders, _subreaper_was = threading.RLock(), 0, False


os.register_at_fork(after_in_child=_forgotten_in_child)


def hold_subreaper() -> None:
    """Be a child subreaper until the matching ``release_subreaper``. The holders of a process
    (pools, ``orphans_reaped`` blocks, ``arena.watch``; several threads) share one saved state:
    the state from before the first holder, put back when the last one releases, whatever the
    order they end in."""
    global _subreaper_holders, _subreaper_was
    with _children_lock:
        if _subreaper_holders == 0:
            _subreaper_was = set_subreaper(True)
        _subreaper_holders += 1


def release_subreaper() -> None:
    """End one ``hold_subreaper``; the last one puts back the state from before the first.

    Raises:
        RuntimeError: more releases than holds.
    """
    global _subreaper_holders
    with _children_lock:
        if _subreaper_holders == 0:
            raise RuntimeError("release_subreaper without hold_subreaper")
        _subreaper_holders -= 1
        if _subreaper_holders == 0:
            set_subreaper(_subreaper_was)


def children(pid: int | None = None) -> set[int]:
    """Pids of the children of ``pid`` (default this process), from ``/proc`` (Linux)."""
    pid = os.getpid() if pid is None else pid
    out: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.update(int(p) for p in f.read().split())
        except (OSError, ValueError):
            pass
    return out


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid`` (a worker in its own session; ``new_session``)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def multiprocessing_helpers() -> set[int]:
    """Pids of this process's own ``multiprocessing`` helpers, running or not: its resource
    tracker (started by the first named semaphore or shared memory of a ``spawn`` or
    ``forkserver`` context, e.g. a ``multiprocessing.Queue`` when ``forkserver`` is the start
    method, Python 3.14's default) and its fork server. They belong to the interpreter, not to
    a bot: killing one makes ``multiprocessing`` warn ("Some resources might leak") and start
    another, and a reaped fork server's pid breaks its next start. Told apart by the pids the
    modules hold (private attributes: ``_resource_tracker._pid``, ``_forkserver._forkserver_pid``),
    never by a process name; a module not loaded has started nothing."""
    helpers = ((sys.modules.get("multiprocessing.resource_tracker"), "_resource_tracker", "_pid"),
               (sys.modules.get("multiprocessing.forkserver"), "_forkserver", "_forkserver_pid"))
    pids = {getattr(getattr(module, owner, None), attr, None) for module, owner, attr in helpers}
    return {pid for pid in pids if isinstance(pid, int)}


def kill_orphans(keep: set[int] | Callable[[], set[int]], rounds: int = 50) -> list[int]:
    """SIGKILL and reap every child of this process not in ``keep``: with the subreaper state
    on (``hold_subreaper``), the descendants of a worker that ended (``setsid`` ones included).
    A killed orphan's own children are re-parented here in turn, so it repeats until none is
    left. Returns the pids killed.

    Runs under ``children_lock()``; ``keep`` may be a function, called under it (the children
    that owners recorded under the lock, e.g. ``arena.tournament.pool.open_workers``). The
    interpreter's own ``multiprocessing_helpers`` are never killed. Not safe
    against other threads starting children without that lock: a child another thread starts
    meanwhile is killed."""
    killed: list[int] = []
    with _children_lock:
        spared = keep() if callable(keep) else keep
        for _ in range(rounds):
            stray = children() - spared - multiprocessing_helpers()
            if not stray:
                break
            for pid in stray:
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except (OSError, ChildProcessError):
                    pass
                killed.append(pid)
    return killed


@contextlib.contextmanager
def orphans_reaped(spare: Callable[[], set[int]] | None = None) -> Iterator[list[int]]:
    """Be a child subreaper for the block (``hold_subreaper``), then SIGKILL every child of
    this process that the block left (``kill_orphans``): the orphans of bots and engines
    started in the block, ``setsid`` ones included, e.g. a bot built to check a field or an
    engine started once to probe it. The caller's own children from before the block are
    never touched, nor those ``spare`` returns (called under ``children_lock()``: the workers of
    every open pool, ``arena.tournament.pool.open_workers``). The list yielded receives the
    pids killed.

    Not safe against other threads starting children during the block, except pools (given
    ``spare``): any other child started meanwhile, by any thread, is killed at its end.
    """
    hold_subreaper()
    before = children()
    killed: list[int] = []
    try:
        yield killed
    finally:
        try:
            killed += kill_orphans(lambda: before | (spare() if spare is not None else set()))
        finally:
            release_subreaper()


def has_children() -> bool:
    """Whether this process has any child, running or not yet reaped (one ``waitid`` call
    that reaps nothing: cheap enough to call after every move)."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def _cmdline(pid: int) -> bytes | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return None


def forked_copies(known: set[int]) -> list[int]:
    """Children of this process not in ``known`` that run this process's own command line:
    copies made by ``os.fork()`` without ``exec`` (an engine started with ``subprocess`` runs
    another command line and is not one). The other new children are added to ``known``
    (one ``/proc`` scan serves both)."""
    mine = _cmdline(os.getpid())
    new = children() - known
    copies = [pid for pid in new if _cmdline(pid) == mine]
    known.update(pid for pid in new if pid not in copies)
    return copies

"""One engine process: start, handshake, lines in and out with deadlines, kill.

``docs/engine-protocol.md`` "Process rules": the process runs in its own session and process
group (killed as a group), and dies with the process that started it: every engine, sandboxed
or not, gets ``PR_SET_PDEATHSIG`` SIGKILL between ``fork`` and ``exec`` (Linux; it holds across
``exec``). Out of reach: the parent-death signal belongs to the engine process alone, so its own
children (a shell script's ``sleep``, a wrapper's real engine) outlive a SIGKILL of the whole arena
(nothing is left to kill the group); when the arena ends an engine itself, ``kill`` SIGKILLs the
group and they go with it. Also, Linux sends the signal when the *thread* that started the engine
ends, so engines must be started from a thread that lives as long as they are used.

Its standard error is drained by a thread into the tournament log, each line prefixed with its
label (the first ``STDERR_LOG_BYTES`` of it; the rest is read in large chunks and dropped), so an
engine writing megabytes there can never block, and thousands of short lines cost a few reads
(``arena.engine.stderr``). Standard output is read with ``poll`` and a deadline (none for a move
without a time limit), one line at most ``MAX_LINE_BYTES`` long. The same ``poll`` watches the
engine process itself (a pidfd, Linux 5.3+; elsewhere its exit status, checked every
``EXIT_CHECK`` seconds): an engine that exits is seen at once, even when a child of it (a
shell's ``sleep &``) keeps its standard output open, so no end of file ever comes (cutechess
#27); what it wrote before exiting is still read.
"""

from __future__ import annotations

import logging
import os
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from typing import Any

from arena import reaper
from arena.engine.secrets import engine_env
from arena.engine.protocol import QUIT_TIMEOUT, VERSION, Handshake, command_text, option_value_fits
from arena.engine.stderr import start_drain
from arena.errors import BotSpecError

log = logging.getLogger("arena.worker.engine")
#: the protocol trace (``--trace-engines``): every line both ways, ``LABEL > line`` (to the
#: engine) and ``LABEL < line`` (from it), each a record with its time
trace = logging.getLogger("arena.worker.engine.trace")
#: whether lines are traced (``set_trace``; ``--trace-engines``)
TRACE = False
#: characters of a traced line kept (a long line is cut)
TRACE_LINE = 2000


def set_trace(on: bool) -> None:
    """Trace every protocol line both ways on the ``arena.worker.engine.trace`` logger (the
    tournament log: ``arena run --trace-engines``), or stop."""
    global TRACE
    TRACE = bool(on)
#: bytes of one line from an engine's standard output at most (``LineTooLong`` beyond)
MAX_LINE_BYTES = 2**20
#: seconds between checks of the engine's exit status where there is no pidfd to poll
EXIT_CHECK = 0.1


#: prctl(2) option: the signal a process gets when its parent dies
PR_SET_PDEATHSIG = 1


def prctl_function() -> Any:
    """libc's ``prctl`` (ctypes), or ``None`` where there is none."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


class EngineClosed(Exception):
    """The engine exited or closed its standard output."""


def _pidfd(pid: int) -> int:
    """A pidfd of ``pid`` (readable once it exits), or -1 where the system has none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        return -1


class LineTooLong(Exception):
    """The engine wrote a line longer than ``MAX_LINE_BYTES`` on its standard output.

    Attributes:
        head: the line's first bytes (at most 40), to name what kind of line it was.
    """

    def __init__(self, head: bytes) -> None:
        super().__init__(f"the engine wrote a line longer than the {MAX_LINE_BYTES} byte cap "
                         f"({MAX_LINE_BYTES // 2**20} MiB), starting {head[:40].decode('utf-8', 'replace')!r}")
        self.head = head[:40]


class StartError(Exception):
    """The engine could not be started or did not finish its handshake in time."""


def _child_setup(preexec: Callable[[], None] | None) -> Callable[[], None]:
    """The function run in the child between ``fork`` and ``exec``: the run's cgroup
    (``arena.reaper.join``: nothing it starts outlives the run), ``preexec`` (a sandbox's
    limits), then ``PR_SET_PDEATHSIG`` SIGKILL (the session of its own is ``start_new_session``)."""
    prctl, group = prctl_function(), reaper.cgroup()  # looked up here, before the fork

    def setup() -> None:  # no imports, no allocation to speak of
        reaper.join(group)
        if preexec is not None:
            preexec()
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    return setup


class EngineProcess:
    """A running engine: ``start``, ``send``, ``read_line``, ``kill``.

    Args:
        command: executable and arguments.
        label: the bot's label (log prefix).
        startup_timeout: seconds for ``aepok`` and each ``readyok``.
        preexec: run in the child before ``exec`` (resource limits), or ``None``.
        cwd: the child's working directory, or ``None`` for the current one.
        remove_cwd: delete ``cwd`` when the engine is killed (a private temporary directory).
        release: called once when the engine is killed or fails to start (a sandbox's
            ``Cell.release``: its user's processes, its uid, its directory), or ``None``.
    """

    def __init__(self, command: list[str], label: str, startup_timeout: float,
                 preexec: Callable[[], None] | None = None, cwd: str | None = None, remove_cwd: bool = False,
                 release: Callable[[], None] | None = None) -> None:
        self.command, self.label, self.startup_timeout = list(command), label, startup_timeout
        self.preexec, self.cwd, self.remove_cwd, self.release = preexec, cwd, remove_cwd, release
        self.proc: subprocess.Popen | None = None
        self.stdin = self.stdout = -1  # the pipes' descriptors once started
        self.pidfd = -1  # readable once the process exits (-1: none; its status is polled instead)
        self.buffer = bytearray()
        self.handshake = Handshake()
        self.last_info_string: str | None = None

    # life cycle ---------------------------------------------------------------------------
    def spawn(self) -> None:
        """Start the process (its standard error drained to the log); no message is sent.

        Raises:
            StartError: the command cannot be executed.
        """
        try:
            proc = self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, start_new_session=True, preexec_fn=_child_setup(self.preexec), cwd=self.cwd, close_fds=True,
                env=engine_env(self.command))  # no API key of the run's bots (arena.engine.secrets)
        except OSError as exc:
            self._remove_cwd()
            raise StartError(f"cannot execute {self.command[0]!r}: {exc.strerror or exc}") from None
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None  # PIPE, PIPE, PIPE
        self.stdin, self.stdout = proc.stdin.fileno(), proc.stdout.fileno()
        self.poll = select.poll()
        self.poll.register(self.stdout, select.POLLIN)
        self.pidfd = _pidfd(proc.pid)
        if self.pidfd >= 0:
            self.poll.register(self.pidfd, select.POLLIN)
        start_drain(proc.stderr.fileno(), self.label)

    def start(self, options: dict[str, str], check_options: bool = True,
              declared_only: dict[str, str] | None = None) -> None:
        """Spawn, handshake (``aep 3`` .. ``aepok [N]``; an engine that refuses the version with
        an ``info string error`` naming it is asked the one before), send ``options`` as ``setoption``
        (and those of ``declared_only`` that the engine declared, unless ``options`` names them:
        ``--each`` for an isolated Python bot), ``isready`` .. ``readyok``.

        Raises:
            StartError: cannot execute, no ``aepok``/``readyok`` in time, exited, or wrote a
                line over ``MAX_LINE_BYTES``.
            BotSpecError: an option the engine did not declare (when ``check_options``).
        """
        self.spawn()
        deadline = time.monotonic() + self.startup_timeout
        try:
            self.send(f"aep {VERSION}")
            asked = VERSION
            while True:
                line = self.read_line(deadline)
                if line is None:
                    raise StartError(f"no aepok within {self.startup_timeout:g}s of start-up")
                if self.handshake.done(line):  # ``aepok`` or ``aepok 2``: the version it speaks
                    break
                if asked > 1 and line.startswith("info string error") and "version" in line:
                    asked -= 1  # an engine that refuses ``aep N`` (an arena engine of an earlier version): N - 1
                    self.send(f"aep {asked}")
                    continue
                self.handshake.read(line)
            declared = self.handshake.options
            extra = {k: v for k, v in (declared_only or {}).items() if k in declared and k not in options}
            for name, value in {**extra, **options}.items():
                if check_options and name not in declared:
                    accepted = ", ".join(declared) or "none"
                    raise BotSpecError(f"engine {self.label!r} ({command_text(self.command)}): unknown option "
                                       f"{name!r}; accepted: {accepted}")
                if check_options and not option_value_fits(declared[name].type, str(value)):
                    kind = declared[name].type
                    raise BotSpecError(f"engine {self.label!r} ({command_text(self.command)}): option {name!r} "
                                       f"takes {'an' if kind == 'int' else 'a'} {kind} value; got {str(value)!r}")
                self.send(f"setoption name {name} value {value}")
            self.sync(self.startup_timeout)
        except BaseException as exc:
            code = self.wait_exit() if isinstance(exc, EngineClosed) else None
            self.kill()  # and its private directory removed
            if code is not None:
                raise StartError(f"exited during the handshake ({code})") from None
            if isinstance(exc, LineTooLong):
                raise StartError(str(exc)) from None
            raise

    def sync(self, timeout: float) -> None:
        """``isready`` and wait for ``readyok``.

        Raises:
            StartError: no ``readyok`` within ``timeout`` seconds. EngineClosed: it exited.
            LineTooLong: a line over ``MAX_LINE_BYTES``.
        """
        self.send("isready")
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(deadline)
            if line is None:
                raise StartError(f"no readyok within {timeout:g}s")
            if line.strip() == "readyok":
                return
            self.other(line)

    @property
    def alive(self) -> bool:
        """Whether the engine process is started and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    def wait_exit(self, timeout: float = 1.0) -> str:
        """Wait up to ``timeout`` seconds for the exit; its description ("exit code 1"...)."""
        if self.proc is None:
            return "not started"
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return "still running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def kill(self) -> None:
        """SIGKILL the engine's process group (no orphans) and reap it."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.stdin = self.stdout = -1  # closed below: never a descriptor number reused by another file
        if self.pidfd >= 0:
            try:
                os.close(self.pidfd)
            except OSError:
                pass
            self.pidfd = -1
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._remove_cwd()

    def _remove_cwd(self) -> None:
        if self.release is not None:
            release, self.release = self.release, None
            release()
        if self.remove_cwd and self.cwd:
            shutil.rmtree(self.cwd, ignore_errors=True)

    def quit(self) -> None:
        """``quit``; killed if still running ``QUIT_TIMEOUT`` seconds later."""
        if self.proc is not None and self.alive:
            try:
                self.send("quit")
                self.proc.wait(QUIT_TIMEOUT)
            except (EngineClosed, subprocess.TimeoutExpired):
                pass
        self.kill()

    # lines --------------------------------------------------------------------------------
    def send(self, *lines: str) -> None:
        """Write lines (one write).

        Raises:
            EngineClosed: its standard input is closed (it exited).
        """
        self.write("\n".join(lines) + "\n")

    def write(self, text: str) -> None:
        """Write ``text`` (whole lines, each ending in ``\\n``) in one ``os.write`` (more only
        when the pipe takes part of a long message).

        Raises:
            EngineClosed: its standard input is closed (it exited).
        """
        data = text.encode()
        if TRACE:
            for line in text.splitlines():
                trace.info("%s > %s", self.label, line)
        try:
            written = os.write(self.stdin, data)
            while written < len(data):
                written += os.write(self.stdin, data[written:])
        except OSError:
            raise EngineClosed("standard input closed") from None

    def read_line(self, deadline: float | None) -> str | None:
        """The next line (without ``\\n``), or ``None`` at ``deadline`` (``time.monotonic()``;
        ``None``: no deadline).

        Raises:
            EngineClosed: end of its standard output, or the engine process exited (and every
                line it wrote before is read).
            LineTooLong: more than ``MAX_LINE_BYTES`` without a ``\\n``.
        """
        fd, buffer = self.stdout, self.buffer
        end = buffer.find(b"\n")
        while end < 0:
            if len(buffer) > MAX_LINE_BYTES:
                raise LineTooLong(bytes(buffer[:40]))
            if not self._readable(deadline):
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EngineClosed("standard output closed")
            end = chunk.find(b"\n")  # only the new bytes are searched: a long line is read in linear time
            if end >= 0:
                end += len(buffer)
            buffer += chunk
        line = bytes(buffer[:end])
        del buffer[:end + 1]
        text = line.decode("utf-8", "replace").rstrip("\r")
        if TRACE:
            trace.info("%s < %s", self.label, text[:TRACE_LINE])
        return text

    def _readable(self, deadline: float | None) -> bool:
        """Wait until standard output can be read (``True``) or ``deadline`` passes (``False``).

        Raises:
            EngineClosed: the engine process exited and nothing it wrote is left unread.
        """
        while True:
            wait = -1.0 if deadline is None else max(0.0, deadline - time.monotonic()) * 1000.0
            if self.pidfd < 0:
                wait = EXIT_CHECK * 1000.0 if wait < 0 else min(wait, EXIT_CHECK * 1000.0)
            ready = self.poll.poll(wait)
            if any(fd == self.stdout for fd, _ in ready):
                return True
            if ready or (self.pidfd < 0 and self.proc is not None and self.proc.poll() is not None):
                if select.select([self.stdout], [], [], 0)[0]:  # written just before the exit
                    return True
                raise EngineClosed("the engine process exited")
            if deadline is not None and time.monotonic() >= deadline:
                return False

    def other(self, line: str) -> None:
        """A line the protocol does not expect here: kept in the log with the label."""
        if line.startswith("info"):
            if line.startswith("info string fault "):  # an isolated bot names its fault, then exits
                self.last_info_string = line[len("info string "):]
            elif line.startswith("info string error "):  # the engine refused a message of ours
                log.warning("%s said: %s", self.label, line[:500])
            return
        if line.strip():
            log.info("%s said: %s", self.label, line[:500])

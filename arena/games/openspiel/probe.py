"""``probe``: try OpenSpiel parameters in a child process before this process loads them.

OpenSpiel checks the types of its parameters but few of their values, and some values crash
the process that plays them (``connect_four`` with ``rows=0`` segfaults on its first state)
or ask for more memory than the machine has. So a game whose parameters differ from
OpenSpiel's defaults (which the arena's tests play) is first loaded, and one seeded random
game played to its end (at most ``PLIES`` plies), in a forked child with a capped address
space and no standard error; what the child says or how it died is the answer. This is
process management for the sake of a C++ library, not I/O: the rules stay pure.
"""

from __future__ import annotations

import faulthandler
import os
import random
import resource
import select
import signal
import time
from typing import Any

from arena.games.openspiel.library import pyspiel

#: plies of the random game a probe plays, at most
PLIES = 5000
#: seconds a probe may take
SECONDS = 30.0
#: address space of the child, bytes
MEMORY = 4 << 30


def _play(name: str, params: dict[str, Any]) -> None:
    """Load the game and play one seeded random game (chance outcomes by their probability),
    every move's string made as the arena makes it."""
    game = pyspiel().load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(PLIES):
        if state.is_terminal():
            state.returns()
            return
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes())
            action = rng.choices(actions, weights)[0]
        else:
            actions = state.legal_actions()
            if not actions:
                raise ValueError("a non-terminal state without legal actions")
            action = rng.choice(actions)
            [state.action_to_string(state.current_player(), a) for a in actions]
        str(state)
        state.apply_action(action)


def _cap_memory() -> None:
    """Lower the address space to ``MEMORY`` bytes, never raising a limit already set (a
    sandboxed engine's ``--memory-limit`` stays what it is)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = MEMORY if hard == resource.RLIM_INFINITY else min(MEMORY, hard)
    if soft == resource.RLIM_INFINITY or soft > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def probe(name: str, params: dict[str, Any]) -> str | None:
    """Why OpenSpiel cannot play game ``name`` with ``params`` (a few words: its error, the
    signal that killed the child, or a time-out), or ``None`` when a game played through.
    Where no child can be made (a sandbox limiting processes) the parameters pass untried."""
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(read)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)  # OpenSpiel prints its errors to stderr: the message is sent instead
            faulthandler.disable()  # a crash is the answer, not a traceback on the parent's stderr
            _cap_memory()
            _play(name, params)
        except BaseException as exc:  # noqa: BLE001 - whatever OpenSpiel raised is the answer
            os.write(write, f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:500].encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    said, deadline = b"", time.monotonic() + SECONDS
    status: int | None = None
    try:
        while time.monotonic() < deadline:  # what the child says, until it exits (end of file)
            ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(read, 4096) if ready else b""
            if not chunk:
                break
            said += chunk
        while time.monotonic() < deadline:
            finished, code = os.waitpid(pid, os.WNOHANG)
            if finished:
                status = code
                break
            time.sleep(0.005)
    finally:
        os.close(read)
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    if status is None:
        return f"no game played within {SECONDS:g} s"
    if os.WIFSIGNALED(status):
        return f"OpenSpiel crashed ({signal.Signals(os.WTERMSIG(status)).name}) playing a game"
    if os.WEXITSTATUS(status) != 0:
        return said.decode(errors="replace") or f"exit status {os.WEXITSTATUS(status)}"
    return None

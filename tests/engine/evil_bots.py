"""Hostile bots for the ``--isolation process`` tests, loaded as
``tests/engine/evil_bots.py#Class``. Each attacks on its first move, then loses with a fault
(an exception when the attack is refused)."""

import gc
import os
import signal
import sqlite3


class Tamperer:
    """Replaces the ``choose`` of every other bot it can reach (its opponent, in-process)."""

    def choose(self, state, limits):
        hit = []
        for obj in gc.get_objects():
            try:
                if isinstance(obj, (type, Tamperer)) or not callable(getattr(obj, "choose", None)):
                    continue
                obj.choose = lambda state, limits: "pass"
                hit.append(type(obj).__name__)
            except Exception:  # noqa: BLE001 - e.g. a ctypes library looking the name up
                pass
        raise RuntimeError(f"tampered with {len(hit)} other bots {hit}")


class DbWriter:
    """Opens the results database and deletes every stored game."""

    def __init__(self, path=""):
        self.path = path

    def choose(self, state, limits):
        db = sqlite3.connect(self.path)
        db.execute("DELETE FROM games")
        db.commit()
        raise RuntimeError("deleted the stored games")


class ParentKiller:
    """Sends SIGKILL to its parent (the worker, or the runner's process)."""

    def choose(self, state, limits):
        os.kill(os.getppid(), signal.SIGKILL)
        raise RuntimeError("parent killed")


class MemoryHog:
    """Lifts its own memory limit, then allocates far past --memory-limit."""

    def choose(self, state, limits):
        import resource
        try:
            resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except (ValueError, OSError):
            pass
        hog = bytearray(2 * 2**30)
        return str(len(hog))

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
        hit = 0
        for obj in gc.get_objects():
            if obj is not self and callable(getattr(obj, "choose", None)) and not isinstance(obj, type):
                try:
                    obj.choose = lambda state, limits: "pass"
                    hit += 1
                except (AttributeError, TypeError):
                    pass
        raise RuntimeError(f"tampered with {hit} other bots")


class DbWriter:
    """Opens the results database and deletes every stored game."""

    def __init__(self, path=""):
        self.path = path

    def choose(self, state, limits):
        db = sqlite3.connect(self.path)
        db.execute("DELETE FROM moves")
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

"""Rate limits of a language-model endpoint shared by every process and thread of a run (and by
any other run on the machine with the same folder): ``rpm=`` requests and ``tpm=`` tokens per
minute (``arena.llm`` options).

The requests of the last 60 seconds are kept in a small JSON file, one per endpoint
(``limits-<16 hex digits of the base URL's SHA-256>.json``), read and written under an exclusive
``fcntl`` lock. Its folder is ``$ARENA_LLM_LIMITS`` when set, else the folder of the response
cache (``$ARENA_LLM_CACHE``), else ``<temp>/arena-llm-<uid>``. A request reserves its
estimated tokens (the prompt's characters / 4 plus ``max_tokens``) before it is sent and the
count is set to what the server reports once it answers; a request that would pass either limit
waits until the window has room.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import tempfile
import time
import itertools
from collections.abc import Callable
from typing import Any

#: the environment variable naming the folder of the shared limit files
LIMITS_ENV = "ARENA_LLM_LIMITS"
#: seconds of the window the limits count over
WINDOW = 60.0

_TICKETS = itertools.count()


def limits_folder() -> str:
    """The folder of the limit files (see the module doc)."""
    given = os.environ.get(LIMITS_ENV, "").strip()
    if given:
        return given
    cache = os.environ.get("ARENA_LLM_CACHE", "").strip()
    if cache and cache.lower() != "off":
        return os.path.dirname(os.path.abspath(cache))
    return os.path.join(tempfile.gettempdir(), f"arena-llm-{os.getuid()}")


class SharedLimits:
    """The ``rpm`` / ``tpm`` limits of one endpoint (``None``: no such limit).

    Args:
        endpoint: the base URL (only its digest names the file).
        rpm: requests per minute, or ``None``.
        tpm: tokens (prompt plus completion) per minute, or ``None``.
        sleep: the function that waits (seconds; tests pass their own).
    """

    def __init__(self, endpoint: str, rpm: int | None, tpm: int | None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.rpm, self.tpm, self.sleep = rpm, tpm, sleep
        digest = hashlib.sha256(endpoint.encode()).hexdigest()[:16]
        self.path = os.path.join(limits_folder(), f"limits-{digest}.json")

    @property
    def active(self) -> bool:
        """Whether any limit is set."""
        return self.rpm is not None or self.tpm is not None

    def _update(self, change: Callable[[list[list[Any]], float], float]) -> float:
        """Run ``change(entries, now)`` on the file's entries (``[time, tokens, id]``, pruned
        to the window) under the lock and write them back; its result."""
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with os.fdopen(os.dup(fd), "r+") as f:
                text = f.read()
                try:
                    entries = [e for e in json.loads(text)["entries"]] if text.strip() else []
                except (ValueError, KeyError, TypeError):
                    entries = []  # a file cut by a kill: start the window again
                now = time.time()
                entries = [e for e in entries if e[0] > now - WINDOW]
                out = change(entries, now)
                f.seek(0)
                f.truncate()
                f.write(json.dumps({"entries": entries}))
            return out
        finally:
            os.close(fd)

    def acquire(self, tokens: int) -> str:
        """Wait until a request of about ``tokens`` tokens fits both limits, then reserve it.

        Returns:
            The reservation's id (``settle`` gives its true token count), ``""`` when no limit
            is set.
        """
        if not self.active:
            return ""
        ticket = f"{os.getpid()}-{time.time_ns()}-{next(_TICKETS)}"
        while True:

            def reserve(entries: list[list[Any]], now: float) -> float:
                wait = 0.0
                if self.rpm is not None and len(entries) >= self.rpm:
                    wait = max(wait, entries[len(entries) - self.rpm][0] + WINDOW - now)
                if self.tpm is not None and entries:
                    used, need = sum(e[1] for e in entries), min(tokens, self.tpm)
                    for e in entries:  # the oldest first: wait until enough of them leave the window
                        if used + need <= self.tpm:
                            break
                        used -= e[1]
                        wait = max(wait, e[0] + WINDOW - now)
                if wait <= 0:
                    entries.append([now, float(tokens), ticket])
                return wait

            wait = self._update(reserve)
            if wait <= 0:
                return ticket
            self.sleep(min(wait + 0.01, WINDOW))

    def settle(self, ticket: str, tokens: int) -> None:
        """Set the reservation ``ticket``'s tokens to ``tokens`` (what the server counted)."""
        if not self.active or not ticket:
            return

        def correct(entries: list[list[Any]], now: float) -> float:
            for e in entries:
                if e[2] == ticket:
                    e[1] = float(tokens)
            return 0.0

        self._update(correct)

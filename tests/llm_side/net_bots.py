"""Bots keeping the network players' contract (``bots.base.Player``: ``waits_on_network``,
``last_log``, ``arena.errors.ProviderFailure``) without a network, for the arena-side tests of
issue 44; loaded as ``tests/llm_side/net_bots.py#Class``."""

from __future__ import annotations

import fcntl
import os
import sys
import time
from pathlib import Path
from typing import Any

from arena.errors import ProviderFailure
from arena.games.params import Param
from bots.random import RandomBot


class Logged(RandomBot):
    """Plays at random after ``delay`` seconds of waiting (a server's round trip), and logs each
    move as a language model would: tokens, latency, attempts, cost, a transcript whose first
    attempt is an illegal answer every ``illegal``-th move (0: never)."""

    waits_on_network = True
    PARAMS = {"delay": Param(0.0, "seconds each move waits"), "illegal": Param(3, "every n-th move's first answer "
              "is illegal (0: never)"), "key_env": Param("", "the variable holding a key (read, never used)")}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.delay, self.illegal, self.moves = self.options["delay"], self.options["illegal"], 0
        self.has_key = bool(self.options["key_env"] and os.environ.get(self.options["key_env"]))

    def choose(self, state: Any, limits: Any) -> Any:
        if self.delay:
            time.sleep(self.delay)
        move = super().choose(state, limits)
        self.moves += 1
        bad = self.illegal and self.moves % self.illegal == 0
        prompt = [{"role": "user", "content": f"Position:\n{state.to_text()}\nYour move?"}]
        tries = ([{"attempt": 1, "prompt": prompt, "answer": "zz9", "finish_reason": "stop", "verdict": "illegal",
                   "reason": "zz9 is not a legal move"}] if bad else [])
        tries.append({"attempt": len(tries) + 1, "prompt": prompt, "answer": f"MOVE: {move}", "finish_reason": "stop",
                      "verdict": "legal", "reason": ""})
        self.last_log = {"tokens_in": 100 * len(tries), "tokens_out": 7 * len(tries),
                         "latency": self.delay + 0.01 * len(tries), "attempts": len(tries),
                         "cost": 0.001 * len(tries), "cached": False, "transcript": tries}
        return move


class Flaky(Logged):
    """A ``Logged`` whose provider fails (``ProviderFailure``) at the second move of a game, in
    the first ``times`` games that reach it (counted in the folder ``dir`` across processes), or
    in every game while the file ``<dir>/down`` exists."""

    PARAMS = {**Logged.PARAMS, "dir": Param("", "the folder counting failures"),
              "times": Param(1, "games whose provider fails")}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.dir, self.times, self.in_game = Path(self.options["dir"]), self.options["times"], 0

    def reset(self, game: Any, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self.in_game = 0

    def choose(self, state: Any, limits: Any) -> Any:
        self.in_game += 1
        if self.in_game == 2:
            down = (self.dir / "down").exists()
            fd = os.open(self.dir / "failures", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            try:  # counted under a lock: games in threads or workers reach their second move at once
                fcntl.flock(fd, fcntl.LOCK_EX)
                failed = (self.dir / "failures").stat().st_size
                if down or failed < self.times:
                    os.write(fd, b"f")
                    self.last_log = {"tokens_in": 0, "tokens_out": 0, "latency": 1.0, "attempts": 3, "cost": None,
                                     "cached": False, "transcript": []}
                    raise ProviderFailure("HTTP 503 from http://127.0.0.1:1/v1 on 3 attempts")
            finally:
                os.close(fd)
        return super().choose(state, limits)


class ReadsEnviron(RandomBot):
    """Plays at random; at its first move prints its process's ``/proc/self/environ`` (what an
    engine process could read; ``os.environ`` where the sandbox's user may not read it) to its
    standard error, which the run's log keeps."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.told = False

    def choose(self, state: Any, limits: Any) -> Any:
        if not self.told:
            try:
                with open("/proc/self/environ", "rb") as f:
                    text = f.read().decode(errors="replace")
            except PermissionError:  # a sandbox's other user (not dumpable): the same, as Python read it at start
                text = "\0".join(f"{k}={v}" for k, v in os.environ.items())
            names = [entry.split("=", 1)[0] for entry in text.split("\0") if entry]
            print("ENVIRON", len(names), " ".join(names), text.replace("\0", " "), file=sys.stderr, flush=True)
            self.told = True
        return super().choose(state, limits)

"""Bots for the multi-game task tests (``test_game_tasks.py``), loaded as
``tests/tournament/task_bots.py#Class``."""

import os
import signal
from pathlib import Path

from bots.random import RandomBot


class KillOnce(RandomBot):
    """Plays at random; in the ``game``-th game any process of the run begins with it (counted
    in the directory ``dir``), at its second move, kills its own worker (SIGKILL) once."""

    def __init__(self, dir: str, game: str = "3", **options) -> None:
        super().__init__(**options)
        self.dir, self.nth, self.moves, self.kill = Path(dir), int(game), 0, False

    def reset(self, game, seat, seed):
        super().reset(game, seat, seed)
        with open(self.dir / "games", "a") as f:
            f.write("g")
        self.moves = 0
        self.kill = (self.dir / "games").stat().st_size == self.nth and not (self.dir / "killed").exists()

    def choose(self, state, limits):
        self.moves += 1
        if self.kill and self.moves == 2:
            (self.dir / "killed").write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(state, limits)

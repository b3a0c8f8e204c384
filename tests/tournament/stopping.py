"""An observer that interrupts a run, as Ctrl-C does (resume tests)."""

from arena.tournament.observers import Observer


class StopAfter(Observer):
    """Stops the run (as Ctrl-C does) once ``n`` games are stored."""

    def __init__(self, n: int) -> None:
        self.n, self.seen = n, 0

    def stored(self, result) -> None:
        self.seen += 1
        if self.seen == self.n:
            raise KeyboardInterrupt

"""``GamePool``: what the runner needs of the pool that plays its games, the local process
pool (``arena.tournament.pool.Pool``, ``--workers``) or a Dask cluster's
(``arena.tournament.cluster.ClusterPool``, ``--cluster``), and ``Result``, what either yields.

mypy checks both pools against the protocol (``_conforming`` below, never called).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from arena.referee import GameRecord
from arena.tournament.series import GameTask

if TYPE_CHECKING:
    from arena.tournament.cluster import ClusterPool
    from arena.tournament.pool import Pool


@dataclass(frozen=True)
class Result:
    """A finished game: its task, its record, and how many attempts it took (1 = no replay)."""

    task: GameTask
    record: GameRecord
    attempts: int


@runtime_checkable
class GamePool(Protocol):
    """Plays ``GameTask`` s and yields each game's ``Result`` as it ends.

    The contract both pools keep (``docs/arena.md`` "Contracts / Faults"): every game handed
    over ends in exactly one ``Result`` (replayed after a worker's death up to ``retries``
    times, then lost by ``crash``), each yielded as soon as the pool has it (the runner commits
    it at once); a game whose worker died keeps the plies played before (its fault record).
    """

    #: workers (or game children of a cluster's workers) replaced so far
    replaced: int

    def submit(self, tasks: Iterable[GameTask]) -> None:
        """Queue ``tasks`` behind the games pending; a running ``run`` plays them too (call it
        between two of its results, from the thread iterating it)."""

    def run(self, tasks: Iterable[GameTask] = ()) -> Generator[Result, None, None]:
        """Play ``tasks`` and the games submitted, yielding each ``Result`` as it ends, until
        none is left; the pool is closed when the generator ends (or is closed).

        Raises:
            ConfigError: workers keep dying outside any game (the local pool).
            ClusterError: the cluster was lost or stalled (a Dask pool).
        """

    def close(self) -> None:
        """Stop the workers (games in flight are not recorded)."""


if TYPE_CHECKING:
    def _conforming(local: Pool, cluster: ClusterPool) -> tuple[GamePool, GamePool]:
        """Never called: mypy checks here that both pools are ``GamePool`` s."""
        return local, cluster

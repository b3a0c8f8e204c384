"""One game supervisor: a game played in a child process under watch, for ``arena run`` 's
pool workers (``arena.tournament.worker``, ``pool``; a Dask worker runs the same pool,
``arena.tournament.remote``) and ``arena play`` (``arena.watch``).

- ``status``: ``Status``, the typed record the child keeps in shared memory (seat on move,
  plies, move start, game id, game start, ply-buffer end, fork mark) and ``PlyLog`` /
  ``read_plies``, the plies of the game playing in a shared buffer;
- ``child``: ``Watched``, the child side: plays with ``arena.referee.referee_game`` under
  ``GameHooks`` that keep the status current, stream each ``arena.referee.Ply`` and detect a
  fork (a copy marks the game and exits; the process itself marks it and waits to be killed);
- ``blame``: the parent side's verdicts from a status: ``Deadlines`` and ``overdue``
  (``game_time``, ``timeout``), the details of a death (``crash``) and of a fork (``crash``).

The parent reads the status at any time (also after a kill: the seat on move is blamed, the
plies in the buffer stand); messages (``Ply``, ``GameEnded``) cross pipes only as
``arena.referee.message_to_wire`` writes them.
"""

from arena.supervisor import blame
from arena.supervisor.blame import Deadlines
from arena.supervisor.child import Watched
from arena.supervisor.status import PLY_BUFFER, PlyLog, Status, new_status, played, read_plies

__all__ = ["PLY_BUFFER", "Deadlines", "PlyLog", "Status", "Watched", "blame", "new_status", "played", "read_plies"]

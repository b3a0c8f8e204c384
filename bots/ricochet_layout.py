"""The layout of the Ricochet kernels' tables (``bots.ricochet_search``, ``bots.ricochet_bounds``),
in a module of its own so that both builds of the kernels (``bots.kernels``) share it.

Cells and directions as in ``arena.games.ricochet.board`` (cell = (rank-1)*16 + file,
N E S W = 0 1 2 3).
"""

#: the lower bound of a cell from which the goal is unreachable, moves
INF = 99

#: ``path_table`` layout: ``r * 1024 + d * 256 + cell``: the nearest barrier that turns robot
#: ``r`` on the wall-free run from ``cell`` towards ``d`` (``Board.turning_ahead``), or -1;
#: ``ORIENT + cell``: 1 for a ``/`` barrier, 2 for ``\\``; ``NBAR``: the number of barriers.
ORIENT = 5 * 1024
NBAR = ORIENT + 256

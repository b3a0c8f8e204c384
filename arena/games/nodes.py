"""The kinds of node that are not a seat's: the values of ``State.to_move`` (and
``View.to_move``) besides a 0-based seat. Re-exported by ``arena.games.protocol`` and
``arena.games``; a module of their own so that ``arena.games.views`` needs no other."""

#: ``State.to_move`` at a node where every seat answers at once.
SIMULTANEOUS = -2
#: ``State.to_move`` at a terminal node.
TERMINAL = -1
#: ``State.to_move`` at a chance node (``State.chance_outcomes``); also the seat of a chance
#: ply in a game's records (``MoveRecord.seat``).
CHANCE = -3

"""arena: a tournament engine-vs-engine arena for board-game AI.

Layers (arrows point one way): cli -> tournament/store/reports -> match -> bots -> games.
"""

__version__ = "0.1.0"

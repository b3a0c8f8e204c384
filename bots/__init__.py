"""Bot algorithms and per-game evaluation functions. They depend on ``arena.games`` and
``arena.errors`` only.

``bots.make(spec)`` builds a bot from a spec string ``[LABEL=]KIND[:key=value,...]``;
``bots.register(kind, MyBot)`` adds a kind at run time (entry points: ``bots/registry.py``).
"""

from bots.base import Bot, Limits, SearchStats
from bots.registry import make, names, parse_spec, register

__all__ = ["Bot", "Limits", "SearchStats", "make", "names", "parse_spec", "register"]

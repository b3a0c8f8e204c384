"""Bot algorithms and per-game evaluation functions. They depend on ``arena.games`` only.

``bots.make(spec)`` builds a bot from a spec string ``[LABEL=]KIND[:key=value,...]``.
"""

from bots.base import Bot, Limits, SearchStats
from bots.registry import make, names, parse_spec

__all__ = ["Bot", "Limits", "SearchStats", "make", "names", "parse_spec"]

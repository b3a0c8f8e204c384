"""arena: a tournament engine-vs-engine arena for board-game AI.

Layers (arrows point one way; docs/architecture.md, tests/test_import_graph.py):
cli -> bench -> tournament | reports -> results (store) -> engine | openings | watch -> referee
-> bots -> games | stats -> errors, numbers, os_guard.
"""

__version__ = "0.1.0"

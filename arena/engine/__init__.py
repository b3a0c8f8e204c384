"""Engines as processes: the engine protocol (``docs/engine-protocol.md``).

- ``protocol``: message texts and parsers (both sides);
- ``client``: ``EngineBot``, an engine process presented as an ordinary bot (``exec:`` bots
  and isolated Python bots);
- ``server``: ``serve``, any Python bot over the protocol (``arena engine SPEC``);
- ``sandbox``: the limits an isolated bot runs under (``--isolation process``).
"""

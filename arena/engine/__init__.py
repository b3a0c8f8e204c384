"""Engines as processes: the engine protocol (``docs/engine-protocol.md``).

- ``protocol``: message texts and parsers (both sides), ``exception_line``;
- ``client``: ``EngineBot``, an engine process presented as an ordinary bot (``exec:`` bots
  and isolated Python bots); ``engine_class`` is the ``exec`` prefix kind's factory, which
  the ``arena`` distribution registers with the bot registry through its entry point
  (``[project.entry-points."arena.bot_prefixes"]`` in ``pyproject.toml``): ``bots`` never
  import this package, and ``bots.make("exec:PATH")`` loads it on first use;
- ``server``: ``Server``/``main``, any Python bot over the protocol (``arena engine SPEC``);
  ``fdio``: its output and input on raw file descriptors;
- ``sandbox``: the limits an isolated bot runs under (``--isolation process``).
"""

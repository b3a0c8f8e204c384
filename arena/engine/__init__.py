"""Engines as processes: the engine protocol (``docs/engine-protocol.md``).

- ``protocol``: message texts and parsers (both sides), ``exception_line``; ``go``: the ``go``
  line (a move's limits and the game clocks); ``views``: a seat's view to send in a game with
  hidden information, and the refusal of an engine of a protocol before views;
- ``client``: ``EngineBot``, an engine process presented as an ordinary bot (``exec:`` bots
  and isolated Python bots); ``engine_class`` is the ``exec`` prefix kind's factory, which
  the ``arena`` distribution registers with the bot registry through its entry point
  (``[project.entry-points."arena.bot_prefixes"]`` in ``pyproject.toml``): ``bots`` never
  import this package, and ``bots.make("exec:PATH")`` loads it on first use;
- ``server``: ``Server``/``main``, any Python bot over the protocol (``arena engine SPEC``);
  ``fdio``: its output and input on raw file descriptors; ``warmup``: what a confined server
  does before it drops privileges;
- ``compliance``: ``arena engine check``; ``walk``: its seeded games with hidden information;
- ``sandbox``: the limits an isolated bot runs under (``--isolation process``).
"""

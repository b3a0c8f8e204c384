"""Language models as players: the ``llm:`` bot kind (``docs/how-to/llm.md``).

``llm:model=NAME[,base_url=URL,key_env=VAR,...]`` asks a model at any OpenAI-compatible
chat-completions server (OpenAI, OpenRouter, vLLM, llama.cpp's server, Ollama) for each move,
through the ``openai`` client library (the ``llm`` extra: ``pip install 'arena[llm]'``):

- ``prompts``: the prompt, a Jinja2 template per game (or the user's ``template=FILE``), whose
  digest is part of the bot's version (``LLMBot.code_identity``);
- ``answers``: the move read from the answer (``<move>...</move>``, or the last line) by the
  game's own parser, and its verdict;
- ``provider``: the requests, provider failures retried with backoff and then raised as
  ``arena.errors.ProviderFailure`` (the game is void), ``check_reachable``;
- ``limits``: ``rpm=`` / ``tpm=`` rate limits shared by every process of a run;
- ``cache``: the response cache (``$ARENA_LLM_CACHE``), a SQLite file of its own.

The bot's ``last_log`` after each ``choose`` (``bots.base.Player``), a JSON-able ``dict``::

    {"model": str,                 # the model= option
     "tokens_in": int,             # prompt tokens of every answered attempt (server's usage)
     "tokens_out": int,            # completion tokens of every answered attempt
     "latency": float,             # seconds: the answered requests' round trips, as first
                                   #   measured (a cached answer keeps its original latency)
     "wall": float,                # seconds this choose took now (backoff waits included)
     "attempts": int,              # answered attempts (1 + re-asks)
     "provider_errors": int,       # failed requests (retried, or the last one raised)
     "cost": float | None,         # USD: tokens x price_in/price_out per million; None without
                                   #   prices (the same on a replay from the cache)
     "cached": bool,               # every answer came from the response cache (nothing paid)
     "verdict": str | None,        # the last entry's verdict
     "transcript": [               # one entry per request, in order
         {"attempt": int,          # 1-based attempt (re-ask) it belongs to
          "prompt": [{"role": str, "content": str}, ...],   # the messages sent
          "answer": str | None,    # the model's text (None: the request failed)
          "finish_reason": str | None,
          "verdict": "legal" | "illegal" | "unparsable" | "cut_off" | "provider_error",
          "reason": str,           # why not legal, in words ("" when legal)
          "tokens_in": int, "tokens_out": int,
          "latency": float | None, # seconds (None for a failed request)
          "cached": bool},
         ...]}

It is set before ``choose`` returns or raises (``ProviderFailure`` too), is ``None`` after
``reset``, and never holds the API key (replaced by ``***`` should a server echo it).

Before a run: ``check_specs(specs)`` (or ``check_reachable(bot)``) stops in one line
(``ProviderUnreachable``, an ``ArenaError``) when a server does not answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.llm.provider import ProviderUnreachable

__all__ = ["KIND", "ProviderUnreachable", "check_reachable", "check_specs", "is_llm"]

#: the bot kind of language models in specs (``llm:key=value,...``)
KIND = "llm"


def is_llm(spec: Any) -> bool:
    """Whether a ``bots.registry.BotSpec`` is of the ``llm`` kind."""
    return getattr(spec, "kind", None) == KIND


def check_reachable(bot: Any, timeout: float = 10.0) -> None:
    """Check that an ``LLMBot``'s server answers (``provider.check_reachable``; ``timeout``
    seconds).

    Raises:
        ProviderUnreachable: it does not (one line naming the server).
    """
    from arena.llm.provider import check_reachable as check
    try:
        check(bot.base_url, bot.options["model"], bot.options["key_env"], timeout)
    except ProviderUnreachable as exc:
        label = getattr(bot, "label", None)
        raise ProviderUnreachable(f"bot {label!r}: {exc}" if label else str(exc)) from None


def check_specs(specs: Iterable[Any], timeout: float = 10.0) -> None:
    """Check the server of each ``llm`` spec of a field once per (server, model, key variable),
    before the first game.

    Raises:
        ProviderUnreachable: a server that does not answer. BotSpecError: a bad spec.
    """
    from bots.registry import make
    seen: set[tuple[str, str, str | None]] = set()
    for spec in specs:
        if not is_llm(spec):
            continue
        bot = make(spec)
        key = (bot.base_url, bot.options["model"], bot.options["key_env"])
        if key not in seen:
            seen.add(key)
            check_reachable(bot, timeout)

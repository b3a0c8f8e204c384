"""What a run sets up for network players (language models, ``arena.llm``): the response
cache's file for the workers (``--llm-cache``).

``llm_cache_env`` sets ``$ARENA_LLM_CACHE`` (``arena.llm.cache``) for the run's workers, which
inherit the runner's environment: ``<results>/<name>.llm-cache.sqlite`` (absolute) with
``--llm-cache on`` (the default), ``off`` with ``--llm-cache off``; the variable is put back as
it was when the run ends. A rerun or a resumed run then replays the answers already paid for
(the same prompts give the same answers, so the same games) instead of asking the server again.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

#: the variable naming the response cache's file (``arena.llm.cache.CACHE_ENV``)
CACHE_ENV = "ARENA_LLM_CACHE"


def cache_file(results: str | os.PathLike, name: str) -> Path:
    """The response cache of the run ``name``: ``<results>/<name>.llm-cache.sqlite``, absolute."""
    return (Path(results) / f"{name}.llm-cache.sqlite").absolute()


@contextlib.contextmanager
def llm_cache_env(results: str | os.PathLike, name: str, on: bool) -> Iterator[str]:
    """``$ARENA_LLM_CACHE`` set for the block (the workers started in it inherit it): the run's
    ``cache_file`` when ``on``, else ``off``; yields the value and puts the variable back as it was."""
    before = os.environ.get(CACHE_ENV)
    value = str(cache_file(results, name)) if on else "off"
    os.environ[CACHE_ENV] = value
    try:
        yield value
    finally:
        if before is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = before

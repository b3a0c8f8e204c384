"""The requests of a language-model bot to an OpenAI-compatible chat-completions server, through
the ``openai`` client library: retries of the provider's failures with backoff, the check that
a server is reachable before a run, and the key kept out of every text.

A provider failure is a request that timed out, a refused or broken connection, HTTP 408, 409,
429 (its ``Retry-After`` honoured), 5xx or a 200 answer that is not a chat completion (not JSON,
no ``choices``): it is retried up to ``provider_retries`` times, waiting
``backoff * 2**k`` seconds (at most ``backoff_max``), times a jitter in [0.5, 1) drawn from a
generator seeded by the game's seed. Another HTTP error (400, 401, 404...) is not retried. A
request that still fails raises ``arena.errors.ProviderFailure``: the game is void, not lost.

The key is read from ``os.environ[key_env]`` at each request, sent as the ``Authorization``
header of that request only, and replaced by ``***`` in every message this module makes.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.errors import ArenaError, ProviderFailure
from arena.llm.limits import SharedLimits

#: the longest ``Retry-After`` honoured, seconds (a longer one is waited this long)
MAX_RETRY_AFTER = 600.0
#: HTTP statuses retried besides 5xx
RETRIED_STATUS = frozenset({408, 409, 429})


class ProviderUnreachable(ArenaError):
    """A language model's server cannot be used at the start of a run: it does not answer, it
    refuses the key, the key's environment variable is unset, or it does not serve the model.
    One line; the run stops before its first game."""


@dataclass(frozen=True)
class Reply:
    """One answer of the server.

    Attributes:
        text: the message's content (``""`` when it has none).
        finish_reason: ``stop``, ``length`` (cut off at ``max_tokens``)... or ``None``.
        tokens_in, tokens_out: the prompt and completion tokens of its ``usage`` (0 when absent).
        latency: seconds from sending the request to its answer.
    """

    text: str
    finish_reason: str | None
    tokens_in: int
    tokens_out: int
    latency: float


def secret(key_env: str | None) -> str | None:
    """The key in ``os.environ[key_env]`` now, or ``None`` (no ``key_env``, or unset)."""
    return os.environ.get(key_env) if key_env else None


def scrub(text: str, key_env: str | None) -> str:
    """``text`` with the key of ``key_env`` (if set and not trivially short) replaced by ``***``."""
    key = secret(key_env)
    return text.replace(key, "***") if key and len(key) >= 4 else text


_CLIENTS: dict[tuple[int, str, float], Any] = {}
_CLIENTS_LOCK = threading.Lock()


def client(base_url: str, timeout: float) -> Any:
    """The ``openai.OpenAI`` client of this process for ``base_url`` (its threads share it; a
    forked process makes its own connections), holding no key (``"unused"``; the key goes in each
    request's header), with the library's own retries off.

    Raises:
        ArenaError: the ``openai`` library is not installed (``pip install 'arena[llm]'``).
    """
    key = (os.getpid(), base_url, timeout)
    with _CLIENTS_LOCK:
        found = _CLIENTS.get(key)
        if found is None:
            try:
                import openai
            except ImportError:
                raise ArenaError("llm bots need the openai library: pip install 'arena[llm]'") from None
            found = _CLIENTS[key] = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0,
                                                  timeout=timeout)
        return found


def _headers(key_env: str | None) -> dict[str, str]:
    key = secret(key_env)
    return {"Authorization": f"Bearer {key}"} if key else {}


def retry_after(exc: Any) -> float | None:
    """Seconds a ``429``/``503`` answer asks to wait (``Retry-After``: seconds or an HTTP date;
    ``retry-after-ms``), at most ``MAX_RETRY_AFTER``; ``None`` when it does not say."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    millis, value = headers.get("retry-after-ms"), headers.get("retry-after")
    try:
        if millis is not None:
            return min(MAX_RETRY_AFTER, max(0.0, float(millis) / 1000))
        if value is None:
            return None
        try:
            return min(MAX_RETRY_AFTER, max(0.0, float(value)))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return min(MAX_RETRY_AFTER, max(0.0, when.timestamp() - time.time()))
    except (TypeError, ValueError, OverflowError):
        return None


def failure_reason(exc: Exception) -> tuple[str, bool]:
    """(why a request failed, in a few words; whether it is retried)."""
    import openai
    if isinstance(exc, BrokenAnswer):
        return f"broken answer: {exc}", True
    if isinstance(exc, json.JSONDecodeError):
        return f"broken answer: not JSON ({exc})", True
    if isinstance(exc, openai.APITimeoutError):
        return "the request timed out", True
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return f"connection failed ({type(cause).__name__}: {cause})", True
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        retried = status in RETRIED_STATUS or status >= 500
        return f"HTTP {status}: {str(exc)[:300]}", retried
    return f"{type(exc).__name__}: {str(exc)[:300]}", False


@dataclass
class Backoff:
    """How provider failures are retried: ``retries`` more requests, the k-th after
    ``min(maximum, first * 2**k)`` seconds times a jitter in [0.5, 1) from ``rng``
    (``Retry-After`` instead, when the server gives one)."""

    retries: int
    first: float
    maximum: float
    rng: random.Random
    sleep: Callable[[float], None] = time.sleep

    def wait(self, k: int, asked: float | None) -> float:
        """Wait before retry ``k`` (0-based); the seconds waited."""
        seconds = asked if asked is not None else min(self.maximum, self.first * 2 ** k) * (0.5 + self.rng.random() / 2)
        if seconds > 0:
            self.sleep(seconds)
        return seconds


def complete(base_url: str, key_env: str | None, timeout: float, request: dict[str, Any], backoff: Backoff,
             failed: Callable[[str], None], limits: SharedLimits | None = None, estimate: int = 0) -> Reply:
    """Send the chat-completions ``request`` (``model``, ``messages``, sampling parameters),
    retrying provider failures (``backoff``); ``failed(reason)`` is told of each failed request.
    ``limits``: the endpoint's shared rate limits, each request (retries too) reserving
    ``estimate`` tokens until the server tells its count (a failed request counts none).

    Raises:
        ProviderFailure: the last retry failed too, or an error that is not retried (the reason,
            the key scrubbed).
        ArenaError: the ``openai`` library is missing.
    """
    api = client(base_url, timeout)
    k = 0
    while True:
        ticket = limits.acquire(estimate) if limits is not None else ""
        start = time.perf_counter()
        try:
            response = api.chat.completions.create(**request, extra_headers=_headers(key_env))
            choice = _first_choice(response)
        except Exception as exc:  # noqa: BLE001 - classified below: the provider's, never the model's
            if limits is not None:
                limits.settle(ticket, 0)
            reason, retried = failure_reason(exc)
            reason = scrub(reason, key_env)
            failed(reason)
            if not retried or k >= backoff.retries:
                tries = f" after {k + 1} requests" if retried else ""
                raise ProviderFailure(f"{request.get('model')} at {base_url}: {reason}{tries}") from None
            backoff.wait(k, retry_after(exc))
            k += 1
            continue
        latency = time.perf_counter() - start
        usage = response.usage
        if limits is not None:
            limits.settle(ticket, int(getattr(usage, "total_tokens", 0) or 0))
        return Reply(text=choice.message.content or "", finish_reason=choice.finish_reason,
                     tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
                     tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
                     latency=latency)


class BrokenAnswer(Exception):
    """A 200 answer of the server that is not a chat completion (not JSON, no ``choices``, a
    choice without a message): the provider's failure, retried like a 5xx."""


def _first_choice(response: Any) -> Any:
    """The first choice of a chat-completions answer (its ``message`` may have no content: that is
    the model's answer).

    Raises:
        BrokenAnswer: the answer holds no choice with a message.
    """
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        body = response if isinstance(response, str) else f"choices {choices!r}"
        raise BrokenAnswer(f"no choice in the answer ({body[:100]!r})")
    if getattr(choices[0], "message", None) is None:
        raise BrokenAnswer("its first choice has no message")
    return choices[0]


def check_reachable(base_url: str, model: str, key_env: str | None, timeout: float = 10.0) -> None:
    """Check before a run that the server at ``base_url`` answers and serves ``model``: its
    ``GET /models`` list (a server without that route, 404, passes; a list without ``model``, or
    with it only as ``model:tag``, fails). ``timeout``: seconds.

    Raises:
        ProviderUnreachable: ``key_env`` names an unset variable, the server does not answer
            (refused, timed out), refuses the key (401, 403), or lists models without ``model``.
        ArenaError: the ``openai`` library is missing.
    """
    import openai
    if key_env and not os.environ.get(key_env):
        raise ProviderUnreachable(f"llm model {model!r}: the environment variable {key_env} (key_env=) is not set; "
                                  f"export the server's API key in it")
    api = client(base_url, timeout)
    try:
        listed = api.models.list(extra_headers=_headers(key_env))
        ids = [getattr(m, "id", "") for m in getattr(listed, "data", []) or []]
    except openai.APIStatusError as exc:
        if exc.status_code in (401, 403):
            raise ProviderUnreachable(f"llm server {base_url} refused the key in {key_env or '(none: no key_env=)'} "
                                      f"(HTTP {exc.status_code})") from None
        return  # it answers; a server without GET /models
    except openai.APIError as exc:
        reason = scrub(failure_reason(exc)[0], key_env)
        raise ProviderUnreachable(f"llm server {base_url} cannot be reached: {reason}; is it running, "
                                  f"and is base_url= right?") from None
    if ids and model not in ids and not any(i.startswith(model + ":") for i in ids):
        shown = ", ".join(sorted(ids)[:10]) + (" ..." if len(ids) > 10 else "")
        raise ProviderUnreachable(f"llm server {base_url} does not serve model {model!r}; it serves: {shown}")

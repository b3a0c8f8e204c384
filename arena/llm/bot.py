"""``LLMBot``: the ``llm:`` bot kind, a language model asked for each move (``arena.llm``)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections import Counter
from typing import Any

from arena.errors import ConfigError
from arena.games import Dynamics, Game, Param, State, View
from arena.llm import answers, prompts
from arena.llm.limits import SharedLimits
from arena.llm.options import EnvName, HttpUrl, Switch
from arena.llm.provider import Backoff, Reply, complete, scrub
from arena.llm.cache import Cached, open_cache
from bots.base import Bot, Limits, Plays, SearchStats

#: the seed of the backoff's jitter is the game's, mixed with this
JITTER_SALT = 0x6A177E5


def _reask(verdict: answers.Verdict) -> str:
    """The message that asks again after a bad answer, with the reason."""
    what = {answers.CUT_OFF: "was cut off", answers.UNPARSABLE: "names no move I can read",
            answers.ILLEGAL: "is illegal"}[verdict.verdict]
    return (f"Your answer {what}: {verdict.reason}. Answer again: think briefly, then give one legal move, "
            "alone, between tags on the last line: <move>YOUR MOVE</move>")


class LLMBot(Bot):
    """A language model over an OpenAI-compatible chat-completions server. Its options are in
    ``PARAMS`` (``docs/how-to/llm.md``); telemetry of each move in ``last_log`` (``arena.llm``).

    One instance plays one game at a time; the instances of a process, in any threads, share its
    HTTP client, its response cache and the endpoint's rate limits (each thread-safe).

    Raises (constructor):
        ConfigError: a bad option (no ``model=``, a ``base_url=`` that is no http(s) URL, a
            ``key_env=`` that is no variable name, a bad ``seed=`` or ``legal=``, an unreadable
            ``template=``), or the ``openai`` library missing.
    """

    name = "llm"
    summary = "a language model over an OpenAI-compatible chat-completions server (docs/how-to/llm.md)"
    PLAYS = Plays(dynamics=frozenset({Dynamics.SEQUENTIAL}), hidden_information=True)
    PARAMS = {
        "model": Param(None, "the model's name at the server (required)", kind=str),
        "base_url": HttpUrl("https://api.openai.com/v1", "the server's OpenAI-compatible API root (http:// or "
                            "https://)"),
        "key_env": EnvName(None, "the environment variable holding the API key (none: no key)", kind=str),
        "temperature": Param(0.0, "sampling temperature", minimum=0.0, maximum=2.0),
        "max_tokens": Param(1024, "the most tokens of one answer", minimum=1),
        "tokens_field": Param("max_tokens", "the request field max_tokens= is sent in (OpenAI's reasoning models "
                              "take max_completion_tokens)", choices=("max_tokens", "max_completion_tokens")),
        "retries": Param(2, "re-asks after an illegal, unparsable or cut-off answer", minimum=0),
        "legal": Switch(True, "list the legal moves in the prompt (on|off)"),
        "template": Param(None, "a Jinja2 prompt template file (default: the game's own)", kind=str),
        "seed": Param("game", "the request's seed: game (the game's seed), off, or an integer", kind=str),
        "price_in": Param(None, "USD per million prompt tokens (for the cost)", kind=float, minimum=0.0),
        "price_out": Param(None, "USD per million completion tokens (for the cost)", kind=float, minimum=0.0),
        "timeout": Param(120.0, "seconds one request may take", minimum=0.001),
        "provider_retries": Param(6, "retries of a failed request (timeout, refused, 429, 5xx)", minimum=0),
        "backoff": Param(1.0, "seconds before the first retry of a failed request (doubling)", minimum=0.0),
        "backoff_max": Param(60.0, "the longest wait between retries, seconds", minimum=0.0),
        "rpm": Param(None, "requests per minute to this base_url, shared by the run", kind=int, minimum=1),
        "tpm": Param(None, "tokens per minute to this base_url, shared by the run", kind=int, minimum=1),
    }
    #: ``choose`` waits on a server: a worker may play many such games at once in threads
    waits_on_network = True

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        if not o["model"]:
            raise ConfigError(f"bot llm: model= is required, e.g. llm:model=gpt-4o-mini; accepted options: "
                              f"{', '.join(self.PARAMS)}")
        seed = o["seed"].strip().lower()
        if seed not in ("game", "off") and not re.fullmatch(r"-?[0-9]+", seed):
            raise ConfigError(f"bot llm: bad seed={o['seed']!r}; accepted: game, off, or an integer")
        self.request_seed: int | str | None = int(seed) if seed not in ("game", "off") else seed
        try:
            import openai  # noqa: F401 - the optional extra, checked when the bot is made
        except ImportError:
            raise ConfigError("bot llm: needs the openai library: pip install 'arena[llm]'") from None
        self.base_url: str = o["base_url"].rstrip("/")
        #: what of the prompt templates the bot's version follows (the field check stores it
        #: with the class's code: ``arena.tournament.field_check``)
        self.code_identity = {"llm": prompts.template_identity(o["template"])}
        self.limits = SharedLimits(self.base_url, o["rpm"], o["tpm"])
        self.last_log: dict[str, Any] | None = None
        self._templates: dict[str, Any] = {}

    def reset(self, game: Game, seat: int, seed: int) -> None:
        """Prepare for a new game (``seed``: the game's seed of this seat, for the request's
        seed, the cache's sample index and the backoff's jitter).

        Raises:
            ConfigError: a game this kind cannot play. BotSpecError: a template that fails.
        """
        super().reset(game, seat, seed)
        if game.name not in self._templates:
            self._templates[game.name] = prompts.load(self.options["template"], game.name)
        self.game_seed = seed
        self._asked: Counter[str] = Counter()
        self._history: list[str] = []
        self._from_start = True
        self._after: State | None = None
        self._jitter = random.Random(seed ^ JITTER_SALT)
        self.last_log = None

    # the prompt --------------------------------------------------------------------------
    def _track(self, state: State | View) -> None:
        """Bring the history up to ``state``: the moves since the bot's last move (or since the
        start), searched for in a game of perfect information (``prompts.moves_between``)."""
        assert self.game is not None
        if isinstance(state, View):
            return
        before = self._after
        if before is None and self._from_start:
            try:
                before = self.game.initial_state(None)  # the setup when it needs no seed
            except Exception:  # noqa: BLE001 - a game whose setup is drawn: no history from the start
                before = None
        found = None if before is None else prompts.moves_between(self.game, before, state)
        if found is None:
            self._history, self._from_start = [], False
        else:
            self._history += found

    def prompt(self, state: State | View) -> str:
        """The first message for ``state``: the template rendered (``prompts``).

        Raises:
            BotSpecError: the template fails.
        """
        assert self.game is not None
        hidden = isinstance(state, View)
        legal = [str(m) for m in state.legal_moves()]
        variables = {
            "game": self.game.name, "summary": type(self.game).summary, "params": dict(self.game.params),
            "players": self.game.num_players, "seat": self.seat, "hidden": hidden,
            "position": state.text if isinstance(state, View) else state.to_text(),
            "diagram": state.text if isinstance(state, View) else state.diagram(),
            "history": list(self._history), "history_from_start": self._from_start,
            "legal_moves": legal if self.options["legal"] else None,
            "example": legal[0] if legal and self.options["legal"] else "MOVE",
        }
        where = self.options["template"] or f"{self.game.name} (default)"
        return prompts.render(self._templates[self.game.name], variables, where)

    # the requests ------------------------------------------------------------------------
    def _request(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        o = self.options
        out: dict[str, Any] = {"model": o["model"], "messages": messages, "temperature": o["temperature"],
                               o["tokens_field"]: o["max_tokens"]}
        if self.request_seed == "game":
            out["seed"] = self.game_seed % (2 ** 31)
        elif self.request_seed != "off":
            out["seed"] = self.request_seed
        return out

    def _ask(self, request: dict[str, Any], attempt: int, entries: list[dict[str, Any]]) -> tuple[Reply, bool]:
        """The answer to ``request`` (attempt ``attempt``, 1-based): from the cache, else from
        the server (stored in the cache at once); whether it came from the cache. A failed
        request adds an entry (``provider_error``) to ``entries``.

        Raises:
            ProviderFailure: the server still fails after the retries.
        """
        text = json.dumps({"base_url": self.base_url, "request": request, "attempt": attempt}, sort_keys=True)
        base = hashlib.sha256(text.encode()).hexdigest()
        sample = self._asked[base]
        self._asked[base] += 1
        key = hashlib.sha256(f"{base}:{self.game_seed}:{sample}".encode()).hexdigest()
        cache = open_cache()
        found = None if cache is None else cache.get(key)
        if found is not None:
            return Reply(found.answer, found.finish_reason, found.tokens_in, found.tokens_out, found.latency), True

        def failed(reason: str) -> None:
            entries.append({"attempt": attempt, "prompt": request["messages"], "answer": None, "finish_reason": None,
                            "verdict": answers.PROVIDER_ERROR, "reason": reason, "tokens_in": 0, "tokens_out": 0,
                            "latency": None, "cached": False})

        o = self.options
        backoff = Backoff(o["provider_retries"], o["backoff"], o["backoff_max"], self._jitter)
        estimate = len(text) // 4 + o["max_tokens"]
        reply = complete(self.base_url, o["key_env"], o["timeout"], request, backoff, failed,
                         self.limits if self.limits.active else None, estimate)
        if cache is not None:
            cache.put(key, Cached(reply.text, reply.finish_reason, reply.tokens_in, reply.tokens_out, reply.latency))
        return reply, False

    def choose(self, state: State, limits: Limits | None) -> Any:
        """The model's move: asked, and re-asked with the reason after an illegal, unparsable or
        cut-off answer up to ``retries`` times; after those, the last answer's move text (or its
        first 200 characters) for the referee to judge (``illegal_move`` / ``bad_move``).
        ``last_log`` is set (also before raising).

        Raises:
            ProviderFailure: the server failed (``provider.complete``): the game is void.
            RuntimeError: ``reset`` was not called first.
        """
        start = time.perf_counter()
        self.last_log = None
        if self.no_answer(state, start):
            return None
        assert self.game is not None
        self._track(state)
        messages = [{"role": "user", "content": self.prompt(state)}]
        entries: list[dict[str, Any]] = []
        verdict, reply = None, None
        try:
            for attempt in range(1, self.options["retries"] + 2):
                reply, cached = self._ask(self._request(messages), attempt, entries)
                verdict = answers.judge(self.game, state, reply.text, reply.finish_reason, self.options["max_tokens"])
                entries.append({"attempt": attempt, "prompt": messages, "answer": reply.text,
                                "finish_reason": reply.finish_reason, "verdict": verdict.verdict,
                                "reason": verdict.reason, "tokens_in": reply.tokens_in, "tokens_out": reply.tokens_out,
                                "latency": round(reply.latency, 6), "cached": cached})
                if verdict.verdict == answers.LEGAL:
                    break
                messages = messages + [{"role": "assistant", "content": reply.text},
                                       {"role": "user", "content": _reask(verdict)}]
        finally:
            self.last_log = self._log(entries, time.perf_counter() - start)
            self.last_stats = SearchStats(0, 0, time.perf_counter() - start, None)
        assert verdict is not None and reply is not None
        if verdict.verdict != answers.LEGAL:
            return verdict.text or reply.text.strip()[:200]
        self._history.append(str(verdict.move))
        if not isinstance(state, View):
            self._after = state.play(verdict.move)
        return verdict.move

    def _log(self, entries: list[dict[str, Any]], wall: float) -> dict[str, Any]:
        """The move's telemetry (``arena.llm``'s module doc), the key scrubbed from every text."""
        answered = [e for e in entries if e["verdict"] != answers.PROVIDER_ERROR]
        tokens_in = sum(e["tokens_in"] for e in answered)
        tokens_out = sum(e["tokens_out"] for e in answered)
        price_in, price_out = self.options["price_in"], self.options["price_out"]
        cost = None if price_in is None and price_out is None else \
            round((tokens_in * (price_in or 0.0) + tokens_out * (price_out or 0.0)) / 1e6, 9)
        log = {"model": self.options["model"], "tokens_in": tokens_in, "tokens_out": tokens_out,
               "latency": round(sum(e["latency"] for e in answered), 6), "wall": round(wall, 6),
               "attempts": len(answered), "provider_errors": len(entries) - len(answered), "cost": cost,
               "cached": bool(answered) and all(e["cached"] for e in answered),
               "verdict": entries[-1]["verdict"] if entries else None, "transcript": entries}
        key_env = self.options["key_env"]
        text = json.dumps(log)
        clean = scrub(text, key_env)
        return log if clean == text else json.loads(clean)

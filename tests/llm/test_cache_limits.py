"""The llm: bot's response cache, shared rate limits, secrets and version; a whole game."""

import json
import os
import secrets

import pytest

from arena.errors import ProviderFailure
from arena.games import make as make_game
from arena.llm.limits import WINDOW, SharedLimits
from arena.referee import GameSettings, play_game
from arena.tournament.field_check import check_bots
from arena.tournament.members import identify
from bots.registry import make, parse_spec
from tests.llm.server import Step, legal_responder

FAST = "timeout=20,backoff=0.01,backoff_max=0.05"


def bot_for(server, extra="", seat=0, seed=7):
    bot = make(f"llm:model=test,base_url={server.url},{FAST}" + (f",{extra}" if extra else ""))
    game = make_game("interaction")
    bot.reset(game, seat, seed)
    return bot, game.initial_state(1)


def test_cached_answers_are_replayed_without_requests(serve, tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_LLM_CACHE", str(tmp_path / "llm-cache.sqlite"))
    server = serve([Step("<move>e5N</move>"), Step("<move>i4N</move>"), Step("<move>a6E</move>")])
    bot, state = bot_for(server)
    first = bot.choose(state, None)
    assert server.count == 2 and bot.last_log["cached"] is False
    again, state = bot_for(server)  # a rerun of the same game: the same seed
    assert again.choose(state, None) == first and server.count == 2
    assert again.last_log["cached"] is True and again.last_log["tokens_in"] == bot.last_log["tokens_in"]
    assert [e["cached"] for e in again.last_log["transcript"]] == [True, True]
    other, state = bot_for(server, seed=8)  # another game's sample
    assert str(other.choose(state, None)) == "a6E" and server.count == 3
    monkeypatch.setenv("ARENA_LLM_CACHE", "off")
    off, state = bot_for(server)
    off.choose(state, None)
    assert server.count == 4


def test_an_answer_is_committed_before_the_next_request(serve, tmp_path, monkeypatch):
    """A process killed after an answer arrived keeps it: the cache file holds it at once."""
    import sqlite3
    path = tmp_path / "llm-cache.sqlite"
    monkeypatch.setenv("ARENA_LLM_CACHE", str(path))
    server = serve([Step("<move>e5N</move>"), Step(status=500)])
    bot, state = bot_for(server, "provider_retries=0")
    with pytest.raises(ProviderFailure):
        bot.choose(state, None)
    with sqlite3.connect(path) as other:  # another connection: what a new process would read
        assert other.execute("SELECT answer FROM answers").fetchall() == [("<move>e5N</move>",)]


def test_the_key_is_sent_and_never_written(serve, tmp_path, monkeypatch):
    key = "sk-test-" + secrets.token_hex(16)
    monkeypatch.setenv("ARENA_TEST_KEY", key)
    monkeypatch.setenv("ARENA_LLM_CACHE", str(tmp_path / "cache" / "llm-cache.sqlite"))
    echo = f"Incorrect API key provided: {key}"
    server = serve([Step("<move>e5N</move>"), Step("<move>i4N</move>"), Step(status=401, message=echo)])
    bot, state = bot_for(server, "key_env=ARENA_TEST_KEY,rpm=100,tpm=1000000")
    bot.choose(state, None)
    assert server.auth == [f"Bearer {key}"] * 2
    with pytest.raises(ProviderFailure) as caught:
        bot.choose(state, None)  # the server echoes the key in its error
    assert "***" in str(caught.value) and key not in str(caught.value)
    written = [json.dumps(bot.last_log), str(caught.value), repr(bot.options), repr(bot.code_identity)]
    assert all(key not in text for text in written)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name.startswith("limits-") for p in files) and any(p.name.endswith(".sqlite") for p in files)
    assert all(key.encode() not in p.read_bytes() for p in files)


def test_requests_per_minute_are_shared_by_processes(tmp_path):
    waits = []

    def sleep(seconds):
        waits.append(seconds)
        raise TimeoutError

    one = SharedLimits("http://127.0.0.1:1/v1", rpm=2, tpm=None, sleep=sleep)
    one.acquire(10)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - another worker process
        SharedLimits("http://127.0.0.1:1/v1", rpm=2, tpm=None).acquire(10)
        os._exit(0)
    assert os.waitpid(pid, 0)[1] == 0
    with pytest.raises(TimeoutError):
        one.acquire(10)  # the third request of the minute waits for the first to leave it
    assert WINDOW - 30 < waits[0] <= WINDOW + 1
    SharedLimits("http://127.0.0.1:2/v1", rpm=2, tpm=None, sleep=sleep).acquire(10)  # another endpoint


def test_tokens_per_minute_count_what_the_server_counted(tmp_path):
    waits = []

    def sleep(seconds):
        waits.append(seconds)
        raise TimeoutError

    limits = SharedLimits("http://127.0.0.1:1/v1", rpm=None, tpm=1000, sleep=sleep)
    ticket = limits.acquire(900)  # reserved: the prompt's estimate plus max_tokens
    limits.settle(ticket, 300)  # the server counted 300
    limits.acquire(600)
    with pytest.raises(TimeoutError):
        limits.acquire(200)
    assert waits and waits[0] > WINDOW - 30


def test_an_edited_template_is_a_new_version(tmp_path):
    template = tmp_path / "prompt.j2"
    template.write_text("{{ position }} <move>MOVE</move>\n")
    spec = parse_spec(f"llm:model=test,base_url=http://127.0.0.1:1/v1,template={template}")
    game = make_game("interaction")

    def digest():
        facts = check_bots([spec], game, "none")
        return identify(spec, facts.get(spec.label)).digest

    first = digest()
    assert digest() == first
    template.write_text("{{ position }}\nYour move: <move>MOVE</move>\n")
    assert digest() != first


def test_a_whole_game_against_random(serve):
    server = serve(responder=legal_responder)
    llm = make(f"llm:model=test,base_url={server.url},{FAST}")
    game = make_game("interaction", max_plies=16)
    record = play_game(GameSettings(game, seed=3, labels=("llm", "random")), [llm, make("random")])
    assert len(record.moves) == 16 and record.fault_seat is None
    assert server.count == 8 and llm.last_log["verdict"] == "legal"
    last = server.bodies[-1]["messages"][0]["content"]
    assert "The moves so far, from the start: " + " ".join(record.moves[:14]) in last


def test_many_bots_in_threads_share_the_client_and_the_cache(serve, tmp_path, monkeypatch):
    """64 bots of one process ask at once (each thread its own bot, as 64 games at once would):
    every request is answered at once (no retry: the server's listen queue takes them all), every
    answer cached."""
    import threading
    from arena.llm.cache import open_cache
    from tests.llm.server import legal_responder_after
    monkeypatch.setenv("ARENA_LLM_CACHE", str(tmp_path / "llm-cache.sqlite"))
    server = serve(responder=legal_responder_after(0.5))
    game = make_game("interaction")
    state = game.initial_state(1)
    moves, errors = [], []

    def play(seed):
        try:
            bot = make(f"llm:model=test,base_url={server.url},{FAST},provider_retries=0")
            bot.reset(game, 0, seed)
            moves.append(bot.choose(state, None))
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == [] and len(moves) == 64 and all(m in state.legal_moves() for m in moves)
    assert server.count == 64 and len(open_cache()) == 64


def test_a_process_killed_mid_move_never_pays_twice(serve, tmp_path, monkeypatch):
    """kill -9 while the second attempt waits on the server: the first answer is in the cache,
    so the move asked again in a new process sends only the unanswered request again."""
    import signal
    import subprocess
    import sys
    import time
    cache = tmp_path / "llm-cache.sqlite"
    server = serve([Step("<move>e5N</move>"), Step("<move>i4N</move>", delay=60), Step("<move>a6E</move>")])
    code = ("from arena.games import make as g\nfrom bots.registry import make\n"
            f"bot = make('llm:model=test,base_url={server.url},timeout=120')\n"
            "game = g('interaction'); bot.reset(game, 0, 7); bot.choose(game.initial_state(1), None)\n")
    env = {**os.environ, "ARENA_LLM_CACHE": str(cache), "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        deadline = time.monotonic() + 120
        while server.count < 2 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        assert server.count == 2
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    monkeypatch.setenv("ARENA_LLM_CACHE", str(cache))
    bot, state = bot_for(server)
    assert str(bot.choose(state, None)) == "a6E"
    assert server.count == 3 and [e["cached"] for e in bot.last_log["transcript"]] == [True, False]

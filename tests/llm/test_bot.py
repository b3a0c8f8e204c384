"""The llm: bot against the local chat-completions server (tests/llm/server.py): real HTTP through
the openai client, on real Interaction positions."""

import json
import time

import pytest

from arena.errors import BotSpecError, ProviderFailure
from arena.games import make as make_game
from arena.llm import ProviderUnreachable, check_reachable, check_specs
from arena.referee.asking import settle
from arena.referee.records import Termination
from bots.registry import make, parse_spec
from tests.llm.server import Step, refused_url

#: generous request timeouts (a loaded machine), short waits between retries
FAST = {"timeout": "20", "backoff": "0.01", "backoff_max": "0.05"}


def bot_at(server_url, options="", seat=0, seed=7):
    given = {**FAST, **dict(item.split("=", 1) for item in options.split(",") if item)}
    bot = make(f"llm:model=test,base_url={server_url}," + ",".join(f"{k}={v}" for k, v in given.items()))
    game = make_game("interaction")
    bot.reset(game, seat, seed)
    return bot, game, game.initial_state(1)


def test_a_legal_answer_is_played_with_its_telemetry(serve):
    server = serve([Step("I push the red ball north.\n<move>i4N</move>", tokens_in=120, tokens_out=30)])
    bot, game, state = bot_at(server.url, "price_in=2,price_out=10")
    move = bot.choose(state, None)
    assert str(move) == "i4N" and move in state.legal_moves()
    log = bot.last_log
    assert server.count == 1
    assert (log["tokens_in"], log["tokens_out"], log["attempts"], log["cached"]) == (120, 30, 1, False)
    assert log["cost"] == pytest.approx((120 * 2 + 30 * 10) / 1e6)
    assert [e["verdict"] for e in log["transcript"]] == ["legal"]
    assert log["transcript"][0]["prompt"][0]["content"].startswith("You are playing interaction")
    assert "Your legal moves: i4N" in server.bodies[0]["messages"][0]["content"]
    assert server.bodies[0]["seed"] == 7 and server.bodies[0]["max_tokens"] == 1024
    server = serve([Step("<move>i4N</move>")])
    bot, game, state = bot_at(server.url, "tokens_field=max_completion_tokens,max_tokens=300,seed=off")
    bot.choose(state, None)
    assert server.bodies[0]["max_completion_tokens"] == 300 and "max_tokens" not in server.bodies[0]
    assert "seed" not in server.bodies[0]
    json.dumps(log)  # JSON-able


def test_an_illegal_answer_is_asked_again_with_the_reason(serve):
    server = serve([Step("<move>e5N</move>"), Step("<move>a6E</move>")])
    bot, game, state = bot_at(server.url)
    assert str(bot.choose(state, None)) == "a6E"
    log = bot.last_log
    assert server.count == 2 and log["attempts"] == 2
    assert [e["verdict"] for e in log["transcript"]] == ["illegal", "legal"]
    reask = server.bodies[1]["messages"]
    assert [m["role"] for m in reask] == ["user", "assistant", "user"]
    assert "is illegal" in reask[-1]["content"] and "'e5N'" in reask[-1]["content"]
    assert log["tokens_in"] == 200  # both attempts counted


def test_garbage_after_the_retries_loses_by_bad_move(serve):
    server = serve([Step("I am not sure what to do here.")])
    bot, game, state = bot_at(server.url, "retries=2")
    answer = bot.choose(state, None)
    assert server.count == 3
    assert [e["verdict"] for e in bot.last_log["transcript"]] == ["unparsable"] * 3
    after, _, fault, _ = settle(game, state, answer)
    assert after is None and fault == Termination.BAD_MOVE


def test_an_illegal_move_after_the_retries_loses_by_illegal_move(serve):
    server = serve([Step("<move>e5N</move>")])
    bot, game, state = bot_at(server.url, "retries=1")
    answer = bot.choose(state, None)
    assert server.count == 2 and answer == "e5N"
    _, _, fault, _ = settle(game, state, answer)
    assert fault == Termination.ILLEGAL_MOVE


def test_a_cut_off_answer_is_asked_again(serve):
    server = serve([Step("Let me think about every ball in turn, first", finish_reason="length"),
                    Step("<move>i4N</move>")])
    bot, game, state = bot_at(server.url, "max_tokens=12")
    assert str(bot.choose(state, None)) == "i4N"
    first = bot.last_log["transcript"][0]
    assert (first["verdict"], first["finish_reason"]) == ("cut_off", "length")
    assert "max_tokens=12" in first["reason"]


def test_a_slow_server_times_out_and_the_game_is_void(serve):
    server = serve([Step("<move>i4N</move>", delay=30)])
    bot, game, state = bot_at(server.url, "timeout=0.3,provider_retries=1")
    start = time.monotonic()
    with pytest.raises(ProviderFailure, match="timed out after 2 requests"):
        bot.choose(state, None)
    assert time.monotonic() - start < 20
    assert server.count == 2
    log = bot.last_log
    assert (log["provider_errors"], log["attempts"]) == (2, 0)
    assert [e["verdict"] for e in log["transcript"]] == ["provider_error"] * 2


def test_429_waits_as_retry_after_says(serve):
    server = serve([Step(status=429, headers={"Retry-After": "1"}), Step("<move>i4N</move>")])
    # a backoff of its own would wait 30 s or more: the 1 s of Retry-After is what it waited
    bot, game, state = bot_at(server.url, "backoff=60,backoff_max=60")
    start = time.monotonic()
    assert str(bot.choose(state, None)) == "i4N"
    waited = time.monotonic() - start
    assert 1.0 <= waited < 20
    assert server.count == 2 and bot.last_log["provider_errors"] == 1
    assert "HTTP 429" in bot.last_log["transcript"][0]["reason"]


def test_5xx_is_retried_then_void(serve):
    server = serve([Step(status=500), Step("<move>i4N</move>")])
    bot, game, state = bot_at(server.url)
    assert str(bot.choose(state, None)) == "i4N" and server.count == 2
    server = serve([Step(status=503)])
    bot, game, state = bot_at(server.url, "provider_retries=3")
    with pytest.raises(ProviderFailure, match="HTTP 503"):
        bot.choose(state, None)
    assert server.count == 4


@pytest.mark.parametrize(("raw", "kind"), [
    ("<html>502 Bad Gateway</html>", "text/html"), ("<html>502 Bad Gateway</html>", "application/json"),
    ('{"id": "x", "object": "chat.completion", "choices": []}', "application/json"),
    ('{"choices": [{"index": 0}]}', "application/json")])
def test_a_broken_200_answer_is_the_provider_s_failure(serve, raw, kind):
    # not JSON, no choice, a choice without a message: retried like a 5xx, then void (nobody blamed)
    broken = Step(raw=raw, headers={"Content-Type": kind})
    server = serve([broken, Step("<move>i4N</move>")])
    bot, game, state = bot_at(server.url)
    assert str(bot.choose(state, None)) == "i4N" and server.count == 2
    assert bot.last_log["provider_errors"] == 1
    server = serve([broken])
    bot, game, state = bot_at(server.url, "provider_retries=2")
    with pytest.raises(ProviderFailure, match="broken answer"):
        bot.choose(state, None)
    assert server.count == 3


def test_a_client_error_is_not_retried(serve):
    server = serve([Step(status=400, message="bad request")])
    bot, game, state = bot_at(server.url)
    with pytest.raises(ProviderFailure, match="HTTP 400"):
        bot.choose(state, None)
    assert server.count == 1


def test_a_refused_connection_is_void_and_fails_the_check():
    url = refused_url()
    bot, game, state = bot_at(url, "provider_retries=2")
    with pytest.raises(ProviderFailure, match="connection failed"):
        bot.choose(state, None)
    assert bot.last_log["provider_errors"] == 3
    with pytest.raises(ProviderUnreachable, match="cannot be reached") as caught:
        check_reachable(bot, timeout=10)
    assert "\n" not in str(caught.value)


def test_check_before_a_run(serve, monkeypatch):
    server = serve(models=("test", "other:7b"))
    check_specs([parse_spec(f"llm:model=test,base_url={server.url}"), parse_spec("random")])
    check_specs([parse_spec(f"llm:model=other,base_url={server.url}")])  # Ollama's NAME:TAG
    with pytest.raises(ProviderUnreachable, match="does not serve model 'nope'; it serves: other:7b, test"):
        check_specs([parse_spec(f"llm:model=nope,base_url={server.url}")])
    monkeypatch.delenv("ARENA_TEST_KEY", raising=False)
    with pytest.raises(ProviderUnreachable, match="ARENA_TEST_KEY .* is not set"):
        check_specs([parse_spec(f"llm:model=test,base_url={server.url},key_env=ARENA_TEST_KEY")])
    assert server.count == 0  # no chat request: nothing paid


@pytest.mark.parametrize("spec, message", [
    ("llm:base_url=http://x/v1", "model= is required"),
    ("llm:model=m,colour=red", "unknown parameter 'colour'; accepted: model, base_url"),
    ("llm:model=m,key_env=sk-123", "key_env must name an environment variable .*not hold the key itself"),
    ("llm:model=m,base_url=ftp://x", "base_url='ftp://x' is not accepted; accepted: an http:// or https:// URL, "
                                     "e.g. http://127.0.0.1:8000/v1"),
    ("llm:model=m,base_url=notaurl", "base_url='notaurl' .*accepted: an http:// or https:// URL"),
    ("llm:model=m,base_url=http://", "accepted: an http:// or https:// URL"),
    ("llm:model=m,seed=often", "accepted: game, off, or an integer"),
    ("llm:model=m,legal=maybe", r"legal='maybe' is not accepted; accepted: on or off \(default on\)"),
    ("llm:model=m,template=/nonexistent/t.j2", "cannot be read"),
])
def test_bad_options_are_one_line_spec_errors(spec, message):
    with pytest.raises(BotSpecError, match=message) as caught:
        make(spec)
    assert "\n" not in str(caught.value)
    assert "sk-123" not in str(caught.value)  # a key typed in place of key_env's variable is never repeated



def test_legal_off_and_a_template_of_ones_own(serve, tmp_path):
    template = tmp_path / "mine.j2"
    template.write_text("Seat {{ seat }} of {{ game }}: {{ position }}\n"
                        "{% if legal_moves is none %}Find a legal move.{% endif %} Answer <move>MOVE</move>.\n")
    server = serve([Step("<move>i4N</move>")])
    bot, game, state = bot_at(server.url, f"legal=off,template={template}")
    bot.choose(state, None)
    prompt = server.bodies[0]["messages"][0]["content"]
    assert prompt.startswith(f"Seat 0 of interaction: {state.to_text()}") and "Find a legal move." in prompt
    assert "i4NE" not in prompt
    template.write_text("{{ no_such_variable }}")
    bot = make(f"llm:model=test,base_url={server.url},template={template}")
    bot.reset(game, 0, 1)
    with pytest.raises(BotSpecError, match="no_such_variable"):
        bot.choose(state, None)


def test_the_history_reaches_the_prompt(serve):
    server = serve([Step("<move>i4S</move>"), Step("<move>a3N</move>")])
    bot, game, state = bot_at(server.url)
    move = bot.choose(state, None)
    state = state.play(move)
    state = state.play(state.legal_moves()[0])  # the other seat's move
    bot.choose(state, None)
    second = server.bodies[1]["messages"][0]["content"]
    assert f"The moves so far, from the start: i4S {state_history_move(game)}" in second


def state_history_move(game):
    state = game.initial_state(1)
    after = state.play(game.parse_move(state, "i4S"))
    return str(after.legal_moves()[0])


def test_with_hidden_information_the_prompt_holds_the_seat_s_view_only(serve):
    from tests.bots.hidden_games import Kuhn, KuhnState
    server = serve([Step("<move>J</move>"), Step("I hold the queen.\nBet")])
    bot = make(f"llm:model=test,base_url={server.url},timeout=20")
    game = Kuhn()
    bot.reset(game, 1, 3)
    view = KuhnState(game, "KQ", "p").view(1)
    assert bot.choose(view, None) == "Bet"
    first = server.bodies[0]["messages"][0]["content"]
    assert "What you can see of the game now:\nQp" in first and "KQ" not in first
    assert "Your legal moves: Pass Bet" in first
    assert [e["verdict"] for e in bot.last_log["transcript"]] == ["illegal", "legal"]

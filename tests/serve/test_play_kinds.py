"""The play page lists, and its refusals name, only the bot kinds that can play the chosen
game and that a page may start: no kind that cannot play it (``known``, ``ricochet-*``,
``interaction-solo-*``, ``openspiel.cfr``), no ``human`` and no ``llm``; and a refusal is worded
for the page, not for the command line."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

import pytest

import arena.games
from arena.errors import BotSpecError

pytest.importorskip("starlette", reason="arena serve needs the serve extra: pip install -e '.[serve]'")

UNPLAYABLE = ("known", "ricochet-greedy", "interaction-solo-greedy", "openspiel.cfr", "human", "llm")


def _accepted(message: str) -> list[str]:
    m = re.search(r"accepted: ([^(]*)", message)
    assert m, message
    return [k.strip() for k in m.group(1).split(",")]


def test_only_kinds_that_play_the_game_are_offered_and_named(tmp_path):
    from starlette.requests import Request

    from arena.serve.app import Site
    from arena.serve.play import allowed_spec, start, web_kinds

    game = arena.games.make("interaction")
    kinds = web_kinds(game)
    assert {"random", "alphabeta", "mcts"} <= set(kinds) and not set(UNPLAYABLE) & set(kinds), kinds
    for text, why in ((":", "has no kind"), ("known", "cannot play interaction"),
                      ("ricochet-greedy:x=1", "cannot play interaction"), ("llm", "cannot be started")):
        with pytest.raises(BotSpecError) as refused:
            allowed_spec(text, game)
        assert why in str(refused.value) and _accepted(str(refused.value)) == kinds, (text, refused.value)
    with pytest.raises(BotSpecError) as refused:
        allowed_spec("human=random", game)  # the person's seat is labelled human
    assert "--" not in str(refused.value) and "human2" not in str(refused.value), refused.value
    scope = {"type": "http", "method": "GET", "path": "/play", "headers": [], "query_string": b"",
             "app": SimpleNamespace(state=SimpleNamespace(site=Site(tmp_path)))}
    html = asyncio.run(start(Request(scope))).body.decode()
    datalist = html.split('<datalist id="bot-kinds">', 1)[1].split("</datalist>", 1)[0]
    listed = re.findall(r'<option value="([^"]+)">', datalist)
    assert listed == kinds, listed

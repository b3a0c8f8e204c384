"""Reading a model's answer (``arena.llm.answers``)."""

import pytest

from arena.games import make as make_game
from arena.llm.answers import judge, move_text


@pytest.mark.parametrize("answer, text", [
    ("I think <move>a</move> then <move> i4N </move>", "i4N"),
    ("Let me see.\n\nMove: `i4N`.\n", "i4N"),
    ("**i4N**", "i4N"),
    ("Final answer: i4N", "i4N"),
    ("", ""),
    ("  \n \n", ""),
])
def test_the_move_text_of_an_answer(answer, text):
    assert move_text(answer) == text


def test_the_verdicts():
    game = make_game("interaction")
    state = game.initial_state(1)
    assert judge(game, state, "<move>i4N</move>", "stop", 50).verdict == "legal"
    illegal = judge(game, state, "<move>e5N</move>", "stop", 50)
    assert illegal.verdict == "illegal" and "'e5N' is illegal here" in illegal.reason
    assert judge(game, state, "<move>castle</move>", "stop", 50).verdict == "unparsable"
    assert judge(game, state, "<move>i4N</move>", "length", 50).verdict == "cut_off"


@pytest.mark.parametrize("name", ["interaction", "interaction-solo", "sandpile", "known"])
def test_every_sequential_game_has_a_prompt(name):
    """The packaged templates render for the built-in sequential games (the game's own, or
    default.j2), with the position and the legal moves."""
    from bots.registry import make
    game = make_game(name)
    state = game.initial_state(1)
    bot = make("llm:model=m,base_url=http://127.0.0.1:1/v1")
    bot.reset(game, max(state.to_move, 0), 1)
    prompt = bot.prompt(state)
    assert state.to_text() in prompt and f"<move>{state.legal_moves()[0]}</move>" in prompt

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

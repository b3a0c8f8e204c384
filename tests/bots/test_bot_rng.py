"""``Bot.rng``: ``random.Random(0)`` until ``reset`` seeds it, made only when looked at (a
bot is made for every game and reset before its first move)."""

import random

import arena.games
from bots.random import RandomBot


def test_the_generator_before_reset_is_seeded_with_0_and_made_on_first_look():
    bot = RandomBot()
    assert "rng" not in vars(bot)
    drawn = [bot.rng.random() for _ in range(3)]
    expected = random.Random(0)
    assert drawn == [expected.random() for _ in range(3)]
    assert bot.rng is bot.rng  # made once


def test_reset_seeds_the_generator_with_the_games_seed():
    bot = RandomBot()
    bot.reset(arena.games.make("interaction"), 1, 77)
    assert bot.rng.random() == random.Random(77).random()
    assert "rng" not in vars(RandomBot())  # another bot still has none

"""``arena.tournament.config.build``, the library's way to make a ``TournamentConfig``: every
mistake a caller can make is a one-line ``ConfigError`` (``docs/arena.md`` "Contracts")."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.tournament.config import SETTINGS, build


def test_a_field_given_as_one_string_is_refused_not_split_into_letters():
    with pytest.raises(ConfigError, match=r"bots must be a list of bot spec strings .* got 'random'"):
        build({"bots": "random"})
    with pytest.raises(ConfigError, match="engines must be a list"):
        build({"bots": ["random", "greedy"], "engines": [3]})


def test_an_unknown_setting_is_named_with_the_accepted_ones():
    with pytest.raises(ConfigError, match=r"unknown setting 'nosuchkey'; accepted: game, params, bots"):
        build({"nosuchkey": 1})


def test_a_name_that_is_not_text_is_a_bad_name():
    with pytest.raises(ConfigError, match="bad tournament name 5"):
        build({"name": 5})


def test_every_cli_option_is_an_accepted_setting():
    cfg = build({"bots": ["random", "greedy"], "games": 4, "engines": None})
    assert cfg.bots == ("random", "greedy") and cfg.games == 4
    assert {"games", "bots", "engines", "sprt", "isolation", "cluster", "workers"} <= set(SETTINGS)

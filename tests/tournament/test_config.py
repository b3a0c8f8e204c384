"""``arena.tournament.config.build``, the library's way to make a ``TournamentConfig``: every
mistake a caller can make is a one-line ``ConfigError`` (``docs/arena.md`` "Contracts")."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.tournament.config import SETTINGS, TournamentConfig, build


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


def test_a_name_too_long_for_its_files_is_refused_before_the_first_game(tmp_path, capsys):
    """A 245-character --name ended in an OSError traceback (File name too long) at the lock, and
    one of 230 played every game before its report files failed."""
    from arena.tournament.config import NAME_MAX
    from tests.cli_run import run_cli

    assert build({"name": "n" * NAME_MAX, "bots": ["random", "greedy"]}).name == "n" * NAME_MAX
    with pytest.raises(ConfigError, match=f"at most {NAME_MAX} ASCII letters"):
        build({"name": "n" * (NAME_MAX + 1)})
    for length in (230, 245):
        code, out, err = run_cli(["run", "--bot", "random", "--bot", "greedy", "--games", "2", "--name", "n" * length,
                                  "--results", str(tmp_path), "-q"], capsys)
        assert code == 2 and "bad tournament name" in err and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []  # nothing stored, no lock left


def test_every_cli_option_is_an_accepted_setting():
    cfg = build({"bots": ["random", "greedy"], "games": 4, "engines": None})
    assert cfg.bots == ("random", "greedy") and cfg.games == 4
    assert {"games", "bots", "engines", "sprt", "isolation", "cluster", "workers"} <= set(SETTINGS)


def test_opening_plies_no_game_can_play_are_refused_in_one_line():
    """``--opening-plies`` at or past the ply limit, or in a game whose seats move at once, is
    refused; Ricochet's default (2, not given) stays accepted: its stored runs keep their name."""
    from arena.errors import ConfigError

    with pytest.raises(ConfigError, match=r"^--opening-plies 500 is more than interaction can play: its games end "
                                          r"at max_plies=200; accepted: 0 to 199"):
        build({"opening_plies": "500"})
    with pytest.raises(ConfigError, match="accepted: 0 to 9"):
        build({"opening_plies": 10, "params": {"max_plies": 10}})
    assert build({"opening_plies": 9, "params": {"max_plies": 10}}).opening_plies == 9
    with pytest.raises(ConfigError, match=r"^--opening-plies 2: ricochet has no random opening plies .*accepted: 0"):
        build({"game": "ricochet", "opening_plies": 2})
    assert build({"game": "ricochet"}).opening_plies == 2 and build({"game": "ricochet", "opening_plies": 0})


def test_a_run_counts_the_games_whose_random_opening_stopped_short(tmp_path):
    """Nim with 15 stones ends within 15 plies: 30 random plies are cut before the move that ends
    each game, and the summary says how many games and the fewest plies played."""
    from arena.tournament import run_tournament
    from arena.results.store import load_games

    summary = run_tournament(build({"game": "nim", "params": {"pile": 15}, "bots": ["random", "b=random"],
                                    "games": 4, "workers": 1, "opening_plies": 30, "results": str(tmp_path)}))
    stored = load_games(summary.path)
    assert summary.short_openings == 4 == summary.played
    assert summary.fewest_opening_plies == stored["opening_plies"].min() < 15
    plain = run_tournament(build({"game": "nim", "params": {"pile": 15}, "bots": ["random", "b=random"],
                                  "games": 4, "workers": 1, "opening_plies": 2, "results": str(tmp_path)}))
    assert plain.short_openings == 0 and plain.fewest_opening_plies is None


def test_enumerated_settings_are_enums_and_stored_as_the_same_text():
    """``format``, ``seat_rotation``, ``openings_order``, ``isolation`` are their enums, ``sprt``
    its spec; the settings stored with a tournament, and the name derived from them, are the
    text the code before enum-typed settings wrote (the run name: computed by that code)."""
    import json

    from arena.engine.sandbox import Isolation
    from arena.openings import OpeningsOrder
    from arena.results.settings import Format, Rotation
    from arena.stats.sprt import SprtModel, SprtSpec

    cfg = build({"bots": ["random", "greedy"], "format": "gauntlet", "seat_rotation": "all", "games": 4,
                 "openings_order": "random", "sprt": "elo0=0,elo1=10,model=normalized", "isolation": "process"})
    assert cfg.format is Format.GAUNTLET and cfg.seat_rotation is Rotation.ALL
    assert cfg.openings_order is OpeningsOrder.RANDOM and cfg.isolation is Isolation.PROCESS
    assert isinstance(cfg.sprt, SprtSpec) and cfg.sprt.model is SprtModel.NORMALIZED
    stored = json.dumps(cfg.settings(), sort_keys=True)
    assert ('"format": "gauntlet"' in stored and '"seat_rotation": "all"' in stored
            and '"openings_order": "random"' in stored
            and '"sprt": "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized"' in stored)
    assert cfg.run_name() == "interaction-769b935a"
    # a library caller's texts are taken as the enums too
    assert TournamentConfig(format="knockout", seat_rotation="all").format is Format.KNOCKOUT


@pytest.mark.parametrize("key,value,needle", [
    ("format", "league", "unknown tournament format 'league'; accepted: round-robin, gauntlet, knockout, swiss"),
    ("seat_rotation", "some", "unknown seat rotation 'some'; accepted: cyclic, all"),
    ("openings_order", "shuffled", "unknown openings order 'shuffled'; accepted: sequential, random"),
    ("isolation", "vm", "unknown isolation 'vm'; accepted: none, process"),
])
def test_a_bad_enumerated_setting_is_one_line_naming_the_accepted_texts(key, value, needle):
    with pytest.raises(ConfigError) as exc:
        build({key: value})
    assert str(exc.value) == needle and exc.value.setting == key

"""The typed reader of a stored tournament (issue 43): ``Settings`` read once with its defaults,
written back as stored; the records the reader returns; games rounded to whole series in one place."""

from __future__ import annotations

import json
import sqlite3

import pytest

from arena.errors import ResultsError
from arena.openings import OpeningsOrder
from arena.results import reader
from arena.results.records import StoredTournament
from arena.results.settings import Format, Rotation, Settings, games_per_series, series_per_pairing
from arena.results.standings import Played
from arena.results.store import Store, StoredGame
from arena.tournament.config import TournamentConfig


def test_settings_read_typed_and_written_back_as_stored():
    stored = {"game": "interaction", "format": "knockout", "games": 5, "seat_rotation": "all", "tau": 0.1,
              "openings": ["a", "b"], "openings_order": "random", "move_time": None, "each": {"k": "v"},
              "from_a_later_arena": [1, 2]}
    s = Settings.from_stored(stored)
    assert s.format is Format.KNOCKOUT and s.seat_rotation is Rotation.ALL
    assert s.openings_order is OpeningsOrder.RANDOM and s.openings == ("a", "b") and s.tau == 0.1
    assert s.extra == {"from_a_later_arena": [1, 2]}
    assert s.to_stored() == stored and list(s.to_stored()) == list(stored)
    assert Settings.from_stored(s.to_stored()) == s


def test_a_missing_key_takes_the_default_of_its_option():
    """Later options are stored only away from their default: the reader's default is the option's."""
    cfg = TournamentConfig()
    s = Settings.from_stored(cfg.settings())
    for name in ("tau", "openings_order", "seeds", "rounds", "tc", "adjudicate", "sprt", "until_ranked"):
        assert name not in cfg.settings(), name
        assert getattr(s, name) == getattr(cfg, name), name
    assert Settings.from_stored(None) == Settings.from_stored({})
    assert s.to_stored() == cfg.settings()


def test_a_damaged_setting_is_one_results_error():
    with pytest.raises(ResultsError, match="format"):
        Settings.from_stored({"format": "ladder-of-doom"})
    with pytest.raises(ResultsError, match="bots"):
        Settings.from_stored({"bots": "random"})


def test_games_are_rounded_to_whole_series_once():
    assert games_per_series(2) == 2 and games_per_series(3) == 3 and games_per_series(3, "all") == 6
    assert series_per_pairing(5, 2) == 3 and series_per_pairing(7, 3, Rotation.ALL) == 2
    assert Settings.from_stored({"games": 5}).series() == 3 and Settings.from_stored({"games": 0}).series() == 1


def test_the_store_returns_typed_records(tmp_path):
    assert Played is StoredGame
    with Store.open(tmp_path, "t") as store:
        assert store.stored() is None
        store.begin("t", "interaction", {}, 2, 7, {"games": 4, "format": "gauntlet"}, [("a", "random")], 4)
        stored = store.stored()
        assert isinstance(stored, StoredTournament)
        assert stored.total_games == 4 and stored.settings == {"games": 4, "format": "gauntlet"}
        assert stored.typed.format is Format.GAUNTLET
    tour = reader.read_tournament(tmp_path / "t.sqlite")
    assert tour.settings.format is Format.GAUNTLET and tour.seed == 7 and dict(tour.bots) == {"a": "random"}
    assert reader.game_count(tmp_path / "t.sqlite") == (0, None)
    assert reader.last_finished(tmp_path / "t.sqlite") is None


def test_series_starts_fall_back_to_the_settings(tmp_path):
    """A series stored without its start (a store written before the series table) gets it
    from the stored openings, through the typed settings."""
    with Store.open(tmp_path, "t") as store:
        store.begin("t", "interaction", {}, 2, 1, {"openings": ["x", "y"]}, [("a", "random")], 4)
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    conn.execute("INSERT INTO series VALUES (0, 'stored')")
    conn.commit()
    conn.close()
    assert reader.series_starts(tmp_path / "t.sqlite", [1, 0, 2]) == {0: "stored", 1: "y", 2: "x"}
    assert json.loads(json.dumps(reader.read_tournament(tmp_path / "t.sqlite").as_dict()))["settings"] == \
        {"openings": ["x", "y"]}

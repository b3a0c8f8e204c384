"""Settings identity: later options at their defaults rename nothing, --games extends a stored
tournament, and a store written before these changes still resumes on its own seeding scheme."""

import json
import shutil
import sqlite3
from dataclasses import dataclass, field, fields
from pathlib import Path

import pytest

from arena.results.packed import register
from arena.errors import ResultsError
from arena.results.store import load_games, load_tournament
from arena.tournament import build, run_tournament
from arena.tournament.config import TournamentConfig, settings_difference

LEGACY = Path(__file__).parent.parent / "fixtures" / "legacy_store"
#: the command that wrote the fixture (tests/fixtures/legacy_store/README.md)
LEGACY_VALUES = dict(game="interaction", bots=["random", "random"], games=4, workers=1)


def nim(tmp_path, **extra):
    return build(dict(game="nim", params={"pile": "15"}, bots=["random", "b=random"], games=4, workers=1,
                      results=str(tmp_path), opening_plies=1) | extra)


def stored_moves(path):
    conn = sqlite3.connect(path)
    register(conn)  # arena_moves: the move list's JSON text from the packed column
    rows = conn.execute("SELECT game_id, series, seed, seats, arena_moves(packed) FROM games ORDER BY game_id"
                        ).fetchall()
    conn.close()
    return rows


def test_identity_keeps_the_base_fields_and_drops_later_defaults():
    cfg = build({})
    identity = cfg.identity()
    assert set(identity) == set(TournamentConfig.BASE_IDENTITY)
    assert "openings" not in identity and "openings_order" not in identity and "seeding" not in identity
    assert cfg.settings() == {**identity, "seeding": 3}
    ordered = build({"openings_order": "random"})
    assert ordered.identity()["openings_order"] == "random" and ordered.run_name() != cfg.run_name()


def test_a_new_option_at_its_default_renames_no_run():
    """A subclass standing for a later version with one more option: same name, same identity."""
    @dataclass(frozen=True)
    class Later(TournamentConfig):
        later_knob: float = 0.0
        labels: tuple = field(default_factory=tuple)

    cfg = build({})
    later = Later(**{f.name: getattr(cfg, f.name) for f in fields(cfg)})
    assert later.identity() == cfg.identity() and later.run_name() == cfg.run_name()
    assert Later(**{f.name: getattr(cfg, f.name) for f in fields(cfg)}, later_knob=0.1).run_name() != cfg.run_name()


def test_settings_difference_ignores_games_and_seeding_and_reads_missing_later_keys_as_defaults():
    new = build({}).settings()
    old = {k: v for k, v in new.items() if k != "seeding"} | {"games": 7}
    assert settings_difference(old, new) is None
    assert settings_difference(old, new | {"openings_order": "sequential"}) is None
    assert settings_difference(old, new | {"openings_order": "random"}) == "openings_order"
    assert settings_difference(old, new | {"seed": 2}) == "seed"
    # --move-time also changes the derived game_time: the message names the option the user gave
    longer = build({"move_time": 1}).settings()
    assert longer["game_time"] != new["game_time"] and settings_difference(old, longer) == "move_time"


def test_more_games_extend_and_fewer_play_nothing_more(tmp_path):
    first = run_tournament(nim(tmp_path))
    assert first.played == 4 and first.note is None
    before = load_games(first.path).drop(columns=["seconds"])
    more = run_tournament(nim(tmp_path, games=8))
    assert more.path == first.path and more.played == 4 and more.stored == more.total == 8
    assert more.note == "extended from 4 to 8 games per pairing"
    games = load_games(first.path)
    assert list(games.game_id) == list(range(1, 9)) and list(games.series) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert games.drop(columns=["seconds"]).head(4).equals(before)
    info = load_tournament(first.path)
    assert info["settings"]["games"] == 8 and info["total_games"] == 8
    # the extended tournament is the one a fresh run of --games 8 plays
    fresh = run_tournament(nim(tmp_path / "fresh", games=8))
    assert stored_moves(fresh.path) == stored_moves(first.path)
    fewer = run_tournament(nim(tmp_path, games=2))
    assert fewer.played == 0 and fewer.done == fewer.total == 2 and fewer.stored == 8
    assert fewer.note.startswith("stored tournament has 8 games per pairing; --games 2 plays nothing beyond")
    assert load_tournament(first.path)["settings"]["games"] == 8


def test_a_store_written_before_identity_and_seeding_changes_resumes_on_its_scheme(tmp_path):
    expected = json.loads((LEGACY / "expected.json").read_text())["games"]
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(LEGACY / "interaction-13c07c51.sqlite", results)
    cfg = build(LEGACY_VALUES | {"results": str(results)})
    assert cfg.run_name() != "interaction-13c07c51" and cfg.legacy_run_name() == "interaction-13c07c51"
    s = run_tournament(cfg)  # the same command finds the store by its old default name
    assert s.name == "interaction-13c07c51" and s.played == 2 and s.stored == 4
    conn = sqlite3.connect(s.path)
    register(conn)
    played = {str(g): {"seats": json.loads(seats), "moves": json.loads(moves)}
              for g, seats, moves in conn.execute("SELECT game_id, seats, arena_moves(packed) FROM games")}
    settings = json.loads(conn.execute("SELECT settings FROM tournament").fetchone()[0])
    conn.close()
    assert played == expected  # games 3 and 4 as the old code played them (seeding scheme 1)
    assert "seeding" not in settings  # still scheme 1: it is finished the way it began
    # a changed setting is still refused, naming it
    with pytest.raises(ResultsError, match="different settings .seed"):
        run_tournament(build(LEGACY_VALUES | {"results": str(results), "seed": 3, "name": s.name}))


def test_a_store_with_repeats_labelled_dash_n_resumes_under_its_labels(tmp_path, monkeypatch):
    """A tournament stored when a repeated spec was labelled ``random-2`` (before ``#2``):
    resumed and extended by today's code, its members keep their labels, no game is played
    again, and the new games are those the old labels' seeds give."""
    import bots.registry as registry
    from arena.results.store import Store

    def values(folder, games):
        return dict(game="nim", params={"pile": "15"}, bots=["random", "random"], games=games, workers=1,
                    results=str(tmp_path / folder), opening_plies=1, name="t")

    monkeypatch.setattr(registry, "REPEAT_MARK", "-")  # the code before
    old = run_tournament(build(values("old", 2)))
    whole = run_tournament(build(values("whole", 4)))  # what the old code plays for 4 games
    monkeypatch.setattr(registry, "REPEAT_MARK", "#")  # today's
    more = run_tournament(build(values("old", 4)))
    assert more.played == 2 and more.stored == 4 and more.note == "extended from 2 to 4 games per pairing"
    with Store.open(tmp_path / "old", "t") as store:
        assert [m.label for m in store.members()] == ["random", "random-2"]
    assert stored_moves(old.path) == stored_moves(whole.path)
    fresh = run_tournament(build(values("new", 4)))
    with Store.open(tmp_path / "new", "t") as store:
        assert [m.label for m in store.members()] == ["random", "random#2"]
    # a repeat seeds as it did before its #n label: the same command plays the same games
    relabelled = [(g, series, seed, seats.replace("random-2", "random#2"), moves)
                  for g, series, seed, seats, moves in stored_moves(whole.path)]
    assert fresh.played == 4 and stored_moves(fresh.path) == relabelled

"""Bot versions and fields that change (issue 30): an edited bot is played again as a new
version with both in the report, an added bot plays only its own pairings, a removed bot plays
nothing, an engine whose executable changed is a new version, a pairing plays the same games in
any field, and a store written by the release before versions resumes."""

from __future__ import annotations

import json
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from arena.results.packed import register
from arena.errors import ConfigError
from arena.reports.output import report_json
from arena.reports.render import load
from arena.results.store import load_tournament
from arena.tournament import build, run_tournament
from arena.tournament.observers import Observer, RunStart

FIXTURES = Path(__file__).parents[1] / "fixtures"
FIRST = Path(__file__).parents[2] / "examples" / "engines" / "first_legal.sh"
BOT = '''class Bot:
    def reset(self, game, seat, seed):
        pass

    def choose(self, state, limits):
        return state.legal_moves()[{index}]
'''


class Notes(Observer):
    """Keeps the run's notes on versions (said before the first game)."""

    def __init__(self) -> None:
        self.notes: tuple[str, ...] = ()
        self.played_before_notes = None

    def started(self, start: RunStart) -> None:
        self.notes = start.notes


def nim(tmp_path, bots, **extra):
    return build(dict(game="nim", params={"pile": "9"}, bots=bots, games=4, workers=1, results=str(tmp_path),
                      opening_plies=1, name="pool") | extra)


def run(cfg):
    notes = Notes()
    summary = run_tournament(cfg, [notes])
    return summary, notes.notes


def rows(path, where=""):
    conn = sqlite3.connect(path)
    register(conn)  # arena_moves: the move list's JSON text from the packed column
    try:
        return conn.execute(f"SELECT game_id, series, seed, seats, arena_moves(packed), ranks FROM games {where} "
                            "ORDER BY game_id").fetchall()
    finally:
        conn.close()


def labels_of(path):
    return [label for label in load_tournament(path)["bots"]]


def test_an_edited_bot_file_is_played_again_as_a_new_version_and_both_are_reported(tmp_path):
    bot = tmp_path / "mybot.py"
    bot.write_text(BOT.format(index=0))
    cfg = nim(tmp_path, [f"me={bot}#Bot", "random"])
    first, notes = run(cfg)
    assert first.played == 4 and notes == ()
    again, notes = run(cfg)
    assert again.played == 0 and notes == ()  # same code: nothing to play
    bot.write_text(BOT.format(index=-1))
    changed, notes = run(cfg)
    assert changed.played == 4 and changed.done == changed.total == 4 and changed.stored == 8
    assert notes == (f"bot 'me' changed since its 4 stored games ({bot}): playing them again as me@2",)
    assert labels_of(changed.path) == ["me", "random", "me@2"]
    versions = load_tournament(changed.path)["versions"]
    assert versions["me@2"]["bot"] == "me" and versions["me@2"]["version"] == 2
    assert versions["me"]["digest"] != versions["me@2"]["digest"]
    # the new version plays the series the old one played: same seeds, its own moves
    old = rows(changed.path, "WHERE seats LIKE '%\"me\"%'")
    new = rows(changed.path, "WHERE seats LIKE '%\"me@2\"%'")
    assert [r[1:3] for r in old] == [r[1:3] for r in new]
    assert [json.loads(r[3]) for r in new] == [[s.replace("me", "me@2") for s in json.loads(r[3])] for r in old]
    board = json.loads(report_json(load(changed.path), ["leaderboard"]))["tables"]["leaderboard"]
    assert {row["label"]: row["games"] for row in board} == {"me": 4, "me@2": 4, "random": 8}
    # the file put back is its first version again: nothing is played
    bot.write_text(BOT.format(index=0))
    back, notes = run(cfg)
    assert back.played == 0 and back.done == 4
    assert notes == (f"bot 'me' is its version me again ({bot}): its 4 stored games count",)


def test_new_options_are_a_new_version_and_their_order_is_not(tmp_path):
    first, _ = run(nim(tmp_path, ["me=mcts:playouts=20,c=1.5", "random"]))
    same, notes = run(nim(tmp_path, ["me=mcts:c=1.5,playouts=20", "random"]))
    assert same.played == 0 and notes == ()
    other, notes = run(nim(tmp_path, ["me=mcts:playouts=30", "random"]))
    assert other.played == 4
    assert notes == ("bot 'me' changed since its 4 stored games (me=mcts:playouts=20,c=1.5 -> "
                     "me=mcts:playouts=30): playing them again as me@2",)


def test_an_added_bot_plays_only_its_pairings_and_a_removed_bot_plays_nothing(tmp_path):
    six = ["a=random", "b=random", "c=random"]
    first, _ = run(nim(tmp_path, six))
    assert first.played == 3 * 4
    before = rows(first.path)
    grown, notes = run(nim(tmp_path, [*six, "d=random"]))
    assert notes == () and grown.played == 3 * 4  # d against a, b and c: 3 pairings of 4 games
    assert grown.done == grown.total == 6 * 4 and grown.stored == 24
    assert rows(first.path)[: len(before)] == before  # the stored games untouched, new ids after them
    new = rows(first.path)[len(before):]
    assert [r[0] for r in new] == list(range(13, 25)) and all("d" in json.loads(r[3]) for r in new)
    smaller, notes = run(nim(tmp_path, ["a=random", "d=random"]))
    assert smaller.played == 0 and smaller.done == smaller.total == 4 and smaller.stored == 24
    reordered, _ = run(nim(tmp_path, ["d=random", "c=random", "b=random", "a=random"]))
    assert reordered.played == 0  # the order the bots are given in changes no pairing's games
    assert labels_of(first.path) == ["a", "b", "c", "d"]
    # the report can be limited to a field
    board = json.loads(report_json(load(first.path, bots=["a", "d"]), ["leaderboard"]))["tables"]["leaderboard"]
    assert {row["label"]: row["games"] for row in board} == {"a": 4, "d": 4}
    with pytest.raises(ConfigError, match=r"no bot 'e' in tournament 'pool'; stored: a, b, c, d"):
        load(first.path, bots=["a", "e"])


def test_other_settings_are_still_refused_naming_the_first_difference(tmp_path):
    from arena.errors import ResultsError
    run(nim(tmp_path, ["a=random", "b=random"]))
    with pytest.raises(ResultsError, match=r"different settings \(seed: stored 1, now 2\)"):
        run(nim(tmp_path, ["a=random", "b=random", "c=random"], seed=2))
    assert labels_of(tmp_path / "pool.sqlite") == ["a", "b"]  # the refused run stored no member


def test_a_refused_run_leaves_no_new_member(tmp_path):
    run(nim(tmp_path, ["a=random", "b=random"]))

    class Refuses(Observer):
        def started(self, start):
            raise ConfigError("refused by the test")
    with pytest.raises(ConfigError):
        run_tournament(nim(tmp_path, ["a=random", "b=random", "c=random"], games=8), [Refuses()])
    tour = load_tournament(tmp_path / "pool.sqlite")
    assert list(tour["bots"]) == ["a", "b"] and tour["settings"]["games"] == 4
    assert tour["settings"]["bots"] == ["a=random", "b=random"]


def test_a_run_whose_first_commit_fails_puts_the_stored_settings_back(tmp_path, monkeypatch):
    """Games are counted as played before their group is committed (``_Run._commit``): a run
    refused at its first commit stored nothing, so the settings it extended are put back and
    its new member dropped, as for a run refused before its first game."""
    from arena.errors import ResultsError
    from arena.results.store import Store

    run(nim(tmp_path, ["a=random", "b=random"]))

    def fails(self, *args, **kwargs):
        raise ResultsError("disk full (the test)")
    monkeypatch.setattr(Store, "add_games", fails)
    with pytest.raises(ResultsError, match="disk full"):
        run_tournament(nim(tmp_path, ["a=random", "b=random", "c=random"], games=8))
    tour = load_tournament(tmp_path / "pool.sqlite")
    assert list(tour["bots"]) == ["a", "b"] and tour["settings"]["games"] == 4


def test_a_pairing_plays_the_same_games_in_a_field_of_two_or_of_six(tmp_path):
    two, _ = run(nim(tmp_path / "two", ["a=random", "b=mcts:playouts=10"]))
    six, _ = run(nim(tmp_path / "six", ["c=greedy", "b=mcts:playouts=10", "d=random", "a=random", "e=random",
                                        "f=greedy"]))
    assert six.played == 15 * 4
    pair = {"a", "b"}
    in_six = [r[1:] for r in rows(six.path) if set(json.loads(r[3])) == pair]
    assert in_six == [r[1:] for r in rows(two.path)]  # series, seeds, seats, moves and ranks


def test_an_engine_whose_executable_changed_is_a_new_version(tmp_path):
    engine = tmp_path / "engine.sh"
    shutil.copy(FIRST, engine)
    engine.chmod(engine.stat().st_mode | stat.S_IXUSR)
    cfg = build(dict(game="interaction", bots=[f"e=exec:{engine}", "random"], games=2, workers=1,
                     results=str(tmp_path), name="engines"))
    first, _ = run(cfg)
    assert first.played == 2
    code = load_tournament(first.path)["versions"]["e"]["code"]
    assert code["id_name"] == "first-legal-sh" and str(engine) in code["files"]
    again, notes = run(cfg)
    assert again.played == 0 and notes == ()
    engine.write_text(engine.read_text() + "\n# a change\n")
    changed, notes = run(cfg)
    assert changed.played == 2
    assert notes == ("bot 'e' changed since its 2 stored games (engine.sh changed): playing them again as e@2",)


def test_a_store_of_the_release_before_versions_resumes_and_grows(tmp_path, monkeypatch):
    folder = tmp_path / "store"
    shutil.copytree(FIXTURES / "release_store", folder)
    monkeypatch.chdir(folder)
    values = dict(bots=["me=mybot.py#First", "greedy"], games=4, workers=1, name="prev", results=".")
    resumed, notes = run(build(values))
    assert resumed.played == 0 and resumed.done == 4
    assert notes == ("stored before bot versions: me (mybot.py), greedy (arena 0.1.0) taken as version 1 "
                     "(the code as it is now)",)
    versions = load_tournament("prev.sqlite")["versions"]
    assert versions["me"]["version"] == 1 and versions["me"]["digest"] and versions["greedy"]["digest"]
    grown, notes = run(build(values | {"bots": [*values["bots"], "random"]}))
    assert notes == () and grown.played == 2 * 4
    settings = load_tournament("prev.sqlite")["settings"]
    assert settings["seeding"] == 2  # finished on the scheme it began with
    board = json.loads(report_json(load("prev.sqlite"), ["leaderboard"]))["tables"]["leaderboard"]
    assert {row["label"]: row["games"] for row in board} == {"me": 8, "greedy": 8, "random": 8}


def test_identities_of_each_kind_of_bot(tmp_path):
    import arena
    import bots.random
    from arena.games import make
    from arena.tournament.field_check import check_bots
    from arena.tournament.members import file_digest, identify
    from bots.registry import parse_spec

    builtin = identify(parse_spec("x=alphabeta:depth=3,order=1"))
    assert builtin.code == {"arena": arena.__version__} and builtin.spec == "alphabeta:depth=3,order=1"
    assert identify(parse_spec("alphabeta:order=1,depth=3")).digest == builtin.digest  # the label is not the bot
    assert identify(parse_spec("alphabeta:depth=4,order=1")).digest != builtin.digest
    # an installed class (a dotted path): its module file and distribution, learnt in the check's child
    spec = parse_spec("bots.random.RandomBot")
    facts = check_bots([spec], make("interaction"), "none")[spec.label]
    assert facts["code"] == {"module": "bots.random", "sha256": file_digest(bots.random.__file__),
                             "distribution": f"arena {arena.__version__}"}
    installed = identify(spec, facts)
    assert installed.code == facts["code"] and installed.source == f"arena {arena.__version__}"
    # a file bot: its parsed code
    path = tmp_path / "b.py"
    path.write_text(BOT.format(index=0))
    first = identify(parse_spec(f"{path}#Bot"))
    path.write_text(BOT.format(index=1))
    assert identify(parse_spec(f"{path}#Bot")).digest != first.digest and first.source == str(path)


def test_a_bot_files_path_spelled_another_way_is_the_same_version(tmp_path, monkeypatch):
    """``mybot.py``, ``./mybot.py`` and the absolute path are one bot: the digest tells code
    apart, not the spelling of its path (a resume from another folder replays nothing)."""
    (tmp_path / "mybot.py").write_text(BOT.format(index=0))
    monkeypatch.chdir(tmp_path)
    first, _ = run(nim(tmp_path, ["me=mybot.py#Bot", "random"]))
    assert first.played == 4
    for spelling in ("./mybot.py", str(tmp_path / "mybot.py")):
        again, notes = run(nim(tmp_path, [f"me={spelling}#Bot", "random"]))
        assert again.played == 0 and notes == ()
    assert labels_of(first.path) == ["me", "random"]


def test_damaged_rows_are_a_one_line_error(tmp_path):
    from arena.errors import ResultsError
    from arena.results.store import load_game
    from arena.tournament.listing import stored_tournaments
    first, _ = run(nim(tmp_path, ["a=random", "b=random"]))
    conn = sqlite3.connect(first.path)
    conn.execute("UPDATE games SET packed = x'01ffff' WHERE game_id = 1")  # no DEFLATE stream
    conn.execute("UPDATE tournament SET settings = '{bad'")
    conn.commit()
    conn.close()
    with pytest.raises(ResultsError, match="a damaged value"):
        load_game(first.path, 1)
    with pytest.raises(ResultsError, match="a damaged value"):
        load_tournament(first.path)
    assert "damaged value" in stored_tournaments(tmp_path)[0]["error"]


@pytest.mark.parametrize("fmt", ["knockout", "swiss"])
def test_a_new_version_plays_its_knockout_and_swiss_matches(tmp_path, fmt):
    """A changed bot's games are told from its old version's by their seats, not by their ids:
    the new version plays its matches (the ids its old games hold go to games after them)."""
    field = ["a=mcts:playouts=5", "b=random", "c=random", "d=greedy"]
    first, _ = run(nim(tmp_path, field, format=fmt, games=2))
    assert first.played > 0
    again, notes = run(nim(tmp_path, ["a=mcts:playouts=6", *field[1:]], format=fmt, games=2))
    assert notes and "playing them again as a@2" in notes[0]
    rows_ = rows(first.path)
    assert len({r[0] for r in rows_}) == len(rows_)  # every id once
    assert any("a@2" in json.loads(r[3]) for r in rows_)
    assert again.done >= 2

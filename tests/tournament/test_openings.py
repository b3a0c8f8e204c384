"""--openings FILE: positions in the game's own notation, each a series, in file order or a seeded
shuffle; the file's content (not its path) is part of the settings."""

import json
import sqlite3

import pytest

import arena.games
from arena.errors import ConfigError
from arena.referee import derive_seed
from arena.results.store import load_tournament
from arena.tournament import build, run_tournament
from arena.tournament.config_file import load_toml
from arena.tournament.runner import plan
from arena.openings import series_start
from arena.tournament.series import read_openings
from arena.results.packed import register
from tests.cli_run import run_cli

NIM = "# three nim starts\n\n12 0 0\n  9 1 0  \n#\n15 0 0\n"
POSITIONS = ("12 0 0", "9 1 0", "15 0 0")


def nim(tmp_path, path, **extra):
    return build(dict(game="nim", params={"pile": "21"}, bots=["random", "b=random"], workers=1,
                      results=str(tmp_path), openings=str(path)) | extra)



@pytest.fixture
def openings(tmp_path):
    path = tmp_path / "nim.txt"
    path.write_text(NIM)
    return path


def test_file_lines_comments_and_blank_lines(openings):
    assert read_openings(openings, arena.games.make("nim")) == POSITIONS


def test_each_opening_is_a_series_in_file_order_by_default(tmp_path, openings):
    cfg = nim(tmp_path, openings)
    assert cfg.games == 6 and cfg.opening_plies == 0 and cfg.openings == POSITIONS  # every position once a pairing
    tasks = plan(cfg).tasks
    assert [t.start for t in tasks] == [p for p in POSITIONS for _ in range(2)]
    assert [t.series for t in tasks] == [0, 0, 1, 1, 2, 2] and all(t.opening == () for t in tasks)
    s = run_tournament(cfg)
    conn = sqlite3.connect(s.path)
    register(conn)  # the packed column's SQL functions
    rows = conn.execute("SELECT arena_moves(packed) FROM games ORDER BY game_id")
    taken = [sum(map(int, json.loads(m))) for (m,) in rows]
    assert taken == [12, 12, 9, 9, 15, 15]  # each game empties the pile of its series' position
    assert load_tournament(s.path)["settings"]["openings"] == list(POSITIONS)


def test_random_order_is_a_seeded_shuffle_of_each_pass(tmp_path, openings):
    cfg = nim(tmp_path, openings, openings_order="random", games=12, seed=4)
    starts = [t.start for t in plan(cfg).tasks[::2]]  # one per series
    assert sorted(starts[:3]) == sorted(POSITIONS) and sorted(starts[3:]) == sorted(POSITIONS)
    import random
    for cycle in (0, 1):
        order = list(range(3))
        random.Random(derive_seed(4, "openings", cycle)).shuffle(order)
        assert starts[3 * cycle:3 * cycle + 3] == [POSITIONS[i] for i in order]
    assert series_start(POSITIONS, "sequential", 4, 4) == POSITIONS[1]


def test_content_not_path_decides_the_name(tmp_path, openings):
    other = tmp_path / "elsewhere.txt"
    other.write_text("12 0 0\n9 1 0\n15 0 0\n")
    assert nim(tmp_path, openings).run_name() == nim(tmp_path, other).run_name()
    other.write_text("12 0 0\n9 1 0\n")
    assert nim(tmp_path, openings, games=6).run_name() != nim(tmp_path, other, games=6).run_name()
    assert nim(tmp_path, openings).run_name() != build(dict(game="nim", params={"pile": "21"},
                                                             bots=["random", "b=random"], games=6)).run_name()


def test_openings_with_random_plies_after_the_position(tmp_path, openings):
    tasks = plan(nim(tmp_path, openings, opening_plies=1)).tasks
    assert all(len(t.opening) == 1 for t in tasks)
    assert tasks[0].opening == tasks[1].opening  # shared by the series


@pytest.mark.parametrize("text,needle", [
    ("12 0 0\n\nnot a position\n", ":3: not a position of nim: bad nim position 'not a position'"),
    ("# only a comment\n", "has no position"),
    ("0 0 0\n", ":1: the game is already over in this position"),
])
def test_bad_file_is_one_line_naming_file_and_line_exit_2(tmp_path, capsys, text, needle):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, _, err = run_cli(["run", "--game", "nim", "--openings", str(path), "--results", str(tmp_path)], capsys)
    assert code == 2 and err.startswith("error: ") and needle in err and err.count("\n") == 1
    assert not list(tmp_path.glob("*.sqlite"))


def test_missing_file_and_bad_order_exit_2(tmp_path, capsys, openings):
    code, _, err = run_cli(["run", "--game", "nim", "--openings", str(tmp_path / "no.txt")], capsys)
    assert code == 2 and "cannot read openings file" in err and err.count("\n") == 1
    code, _, err = run_cli(["run", "--game", "nim", "--openings", str(openings), "--openings-order", "shuffle"], capsys)
    assert code == 2 and "accepted: sequential, random" in err


def test_toml_keys_path_relative_to_the_toml_file(tmp_path, openings):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "t.toml").write_text('game = "nim"\nopenings = "../nim.txt"\nopenings-order = "random"\n')
    values = load_toml(conf / "t.toml")
    cfg = build(values | {"bots": ["random", "b=random"], "params": {"pile": "21"}})
    assert cfg.openings == POSITIONS and cfg.openings_order == "random"
    (conf / "bad.toml").write_text("openings = 3\n")
    with pytest.raises(ConfigError, match="openings must be the path"):
        load_toml(conf / "bad.toml")


@pytest.mark.parametrize("game", ["interaction", "sandpile", "ricochet"])
def test_each_game_reads_its_own_positions(tmp_path, game):
    g = arena.games.make(game)
    start = g.initial_state(3)
    later = start.play(start.legal_moves()[0]) if start.legal_moves() else start
    path = tmp_path / "o.txt"
    path.write_text(f"# {game}\n{start.to_text()}\n{later.to_text()}\n")
    assert read_openings(path, g) == (start.to_text(), later.to_text())


def test_an_interaction_series_starts_from_the_file_and_replays(tmp_path, capsys):
    g = arena.games.make("interaction")
    state = g.initial_state(1)
    for _ in range(3):
        state = state.play(state.legal_moves()[0])
    path = tmp_path / "o.txt"
    path.write_text(state.to_text() + "\n")
    s = run_tournament(build(dict(game="interaction", bots=["random", "greedy"], workers=1, results=str(tmp_path),
                                  openings=str(path))))
    assert s.stored == 2
    code, out, _ = run_cli(["replay", s.name, "2", "--results", str(tmp_path)], capsys)
    assert code in (0, None) and "cannot replay" not in out
    assert state.diagram() in out and g.initial_state(1).diagram() not in out

"""``openspiel.cfr``: OpenSpiel's CFR+ average policy, solved once per (game, iterations,
solver), cached on disk (one solve for two processes at once), played by sampling the table
with the bot's seeded generator; refused before the first game where it cannot play."""

from __future__ import annotations

import json
import multiprocessing
from collections import Counter

import pytest

import bots
from arena.errors import BotSpecError
from bots import openspiel_cfr, spiel_tree
from bots.base import Limits
from bots.exploitability import exploitability
from bots.registry import check_field, parse_spec
from tests.bots.spiel_games import spiel_game
from tests.toy import Nim


def ready(spec, game, seat=0, seed=0):
    bot = bots.make(spec)
    bot.reset(game, seat, seed)
    return bot


def first_view(game, seat=0):
    """The view of ``seat`` at its first move (chance outcomes: the first of each)."""
    state = game.initial_state()
    while state.to_move != seat:
        state = state.play(state.chance_outcomes()[0][0] if state.to_move < 0 else state.legal_moves()[0])
    return spiel_tree.seat_view(state, seat)


def test_cfr_plus_converges_faster_than_cfr():
    """The reason CFR+ is the default: fewer chips from equilibrium after the same iterations."""
    game = spiel_game("kuhn_poker")
    plus = exploitability(game, bots.make("openspiel.cfr:iterations=100")).exploitability
    vanilla = exploitability(game, bots.make("openspiel.cfr:iterations=100,solver=cfr")).exploitability
    assert plus < 0.002 and plus < vanilla / 3


def test_the_table_is_solved_once_and_read_from_disk(monkeypatch):
    game = spiel_game("kuhn_poker")
    bot = ready("openspiel.cfr:iterations=30", game)
    files = list(spiel_tree.cache_dir("cfr").glob("*.json"))
    assert len(files) == 1 and not list(files[0].parent.glob("*.tmp"))
    stored = json.loads(files[0].read_text())
    assert (stored["game"], stored["solver"], stored["iterations"]) == ("kuhn_poker()", "cfr+", 30)
    assert stored["policy"] == bot._table
    openspiel_cfr._TABLES.clear()  # a new process: the file, not a solve
    monkeypatch.setattr(openspiel_cfr, "_solve", lambda *a: pytest.fail("solved again"))
    assert ready("openspiel.cfr:iterations=30", game, seat=1)._table == stored["policy"]
    with pytest.raises(BaseException, match="solved again"):  # another iteration count: another table
        ready("openspiel.cfr:iterations=31", game)


def test_an_unreadable_cache_file_is_solved_again():
    game = spiel_game("kuhn_poker")
    table = ready("openspiel.cfr:iterations=30", game)._table
    (path,) = spiel_tree.cache_dir("cfr").glob("*.json")
    path.write_text('{"policy": [')  # cut short
    openspiel_cfr._TABLES.clear()
    assert ready("openspiel.cfr:iterations=30", game)._table == table
    assert json.loads(path.read_text())["policy"] == table


def _solve_in_child(log_path: str) -> None:
    """Solve Leduc in a child process, noting each solve in ``log_path``."""
    solve = openspiel_cfr._solve

    def noted(*args):
        with open(log_path, "a") as f:
            f.write("solve\n")
        return solve(*args)

    openspiel_cfr._solve = noted
    openspiel_cfr.solved_policy(spiel_game("leduc_poker"), 20)


def test_two_processes_at_once_solve_once(tmp_path):
    log = tmp_path / "solves"
    context = multiprocessing.get_context("fork")
    children = [context.Process(target=_solve_in_child, args=(str(log),)) for _ in range(2)]
    for child in children:
        child.start()
    for child in children:
        child.join(300)
        assert child.exitcode == 0
    assert log.read_text() == "solve\n"  # the second waited on the lock, then read the file
    assert len(list(spiel_tree.cache_dir("cfr").glob("*.json"))) == 1


def test_it_plays_its_table_seeded():
    game = spiel_game("kuhn_poker")
    view = first_view(game, 0)  # seat 0 holding the jack: bets with probability alpha (small)
    bot = ready("openspiel.cfr:iterations=200", game)
    stated = bot.policy(view)
    assert set(stated) == {"Pass", "Bet"} and sum(stated.values()) == pytest.approx(1.0)
    played = [ready("openspiel.cfr:iterations=200", game, seed=s).choose(view, Limits()) for s in range(400)]
    again = [ready("openspiel.cfr:iterations=200", game, seed=s).choose(view, Limits()) for s in range(400)]
    assert played == again
    share = Counter(played)["Bet"] / len(played)
    assert abs(share - stated["Bet"]) < 0.1  # 400 draws: 4 standard errors at most


@pytest.mark.parametrize("game, words", [
    (Nim(), "plays OpenSpiel's games (openspiel:NAME) only; nim is not one"),
    ("coin_game", "needs information-state strings; coin_game() has none"),
])
def test_refused_before_the_first_game(game, words):
    game = spiel_game(game) if isinstance(game, str) else game
    with pytest.raises(BotSpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_field([parse_spec("openspiel.cfr")], game)


def test_a_game_too_big_for_a_table_is_refused(monkeypatch):
    monkeypatch.setattr(spiel_tree, "MAX_HISTORIES", 100)
    spiel_tree._spiel_refusal.cache_clear()
    try:
        with pytest.raises(BotSpecError, match="at most 100 histories to solve it as a table; leduc_poker"):
            check_field([parse_spec("c=openspiel.cfr:iterations=5")], spiel_game("leduc_poker"))
    finally:
        spiel_tree._spiel_refusal.cache_clear()


def test_a_bad_option_is_one_line():
    with pytest.raises(BotSpecError, match="solver='cfr2' is not accepted; accepted: cfr\\+, cfr"):
        bots.make("openspiel.cfr:solver=cfr2")
    with pytest.raises(BotSpecError, match="iterations=0 must be >= 1"):
        bots.make("openspiel.cfr:iterations=0")


def test_plays_simultaneous_moves_through_the_arena(tmp_path, capsys):
    from tests.cli_run import run_cli

    code, out, err = run_cli(["run", "--game", "openspiel:goofspiel", "-p", "num_cards=3", "--bot",
                              "openspiel.cfr:iterations=20", "--bot", "random", "--games", "4", "--results",
                              str(tmp_path), "-q"], capsys)
    assert code == 0, err
    assert "4/4 stored" in out


def test_the_command_line_refuses_it_in_one_line(tmp_path, capsys):
    from tests.cli_run import run_cli

    code, out, err = run_cli(["run", "--game", "interaction", "--bot", "c=openspiel.cfr", "--bot", "random",
                              "--results", str(tmp_path)], capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "openspiel.cfr plays OpenSpiel's games (openspiel:NAME) only; interaction is not one" in err

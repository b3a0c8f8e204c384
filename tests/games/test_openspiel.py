"""OpenSpiel's games as ``openspiel:NAME`` (issue 33, ``docs/openspiel.md``): the catalogue,
parameters, notation, position text, outcomes, the conformance check on every adapted game,
and the bots and engines that play them. Skipped without OpenSpiel, but for the error that
names the install command and the import that must not happen."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.util import find_spec

import pytest

import arena.games
from arena.errors import ConfigError, MoveSyntaxError, PositionSyntaxError, UnknownGameError
from arena.games import CHANCE, TERMINAL, check

needs_openspiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")

#: adapted games whose check takes over a second (on an idle core: yacht rolls 7,776 outcomes; laser_tag
#: and capture_the_flag play 1,000-round games)
SLOW = {"chess", "chinese_checkers", "crazyhouse", "go", "hive", "yacht", "bridge", "capture_the_flag", "gin_rummy",
        "kriegspiel", "laser_tag"}
ADAPTED = arena.games.family_names("openspiel") if find_spec("pyspiel") else []


def _cli(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_without_openspiel_a_game_is_one_line_naming_the_install_command(tmp_path):
    hide = "import sys; sys.modules['pyspiel'] = None; from arena.cli.app import main; "
    out = _cli(hide + f"main(['run', '--game', 'openspiel:connect_four', '--results', {str(tmp_path)!r}])")
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "pip install -e '.[openspiel]'" in out.stderr
    listed = _cli(hide + "main(['games'])")
    assert listed.returncode == 0 and "interaction" in listed.stdout
    assert "openspiel:NAME games: OpenSpiel's games need the openspiel extra: pip install" in listed.stdout


def test_pyspiel_is_imported_only_when_an_openspiel_game_is_used():
    out = _cli("import sys, arena.games, arena.cli.app, arena.tournament.runner; "
               "from arena.tournament import build; arena.games.make('interaction'); build({'game': 'sandpile'}); "
               "print('pyspiel' in sys.modules)")
    assert out.stdout.strip() == "False", out.stderr


@needs_openspiel
def test_the_catalogue_is_every_game_with_listed_chance_outcomes():
    names = set(ADAPTED)
    deterministic = {"amazons", "breakthrough", "checkers", "chess", "clobber", "connect_four", "dots_and_boxes", "go",
                     "hex", "mancala", "nine_mens_morris", "othello", "oware", "quoridor", "tic_tac_toe",
                     "chinese_checkers", "morpion_solitaire"}
    chance = {"backgammon", "pig", "maedn", "yacht", "2048", "einstein_wurfelt_nicht"}
    assert {f"openspiel:{n}" for n in deterministic | chance} <= names and len(names) >= 40
    for name in chance:
        assert arena.games.game_class(f"openspiel:{name}").type.chance_nodes
    for name in deterministic:
        assert not arena.games.game_class(f"openspiel:{name}").type.chance_nodes
    assert arena.games.game_class("openspiel:chinese_checkers").type.seats() == "2-6"
    hidden = {"kuhn_poker", "leduc_poker", "liars_dice", "phantom_ttt", "dark_hex", "bridge", "hanabi", "battleship"}
    simultaneous = {"goofspiel", "oshi_zumo", "matrix_rps", "matrix_pd", "blotto", "markov_soccer"}
    assert {f"openspiel:{n}" for n in hidden | simultaneous} <= names and len(names) >= 100
    for name in hidden | simultaneous:
        kind = arena.games.game_class(f"openspiel:{name}").type
        assert kind.hidden_information and (kind.dynamics == "simultaneous") == (name in simultaneous), name
    for name in deterministic | chance:
        assert not arena.games.game_class(f"openspiel:{name}").type.hidden_information, name
    refusals = {"stones_and_gems": "sampled inside the game", "tarok": "sampled inside the game",
                "mfg_garnet": "mean-field", "crossword": "action structs only",
                "efg_game": "cannot be loaded with its default parameters"}
    for name, why in refusals.items():
        with pytest.raises(ConfigError, match=f"game openspiel:{name} is not supported: .*{why}.*supported: "):
            arena.games.game_class(f"openspiel:{name}")
    with pytest.raises(UnknownGameError, match="unknown OpenSpiel game 'openspiel:nosuch'; accepted: openspiel:2048"):
        arena.games.make("openspiel:nosuch")


@needs_openspiel
def test_parameters_are_openspiels_type_checked():
    game = arena.games.make("openspiel:connect_four", rows="5", x_in_row=3)
    assert game.game_string == "connect_four(rows=5,x_in_row=3)" and game.params["rows"] == 5
    assert game.initial_state().to_text() == "connect_four(rows=5,x_in_row=3) history="
    assert arena.games.make("openspiel:chinese_checkers", players=3).num_players == 3
    assert arena.games.make("openspiel:go", komi="6.5", board_size=9).game_string == "go(board_size=9,komi=6.5)"
    with pytest.raises(ConfigError, match=r"parameter rows='five' is not a valid int"):
        arena.games.make("openspiel:connect_four", rows="five")
    with pytest.raises(ConfigError, match="unknown parameter 'foo'; accepted: columns, egocentric_obs_tensor, rows"):
        arena.games.make("openspiel:connect_four", foo=1)
    with pytest.raises(ConfigError, match="control character"):
        arena.games.make("openspiel:nim", pile_sizes="1;2\n3")
    # OpenSpiel checks few values, and connect_four(rows=0) crashes the process that plays it:
    # the parameters are tried in a child process first, and refused in one line
    with pytest.raises(ConfigError, match=r"cannot play rows=0 \(OpenSpiel crashed \(SIG.*accepted: .*rows=6"):
        arena.games.make("openspiel:connect_four", rows=0)
    with pytest.raises(ConfigError, match=r"OpenSpiel cannot play players=9 \(.*\); accepted: values OpenSpiel"):
        arena.games.make("openspiel:chinese_checkers", players=9)


@needs_openspiel
def test_parameters_are_probed_under_a_memory_limit_already_set():
    """A sandboxed engine (``--isolation process --memory-limit``) has a hard address-space
    limit below the probe's own cap: the probe keeps it, never tries to raise it."""
    out = _cli("import resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)); import arena.games; "
               "print(arena.games.make('openspiel:connect_four', rows=5).game_string)")
    assert out.stdout.strip() == "connect_four(rows=5)", out.stderr


@needs_openspiel
def test_cli_parameters_and_games_list(capsys):
    from arena.cli.app import main

    with pytest.raises(SystemExit) as exc:
        main(["play", "openspiel:connect_four", "-p", "rows=five"])
    assert exc.value.code == 2 and "parameter rows='five' is not a valid int" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["games"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and "openspiel:backgammon" in out and "hyper_backgammon=False" in out


@needs_openspiel
def test_notation_is_one_word_per_move_and_reads_only_in_its_position():
    go = arena.games.make("openspiel:go", board_size=9)
    state = go.initial_state()
    moves = state.legal_moves()
    assert moves[:2] == ["B_a1", "B_b1"] and all(" " not in m for m in moves)
    after = state.play("B_e5")
    assert go.parse_move(after, "W_a1") == "W_a1"
    with pytest.raises(MoveSyntaxError, match=r"'B_a1' is not a move of this position; accepted: W_a1, W_b1"):
        go.parse_move(after, "B_a1")  # OpenSpiel's strings depend on the position (and its player)
    from arena.games.openspiel.state import move_table

    class Alike:  # two actions OpenSpiel would write alike: each gets its action id
        def action_to_string(self, player, action):
            return {1: "roll  6", 2: "roll 6", 3: " "}[action]
    assert move_table(Alike(), 0, [1, 2, 3]) == {"roll_6#1": 1, "roll_6#2": 2, "#3": 3}


@needs_openspiel
def test_position_text_is_the_game_string_and_the_history():
    game = arena.games.make("openspiel:backgammon")
    state = game.initial_state()
    assert state.to_move == CHANCE and state.legal_moves() == [] and state.to_text() == "backgammon() history="
    outcome, p = state.chance_outcomes()[0]
    assert outcome.startswith("chance_outcome_0") and abs(sum(q for _, q in state.chance_outcomes()) - 1) < 1e-9
    state = state.play(outcome)
    state = state.play(state.legal_moves()[0])
    text = state.to_text()
    assert text.startswith("backgammon() history=0,") and game.parse_state(text).to_text() == text
    bad = {"connect_four() history=3": "is not one of this game",
           "backgammon() history=0,99999": "action '99999' at ply 1 .* is not legal there",
           "backgammon() history=x": "action 'x' at ply 0", "backgammon()": r"accepted: backgammon\(\) history=A1,A2"}
    for text, why in bad.items():
        with pytest.raises(PositionSyntaxError, match=why):
            game.parse_state(text)


@needs_openspiel
def test_outcomes_rank_openspiels_returns():
    game = arena.games.make("openspiel:tic_tac_toe")
    state = game.initial_state()
    for move in ("x(0,0)", "o(1,1)", "x(0,1)", "o(2,2)", "x(0,2)"):
        assert state.outcome() is None
        state = state.play(move)
    assert state.to_move == TERMINAL and state.legal_moves() == []
    out = state.outcome()
    assert out.scores == (1.0, -1.0) and out.ranks == (1, 2) and out.termination == "terminal"
    drawn = game.parse_state("tic_tac_toe() history=0,4,8,1,7,6,2,5,3")
    assert drawn.outcome().ranks == (1, 1)


@needs_openspiel
def test_games_and_states_copy_and_pickle_apart():
    from arena.referee import Private

    game = arena.games.make("openspiel:connect_four", rows=5)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again.game_string == game.game_string
    state = game.initial_state().play("x3")
    assert pickle.loads(pickle.dumps(state)).to_text() == state.to_text()
    assert copy.copy(game).spiel is game.spiel  # a seat's copy shares OpenSpiel's immutable game
    mine = Private(game).state(state)
    mine.spiel.apply_action(3)  # a bot changing its own copy's OpenSpiel state
    assert state.to_text() == "connect_four(rows=5) history=3" and mine.spiel.history() == [3, 3]


@needs_openspiel
def test_the_replay_picture_is_the_text_diagram():
    game = arena.games.make("openspiel:twixt")  # ansi_color_output=True by default
    state = game.initial_state().play("xb8")
    svg = game.render_svg(state, "xb8")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and "\x1b" not in svg and "openspiel:twixt after xb8" in svg
    lines = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}tspan")]
    assert lines == state.diagram().splitlines() and any("x" in line for line in lines)


@needs_openspiel
def test_bots_play_what_they_can_and_refuse_the_rest():
    from arena.errors import BotSpecError
    from arena.tournament import build
    from bots.alphabeta import AlphaBetaBot
    from bots.registry import check_field, parse_spec

    game = arena.games.make("openspiel:tic_tac_toe")
    bot = AlphaBetaBot(depth=3)
    bot.reset(game, 0, 1)
    # X to move with a win on the top row, and O threatening: alpha-beta takes the win
    state = game.parse_state("tic_tac_toe() history=0,4,1,8")
    assert bot.choose(state, None) == "x(0,2)" and bot.last_stats.evaluation > 0
    with pytest.raises(BotSpecError, match="alphabeta plays games without chance nodes"):
        check_field([parse_spec("alphabeta")], arena.games.make("openspiel:backgammon"))
    with pytest.raises(BotSpecError, match="alphabeta plays 2-player games"):
        check_field([parse_spec("alphabeta")], arena.games.make("openspiel:chinese_checkers", players=3))
    check_field([parse_spec(k) for k in ("paranoid", "maxn", "brs", "mcts", "random")],
                arena.games.make("openspiel:chinese_checkers", players=3))
    # the default field is the family's, less the kinds that cannot play the game
    assert build({"game": "openspiel:backgammon"}).bots == ("random", "greedy", "mcts:playouts=100")
    cfg = build({"game": "openspiel:connect_four"})
    assert cfg.bots == ("random", "greedy", "alphabeta:depth=3", "mcts:playouts=100") and cfg.games == 10
    assert cfg.run_name().startswith("openspiel-connect_four-")


@needs_openspiel
def test_an_engine_plays_from_the_position_text_and_the_legal_moves():
    game = arena.games.make("openspiel:backgammon")
    state = game.initial_state()
    state = state.play(state.chance_outcomes()[3][0])  # the dice: a seat is on move
    legal = state.legal_moves()
    out = subprocess.run([sys.executable, "-m", "arena", "engine", "random"], capture_output=True, text=True,
                         timeout=120, input="\n".join(["aep 1", "newgame openspiel:backgammon {}",
                                                       f"seat {state.to_move} 7", "isready",
                                                       f"position {state.to_text()}", "legal " + " ".join(legal),
                                                       "go", "quit"]) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1].split()[1] in legal


@needs_openspiel
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n.split(":")[1] in SLOW else n
                                  for n in ADAPTED])
def test_every_adapted_game_passes_check(name):
    check(arena.games.make(name))


@needs_openspiel
def test_arena_play_shows_the_chance_plies(capsys):
    from arena.cli.app import main

    with pytest.raises(SystemExit) as exc:
        main(["play", "openspiel:pig", "-p", "winscore=12", "--bot", "mcts:playouts=8", "--seed", "3", "--quiet"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and re.search(r"ply \d+: chance plays Roll_\d", out), out
    assert "mcts:playouts=8 plays roll" in out and "result after" in out

"""Chance nodes (issue 33): drawn by the referee from the game's seed, recorded as plies of seat
``CHANCE``, never asked of a bot, checked by the runner's replay and by ``arena.games.check``;
MCTS samples them, the searches that cannot are refused up front. On Dice Nim
(``tests/toy.py``), so none of it needs OpenSpiel."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena.errors import BotSpecError
from arena.games import CHANCE, GameCheckError, GameType, check, draw_chance
from arena.games.conformance import check_chance, check_outcomes
from arena.referee import ChanceDraws, GameSettings, Termination, play_game, random_opening, referee_check
from bots.mcts import MCTSBot, _Node
from bots.random import RandomBot
from bots.registry import check_field, parse_spec
from tests.toy import DIE, DiceNim, DiceNimState


class Watching(RandomBot):
    """A random bot that keeps the positions it is asked at."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[int] = []

    def choose(self, state, limits):
        self.seen.append(state.to_move)
        return super().choose(state, limits)


def test_draw_chance_is_the_inverse_of_the_cumulative_probabilities():
    outcomes = [("a", 0.5), ("zero", 0.0), ("b", 0.25), ("c", 0.25)]
    assert [draw_chance(outcomes, u) for u in (0.0, 0.49, 0.5, 0.74, 0.75, 0.999)] == ["a", "a", "b", "b", "c", "c"]
    assert draw_chance([("a", 0.3), ("b", 0.3)], 0.9) == "b"  # rounding left the total below u: the last outcome
    assert draw_chance([("a", 0.5), ("b", 0.5), ("never", 0.0)], 0.99999) == "b"
    with pytest.raises(ValueError, match="positive probability"):
        draw_chance([("a", 0.0)], 0.1)


def test_the_referee_draws_chance_plies_from_the_seed_and_asks_no_bot():
    game = DiceNim(pile=15)
    bots = [Watching(), Watching()]
    record = play_game(GameSettings(game, 5), bots)
    chance = [m for m in record.move_stats if m.seat == CHANCE]
    assert chance and all(m.move in dict(DIE) for m in chance)
    assert [m.ply for m in record.move_stats] == list(range(record.plies))  # one record per ply
    assert all(seat >= 0 for bot in bots for seat in bot.seen)  # no bot was asked at a chance node
    assert len(chance) == sum(len(b.seen) for b in bots)  # every turn begins with a roll
    again = play_game(GameSettings(game, 5), [Watching(), Watching()])
    assert again.moves == record.moves  # the same seed (and bots' seeds): the same game
    other = play_game(GameSettings(game, 6), [Watching(), Watching()])
    assert other.moves != record.moves
    # the k-th roll of a game is the k-th number of the seed's generator: whatever the bots did
    draws = ChanceDraws(5)
    state = game.initial_state(5)
    for text in record.moves:
        if state.to_move == CHANCE:
            assert str(draws.draw(state)) == text
        state = state.play(game.parse_move(state, text))
    assert state.outcome() == record.outcome
    assert referee_check(game, record).mismatch is None


def test_a_stored_chance_ply_the_seed_did_not_draw_is_cut_blaming_nobody():
    game = DiceNim(pile=15)
    record = play_game(GameSettings(game, 5), [RandomBot(), RandomBot()])
    ply = next(m.ply for m in record.move_stats if m.seat == CHANCE and m.ply > 0)
    forged = "d3" if record.moves[ply] != "d3" else "d1"
    moves = record.moves[:ply] + (forged,) + record.moves[ply + 1:]
    checked = referee_check(game, replace(record, moves=moves))
    assert checked.record.outcome.termination == Termination.UNFINISHED
    assert checked.record.fault_seat is None and checked.record.plies == ply
    assert f"chance outcome {forged!r} is not the one the game's seed draws ({record.moves[ply]!r})" in checked.mismatch


def test_opening_plies_draw_chance_nodes_and_the_referee_draws_after_them():
    game = DiceNim(pile=15)
    opening = random_opening(game, 9, 4)
    assert len(opening) == 4 and opening[0] in dict(DIE)  # the game starts at a roll
    record = play_game(GameSettings(game, 9, opening=tuple(opening)), [RandomBot(), RandomBot()])
    assert record.moves[:4] == tuple(opening) and record.opening_plies == 4
    assert all(m.seat == -1 for m in record.move_stats[:4])
    assert referee_check(game, record).mismatch is None


def test_check_covers_chance_nodes():
    check(DiceNim(players=3))

    class Undeclared(DiceNim):
        type = GameType(2, None)
    with pytest.raises(GameCheckError, match="chance node in a game whose type has no chance nodes"):
        check_outcomes(Undeclared())

    class Loaded(DiceNimState):
        def chance_outcomes(self):
            return [("d1", 0.5), ("d2", 0.25)] if self.to_move == CHANCE else []

    class LoadedDice(DiceNim):
        def initial_state(self, seed=None):
            return Loaded(self.params["pile"], 0, 0, self.params["players"])
    with pytest.raises(GameCheckError, match="chance probabilities must sum to 1"):
        check_chance(LoadedDice())


def test_mcts_samples_chance_and_the_searches_that_cannot_are_refused():
    game = DiceNim(pile=15)
    check_field([parse_spec("mcts"), parse_spec("random"), parse_spec("greedy")], game)
    for kind in ("alphabeta", "paranoid", "maxn", "brs"):
        with pytest.raises(BotSpecError, match=f"{kind} plays games without chance nodes; dice-nim has chance nodes"):
            check_field([parse_spec(kind)], game)
    first = play_game(GameSettings(game, 3), [MCTSBot(playouts=60), RandomBot()])
    again = play_game(GameSettings(game, 3), [MCTSBot(playouts=60), RandomBot()])
    assert first.moves == again.moves and first.outcome.termination == "last_stone"
    # with the roll known, the search finds the win: a pile of 3 after a roll of 3 is taken whole
    bot = MCTSBot(playouts=200)
    bot.reset(game, 0, 1)
    assert bot.choose(DiceNimState(3, 0, 3, 2), None) == 3
    # below each move the tree holds a chance node whose children are the outcomes drawn, each
    # drawn about as often as its probability
    root = _Node(DiceNimState(9, 0, 3, 2), None, 2, bot.rng)
    for _ in range(900):
        bot._iterate(root)
    rolls = [child for child in root.children if child.to_move == CHANCE]
    assert len(rolls) == 3
    for node in rolls:
        assert set(node.outcomes) == set(dict(DIE)) and node.children == list(node.outcomes.values())
        below = sum(c.visits for c in node.children)
        assert below == node.visits - 1  # every visit but the one that made it went down to an outcome
        assert abs(node.outcomes["d1"].visits / below - 0.5) < 0.15

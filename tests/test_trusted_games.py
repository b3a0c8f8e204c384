"""A game of bots that run only the arena's own code (``GameSettings.trusted``, set by a
worker for built-in bots: ``arena.tournament.worker.trusted``) hands each bot the referee's
state itself; any other game hands each bot a private copy (``arena.referee.private``)."""

import pytest

import arena.games
from arena.referee import GameHooks, GameSettings, play_game
from bots.random import RandomBot


class Recorder(RandomBot):
    def __init__(self, **options):
        super().__init__(**options)
        self.handed = []

    def choose(self, state, limits):
        self.handed.append(state)
        return super().choose(state, limits)


@pytest.mark.parametrize("trusted", [True, False])
def test_a_trusted_game_hands_the_referees_state_and_an_untrusted_one_a_copy(trusted):
    game = arena.games.make("interaction")
    bots = [Recorder(), Recorder()]
    asked = []
    play_game(GameSettings(game, 7, trusted=trusted), bots, GameHooks(on_move=lambda seat, s, allowed: asked.append(s)))
    handed = bots[0].handed + bots[1].handed
    assert len(handed) == len(asked) > 4
    ids = {id(a) for a in asked}
    assert all((id(h) in ids) == trusted for h in handed)
    assert sorted(h.to_text() for h in handed) == sorted(a.to_text() for a in asked)


def test_trusted_and_untrusted_games_play_the_same_moves():
    game = arena.games.make("interaction")
    records = [play_game(GameSettings(game, 11, trusted=t), [RandomBot(), RandomBot()]) for t in (True, False)]
    assert records[0].moves == records[1].moves and records[0].outcome == records[1].outcome


def test_the_worker_trusts_a_game_of_built_in_bots_only(monkeypatch):
    from arena.supervisor import Watched
    from arena.tournament import worker
    from arena.tournament.series import GameTask
    from bots.registry import parse_spec
    seen = []
    monkeypatch.setattr(Watched, "play", lambda self, settings, bots, guarded, timed: seen.append(settings.trusted))
    specs = {s.label: s for s in (parse_spec("random"), parse_spec("r2=random"))}
    setup = worker.WorkerSetup(game="interaction", params={}, specs=specs)
    factories = worker.bot_factories(specs)
    game = arena.games.make("interaction")
    watched = Watched(__import__("arena.supervisor", fromlist=["new_status"]).new_status())
    task = GameTask(1, 0, ("random", "r2"), ("random", "r2"), 5, ())
    worker.play_task(game, factories, task, setup, watched, trusted_labels=frozenset({"random", "r2"}))
    worker.play_task(game, factories, task, setup, watched, trusted_labels=frozenset({"random"}))
    assert seen == [True, False]

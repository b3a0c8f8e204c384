"""Small real tournaments of the three built-in games, played by the match loop and stored by
the store (for the HTML report tests)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import arena.games
from arena.referee import play_game, GameSettings
from bots.random import RandomBot
from arena.reports.replay import round_answers
from arena.games import SIMULTANEOUS
from arena.results.store import Store, load_game
from tests.toy import Nim
from bots import registry
from bots.base import Limits

#: game -> (parameters, bot specs by seat, games)
SETUPS = {
    "interaction": ({"max_plies": 40}, ["random", "greedy"], 4),
    "sandpile": ({"rounds": 1}, ["random", "greedy", "random", "greedy"], 2),
    "ricochet": ({"max_rounds": 3, "board": "1A,2B,4A,3B"}, ["ricochet-optimal", "random"], 2),
}


class FirstThenRaise:
    """Plays the first legal move, then raises on its second move (a fault game)."""

    def __init__(self):
        self.calls = 0

    def choose(self, state, limits):
        self.calls += 1
        if self.calls >= 2:
            raise RuntimeError("bot bug on purpose")
        return state.legal_moves()[0]


def make_store(folder: Path, game_name: str, fault: bool = False) -> Path:
    """A stored tournament ``<game_name>`` in ``folder``: the setup's games with seats rotated,
    plus (``fault``) one game lost by an exception. Returns the database path."""
    params, specs, count = SETUPS[game_name]
    game = arena.games.make(game_name, **params)
    labels = [f"{s}{i}" for i, s in enumerate(specs)]
    total = count + int(fault)
    with Store.open(folder, game_name) as store:
        store.begin(game_name, game_name, params, game.num_players, 1, {"games": total},
                    list(zip(labels, specs)), total)
        for game_id in range(1, count + 1):
            k = game_id % len(labels)
            seats, seat_specs = labels[k:] + labels[:k], specs[k:] + specs[:k]
            bots = [registry.make(s) for s in seat_specs]
            record = play_game(GameSettings(game, 10 + game_id, labels=seats, limits=Limits()), bots)
            store.add_game(game_id, game_id - 1, record)
        if fault:  # the second bot raises on its second move and loses the game
            bots = [registry.make(specs[0]), *[FirstThenRaise() for _ in specs[1:]]]
            store.add_game(total, total - 1, play_game(GameSettings(game, 99, labels=labels, limits=Limits()), bots))
        return store.path


def final_position(path: Path, game_id: int) -> str:
    """The position text at the end of a stored game, replayed move by move through the rules
    (as ``arena replay`` does): what the replay viewer's last frame must show. For a game not
    lost by a fault, checks that the replay ends with the stored scores, ranks and termination."""
    from arena.results.store import load_tournament

    info = load_tournament(path)
    row = load_game(path, game_id)
    game = arena.games.make(info["game"], **info["params"])
    state = game.initial_state(row["seed"])
    for text in row["moves"]:
        move = round_answers(game, state, text) if state.to_move == SIMULTANEOUS else game.parse_move(state, text)
        state = state.play(move)
    if row["fault_seat"] is None:  # the replay ends where the stored game ended
        outcome = state.outcome()
        assert outcome is not None and list(outcome.scores) == row["scores"] and list(outcome.ranks) == row["ranks"]
        assert outcome.termination == row["termination"]
    return state.to_text()


def field_store(folder, name="field"):
    """Interaction, three bots in a round-robin of seat-swapped pairs (series = pair), one
    series that holds a repeated game (a copy), a leftover single game, stored in batches by
    ``add_games``. Returns the database path."""
    game = arena.games.make("interaction", max_plies=24)
    labels, specs = ["r0", "g1", "r2"], ["random", "greedy", "random"]
    batch, game_id = [], 0
    for series, (a, b) in enumerate([(0, 1), (0, 2), (1, 2), (0, 1), (2, 0)]):
        for seats in ([a, b], [b, a]):
            game_id += 1
            bots = [registry.make(specs[s]) for s in seats]
            settings = GameSettings(game, 40 + series, labels=[labels[s] for s in seats], limits=Limits())
            record = play_game(settings, bots)
            batch.append((game_id, series, record, 1))
    batch.append((game_id + 1, 1, batch[2][2], 1))  # series 1 again: the same moves, a copy
    bots = [registry.make("greedy"), registry.make("random")]
    batch.append((game_id + 2, 5, play_game(GameSettings(game, 77, labels=["g1", "r0"], limits=Limits()), bots), 1))
    with Store.open(folder, name) as s:
        s.begin(name, "interaction", {"max_plies": 24}, 2, 1, {"games": 2}, list(zip(labels, specs)), len(batch))
        s.add_games(batch[:5])
        s.add_games(batch[5:])
        return s.path


def nim_store(folder):
    """3-player Nim with the seats rotated, two series of three, and a copy in series 1."""
    game = Nim(players=3, pile=9)
    labels = ["a", "b", "c"]
    with Store.open(folder, "nim3") as s:
        s.begin("nim3", "nim", {"players": 3, "pile": 9}, 3, 5, {"games": 7}, [(lab, "random") for lab in labels], 7)
        for game_id in range(1, 7):
            seats = labels[game_id % 3:] + labels[:game_id % 3]
            record = play_game(GameSettings(game, 100 + game_id, labels=seats), [RandomBot() for _ in seats])
            s.add_game(game_id, (game_id - 1) // 3, record)
            if game_id == 4:
                copy = record
        s.add_game(7, 1, replace(copy))
        return s.path

"""Seeded play of a game with hidden information from one seat's side, for ``arena engine
check`` (``arena.engine.compliance``, the ``views`` check): chance outcomes are drawn by their
probabilities, the other seats choose uniformly at random among their own moves, and the seat
under test is asked at each node where it chooses (its turn, or a simultaneous node).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import arena.games
from arena.errors import one_line
from arena.games import CHANCE, SIMULTANEOUS, Answer, Game, State, draw_chance
from arena.referee.seeds import derive_seed

#: the games with hidden information the ``views`` check offers when ``--game`` is of perfect
#: information: name and parameters (a sequential game with chance; a simultaneous game whose
#: views span several lines)
VIEW_GAMES: tuple[tuple[str, dict], ...] = (("openspiel:kuhn_poker", {}), ("openspiel:goofspiel", {"num_cards": 4}))


def view_games() -> tuple[list[Game], list[str]]:
    """(the games of ``VIEW_GAMES`` that can be made here, one line for each that cannot: not
    installed, or not a game with hidden information)."""
    games, missing = [], []
    for name, params in VIEW_GAMES:
        try:
            game = arena.games.make(name, **params)
        except Exception as exc:  # noqa: BLE001 - OpenSpiel missing, or the game refused: not offered
            missing.append(f"{name}: {one_line(exc)}")
            continue
        if game.type.hidden_information:
            games.append(game)
        else:
            missing.append(f"{name}: not a game with hidden information here")
    return games, missing


def _pick(moves: list, rng: random.Random) -> object:
    return moves[rng.randrange(len(moves))] if moves else None


def walk(game: Game, seed: int, seat: int, choose: Callable[[State, int], str | None]) -> tuple[int, int]:
    """Play one game of ``game`` (start position of ``seed``) to its end; ``choose(state, ply)``
    answers for 0-based ``seat`` (the text of one of its view's moves; ``None``: no answer at a
    simultaneous node) at 0-based ply ``ply`` (chance outcomes, moves and simultaneous rounds
    count), the others and chance as the module doc says (a generator seeded from ``seed``).

    Returns:
        (how many times ``seat`` was asked, how many of them at simultaneous nodes).

    Raises:
        Exception: what ``choose`` raises (the walk stops there).
    """
    rng = random.Random(derive_seed(seed, "views"))
    state = game.initial_state(seed)
    asked = rounds = ply = 0
    while not state.is_terminal():
        if state.to_move == CHANCE:
            state = state.play(draw_chance(state.chance_outcomes(), rng.random()))
        elif state.to_move == SIMULTANEOUS:
            answers = [choose(state, ply) if s == seat else _pick(list(state.view(s).moves), rng)  # type: ignore[union-attr]
                       for s in range(game.num_players)]
            asked, rounds = asked + 1, rounds + 1
            state = state.play([Answer(a) for a in answers])
        elif state.to_move == seat:
            asked += 1
            state = state.play(game.parse_move(state, choose(state, ply) or ""))
        else:
            state = state.play(_pick(state.legal_moves(), rng))
        ply += 1
    return asked, rounds


def decisions(game: Game, seed: int, seat: int) -> list[tuple[int, State]]:
    """(ply, state) of each node where 0-based ``seat`` chooses, along one game of ``walk``
    in which it too chooses at random (plies: chance outcomes, moves and simultaneous rounds)."""
    rng = random.Random(derive_seed(seed, "seat", seat))
    found: list[tuple[int, State]] = []

    def choose(state: State, ply: int) -> str | None:
        found.append((ply, state))
        move = _pick(list(state.view(seat).moves), rng)  # type: ignore[union-attr]
        return None if move is None else str(move)
    walk(game, seed, seat, choose)
    return found

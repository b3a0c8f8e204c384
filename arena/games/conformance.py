"""``check(game)``: the conformance checks every game must pass, as a public function.

For authors of games (PettingZoo's ``pettingzoo.test.api_test`` is the model): run

    >>> import arena.games
    >>> arena.games.check(arena.games.make("interaction"))   # doctest: +SKIP

on your own ``Game``; it raises ``GameCheckError`` (an ``AssertionError``) whose message names
the rule broken, or returns ``None``. ``tests/games/test_conformance.py`` runs it on every
registered game. For a game with hidden information it also checks that each seat's view
tells it no more than it may know (``arena.games.leaks``). The rules are those of
``docs/arena.md`` "Contracts / Python API" and the ``State`` / ``Game`` docstrings in
``arena/games/protocol.py``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from arena.errors import ArenaError, IllegalMoveError
from arena.games.broken import GameCheckError, fail
from arena.games.leaks import check_views
from arena.games.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Answer, Dynamics, Game, GameType, State, draw_chance

#: steps after which a random game is taken not to end
MAX_STEPS = 5000


def _require(condition: object, game: Game, rule: str) -> None:
    if not condition:
        fail(game, rule)


def random_step(game: Game, state: State, rng: random.Random) -> State:
    """A uniformly random legal move at a sequential node; at a simultaneous node, every seat
    answers one of the moves its view lists (``State.view(seat).legal_moves()``: OpenSpiel's
    joint actions), or where it lists none the state's ``random_answer(rng)`` when it has one,
    else no answer (Ricochet's rounds); at a chance node, an outcome drawn by its probability
    (``draw_chance``, as the referee draws it)."""
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        _require(outcomes, game, "a chance node must offer at least one outcome (State.chance_outcomes)")
        return state.play(draw_chance(outcomes, rng.random()))
    if state.to_move == SIMULTANEOUS:
        make = getattr(state, "random_answer", None)
        answers = []
        for seat in range(game.num_players):
            own = state.view(seat).legal_moves() if game.type.hidden_information else []
            answers.append(Answer(own[rng.randrange(len(own))] if own else make(rng) if make else None))
        return state.play(answers)
    moves = state.legal_moves()
    _require(moves, game, "a non-terminal sequential node must offer at least one move (pass included)")
    return state.play(moves[rng.randrange(len(moves))])


def random_game(game: Game, seed: int, max_steps: int = MAX_STEPS) -> list[State]:
    """The states of one seeded random game, initial to terminal.

    Raises:
        GameCheckError: the game did not end within ``max_steps`` steps.
    """
    rng = random.Random(seed)
    state = game.initial_state(seed)
    states = [state]
    for _ in range(max_steps):
        if state.is_terminal():
            return states
        state = random_step(game, state, rng)
        states.append(state)
    raise GameCheckError(f"{game.name}: random game {seed} did not end within {max_steps} steps")


def check_type(game: Game) -> None:
    """``game.type`` is a ``GameType`` that admits ``game.num_players`` seats."""
    t = game.type
    _require(isinstance(t, GameType), game, "Game.type must be an arena.games.GameType")
    _require(t.min_players <= game.num_players and (t.max_players is None or game.num_players <= t.max_players),
             game, f"num_players {game.num_players} must be within Game.type's {t.seats()} seats")


def check_outcomes(game: Game, seeds: Iterable[int] = range(5)) -> None:
    """Random games end, at ``TERMINAL``, with one score and one rank (1..n, best 1) per seat;
    simultaneous nodes only in games whose type says so; the same seed gives the same game."""
    for seed in seeds:
        states = random_game(game, seed)
        final = states[-1]
        _require(final.to_move == TERMINAL, game, "a terminal state must have to_move == TERMINAL")
        _require(game.type.dynamics == Dynamics.SIMULTANEOUS or all(s.to_move != SIMULTANEOUS for s in states),
                 game, "a simultaneous node in a game whose type is sequential")
        _require(game.type.chance_nodes or all(s.to_move != CHANCE for s in states),
                 game, "a chance node in a game whose type has no chance nodes (GameType.chance_nodes)")
        out = final.outcome()
        _require(out is not None, game, "outcome() must be set at a terminal state")
        assert out is not None  # _require raised otherwise (narrows the type)
        _require(isinstance(out.termination, str) and out.termination, game,
                 "Outcome.termination must be a non-empty string")
        n = game.num_players
        _require(len(out.scores) == n and len(out.ranks) == n, game,
                 "Outcome must give one score and one rank per seat")
        _require(min(out.ranks) == 1 and all(1 <= r <= n for r in out.ranks), game,
                 "Outcome.ranks must be 1..num_players with 1 = best")
        again = [s.to_text() for s in random_game(game, seed)]
        _require(again == [s.to_text() for s in states], game, "the same seed and moves must give the same game")


def check_text(game: Game, seed: int = 11, states: int = 60) -> None:
    """Position text reads back to the same position; every legal move is playable and its
    notation reads back to itself."""
    for state in random_game(game, seed)[:states]:
        text = state.to_text()
        again = game.parse_state(text)
        _require(again.to_text() == text, game, f"parse_state(to_text()) must give the same text: {text!r}")
        _require(again.to_move == state.to_move, game, f"parse_state must keep the seat to move: {text!r}")
        if state.to_move >= 0 or state.to_move == CHANCE:
            chance = state.to_move == CHANCE
            moves = [m for m, _ in state.chance_outcomes()] if chance else state.legal_moves()
            found = [m for m, _ in again.chance_outcomes()] if chance else again.legal_moves()
            _require([str(m) for m in found] == [str(m) for m in moves], game,
                     f"a parsed position must have the same {'outcomes' if chance else 'legal moves'} "
                     f"in the same order: {text!r}")
            for move in moves:
                state.play(move)
                _require(str(game.parse_move(state, str(move))) == str(move), game,
                         f"parse_move(str(move)) must read back {'outcome' if chance else 'move'} {str(move)!r}")


def check_chance(game: Game, seeds: Iterable[int] = range(3)) -> None:
    """At every chance node of seeded random games: no legal moves for a seat, outcomes with
    distinct notations and probabilities in (0, 1] summing to 1, each outcome playable; a game
    without chance nodes has none (``check_outcomes``).

    Raises:
        GameCheckError: a chance node broke a rule (the message names it).
    """
    if not game.type.chance_nodes:
        return
    for seed in seeds:
        for state in random_game(game, seed):
            if state.to_move != CHANCE:
                continue
            outcomes = state.chance_outcomes()
            _require(outcomes, game, "a chance node must offer at least one outcome (State.chance_outcomes)")
            _require(state.legal_moves() == [], game, "legal_moves() must be [] at a chance node")
            texts = [str(m) for m, _ in outcomes]
            _require(len(set(texts)) == len(texts), game, f"chance outcomes must have distinct notations: {texts}")
            probs = [p for _, p in outcomes]
            _require(all(0 < p <= 1 for p in probs), game, f"chance probabilities must be in (0, 1]: {probs}")
            _require(math.isclose(sum(probs), 1.0, abs_tol=1e-9), game,
                     f"chance probabilities must sum to 1, not {sum(probs)!r}")
            for move, _ in outcomes:
                state.play(move)


def check_illegal(game: Game, seed: int = 3, states: int = 40) -> None:
    """Moves legal elsewhere but not here, and any move at a terminal state, raise ``IllegalMoveError``.

    Args: ``seed``: of the random games played; ``states``: how many positions are tried.

    Raises:
        GameCheckError: a move was accepted where it is illegal (the message names the rule).
    """
    played = random_game(game, seed)
    others = random_game(game, seed + 1)[:states]

    def offered(s: State) -> list:
        return [m for m, _ in s.chance_outcomes()] if s.to_move == CHANCE else s.legal_moves()
    for state in played[:states]:
        if state.to_move < 0 and state.to_move != CHANCE:
            continue
        legal = {str(m) for m in offered(state)}
        probes = [m for other in others if other.to_move >= 0 or other.to_move == CHANCE
                  for m in offered(other) if str(m) not in legal]
        for move in probes[:20]:
            try:
                state.play(move)
            except IllegalMoveError:
                continue
            raise GameCheckError(f"{game.name}: play({str(move)!r}) must raise IllegalMoveError when the move "
                                 f"is not legal in {state.to_text()!r}")
    try:
        played[-1].play(None)
    except IllegalMoveError:
        return
    raise GameCheckError(f"{game.name}: play() at a terminal state must raise IllegalMoveError")


def check_bad_text(game: Game, texts: Iterable[str] = ("", "garbage", "x" * 500, "\x00")) -> None:
    """Malformed position and move text raise an ``ArenaError`` (one-line, no traceback).

    Raises:
        GameCheckError: a text was accepted, or refused with another exception class.
    """
    start = game.initial_state(0)
    for text in texts:
        for what, parse in (("parse_state", game.parse_state), ("parse_move", lambda t: game.parse_move(start, t))):
            try:
                parse(text)
            except ArenaError:
                continue
            raise GameCheckError(f"{game.name}: {what}({text[:20]!r}) must raise an ArenaError "
                                 "(PositionSyntaxError / MoveSyntaxError)")


def check(game: Game) -> None:
    """Run every conformance check on ``game`` (a few seconds for the built-in games), the
    leak check of its views last (``arena.games.leaks.check_views``).

    Raises:
        GameCheckError: the first rule broken, named in the message.
    """
    check_type(game)
    check_outcomes(game)
    check_chance(game)
    check_text(game)
    check_illegal(game)
    check_bad_text(game)
    check_views(game)

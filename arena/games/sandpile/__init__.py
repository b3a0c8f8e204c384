"""Sandpile: a four-player placing-and-toppling game (``docs/rules/sandpile.md``).

Players A (south), B (west), C (north), D (east) place pieces for four laps per round, then
topple unstable stacks (more than 3 pieces) one per turn, each piece going to a neighbour in
an order relative to the toppling player's side; pieces pushed off the board re-enter on the
opposite side (torus, or mirrored cell with ``wrap="mirror"``). After each round every player
scores their visible tops; after the last round the totals rank the players.

A state stores the board as a tuple of stacks (one ``str`` of colour letters per cell,
bottom→top, index ``rank * size + file``), so copies are cheap; neighbour and wrap tables are
computed once per parameter set (``SandpileRules``).
"""

from __future__ import annotations

from arena.errors import ConfigError
from arena.games.protocol import Game, GameType, Param
from arena.games.sandpile.rules import (
    LETTERS, PASS, PHASES, SIDES, Phase, STABLE_MAX, SandpileMove, SandpileRules, cells_of, parse_move, rules_for,
)
from arena.games.sandpile.state import SandpileState
from arena.games.sandpile.text import parse_state

__all__ = [
    "LETTERS", "PASS", "PHASES", "Phase", "SIDES", "STABLE_MAX", "Sandpile", "SandpileMove", "SandpileRules",
    "SandpileState", "cells_of", "parse_move", "rules_for",
]


class Sandpile(Game):
    """4 players place pieces, topple stacks of 4+, score visible tops (abelian sandpile).

    ``docs/rules/sandpile.md``: four players, ``rounds`` rounds of placing and toppling.

    Raises:
        ConfigError: a bad parameter, or parameters for which a toppling phase might not end:
            4 × (rounds × pieces_per_round + bonus) must be below 2 × size² (the edge count).
    """

    name = "sandpile"
    type = GameType(4, 4)
    TERMINATIONS = {
        "rounds": "the last round's toppling phase ended; totals of visible tops decide "
                  "(``docs/rules/sandpile.md`` \"Scoring and end\")",
    }
    PARAMS = {
        "wrap": Param("torus", "where pieces pushed off the board re-enter", choices=("torus", "mirror")),
        "rounds": Param(4, "rounds (manches)", minimum=1),
        "pieces_per_round": Param(4, "laps of placement per round", minimum=1),
        "bonus": Param(True, "each player holds one bonus piece"),
        "size": Param(6, "board side, cells", minimum=2),
    }

    def __init__(self, **params) -> None:
        super().__init__(**params)
        p = self.params
        if p["size"] > 26:
            raise ConfigError(f"game sandpile: size={p['size']} too large; accepted: 2 to 26 (files a-z)")
        pieces = 4 * (p["rounds"] * p["pieces_per_round"] + int(p["bonus"]))
        edges = 2 * p["size"] ** 2
        if pieces >= edges:
            raise ConfigError(
                f"game sandpile: 4 x (rounds x pieces_per_round + bonus) = {pieces} pieces must be below "
                f"2 x size^2 = {edges} (the board's edge count), the bound under which every toppling "
                "phase is guaranteed to end; lower rounds or pieces_per_round, or raise size")
        self.rules = rules_for(p["size"], p["wrap"], p["rounds"], p["pieces_per_round"], p["bonus"])

    def initial_state(self, seed: int | None = None) -> SandpileState:
        """The empty board, round 1, A to place (no randomness: ``seed`` is ignored)."""
        r = self.rules
        return SandpileState(r, ("",) * r.cells, 1, Phase.PLACE, 0, 0, 0b1111 if r.bonus else 0, (0,) * 4, ())

    def parse_state(self, text: str) -> SandpileState:
        """Read the eight-field position text ("Notation").

        Raises:
            PositionSyntaxError: malformed text or an impossible position.
        """
        return parse_state(self.rules, text)

    def parse_move(self, state, text: str) -> SandpileMove:
        return parse_move(text)

    def render_svg(self, state, last_move=None, previous=None) -> str:
        """The board as SVG: stacks in their colours, unstable ones dashed, the last placement
        or toppling highlighted (``arena.games.sandpile.svg``)."""
        from arena.games.sandpile.svg import render

        return render(state, last_move, previous)

"""Adjudication: ending a decided game early from the scores the bots report
(``docs/tournaments.md`` "Adjudication"; cutechess-cli's ``-resign``, ``-draw`` and
``-maxmoves`` are the model).

Rules (``--adjudicate``, one or more):

- ``resign=MOVES:SCORE[:twosided]`` (two-player games): a side whose score stayed at or below
  ``-SCORE`` for its last ``MOVES`` moves loses (``adjudicated``). A side's score at its move
  is the score its bot reported (``last_stats.evaluation``, an engine's ``info score``: the
  value of the position for the side to move, in the bot's own units); when it reports none,
  its opponent's score at the ply before, negated (the opponent's claim), stands for it. With
  ``twosided`` both must say so: the side's own score at most ``-SCORE`` and its opponent's at
  the ply before at least ``SCORE``; a bot that reports no score is then never adjudicated.
- ``draw=AFTER:MOVES:SCORE`` (two-player games): once ``AFTER`` plies are played, when both
  sides' scores stayed within ``±SCORE`` for ``MOVES`` moves each (the last ``2 × MOVES``
  plies, every one with a reported score), the game is drawn (``adjudicated_draw``). A bot
  that reports no score is never adjudicated a draw.
- ``max-plies=N`` (any game): a game not over after ``N`` plies (opening plies included, a
  simultaneous round counting one) is drawn (``adjudicated_draw``: every seat ranks first).

A ply with no score known breaks a streak. Opening plies have no score. The game record keeps
the rule (``GameRecord.adjudication``); the ply is the record's last (``plies``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from arena.errors import ConfigError
from arena.games import Outcome
from arena.referee.records import Termination

#: the accepted forms, for error messages
FORMS = "resign=MOVES:SCORE[:twosided], draw=AFTER:MOVES:SCORE, max-plies=N"


@dataclass(frozen=True)
class Resign:
    """``resign=MOVES:SCORE[:twosided]``: ``moves`` own moves at or below ``-score``."""

    moves: int
    score: float
    twosided: bool = False

    def text(self) -> str:
        return f"resign={self.moves}:{self.score:g}" + (":twosided" if self.twosided else "")


@dataclass(frozen=True)
class Draw:
    """``draw=AFTER:MOVES:SCORE``: ``after`` plies played, ``moves`` moves each within ``±score``."""

    after: int
    moves: int
    score: float

    def text(self) -> str:
        return f"draw={self.after}:{self.moves}:{self.score:g}"


@dataclass(frozen=True)
class Adjudication:
    """The adjudication rules of a tournament (each ``None`` when not set)."""

    resign: Resign | None = None
    draw: Draw | None = None
    max_plies: int | None = None

    def text(self) -> str:
        """The canonical text: the rules set, comma-separated (``parse`` reads it back)."""
        parts = [r.text() for r in (self.resign, self.draw) if r is not None]
        parts += [] if self.max_plies is None else [f"max-plies={self.max_plies}"]
        return ",".join(parts)

    @property
    def scored(self) -> bool:
        """Whether a rule reads the bots' scores (``resign``, ``draw``: two-player games only)."""
        return self.resign is not None or self.draw is not None

    @classmethod
    def parse(cls, texts: str | Iterable[str]) -> Adjudication:
        """The rules of ``--adjudicate`` values (each one rule, or rules joined by ``,``).

        Raises:
            ConfigError: an unknown rule, a bad number (counts are whole numbers >= 1, AFTER
                >= 0, SCORE a finite number >= 0), or a rule given twice.
        """
        items = [texts] if isinstance(texts, str) else list(texts)
        found: dict[str, object] = {}
        for item in (part.strip() for text in items for part in str(text).split(",")):
            if not item:
                continue
            key, eq, value = item.partition("=")
            key = key.strip().lower().replace("_", "-")
            if not eq or key not in ("resign", "draw", "max-plies"):
                raise ConfigError(f"bad --adjudicate {item!r}; accepted: {FORMS}")
            if key in found:
                raise ConfigError(f"--adjudicate {key} given twice; give each rule once")
            found[key] = _rule(key, value.strip(), item)
        return cls(found.get("resign"), found.get("draw"), found.get("max-plies"))  # type: ignore[arg-type]


def _rule(key: str, value: str, item: str) -> object:
    """One rule's value.

    Raises:
        ConfigError: as ``Adjudication.parse``.
    """
    parts = value.split(":")
    try:
        if key == "max-plies" and len(parts) == 1:
            return _count(parts[0], 1)
        if key == "resign" and len(parts) in (2, 3) and (len(parts) == 2 or parts[2].lower() == "twosided"):
            return Resign(_count(parts[0], 1), _score(parts[1]), len(parts) == 3)
        if key == "draw" and len(parts) == 3:
            return Draw(_count(parts[0], 0), _count(parts[1], 1), _score(parts[2]))
    except ValueError:
        pass
    raise ConfigError(f"bad --adjudicate {item!r}; accepted: {FORMS} (MOVES, N: whole numbers >= 1, AFTER >= 0, "
                      "SCORE a number >= 0 in the bots' own units)")


def _count(text: str, low: int) -> int:
    value = int(text)
    if not low <= value <= 10**9:
        raise ValueError(text)
    return value


def _score(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(text)
    return value


class Adjudicator:
    """Decides, ply by ply, whether a game is adjudicated (``Adjudication``'s rules).

    Args:
        rules: the rules.
        num_players: seats of the game (``resign`` and ``draw`` read two-player games only).
    """

    def __init__(self, rules: Adjudication, num_players: int) -> None:
        self.rules, self.n = rules, num_players
        self.scored = rules.scored and num_players == 2
        self.streak = [0, 0]  # per seat: own moves in a row at or below -SCORE (resign)
        self.calm = 0  # plies in a row with a reported score within +-SCORE (draw)
        self.last: tuple[int, float | None] | None = None  # the previous sequential ply: (seat, score)

    def after_ply(self, plies: int, seat: int | None, score: float | None) -> tuple[Outcome, str] | None:
        """After a ply: the game's adjudicated outcome and the rule's text, or ``None`` to play on.

        Args:
            plies: plies played so far (opening included).
            seat: the 0-based seat that moved; ``None`` for an opening ply or a simultaneous round.
            score: its bot's reported score (the position's value for it), ``None`` when none.
        """
        rules = self.rules
        if self.scored and seat is not None and 0 <= seat < 2:
            result = self._scores(plies, seat, None if score is None or not math.isfinite(score) else float(score))
            if result is not None:
                return result
        if rules.max_plies is not None and plies >= rules.max_plies:
            return _drawn(self.n), f"max-plies={rules.max_plies}"
        return None

    def _scores(self, plies: int, seat: int, score: float | None) -> tuple[Outcome, str] | None:
        rules, last = self.rules, self.last
        claim = None if last is None or last[0] == seat or last[1] is None else -last[1]  # the opponent's, negated
        self.last = (seat, score)
        if rules.resign is not None:
            r = rules.resign
            if r.twosided:
                down = score is not None and claim is not None and score <= -r.score and claim <= -r.score
            else:
                mine = score if score is not None else claim
                down = mine is not None and mine <= -r.score
            self.streak[seat] = self.streak[seat] + 1 if down else 0
            if self.streak[seat] >= r.moves:
                ranks = tuple(2 if s == seat else 1 for s in range(2))
                return Outcome((0.0, 0.0), ranks, Termination.ADJUDICATED), r.text()
        if rules.draw is not None:
            d = rules.draw
            self.calm = self.calm + 1 if score is not None and abs(score) <= d.score else 0
            if self.calm >= 2 * d.moves and plies >= d.after:
                return _drawn(2), d.text()
        return None


def _drawn(num_players: int) -> Outcome:
    """Every seat shares first place (``adjudicated_draw``)."""
    return Outcome(tuple(0.0 for _ in range(num_players)), tuple(1 for _ in range(num_players)),
                   Termination.ADJUDICATED_DRAW)

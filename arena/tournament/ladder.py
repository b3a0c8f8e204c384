"""A strength ladder (``arena ladder``): one bot at several budgets, each rung playing its
neighbours in seat-rotated series (``docs/studies.md``; the report is ``arena.reports.ladder``).

``rungs`` expands a spec with one brace group in an option's value, as a shell would:
``mcts:playouts={50,100,200,400,800}`` or ``alphabeta:depth={1..5}``; ``Ladder`` is the
schedule (a ``FixedPairings`` format whose pairings are the neighbouring rungs), passed to
``run_tournament(cfg, schedule=Ladder)``. The stored settings do not name the format, so a
ladder's default name is its own (``ladder_name``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from arena.errors import ConfigError
from arena.tournament.config import TournamentConfig
from arena.tournament.schedule import FixedPairings

#: the most rungs a ladder may have
MAX_RUNGS = 64
_GROUP = re.compile(r"\{([^{}]*)\}")
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:\.\.\s*(\d+)\s*)?$")
_ACCEPTED = ("accepted: one {...} group as an option's value, a list {50,100,200} or a range {1..5} "
             "(or {2..10..2}), e.g. 'mcts:playouts={50,100,200,400,800}'")


@dataclass(frozen=True)
class Rungs:
    """The rungs of a ladder spec.

    Attributes:
        param: the option whose value varies.
        values: its values as written, weakest (smallest) first.
        specs: one bot spec per rung, in the same order.
    """

    param: str
    values: tuple[str, ...]
    specs: tuple[str, ...]


def rungs(spec: str) -> Rungs:
    """Expand the one ``{...}`` group of a ladder spec into a spec per rung, sorted by value.
    A ``LABEL=`` prefix labels each rung ``LABEL`` followed by its value (``m=mcts:playouts=
    {50,100}``: ``m50``, ``m100``).

    Raises:
        ConfigError: no group or several, a group that is not an option's whole value, values
            that are not numbers, fewer than two values, a value given twice, or more than
            ``MAX_RUNGS`` (the message lists the accepted forms).
    """
    text = str(spec).strip()
    groups = list(_GROUP.finditer(text))
    if len(groups) != 1 or text.count("{") != 1 or text.count("}") != 1:
        raise ConfigError(f"bad ladder spec {text!r}: {'no' if not groups else 'more than one'} {{...}} group; "
                          f"{_ACCEPTED}")
    group = groups[0]
    before, after = text[:group.start()], text[group.end():]
    key = re.search(r"[:,]\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*$", before)
    if key is None or (after and not after.lstrip().startswith(",")):
        raise ConfigError(f"bad ladder spec {text!r}: the {{...}} group must be an option's whole value; {_ACCEPTED}")
    values = _values(group.group(1), text)
    label, eq, rest = before.partition("=") if "=" in before.partition(":")[0] else ("", "", before)
    out = [(f"{label.strip()}{v}=" if eq else "") + rest + v + after for v in values]
    return Rungs(key.group(1), tuple(values), tuple(out))


def _values(body: str, text: str) -> list[str]:
    """The values of a group's body, sorted by number.

    Raises:
        ConfigError: as ``rungs``.
    """
    m = _RANGE.match(body)
    if m:
        lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if hi <= lo or step < 1:
            raise ConfigError(f"bad ladder range {{{body}}} in {text!r}: needs A < B and a step >= 1; {_ACCEPTED}")
        items = [str(v) for v in range(lo, hi + 1, step)]
    else:
        items = [v.strip() for v in body.split(",")]
    numbers = []
    for item in items:
        try:
            number = Decimal(item)
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite():
            raise ConfigError(f"bad ladder value {item!r} in {text!r}: a rung's value must be a number; {_ACCEPTED}")
        numbers.append((number, item))
    numbers.sort()
    if len(numbers) < 2:
        raise ConfigError(f"bad ladder spec {text!r}: a ladder needs at least two values; {_ACCEPTED}")
    if len(numbers) > MAX_RUNGS:
        raise ConfigError(f"bad ladder spec {text!r}: {len(numbers)} values; accepted: at most {MAX_RUNGS} rungs")
    same = next((b for a, b in zip(numbers, numbers[1:]) if a[0] == b[0]), None)
    if same is not None:
        raise ConfigError(f"bad ladder spec {text!r}: the value {same[1]} is given twice; each rung needs its own")
    return [item for _, item in numbers]


class Ladder(FixedPairings):
    """Each rung plays its neighbours: the pairings are (rung 1, rung 2), (rung 2, rung 3), ...
    of the field in its order (the rungs, weakest first), each ``settings.games`` games in
    seat-rotated series.

    Raises (constructor):
        ConfigError: a game that is not for two players, or fewer than two rungs.
    """

    def pairings(self) -> list[tuple[str, ...]]:
        if self.game.num_players != 2:
            raise ConfigError(f"a ladder needs a 2-player game; {self.game.name} has {self.game.num_players} players")
        if len(self.labels) < 2:
            raise ConfigError("a ladder needs at least two rungs")
        return list(zip(self.labels, self.labels[1:]))


def ladder_name(cfg: TournamentConfig) -> str:
    """``--name``, or ``<game>-ladder-<8 hex digits>``: the hash of the settings
    (``TournamentConfig.run_name``), so the same command resumes and a round-robin of the
    same field is another tournament."""
    if cfg.name:
        return cfg.name
    return f"{cfg.game.replace(':', '-')}-ladder-{cfg.run_name().rpartition('-')[2]}"

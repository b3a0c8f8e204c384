"""Leagues: a named tournament whose members change from run to run (``docs/tournaments.md``
"Leagues"). ``arena run --name N --retire LABEL`` retires a bot: its games and ratings stay,
the reports show it apart, and it is never scheduled again (given with ``--bot`` later, it is
left out with a note). ``--candidate SPEC`` adds a bot that first plays a gauntlet against the
active pool, in rounds, until its place in the pool's order is settled (``Placement``, the rule
of ``--until-ranked`` for one bot: ``arena.tournament.placement``), then joins the pool and is
scheduled like the others.

Each change is stored in the store's ``league`` table (``arena.results.membership``) when it is
made: a retirement and a candidate when the run opens the store, a candidate's joining with the
games that settled it. So a run killed at any point resumes to the same schedule: the stored
changes give the same pool, and a candidate's rounds are decided from its stored games alone
(as ``--until-ranked``'s, with the bootstrap seeded by the tournament's seed and the round).

``League`` is the schedule of such a run: the format's schedule on the active pool, beside a
``Placement`` per candidate; game ids are given in the order the games are released, after every
id stored or released.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import ConfigError
from arena.games import Game
from arena.results.membership import LeagueEvent
from arena.results.store import Member, Store, StoredGame
from arena.stats.ranking import CONFIDENCE
from arena.tournament.placement import Placement
from arena.tournament.schedule import Schedule
from arena.tournament.series import GameTask, SeriesSettings

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig
    from arena.tournament.observers import RunSummary
    from arena.tournament.planning import Plan


class League(Schedule):
    """The schedule of a league run: the format's schedule on the active pool (``make_pool``,
    made again when a candidate joins, and told every stored game again) and a ``Placement``
    per candidate; candidates' games are released first. ``names``: label -> the bot's name
    (its label without version), for the changes stored (``changes``)."""

    def __init__(self, game: Game, pool: Sequence[str], candidates: Sequence[str], settings: SeriesSettings,
                 make_pool: Callable[[Sequence[str]], Schedule], confidence: float, names: dict[str, str]) -> None:
        super().__init__(game, [*pool, *candidates], settings)
        self.make_pool, self.names = make_pool, names
        self.active = list(pool)
        self.pool = make_pool(self.active)
        self.placing = {c: Placement(game, c, self.active, settings, confidence) for c in candidates}
        self.stored: list[StoredGame] = []
        self.taken: set[int] = set()  # ids stored or released
        self.flying: set[tuple[int, tuple[str, ...]]] = set()  # released, not stored yet
        self.joined: list[LeagueEvent] = []  # joins not yet taken by ``changes``
        self._total()

    def _total(self) -> None:
        """``total`` and ``stops_early`` (a candidate's gauntlet stops at its place) as they are now."""
        self.total = self.pool.total + sum(p.total for p in self.placing.values())
        self.stops_early = bool(self.placing) or self.pool.stops_early

    def owns(self, game: StoredGame) -> bool:
        return self.pool.owns(game) or any(p.owns(game) for p in self.placing.values())

    def add(self, game: StoredGame) -> None:
        self.stored.append(game)
        self.taken.add(game.game_id)
        self.flying.discard((game.series, tuple(game.seats)))
        self.pool.add(game)
        for p in self.placing.values():
            p.add(game)
        self._settle()

    def _settle(self) -> None:
        """Every candidate whose place is decided joins the pool (its schedule made again)."""
        ready = [c for c, p in self.placing.items() if p.done]
        for c in ready:
            line = self.placing.pop(c).outcome()
            self.joined.append(LeagueEvent(self.names.get(c, c), "joined", 0, line))
            self.active.append(c)
        if ready:
            self.pool = self.make_pool(self.active)
            for game in self.stored:
                self.pool.add(game)
        self._total()

    def next_games(self, limit: int) -> list[GameTask]:
        self._settle()
        out: list[GameTask] = []
        for p in self.placing.values():
            out += p.next_games(limit - len(out))
        if len(out) < limit:
            out += [t for t in self.pool.next_games(limit - len(out)) if (t.series, t.seats) not in self.flying]
        given = []
        for task in out:
            if task.game_id <= 0 or task.game_id in self.taken:
                task = replace(task, game_id=max(self.taken, default=0) + 1)
            self.taken.add(task.game_id)
            self.flying.add((task.series, task.seats))
            given.append(task)
        return given

    @property
    def done(self) -> bool:
        self._settle()
        return not self.placing and self.pool.done

    def status(self) -> str | None:
        parts = [p.outcome() for p in self.placing.values()] + [s for s in [self.pool.status()] if s]
        return "; ".join(parts) or None

    def storable(self, task: GameTask) -> bool:
        return self.pool.storable(task)

    def stopped(self) -> str | None:
        return self.pool.stopped()

    def changes(self) -> list[LeagueEvent]:
        out, self.joined = self.joined, []
        return out

    def finish(self, summary: RunSummary, store: Store) -> None:
        self.pool.finish(summary, store)


@dataclass
class Changes:
    """What a league run changes (``apply``): ``events`` to store when the store is opened,
    ``notes`` for the user (one line each)."""

    events: list[LeagueEvent]
    notes: list[str]


def apply(p: Plan, cfg: TournamentConfig, members: Sequence[Member], events: Sequence[LeagueEvent],
          labels: dict[str, str], stored: int, make: Callable[[Sequence[str]], Schedule]) -> tuple[Plan, Changes]:
    """The plan of a run on a league: its schedule a ``League`` on the active pool (today's
    field less the retired bots and the candidates not yet placed) and the candidates; the
    changes this run makes. A run of a tournament with no stored change and no ``--retire``
    or ``--candidate`` is not a league: its plan is returned as it is.

    Args:
        members: the stored bot versions; ``events``: the stored changes.
        labels: today's field, each bot's label -> the label of its version now (``versioned``).
        stored: games stored; ``make``: the format's schedule on a list of labels.

    Raises:
        ConfigError: a ``--retire`` label that is no bot of the field nor of the stored
            tournament; a retirement leaving fewer active bots than a game needs (at least
            2); a ``--candidate`` whose label is a stored bot's that was never a candidate,
            or a retired bot's.
    """
    if not events and not cfg.retire and not cfg.candidates:
        return p, Changes([], [])
    retired = {e.bot for e in events if e.event == "retired"}
    candidates = {e.bot for e in events if e.event == "candidate"}
    joined = {e.bot for e in events if e.event == "joined"}
    known = {m.base: m.label for m in members} | {m.label: m.label for m in members} | dict(labels)
    base = {m.label: m.base for m in members} | {name: name for name in labels}
    new: list[LeagueEvent] = []
    for label in cfg.retire:
        if label not in known:
            raise ConfigError(f"--retire {label!r}: no bot {label!r} in the field or in tournament {p.name!r}; "
                              f"accepted: {', '.join(sorted(set(base.values())))}")
        name = base.get(label, label)
        if name not in retired and all(e.bot != name for e in new):
            new.append(LeagueEvent(name, "retired", stored))
    retired |= {e.bot for e in new}
    field_names = list(labels)  # today's field, in field order: --bot, --candidate, then --fill
    given = field_names[len(cfg.bots):len(cfg.bots) + len(cfg.candidates)]
    stored_names = {m.base for m in members}
    for name, spec in zip(given, cfg.candidates):
        if name in retired:
            raise ConfigError(f"--candidate {spec!r}: bot {name!r} of tournament {p.name!r} is retired; give the "
                              "candidate another label: NAME=SPEC")
        if name in stored_names and name not in candidates:
            raise ConfigError(f"--candidate {spec!r}: label {name!r} is a bot of tournament {p.name!r} already; "
                              "give the candidate another label: NAME=SPEC")
        if name not in candidates:
            new.append(LeagueEvent(name, "candidate", stored, spec))
    placing = [n for n in given if n not in joined]
    pool = [n for n in field_names if n not in retired and n not in placing]
    needed = max(2, p.game.num_players)
    if len(pool) < needed:
        left = ", ".join(pool) or "none"
        raise ConfigError(f"tournament {p.name!r} would keep {len(pool)} active bot(s) ({left}) after retiring "
                          f"{', '.join(sorted(retired & set(base.values())))}; a league needs at least {needed}: "
                          "retire fewer, or give more bots with --bot")
    notes = [f"bot {n!r} is retired: not scheduled (its games and ratings stay)" for n in field_names
             if n in retired and n not in {e.bot for e in new}]
    notes += [f"retired {e.bot!r}: not scheduled from now on (its games and ratings stay)" for e in new
              if e.event == "retired"]
    notes += [f"candidate {e.bot!r} added: it plays a gauntlet against the pool until its place is settled"
              for e in new if e.event == "candidate"]
    confidence = cfg.until_ranked if cfg.until_ranked is not None else CONFIDENCE
    version = {name: labels[name] for name in field_names}
    league = League(p.game, [version[n] for n in pool], [version[n] for n in placing], p.schedule.settings, make,
                    confidence, {v: n for n, v in version.items()})
    return replace(p, schedule=league), Changes(new, notes)


@dataclass(frozen=True)
class StoredField:
    """A league's field as its store holds it (``stored_field``): ``bots``, the spec texts of
    its last run's field and the candidates that joined, less the retired bots; ``candidates``,
    those still placing."""

    bots: tuple[str, ...]
    candidates: tuple[str, ...]


def stored_field(path: Path, changing: bool) -> StoredField | None:
    """The field of the league stored at ``path``, for a run that names no bot: ``None`` when
    there is no store, or it is no league (no stored change) and this run makes none
    (``changing``: it gives ``--retire`` or ``--candidate``).

    Raises:
        ResultsError: an unreadable store.
    """
    from arena.results.membership import read_league, statuses
    from arena.results.reading import load_tournament
    from bots.registry import assign_labels

    if not path.is_file():
        return None
    events = read_league(path)
    if not events and not changing:
        return None
    status = statuses(events)
    given = [str(s) for s in load_tournament(path)["settings"].get("bots") or []]
    labels = [spec.label for spec in assign_labels(given)]
    bots = [s for s, label in zip(given, labels) if status.get(label) != "retired"]
    specs = {e.bot: e.detail for e in events if e.event == "candidate" and e.detail}
    bots += [spec for name, spec in specs.items() if status.get(name) == "active" and name not in labels]
    return StoredField(tuple(bots), tuple(spec for name, spec in specs.items() if status.get(name) == "candidate"))

"""A tournament before it is played: its settings checked, its field's bots checked and
identified, its schedule made (``plan``); then, against the stored tournament of the same name,
the settings it resumes with (``resume``) and each bot as its version (``versioned``).
``arena.tournament.runner`` plays the plan.

Resuming: a larger ``games`` extends a stored tournament (new series appended, game ids
continue); a smaller one plays nothing beyond its first ``games`` per pairing and leaves the
stored tournament as it is; a tournament stored with an older bot seeding scheme
(``arena.referee.SEEDING``) is finished with its own scheme, so its games stay one tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import arena.games
from arena.errors import ResultsError
from arena.games import Game
from arena.referee import SEEDING
from arena.results.store import Member, StoredGame
from arena.tournament.config import TournamentConfig, field_specs, settings_difference
from arena.llm import check_specs as check_servers
from arena.tournament.field_check import check_bots
from arena.tournament.formats import ScheduleFactory, make_schedule
from arena.tournament.members import Identity, Resolution, identify, resolve, stored_counts
from arena.tournament.schedule import Schedule
from arena.tournament.series import GameTask, SeriesSettings
from bots.registry import BotSpec, legacy_repeat_label, seed_name

__all__ = ["Plan", "plan", "resume", "series_settings", "versioned"]


@dataclass(frozen=True)
class Plan:
    """A tournament before it is played: its name, game, field (label -> spec, field order),
    schedule, the settings stored with it, its engines' ``id name`` (label -> name, for the
    ``exec:`` bots that said one at their probe) and each bot's identity (label ->
    ``members.Identity``). Once the stored tournament is open (``versioned``), the labels are
    those of the bots' versions (``me@2``)."""

    name: str
    game: Game
    specs: dict[str, BotSpec]
    schedule: Schedule
    settings: dict[str, Any]
    id_names: dict[str, str] = field(default_factory=dict)
    identities: dict[str, Identity] = field(default_factory=dict)

    @property
    def tasks(self) -> list[GameTask]:
        """Every game of a fixed-pairings schedule (round-robin, gauntlet; an SPRT match's up to
        its limit), in game-id order.

        Raises:
            TypeError: a schedule that decides its games as it goes.
        """
        return self.schedule.planned()


def series_settings(cfg: TournamentConfig, seeding: int = SEEDING, names: dict[str, str] | None = None,
                    order: Sequence[str] = ()) -> SeriesSettings:
    """What decides the series of ``cfg`` (``seeding``: the bot seeding scheme; ``names``: a
    label -> the name its seeds derive from, a version's its bot's (``me@2`` -> ``me``), a
    repeat's ``bots.registry.seed_name``; ``order``: the bots' labels in the order they joined,
    used by seeding schemes before 3)."""
    versions = tuple((label, name) for label, name in (names or {}).items() if label != name)
    return SeriesSettings(cfg.games, cfg.seed, cfg.opening_plies, cfg.seat_rotation, tuple(cfg.openings),
                          cfg.openings_order, seeding, versions, tuple(order) if seeding < 3 else ())


def plan(cfg: TournamentConfig, seeding: int | None = None, schedule: ScheduleFactory | None = None) -> Plan:
    """Check the settings and make the schedule (``seeding``: the bot seeding scheme, default
    the current one; ``schedule``: a format of one's own, called with the game, the field's
    labels and the ``SeriesSettings``, instead of the settings' format: ``formats.make_schedule``).

    The bots are checked in a child process (``field_check.check_bots``), each within
    ``field_check.LOAD_TIMEOUT`` seconds; with ``--isolation process`` a bot file is never
    imported here (its engine's start-up probe checks it, ``check_isolated``). Each bot's
    identity (``members.identify``: its spec and a digest of its code) is taken now.

    Raises:
        UnknownGameError, ConfigError, BotSpecError: bad game, parameters, field or format, a
            bot that cannot be made in time or cannot play the game (``PLAYS`` against
            ``Game.type``). arena.llm.ProviderUnreachable: a language model's server (``llm:``)
            that does not answer, or its key variable unset.
    """
    game = arena.games.make(cfg.game, **cfg.params)
    specs = field_specs(cfg, game.num_players)
    # in a child with a timeout (an isolated bot file: by its engine); an engine's ``id name``, told at its probe
    facts = check_bots(specs, game, cfg.isolation, each=cfg.each)
    # a language model's server that does not answer now stops the run in one line, before any game
    # (issue 44); a failure later in the run voids games instead (``arena.tournament.voids``)
    check_servers(specs)
    id_names = {label: str(f["id_name"]) for label, f in facts.items() if f.get("id_name")}
    identities = {s.label: identify(s, facts.get(s.label)) for s in specs}
    labels = [s.label for s in specs]
    names = {s.label: seed_name(s) for s in specs}  # a repeat's seeds as before its #n label
    made = make_schedule(cfg, game, labels, series_settings(cfg, SEEDING if seeding is None else seeding, names),
                         schedule)
    return Plan(cfg.run_name(), game, {s.label: s for s in specs}, made, cfg.settings(), id_names, identities)


def resume(p: Plan, cfg: TournamentConfig, stored: dict[str, Any]) -> tuple[Plan, str | None]:
    """The settings of a run on a stored tournament, and a note for the user (or ``None``).

    The stored settings stay the tournament's (a larger ``games`` raises their ``games``; the
    field, ``bots``, is today's); the bot seeding scheme stays the stored one (``seeding``, 1
    when absent: stored before it).

    Raises:
        ResultsError: the settings decide other games than the stored ones (a different field
            is not that: it is the tournament's members, ``versioned``).
    """
    key = settings_difference(stored, p.settings)
    if key is not None:
        raise ResultsError(f"tournament {p.name!r} exists with different settings ({key}: stored "
                           f"{stored.get(key)!r}, now {p.settings.get(key)!r}); "
                           "use another --name or the same settings")
    had, note = int(stored["games"]), None
    settings = {**stored, "bots": p.settings["bots"]}
    if cfg.games > had:
        note = f"extended from {had} to {cfg.games} games per pairing"
        settings["games"] = cfg.games
    elif cfg.games < had:
        note = (f"stored tournament has {had} games per pairing; --games {cfg.games} plays nothing beyond the "
                f"first {cfg.games} of each pairing stored with more (reports cover every stored game)")
    return replace(p, settings=settings), note


def versioned(p: Plan, cfg: TournamentConfig, members: Sequence[Member], games: Sequence[StoredGame],
              factory: ScheduleFactory | None = None) -> tuple[Plan, Resolution]:
    """The plan with each bot as its version now (``members.resolve`` against the stored
    ``members``; ``games``: the stored games, for the notes), its schedule made again on the
    versions' labels and the stored seeding scheme (``p.settings["seeding"]``).
    """
    p, renamed = _stored_repeat_labels(p, members)
    field_ = [(spec, p.identities[label]) for label, spec in p.specs.items()]
    res = resolve(members, field_, stored_counts(g.seats for g in games), p.id_names)
    labels = res.labels
    specs = {labels[label]: replace(spec, label=labels[label]) for label, spec in p.specs.items()}
    order = list(dict.fromkeys([m.base for m in members] + [m.base for m in res.new]))
    seeding = int(p.settings.get("seeding", 1))  # a stored tournament without it: scheme 1
    if not renamed and seeding == SEEDING and all(label == v for label, v in labels.items()):
        made = p.schedule  # ``plan``'s: the same labels and scheme
    else:
        names = {v: seed_name(p.specs[b]) for b, v in labels.items()}  # a version seeds as its bot
        made = make_schedule(cfg, p.game, list(specs), series_settings(cfg, seeding, names, order), factory)
    id_names = {labels[label]: name for label, name in p.id_names.items()}
    identities = {labels[label]: ident for label, ident in p.identities.items()}
    return replace(p, specs=specs, schedule=made, id_names=id_names, identities=identities), res


def _stored_repeat_labels(p: Plan, members: Sequence[Member]) -> tuple[Plan, bool]:
    """The plan with each repeated spec labelled as the stored tournament has it when it was
    stored before ``#n`` labels (``random-2``, not ``random#2``: the member keeps its games,
    its seeds and its place); whether any label changed (the schedule is then made again)."""
    stored = {m.base for m in members}
    rename = {}
    for label, spec in p.specs.items():
        old = legacy_repeat_label(spec)
        if old is not None and old in stored and label not in stored and old not in p.specs:
            rename[label] = old
    if not rename:
        return p, False

    def new(label: str) -> str:
        return rename.get(label, label)
    return replace(p, specs={new(label): replace(spec, label=new(label)) for label, spec in p.specs.items()},
                   id_names={new(label): v for label, v in p.id_names.items()},
                   identities={new(label): v for label, v in p.identities.items()}), True

"""Tournament settings: the ``TournamentConfig`` record (its enumerated settings typed as their
enums: ``Format``, ``Rotation``, ``OpeningsOrder``, ``Isolation``; ``--sprt`` an ``SprtSpec``),
``build`` (option values checked by ``arena.tournament.options``, defaults by game), and the
name derived from the settings. TOML files are read by ``arena.tournament.config_file``.

Two groups of settings: those that decide the games (``identity``: game, parameters, field,
format, games, seed, openings, limits) and those that only decide how they are run
(``workers``, ``results``, ``retries``, the openings file's path). A run's default name is
``<game>-<hash of the identity without games>``, so re-running the same command resumes it and
raising ``--games`` extends it (``docs/arena.md`` "Contracts / Tournaments").

Identity and new options: the fields of ``BASE_IDENTITY`` are always in the identity; a field
added since counts only when it is not at its default, so adding an option renames no stored
run and does not stop it resuming.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

import arena.games
from arena.engine.sandbox import Isolation
from arena.errors import BotSpecError, ConfigError
from arena.openings import check_opening_plies
from arena.referee import SEEDING
from arena.results.settings import Rotation, StoredOptions
from arena.tournament import options
from arena.tournament.options import (ENUMERATED, NAME_CHARS, NAME_MAX, about, check_cluster, check_sprt,  # noqa: F401
                                      check_until_ranked, checked_options, spec_list)
from arena.tournament.series import read_openings, seat_orders
from bots.base import refusal
from bots.registry import BotSpec, assign_labels, bot_class, parse_spec, precheck

if TYPE_CHECKING:
    from arena.stats.sprt import SprtSpec  # noqa: F401 (named in TournamentConfig's base, a string)

#: The default field of ``arena run`` with no options (different strengths).
DEFAULT_BOTS = ("random", "greedy", "alphabeta:depth=4", "mcts:playouts=300")
DEFAULT_GAME = "interaction"
DEFAULT_GAMES = 50
#: Per game, the field and games per pairing when ``--bot`` / ``--games`` are not given:
#: bots of different strength that suit the game, sized to finish in a few minutes on 2 cores.
DEFAULT_FIELDS: dict[str, tuple[tuple[str, ...], int]] = {
    "interaction": (DEFAULT_BOTS, DEFAULT_GAMES),
    "sandpile": (("random", "greedy", "mcts:playouts=200", "paranoid:depth=2", "brs:depth=2"), 8),
    "ricochet": (("ricochet-optimal", "ricochet-greedy", "random"), 6),
    "interaction-solo": (("interaction-solo-optimal", "interaction-solo-greedy"), 1),
    "interaction-solo-race": (("interaction-solo-optimal", "interaction-solo-greedy", "random"), 1),
}
#: Per family of games (``openspiel:NAME``), the same: searches kept light, since these games
#: have no evaluator (MCTS plays out to the end, alpha-beta sees only won and lost games).
FAMILY_FIELDS: dict[str, tuple[tuple[str, ...], int]] = {
    "openspiel": (("random", "greedy", "alphabeta:depth=3", "mcts:playouts=100"), 10),
}
#: The default field of a game with hidden information (``GameType.hidden_information``) that has
#: no field of its own: the bots that play from a seat's view, at two strengths (``ismcts`` is
#: left out where the game's views cannot be sampled, as any bot that cannot play the game).
HIDDEN_FIELD: tuple[tuple[str, ...], int] = (("random", "ismcts:playouts=50", "ismcts:playouts=200"), 10)
DEFAULT_GAME_TIME = 600.0


#: default --memory-limit: this share of physical memory, divided among the workers, in MiB
DEFAULT_MEMORY_SHARE, MIN_MEMORY_LIMIT = 0.5, 256


def physical_memory_mib() -> int | None:
    """Physical memory of the machine, MiB (``None`` if the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (ValueError, OSError, AttributeError):
        return None


@dataclass(frozen=True)
class TournamentConfig(StoredOptions["SprtSpec"]):
    """A tournament's settings (units: seconds, MiB, plies, nodes). See ``arena run --help``.

    The options that decide the games, with their defaults, are ``StoredOptions``'s (those of
    the stored settings, defined once there); the defaults of ``arena run`` that differ (the
    game, its field, games per pairing, random opening plies) are set here. ``openings`` holds
    the positions' text (not the file's path: the text decides the games); ``sprt`` the parsed
    ``SprtSpec`` (stored as its canonical text); ``tau`` is the TrueSkill dynamics factor of the
    report's ratings (``docs/statistics.md`` "Ratings"); ``until_ranked`` the confidence the
    adaptive ranking stops at (``arena.tournament.adaptive``); ``tc`` every seat's game clock
    (``bots.clock.TimeControl`` text; a spec's ``tc=`` replaces it for that bot); ``adjudicate``
    the rules of ``arena.referee.adjudicate.Adjudication``; ``rounds`` a Swiss's rounds (None:
    ``formats.default_rounds``); ``seeds`` a gauntlet's challengers; ``each`` an option for every
    engine and every Python bot that declares it.
    """

    game: str = DEFAULT_GAME
    params: dict[str, Any] = field(default_factory=dict)  # a dict here: the store and engines take one
    bots: tuple[str, ...] = DEFAULT_BOTS
    games: int = DEFAULT_GAMES
    opening_plies: int = 2
    each: dict[str, str] = field(default_factory=dict)
    # how it runs (not part of the identity)
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    name: str | None = None
    results: str = "results"
    retries: int = 2
    openings_file: str | None = None
    isolation: Isolation = Isolation.NONE
    #: ``--cluster``: a Dask scheduler ``tcp://host:port`` or ``local:N`` (``arena.tournament.cluster``)
    cluster: str | None = None
    #: ``--trace-engines``: every engine protocol line, both ways, in the tournament log
    trace_engines: bool = False
    #: ``--allow-version-change``: resume under another version of the game's library (``arena.results.versions``)
    allow_version_change: bool = False
    #: a league's changes (``arena.tournament.league``; stored in its table, not the settings)
    retire: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    #: ``--anchor BOT[=ELO]`` of the report's field table (``arena.numbers.parse_anchor``)
    anchor: str | None = None
    #: ``--llm-cache on|off``: language models' answers replayed from a cache (``arena.tournament.network``)
    llm_cache: bool = True
    #: ``--concurrency N``: network-waiting games at once in each worker's threads (``arena.tournament.threads``)
    concurrency: int = 32

    RUN_ONLY = ("workers", "name", "results", "retries", "openings_file", "isolation", "cluster", "trace_engines",
                "allow_version_change", "retire", "candidates", "anchor", "llm_cache", "concurrency")
    #: The identity's fields when it was first stored: always in it, at any value (run names
    #: and stored settings written before later options existed stay the same).
    BASE_IDENTITY = ("game", "params", "bots", "format", "games", "seed", "opening_plies", "move_time",
                     "move_nodes", "game_time", "time_margin", "memory_limit", "seat_rotation", "fill")

    def __post_init__(self) -> None:
        """Take the texts of the enumerated settings (``format="gauntlet"``) as their enums, and
        an SPRT's text as its spec, as ``build`` makes them; any other value is left for
        ``build`` to check (``build`` is the checked way to make a config).

        Raises:
            ConfigError: a bad SPRT text.
        """
        for key, check in ENUMERATED.items():
            value = getattr(self, key)
            with contextlib.suppress(ConfigError):
                object.__setattr__(self, key, check(value))
        if isinstance(self.sprt, str):
            object.__setattr__(self, "sprt", check_sprt(self.sprt))

    def identity(self) -> dict[str, Any]:
        """The settings that decide the games, as JSON values: every ``BASE_IDENTITY`` field,
        and any later field whose value is not its default."""
        d: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.RUN_ONLY or (f.name not in self.BASE_IDENTITY and value == _default(f)):
                continue
            d[f.name] = value
        d["game_time"] = self.effective_game_time
        return json.loads(json.dumps(d, default=_json_value))

    def settings(self) -> dict[str, Any]:
        """What is stored with a new tournament: the identity and the bot seeding scheme
        (``seeding``, ``arena.referee.SEEDING``; a stored tournament without it used scheme 1)."""
        return {**self.identity(), "seeding": SEEDING}

    @property
    def effective_game_time(self) -> float:
        """The hard wall-clock limit per game, seconds (default: 600, more for long moves or
        long game clocks: ``options.clock_game_time``)."""
        if self.game_time is not None:
            return float(self.game_time)
        longest = DEFAULT_GAME_TIME
        if self.move_time is not None:
            longest = max(longest, 500 * (self.move_time + self.time_margin))
        clocks = [self.tc, *(parse_spec(b).tc for b in (*self.bots, *self.candidates))]
        return max(longest, options.clock_game_time(clocks, self.time_margin))

    @property
    def effective_memory_limit(self) -> int | None:
        """MiB of address space the bots may add to each worker: ``--memory-limit``, or by default
        half the physical memory shared among the workers (at least ``MIN_MEMORY_LIMIT``);
        ``None`` where the physical memory is unknown. Not part of the identity (it depends on
        the machine and ``--workers``)."""
        if self.memory_limit is not None:
            return int(self.memory_limit)
        mib = physical_memory_mib()
        if mib is None:
            return None
        return max(MIN_MEMORY_LIMIT, int(mib * DEFAULT_MEMORY_SHARE / max(1, self.workers)))

    def run_name(self) -> str:
        """``--name``, or ``<game>-<8 hex digits of the hash of the identity without games>``."""
        if self.name:
            return self.name
        return _hashed(self.game, {k: v for k, v in self.identity().items() if k != "games"})

    def legacy_run_name(self) -> str | None:
        """The default name the code before settings identity gave these settings (the hash
        included ``games``), or ``None`` when a later option is set (that code had none)."""
        identity = self.identity()
        if self.name or set(identity) - set(self.BASE_IDENTITY):
            return None
        return _hashed(self.game, identity)


def _json_value(value: Any) -> Any:
    """A setting that JSON does not know, as stored: an SPRT spec as its canonical text, any
    other as ``str`` (an enum is a ``StrEnum``, stored as its text by JSON itself)."""
    text = getattr(value, "text", None)
    return text() if callable(text) else str(value)


def _default(f: Any) -> Any:
    return f.default_factory() if f.default_factory is not MISSING else f.default


def _hashed(game: str, identity: dict[str, Any]) -> str:
    text = json.dumps(identity, sort_keys=True, default=str)
    # a family's game (openspiel:connect_four) names files openspiel-connect_four-...
    return f"{game.replace(':', '-')}-{hashlib.blake2b(text.encode(), digest_size=4).hexdigest()}"


#: stored keys that may differ when a tournament is resumed (``settings_difference``): more or
#: fewer games per pairing, the seeding scheme (the stored one is kept), the field (its members)
RESUMABLE = ("games", "seeding", "bots")


def settings_difference(stored: dict[str, Any], new: dict[str, Any]) -> str | None:
    """The first key (sorted, the derived ``game_time`` last) on which settings differ, or
    ``None``. ``games`` (extension), ``seeding`` (the stored scheme is kept) and ``bots`` (the
    field: a tournament's members, ``arena.tournament.members``) are not compared; a later
    field missing on one side stands for its default.
    """
    defaults = {f.name: _default(f) for f in fields(TournamentConfig) if f.name not in TournamentConfig.BASE_IDENTITY}
    normal = json.loads(json.dumps(defaults, default=str))

    def value(d: dict[str, Any], key: str) -> Any:
        return d.get(key, normal.get(key))
    keys = sorted((set(stored) | set(new)) - set(RESUMABLE), key=lambda k: (k == "game_time", k))
    return next((k for k in keys if value(stored, k) != value(new, k)), None)


def build(values: dict[str, Any]) -> TournamentConfig:
    """A checked ``TournamentConfig`` from option values (``None`` = not given); ``engines``
    (``load_toml``'s ``[[engine]]`` specs) join the field after ``bots``.

    Raises:
        ConfigError: an unknown setting, a field that is not a list of spec strings, a bad
            number (the message names the accepted range), format, rotation, name, game
            parameter, openings file or order; UnknownGameError; BotSpecError.
    """
    given = checked_options({k: v for k, v in values.items() if v is not None}, SETTINGS)
    game_name = str(given.get("game", DEFAULT_GAME)).strip().lower()
    default_bots, default_games = _defaults_of(game_name)
    with about("bots"):
        bots = spec_list("bots", given.get("bots"))
    with about("engines"):
        given["bots"] = bots + spec_list("engines", given.pop("engines", None))
    defaulted = not given["bots"]
    hidden = defaulted and arena.games.game_class(game_name).type.hidden_information  # UnknownGameError
    if hidden:
        default_bots, default_games = _defaults_of(game_name, hidden=True)
    given["bots"] = given["bots"] or default_bots
    openings_file = given.pop("openings", None)
    params = dict(given.get("params") or {})
    cls = arena.games.game_class(game_name)  # UnknownGameError
    if cls.whole_field and "players" in cls.PARAMS and "players" not in params:
        # a race for any number of players (Ricochet): the whole field races in every game
        params["players"] = max(1, min(len(given["bots"]), 8))
    given["params"] = params
    game = arena.games.make(game_name, **params)  # UnknownGameError / ConfigError
    if "opening_plies" in given:  # given: a default the game cannot play (Ricochet's 2) is not an error
        with about("opening_plies"):
            check_opening_plies(game, given["opening_plies"])
    if defaulted:  # the default field, less the kinds that cannot play this game (chance nodes, seats)
        given["bots"] = tuple(s for s in given["bots"] if s not in dict(left_out_of_default(game_name, game)))
    if openings_file is not None and not isinstance(openings_file, (str, os.PathLike)):
        with about("openings"):
            raise ConfigError(f"openings must be the path of an openings file, not {type(openings_file).__name__}")
    if openings_file is not None:
        # each position a series: by default every position once per pairing, no random plies
        with about("openings"):
            given["openings"] = read_openings(openings_file, game)
        given["openings_file"] = str(openings_file)
        series = len(seat_orders(range(game.num_players), given.get("seat_rotation", Rotation.CYCLIC)))
        given.setdefault("games", len(given["openings"]) * series)
        given.setdefault("opening_plies", 0)
    if game.num_players == 1:
        # a puzzle played alone: random opening plies would hand each bot a different puzzle
        given.setdefault("opening_plies", 0)
    if game.OPENING_PLIES is not None:  # the game's own default (random plies would be choices)
        given.setdefault("opening_plies", game.OPENING_PLIES)
    given.setdefault("games", default_games)
    for key in ("retire", "candidates"):
        with about(key):
            given[key] = spec_list(key, given.get(key))
    cfg = TournamentConfig(**given)
    _check_league(cfg, game)  # before the field's labels: a candidate's clash said as such
    field_ = field_specs(cfg, game.num_players)
    if cfg.fill is not None:  # checked whether it fills a seat or not: it is stored
        with about("fill"):
            check_fill(cfg.fill, game)
    for spec in field_:  # an unknown kind, a built-in's bad option: refused before the field check's child
        precheck(spec, game)
    options.check_with_field(cfg.format, cfg.rounds, cfg.seeds, cfg.sprt, cfg.adjudicate,
                             len(field_), game.name, game.num_players)
    if cfg.sprt is not None and (game.num_players != 2 or len(cfg.bots) != 2):
        raise ConfigError(f"--sprt needs a two-bot field in a 2-player game; got {len(cfg.bots)} bots "
                          f"in {game.name} ({game.num_players} players)")
    if cfg.until_ranked is not None:
        check_until_ranked(cfg, game.num_players)
    # every parameter, coerced (a stable identity), except those left unset (None): they are
    # not accepted back as values
    return replace(cfg, game=game.name, params={k: v for k, v in game.params.items() if v is not None})


def _check_league(cfg: TournamentConfig, game: arena.games.Game) -> None:
    """The league options of ``cfg`` checked against the field (what the store holds is checked
    when the run opens it: ``arena.tournament.league``).

    Raises:
        ConfigError: ``--retire``/``--candidate`` without ``--name``; a candidate in a game
            that is not for two players, another format than round-robin, or with ``--sprt``;
            a candidate's label that is a ``--bot``'s; a bad ``--anchor``.
    """
    from arena.numbers import parse_anchor
    if cfg.anchor is not None:
        with about("anchor"):
            parse_anchor(cfg.anchor)
    if not (cfg.retire or cfg.candidates):
        return
    option = "--candidate" if cfg.candidates else "--retire"
    if not cfg.name:
        with about("candidates" if cfg.candidates else "retire"):
            raise ConfigError(f"{option} changes the members of a named tournament (a league); give --name NAME")
    if not cfg.candidates:
        return
    with about("candidates"):
        if game.num_players != 2 or cfg.format != "round-robin" or cfg.sprt is not None:
            raise ConfigError(f"--candidate places a bot in a 2-player round-robin league; got {game.name} "
                              f"({game.num_players} players), --format {cfg.format}"
                              + (", --sprt" if cfg.sprt is not None else ""))
        pool = {spec.label for spec in assign_labels(list(cfg.bots))}
        for text in cfg.candidates:
            label = parse_spec(text).label
            kind = text.split("=", 1)[1] if "=" in text.partition(":")[0] else text  # the spec without its label
            if label in pool:
                raise ConfigError(f"--candidate {text!r}: label {label!r} is already a bot of the field; "
                                  f"give the candidate another label: NAME=SPEC (e.g. {label}2={kind})")


def check_fill(text: str, game: arena.games.Game) -> None:
    """``--fill``'s spec checked as ``--bot``'s are before the field check (``precheck``).

    Raises:
        ConfigError: a bad spec, its message led by ``--fill``.
    """
    try:
        precheck(parse_spec(text), game)
    except BotSpecError as exc:
        raise ConfigError(f"--fill {text!r}: {exc}") from None


#: the settings ``build`` takes: the config's fields, and ``engines`` (``[[engine]]`` specs)
SETTINGS = tuple(f.name for f in fields(TournamentConfig) if f.init) + ("engines",)


def _defaults_of(game_name: str, hidden: bool = False) -> tuple[tuple[str, ...], int]:
    """The default field and games per pairing of ``game_name`` (lower case); ``hidden``: the
    game has hidden information (``HIDDEN_FIELD`` unless the game has a field of its own)."""
    family, colon, _ = game_name.partition(":")
    if game_name in DEFAULT_FIELDS:
        return DEFAULT_FIELDS[game_name]
    if hidden:
        return HIDDEN_FIELD
    return (colon and FAMILY_FIELDS.get(family)) or (DEFAULT_BOTS, DEFAULT_GAMES)


def left_out_of_default(game_name: str, game: arena.games.Game) -> list[tuple[str, str]]:
    """The bots of ``game_name``'s default field that cannot play ``game`` (chance nodes, seat
    counts, simultaneous moves), each with why in one line: ``build`` leaves them out of a field
    taken by default, and ``arena run`` says so in a note."""
    specs = _defaults_of(game_name.strip().lower(), game.type.hidden_information)[0]
    return [(s, why) for s in specs if (why := refusal(bot_class(s.partition(":")[0]), game)) is not None]


def field_specs(cfg: TournamentConfig, num_players: int) -> list[BotSpec]:
    """The field's specs with unique labels, filled up to ``num_players`` with ``--fill``; an
    engine's (``exec:``) with the ``--each`` options it does not set itself (a Python bot gets
    those its class declares when it is made: ``bots.registry.with_each``).

    Raises:
        BotSpecError: a bad spec or a label given twice.
    """
    specs = list(cfg.bots) + list(cfg.candidates)  # a league's candidates play too (``arena.tournament.league``)
    if cfg.fill and len(specs) < num_players:
        specs += [cfg.fill] * (num_players - len(specs))
    out = assign_labels(specs)
    if cfg.each:
        out = [replace(s, options={**{k: v for k, v in cfg.each.items() if k not in s.options}, **s.options})
               if s.kind.startswith("exec:") else s for s in out]
    return out

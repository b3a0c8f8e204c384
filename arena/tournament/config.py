"""Tournament settings: validation, TOML files, and the name derived from the settings.

Two groups of settings: those that decide the games (``identity``: game, parameters, field,
format, games, seed, openings, limits) and those that only decide how they are run
(``workers``, ``results``, ``retries``). A run's default name is ``<game>-<hash of the
identity>``, so re-running the same command resumes it (``spec/arena.md`` "Contracts /
Tournaments").
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import arena.games
from arena.errors import ConfigError
from arena.numbers import RANGES, check_number
from arena.tournament.pairing import check_format
from arena.tournament.series import check_rotation
from bots.registry import BotSpec, assign_labels

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
}
DEFAULT_GAME_TIME = 600.0
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-")


#: default --memory-limit: this share of physical memory, divided among the workers, in MiB
DEFAULT_MEMORY_SHARE, MIN_MEMORY_LIMIT = 0.5, 256


def physical_memory_mib() -> int | None:
    """Physical memory of the machine, MiB (``None`` if the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (ValueError, OSError, AttributeError):
        return None


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament's settings (units: seconds, MiB, plies, nodes). See ``arena run --help``."""

    game: str = DEFAULT_GAME
    params: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = DEFAULT_BOTS
    format: str = "round-robin"
    games: int = DEFAULT_GAMES
    seed: int = 1
    opening_plies: int = 2
    move_time: float | None = None
    move_nodes: int | None = None
    game_time: float | None = None
    time_margin: float = 0.5
    memory_limit: int | None = None
    seat_rotation: str = "cyclic"
    fill: str | None = None
    # how it runs (not part of the identity)
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    name: str | None = None
    results: str = "results"
    retries: int = 2

    RUN_ONLY = ("workers", "name", "results", "retries")

    def identity(self) -> dict[str, Any]:
        """The settings that decide the games (stored; a resumed run must match them)."""
        d = asdict(self)
        for key in self.RUN_ONLY:
            d.pop(key)
        d["bots"] = list(d["bots"])
        d["game_time"] = self.effective_game_time
        return d

    @property
    def effective_game_time(self) -> float:
        """The hard wall-clock limit per game, seconds (default: 600, more for long moves)."""
        if self.game_time is not None:
            return float(self.game_time)
        if self.move_time is not None:
            return max(DEFAULT_GAME_TIME, 500 * (self.move_time + self.time_margin))
        return DEFAULT_GAME_TIME

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
        """``--name``, or ``<game>-<8 hex digits of the identity's hash>``."""
        if self.name:
            return self.name
        text = json.dumps(self.identity(), sort_keys=True, default=str)
        return f"{self.game}-{hashlib.blake2b(text.encode(), digest_size=4).hexdigest()}"


def load_toml(path: str | os.PathLike) -> dict[str, Any]:
    """The settings of a TOML file (same keys as the options, ``-`` or ``_``; ``[params]``).

    Raises:
        ConfigError: unreadable file, bad TOML, or an unknown key.
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config file {str(path)!r}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"bad TOML in config file {str(path)!r}: {exc}") from None
    known = {f.name for f in fields(TournamentConfig)} | {"bot", "param"}
    out: dict[str, Any] = {}
    for key, value in data.items():
        k = key.replace("-", "_")
        if k not in known:
            raise ConfigError(f"unknown key {key!r} in config file {str(path)!r}; accepted: {', '.join(sorted(known - {'bot', 'param'}))}")
        out[{"bot": "bots", "param": "params"}.get(k, k)] = value
    if "params" in out and not isinstance(out["params"], dict):
        raise ConfigError(f"config file {str(path)!r}: params must be a table, e.g. [params] target = 5")
    if "bots" in out:
        if isinstance(out["bots"], str):
            out["bots"] = [out["bots"]]
        if not isinstance(out["bots"], list) or not all(isinstance(b, str) for b in out["bots"]):
            raise ConfigError(f"config file {str(path)!r}: bots must be a list of bot spec strings")
    return out


def build(values: dict[str, Any]) -> TournamentConfig:
    """A checked ``TournamentConfig`` from option values (``None`` = not given).

    Raises:
        ConfigError: a bad number (the message names the accepted range), format, rotation,
            name, game parameter; UnknownGameError; BotSpecError.
    """
    given = {k: v for k, v in values.items() if v is not None}
    for key in RANGES:
        if key in given:
            given[key] = check_number(key, given[key])
    if "format" in given:
        check_format(given["format"])
    if "seat_rotation" in given:
        check_rotation(given["seat_rotation"])
    name = given.get("name")
    if name is not None and (not name or not set(name) <= NAME_CHARS or name.startswith(".")):
        raise ConfigError(f"bad tournament name {name!r}; use letters, digits and _ . + - (not starting with .)")
    game_name = str(given.get("game", DEFAULT_GAME)).strip().lower()
    default_bots, default_games = DEFAULT_FIELDS.get(game_name, (DEFAULT_BOTS, DEFAULT_GAMES))
    given["bots"] = tuple(given.get("bots") or ()) or default_bots
    given.setdefault("games", default_games)
    params = dict(given.get("params") or {})
    cls = arena.games.game_class(game_name)  # UnknownGameError
    if cls.whole_field and "players" in cls.PARAMS and "players" not in params:
        # a race for any number of players (Ricochet): the whole field races in every game
        params["players"] = max(1, min(len(given["bots"]), 8))
    given["params"] = params
    cfg = TournamentConfig(**given)
    game = arena.games.make(cfg.game, **cfg.params)  # UnknownGameError / ConfigError
    # every parameter, coerced (a stable identity), except those left unset (None): they are
    # not accepted back as values
    return replace(cfg, game=game.name, params={k: v for k, v in game.params.items() if v is not None})


def field_specs(cfg: TournamentConfig, num_players: int) -> list[BotSpec]:
    """The field's specs with unique labels, filled up to ``num_players`` with ``--fill``.

    Raises:
        BotSpecError: a bad spec or a label given twice.
    """
    specs = list(cfg.bots)
    if cfg.fill and len(specs) < num_players:
        specs += [cfg.fill] * (num_players - len(specs))
    return assign_labels(specs)

"""What a results folder holds (``arena list``): every stored tournament, its members and the
command that resumes it.

``stored_tournaments(results)`` reads each ``<name>.sqlite`` read-only (the tournament row, the
bots table, a count of the games and the last one's time: no game is loaded, so a store of a
million games lists as fast as one of ten). ``resume_command`` writes the ``arena run`` command
that continues a tournament from its stored settings: the options that differ from what
``arena run`` takes when they are left out.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import arena.games
from arena.errors import ArenaError, ResultsError
from arena.results.reader import game_count, last_finished, read_tournament
from arena.results.reading import load_ending, load_sprt
from arena.results.records import Tournament
from arena.tournament.config import TournamentConfig, build

#: stored setting -> the ``arena run`` option that sets it (``params``, ``bots``, ``openings``,
#: ``tc`` and ``each`` are written apart)
OPTIONS = {"format": "--format", "games": "--games", "seed": "--seed", "opening_plies": "--opening-plies",
           "move_time": "--move-time", "move_nodes": "--move-nodes", "game_time": "--game-time",
           "time_margin": "--time-margin", "memory_limit": "--memory-limit", "seat_rotation": "--seat-rotation",
           "fill": "--fill", "openings_order": "--openings-order", "sprt": "--sprt", "tau": "--tau",
           "until_ranked": "--until-ranked", "adjudicate": "--adjudicate", "rounds": "--rounds", "seeds": "--seeds"}


def stored_tournaments(results: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every tournament stored under ``results``, by name.

    Returns:
        One dict per database: ``name``, ``game``, ``members`` (the stored bot versions' labels,
        in the order they joined), ``field`` (the bots of the last run, as given), ``games``
        (stored), ``total`` (the games the last run planned: its schedule's total, at most that
        many for a format that stops early), ``last_played`` (the time the last stored game finished, ISO 8601 UTC, or
        ``None``), ``created``, ``path``, ``command`` (``resume_command``), ``finished``
        (whether the last run's schedule was done when it ended: all played, or stopped early
        by its own rule; ``False``: interrupted; ``None``: a store from before the arena kept
        it, but an SPRT verdict there says so) and ``stopped`` (the rule that stopped it early:
        ``SPRT: H1``, ``SPRT: H0``, ``SPRT: inconclusive``, ``settled``, ``not settled``; else
        ``None``); a database that cannot be read has ``error`` (one line) instead of the rest.

    Raises:
        ResultsError: ``results`` is not a folder.
    """
    root = Path(results)
    if not root.is_dir():
        raise ResultsError(f"no results folder {str(root)!r}; give the folder arena run wrote to (--results DIR)")
    out = []
    for path in sorted(root.glob("*.sqlite")):
        name = path.name.removesuffix(".sqlite")
        try:
            out.append(_entry(path, name, results))
        except ArenaError as exc:
            out.append({"name": name, "path": str(path), "error": str(exc)})
    return out


def _entry(path: Path, name: str, results: str | os.PathLike[str]) -> dict[str, Any]:
    """One tournament's row of ``stored_tournaments``.

    Raises:
        ResultsError: the database cannot be read.
    """
    tour = read_tournament(path)
    games, _ = game_count(path)
    finished, stopped = _ending(path, games)
    return {"name": tour.name or name, "game": tour.game, "members": list(tour.bots),
            "field": list(tour.settings.bots or tour.bots.values()), "games": games,
            "total": int(tour.total_games), "last_played": last_finished(path), "created": tour.created,
            "path": str(path),
            "command": resume_command(tour, name, results), "finished": finished, "stopped": stopped}


def _ending(path: Path, games: int) -> tuple[bool | None, str | None]:
    """``(finished, stopped)`` of ``stored_tournaments`` from the stored end of the last run
    (``arena.results.store.save_ending``; a record of fewer games than stored now is stale: ``None``),
    or, in a store from before it, from a stored SPRT verdict.

    Raises:
        ResultsError: the database cannot be read.
    """
    ending = load_ending(path)
    if ending is not None:
        if int(ending.get("games", -1)) != games:
            return None, None
        return bool(ending.get("finished")), ending.get("stopped")
    sprt = load_sprt(path)
    if sprt is not None and sprt.get("verdict") in ("H0", "H1"):
        return True, f"SPRT: {sprt['verdict']}"  # a verdict stops the run: nothing after it is played
    return None, None


def resume_command(tour: Tournament, name: str, results: str | os.PathLike[str]) -> str:
    """The ``arena run`` command that continues the stored tournament ``tour``
    (``arena.results.reader.read_tournament``) under ``name`` in ``results``: its game,
    parameters, field and every setting that ``arena run`` would otherwise take at another
    value. A tournament played from an openings file names it ``--openings FILE`` (the file's
    path is not stored, its positions are)."""
    settings = tour.settings
    game = tour.game
    if settings.extra.get("played"):  # games of ``arena play`` (``arena.tournament.played``): one more is played so
        where = [] if str(results) == "results" else ["--results", str(results)]
        try:
            default = dict(arena.games.make(game).params)
        except ArenaError:  # a game not installed here: every parameter
            default = {}
        params = [a for k, v in settings.params.items() if default.get(k) != v for a in ("-p", f"{k}={_text(v)}")]
        return shlex.join(["arena", "play", game, *params, "--name", name, *where])
    field = [str(b) for b in settings.bots or tour.bots.values()]
    args = ["arena", "run", "--name", name]
    if str(results) != "results":
        args += ["--results", str(results)]
    args += ["--game", game]
    defaults = _defaults(game, field, bool(settings.openings), settings.tc, settings.move_time)
    args += [a for k, v in settings.params.items() if defaults.params.get(k) != v for a in ("-p", f"{k}={_text(v)}")]
    for spec in field:
        args += ["--bot", spec]
    stored = settings.to_stored()
    for key, option in OPTIONS.items():
        if key in stored and stored[key] != _stored(defaults, key):
            args += [option, _text(stored[key])]
    if settings.tc:  # the defaults were taken with it (its --game-time)
        args += ["--tc", _text(settings.tc)]
    if settings.move_time is not None and "--move-time" not in args:  # likewise
        args += ["--move-time", _text(settings.move_time)]
    for key, value in settings.each.items():
        args += ["--each", f"{key}={_text(value)}"]
    command = shlex.join(args)
    return command + " --openings FILE" if settings.openings else command


def _defaults(game: str, field: list[str], openings: bool, tc: str | None = None,
              move_time: float | None = None) -> TournamentConfig:
    """What ``arena run --game GAME --bot ... [--tc TC] [--move-time S]`` takes for the options
    left out (a game from an openings file: no random opening plies; a clock or a long move
    time: its default ``--game-time``)."""
    try:
        return build({"game": game, "bots": field, **({"opening_plies": 0} if openings else {}),
                      **({"tc": tc} if tc else {}), **({"move_time": move_time} if move_time is not None else {})})
    except ArenaError:  # a game or bot no longer installed: every setting is written
        return TournamentConfig(game=game, params={}, bots=tuple(field), games=-1, seed=-1, opening_plies=-1,
                                time_margin=-1.0, format="", seat_rotation="")  # type: ignore[arg-type]


def _stored(cfg: TournamentConfig, key: str) -> Any:
    """``cfg``'s value of a stored setting, as stored (``game_time``: the effective limit)."""
    return cfg.identity().get(key, getattr(cfg, key, None)) if key != "game_time" else cfg.effective_game_time


def _text(value: Any) -> str:
    """An option value as ``arena run`` reads it back."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

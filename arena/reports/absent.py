"""Why a report section asked for by name (``arena report NAME --section S``) has nothing in a
tournament: one line each, printed in place of the section and listed under ``empty`` in
``--json``. A section that does not apply is an answer, not an error: the command exits 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from arena.reports.ricochet import RACE_GAMES

#: Sections that apply only to two-player games (``arena.reports.render.build_tables``).
_TWO_PLAYERS = ("cycles", "pairs", "elo", "first_move", "ladder")


def empty_sections(data: Any, sections: Iterable[str] | None, tables: Mapping[str, Any]) -> dict[str, str]:
    """For each section in ``sections`` (those asked for; ``None``: none) that gave no table in
    ``tables`` (``arena.reports.render.tables_for``'s answer: names of tables, each section's
    own or one listed in ``render.PART_OF``), the line saying why, by section name."""
    if not sections:
        return {}
    from arena.reports.render import _section_of

    built = {_section_of(name) for name in tables}
    asked = dict.fromkeys(_section_of(name.strip()) for s in sections for name in s.split(","))  # `-s a,b`
    return {s: f"no {s} in this tournament ({_why(data, s)})" for s in asked if s not in built}


def _why(data: Any, section: str) -> str:
    """Why ``section`` has no table for ``data`` (a ``ReportData``)."""
    tour = data.tournament
    game, k = str(tour.get("game", "?")), data.num_players
    fmt = data.settings.format.value
    players = f"{game} has {k} player{'s' if k != 1 else ''}"
    reasons = {
        "sprt": "it was not run with --sprt",
        "payoffs": f"{game} ranks by places, not by payoffs",
        "ricochet": f"it is for the race games {' and '.join(RACE_GAMES)}; this is {game}",
        "exploitability": ("it is for small two-player OpenSpiel games with hidden information that this "
                           f"installation can load; this is {game}"),
        "standings": f"it is for knockout and swiss tournaments of two players; this is a {fmt} of {game}",
        "solo": f"it is for one-player games; {players}",
        "seat_advantage": f"it is for games of three or more players; {players}",
        "openings": "it was not played from an openings file or from random starts",
        "game": f"it is for games of two or more players that are not races; this is {game}",
        "ratings": f"it is for games of two or more players; {players}",
    }
    if section == "ladder" and k == 2:
        return "its bots are not one family of strengths, as arena ladder plays"
    if section in _TWO_PLAYERS:
        return f"it is for two-player games; {players}"
    return reasons.get(section, "nothing of it was recorded")

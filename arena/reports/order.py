"""The order of a tournament's bots in every report, list and pairing label (``a vs b``): the
field in the order its bots joined, each later version of a bot in its first version's place.

The store keeps the versions in the order they joined (``bots.position``): a bot edited after
its first run joins last, so ordering by that alone printed its pairings from the opponent's
side (``random vs me@2``, where its first version had ``me vs random``). Here ``me@2`` sits
right after ``me``, so both versions' pairings read from the same side. (``arena list`` keeps
the order they joined, as its members column says.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def field_order(labels: Iterable[str], versions: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """``labels`` (in the order they joined) with every bot's versions together, in the place of
    its first version, oldest first.

    Args:
        labels: the stored versions' labels in the order they joined (``load_tournament``'s
            ``bots``).
        versions: label -> ``{"bot": the label without version, "version": 1-based}``
            (``load_tournament``'s ``versions``); a label without an entry is a bot of its own.
    """
    joined = list(labels)
    versions = versions or {}
    base = {lab: str((versions.get(lab) or {}).get("bot") or lab) for lab in joined}
    first: dict[str, int] = {}
    for i, lab in enumerate(joined):
        first.setdefault(base[lab], i)
    number = {lab: int((versions.get(lab) or {}).get("version") or 1) for lab in joined}
    return sorted(joined, key=lambda lab: (first[base[lab]], number[lab], joined.index(lab)))


def in_field_order(tournament: dict[str, Any]) -> dict[str, Any]:
    """``tournament`` (``load_tournament``) with its ``bots`` and ``versions`` in ``field_order``."""
    bots = tournament.get("bots") or {}
    versions = tournament.get("versions") or {}
    order = field_order(bots, versions)
    out = {**tournament, "bots": {lab: bots[lab] for lab in order}}
    if versions:
        out["versions"] = {lab: versions[lab] for lab in order if lab in versions}
    return out

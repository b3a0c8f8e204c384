"""``Columns``: the base of a frozen dataclass whose fields are numpy columns of one length,
one entry a row (``arena.results.rating_history.History``, ``arena.reports.pairs.TwoPlayer``):
its length is the number of rows and ``part`` selects rows of every column at once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

import numpy as np

C = TypeVar("C", bound="Columns")


@dataclass(frozen=True)
class Columns:
    """Base of a frozen dataclass of numpy columns, one entry a row; its first field is a
    row column (a subclass may carry further fields of another length, e.g. per-code lookup
    tables, which ``part`` leaves alone when told the row columns)."""

    def __len__(self) -> int:
        """The number of rows (the length of the first field)."""
        return len(getattr(self, fields(self)[0].name))

    def part(self: C, keep: np.ndarray | slice, names: Iterable[str] | None = None) -> C:
        """The rows where ``keep`` (a boolean mask, indices or a slice) in the columns
        ``names`` (default: every field); any other field is kept as it is."""
        chosen = [f.name for f in fields(self)] if names is None else list(names)
        cols: dict[str, Any] = {name: getattr(self, name)[keep] for name in chosen}
        return replace(self, **cols)

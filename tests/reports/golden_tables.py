"""Known values of the report's tables on small stores (``tests/reports/golden/*.json``), the
reference of ``test_scale``: every table ``arena.reports.render.tables_for`` builds and the
rating history, as written once by this module.

The stores are those of ``tests.reports.stores`` (``make_store``; ``field_store`` and
``nim_store``: series with a copy), played by the match loop with seeded bots (the same games on
every machine), the release-1.x fixture of ``tests/fixtures/legacy_store`` and a two-worker run.
What a run times (``TIMED``: a move's seconds) differs from run to run and is
left out of the files; the test recomputes those columns from the stored moves instead.

The values were first written from the report path of issue 14's time, checked then equal to
the report code before it (pandas over one row per game, a TrueSkill replay of every game).
A change that is meant to change a figure rewrites them (``python -m tests.reports.golden_tables``)
and shows the difference in its commit.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path

import pandas as pd

from arena.reports import render

GOLDEN = Path(__file__).parent / "golden"
#: the checkout, left out of the paths a fault's traceback names (``File "tests/..."``)
ROOT = f"{Path(__file__).resolve().parents[2]}/"
LEGACY = Path(__file__).parent.parent / "fixtures" / "legacy_store" / "interaction-13c07c51.sqlite"
#: the stores of ``make_store``: (game, with a fault game)
STORES = [(game, fault) for game in ("interaction", "sandpile", "ricochet") for fault in (False, True)]
#: columns of what a run times: not in the files (``timed_columns`` recomputes them)
TIMED = {"search": ("mean_seconds", "max_seconds", "nodes_per_second"), "ricochet": ("mean_seconds",)}
#: the two-worker run of ``test_scale.test_run_keeps_the_state_and_matches``
RUN = dict(game="interaction", bots=["random", "greedy"], games=6, workers=2, name="t", params={"max_plies": "30"})


def store_name(game: str, fault: bool) -> str:
    return f"{game}-fault" if fault else game


def _plain(value):
    """A cell as a JSON value (numpy scalars as Python numbers, missing values as None)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        return value.replace(ROOT, "")
    return value.item() if hasattr(value, "item") else value


def snapshot(path: Path) -> dict[str, dict]:
    """Every table of the report of the store at ``path`` and its rating history (``"history"``),
    each as ``{"columns": [...], "rows": [[...]]}``, the ``TIMED`` columns left out."""
    data = render.load(path)
    frames = dict(render.tables_for(data))
    frames["history"] = data.history()
    out = {}
    for name, frame in frames.items():
        frame = frame.drop(columns=list(TIMED.get(name, ())), errors="ignore").reset_index(drop=True)
        out[name] = {"columns": [str(c) for c in frame.columns],
                     "rows": [[_plain(v) for v in row] for row in frame.itertuples(index=False)]}
    return out


def frames(tables: dict[str, dict]) -> dict[str, pd.DataFrame]:
    """``snapshot``'s tables as frames."""
    return {table: pd.DataFrame(t["rows"], columns=t["columns"]) for table, t in tables.items()}


def expected(name: str) -> dict[str, pd.DataFrame]:
    """The known tables of store ``name`` (``golden/<name>.json``) as frames."""
    return frames(json.loads((GOLDEN / f"{name}.json").read_text()))


def timed_columns(path: Path) -> dict[str, pd.DataFrame]:
    """The ``TIMED`` columns by bot (``label`` first), computed from the stored moves by the
    definitions of ``docs/arena.md``: a bot's own moves (not an opening's or a chance ply),
    their mean and largest seconds and its nodes over its seconds; at a Ricochet round the
    mean seconds of its answers."""
    from arena.results.reading import load_moves

    own = load_moves(path)
    own = own[own["label"].notna() & (own["seat"] >= 0)]
    by = own.groupby("label")
    seconds = by["seconds"].sum()
    rate = (by["nodes"].sum(min_count=1) / seconds.where(seconds > 0)).astype(float)
    search = pd.DataFrame({"mean_seconds": by["seconds"].mean(), "max_seconds": by["seconds"].max(),
                           "nodes_per_second": rate})
    answers = own[own["status"].notna()].groupby("label")["seconds"].mean().rename("mean_seconds").to_frame()
    return {"search": search.reset_index(), "ricochet": answers.reset_index()}


def write(name: str, path: Path) -> None:
    (GOLDEN / f"{name}.json").write_text(json.dumps(snapshot(path), indent=0, sort_keys=True) + "\n")


def main() -> None:
    """Write every file of ``GOLDEN`` from the report code as it is."""
    import shutil

    from tests.reports.stores import field_store, make_store, nim_store
    GOLDEN.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for game, fault in STORES:
            folder = Path(tmp) / store_name(game, fault)
            folder.mkdir()
            write(store_name(game, fault), make_store(folder, game, fault))
        write("field", field_store(Path(tmp)))
        write("nim3", nim_store(Path(tmp)))
        legacy = Path(tmp) / LEGACY.name
        shutil.copy(LEGACY, legacy)
        write("legacy", legacy)
        from arena.tournament import build, run_tournament
        run_tournament(build(dict(RUN, results=str(Path(tmp) / "run"))))
        write("run", Path(tmp) / "run" / "t.sqlite")


if __name__ == "__main__":
    sys.exit(main())

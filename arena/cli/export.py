"""``arena export NAME --format jsonl|csv|parquet``: stored games for other tools.

jsonl (``docs/arena.md`` "Output formats"): one game a line with ``game_id``, ``seed``,
``seats``, ``ranks``, ``scores``, ``termination``, ``plies``, ``opening_plies``, ``moves``,
then ``series``, ``fault_seat`` (0-based seat or null), ``fault_detail``, ``seconds`` and
``attempts``. csv and parquet: the same columns; list columns are JSON text in csv.
A store where a network player logged its moves (``bots.base.Player.last_log``: a language
model's tokens, latency, cost and transcript) adds ``log`` last: the game's list of
``{"ply", "seat", "log"}`` (``null`` for a game without), JSON text in csv and parquet.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from arena.errors import ConfigError, ResultsError
from arena.numbers import check_choice
from arena.results.files import resolve

if TYPE_CHECKING:  # pandas is imported on use: `arena --help` starts fast
    import pandas as pd

FORMATS = ("jsonl", "csv", "parquet")
JSONL_KEYS = ("game_id", "seed", "seats", "ranks", "scores", "termination", "plies", "opening_plies", "moves")
#: Columns after the contract keys in each JSON line (as in CSV and Parquet).
EXTRA_KEYS = ("series", "fault_seat", "fault_detail", "seconds", "attempts")


def games_frame(path: Path) -> pd.DataFrame:
    """Every stored game with its moves, in game-id order (list columns decoded). A database
    damaged outside the games it read (a page of another table) still gives its games, with a
    one-line warning on stderr (``docs/how-to/results.md``).

    Raises:
        ResultsError: missing or unreadable database, or a damaged game row.
    """
    import pandas as pd

    from arena.results.logs import game_logs
    from arena.results.reading import damage
    from arena.results.store import connect_readonly

    conn = connect_readonly(path)
    try:
        df = pd.read_sql_query(
            "SELECT game_id, series, seed, seats, ranks, scores, termination, fault_seat, fault_detail, "
            "plies, opening_plies, seconds, attempts, packed FROM games ORDER BY game_id", conn)
        logs = game_logs(conn)  # network players' move logs (issue 44), {} when none
        damaged = damage(conn)
    except Exception as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {exc}") from None
    finally:
        conn.close()
    from arena.results.packed import moves_text

    try:
        df["moves"] = [moves_text(b) for b in df.pop("packed")]
        for col in ("seats", "ranks", "scores", "moves"):
            df[col] = [json.loads(v) for v in df[col]]
    except (TypeError, ValueError) as exc:  # json's and the packing's errors are ValueErrors
        raise ResultsError(f"cannot read results database {str(path)!r}: a damaged game row ({exc})") from None
    df["fault_seat"] = df["fault_seat"].astype("Int64")
    if logs:
        df["log"] = [logs.get(int(g)) for g in df["game_id"]]
    if damaged is not None:
        typer.echo(f"warning: results database {str(path)!r} is damaged ({damaged}); exporting the {len(df)} "
                   "games it could read (arena report and arena run refuse it)", err=True)
    return df


def write(df: pd.DataFrame, fmt: str, out) -> None:
    import pandas as pd

    logged = ("log",) if "log" in df.columns else ()
    if fmt == "jsonl":
        for row in df[list(JSONL_KEYS + EXTRA_KEYS + logged)].to_dict("records"):
            for key in ("game_id", "seed", "plies", "opening_plies", "series", "attempts"):
                row[key] = int(row[key])
            row["fault_seat"] = None if pd.isna(row["fault_seat"]) else int(row["fault_seat"])
            row["fault_detail"] = None if pd.isna(row["fault_detail"]) else str(row["fault_detail"])
            row["seconds"] = float(row["seconds"])
            out.write(json.dumps(row) + "\n")
    elif fmt == "csv":
        flat = df.copy()
        for col in ("seats", "ranks", "scores", "moves"):
            flat[col] = [json.dumps(v) for v in flat[col]]
        if logged:
            flat["log"] = [None if v is None else json.dumps(v) for v in flat["log"]]
        flat.to_csv(out, index=False)
    else:
        if logged:
            df = df.assign(log=[None if v is None else json.dumps(v) for v in df["log"]])
        df.to_parquet(out, index=False)


def export(
    name: str = typer.Argument(..., help="tournament name (or path to its .sqlite)"),
    format: str = typer.Option("jsonl", "--format", help="jsonl | csv | parquet"),
    out: str = typer.Option(None, "--out", help="output file (default <results>/<name>.<format>; - for stdout)"),
    results: str = typer.Option("results", "--results", help="results directory"),
) -> None:
    """Write the stored games of a tournament as JSON lines, CSV or Parquet."""
    check_choice("export format", format, FORMATS)
    path = resolve(name, results)
    df = games_frame(path)
    if out == "-":
        if format == "parquet":
            raise ConfigError("parquet is binary: give --out FILE, not -")
        write(df, format, sys.stdout)
        return
    target = Path(out) if out else path.with_suffix(f".{format}")
    from arena.results.writing import atomic_path

    try:
        with atomic_path(target) as tmp:  # Ctrl-C or a full disk: no partial file, the old one kept
            if format == "parquet":
                write(df, format, tmp)
            else:
                with open(tmp, "w", encoding="utf-8", newline="") as f:
                    write(df, format, f)
    except OSError as exc:
        raise ResultsError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    typer.echo(f"{len(df)} games written to {target}")


def register(app: typer.Typer) -> None:
    app.command("export")(export)

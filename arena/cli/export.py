"""``arena export NAME --format jsonl|csv|parquet``: stored games for other tools.

jsonl (``spec/arena.md`` "Output formats"): one game a line with ``game_id``, ``seed``,
``seats``, ``ranks``, ``scores``, ``termination``, ``plies``, ``opening_plies``, ``moves``.
csv and parquet: the same and ``series``, ``fault_seat``, ``fault_detail``, ``seconds``,
``attempts``; list columns are JSON text in csv.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import typer

from arena.errors import ConfigError, ResultsError
from arena.store import connect_readonly, resolve

FORMATS = ("jsonl", "csv", "parquet")
JSONL_KEYS = ("game_id", "seed", "seats", "ranks", "scores", "termination", "plies", "opening_plies", "moves")


def games_frame(path: Path) -> pd.DataFrame:
    """Every stored game with its moves, in game-id order (list columns decoded)."""
    conn = connect_readonly(path)
    try:
        df = pd.read_sql_query(
            "SELECT game_id, series, seed, seats, ranks, scores, termination, fault_seat, fault_detail, "
            "plies, opening_plies, seconds, attempts, moves FROM games ORDER BY game_id", conn)
    except Exception as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {exc}") from None
    finally:
        conn.close()
    for col in ("seats", "ranks", "scores", "moves"):
        df[col] = [json.loads(v) for v in df[col]]
    df["fault_seat"] = df["fault_seat"].astype("Int64")
    return df


def write(df: pd.DataFrame, fmt: str, out) -> None:
    if fmt == "jsonl":
        for row in df[list(JSONL_KEYS)].itertuples(index=False):
            d = row._asdict()
            d["game_id"], d["seed"], d["plies"], d["opening_plies"] = map(int, (d["game_id"], d["seed"], d["plies"], d["opening_plies"]))
            out.write(json.dumps(d) + "\n")
    elif fmt == "csv":
        flat = df.copy()
        for col in ("seats", "ranks", "scores", "moves"):
            flat[col] = [json.dumps(v) for v in flat[col]]
        flat.to_csv(out, index=False)
    else:
        df.to_parquet(out, index=False)


def export(
    name: str = typer.Argument(..., help="tournament name (or path to its .sqlite)"),
    format: str = typer.Option("jsonl", "--format", help="jsonl | csv | parquet"),
    out: str = typer.Option(None, "--out", help="output file (default <results>/<name>.<format>; - for stdout)"),
    results: str = typer.Option("results", "--results", help="results directory"),
) -> None:
    """Write the stored games of a tournament as JSON lines, CSV or Parquet."""
    if format not in FORMATS:
        raise ConfigError(f"unknown export format {format!r}; accepted: {', '.join(FORMATS)}")
    path = resolve(name, results)
    df = games_frame(path)
    if out == "-":
        if format == "parquet":
            raise ConfigError("parquet is binary: give --out FILE, not -")
        write(df, format, sys.stdout)
        return
    target = Path(out) if out else path.with_suffix(f".{format}")
    try:
        if format == "parquet":
            write(df, format, target)
        else:
            with open(target, "w", encoding="utf-8", newline="") as f:
                write(df, format, f)
    except OSError as exc:
        raise ResultsError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    typer.echo(f"{len(df)} games written to {target}")


def register(app: typer.Typer) -> None:
    app.command("export")(export)

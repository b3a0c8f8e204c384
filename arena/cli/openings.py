"""``arena openings select NAME``: write a balanced subset of a tournament's start positions
as an openings file (``docs/studies.md``; the per-position table is ``arena report NAME
--section openings``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from arena.cli.console import make_console
from arena.cli.helptext import PlainGroup
from arena.cli.options import ResultsFolder

openings_app = typer.Typer(cls=PlainGroup, help="Start positions of a stored tournament: a balanced book.",
                           no_args_is_help=True)


@openings_app.command("select")
def select(
    name: str = typer.Argument(..., help="Tournament name (its database is <results>/NAME.sqlite) or a database path."),
    out: Path = typer.Option(..., "--out", metavar="FILE",
                             help="Where to write the openings file (- for stdout, the summary then on stderr)."),
    max_bias: float = typer.Option(
        0.1, "--max-bias", metavar="X", help="largest |score - 1/2| kept, a fraction (0.1: seat scores 40-60%)"),
    min_games: int = typer.Option(2, "--min-games", metavar="N", help="fewest distinct games a kept position has"),
    target_draw_rate: Optional[float] = typer.Option(
        None, "--target-draw-rate", metavar="R",
        help="then drop the positions furthest on the wrong side until the kept games draw at about R (default: off)"),
    keep_flagged: bool = typer.Option(
        False, "--keep-flagged", help="keep significantly biased positions within --max-bias (default: drop them)"),
    results: ResultsFolder = Path("results"),
) -> None:
    """Write the start positions of tournament NAME that pass the bounds as an openings file."""
    from arena.errors import ConfigError, ResultsError, one_line
    from arena.reports import openings as book
    from arena.reports.render import load, tables_for  # pandas, scipy: imported on use
    from arena.results.files import resolve
    from arena.results.writing import atomic_path

    data = load(resolve(name, results), moves=False)
    table = tables_for(data, ["openings"]).get("openings")
    if table is None or table.empty:
        raise ConfigError(f"tournament {data.name!r} has one start position; select works on a tournament played "
                          "with --openings FILE or --opening-plies N")
    chosen = book.select(table, max_bias, min_games, keep_flagged, target_draw_rate)
    header = [f"{len(chosen.kept)} of {len(table)} start positions of tournament {data.name} "
              f"({data.tournament.get('game')}): |bias| <= {max_bias:g}, >= {min_games} games"
              + ("" if keep_flagged else ", no significant bias (Holm p >= 0.05)")
              + (f", target draw rate {target_draw_rate:g}" if target_draw_rate is not None else ""),
              f"draw rate of their games {chosen.draw_rate:.3f}; written by arena openings select"]
    try:
        with atomic_path(out) as tmp:
            tmp.write_text(book.book_text(chosen, header), encoding="utf-8")
    except OSError as exc:
        raise ResultsError(f"cannot write {str(out)!r}: {one_line(exc)}") from None
    console = make_console(stderr=str(out) == "-")  # stdout carries the openings file
    console.print(f"wrote {_shown(out)}: {len(chosen.kept)} of {len(table)} positions "
                  f"(draw rate {100 * chosen.draw_rate:.1f}%)", markup=False, highlight=False)
    for position, reason in chosen.dropped:
        console.print(f"  left out position {position}: {reason}", markup=False, highlight=False)


@openings_app.command("random")
def random(
    game: str = typer.Argument(..., help="game name (see `arena games`)"),
    out: Path = typer.Option(..., "--out", metavar="FILE",
                             help="Where to write the openings file (- for stdout, the summary then on stderr)."),
    plies: int = typer.Option(4, "--plies", metavar="PLIES", help="seeded random plies from the start"),
    count: int = typer.Option(20, "--count", metavar="N", help="distinct positions wanted"),
    seed: int = typer.Option(1, "--seed", metavar="N", help="seed of the random plies"),
    param: Optional[list[str]] = typer.Option(None, "-p", "--param", help="game parameter key=value (repeatable)"),
) -> None:
    """Write distinct positions reached by random plies: candidates to test with --openings."""
    import arena.games
    from arena.errors import ConfigError, ResultsError, one_line
    from arena.numbers import check_number, parse_params
    from arena.openings import random_positions
    from arena.results.writing import atomic_path

    if not 1 <= count <= 100_000:
        raise ConfigError(f"bad --count {count}; accepted: 1 to 100000 positions")
    if not 0 <= plies <= 10_000:
        raise ConfigError(f"bad --plies {plies}; accepted: 0 to 10000 plies")
    g = arena.games.make(game, **parse_params(param or []))
    found = random_positions(g, plies, count, int(check_number("seed", seed) or 0))
    header = f"# {len(found)} positions of {g.name} after {plies} seeded random plies (seed {seed}): arena openings"
    try:
        with atomic_path(out) as tmp:
            tmp.write_text("\n".join([header, *found]) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ResultsError(f"cannot write {str(out)!r}: {one_line(exc)}") from None
    short = "" if len(found) == count else f" (only {len(found)} distinct in {20 * count} tries)"
    make_console(stderr=str(out) == "-").print(f"wrote {_shown(out)}: {len(found)} positions{short}",
                                               markup=False, highlight=False)


def _shown(out: Path) -> str:
    """``out`` as the summary line names it (``-``: stdout)."""
    return "stdout" if str(out) == "-" else str(out)


def register(app: typer.Typer) -> None:
    app.add_typer(openings_app, name="openings")

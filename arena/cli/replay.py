"""``arena replay NAME GAME_ID``: a stored game move by move, a diagram after each ply."""

from __future__ import annotations

import typer

from arena.cli.console import make_console, styled
from arena.errors import ConfigError


def replay(
    name: str = typer.Argument(..., help="tournament name (or path to its .sqlite)"),
    game_id: str = typer.Argument(..., help="game id (see `arena export`)"),
    results: str = typer.Option("results", "--results", help="results directory"),
) -> None:
    """Print a stored game move by move, with the game's diagram after each ply."""
    import arena.games
    from arena.games import CHANCE, SIMULTANEOUS
    from arena.reports.replay import round_answers, timing_notes
    from arena.results.store import load_game, load_moves, load_series_start, load_tournament  # pandas: imported on use
    from arena.results.files import resolve

    try:
        number = int(game_id)
    except ValueError:
        raise ConfigError(f"bad game id {game_id!r}; accepted: a whole number, a stored game's id "
                          "(`arena export` lists them)") from None
    path = resolve(name, results)
    info = load_tournament(path)
    row = load_game(path, number)
    timing = timing_notes(load_moves(path, number))  # ply -> time used (and the clock left)
    game = arena.games.make(info["game"], **info["params"])
    console = make_console()
    seats = row["seats"]
    console.print(styled((info["name"], "bold"), f" game {row['game_id']} (series {row['series']}, "
                         f"seed {row['seed']}): " + ", ".join(f"seat {i} {label}" for i, label in enumerate(seats))))
    start = load_series_start(path, row["series"])  # a series of an openings file starts from its position
    state = game.parse_state(start) if start is not None else game.initial_state(row["seed"])
    console.print(state.diagram(), markup=False)
    for ply, text in enumerate(row["moves"]):
        who = "opening" if ply < row["opening_plies"] else "round" if state.to_move == SIMULTANEOUS else (
            "chance" if state.to_move == CHANCE else f"seat {state.to_move} {seats[state.to_move]}")
        took = f" ({timing[ply]})" if ply in timing else ""
        console.print(styled("\n", (f"ply {ply}", "bold"), f" {who}: {text}{took}"), highlight=False)
        try:
            move = round_answers(game, state, text) if state.to_move == SIMULTANEOUS else game.parse_move(state, text)
            state = state.play(move)
        except Exception as exc:  # stored notation the game can no longer read: show the records only
            console.print(f"(cannot replay from here: {type(exc).__name__}: {exc})", markup=False)
            for later, rest in enumerate(row["moves"][ply + 1:], ply + 1):
                console.print(f"ply {later}: {rest}", markup=False)
            break
        console.print(state.diagram(), markup=False)
    fault = f", seat {row['fault_seat']} at fault: {row['fault_detail']}" if row["fault_seat"] is not None else ""
    console.print(styled("\n", ("end", "bold"), f": {row['termination']}; ranks {row['ranks']}, scores {row['scores']}"
                         f"{fault}"))


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)

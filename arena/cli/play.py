"""``arena play``: one game shown ply by ply (default: ``random`` in every seat), played in a
watched child process (``arena.watch``) refereed by ``arena.referee``."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Optional

import typer

from arena.cli.options import Results
from arena.numbers import check_float, check_int, parse_params
from arena.errors import ConfigError

if TYPE_CHECKING:
    import arena.games
    from arena.referee import GameRecord, GameSettings, MoveRecord, Ply


def _round_text(record: str, labels: tuple[str, ...]) -> str:
    """A stored round record ``<chip> <winning seat or -> <answer or ->`` in words."""
    parts = record.split(" ", 2)
    if len(parts) != 3:
        return record
    chip, seat, answer = parts
    if seat == "-" or not seat.isdigit() or int(seat) >= len(labels):
        return f"chip {chip} not won (no valid answer; it goes back into the stack)"
    return f"chip {chip} won by seat {seat} {labels[int(seat)]} with {answer}"


def _title(g: arena.games.Game) -> str:
    """``interaction`` or ``interaction (target=3)``: the game and its non-default parameters."""
    changed = {k: v for k, v in g.params.items() if v != g.PARAMS[k].default}
    return g.name + (f" ({', '.join(f'{k}={v}' for k, v in changed.items())})" if changed else "")


def _print_ply(ply: Ply, labels: tuple[str, ...], quiet: bool) -> None:
    from arena.games import CHANCE

    record = ply.record
    if ply.round:  # a simultaneous round: one record per seat, show the round
        head = f"round {record.ply + 1}: {_round_text(ply.move or '-', labels)}"
    else:
        who = labels[record.seat] if record.seat >= 0 else "chance" if record.seat == CHANCE else "opening"
        head = f"ply {record.ply + 1}: {who} plays {record.move}"
        if record.seat >= 0 and record.nodes:
            depth = f", depth {record.depth}" if record.depth is not None else ""  # MCTS has none
            head += f"  ({record.nodes} nodes{depth}, {record.seconds:.2f}s)"
    typer.echo(head)
    if not quiet:
        typer.echo(ply.diagram)
        typer.echo("")


def _the_game(positional: str | None, option: str | None) -> str:
    """The game of ``arena play GAME`` or ``arena play --game GAME`` (as ``arena run`` names it).

    Raises:
        ConfigError: neither given, or two different games.
    """
    if positional is not None and option is not None and positional != option:
        raise ConfigError(f"two games given: {positional!r} and --game {option!r}; give one "
                          "(arena play GAME, or arena play --game GAME)")
    game = positional if positional is not None else option
    if game is None:
        raise ConfigError("arena play needs a game: arena play GAME or arena play --game GAME (`arena games` lists "
                          "them)")
    return game


def _play_here(settings: GameSettings, bots: list, on_ply: Callable[[Ply], None], diagrams: bool) -> GameRecord:
    """Play the game in this process (a person's seat: the terminal is theirs), each ply given
    to ``on_ply`` as ``watch_game`` gives it. Ctrl-C stops the game: ``KeyboardInterrupt`` is
    raised after it, never charged to the seat on move.

    Raises:
        KeyboardInterrupt: the user pressed Ctrl-C (the record is dropped).
    """
    from arena.referee import GameHooks, Ply, ply_text, referee_game

    stopped: list[bool] = []
    previous = signal.getsignal(signal.SIGINT)

    def interrupt(signum: int, frame: object) -> None:
        stopped.append(True)
        raise KeyboardInterrupt

    def each(state: arena.games.State, record: MoveRecord) -> None:
        on_ply(Ply(ply_text(state, record), record, state.diagram() if diagrams else "",
                   state.to_text() if diagrams else ""))

    signal.signal(signal.SIGINT, interrupt)
    try:
        record = referee_game(settings, bots, GameHooks(on_ply=each))
    finally:
        signal.signal(signal.SIGINT, previous)
    if stopped:
        raise KeyboardInterrupt
    return record


def _storing(name: str | None, results: str | None, no_store: bool, human: bool, game: arena.games.Game) -> str | None:
    """The tournament an ``arena play`` game is stored in, or ``None``: ``--name``, else
    ``play-GAME`` when a person plays (``--results`` alone stores too), unless ``--no-store``.

    Raises:
        ConfigError: ``--no-store`` with ``--name`` or ``--results``.
    """
    if no_store:
        if name is not None or results is not None:
            raise ConfigError("--no-store with --name or --results; give one: --no-store plays without storing, "
                              "--name/--results store the game")
        return None
    if name is not None:
        return name
    return "play-" + game.name.replace(":", "-") if human or results is not None else None


def play(
    game: Optional[str] = typer.Argument(None, metavar="GAME", show_default=False,
                                         help="game name (see `arena games`); or --game GAME"),
    game_option: Optional[str] = typer.Option(
        None, "--game", metavar="GAME", help="the game, as `arena run --game` names it (or GAME, positional)"),
    bot: list[str] = typer.Option(
        [], "--bot", "-b", help="bot spec per seat, in seat order; missing seats play `random`; `human`: you"),
    seed: str = typer.Option("0", "--seed", metavar="N", help="game seed (setup, opening and every bot's randomness)"),
    param: list[str] = typer.Option([], "--param", "-p", help="game parameter key=value (repeatable)"),
    opening_plies: str = typer.Option("0", "--opening-plies", metavar="PLIES", help="seeded random opening plies"),
    move_time: Optional[str] = typer.Option(
        None, "--move-time", metavar="SECONDS",
        help="seconds per move, enforced (default: the bots' own limits, no deadline)"),
    time_margin: str = typer.Option(
        "0.5", "--time-margin", metavar="SECONDS", help="seconds a move may overrun --move-time before it loses"),
    memory_limit: Optional[str] = typer.Option(
        None, "--memory-limit", metavar="MIB", help="MiB the bots may add to the game's process"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print the moves and the result, no diagrams"),
    name: Optional[str] = typer.Option(
        None, "--name", metavar="NAME",
        help="store the game in tournament NAME of --results (default with a `human` seat: play-GAME)"),
    results: Results = None,
    no_store: bool = typer.Option(False, "--no-store", help="do not store the game (a `human` seat's is stored by "
                                  "default)"),
) -> None:
    """Play one game and show it ply by ply, then the outcome (scores, ranks, termination).

    Under the start diagram and the final one, a line `position: TEXT` gives the position in
    the game's notation (what --openings files and `Game.parse_state` read).

    The game runs in a child process: a bot that overruns --move-time + --time-margin loses
    (timeout), one that kills or forks its process loses (crash); every process a bot started
    is killed when the game ends; the bots' output is discarded.

    `--bot human` is you: at each of your moves the position (in a game with hidden
    information, your seat's view only) and the legal moves are shown and a move is read from
    the terminal; `quit` (or Ctrl-D) resigns. Such a game is played in this process and stored
    (tournament play-GAME of results/, or --name, --results) to be reported and rated like any
    other; --name or --results store a game of bots alone too."""
    import arena.games  # imported on use: other commands start without the referee
    from arena.llm import check_specs as check_servers
    from arena.openings import check_opening_plies
    from arena.os_guard import orphans_reaped
    from bots.registry import assign_labels, check_field, make

    game = _the_game(game, game_option)
    seed_n = check_int("seed", seed)
    plies_n = check_int("opening_plies", opening_plies)
    move_s = check_float("move_time", move_time)
    margin_s = check_float("time_margin", time_margin)
    memory_mib = check_int("memory_limit", memory_limit)
    g = arena.games.make(game, **parse_params(param))
    if opening_plies != "0":  # given (the default is none): one the game cannot play is refused
        check_opening_plies(g, plies_n)
    n = g.num_players
    if len(bot) > n:
        raise ConfigError(f"{g.name} has {n} seats; got {len(bot)} --bot options")
    specs = assign_labels(list(bot) + ["random"] * (n - len(bot)), typed=len(bot))
    with orphans_reaped():  # what the bots and engines started, setsid ones too: nothing outlives the game
        check_field(specs, g)
        check_servers(specs)  # an llm: bot's server answers, its key is set and taken: else one line, no game
        bots = [make(spec) for spec in specs]
        human = any(getattr(b, "interactive", False) for b in bots)
        hidden = human and g.type.hidden_information  # the full state is nobody's to see until the end
        into = _storing(name, results, no_store, human, g)
        played = None
        if into is not None:  # opened before the game: a refusal costs nobody a game
            from arena.tournament.played import open_played
            played = open_played(results or "results", into, g, specs)
        try:
            labels = played.labels if played is not None else tuple(spec.label for spec in specs)
            try:
                record = _one_game(g, specs, bots, labels, seed_n, plies_n, move_s, margin_s, memory_mib,
                                   quiet or human, human, hidden)
            except KeyboardInterrupt:
                from arena.cli.app import interrupt_code
                typer.echo("", err=True)
                typer.secho("interrupted: the game is not stored", fg=typer.colors.YELLOW, err=True)
                raise typer.Exit(interrupt_code()) from None
            if played is not None:
                from arena.tournament.played import store_game
                for line in played.notes:
                    typer.echo(line)
                game_id = store_game(played, record)
                typer.echo(f"stored as game {game_id} of tournament {into} in {played.store.path} "
                           f"(arena report {into}{'' if results is None else ' --results ' + results})")
        finally:
            if played is not None:
                played.close()


def _one_game(g: arena.games.Game, specs: list, bots: list, labels: tuple[str, ...], seed_n: int, plies_n: int,
              move_s: float | None, margin_s: float, memory_mib: int | None, quiet: bool, here: bool,
              hidden: bool) -> GameRecord:
    """Play and show one game of ``arena play``; ``here``: in this process (a person plays),
    ``hidden``: show no ply until the end (a person's seat sees its view only)."""
    from arena.referee import GameSettings, bot_seeds, random_opening
    from arena.watch import watch_game
    from bots.base import Limits
    from bots.registry import seed_name

    limits = []
    for b in bots:
        own = b.own_limits() if hasattr(b, "own_limits") else Limits()
        limits.append(own.tighter(Limits(time=move_s)) if move_s is not None else own)
    # the start position before any output: a parameter the setup refuses (ConfigError) prints nothing
    opening = random_opening(g, seed_n, plies_n) if plies_n else []
    start = g.initial_state(seed_n)
    for text in opening:
        start = start.play(g.parse_move(start, text))
    typer.echo(f"{_title(g)}, seed {seed_n}: " + ", ".join(f"seat {i} {lab}" for i, lab in enumerate(labels)))
    if opening:
        cut = "" if len(opening) == plies_n else f" of {plies_n}: the next random move would end the game"
        typer.echo(f"opening ({len(opening)} plies{cut}): {' '.join(opening)}")
    if not quiet:
        typer.echo(start.diagram())
        typer.echo(f"position: {start.to_text()}")
        typer.echo("")
    final_text = start.to_text()  # until a ply is played
    plies: list[Ply] = []

    def show(ply: Ply) -> None:
        plies.append(ply)
        if not hidden:
            _print_ply(ply, labels, quiet)

    seeds = bot_seeds(seed_n, 0, [seed_name(spec) for spec in specs])  # a repeat seeds as before its #n label
    settings = GameSettings(g, seed_n, labels=labels, opening=tuple(opening), limits=tuple(limits),
                            time_margin=margin_s, memory_limit=memory_mib, seeds=seeds)
    if here:
        record = _play_here(settings, bots, show, diagrams=not hidden)
    else:
        record = watch_game(settings, bots, move_time=move_s, diagrams=not quiet, on_ply=show)
    if hidden:  # the game is over: its plies may be seen now
        typer.echo(f"plies: {' '.join(record.moves)}")
    if not quiet or (here and not hidden):  # the final position's text, under its diagram (the last ply's)
        if here and plies:
            typer.echo(plies[-1].diagram)
        typer.echo(f"position: {plies[-1].position if plies else final_text}")
    out = record.outcome
    typer.echo(f"result after {record.plies} plies ({record.seconds:.2f}s): {out.termination}")
    for seat, label in enumerate(labels):
        typer.echo(f"  seat {seat} {label}: score {out.scores[seat]:g}, rank {out.ranks[seat]}")
    if record.fault_detail is not None:
        who = f"seat {record.fault_seat}" if record.fault_seat is not None else "nobody (before any move)"
        typer.echo(f"  fault by {who}: {out.termination}: {record.fault_detail}")
    return record


def register(app: typer.Typer) -> None:
    app.command("play")(play)

"""``arena run``: play a tournament (round-robin, gauntlet, knockout or Swiss), store it, print the report.

With no options: a round-robin on Interaction between built-in bots of different strength.
Settings also come from ``--config FILE.toml`` (same keys; options given here override).
``-q`` prints one line instead of the progress bar and the report: the name, the games played
and stored, and where the database and the HTML report are (notes on stderr, errors too).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from arena.cli.console import make_console, styled
from arena.cli.options import AllowVersionChange, Anchor, OpeningsOrder, Results, Seed, Wide, Workers
from arena.cli.progress import eta_text, notes as _notes, pace_text, progress_observers as _progress_observers

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig

__all__ = ["eta_text", "pace_text", "register", "run"]


def run(
    game: Optional[str] = typer.Option(None, "--game", help="game name (see `arena games`); default interaction"),
    bot: Optional[list[str]] = typer.Option(
        None, "--bot",
        help="bot spec [LABEL=]KIND[:key=value,...]; repeat for the field (default: the game's built-in field of "
             "different strengths, e.g. random, greedy, alphabeta:depth=4, mcts:playouts=300 on interaction; "
             "openspiel:NAME: random, greedy, alphabeta:depth=3, mcts:playouts=100, less those that cannot play "
             "it, named in a note)"),
    format: Optional[str] = typer.Option(
        None, "--format",
        help="round-robin | gauntlet (first --bot is the challenger) | knockout (seeded bracket in --bot order) | "
             "swiss (paired by score each round); default round-robin"),
    rounds: Optional[str] = typer.Option(
        None, "--rounds", metavar="N", help="rounds of --format swiss (default: log2 of the field, rounded up)"),
    seeds: Optional[str] = typer.Option(
        None, "--seeds", metavar="N", help="--format gauntlet: the first N bots each meet every other (default 1)"),
    games: Optional[str] = typer.Option(
        None, "--games", metavar="N",
        help="games per pairing, rounded up to whole series (default per game: interaction 50, sandpile 8, ricochet "
             "6, interaction-solo 1, interaction-solo-race 1, openspiel:NAME 10)"),
    workers: Workers = None,
    cluster: Optional[str] = typer.Option(
        None, "--cluster", metavar="ADDRESS",
        help="play on a Dask cluster instead of --workers (default: none, the local pool): tcp://host:port (a "
             "running `dask scheduler`) or local:N (N worker processes here); needs pip install 'arena\\[cluster]'"),
    name: Optional[str] = typer.Option(None, "--name", help="tournament name (default: derived from the settings)"),
    seed: Seed = None,
    results: Results = None,
    opening_plies: Optional[str] = typer.Option(
        None, "--opening-plies", metavar="PLIES",
        help="seeded random opening plies per series, at most: a random opening stops before a move that would end "
             "the game, and the run says how many games it cut (default 2)"),
    move_time: Optional[str] = typer.Option(
        None, "--move-time", metavar="SECONDS", help="seconds per move (default: none, the bots' own limits)"),
    move_nodes: Optional[str] = typer.Option(
        None, "--move-nodes", metavar="NODES", help="nodes per move (default: none)"),
    tc: Optional[str] = typer.Option(
        None, "--tc", metavar="MOVES/BASE+INC",
        help="game clock per seat, seconds: MOVES/BASE+INC (BASE again every MOVES own moves), BASE+INC or inf; "
             "a spec's tc= gives one bot its own (default: none, per-move limits only)"),
    adjudicate: Optional[list[str]] = typer.Option(
        None, "--adjudicate", metavar="RULE",
        help="end decided games early from the bots' reported scores (repeatable): resign=MOVES:SCORE[:twosided], "
             "draw=AFTER:MOVES:SCORE, max-plies=N (default: none, every game to its end)"),
    game_time: Optional[str] = typer.Option(
        None, "--game-time", metavar="SECONDS",
        help="hard wall-clock seconds per game (default 600, or 500 × (move time + margin) when larger)"),
    time_margin: Optional[str] = typer.Option(
        None, "--time-margin", metavar="SECONDS",
        help="seconds a move may overrun --move-time, and a clock go below 0 (default 0.5)"),
    memory_limit: Optional[str] = typer.Option(
        None, "--memory-limit", metavar="MIB",
        help="MiB the bots may add to each worker; past it a bot loses by 'memory' (default: half the physical "
             "memory divided by --workers, at least 256)"),
    param: Optional[list[str]] = typer.Option(
        None, "-p", "--param",
        help="game parameter key=value (repeatable; default: the game's defaults, see `arena games`)"),
    seat_rotation: Optional[str] = typer.Option(
        None, "--seat-rotation", help="cyclic (k games a series) | all (k! games); default cyclic"),
    fill: Optional[str] = typer.Option(
        None, "--fill",
        help="bot spec filling empty seats when the field is smaller than the game (default: none, such a field is "
             "refused)"),
    openings: Optional[str] = typer.Option(
        None, "--openings", metavar="FILE",
        help="start positions, one a line in the game's notation (# comments); each one a series (default --games: "
             "every position once per pairing, --opening-plies 0)"),
    openings_order: OpeningsOrder = None,
    config: Optional[Path] = typer.Option(
        None, "--config", help="TOML file of settings (same keys as these options; default: none)"),
    retries: Optional[str] = typer.Option(
        None, "--retries", metavar="N", help="replays of a game whose worker died (default 2)"),
    sprt: Optional[str] = typer.Option(
        None, "--sprt", metavar="elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=M]",
        help="two-bot match: stop when the GSPRT on game pairs accepts H0 or H1 (alpha, beta default 0.05; model "
             "logistic|normalized|bayesian)"),
    tau: Optional[str] = typer.Option(
        None, "--tau", metavar="TAU", help="TrueSkill dynamics factor of the ratings (default 0: fixed-strength bots)"),
    until_ranked: Optional[str] = typer.Option(
        None, "--until-ranked", metavar="[CONFIDENCE]",
        help="2-player round-robin in rounds of series, each round to the adjacent pairs of the current ranking whose "
             "order is least certain, until the whole order holds with this probability (default when given: 0.95) "
             "or --games per pairing (default: off, every pairing plays --games)"),
    anchor: Anchor = None,
    retire: Optional[list[str]] = typer.Option(
        None, "--retire", metavar="LABEL",
        help="with --name: retire a bot of the league (repeatable): it keeps its games and ratings, the reports show "
             "it apart, and it is not scheduled any more (default: none)"),
    candidate: Optional[list[str]] = typer.Option(
        None, "--candidate", metavar="SPEC",
        help="with --name: add a candidate bot [LABEL=]KIND[:key=value,...] (repeatable): it plays a gauntlet against "
             "the active bots until its place is settled (--until-ranked's rule, for one bot), then joins them "
             "(default: none)"),
    isolation: Optional[str] = typer.Option(
        None, "--isolation",
        help="none (default: Python bots in the worker, fastest) | process (each Python bot its own sandboxed `arena "
             "engine` process)"),
    each: Optional[list[str]] = typer.Option(
        None, "--each", metavar="KEY=VALUE",
        help="an option for every engine (setoption) and every Python bot that declares it (repeatable; a spec's "
             "own value wins; default: none)"),
    trace_engines: bool = typer.Option(
        False, "--trace-engines",
        help="write every engine protocol line, both ways, with its time to the log (default: off)"),
    allow_version_change: AllowVersionChange = False,
    concurrency: Optional[str] = typer.Option(
        None, "--concurrency", metavar="N",
        help="games at once in each worker for bots that wait on the network (llm:), in threads: a game with a "
             "language model's seat spends its time waiting for the server (default 32; 1: one at a time)"),
    llm_cache: Optional[str] = typer.Option(
        None, "--llm-cache", metavar="on|off",
        help="language-model bots (llm:) replay the answers already paid for from <results>/<name>.llm-cache.sqlite, "
             "so a rerun or a resumed run gives the same games (on), or ask the server every time (off) "
             "(default: on)"),
    quiet: bool = typer.Option(
        False, "--quiet", "-q",
        help="no progress bar and no report: one line at the end, the games played and stored, how a run its own "
             "rule ended says (the SPRT's verdict with its LLR and bounds; --until-ranked settled or not, after how "
             "many games) and where the database and the HTML report are (default: the bar, then the report; "
             "`arena report NAME` prints it)"),
    wide: Wide = False,
    verbose: bool = typer.Option(
        False, "--verbose", "-v",
        help="show the runner's and the workers' log records on stderr (default: only in <results>/<name>.log)"),
) -> None:
    """Play a tournament; each finished game is stored at once, re-running the same command resumes."""
    from arena.numbers import parse_anchor
    from arena.tournament.config import build  # the runner is imported once the options are checked
    from arena.numbers import parse_params
    from arena.errors import ConfigError
    from arena.tournament.config_file import read_config

    # numbers arrive as text: ``build`` checks them and names the accepted range in one line
    file = read_config(config) if config is not None else None
    values = dict(file.values) if file is not None else {}
    given = dict(game=game, bots=bot or None, format=format, games=games, workers=workers, name=name, seed=seed,
                 results=results, opening_plies=opening_plies, move_time=move_time, move_nodes=move_nodes,
                 game_time=game_time, time_margin=time_margin, memory_limit=memory_limit,
                 seat_rotation=seat_rotation, fill=fill, retries=retries, openings=openings,
                 openings_order=openings_order, sprt=sprt, tau=tau, isolation=isolation, cluster=cluster,
                 until_ranked=until_ranked, tc=tc, adjudicate=adjudicate or None, rounds=rounds, seeds=seeds,
                 each=each or None, trace_engines=trace_engines or None,
                 allow_version_change=allow_version_change or None, retire=retire or None,
                 candidates=candidate or None, anchor=anchor,
                 llm_cache=None if llm_cache is None else _on_off("--llm-cache", llm_cache), concurrency=concurrency)
    note = _field_note(values, bot, config)
    values.update({k: v for k, v in given.items() if v is not None})
    league_note = _league_field(values)
    if param:
        values["params"] = {**values.get("params", {}), **parse_params(param)}
    try:
        cfg = build(values)
    except ConfigError as exc:  # a value of the file: its key named, not the option
        if file is None:
            raise
        raise file.explain(exc, [k for k, v in given.items() if v is not None]) from None
    pinned = parse_anchor(cfg.anchor)  # --anchor, or the config file's anchor
    if pinned is not None:
        _check_anchor(cfg, pinned[0])
    console, err = make_console(), make_console(stderr=True)
    for said in (note, league_note):
        if said:
            err.print(said, markup=False, highlight=False, soft_wrap=True)
    if games is not None and (rounded := _rounded_games(cfg)):
        err.print(rounded, markup=False, highlight=False)
    if not bot and not values.get("bots") and not values.get("engines") and (left := _left_out(cfg)):
        err.print(left, markup=False, highlight=False, soft_wrap=True)
    from arena.tournament.runner import run_tournament

    with _console_log(err if verbose else None):  # -v: a long move's line is a log record there
        summary = run_tournament(cfg, [_notes(err, thinking=not verbose), *(() if quiet else _progress_observers(err))])
    faults = ", ".join(f"{k} {v}" for k, v in sorted(summary.faults.items()))
    stop = _stop_text(summary)
    early = stop is not None and summary.finished and summary.done < summary.total  # stopped by its own rule
    line = styled((summary.name, "bold"), f": {summary.played} games played in {summary.seconds:.1f}s, "
                  f"{summary.done if early else f'{summary.done}/{summary.total}'} stored in {summary.path}"
                  + (f" ({summary.stored} games in the tournament)" if summary.stored > summary.done else "")
                  + (f", finished: {stop}" if stop is not None and summary.finished else "")
                  + (f"; faults: {faults}" if faults else ""))
    extra = [f"referee check: {summary.mismatches} game(s) stored as their replayed moves decide, not as the "
             f"worker reported (see {summary.name}.log)"] if summary.mismatches else []
    extra += [summary.note] if summary.note else []
    extra += [summary.voids] if summary.voids else []  # games a provider's failure voided (issue 44)
    if summary.short_openings:
        extra.append(f"note: {summary.short_openings} of {summary.played} games played fewer random opening plies than "
                     f"--opening-plies {cfg.opening_plies} (the fewest: {summary.fewest_opening_plies}): a random "
                     "opening stops before a move that would end the game")
    extra += [summary.ranking] if summary.ranking and not summary.finished else []  # finished: in the line
    if summary.interrupted:
        for text in (line, *extra):
            console.print(text)
        console.print(styled(("interrupted", "yellow"),
                             ": finished games are stored; re-run the same command to resume"))
        from arena.cli.app import interrupt_code  # the app imports this module: imported on use

        raise typer.Exit(interrupt_code())
    from arena.reports.stamp import kept_files, write_report_files

    def print_quiet(page: Path) -> None:  # -q: one line on stdout; what else the run has to say is a note on stderr
        console.print(f"{line}; HTML report: {page}", soft_wrap=True)  # one line, however long its paths
        for text in extra:  # each once marked a note (the short openings' line already is)
            err.print(text if text.startswith("note: ") else f"note: {text}", soft_wrap=True)

    kept = kept_files(summary.path, pinned)  # the report files show the store as it is: not written again
    if quiet and kept is not None:
        return print_quiet(kept[-1])  # nothing of the report printed: no report code loaded
    from arena.reports.output import print_summary, print_termination_summary
    from arena.reports.render import load  # pandas, scipy: imported once the run is over (a bad option fails fast)

    data = load(summary.path, anchor=pinned)  # loaded once; its tables are built once for the console, files and page
    written, page = (kept[:-1], kept[-1]) if kept is not None else write_report_files(data)
    report = next((p for p in written if p.suffix == ".md"), None)
    if quiet:
        return print_quiet(page)
    for text in (line, *extra):
        console.print(text)
    print_summary(data, console, wide=wide)
    print_termination_summary(data, console)
    how = "up to date in" if kept is not None else "written to"  # kept: nothing changed since they were written
    console.print(f"full report: arena report {summary.name}"
                  + (f" ({how} {report} and CSV files beside it)" if report else ""))
    console.print(f"HTML report (plots, replays): {page}")


def _check_anchor(cfg: "TournamentConfig", label: str) -> None:
    """Refuse ``--anchor LABEL=ELO`` before the first game when ``LABEL`` is neither a bot of the
    field nor one stored in the tournament's database (the report would refuse it after every
    game was played).

    Raises:
        ConfigError: the label is unknown (the message lists the accepted labels).
    """
    import arena.games
    from arena.errors import ConfigError, ResultsError
    from arena.results.reading import load_tournament
    from arena.results.files import db_path
    from arena.tournament.config import field_specs

    labels = [spec.label for spec in field_specs(cfg, arena.games.make(cfg.game, **cfg.params).num_players)]
    path = db_path(cfg.run_name(), cfg.results)
    if path.is_file():
        try:
            labels += [lab for lab in load_tournament(path)["bots"] if lab not in labels]
        except ResultsError:
            pass  # the run itself says what is wrong with the database
    if label not in labels:
        raise ConfigError(f"--anchor {label}=...: no bot {label!r} in the field or the stored games; "
                          f"accepted: {', '.join(labels)}")


def _stop_text(summary) -> str | None:
    """How the run's own rule ended it, for its one line: the SPRT's verdict with the LLR and
    its bounds (``SPRT [0, 50] LLR 3.07 (-2.94, 2.94): H1 accepted at pair 23``), or how an
    ``--until-ranked`` ranking ended (settled or not, after how many games); ``None`` for
    another format."""
    if summary.sprt is not None:
        from arena.stats.sprt import state_line

        return state_line(summary.sprt, brief=True)
    return summary.ranking


def _rounded_games(cfg) -> str | None:
    """One line when ``--games`` is no whole number of series (each series plays the pairing
    once in each seat order), so each pairing plays more games than asked."""
    import arena.games
    from arena.tournament.series import seat_orders

    k = arena.games.make(cfg.game, **cfg.params).num_players
    per = len(seat_orders(range(k), cfg.seat_rotation)) if k > 1 else 1
    if cfg.games % per == 0 or cfg.until_ranked is not None:
        return None
    return (f"note: --games {cfg.games} rounded up to {-(-cfg.games // per) * per} per pairing "
            f"(whole series of {per} games, one per seat order)")


def _left_out(cfg) -> str | None:
    """One line naming the bots of the game's default field that cannot play it, and why (the
    run plays the field without them; ``--bot`` gives another)."""
    import arena.games
    from arena.tournament.config import left_out_of_default

    left = left_out_of_default(cfg.game, arena.games.make(cfg.game, **cfg.params))
    if not left:
        return None
    return (f"note: the default field of {cfg.game} leaves out "
            + "; ".join(f"{spec} ({why})" for spec, why in left) + "; --bot names a field of your own")


def _league_field(values: dict) -> str | None:
    """A league run that names no bot (no ``--bot``, no ``bots`` nor ``[[engine]]`` in the file)
    plays the league's stored field: its last run's bots and the candidates that joined, less
    the retired ones; its candidates still placing go on (``arena.tournament.league.stored_field``).
    ``values`` is changed in place; returns the note saying so, or ``None``.

    Raises:
        ResultsError: an unreadable store.
    """
    if values.get("bots") or values.get("engines") or not values.get("name"):
        return None
    from arena.results.files import db_path
    from arena.tournament.league import stored_field

    found = stored_field(db_path(str(values["name"]), values.get("results") or "results"),
                         bool(values.get("retire") or values.get("candidates")))
    if found is None:
        return None
    values["bots"] = list(found.bots)
    given = list(values.get("candidates") or [])
    labels = {spec.partition("=")[0] for spec in given if "=" in spec.partition(":")[0]} | set(given)
    values["candidates"] = given + [c for c in found.candidates if c.partition("=")[0] not in labels]
    return (f"note: league {values['name']!r}: its stored field " + ", ".join(found.bots)
            + (f" and candidates {', '.join(found.candidates)}" if found.candidates else "") + " (--bot names another)")


def _field_note(values: dict, bot: Optional[list[str]], config: Optional[Path]) -> str | None:
    """What ``--bot`` did to the config file's field, in one line (options override the file's
    keys, ``docs/tournaments.md`` "Tournaments"; ``[[engine]]`` tables have no option and stay)."""
    if not bot or not (values.get("bots") or values.get("engines")):
        return None
    parts = []
    if values.get("bots"):
        parts.append(f"--bot replaces bots = {list(values['bots'])} of {str(config)!r}")
    if values.get("engines"):
        labels = ", ".join(spec.partition("=")[0] for spec in values["engines"])
        parts.append(f"the [[engine]] tables of {str(config)!r} ({labels}) play beside the --bot bots")
    return "note: " + "; ".join(parts)


@contextmanager
def _console_log(console) -> Iterator[None]:
    """With a console: the ``arena`` logger's records (workers' included) are printed on it
    for the run, through the same handler a library caller would attach."""
    if console is None:
        yield
        return
    import logging

    from rich.logging import RichHandler

    handler = RichHandler(console=console, show_path=False, markup=False)
    handler.setFormatter(logging.Formatter("%(processName)s %(name)s: %(message)s"))
    logger = logging.getLogger("arena")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def register(app: typer.Typer) -> None:
    app.command("run")(run)


def _on_off(option: str, value: str) -> bool:
    """``on`` / ``off`` of a switch as a bool.

    Raises:
        ConfigError: any other text.
    """
    from arena.numbers import check_choice

    return check_choice(f"{option} value", value.strip().lower(), ("on", "off")) == "on"

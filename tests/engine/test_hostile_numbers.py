"""Numbers a bot or engine reports are checked where they enter the referee's records
(issue 29, ``arena.referee.reported``): ``nodes`` of 2**63 and more, negative, NaN or ``str``
figures, in process, from an ``exec:`` engine and under ``--isolation process``. The run
completes, every game is stored and replays under the rules, nobody is blamed, the figures are
stored clipped or NULL and the tournament log notes them."""

import math
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import arena.games
from arena.results.reading import load_moves
from arena.referee.reported import MAX_FIGURE, UNREPORTED, Reported, reported
from arena.results.store import load_games
from arena.tournament import build, run_tournament

FIXTURE = Path(__file__).parents[1] / "fixtures" / "hostile_numbers.py"
KINDS = ("huge", "negative", "nan", "text")
#: what each kind's figures are stored as, for the hostile seat: (nodes, depth, evaluation)
STORED = {"huge": (MAX_FIGURE, MAX_FIGURE, None), "negative": (None, None, None),
          "nan": (None, None, None), "text": (None, None, None)}


def bot_with(nodes, depth, evaluation):
    return SimpleNamespace(label="h", last_stats=SimpleNamespace(nodes=nodes, depth=depth, evaluation=evaluation))


@pytest.mark.parametrize("figures, expected", [
    ((2**63, 2**64, 10**400), Reported(MAX_FIGURE, MAX_FIGURE, None)),
    ((10**5000, 3.0, -math.inf), Reported(MAX_FIGURE, 3, None)),
    ((-1, -5, math.nan), UNREPORTED),
    (("12", "x", "0.5"), UNREPORTED),
    ((1.5, True, 1e301), UNREPORTED),
    ((120, 4, -0.25), Reported(120, 4, -0.25)),
    ((0, 0, None), UNREPORTED),  # SearchStats' "not a search" defaults
    ((MAX_FIGURE, 1, -1e300), Reported(MAX_FIGURE, 1, -1e300)),  # the bounds themselves
])
def test_figures_are_clipped_or_dropped(figures, expected):
    assert reported(bot_with(*figures)) == expected


def test_plain_figures_are_read_without_the_numbers_abcs(monkeypatch):
    """An ``int`` count and a finite ``float`` evaluation (every built-in bot's) pass without
    ``isinstance`` against ``numbers.Integral``/``Real`` (an ABC check each: a few µs a ply)."""
    import numbers

    import arena.referee.reported as module

    checked = []

    def counting(abc):
        class Meta(type):
            def __instancecheck__(cls, obj):
                checked.append(abc.__name__)
                return isinstance(obj, abc)
        return Meta(abc.__name__, (), {})

    monkeypatch.setattr(module, "Integral", counting(numbers.Integral))
    monkeypatch.setattr(module, "Real", counting(numbers.Real))
    assert reported(bot_with(120, 4, -0.25)) == Reported(120, 4, -0.25)
    assert reported(bot_with(0, 0, None)) == UNREPORTED
    assert checked == []
    assert reported(bot_with(3.0, 2**64, None)) == Reported(3, MAX_FIGURE, None) and checked  # the others: checked


def test_a_bot_whose_stats_raise_reports_nothing():
    class Raising:
        @property
        def last_stats(self):
            raise RuntimeError("no stats for you")
    assert reported(Raising()) is UNREPORTED


def check_run(summary, hostile: str, kind: str, games: int, noted: bool = True) -> None:
    """Every game stored, without a fault, replaying under the rules; the hostile seat's
    figures stored as ``STORED[kind]``; the log notes them (``noted``)."""
    path = summary.path
    stored = load_games(path)
    assert len(stored) == games and stored.fault_seat.isna().all(), stored.termination.tolist()
    assert not summary.faults and summary.mismatches == 0
    moves = load_moves(path)
    game = arena.games.make("interaction")
    for row in stored.itertuples():
        state = game.initial_state(row.seed)
        for move in moves[moves.game_id == row.game_id].move:
            state = state.play(game.parse_move(state, move))
        assert state.is_terminal() and list(state.outcome().ranks) == list(row.ranks)
    mine = moves[moves.label == hostile]
    assert len(mine) > 0
    nodes, depth, evaluation = STORED[kind]
    for column, value in (("nodes", nodes), ("depth", depth), ("evaluation", evaluation)):
        got = mine[column]
        assert (got.isna().all() if value is None else (got == value).all()), (column, got.tolist())
    log = Path(path).with_suffix(".log").read_text()
    assert (f"bot {hostile} reported" in log) == noted, log


def config(results: Path, bots, **extra):
    values = dict(game="interaction", bots=bots, games=2, workers=1, results=str(results), opening_plies=0,
                  retries=0, name="numbers", **extra)
    return build(values)


@pytest.mark.parametrize("kind", KINDS)
def test_in_process_bot_with_hostile_figures(tmp_path, kind):
    spec = f"h={FIXTURE}#HostileNumbers:kind={kind}"
    summary = run_tournament(config(tmp_path, [spec, "r=random"]))
    check_run(summary, "h", kind, 2)


@pytest.mark.parametrize("kind", KINDS)
def test_exec_engine_printing_hostile_info(tmp_path, kind):
    spec = f"h=exec:{FIXTURE}:kind={kind}"
    summary = run_tournament(config(tmp_path, [spec, "r=random"]))
    # words where numbers belong are skipped as the info line is read (UCI practice): no note
    check_run(summary, "h", kind, 2, noted=kind != "text")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="isolation: Linux")
@pytest.mark.parametrize("kind", ["huge", "nan"])
def test_isolated_bot_with_hostile_figures(public, kind):
    bot_file = public / "hostile_numbers.py"
    shutil.copy(FIXTURE, bot_file)
    bot_file.chmod(0o755)
    summary = run_tournament(config(public / "results", [f"h={bot_file}#HostileNumbers:kind={kind}", "r=random"],
                                    isolation="process"))
    check_run(summary, "h", kind, 2)
    assert not list(public.glob("arena-engine-*"))  # nothing left behind

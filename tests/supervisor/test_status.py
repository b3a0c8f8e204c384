"""The watched child's status record (``arena.supervisor``): what a worker's hooks write, and in
which order, for the parent that judges from it alone."""

import pytest

import arena.games
from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


def test_a_game_is_timed_from_its_own_start_before_the_runner_can_see_it_playing():
    """The worker writes the game's start time before the game id: the runner, which reads the
    id first (``WorkerSlot.playing``), can never time a new game from a fresh worker's start of 0 and
    call it over ``game_time`` (a replayed game was once lost as ``game_time`` that way)."""
    from arena.supervisor import Status, Watched
    from arena.tournament.series import GameTask
    from arena.tournament.worker import WorkerSetup, bot_factories, play_task
    from bots.registry import parse_spec

    writes: list = []

    class Recorded(Status):
        def __setattr__(self, name, value):
            writes.append(name)
            super().__setattr__(name, value)

    recorded = Recorded()
    recorded.game = recorded.forked = -1
    setup = WorkerSetup(game="nim", params={"pile": "5"}, specs={"a": parse_spec("random"), "b": parse_spec("random")})
    task = GameTask(game_id=7, series=0, pairing=("a", "b"), seats=("a", "b"), seed=1, opening=())
    writes.clear()
    record = play_task(arena.games.make("nim", pile="5"), bot_factories(setup.specs), task, setup, Watched(recorded))
    assert record.moves
    order = [name for name in writes if name in ("game_started", "game")]
    assert order[:2] == ["game_started", "game"], order
    assert recorded.game_started > 0 and recorded.game == 7 and recorded.ply == len(record.moves)


@pytest.mark.parametrize("move_time, timed", [(None, False), (5.0, True)])
def test_a_worker_writes_the_moves_start_only_when_the_runner_times_moves(move_time, timed):
    """Without ``--move-time`` (or a game clock) the runner times no move: the worker's hooks
    write the seat on move (or being reset) and each ply (the ply buffer), never a move's start;
    with it, each move's start (and each reset's) is written and cleared after the ply."""
    from arena.supervisor import PLY_BUFFER, PlyLog, Status, Watched, played, read_plies
    from arena.tournament.series import GameTask
    from arena.tournament.worker import WorkerSetup, bot_factories, play_task
    from bots.base import Limits
    from bots.registry import parse_spec

    starts: list = []
    seats: list = []

    class Recorded(Status):
        def __setattr__(self, name, value):
            (starts if name == "move_started" else seats if name == "seat" else []).append(value)
            super().__setattr__(name, value)

    status = Recorded()
    status.game = status.forked = -1
    buffer = bytearray(PLY_BUFFER)
    setup = WorkerSetup(game="nim", params={"pile": "9"}, specs={"a": parse_spec("random"), "b": parse_spec("random")},
                        limits=Limits(move_time))
    task = GameTask(game_id=3, series=0, pairing=("a", "b"), seats=("a", "b"), seed=1, opening=())
    record = play_task(arena.games.make("nim", pile="9"), bot_factories(setup.specs), task, setup,
                       Watched(status, PlyLog(buffer, status)), trusted_labels=frozenset("ab"))
    moves, stats = played(read_plies(buffer, status))
    assert moves == list(record.moves) and stats == list(record.move_stats)
    assert seats[-len(stats):] == [m.seat for m in record.move_stats]  # after -1 and the resets: each mover
    assert any(s > 0 for s in starts) == timed and starts[-1] == 0.0

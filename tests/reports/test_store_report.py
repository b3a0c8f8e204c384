"""Reports over a real results database: games played by the match loop, stored by the store."""

import pandas as pd
import pytest
from rich.console import Console

from arena.cli.app import main
from arena.referee import play_game, GameSettings
from arena.reports.output import print_report, print_summary, write_report
from arena.reports.render import load
from arena.results.store import Store
from bots.random import RandomBot
from tests.fixtures.broken_bots import Raiser
from tests.toy import Nim

LABELS = ["a", "b", "c"]


@pytest.fixture
def database(tmp_path):
    """Six games of 3-player Nim between random bots (seats rotated), and one game that the
    bot ``c`` loses by raising an exception."""
    game = Nim(players=3, pile=12)
    with Store.open(tmp_path, "nim3") as store:
        store.begin("nim3", "nim", {"players": 3, "pile": 12}, 3, 5, {"games": 7},
                    [(lab, "random") for lab in LABELS], 7)
        for game_id in range(1, 7):
            seats = LABELS[game_id % 3:] + LABELS[:game_id % 3]
            bots = [RandomBot() for _ in seats]
            record = play_game(GameSettings(game, 100 + game_id, labels=seats), bots)
            store.add_game(game_id, (game_id - 1) // 3, record)
        record = play_game(GameSettings(game, 7, labels=LABELS), [RandomBot(), RandomBot(), Raiser()])
        store.add_game(7, 2, record)
        path = store.path
    return path


def test_load_real_database(database):
    data = load(database)
    assert len(data.games) == 7 and data.num_players == 3 and data.order == LABELS
    assert data.games.loc[data.games.game_id == 7, "fault_detail"].iloc[0].startswith("RuntimeError")


def test_print_and_write_real_report(database):
    console = Console(width=160, record=True)
    print_report(database, console)
    text = console.export_text()
    assert "Seat advantage" in text and "chi-square of equal win shares over 7 games" in text
    assert "c exception in 1 game(s), e.g. game 7" in text and "bot bug" in text
    paths = write_report(database)
    assert paths[0].name == "nim3.report.md" and all(p.parent == database.parent for p in paths)
    board = pd.read_csv(database.parent / "nim3.leaderboard.csv")
    assert sorted(board["label"]) == LABELS and board["games"].tolist() == [7, 7, 7]
    assert (board["wins"] + board["draws"] + board["losses"]).tolist() == [7, 7, 7]
    seats = pd.read_csv(database.parent / "nim3.seat_advantage.csv")
    assert seats["win_share"].sum() == pytest.approx(1.0)
    summary = Console(width=160, record=True)
    print_summary(database, summary)
    assert "Crosstable" not in summary.export_text()


def test_cli_report(database, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "nim3", "--results", str(database.parent), "-s", "leaderboard"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "Leaderboard" in out and "Game lengths" not in out
    assert not (database.parent / "nim3.search.csv").exists()  # a section alone writes nothing by default
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "nim3", "--results", str(database.parent), "-s", "leaderboard", "--write"])
    assert exit_info.value.code == 0
    assert (database.parent / "nim3.search.csv").is_file()

"""``--trace-engines`` shows each engine only its own view (issue 42): OpenSpiel's games with
hidden information and simultaneous moves, random bots under ``--isolation process`` (and Kuhn
poker through an ``exec:`` shell engine). The trace is read back from the tournament log and
every ``view`` and ``legal`` line sent to an engine is compared with what pyspiel itself gives
that engine's seat at that ply of the stored game: its information-state string (its
observation string where the game has none) and its legal actions in the arena's notation. No
``position`` line (the full state) is ever sent."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from arena.engine.protocol import format_view  # noqa: E402 - after the skip without OpenSpiel
from arena.errors import BotSpecError  # noqa: E402
from arena.games import SIMULTANEOUS  # noqa: E402
from arena.games.openspiel.state import move_table  # noqa: E402
from arena.tournament import build, run_tournament  # noqa: E402
from arena.results.packed import register  # noqa: E402

HERE = Path(__file__).parent
VIEW_ENGINE = HERE / "view_engine.sh"
#: the games of the issue's "done when": sequential with chance (cards, dice), sequential without
#: (phantom and dark boards), simultaneous with chance (goofspiel's point cards) and without
GAMES = ("kuhn_poker", "liars_dice", "phantom_ttt", "dark_hex", "goofspiel", "oshi_zumo", "matrix_rps")
#: a trace record: ``LABEL > line`` (to the engine) after the log's own prefix
TRACE = re.compile(r"arena\.worker\.engine\.trace INFO (\S+) ([<>]) (.*)$")


def owed(name: str, moves: list[str], seat: int) -> list[str]:
    """The ``view`` and ``legal`` lines 0-based ``seat`` is owed along a stored game's ``moves``
    (chance outcomes and joint actions included), from pyspiel alone."""
    game = pyspiel.load_game(name)
    info = game.get_type().provides_information_state_string
    state = game.new_initial_state()
    lines: list[str] = []

    def ask(to_move: int) -> None:
        text = state.information_state_string(seat) if info else state.observation_string(seat)
        own = move_table(state, seat, state.legal_actions(seat))
        lines.extend([format_view(to_move, text), "legal " + " ".join(own)])
    for move in moves:
        if state.is_chance_node():
            state.apply_action(move_table(state, -1, [a for a, _ in state.chance_outcomes()])[move])
        elif state.is_simultaneous_node():
            ask(SIMULTANEOUS)
            state.apply_actions([move_table(state, p, state.legal_actions(p))[m] for p, m in enumerate(move.split())])
        else:
            player = state.current_player()
            if player == seat:
                ask(seat)
            state.apply_action(move_table(state, player, state.legal_actions(player))[move])
    assert state.is_terminal(), (name, moves)
    return lines


def sent(log: str) -> tuple[Counter, list[str]]:
    """(a count of (label, seat, the view and legal lines) of each game an engine was sent,
    every other line the arena sent)."""
    blocks: Counter = Counter()
    current: dict[str, list] = {}
    others: list[str] = []
    for row in log.splitlines():
        found = TRACE.search(row)
        if not found or found.group(2) != ">":
            continue
        label, line = found.group(1), found.group(3)
        word = line.split()[0] if line.split() else ""
        if word == "newgame":
            if current.get(label) and current[label][0] is not None:
                blocks[(label, current[label][0], tuple(current[label][1]))] += 1
            current[label] = [None, []]
        elif word == "seat":
            current[label][0] = int(line.split()[1])
        elif word in ("view", "legal"):
            current[label][1].append(line)
        else:
            others.append(line)
    for label, (seat, lines) in current.items():
        if seat is not None:
            blocks[(label, seat, tuple(lines))] += 1
    return blocks, others


def stored(db: Path) -> list[tuple[list[str], list[str]]]:
    conn = sqlite3.connect(db)
    register(conn)  # the packed column's SQL functions
    rows = conn.execute("SELECT seats, arena_moves(packed) FROM games ORDER BY game_id").fetchall()
    return [(json.loads(seats), json.loads(moves)) for seats, moves in rows]


def play(tmp_path: Path, name: str, bots: list[str], games: int) -> tuple[list, str]:
    results = tmp_path / "results"
    cfg = build(dict(game=f"openspiel:{name}", bots=bots, games=games, workers=1, results=str(results),
                     name=name, isolation="process", trace_engines=True, opening_plies=0, seed=7))
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == games
    return stored(results / f"{name}.sqlite"), (results / f"{name}.log").read_text()


def check(name: str, games: list, log: str, labels: tuple[str, ...]) -> None:
    blocks, others = sent(log)
    assert not [line for line in others if line.startswith("position")], "a full position was sent"
    expected: Counter = Counter()
    for seats, moves in games:
        for seat, label in enumerate(seats):
            if label in labels:
                expected[(label, seat, tuple(owed(name, moves, seat)))] += 1
    assert blocks == expected
    views = sum(len(lines) // 2 for (_, _, lines), n in blocks.items() for _ in range(n))
    assert views >= len(games)  # every game asked some engine for a move


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_each_isolated_engine_is_sent_only_its_own_views(tmp_path, name):
    games, log = play(tmp_path, name, ["a=random", "b=random"], 4)
    check(name, games, log, ("a", "b"))


def test_kuhn_poker_views_to_an_isolated_bot_and_an_exec_engine(tmp_path):
    games, log = play(tmp_path, "kuhn_poker", [f"sh=exec:{VIEW_ENGINE}", "a=random"], 4)
    check("kuhn_poker", games, log, ("sh", "a"))
    assert "sh < aepok 3" in log and "a < aepok 3" in log


def test_a_bot_that_samples_states_plays_in_process_and_is_refused_isolated(tmp_path):
    """A view sent over the protocol has no sampler: a bot that samples states from its view is
    refused before the first game under ``--isolation process``, in one line that says so; in
    process it plays (Kuhn poker's views sample)."""
    field = ["random", f"s={HERE / 'hidden_games.py'}#Sampler"]
    cfg = build(dict(game="openspiel:kuhn_poker", bots=field, games=2, workers=1, results=str(tmp_path / "in"),
                     name="in", opening_plies=0))
    summary = run_tournament(cfg)
    faults = sqlite3.connect(tmp_path / "in" / "in.sqlite").execute("SELECT fault_seat FROM games").fetchall()
    assert summary.stored == 2 and faults == [(None,), (None,)]
    cfg = build(dict(game="openspiel:kuhn_poker", bots=field, games=2, workers=1, results=str(tmp_path / "iso"),
                     name="iso", isolation="process", opening_plies=0))
    with pytest.raises(BotSpecError) as caught:
        run_tournament(cfg)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"bot '{field[1]}' cannot play openspiel:kuhn_poker in its "
                                                      "isolated engine process (--isolation process): it cannot play "
                                                      "from a view sent over the protocol: exception "
                                                      "NotImplementedError: ")
    assert "has no sampler (the states behind it never leave the arena)" in message
    assert not (tmp_path / "iso" / "iso.sqlite").exists()

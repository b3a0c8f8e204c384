"""The speed bench's loops count what they claim, and its ratios are measured, not asserted."""

from __future__ import annotations

import random

import arena.games
from arena.bench import MODULES, speed
from arena.bench import search as search_bench


def test_perft_counts_every_move_to_depth_two():
    for name in ("interaction", "sandpile"):
        state = arena.games.make(name).initial_state()
        expected = sum(1 + len(state.play(m).legal_moves()) for m in state.legal_moves())
        assert speed.perft(state) == expected


def test_random_playouts_play_the_horizon_and_count():
    from bots.mcts import MCTSBot

    game = arena.games.make("interaction")
    state = game.initial_state()
    seen = []
    assert speed.random_playouts(state, 3, lambda s: seen.append(s), random.Random(1)) == 3
    assert [s.ply for s in seen] == [MCTSBot.DEFAULT_HORIZON] * 3  # evaluated after the horizon
    assert len({s.to_text() for s in seen}) > 1  # random, seeded


def test_searched_keeps_positions_without_a_decisive_or_only_move():
    states = search_bench.positions(8)
    kept = speed.searched(states)
    assert kept and all(len(s.legal_moves()) > 1 for s in kept)
    assert all(not any(s.play(m).is_terminal() for m in s.legal_moves()) for s in kept)


def test_paired_runs_bot_and_loop_for_as_long():
    states = search_bench.positions(2)
    bot_n, bot_s, loop_n, loop_s = speed.paired("interaction", "alphabeta:depth=2", states, speed.perft)
    assert bot_n > 0 and loop_n > 0 and loop_s >= bot_s > 0
    r, a, b = speed.ratio("interaction", "alphabeta:depth=1", states, speed.perft, 1)
    assert r > 0 and abs(r - a / b) < 1e-9
    assert "speed" in MODULES


def test_the_loop_walks_the_positions_in_turn_from_the_bots_own():
    """``paired``'s loop never repeats one position back to back (a loop over one position
    reads faster than the same work on changing positions): it walks the list round from the
    position the bot just searched, for at least as long as the bot took."""
    import time

    states = ["a", "b", "c"]
    walked: list[tuple[str, str]] = []
    current = []

    def prepare(i, state):
        def work():
            current[:] = [state]
            end = time.process_time() + 0.002  # a bot that takes 2 ms of CPU
            while time.process_time() < end:
                pass
            return 1
        return work

    def loop(state):
        walked.append((current[0], state))
        return 1

    bot_n, bot_s, loop_n, loop_s = speed._paired(prepare, states, loop)
    assert bot_n == 3 and loop_n == len(walked) > 3 and loop_s >= bot_s
    for bot_state in states:
        seen = [s for b, s in walked if b == bot_state]
        start = states.index(bot_state)
        assert seen == [states[(start + k) % 3] for k in range(len(seen))]  # in turn, from its own


def test_self_check_times_the_bare_loop_against_itself():
    r, a, b = speed.self_check(search_bench.positions(2), 1)
    assert r > 0 and abs(r - a / b) < 1e-9 and a > 0 and b > 0


def test_ratio_is_the_median_run_by_its_own_ratio(monkeypatch):
    """Each run's ratio is taken within the run (bot and loop in the same seconds); the figure
    is the median run's, never the best bot run over the best loop run of other runs."""
    runs = iter([(100, 1.0, 200, 1.0), (90, 1.0, 100, 1.0), (300, 1.0, 400, 1.0)])  # 0.5, 0.9, 0.75
    monkeypatch.setattr(speed, "paired", lambda *args: next(runs))
    assert speed.ratio("interaction", "alphabeta", [], speed.perft, 3) == (0.75, 300.0, 400.0)

"""The language-model bench (``--only llm``) measures; it never asserts a speed."""

import re

import pytest

from arena.bench import MODULES, llm


@pytest.mark.slow
def test_the_cost_per_move_is_measured_against_the_raw_round_trip():
    raw, over = llm.cost_per_move(quick=True)
    assert raw.unit == over.unit == "ms" and raw.value > 0 and over.goal == "≤ 2"
    assert "per model move in all" in over.note and "llm" in MODULES


def test_the_process_tree_memory_counts_this_process():
    assert llm._tree_rss() >= 10 * 2**20


@pytest.mark.slow
def test_games_at_once_are_measured_over_the_whole_run():
    """The goal figure is the whole run's rate (its start and the last games' tail included),
    not a window of it: the value is the note's moves over its seconds."""
    rate, memory = llm.at_once(quick=True)
    moves, games, seconds = re.match(r"(\d+) model moves of (\d+) games in ([0-9.]+)s", rate.note).groups()
    assert "the whole run" in rate.name and int(games) == 32
    assert rate.value == pytest.approx(int(moves) / float(seconds), rel=0.01)
    assert memory.unit == "MiB" and memory.value > 0

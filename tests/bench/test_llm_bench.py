"""The language-model bench (``--only llm``) measures; it never asserts a speed."""

import pytest

from arena.bench import MODULES, llm


@pytest.mark.slow
def test_the_cost_per_move_is_measured_against_the_raw_round_trip():
    raw, over = llm.cost_per_move(quick=True)
    assert raw.unit == over.unit == "ms" and raw.value > 0 and over.goal == "≤ 2"
    assert "per model move in all" in over.note and "llm" in MODULES


def test_the_process_tree_memory_counts_this_process():
    assert llm._tree_rss() >= 10 * 2**20

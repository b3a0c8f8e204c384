"""The pair table marks the intervals the coverage bench found below their nominal 95%
(``docs/statistics.md`` "Coverage of the intervals"): the Elo interval of pairings with few
game pairs, and nElo ± always."""

import pandas as pd

from arena.reports import pairs


def _table(pair_counts: dict[str, int]) -> pd.DataFrame:
    return pd.DataFrame({"pairing": list(pair_counts), "pairs": list(pair_counts.values())})


def test_pairings_with_few_game_pairs_are_named_and_nelo_is_always_marked():
    lines = pairs.coverage_note(_table({"a vs b": 10, "a vs c": 100, "b vs c": 29}))
    assert len(lines) == 2
    assert "a vs b, b vs c" in lines[0] and "a vs c" not in lines[0] and "fewer than 30 game pairs" in lines[0]
    assert lines[1].startswith("mark: nElo ±")


def test_enough_pairs_everywhere_leaves_only_the_nelo_mark_and_an_empty_table_none():
    assert [line[:13] for line in pairs.coverage_note(_table({"a vs b": 30, "a vs c": 500}))] == ["mark: nElo ± "]
    assert pairs.coverage_note(_table({})) == []


def test_many_few_pair_pairings_are_cut_to_a_count():
    line = pairs.coverage_note(_table({f"p{i}": 5 for i in range(7)}))[0]
    assert "p0, p1, p2 and 4 more" in line


def test_a_run_ended_by_a_sequential_rule_marks_its_intervals(tmp_path):
    from arena.reports.data import load
    from arena.reports.notes import notes
    from arena.tournament import build, run_tournament

    def marks(**given):
        cfg = build({"game": "interaction", "bots": ["random", "greedy"], "results": str(tmp_path), "seed": 3, **given})
        data = load(run_tournament(cfg).path)
        return [line for name in ("pairs", "ratings") for line in notes(data, name) if "stopped early" in line]

    assert marks(games=8, name="fixed") == []
    sprt = marks(games=60, sprt="elo0=0,elo1=200", name="sprt")
    assert len(sprt) == 2 and all("--sprt" in line for line in sprt)


def test_a_game_whose_series_share_luck_marks_the_per_game_wilson_interval():
    from arena.reports.notes import shares_luck

    assert shares_luck("known") and shares_luck("ricochet")  # chance nodes; a seeded setup
    assert not shares_luck("interaction") and not shares_luck("sandpile") and not shares_luck("no-such-game")

from arena.bench import search


def test_positions_are_seeded_and_live():
    a, b = search.positions(5), search.positions(5)
    assert [s.to_text() for s in a] == [s.to_text() for s in b]
    assert not any(s.is_terminal() for s in a)


def test_quick_run_reports_positive_figures():
    figures = search.run(quick=True)
    names = [f.name for f in figures]
    assert "interaction alpha-beta depth 4" in names and any("mcts" in n for n in names)
    assert any(f.area == "playouts" and f.name == "interaction random games" for f in figures)
    assert all(f.value > 0 for f in figures)
    ab = next(f for f in figures if f.unit == "nodes/s")
    assert ab.goal == "≥ 50000"

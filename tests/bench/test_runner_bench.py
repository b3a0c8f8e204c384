"""The runner bench (``--only runner``) measures; it never asserts a speed."""

from arena.bench import runner


def test_the_overhead_figures_show_the_stores_insert_apart():
    figures = runner.overhead(20)
    by_name = {f.name: f for f in figures}
    total = by_name["arena overhead per game, CPU (runner + worker)"]
    apart = by_name["arena overhead per game, CPU, less the store's insert (Store.add_games)"]
    assert total.goal == "≤ 0.3" and "the store's insert" in total.note
    store = float(apart.note.split("commit ")[1].split(" ms")[0])
    assert store > 0 and abs(total.value - apart.value - store) < 0.01


def test_the_plain_loop_plays_built_in_bots_as_the_worker_does():
    import arena.games
    from arena.tournament import build, plan
    cfg = build({"game": "interaction", "bots": ["random", "r2=random"], "games": 2, "workers": 1,
                 "results": "unused"})
    p = plan(cfg)
    game = arena.games.make("interaction")
    assert runner.worker_settings(game, p.tasks[0], p.specs).trusted
    specs = {**p.specs, "r2": p.specs["r2"].__class__(**{**p.specs["r2"].__dict__, "kind": "tests/x.py#Bot"})}
    assert not runner.worker_settings(game, p.tasks[0], specs).trusted

import pytest

import bots
from arena.errors import BotSpecError
from bots.registry import assign_labels, parse_spec


def test_parse_spec_forms():
    s = parse_spec("ab3=alphabeta:depth=3,time=0.5")
    assert (s.label, s.kind, s.options) == ("ab3", "alphabeta", {"depth": "3", "time": "0.5"})
    assert parse_spec("random").label == "random"
    assert parse_spec("mcts:playouts=400").label == "mcts:playouts=400"
    f = parse_spec("mine=path/to/bot.py#MyBot:x=1")
    assert (f.kind, f.options) == ("path/to/bot.py#MyBot", {"x": "1"})


@pytest.mark.parametrize("bad", ["", "=random", "a b=random", "random:depth", "random:=3", "random:a=1,a=2"])
def test_bad_specs(bad):
    with pytest.raises(BotSpecError):
        parse_spec(bad)


def test_unknown_kind_lists_accepted():
    with pytest.raises(BotSpecError, match="accepted: .*random"):
        bots.make("nosuchbot")


def test_unknown_option_names_key():
    with pytest.raises(BotSpecError, match="unknown parameter 'depth'.*accepted"):
        bots.make("random:depth=3")


@pytest.mark.parametrize("spec", ["alphabeta:depth=65", "alphabeta:depth=99999999999999999999", "alphabeta:depth=0",
                                  "paranoid:depth=65", "brs:depth=100", "maxn:depth=65"])
def test_search_depth_is_bounded(spec):
    """A search's depth is 1 to 64 plies: a mistyped huge depth is refused at once (alpha-beta
    keeps a table per ply of depth: 10**20 plies once filled the machine's memory)."""
    from arena.errors import ArenaError

    with pytest.raises(ArenaError, match="accepted: 1 to 64"):
        bots.make(spec)
    bots.make(spec.split("=")[0] + "=64")


def test_repeated_specs_numbered():
    labels = [s.label for s in assign_labels(["random", "random", "x=random", "random"])]
    assert labels == ["random", "random#2", "x", "random#3"]
    with pytest.raises(BotSpecError):
        assign_labels(["x=random", "x=random"])


@pytest.mark.parametrize("specs", [["random=greedy", "random"], ["random", "random=greedy"],
                                   ["greedy", "x=random", "greedy=mcts:playouts=10"]])
def test_an_explicit_label_that_is_another_specs_default_label_is_refused(specs):
    """``random=greedy`` beside ``random`` renamed the real random ``random#2``."""
    with pytest.raises(BotSpecError, match=r"bot label '\w+' of '[^']+' is also the label of '[^']+'; give one of "
                                           r"them a label of its own: NAME=SPEC"):
        assign_labels(specs)


def test_a_repeat_label_reads_as_its_spec():
    """``#2`` after the spec, not ``-2`` (``depth=1-2`` read as the option's value); the label
    a store written before had is ``legacy_repeat_label``'s."""
    from bots.registry import legacy_repeat_label

    first, second = assign_labels(["alphabeta:depth=1", "alphabeta:depth=1"])
    assert (first.label, second.label) == ("alphabeta:depth=1", "alphabeta:depth=1#2")
    assert legacy_repeat_label(second) == "alphabeta:depth=1-2" and legacy_repeat_label(first) is None
    assert legacy_repeat_label(assign_labels(["x=random"])[0]) is None


def test_file_and_dotted_path(tmp_path):
    f = tmp_path / "mybot.py"
    f.write_text("class First:\n    def choose(self, state, limits):\n        return state.legal_moves()[0]\n")
    bot = bots.make(f"me={f}#First")
    assert bot.label == "me"
    assert type(bots.make("bots.random.RandomBot")).__name__ == "RandomBot"
    with pytest.raises(BotSpecError):
        bots.make(f"{f}#Missing")
    with pytest.raises(BotSpecError):
        bots.make("no.such.module.Bot")


def test_a_file_without_a_class_asks_for_the_class(tmp_path, monkeypatch):
    from bots.registry import bot_class
    (tmp_path / "mybot.py").write_text("class FirstMove:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BotSpecError) as info:
        bot_class("mybot.py")
    text = str(info.value)
    assert "needs a class: give it as mybot.py#ClassName" in text and "No module" not in text and "#py" not in text
    with pytest.raises(BotSpecError, match="no such file"):
        bot_class("other.py")


def test_a_bad_bot_option_has_one_bot_prefix():
    from bots.registry import make
    with pytest.raises(BotSpecError) as info:
        make("alphabeta:depth=abc")
    assert str(info.value).startswith("bot 'alphabeta:depth=abc': parameter depth='abc'")
    assert str(info.value).count("bot ") == 1


@pytest.mark.parametrize(("spec", "accepted"), [
    ("alphabeta:depth=\u0969", "accepted: an integer in ASCII digits"),   # a Devanagari three
    ("alphabeta:depth=1_000", "accepted: an integer in ASCII digits"),
    ("alphabeta:time=\u0661.5", "accepted: a finite number in ASCII digits"),  # an Arabic-Indic one
    ("alphabeta:time=0_5", "accepted: a finite number in ASCII digits"),
])
def test_numbers_in_a_bot_spec_are_ascii_digits_only(spec, accepted):
    from bots.registry import make
    with pytest.raises(BotSpecError, match=accepted) as info:
        make(spec)
    name = spec.split(":")[1].split("=")[0]
    assert f"parameter {name}=" in str(info.value) and "\n" not in str(info.value)


def test_numbers_in_a_bot_spec_keep_their_sign_point_and_exponent():
    from bots.registry import make
    assert make("alphabeta:depth=+3,time=.5").options == {"depth": 3, "nodes": None, "time": 0.5, "tt": 200_000}
    assert make("alphabeta:time=2e-1").options["time"] == 0.2


# --- register(): third-party kinds at run time, beside the entry points --------------------------------


@pytest.fixture
def clean_registry(monkeypatch):
    """``register`` writes process-wide tables: give each test its own."""
    from bots import kinds, registry
    monkeypatch.setattr(kinds, "_REGISTERED", {})
    monkeypatch.setattr(kinds, "_REGISTERED_PREFIXES", {})
    return registry


def test_register_a_class_and_a_lazy_target(clean_registry):
    from bots.random import RandomBot
    bots.register("my-random", RandomBot)
    bots.register("my-greedy", "bots.greedy:GreedyBot")
    assert {"my-random", "my-greedy"} <= set(bots.names())
    assert type(bots.make("x=my-random")).__name__ == "RandomBot"
    assert bots.make("my-random").label == "my-random"
    assert type(bots.make("my-greedy")).__name__ == "GreedyBot"
    bots.register("my-random", RandomBot)  # the same again: no error


def test_register_refuses_clashes_and_bad_names(clean_registry):
    from bots.random import RandomBot
    with pytest.raises(BotSpecError, match="already registered"):
        bots.register("alphabeta", RandomBot)
    bots.register("mine", RandomBot)
    with pytest.raises(BotSpecError, match="already registered"):
        bots.register("mine", "bots.greedy:GreedyBot")
    for bad in ("", "a.b", "x:y", "has space"):
        with pytest.raises(BotSpecError, match="bad bot kind"):
            bots.register(bad, RandomBot)
    with pytest.raises(BotSpecError, match="not 'module:attr'"):
        bots.register("lazy", "bots.greedy.GreedyBot")


def test_register_a_prefix_kind(clean_registry):
    """A prefix kind takes an argument (like exec:PATH): the factory makes the class from it,
    the options after the last ':' go to the class."""
    from bots.random import RandomBot
    made = []

    def factory(argument: str) -> type:
        made.append(argument)
        return type(f"Seeded_{argument}", (RandomBot,), {})

    bots.register("seeded", factory, prefix=True)
    assert "seeded" in clean_registry.prefix_kinds() and "seeded" not in bots.names()
    spec = parse_spec("s=seeded:alpha:seed=3")
    assert (spec.label, spec.kind, spec.options) == ("s", "seeded:alpha", {"seed": "3"})
    bot = bots.make("seeded:beta")
    assert type(bot).__name__ == "Seeded_beta" and bot.label == "seeded:beta" and made == ["beta"]
    with pytest.raises(BotSpecError, match="has no argument; expected seeded:ARGUMENT"):
        parse_spec("seeded:")


def test_bots_never_import_the_engine():
    """exec: is registered by the arena distribution's entry point (arena.bot_prefixes), so
    importing and using the registry does not load arena.engine."""
    import subprocess
    import sys
    code = ("import sys, bots; bots.make('random'); bots.names(); "
            "print(sorted(m for m in sys.modules if m.startswith('arena.engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_entry_points_are_read_once_per_process_and_register_still_works(monkeypatch):
    """``make`` and ``names`` read the ``arena.bots`` entry points once (about 25 ms a scan),
    not on every call; a kind given to ``register`` afterwards is found all the same."""
    import bots.kinds as kinds
    import bots.registry as registry
    from bots.random import RandomBot

    scans: list[str] = []
    real = kinds.entry_points

    def counted(group):
        scans.append(group)
        return real(group=group)

    monkeypatch.setattr(kinds, "entry_points", counted)
    kinds._entry_points.cache_clear()
    try:
        for _ in range(5):
            registry.make("random")
            registry.names()
            with pytest.raises(BotSpecError):
                registry.make("no-such-kind")
        assert scans.count(registry.GROUP) == 1
        monkeypatch.setattr(kinds, "_REGISTERED", dict(kinds._REGISTERED))  # undone after the test
        registry.register("once-more", RandomBot)
        assert type(registry.make("once-more")) is RandomBot and "once-more" in registry.names()
        assert scans.count(registry.GROUP) == 1
    finally:
        kinds._entry_points.cache_clear()  # the next reader scans the real entry points again


def test_a_seat_the_arena_fills_is_numbered_past_a_label_it_shares():
    """``arena play --bot random=greedy`` fills the other seat with ``random`` itself: not refused."""
    assert [s.label for s in assign_labels(["random=greedy", "random"], typed=1)] == ["random", "random#2"]

"""The protocol's message texts (``docs/engine-protocol.md`` "Messages"; UCI forms where it is silent)."""

from hypothesis import given, strategies as st

from arena.engine.protocol import (Go, Handshake, Info, format_info, format_newgame, parse_go, parse_info,
                                   parse_newgame, parse_option)


def test_info_fields_in_any_order_and_uci_forms():
    assert parse_info("info depth 3 nodes 120 score 1.5 pv a b string hi there") == \
        Info(depth=3, nodes=120, score=1.5, pv=("a", "b"), string="hi there")
    assert parse_info("info nodes 7 score cp -25 time 40 seldepth 9 depth 2") == \
        Info(depth=2, nodes=7, score=-25.0, seconds=0.04)
    assert parse_info("info score mate 3 nodes 5").score is None  # no number to store for a mate score
    assert parse_info("info depth x nodes 4") == Info(nodes=4)  # a bad number is skipped
    assert parse_info("info depth 3 nodes 9 depth 5 pv a nodes 1") == Info(depth=5, nodes=1, pv=("a",))  # later wins
    assert parse_info("info depth") == Info() and parse_info("info") == Info()
    assert parse_info("info nps 900 hashfull 5 multipv 1 score cp") == Info()  # UCI fields with a value: skipped


def test_info_round_trips_the_stats_fields():
    assert parse_info(format_info(4, 1000, 0.25, 0.123)) == Info(depth=4, nodes=1000, score=0.25, seconds=0.123)
    assert format_info(None, 3, None, None) == "info nodes 3"


def test_later_info_lines_win():
    a, b = parse_info("info depth 1 nodes 10 score 3"), parse_info("info depth 2 nodes 30")
    assert a.merge(b) == Info(depth=2, nodes=30, score=3.0)
    assert Info().merge(b) == b and b.merge(Info()) == b
    assert Info(pv=("x",), string="s").merge(Info(depth=0, string="")) == Info(depth=0, pv=("x",), string="")


def test_go_line_in_milliseconds():
    assert Go(0.25, 1000, None).line() == "go movetime 250 nodes 1000"
    assert Go().line() == "go"
    assert parse_go("go movetime 250 nodes 1000 depth 3") == Go(0.25, 1000, 3)
    assert parse_go("go wtime 1000 btime 1000") == Go()  # UCI clock words: ignored


def test_newgame_is_one_line_json():
    line = format_newgame("sandpile", {"size": 6, "wrap": "torus"})
    assert line == 'newgame sandpile {"size":6,"wrap":"torus"}'
    assert parse_newgame(line) == ("sandpile", {"size": 6, "wrap": "torus"})
    assert parse_newgame("newgame interaction") == ("interaction", {})


def test_options_and_ids_of_the_handshake():
    hs = Handshake()
    for line in ("id name Stockfish 16", "option name Hash type int default 16", "option name Mode type string default",
                 "copyprotection ok"):
        hs.read(line)
    assert hs.ids == {"name": "Stockfish 16"}
    assert hs.options["Hash"].type == "int" and hs.options["Hash"].default == "16"
    assert hs.options["Mode"].default == "" and hs.other == ["copyprotection ok"]
    assert parse_option("option type int") is None


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_parsers_never_raise_on_any_line(text):
    parse_info("info " + text)
    parse_go("go " + text)
    parse_option("option " + text)

"""The ``human`` bot: entries re-asked with the reason until legal, ``quit`` and end of input
resign (``resigned``), the seat's view only in a game with hidden information, no clock unless
one is set."""

from __future__ import annotations

import io

import arena.games
from arena.games import View
from arena.referee import GameSettings, referee_game
from arena.referee.records import Termination
from bots.base import Limits
from bots.clock import Clock
from bots.human import Human, MoveSource, TerminalSource, seconds_left
from bots.random import RandomBot
from bots.registry import make
from tests.bots.hidden_games import Kuhn


class Scripted:
    """A ``MoveSource`` that answers from a list and keeps every ask."""

    def __init__(self, answers: list[str | None]) -> None:
        self.answers, self.asks = list(answers), []

    def ask(self, position, seat, legal_moves, seconds_left, problem=None):
        self.asks.append((position, seat, list(legal_moves), seconds_left, problem))
        return self.answers.pop(0) if self.answers else None


def _game(settings_game, bots, **extra):
    labels = tuple(f"b{i}" for i in range(len(bots)))
    return referee_game(GameSettings(settings_game, 1, labels=labels, **extra), bots)


def test_an_illegal_entry_is_asked_again_with_the_reason_then_played():
    g = arena.games.make("interaction")
    first = g.initial_state(1).legal_moves()[0]
    source = Scripted(["zz9", "  ", str(first)])
    human = Human(source=source)
    record = _game(g, [human, RandomBot()], limits=(Limits(), Limits()))
    assert record.moves[0] == str(first)
    problems = [ask[4] for ask in source.asks[:3]]
    assert problems[0] is None and "'zz9'" in problems[1] and "nothing typed" in problems[2]
    assert source.asks[0][3] is None  # no clock: no seconds left
    assert record.outcome.termination == Termination.RESIGNED  # the script ran out: input ended
    assert record.fault_seat == 0 and record.outcome.ranks == (2, 1)


def test_quit_resigns_and_the_seat_loses():
    g = arena.games.make("interaction")
    record = _game(g, [RandomBot(), Human(source=Scripted([" QUIT "]))])
    assert record.outcome.termination == "resigned" and record.fault_seat == 1
    assert record.outcome.ranks == (1, 2) and "typed 'QUIT'" in (record.fault_detail or "")


def test_the_terminal_source_prints_the_moves_and_reads_a_line_end_of_input_resigns():
    g = arena.games.make("interaction")
    first = str(g.initial_state(1).legal_moves()[0])
    out = io.StringIO()
    human = Human(source=TerminalSource(io.StringIO(f"{first}\n"), out))
    record = _game(g, [human, RandomBot()])
    shown = out.getvalue()
    assert f"legal moves ({len(g.initial_state(1).legal_moves())}): {first}" in shown
    assert "seat 0 to move; type a move, or quit to resign>" in shown
    assert record.moves[0] == first and record.outcome.termination == "resigned"
    assert "its input ended" in (record.fault_detail or "")


def test_a_hidden_information_game_shows_the_seat_its_view_only():
    source = Scripted(["Bet", "Bet"])
    record = _game(Kuhn(), [Human(source=source), RandomBot()])
    own, other = record.moves[:2]  # the deal: chance plies
    position = source.asks[0][0]
    assert isinstance(position, View) and position.seat == 0
    assert own in position.text and other not in position.text
    assert source.asks[0][2] == ["Pass", "Bet"] and record.moves[2] == "Bet"


def test_seconds_left_is_the_move_time_or_the_clock_the_smaller():
    clock = Clock(remaining=(30.0, None), increment=(0.0, 0.0), moves_to_go=(None, None))
    assert seconds_left(None, 0) is None and seconds_left(Limits(), 0) is None
    assert seconds_left(Limits(time=5.0, clock=clock), 0) == 5.0
    assert seconds_left(Limits(clock=clock), 0) == 30.0
    assert seconds_left(Limits(clock=clock), 1) is None


def test_the_kind_is_registered_and_plays_any_game():
    bot = make("human:name=ada")
    assert isinstance(bot, Human) and isinstance(bot.source, TerminalSource)
    assert isinstance(bot.source, MoveSource) and bot.options["name"] == "ada"
    assert Human.PLAYS.refusal(Kuhn()) is None

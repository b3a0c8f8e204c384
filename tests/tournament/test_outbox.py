"""The worker's ``Outbox``: records of games among the arena's own bots go on the wire as they
are (``exact``), the same values as the checked conversion; a value that is no plain type after
all is converted, not lost."""

import marshal
import multiprocessing

from arena.referee import GameEnded, GameSettings, message_from_wire, message_to_wire, play_game
from arena.tournament.outbox import Outbox
from bots.random import RandomBot

import arena.games


class Text(str):
    pass


def _record(seed: int):
    game = arena.games.make("interaction")
    return play_game(GameSettings(game, seed, labels=("a", "b"), opening=("i4N",), trusted=True),
                     [RandomBot(), RandomBot()])


def _group(records, exact, limit):
    ours, theirs = multiprocessing.Pipe()
    outbox = Outbox(ours, limit=limit, seconds=60.0)
    for i, record in enumerate(records):
        outbox.add(GameEnded(i, record), exact=exact)
    assert theirs.poll(5)
    return [message_from_wire(values) for values in marshal.loads(theirs.recv_bytes())]


def _types(values) -> set:
    if isinstance(values, tuple):
        return set().union(*map(_types, values)) if values else set()
    return {type(values)}


def test_an_exact_record_goes_as_the_checked_conversion_would_send_it():
    records = [_record(seed) for seed in (1, 2)]
    exact = [message_to_wire(GameEnded(i, r), exact=True) for i, r in enumerate(records)]
    assert exact == [message_to_wire(GameEnded(i, r)) for i, r in enumerate(records)]
    assert _types(tuple(exact)) <= {str, int, float, type(None)}  # what play_game makes: plain values only
    assert [e.record for e in _group(records, exact=True, limit=2)] == records


def test_a_value_no_plain_type_reads_in_an_exact_record_is_converted_not_lost():
    record = _record(3)
    stats = list(record.move_stats)
    stats[-1] = stats[-1]._replace(move=Text(stats[-1].move))  # marshal refuses a str subclass
    odd = type(record)(**{**record.__dict__, "move_stats": tuple(stats)})
    first = _record(4)
    got = _group([first, odd], exact=True, limit=2)
    assert got[1].record.move_stats[-1].move == record.move_stats[-1].move
    assert type(got[1].record.move_stats[-1].move) is str
    assert got[0].record == first

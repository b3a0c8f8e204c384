"""The Ricochet search's transposition table (``bots/ricochet_search.py``, module docstring):
its memory kept from search to search, entries of other searches counted as empty, the few
buckets of a small search side by side until they are spread to their own places. None of it
may change the search: the same moves, node counts and depths as with a fresh table."""

from __future__ import annotations

import pickle

from arena.bench.ricochet import random_puzzles
from arena.games.ricochet import Puzzle
from bots import kernels, ricochet
from bots.ricochet import _ida

#: plain boards (four and five robots, vortex targets among them) and boards with barriers
PUZZLES = random_puzzles(24, seed=21) + random_puzzles(8, seed=22, robots=5) + \
    random_puzzles(8, seed=23, diagonals=2)


def test_spreading_the_few_buckets_early_changes_nothing(monkeypatch):
    """The plain-Python build reads ``SMALL`` at run time (the search's and ``ricochet_table``'s):
    with 8 places the buckets are spread after four, in every search here (the compiled build
    spreads after 512)."""
    plain = kernels.plain(ricochet.SEARCH)
    monkeypatch.setattr(plain, "SMALL", 8)
    monkeypatch.setattr(kernels.plain(plain.TABLE), "SMALL", 8)  # the search's and its table kernels'

    for p in PUZZLES:
        assert _ida(p, False, max_nodes=3000, every=1023) == _ida(p, True, max_nodes=3000, every=1023), str(p)


#: 229,090 nodes, 11 moves: its search grows the table past 2**16 entries
BIG = Puzzle.parse("1B,2A,4A,3A R:c12,G:m13,B:m10,Y:k7 BT")


def test_a_search_after_any_other_is_the_same_search():
    """Each puzzle alone, then again after a large search (whose grown table is freed, not
    kept) and a small one (whose table is)."""
    search = kernels.compiled(ricochet.SEARCH)
    alone = [_ida(p, True) for p in PUZZLES[:12]]
    big = _ida(BIG, True)
    assert big[1] == 229_090 and len(big[0]) == 11 and search._LOCAL.tt is None
    for p, first in zip(PUZZLES[:12], alone):
        _ida(BIG, True)
        _ida(PUZZLES[-1], True)
        assert len(search._LOCAL.tt) == search.KEEP
        assert _ida(p, True) == first, str(p)


def test_the_table_is_zeroed_when_search_numbers_run_out():
    search = kernels.compiled(ricochet.SEARCH)
    p = Puzzle.parse("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC")
    first = _ida(p, True)
    search._LOCAL.gen = (1 << search.GEN_BITS) - 2
    table = search._LOCAL.tt
    assert _ida(p, True) == first and search._LOCAL.tt is table  # the last number
    assert _ida(p, True) == first and search._LOCAL.tt is not table and search._LOCAL.gen == 1


def test_boards_keep_their_hash_through_copies_and_pickles():
    """Solvers key their per-board tables on boards, whose hash is computed once."""
    p = random_puzzles(1, seed=23, diagonals=2)[0]
    again = Puzzle.parse(str(p)).board
    copy = pickle.loads(pickle.dumps(p.board))
    assert again == p.board == copy and hash(again) == hash(p.board) == hash(copy)
    plain = Puzzle.parse(str(p).replace(" diag=" + str(p).split(" diag=")[1].split()[0], "")).board
    assert plain != p.board and hash(plain) == hash(p.board.with_diagonals({}))

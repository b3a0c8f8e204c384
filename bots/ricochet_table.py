"""Ricochet Robots search: the transposition table's keys and buckets, for the IDA* kernel
(``bots.ricochet_search``, whose docstring describes the table): a position's key
(``table_key``), its bucket (``bucket``) and the few buckets spread to their own places
(``spread``). A kernel module (``bots.kernels``), split from the search.
"""

from __future__ import annotations

from bots.kernels import backend

kernel, np, objmode = backend(__name__)

#: bits of an entry's search number (``_table``): the key takes bits 6-46 (five robots,
#: 8 bits each, plus one), the search number bits 47-62
GEN_BITS = 16
KEY_BITS = 41
#: a search's first table: 2**16 entries (512 KiB); it grows by 2 bits
FIRST_BITS = 16
#: buckets of the few-buckets table (``_table``, module docstring), a power of two; its entry
#: ``m`` holds ``search number << BUCKET_BITS | bucket + 1``, its entries ``SMALL + 4 * m``
#: to ``+ 3`` that bucket's four
SMALL = 1024
BUCKET_BITS = 21
BUCKET_MASK = (1 << BUCKET_BITS) - 1

@kernel
def table_key(first, n, c0, c1, c2, c3, c4):
    """The table key of robot cells ``c0``-``c4`` (``c4`` only with five robots): robot
    ``first``'s cell in the low 8 bits (none when -1), the others sorted above it, 8 bits
    each (the smallest highest), plus one. Sorted by a network of ``min``/``max``: no branch
    to mispredict, as the insertion sort had."""
    low = 0
    if first >= 0:  # its cell apart; as 0 it sorts first and adds nothing
        if first == 0:
            low, c0 = c0, 0
        elif first == 1:
            low, c1 = c1, 0
        elif first == 2:
            low, c2 = c2, 0
        elif first == 3:
            low, c3 = c3, 0
        else:
            low, c4 = c4, 0
    if n > 4:
        c0, c1 = min(c0, c1), max(c0, c1)
        c3, c4 = min(c3, c4), max(c3, c4)
        c2, c4 = min(c2, c4), max(c2, c4)
        c2, c3 = min(c2, c3), max(c2, c3)
        c1, c4 = min(c1, c4), max(c1, c4)
        c0, c3 = min(c0, c3), max(c0, c3)
        c0, c2 = min(c0, c2), max(c0, c2)
        c1, c3 = min(c1, c3), max(c1, c3)
        c1, c2 = min(c1, c2), max(c1, c2)
        key = (((c0 << 8 | c1) << 8 | c2) << 8 | c3) << 8 | c4
    else:
        c0, c1 = min(c0, c1), max(c0, c1)
        c2, c3 = min(c2, c3), max(c2, c3)
        c0, c2 = min(c0, c2), max(c0, c2)
        c1, c3 = min(c1, c3), max(c1, c3)
        c1, c2 = min(c1, c2), max(c1, c2)
        key = ((c0 << 8 | c1) << 8 | c2) << 8 | c3
    if first >= 0:
        key = key << 8 | low
    return key + 1


@kernel
def bucket(key, mask):
    """The first entry of ``key``'s bucket of four in a table of ``mask + 1`` entries."""
    x = key ^ (key >> 29)
    x = x * 0x5BD1E9955BD1E995
    return (x ^ (x >> 32)) & mask & ~3


@kernel
def spread(tt, few, gen):
    """Every bucket of the few (at ``few``) of search ``gen`` to its own place in ``tt``."""
    for k in range(SMALL):
        v = tt[few + k]
        if (v >> BUCKET_BITS) == gen:
            b4 = ((v & BUCKET_MASK) - 1) << 2
            for j in range(4):
                tt[b4 + j] = tt[few + SMALL + 4 * k + j]

"""Interaction move mechanics (``docs/rules/interaction.md`` "A move", "Legality"): the Zobrist keys,
the legal strikes of a side (``strikes``) and the simulation of one move (``simulate``), on
the raw board (``bytes`` of 81 cells) and occupancy mask. Pure functions; the position class
is ``arena.games.interaction.state.InteractionState``.
"""

from __future__ import annotations

import random

from arena.games.interaction.geometry import BIT, NEXT, NUM_CELLS, PATH_CELLS, PATH_DIRS, POCKET, RAW, SIZE, STRIKES
from arena.games.interaction.notation import NEUTRAL

_rng = random.Random(20260401)
#: ``ZOBRIST[cell * 4 + piece]``: 64-bit keys of the pieces on cells.
ZOBRIST = tuple(_rng.getrandbits(64) for _ in range(NUM_CELLS * 4))
#: Toggled when Blue is to move.
Z_SIDE = _rng.getrandbits(64)
_Z_SCORE: dict[tuple[int, int], int] = {}


#: ``BLOOM_BITS[i] == 1 << i``: the bits of a state's 1024-bit repetition filter, looked up
#: (an ``&`` with one of them is cheaper than shifting the whole filter)
BLOOM_BITS = tuple(1 << i for i in range(1024))


def score_key(seat: int, score: int) -> int:
    """The Zobrist term of a seat's score (0 for a score of 0)."""
    if score < 64:
        return _SCORE_KEYS[seat][score]
    z = _Z_SCORE.get((seat, score))
    if z is None:
        z = _Z_SCORE[(seat, score)] = random.Random(f"score:{seat}:{score}").getrandbits(64)
    return z


_SCORE_KEYS = tuple(
    (0,) + tuple(random.Random(f"score:{seat}:{score}").getrandbits(64) for score in range(1, 64)) for seat in (0, 1)
)


def _rank_key(rank: int, cells: bytes) -> int:
    """The Zobrist key of the pieces of one rank (``cells``: its 9 cells, file a first)."""
    z = 0
    for file, piece in enumerate(cells):
        if piece:
            z ^= ZOBRIST[(rank * SIZE + file) * 4 + piece]
    return z


#: per rank, the Zobrist keys of the rank contents seen so far (``board_key``), each cache
#: emptied when it reaches ``RANK_CACHE`` entries
_RANK_KEYS: tuple[dict[bytes, int], ...] = tuple({} for _ in range(SIZE))
RANK_CACHE = 4096


def board_key(board: bytes) -> int:
    """The Zobrist key of the pieces on ``board``: the XOR of its ranks' keys, each looked up
    by the rank's 9 bytes (a position read from text per ply, as an engine does, visits 9
    ranks, not 81 cells)."""
    z = 0
    start = 0
    for rank, cache in enumerate(_RANK_KEYS):
        cells = board[start:start + SIZE]
        key = cache.get(cells)
        if key is None:
            if len(cache) >= RANK_CACHE:
                cache.clear()
            key = cache[cells] = _rank_key(rank, cells)
        z ^= key
        start += SIZE
    return z


def simulate(board: bytes, occ: int, nmask: int, s: int, hit: int,
             stop_rule: bool) -> tuple[bytes, int, int, int, int]:
    """Play the move of the cue ball leaving state ``s = cell * 8 + direction``.

    ``occ`` and ``nmask`` are the occupancy and neutral masks of ``board`` (``occupancy``,
    ``neutral_mask``); ``hit`` is the index in ``PATH_CELLS[s]`` of the first occupied cell
    (the momentum, >= 1); ``stop_rule`` selects ``pocketing="stop"``. Returns (board after,
    Zobrist delta of the pieces, neutrals pocketed 0/1, occupancy after, neutral mask after):
    both masks are updated as the balls move, so no caller rescans the board. Rows,
    remainders, bounces, pocketing and the wedged-row rule follow ``docs/rules/interaction.md``
    "A move" and "Legality".
    """
    b = bytearray(board)
    p0 = s >> 3
    cells = PATH_CELLS[s]
    piece = b[p0]
    end = cells[hit - 1]
    z = 0
    if end != p0:
        b[p0] = 0
        b[end] = piece
        z = ZOBRIST[p0 * 4 + piece] ^ ZOBRIST[end * 4 + piece]
        occ ^= BIT[p0] ^ BIT[end]
    cur = cells[hit]
    s = cur * 8 + PATH_DIRS[s][hit]
    r = hit
    seen = None  # momentum hand-overs since a ball last moved (the wedged-row rule)
    while True:
        n = RAW[s]
        while n >= 0 and b[n]:  # the last ball of the straight contiguous row moves
            cur = n
            s = (n << 3) | (s & 7)
            n = RAW[s]
        h = (s << 5) | r
        if seen is None:
            seen = [h]
        elif h in seen:
            return bytes(b), z, 0, occ, nmask
        else:
            seen.append(h)
        piece = b[cur]
        b[cur] = 0  # a rolling ball leaves its cell
        start = s
        if piece == NEUTRAL and not stop_rule:
            while r:
                t = NEXT[s]
                q = t >> 3
                if b[q]:
                    break
                s = t
                r -= 1
                if POCKET[q]:
                    bit = BIT[cur]
                    return bytes(b), z ^ ZOBRIST[cur * 4 + NEUTRAL], 1, occ ^ bit, nmask ^ bit
        else:
            while r:
                t = NEXT[s]
                if b[t >> 3]:
                    break
                s = t
                r -= 1
        if s != start:
            end = s >> 3
            b[end] = piece
            if end != cur:
                z ^= ZOBRIST[cur * 4 + piece] ^ ZOBRIST[end * 4 + piece]
                moved = BIT[cur] ^ BIT[end]
                occ ^= moved
                if piece == NEUTRAL:
                    nmask ^= moved
            seen = None
            if stop_rule and piece == NEUTRAL and POCKET[end]:
                b[end] = 0
                bit = BIT[end]
                return bytes(b), z ^ ZOBRIST[end * 4 + NEUTRAL], 1, occ ^ bit, nmask ^ bit
        else:
            b[cur] = piece
        if not r:
            return bytes(b), z, 0, occ, nmask
        cur = t >> 3
        s = t


def strikes(board: bytes, occ: int, seat: int) -> dict[int, int]:
    """``{cell * 8 + direction: momentum}`` for every cue ball of ``seat`` whose free path
    meets a ball with momentum >= 1 (the legal moves, before the first-turn rule), in cell
    order, directions N..NW.

    ``occ`` is the occupancy mask of ``board`` (bit ``cell`` set for a ball).
    """
    out: dict[int, int] = {}
    piece = seat + 1
    p = board.find(piece)
    while p >= 0:
        ball_strikes(occ, p, out)
        p = board.find(piece, p + 1)
    return out


def ball_strikes(occ: int, cell: int, out: dict[int, int]) -> dict[int, int]:
    """Add to ``out`` and return it: the strikes of ``strikes`` of the one cue ball on ``cell``
    (a search that stops early generates them ball by ball). ``occ``: the occupancy mask,
    the cue ball included."""
    o = occ ^ BIT[cell]  # the cue ball leaves its cell
    for s, path_mask, mask, grows, index, runs in STRIKES[cell]:
        x = o & mask
        if x:  # a ball on the first straight run (index 0: momentum 0, illegal)
            i = index[((x & -x) if grows else x).bit_length() - 1]
            if i:
                out[s] = i
        elif o & path_mask:  # else the first ball on a later run, if the path meets one
            for mask, grows, index in runs:
                x = o & mask
                if x:
                    out[s] = index[((x & -x) if grows else x).bit_length() - 1]
                    break
    return out


#: ``STRIKE[cell * 8 + direction]``: that direction's ``STRIKES`` entry (``None``: no free path).
STRIKE = tuple(next((e for e in STRIKES[s >> 3] if e[0] == s), None) for s in range(NUM_CELLS * 8))


def strike(occ: int, s: int) -> int:
    """The momentum of the one strike ``s`` (``cell * 8 + direction``) of the cue ball on
    ``cell``, as ``strikes`` finds it (its ``s`` entry), or 0 when ``strikes`` has no ``s``
    (the first-turn rule aside). ``occ``: the occupancy mask, the cue ball included."""
    entry = STRIKE[s]
    if entry is None:
        return 0
    _, path_mask, mask, grows, index, runs = entry
    o = occ ^ BIT[s >> 3]
    x = o & mask
    if x:
        return index[((x & -x) if grows else x).bit_length() - 1]
    if o & path_mask:
        for mask, grows, index in runs:
            x = o & mask
            if x:
                return index[((x & -x) if grows else x).bit_length() - 1]
    return 0


def _legality_tests(cell: int) -> tuple[tuple[int, int, int], ...]:
    """For each direction with a free path from ``cell``: (``s``, the bit of the path's first
    cell, the mask of its other cells, ``cell`` itself left out as the cue ball leaves it)."""
    return tuple((s, BIT[PATH_CELLS[s][0]], path_mask & ~BIT[cell] & ~BIT[PATH_CELLS[s][0]])
                 for s, path_mask, *_ in STRIKES[cell])


#: ``LEGALITY[cell]``: ``_legality_tests(cell)``, in ``STRIKES`` order (``legal_strikes``)
LEGALITY = tuple(_legality_tests(cell) for cell in range(NUM_CELLS))


def legal_strikes(board: bytes, occ: int, seat: int) -> list[int]:
    """The keys of ``strikes(board, occ, seat)`` (``cell * 8 + direction``, in its order),
    without their momenta: a strike is legal when the first cell of its free path is empty
    (else momentum 0) and a ball lies further on the path. Two mask tests a direction, so a
    random playout counts the moves and finds the momentum of the one it plays alone
    (``strike``)."""
    out = []
    piece = seat + 1
    p = board.find(piece)
    while p >= 0:
        for s, first, rest in LEGALITY[p]:
            if not occ & first and occ & rest:
                out.append(s)
        p = board.find(piece, p + 1)
    return out


#: piece codes -> ``0``/``1`` digits (``occupancy``)
_BITS = bytes.maketrans(bytes(range(256)), b"0" + b"1" * 255)


def occupancy(board: bytes) -> int:
    """The occupancy mask of ``board``: bit ``cell`` set for each ball (the cells as binary
    digits, cell 0 last)."""
    return int(board.translate(_BITS)[::-1], 2)


#: piece codes -> ``1`` for a neutral, else ``0`` (``neutral_mask``)
_NEUTRAL_BITS = bytes.maketrans(bytes(range(256)), b"000" + b"1" + b"0" * 252)


def neutral_mask(board: bytes) -> int:
    """The neutral mask of ``board``: bit ``cell`` set for each neutral ball (``NEUTRAL``)."""
    return int(board.translate(_NEUTRAL_BITS)[::-1], 2)

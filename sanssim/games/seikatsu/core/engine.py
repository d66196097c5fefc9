"""The Seikatsu rules in numba, step for step as `sanssim.games.seikatsu.engine`.

A state is one int64 array laid out by the game's table (`tables`): the same fields
as the Python `State`, masks as int64 bit sets, lists as fixed slots with a length.
Every function mirrors the Python method of the same name, in the same order of
operations, so the deal draws the same numbers and the legal actions come in the
same order (kinds ascending, then spaces ascending), which makes action ids equal.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.bits import bit_count
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import larger, zeros
from sanssim.games.seikatsu.core.tables import (
    BAG_CAP,
    BAG_LEN,
    CURRENT,
    FRONTIER,
    HMAX,
    KOI,
    KOI_COUNT,
    KOI_KIND,
    LATER,
    N_BIRDS,
    N_CELLS,
    N_FLOWERS,
    N_GARDEN,
    N_KINDS,
    N_LEGAL,
    N_PLAYERS,
    N_ROWS,
    N_SIDES,
    N_STARTS,
    OCCUPIED,
    PHASE,
    S_BAG,
    S_BIRDS,
    S_BOARD,
    S_FLOWERS,
    S_HAND_LEN,
    S_HANDS,
    S_KOI_HELD,
    S_KOI_PLAYED,
    S_LEGAL,
    S_OWN,
    S_SIDE_SCORE,
    S_SIZE,
    S_START,
    T_GARDEN,
    T_KIND_BIRD,
    T_KIND_FLOWER,
    T_KOI_DEALT,
    T_LAST_SEAT,
    T_NEIGH,
    T_POINTS,
    T_ROWS,
    T_SIDE,
    T_SIDE_PAGODA,
    T_STARTS,
    TOURNAMENT,
    TURN,
    TURNS,
)

PLAY, END = 0, 1
EMPTY = -1
# `play`'s and `apply`'s row for a play that logs nothing (a search's): not the literal -1,
# with which they would compile a second time.
UNLOGGED = np.int64(-1)
# columns of a turn-log row (int32); the hand before the play fills the last HMAX slots;
# LOG_ACTION is the chosen action, -1 on a turn the engine played itself
LOG_GAME, LOG_TURN, LOG_SEAT, LOG_KOI_HELD, LOG_TILE, LOG_CELL, LOG_KOI_BIRD = range(7)
LOG_POINTS, LOG_DRAWN, LOG_SCORE, LOG_BAG_LEFT, LOG_ACTION, LOG_HAND_LEN, LOG_HAND = range(7, 14)


@nb.njit(cache=True)
def new_state(t: np.ndarray) -> np.ndarray:
    return zeros(t[S_SIZE], np.int64)


@kernel
def copy_state(dst: np.ndarray, src: np.ndarray) -> None:
    """`dst` becomes a clone of `src` (a loop: slice assignment drags in its error paths)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel
def put(t: np.ndarray, s: np.ndarray, kind: np.int64, cell: np.int64) -> None:
    """Place a tile without scoring (`State._put`)."""
    bit = np.int64(1) << cell
    s[t[S_BOARD] + cell] = kind
    if kind == t[KOI_KIND]:
        s[KOI] |= bit
    else:
        s[t[S_BIRDS] + t[t[T_KIND_BIRD] + kind]] |= bit
        s[t[S_FLOWERS] + t[t[T_KIND_FLOWER] + kind]] |= bit
    s[OCCUPIED] |= bit
    s[FRONTIER] = (s[FRONTIER] | t[t[T_NEIGH] + cell]) & ~s[OCCUPIED]


@kernel
def spread(counts: np.ndarray, out: np.ndarray) -> np.int64:
    """The multiset of `counts` (kind -> how many) into `out`, ascending; its size."""
    size = 0
    for kind in range(counts.shape[0]):
        for _ in range(counts[kind]):
            out[size] = kind
            size += 1
    return size


@kernel
def _pop_bag(t: np.ndarray, s: np.ndarray) -> np.int64:
    s[BAG_LEN] -= 1
    return s[t[S_BAG] + s[BAG_LEN]]


@kernel
def deal(t: np.ndarray, s: np.ndarray, g: np.ndarray, counts: np.ndarray) -> None:
    """A fresh deal from the bag stream `g` (`State.__init__`); `counts` is scratch of
    `N_KINDS` (a kernel: the chunk deals every game)."""
    for i in range(s.shape[0]):
        s[i] = 0
    s[PHASE] = PLAY
    for c in range(t[N_CELLS]):
        s[t[S_BOARD] + c] = EMPTY
    bag = s[t[S_BAG] : t[S_BAG] + t[BAG_CAP]]
    n_garden = t[N_GARDEN]
    for i in range(n_garden):
        bag[i] = t[t[T_GARDEN] + i]
    s[BAG_LEN] = n_garden
    rng.shuffle(g, bag, n_garden)
    for i in range(t[N_STARTS]):
        kind = _pop_bag(t, s)
        s[t[S_START] + i] = kind
        put(t, s, kind, t[t[T_STARTS] + i])
    n = t[N_PLAYERS]
    if t[TOURNAMENT]:
        for p in range(n):
            s[t[S_KOI_HELD] + p] = t[t[T_KOI_DEALT] + p]
    else:
        size = s[BAG_LEN]
        for i in range(t[KOI_COUNT]):
            bag[size + i] = t[KOI_KIND]
        size += t[KOI_COUNT]
        s[BAG_LEN] = size
        for kind in range(t[N_KINDS]):  # the bag sorted (`bag.sort()`)
            counts[kind] = 0
        for i in range(size):
            counts[bag[i]] += 1
        spread(counts, bag)
        rng.shuffle(g, bag, size)
    for p in range(n):
        for i in range(2):
            s[t[S_HANDS] + p * t[HMAX] + i] = _pop_bag(t, s)
        s[t[S_HAND_LEN] + p] = 2
    start_turn(t, s)


@kernel
def start_turn(t: np.ndarray, s: np.ndarray) -> None:
    """The current seat's legal actions: each kind it holds, ascending (a face-up koi
    last), on each frontier space, ascending (`State._start_turn`)."""
    p = s[CURRENT]
    hand = t[S_HANDS] + p * t[HMAX]
    size = s[t[S_HAND_LEN] + p]
    koi = t[KOI_KIND]
    n_cells = t[N_CELLS]
    legal = t[S_LEGAL]
    count = 0
    last = np.int64(-1)
    has_koi = False
    while True:
        kind = np.int64(1 << 62)
        for i in range(size):
            k = s[hand + i]
            if last < k < kind:
                kind = k
        if kind == 1 << 62:
            if s[t[S_KOI_HELD] + p] > 0 and not has_koi:
                kind = koi
            else:
                break
        has_koi = has_koi or kind == koi
        last = kind
        f = s[FRONTIER]
        while f:
            low = f & -f
            s[legal + count] = kind * n_cells + bit_count(low - 1)
            count += 1
            f ^= low
        if kind == koi:
            break
    s[N_LEGAL] = count


@kernel
def bird_points(t: np.ndarray, s: np.ndarray, kind: np.int64, cell: np.int64) -> tuple:
    """(points, koi bird) for playing `kind` on `cell` now (`State.bird_points`)."""
    near = t[t[T_NEIGH] + cell]
    if kind != t[KOI_KIND]:
        m = bit_count(near & s[t[S_BIRDS] + t[t[T_KIND_BIRD] + kind]])
        return (m + 1 if m else 0), EMPTY
    best = 0
    bird = EMPTY
    for b in range(t[N_BIRDS]):
        m = bit_count(near & s[t[S_BIRDS] + b])
        if m > best:
            best = m
            bird = b
    return (best + 1 if best else 0), bird


@kernel
def play(t: np.ndarray, s: np.ndarray, action: np.int64, log: np.ndarray, row: int) -> int:
    """Play one action (`State._play`); with `row` >= 0 its turn-log row is written
    there. Returns the next free log row."""
    n_cells = t[N_CELLS]
    kind = action // n_cells
    cell = action % n_cells
    p = s[CURRENT]
    hand = t[S_HANDS] + p * t[HMAX]
    size = s[t[S_HAND_LEN] + p]
    if row >= 0:
        log[row, LOG_HAND_LEN] = size
        for i in range(size):
            log[row, LOG_HAND + i] = s[hand + i]
    koi_held = s[t[S_KOI_HELD] + p]
    koi = t[KOI_KIND]
    if kind == koi and koi_held:
        s[t[S_KOI_HELD] + p] = koi_held - 1
    else:
        at = 0
        while s[hand + at] != kind:
            at += 1
        for i in range(at, size - 1):
            s[hand + i] = s[hand + i + 1]
        size -= 1
    points, koi_bird = bird_points(t, s, kind, cell)
    if kind == koi:
        s[t[S_KOI_PLAYED] + p] += 1
    put(t, s, kind, cell)
    side = t[t[T_SIDE] + p]
    if points:
        s[t[S_OWN] + p] += points
        s[t[S_SIDE_SCORE] + side] += points
    drawn = EMPTY
    if s[BAG_LEN]:
        drawn = _pop_bag(t, s)
        s[hand + size] = drawn
        size += 1
    s[t[S_HAND_LEN] + p] = size
    if row >= 0:
        log[row, LOG_TURN] = s[TURN]
        log[row, LOG_SEAT] = p
        log[row, LOG_KOI_HELD] = koi_held
        log[row, LOG_TILE] = kind
        log[row, LOG_CELL] = cell
        log[row, LOG_KOI_BIRD] = koi_bird
        log[row, LOG_POINTS] = points
        log[row, LOG_DRAWN] = drawn
        log[row, LOG_SCORE] = s[t[S_SIDE_SCORE] + side]
        log[row, LOG_BAG_LEFT] = s[BAG_LEN]
        row += 1
    s[TURN] += 1
    if s[TURN] == t[TURNS]:
        s[PHASE] = END
        s[N_LEGAL] = 0
        return row
    s[CURRENT] = p + 1 if p + 1 < t[N_PLAYERS] else 0
    start_turn(t, s)
    return row


@kernel
def apply(t: np.ndarray, s: np.ndarray, action: np.int64, log: np.ndarray, row: int) -> int:
    """A chosen action, then every following turn with a single choice (`apply_action`)."""
    row = play(t, s, action, log, row)
    while s[N_LEGAL] == 1:
        row = play(t, s, s[t[S_LEGAL]], log, row)
    return row


@kernel
def row_points(t: np.ndarray, s: np.ndarray, pagoda: np.int64, k: np.int64) -> np.int64:
    """One row's flower points: its largest flower set plus its koi (`Game.row_points`)."""
    row = t[t[T_ROWS] + pagoda * t[N_ROWS] + k]
    largest = 0
    for f in range(t[N_FLOWERS]):
        largest = larger(largest, bit_count(s[t[S_FLOWERS] + f] & row))
    return t[t[T_POINTS] + largest + bit_count(s[KOI] & row)]


@kernel
def side_totals(t: np.ndarray, s: np.ndarray, out: np.ndarray) -> None:
    """Bird points plus flower points of each side into `out` (`State.side_totals`)."""
    for side in range(t[N_SIDES]):
        total = s[t[S_SIDE_SCORE] + side]
        pagoda = t[t[T_SIDE_PAGODA] + side]
        for k in range(t[N_ROWS]):
            total += row_points(t, s, pagoda, k)
        out[side] = total


@kernel
def side_ranks(t: np.ndarray, totals: np.ndarray, out: np.ndarray) -> None:
    """Each side's place: total, then its last seat later (or earlier) in turn order
    (`Game.ranks_of`, per side; never shared)."""
    sides = t[N_SIDES]
    sign = 1 if t[LATER] else -1
    for i in range(sides):
        place = 1
        key_i = sign * t[t[T_LAST_SEAT] + i]
        for j in range(sides):
            key_j = sign * t[t[T_LAST_SEAT] + j]
            if totals[j] > totals[i] or (totals[j] == totals[i] and key_j > key_i):
                place += 1
        out[i] = place

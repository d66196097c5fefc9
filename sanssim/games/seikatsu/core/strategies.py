"""`random`, `greedy` and `heuristic` in numba, choosing what their Python versions choose.

Each mirrors `sanssim.strategies.random` or `sanssim.games.seikatsu.strategies`: the
same terms summed in the same order in doubles, the same ranking (score descending,
ties in the order of the legal actions), the same pool within `EPS` of the top and
the same single `random()` draw to pick from it.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.games.seikatsu.core.engine import bird_points, popcount
from sanssim.games.seikatsu.core.tables import (
    KOI,
    KOI_KIND,
    N_CELLS,
    N_FLOWERS,
    N_LEGAL,
    N_PLAYERS,
    N_ROWS,
    N_SIDES,
    OCCUPIED,
    PER_PLAYER,
    S_FLOWERS,
    S_LEGAL,
    T_KIND_FLOWER,
    T_POINTS,
    T_ROW_LEN,
    T_ROW_OF,
    T_ROWS,
    T_SEAT_PAGODA,
    T_SIDE,
    T_SIDE_PAGODA,
    TURN,
    TURNS,
)

RANDOM, GREEDY, HEURISTIC, LOOKAHEAD, ISMCTS = range(5)
EPS = 1e-9
# heuristic's parameters, in `HeuristicStrategy.params` order
BIRDS, ROWS, SPOIL, FILL, TEAM, KOI_WEIGHT = range(6)
# a row's summary in the stats block: flower counts first, then these
R_KOI, R_BEST, R_EMPTY, R_LENGTH = range(4)


@nb.njit(cache=True)
def choose_random(t: np.ndarray, s: np.ndarray, g: np.ndarray) -> np.int64:
    return s[t[S_LEGAL] + np.int64(rng.random(g) * s[N_LEGAL])]


@nb.njit(cache=True)
def row_stats(t: np.ndarray, s: np.ndarray, pagoda: np.int64, out: np.ndarray) -> None:
    """Each row of `pagoda` now (`_RowStats`): flower counts, koi, best, empty, length."""
    nf = t[N_FLOWERS]
    for k in range(t[N_ROWS]):
        row = t[t[T_ROWS] + pagoda * t[N_ROWS] + k]
        largest = 0
        for f in range(nf):
            c = popcount(s[t[S_FLOWERS] + f] & row)
            out[k, f] = c
            largest = max(largest, c)
        koi = popcount(s[KOI] & row)
        length = t[t[T_ROW_LEN] + pagoda * t[N_ROWS] + k]
        out[k, nf + R_KOI] = koi
        out[k, nf + R_BEST] = largest + koi
        out[k, nf + R_EMPTY] = length - popcount(s[OCCUPIED] & row)
        out[k, nf + R_LENGTH] = length


@nb.njit(cache=True)
def after(t: np.ndarray, stats: np.ndarray, pagoda: np.int64, kind: np.int64, cell: np.int64):
    """(best before, best after, empty before, length) of the row of `cell` (`_RowStats.after`)."""
    nf = t[N_FLOWERS]
    k = t[t[T_ROW_OF] + pagoda * t[N_CELLS] + cell]
    best = stats[k, nf + R_BEST]
    empty = stats[k, nf + R_EMPTY]
    length = stats[k, nf + R_LENGTH]
    if kind == t[KOI_KIND]:
        return best, best + 1, empty, length
    grown = stats[k, t[t[T_KIND_FLOWER] + kind]] + stats[k, nf + R_KOI] + 1
    return best, max(best, grown), empty, length


@nb.njit(cache=True)
def option(t, s, i: np.int64, stats: np.ndarray, pagoda: np.int64) -> tuple:
    """Legal action `i`: its kind, space, bird points now and `after` on `pagoda`'s row."""
    action = s[t[S_LEGAL] + i]
    kind = action // t[N_CELLS]
    cell = action % t[N_CELLS]
    birds, _ = bird_points(t, s, kind, cell)
    before, grown, empty, length = after(t, stats, pagoda, kind, cell)
    return kind, cell, birds, before, grown, empty, length


@nb.njit(cache=True)
def pick(t, s, scores: np.ndarray, pool: np.ndarray, g: np.ndarray, keep_koi: bool) -> np.int64:
    """The pool within EPS of the top score, best first and ties in legal order (stable
    sort on -score), less the koi plays with `keep_koi` if any remain; one draw picks."""
    n = s[N_LEGAL]
    legal = t[S_LEGAL]
    top = scores[0]
    for i in range(1, n):
        if scores[i] > top:
            top = scores[i]
    size = 0
    for i in range(n):
        if scores[i] >= top - EPS:
            j = size
            while j > 0 and scores[pool[j - 1]] < scores[i]:
                pool[j] = pool[j - 1]
                j -= 1
            pool[j] = i
            size += 1
    if keep_koi:
        kept = 0
        koi = t[KOI_KIND]
        for i in range(size):
            if s[legal + pool[i]] // t[N_CELLS] != koi:
                pool[kept] = pool[i]
                kept += 1
        if kept:
            size = kept
    return s[legal + pool[np.int64(rng.random(g) * size)]]


@nb.njit(cache=True)
def greedy_scores(t: np.ndarray, s: np.ndarray, seat: np.int64, stats: np.ndarray, out) -> None:
    """Bird points plus the change in the seat's own flower points (`GreedyStrategy.terms`)."""
    pagoda = t[t[T_SEAT_PAGODA] + seat]
    row_stats(t, s, pagoda, stats[0])
    points = t[T_POINTS]
    for i in range(s[N_LEGAL]):
        _, _, birds, before, grown, _, _ = option(t, s, i, stats[0], pagoda)
        out[i] = float(birds) + float(t[points + grown] - t[points + before])


@nb.njit(cache=True)
def potential(t: np.ndarray, best: float, length: np.int64) -> float:
    """Set points at `best`, interpolated and capped at the row's length (`_potential`)."""
    x = float(length) if length < best else best
    low = np.int64(x)
    points = t[T_POINTS]
    if low == x:
        return float(t[points + low])
    return t[points + low] + (x - low) * (t[points + low + 1] - t[points + low])


@nb.njit(cache=True)
def heuristic_scores(t, s, seat: np.int64, w: np.ndarray, stats: np.ndarray, out) -> None:
    """Weighted birds, own row potential, spoiled rival potential and the koi kept
    (`HeuristicStrategy.terms`); `stats[0]` holds the own pagoda, then the rivals'."""
    my_side = t[t[T_SIDE] + seat]
    fill = w[FILL] * (w[TEAM] if t[N_SIDES] < t[N_PLAYERS] else 1.0)
    own = t[t[T_SIDE_PAGODA] + my_side]
    row_stats(t, s, own, stats[0])
    rivals = 0
    for side in range(t[N_SIDES]):
        if side != my_side:
            rivals += 1
            row_stats(t, s, t[t[T_SIDE_PAGODA] + side], stats[rivals])
    n = t[N_PLAYERS]
    turns_left = 0
    for turn in range(s[TURN], t[TURNS]):
        if turn % n == seat:
            turns_left += 1
    koi_cost = w[KOI_WEIGHT] * (turns_left - 1) / t[PER_PLAYER]
    koi = t[KOI_KIND]
    for i in range(s[N_LEGAL]):
        kind, cell, birds, before, grown, empty, length = option(t, s, i, stats[0], own)
        gain = potential(t, grown + fill * (empty - 1), length) - potential(
            t, before + fill * empty, length
        )
        loss = 0.0
        r = 0
        for side in range(t[N_SIDES]):
            if side != my_side:
                r += 1
                pagoda = t[t[T_SIDE_PAGODA] + side]
                before, grown, empty, length = after(t, stats[r], pagoda, kind, cell)
                loss += potential(t, before + fill * empty, length) - potential(
                    t, grown + fill * (empty - 1), length
                )
        score = w[BIRDS] * birds
        score += w[ROWS] * gain
        score += w[SPOIL] * loss
        score += -koi_cost if kind == koi else 0.0
        out[i] = score

"""`random`, `greedy` and `heuristic` in numba, choosing what their Python versions choose.

Each mirrors `sanssim.strategies.random` or `sanssim.games.seikatsu.strategies`: the
same terms summed in the same order in doubles, the same ranking (score descending,
ties in the order of the legal actions), the same pool within `EPS` of the top and
the same single `random()` draw to pick from it.
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.bits import bit_count
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import larger
from sanssim.games.seikatsu.core.engine import bird_points
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
# Flags as non-literal booleans: numba compiles a function once for each literal it is
# called with. `pick`'s keep_koi (greedy keeps the koi, heuristic does not), `row_changes`'
# own (the seat's own row, or a rival's).
KEEP_KOI, ANY_PLAY = np.bool_(True), np.bool_(False)
OWN_ROW, RIVAL_ROW = np.bool_(True), np.bool_(False)
# heuristic's parameters, in `HeuristicStrategy.params` order
BIRDS, ROWS, SPOIL, FILL, TEAM, KOI_WEIGHT = range(6)
# a row's summary in the stats block: flower counts first, then these
R_KOI, R_BEST, R_EMPTY, R_LENGTH = range(4)


@kernel
def choose_random(t: np.ndarray, s: np.ndarray, g: np.ndarray) -> np.int64:
    return s[t[S_LEGAL] + np.int64(rng.random(g) * s[N_LEGAL])]


@kernel
def row_stats(t: np.ndarray, s: np.ndarray, pagoda: np.int64, out: np.ndarray) -> None:
    """Each row of `pagoda` now (`_RowStats`): flower counts, koi, best, empty, length."""
    nf = t[N_FLOWERS]
    for k in range(t[N_ROWS]):
        row = t[t[T_ROWS] + pagoda * t[N_ROWS] + k]
        largest = 0
        for f in range(nf):
            c = bit_count(s[t[S_FLOWERS] + f] & row)
            out[k, f] = c
            largest = larger(largest, c)
        koi = bit_count(s[KOI] & row)
        length = t[t[T_ROW_LEN] + pagoda * t[N_ROWS] + k]
        out[k, nf + R_KOI] = koi
        out[k, nf + R_BEST] = largest + koi
        out[k, nf + R_EMPTY] = length - bit_count(s[OCCUPIED] & row)
        out[k, nf + R_LENGTH] = length


@kernel
def after(t: np.ndarray, stats: np.ndarray, pagoda: np.int64, kind: np.int64, cell: np.int64):
    """(best before, best after, empty before, length) of the row of `cell` (`_RowStats.after`)."""
    return after_row(t, stats, t[t[T_ROW_OF] + pagoda * t[N_CELLS] + cell], kind)


@kernel
def after_row(t: np.ndarray, stats: np.ndarray, k: np.int64, kind: np.int64):
    """(best before, best after, empty before, length) of row `k` for a tile of `kind`."""
    nf = t[N_FLOWERS]
    best = stats[k, nf + R_BEST]
    empty = stats[k, nf + R_EMPTY]
    length = stats[k, nf + R_LENGTH]
    if kind == t[KOI_KIND]:
        return best, best + 1, empty, length
    grown = stats[k, t[t[T_KIND_FLOWER] + kind]] + stats[k, nf + R_KOI] + 1
    return best, larger(best, grown), empty, length


@kernel
def option(t, s, i: np.int64, stats: np.ndarray, pagoda: np.int64) -> tuple:
    """Legal action `i`: its kind, space, bird points now and `after` on `pagoda`'s row."""
    action = s[t[S_LEGAL] + i]
    kind = action // t[N_CELLS]
    cell = action % t[N_CELLS]
    birds, _ = bird_points(t, s, kind, cell)
    before, grown, empty, length = after(t, stats, pagoda, kind, cell)
    return kind, cell, birds, before, grown, empty, length


@kernel
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


@kernel
def greedy_scores(t: np.ndarray, s: np.ndarray, seat: np.int64, stats: np.ndarray, out) -> None:
    """Bird points plus the change in the seat's own flower points (`GreedyStrategy.terms`)."""
    pagoda = t[t[T_SEAT_PAGODA] + seat]
    row_stats(t, s, pagoda, stats[0])
    points = t[T_POINTS]
    for i in range(s[N_LEGAL]):
        _, _, birds, before, grown, _, _ = option(t, s, i, stats[0], pagoda)
        out[i] = float(birds) + float(t[points + grown] - t[points + before])


@kernel
def potential(t: np.ndarray, best: float, length: np.int64) -> float:
    """Set points at `best`, interpolated and capped at the row's length (`_potential`)."""
    x = float(length) if length < best else best
    low = np.int64(x)
    points = t[T_POINTS]
    if low == x:
        return float(t[points + low])
    return t[points + low] + (x - low) * (t[points + low + 1] - t[points + low])


@kernel
def row_changes(t, stats, pagoda: np.int64, kind: np.int64, fill: float, own: bool, out) -> None:
    """For `kind` played into each row of `pagoda`: the change in the row's potential
    (`own`) or the potential taken from it, exactly as `HeuristicStrategy.terms` computes
    them per option; every option of one kind on one row shares its row's figure."""
    for k in range(t[N_ROWS]):
        before, grown, empty, length = after_row(t, stats, k, kind)
        now = potential(t, before + fill * empty, length)
        then = potential(t, grown + fill * (empty - 1), length)
        out[k] = then - now if own else now - then


@kernel
def turns_left(t: np.ndarray, s: np.ndarray, seat: np.int64) -> np.int64:
    """The seat's turns from this one to the end (`PlayerView.turns_left`)."""
    n = t[N_PLAYERS]
    turn = s[TURN] + (seat - s[TURN]) % n
    count = 0
    while turn < t[TURNS]:
        count += 1
        turn += n
    return count


@kernel
def heuristic_scores(t, s, seat: np.int64, w: np.ndarray, stats: np.ndarray, changes, out) -> None:
    """Weighted birds, own row potential, spoiled rival potential and the koi kept
    (`HeuristicStrategy.terms`); `stats[0]` holds the own pagoda, then the rivals', and
    `changes` (one row per side) each row's change in potential for the kind at hand.
    The legal actions come kind by kind, so the rows' figures are made once per kind."""
    my_side = t[t[T_SIDE] + seat]
    fill = w[FILL] * (w[TEAM] if t[N_SIDES] < t[N_PLAYERS] else 1.0)
    own = t[t[T_SIDE_PAGODA] + my_side]
    row_stats(t, s, own, stats[0])
    rivals = 0
    for side in range(t[N_SIDES]):
        if side != my_side:
            rivals += 1
            row_stats(t, s, t[t[T_SIDE_PAGODA] + side], stats[rivals])
    koi_cost = w[KOI_WEIGHT] * (turns_left(t, s, seat) - 1) / t[PER_PLAYER]
    koi = t[KOI_KIND]
    n_cells = t[N_CELLS]
    legal = t[S_LEGAL]
    row_of = t[T_ROW_OF]
    n = s[N_LEGAL]
    i = 0
    while i < n:
        kind = s[legal + i] // n_cells
        base = kind * n_cells
        row_changes(t, stats[0], own, kind, fill, OWN_ROW, changes[0])
        r = 0
        for side in range(t[N_SIDES]):
            if side != my_side:
                r += 1
                pagoda = t[t[T_SIDE_PAGODA] + side]
                row_changes(t, stats[r], pagoda, kind, fill, RIVAL_ROW, changes[r])
        keep = -koi_cost if kind == koi else 0.0
        while i < n and base <= s[legal + i] < base + n_cells:
            cell = s[legal + i] - base
            birds, _ = bird_points(t, s, kind, cell)
            gain = changes[0, t[row_of + own * n_cells + cell]]
            loss = 0.0
            r = 0
            for side in range(t[N_SIDES]):
                if side != my_side:
                    r += 1
                    pagoda = t[t[T_SIDE_PAGODA] + side]
                    loss += changes[r, t[row_of + pagoda * n_cells + cell]]
            score = w[BIRDS] * birds
            score += w[ROWS] * gain
            score += w[SPOIL] * loss
            score += keep
            out[i] = score
            i += 1

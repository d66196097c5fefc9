"""Every compiled decision, `lookahead` included: flat Monte Carlo on determinised states.

`lookahead` mirrors `sanssim.strategies.lookahead` with Seikatsu's `determinize`: the
default `heuristic` ranks the options, the `width` best are each tried on the same
sampled worlds (the unseen tiles sorted, shuffled, dealt to the other hands and the
rest the bag), and every seat plays on by the default `heuristic` to the end, all on
the lookahead player's one random stream. An option's value is its mean final margin.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.kernel import kernel
from sanssim.games.seikatsu.core.engine import EMPTY, apply, copy_state, side_totals, spread
from sanssim.games.seikatsu.core.strategies import (
    GREEDY,
    LOOKAHEAD,
    RANDOM,
    choose_random,
    greedy_scores,
    heuristic_scores,
    pick,
)
from sanssim.games.seikatsu.core.tables import (
    BAG_CAP,
    BAG_LEN,
    CURRENT,
    HMAX,
    KOI_COUNT,
    KOI_KIND,
    MAX_LEGAL,
    N_CELLS,
    N_GARDEN,
    N_KINDS,
    N_LEGAL,
    N_PLAYERS,
    N_ROWS,
    N_SIDES,
    S_BAG,
    S_BOARD,
    S_HAND_LEN,
    S_HANDS,
    S_KOI_HELD,
    S_LEGAL,
    S_SIZE,
    T_GARDEN,
    T_SIDE,
)

# lookahead's parameters, in `LookaheadStrategy.params` order
ROLLOUTS, WIDTH = range(2)


@nb.njit(cache=True)
def int_work(t: np.ndarray) -> np.ndarray:
    """Integer work space of a decision: an order and the options tried (a legal list
    each), kind counts, side totals, and two states (a world and a branch of it)."""
    return np.zeros(
        2 * t[MAX_LEGAL] + t[N_KINDS] + max(1, t[N_SIDES]) + 2 * t[S_SIZE], dtype=np.int64
    )


@nb.njit(cache=True)
def float_work(t: np.ndarray) -> np.ndarray:
    """Float work space of a decision: scores and option values (a legal list each),
    then each side's row changes (`heuristic_scores`)."""
    return np.zeros(2 * t[MAX_LEGAL] + max(1, t[N_SIDES]) * t[N_ROWS], dtype=np.float64)


@nb.njit(cache=True, inline="always")
def changes_of(t: np.ndarray, floats: np.ndarray) -> np.ndarray:
    """The row changes' part of `float_work`, one row per side."""
    return floats[2 * t[MAX_LEGAL] :].reshape((max(1, t[N_SIDES]), t[N_ROWS]))


@kernel
def decide(t, s, code: np.int64, w, g, stats, floats, ints, policy, log) -> np.int64:
    """The action the current seat's strategy `code` with parameters `w` picks. Work
    space: `stats` (row stats), `floats` (`float_work`), `ints` (`int_work`); `policy`
    are the rollout weights, `log` is not written."""
    if code == RANDOM:
        return choose_random(t, s, g)
    if code == LOOKAHEAD:
        return lookahead(t, s, w, g, stats, floats, ints, policy, log)
    order = ints[: t[MAX_LEGAL]]
    if code == GREEDY:
        greedy_scores(t, s, s[CURRENT], stats, floats)
        return pick(t, s, floats, order, g, True)
    heuristic_scores(t, s, s[CURRENT], w, stats, changes_of(t, floats), floats)
    return pick(t, s, floats, order, g, False)


@kernel
def determinize(t, s: np.ndarray, seat: np.int64, g: np.ndarray, world, counts) -> None:
    """`world` = `s` with the other hands and the bag sampled (`PlayerView.determinize`)."""
    copy_state(world, s)
    for kind in range(t[N_KINDS]):
        counts[kind] = 0
    for i in range(t[N_GARDEN]):
        counts[t[t[T_GARDEN] + i]] += 1
    koi = t[KOI_KIND]
    counts[koi] += t[KOI_COUNT]
    for c in range(t[N_CELLS]):
        kind = s[t[S_BOARD] + c]
        if kind != EMPTY:
            counts[kind] -= 1
    hmax = t[HMAX]
    for i in range(s[t[S_HAND_LEN] + seat]):
        counts[s[t[S_HANDS] + seat * hmax + i]] -= 1
    n = t[N_PLAYERS]
    for p in range(n):
        counts[koi] -= s[t[S_KOI_HELD] + p]
    pool = world[t[S_BAG] : t[S_BAG] + t[BAG_CAP]]
    size = spread(counts, pool)
    rng.shuffle(g, pool, size)
    taken = 0
    for p in range(n):
        if p != seat:
            hand = t[S_HANDS] + p * hmax
            for i in range(s[t[S_HAND_LEN] + p]):
                world[hand + i] = pool[taken]
                taken += 1
    for i in range(size - taken):
        pool[i] = pool[taken + i]
    world[BAG_LEN] = size - taken


@kernel
def margin(t, s: np.ndarray, seat: np.int64, totals: np.ndarray) -> np.int64:
    """Own side's total minus the best other side's, at the end of a rollout."""
    side_totals(t, s, totals)
    mine = t[t[T_SIDE] + seat]
    best = np.int64(-(1 << 62))
    for side in range(t[N_SIDES]):
        if side != mine and totals[side] > best:
            best = totals[side]
    return totals[mine] - best


@kernel
def lookahead(t, s, w, g, stats, floats, ints, policy, log) -> np.int64:
    """`LookaheadStrategy.choose`: the tried option of the best mean margin (first of equals)."""
    size = t[MAX_LEGAL]
    scores = floats[:size]
    value = floats[size : 2 * size]
    changes = changes_of(t, floats)
    order = ints[:size]
    options = ints[size : 2 * size]
    at = 2 * size
    counts = ints[at : at + t[N_KINDS]]
    at += t[N_KINDS]
    totals = ints[at : at + max(1, t[N_SIDES])]
    at += max(1, t[N_SIDES])
    world = ints[at : at + t[S_SIZE]]
    branch = ints[at + t[S_SIZE] : at + 2 * t[S_SIZE]]
    seat = s[CURRENT]
    n = s[N_LEGAL]
    heuristic_scores(t, s, seat, policy, stats, changes, scores)
    for i in range(n):  # stable sort by -score: legal order among equal scores
        j = i
        while j > 0 and scores[order[j - 1]] < scores[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    width = min(n, max(1, np.int64(w[WIDTH])))
    legal = t[S_LEGAL]
    if width == 1:
        return s[legal + order[0]]
    for i in range(width):
        options[i] = s[legal + order[i]]
        value[i] = 0.0
    worlds = max(1, np.int64(w[ROLLOUTS]) // width)
    for _ in range(worlds):
        determinize(t, s, seat, g, world, counts)
        for i in range(width):
            copy_state(branch, world)
            apply(t, branch, options[i], log, -1)
            while branch[N_LEGAL] > 0:
                heuristic_scores(t, branch, branch[CURRENT], policy, stats, changes, scores)
                action = pick(t, branch, scores, order, g, False)
                apply(t, branch, action, log, -1)
            value[i] += margin(t, branch, seat, totals)
    best = 0
    for i in range(width):
        value[i] = value[i] / worlds
        if value[i] > value[best]:
            best = i
    return options[best]

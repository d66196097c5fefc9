"""Every compiled decision, the shared searches included: `lookahead` (flat Monte Carlo on
determinised states) and `ismcts` (`sanssim.compiled.ismcts` over this module's hooks).

`lookahead` mirrors `sanssim.strategies.lookahead` with Seikatsu's `determinize`: the
default `heuristic` ranks the options, the `width` best are each tried on the same
sampled worlds (the unseen tiles sorted, shuffled, dealt to the other hands and the
rest the bag), and every seat plays on by the default `heuristic` to the end, all on
the lookahead player's one random stream. An option's value is its mean final margin.
`ismcts`'s context is (the table, the rollout weights, the row stats, the scores, an
order, kind counts, the unwritten log, side totals and places, the heuristic's row
changes); the bag order is a world's only chance, fixed by `determinize`, and every
draw is the player's stream's. Its hooks are kernels, as the search requires.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.ismcts import PARAMS, best_first, searcher
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty, larger, zeros
from sanssim.games.seikatsu.core.engine import (
    EMPTY,
    UNLOGGED,
    apply,
    copy_state,
    side_ranks,
    side_totals,
    spread,
)
from sanssim.games.seikatsu.core.strategies import (
    ANY_PLAY,
    GREEDY,
    ISMCTS,
    KEEP_KOI,
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
    return zeros(2 * t[MAX_LEGAL] + t[N_KINDS] + larger(1, t[N_SIDES]) + 2 * t[S_SIZE], np.int64)


@nb.njit(cache=True)
def float_work(t: np.ndarray) -> np.ndarray:
    """Float work space of a decision: scores and option values (a legal list each),
    then each side's row changes (`heuristic_scores`)."""
    return zeros(2 * t[MAX_LEGAL] + larger(1, t[N_SIDES]) * t[N_ROWS], np.float64)


@nb.njit(cache=True, inline="always")
def changes_of(t: np.ndarray, floats: np.ndarray) -> np.ndarray:
    """The row changes' part of `float_work`, one row per side."""
    return floats[2 * t[MAX_LEGAL] :].reshape((larger(1, t[N_SIDES]), t[N_ROWS]))


@nb.njit(cache=True)
def decide(t, s, code: np.int64, w, g, stats, floats, ints, policy, log) -> np.int64:
    """`choose_any`, called from Python (`SeikatsuCore.decide`)."""
    return choose_any(t, s, code, w, g, stats, floats, ints, policy, log)


@kernel(allocates=True)
def choose_any(t, s, code: np.int64, w, g, stats, floats, ints, policy, log) -> np.int64:
    """The action the current seat's strategy `code` with parameters `w` picks. Work
    space: `stats` (row stats), `floats` (`float_work`), `ints` (`int_work`); `policy`
    are the rollout weights, `log` is not written. Reference-counted: `ismcts`
    allocates."""
    if code == ISMCTS:
        visits = empty(s[N_LEGAL], np.float64)
        return ismcts(t, s, w, g, stats, floats, ints, policy, log, visits, visits.copy())
    if code == LOOKAHEAD:
        return lookahead(t, s, w, g, stats, floats, ints, policy, log)
    return choose(t, s, code, w, g, stats, floats, ints, policy, log)


@kernel
def choose(t, s, code: np.int64, w, g, stats, floats, ints, policy, log) -> np.int64:
    """`choose_any` for the strategies that search nothing (random, greedy, heuristic),
    without reference counts: the chunk loop calls it once a decision, where `choose_any`
    would count references on its ten arrays."""
    if code == RANDOM:
        return choose_random(t, s, g)
    order = ints[: t[MAX_LEGAL]]
    if code == GREEDY:
        greedy_scores(t, s, s[CURRENT], stats, floats)
        return pick(t, s, floats, order, g, KEEP_KOI)
    heuristic_scores(t, s, s[CURRENT], w, stats, changes_of(t, floats), floats)
    return pick(t, s, floats, order, g, ANY_PLAY)


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
def ranked(t, s, policy, stats, changes, scores, k, order) -> np.int64:  # type: ignore[no-untyped-def]
    """`order[:k]`: the indices of the `k` legal choices the rollout heuristic's `explain`
    ranks first (a stable sort by -score: legal order among equal scores); how many."""
    heuristic_scores(t, s, s[CURRENT], policy, stats, changes, scores)
    return best_first(scores, s[N_LEGAL], k, order)


@kernel
def play_out(t, s, policy, stats, changes, scores, order, g, log, uniform) -> None:  # type: ignore[no-untyped-def]
    """Every seat plays on by the rollout heuristic (or uniformly at random), drawing from `g`."""
    while s[N_LEGAL] > 0:
        if uniform:
            action = choose_random(t, s, g)
        else:
            heuristic_scores(t, s, s[CURRENT], policy, stats, changes, scores)
            action = pick(t, s, scores, order, g, ANY_PLAY)
        apply(t, s, action, log, UNLOGGED)


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
    totals = ints[at : at + larger(1, t[N_SIDES])]
    at += larger(1, t[N_SIDES])
    world = ints[at : at + t[S_SIZE]]
    branch = ints[at + t[S_SIZE] : at + 2 * t[S_SIZE]]
    seat = s[CURRENT]
    width = ranked(t, s, policy, stats, changes, scores, larger(1, np.int64(w[WIDTH])), order)
    legal = t[S_LEGAL]
    if width == 1:
        return s[legal + order[0]]
    for i in range(width):
        options[i] = s[legal + order[i]]
        value[i] = 0.0
    worlds = larger(1, np.int64(w[ROLLOUTS]) // width)
    for _ in range(worlds):
        determinize(t, s, seat, g, world, counts)
        for i in range(width):
            copy_state(branch, world)
            apply(t, branch, options[i], log, UNLOGGED)
            play_out(t, branch, policy, stats, changes, scores, order, g, log, False)
            value[i] += margin(t, branch, seat, totals)
    best = 0
    for i in range(width):
        value[i] = value[i] / worlds
        if value[i] > value[best]:
            best = i
    return options[best]


@kernel
def _determinize(ctx, root, world, g) -> None:  # type: ignore[no-untyped-def]
    determinize(ctx[0], root, root[CURRENT], g, world, ctx[5])


@kernel
def _options(ctx, world, width, out) -> np.int64:  # type: ignore[no-untyped-def]
    t = ctx[0]
    n = world[N_LEGAL]
    legal = t[S_LEGAL]
    if width < 1 or n <= width:
        for i in range(n):
            out[i] = world[legal + i]
        return n
    order = ctx[4]
    ranked(t, world, ctx[1], ctx[2], ctx[9], ctx[3], width, order)
    for i in range(width):
        out[i] = world[legal + order[i]]
    return width


@kernel
def _play(ctx, world, action) -> None:  # type: ignore[no-untyped-def]
    apply(ctx[0], world, action, ctx[6], UNLOGGED)


@kernel
def _over(world) -> bool:  # type: ignore[no-untyped-def]
    return world[N_LEGAL] == 0


@kernel
def _mover(world) -> np.int64:  # type: ignore[no-untyped-def]
    return world[CURRENT]


@kernel
def _roll(ctx, world, g, uniform) -> None:  # type: ignore[no-untyped-def]
    """One decision of `play_out`."""
    t = ctx[0]
    if uniform:
        action = choose_random(t, world, g)
    else:
        heuristic_scores(t, world, world[CURRENT], ctx[1], ctx[2], ctx[9], ctx[3])
        action = pick(t, world, ctx[3], ctx[4], g, ANY_PLAY)
    apply(t, world, action, ctx[6], UNLOGGED)


@kernel
def _outcome(ctx, world, ranks, totals) -> None:  # type: ignore[no-untyped-def]
    """Each seat its side's place and total (`State.ranks`, `State.returns`)."""
    t = ctx[0]
    side_totals(t, world, ctx[7])
    side_ranks(t, ctx[7], ctx[8])
    for p in range(ranks.shape[0]):
        side = t[t[T_SIDE] + p]
        ranks[p] = ctx[8][side]
        totals[p] = ctx[7][side]


_search = searcher(_determinize, _options, _play, _over, _mover, _roll, _outcome)


@kernel(allocates=True)
def ismcts(t, s, w, g, stats, floats, ints, policy, log, visits, means) -> np.int64:  # type: ignore[no-untyped-def]
    """`IsmctsStrategy.choose` for the current seat (its `terms` in `visits` and `means`,
    one per legal choice); `w`: the search's parameters (`sanssim.compiled.ismcts`)."""
    size = t[MAX_LEGAL]
    sides = larger(1, t[N_SIDES])
    ctx = (
        t,
        policy,
        stats,
        floats[:size],
        ints[:size],
        ints[size : size + t[N_KINDS]],
        log,
        zeros(sides, np.int64),
        zeros(sides, np.int64),
        changes_of(t, floats),
    )
    n = t[N_PLAYERS]
    seat_sides = empty(n, np.int64)
    for p in range(n):
        seat_sides[p] = t[t[T_SIDE] + p]
    legal = s[t[S_LEGAL] : t[S_LEGAL] + s[N_LEGAL]].copy()
    return _search(ctx, s, legal, g, w[:PARAMS], seat_sides, size, visits, means)

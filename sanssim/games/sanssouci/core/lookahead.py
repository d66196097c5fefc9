"""`lookahead` in compiled code, choosing what `sanssim.strategies.lookahead` chooses.

The `width` options `heuristic` (default weights) ranks best are tried on the same
sampled worlds: each world is `PlayerView.determinize` replicated draw for draw (the
unknowns sorted, then shuffled from the seat's stream; the world's own stream seeded
from its `getrandbits(64)`), each option is applied to a copy, and `heuristic` plays
every seat to the end. An option's value is its mean final margin; the first of the
best values wins, as the Python version's stable sort has it.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty, larger, smaller
from sanssim.games.sanssouci.actions import END, HAND_SIZE, TAKE
from sanssim.games.sanssouci.core.choices import start_turn
from sanssim.games.sanssouci.core.heuristic import heuristic_scores
from sanssim.games.sanssouci.core.layout import (
    CURRENT,
    DECK,
    DECK_LEN,
    DECKS,
    G_N,
    G_RESHUFFLE,
    HAND_LEN,
    HANDS,
    LEGAL,
    LEGAL_LEN,
    MISSIONS,
    N_SYMBOLS,
    PHASE,
    RECORD,
    RECORD_WIDTH,
    SUPPLY,
    SUPPLY_LEN,
)
from sanssim.games.sanssouci.core.rules import apply
from sanssim.games.sanssouci.core.score import RESULT_WIDTH, V_TOTAL, score_game
from sanssim.games.sanssouci.core.strategies import HEURISTIC, best_by_score
from sanssim.games.sanssouci.core.weights import W_ROLLOUTS, W_WIDTH, WORK


@kernel
def _sort(a: np.ndarray) -> None:
    """Sort `a` in place, ascending: an insertion sort, as the arrays are short and
    numba's own sort costs seconds of compile (the same order, as they hold ints)."""
    for i in range(1, a.shape[0]):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@kernel
def _copy(to: np.ndarray, source: np.ndarray) -> None:
    """`to[:] = source` as a loop: numba's array assignment costs seconds of compile (its
    shape checks' messages)."""
    for i in range(source.shape[0]):
        to[i] = source[i]


@kernel(allocates=True)
def determinize(
    st: np.ndarray, gp: np.ndarray, world: np.ndarray, wg: np.ndarray, g: np.ndarray, me: int
) -> None:
    """`world` and its stream `wg`: a state consistent with what seat `me` sees of `st`,
    its unknowns sampled from `g` (PlayerView.determinize). Without the reshuffle house
    rule the world never draws: its seed is drawn, but seeding `wg`, two thirds of the
    call's time, is skipped."""
    _copy(world, st)
    world[RECORD] = 0
    size = world[SUPPLY_LEN]
    _sort(world[SUPPLY : SUPPLY + size])
    mt.shuffle(g, world[SUPPLY : SUPPLY + size], size)
    pool = empty(DECK + HAND_SIZE, np.int64)
    n = gp[G_N]
    for seat in range(n):
        deck = DECKS + DECK * seat
        left = world[DECK_LEN + seat]
        if seat == me:
            _sort(world[deck : deck + left])
            mt.shuffle(g, world[deck : deck + left], left)
            continue
        held = world[HAND_LEN + seat]
        for i in range(held):
            pool[i] = world[HANDS + HAND_SIZE * seat + i]
        for i in range(left):
            pool[held + i] = world[deck + i]
        _sort(pool[: held + left])
        mt.shuffle(g, pool[: held + left], held + left)
        for i in range(held):
            world[HANDS + HAND_SIZE * seat + i] = pool[i]
        for i in range(left):
            world[deck + i] = pool[held + i]
    unknown = empty(N_SYMBOLS - 2, np.int64)
    k = np.int64(0)  # not the literal 0: `shuffle` would compile for it too
    for m in range(N_SYMBOLS):
        if m != world[MISSIONS + 2 * me] and m != world[MISSIONS + 2 * me + 1]:
            unknown[k] = m
            k += 1
    mt.shuffle(g, unknown, k)
    k = 0
    for seat in range(n):
        if seat != me:
            world[MISSIONS + 2 * seat] = unknown[k]
            world[MISSIONS + 2 * seat + 1] = unknown[k + 1]
            k += 2
    seed = mt.getrandbits(g, np.int64(64))
    if gp[G_RESHUFFLE]:  # the world's stream draws for reshuffles only: else left unseeded
        mt.seed(wg, seed)
    if world[PHASE] == TAKE and world[CURRENT] != me:
        start_turn(world, gp)


@nb.njit(cache=True, inline="always")
def _ahead(a: float, b: float) -> bool:
    """Whether score `a` ranks before `b`: higher, or a number where `b` is NaN."""
    return a > b or (np.isnan(b) and not np.isnan(a))


@kernel(allocates=True)
def ranked(
    st: np.ndarray, gp: np.ndarray, hw: np.ndarray, width: int, work: np.ndarray
) -> np.ndarray:
    """heuristic.explain's first `width` options: best score first, ties in legal order
    (a stable sort's first `width`, NaN last, picked one by one: numba's sorts cost
    seconds of compile)."""
    n_legal = st[LEGAL_LEN]
    scores = empty(n_legal, np.float64)
    heuristic_scores(st, gp, hw, scores, work)
    keep = smaller(larger(1, width), n_legal)
    options = empty(keep, np.int64)
    taken = empty(n_legal, np.bool_)
    for j in range(n_legal):
        taken[j] = False
    for i in range(keep):
        best = -1
        for j in range(n_legal):
            if not taken[j] and (best < 0 or _ahead(scores[j], scores[best])):
                best = j
        taken[best] = True
        options[i] = st[LEGAL + best]
    return options


@nb.njit(cache=True, inline="always")
def _margin(
    world: np.ndarray,
    gp: np.ndarray,
    hw: np.ndarray,
    seat: np.int64,
    wg: np.ndarray,
    work: np.ndarray,
    log: np.ndarray,
    pos: np.ndarray,
) -> np.int64:
    """Every seat plays the world (its stream `wg`) to the end by heuristic (weights `hw`);
    the seat's total minus the best other total. Inlined into `lookahead`, its one caller:
    a library less to compile."""
    while world[PHASE] != END:
        action = best_by_score(world, gp, np.int64(HEURISTIC), hw, work)
        apply(world, gp, wg, action, log, pos)
    n = gp[G_N]
    totals = empty((n, RESULT_WIDTH), np.int64)  # score_game writes every row
    score_game(world, gp, totals)
    best_other = -(1 << 62)
    for p in range(n):
        if p != seat and totals[p, V_TOTAL] > best_other:
            best_other = totals[p, V_TOTAL]
    return totals[seat, V_TOTAL] - best_other


@kernel(allocates=True)
def lookahead(st: np.ndarray, gp: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.int64:
    """LookaheadStrategy.choose for the current seat; `w`: heuristic's default weights,
    rollouts and width."""
    me = st[CURRENT]
    work = empty(WORK, np.float64)
    options = ranked(st, gp, w, np.int64(w[W_WIDTH]), work)
    k = options.shape[0]
    if k == 1:
        return options[0]
    worlds = larger(1, np.int64(w[W_ROLLOUTS]) // k)
    totals = empty(k, np.float64)  # no np.zeros nor np.empty_like: numba compiles
    world = st.copy()  # each for each type, about 0.05 CPU-s
    trial = st.copy()
    wg = empty(mt.STATE, np.uint32)
    trial_g = empty(mt.STATE, np.uint32)
    log = empty((0, RECORD_WIDTH), np.int16)
    pos = empty(1, np.int64)
    for i in range(k):
        totals[i] = 0.0
    for i in range(mt.STATE):
        wg[i] = 0
    pos[0] = 0
    for _ in range(worlds):
        determinize(st, gp, world, wg, g, me)
        for i in range(k):
            _copy(trial, world)
            _copy(trial_g, wg)
            apply(trial, gp, trial_g, options[i], log, pos)
            totals[i] += _margin(trial, gp, w, me, trial_g, work, log, pos)
    best = options[0]
    best_value = -np.inf
    for i in range(k):
        value = totals[i] / worlds
        if value > best_value:
            best, best_value = options[i], value
    return best

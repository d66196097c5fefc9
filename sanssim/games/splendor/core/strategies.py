"""The compiled strategies: `random`, `greedy` and `heuristic` (and the shared searches,
`lookahead` and `ismcts`), choosing exactly what their Python versions choose.

Each score is the Python `sum(terms.values())`: the same terms added left to right in
the same order, so the floats are the same floats; `choose` keeps the first of equal
best scores, as `_Scored.choose` does. What `_Position` computes for the deciding seat
is `Position` here: the cards it could buy (display, then its reservations), their
actions and the gems each is short.
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled.lowered import empty, larger
from sanssim.games.splendor.actions import (
    BUY,
    GOLD,
    MAIN,
    N_GEMS,
    NOBLE_CHOICE,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    RETURNING,
)
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.heuristic import heuristic_scores
from sanssim.games.splendor.core.ismcts import ismcts
from sanssim.games.splendor.core.lookahead import lookahead_choose
from sanssim.games.splendor.core.position import (
    SHORT_SUM,
    TAKE_GAINS,
    best,
    position,
    spent,
)
from sanssim.games.splendor.core.state import inline, jit, random_choice, seat

RANDOM, GREEDY, HEURISTIC, LOOKAHEAD, ISMCTS = range(5)
FAILED = -1  # the choice of a strategy that raises in Python


@inline
def _greedy_target(pos_cards: np.ndarray, shorts: np.ndarray, count: int, cards: np.ndarray) -> int:
    """The closest card: fewest gems short, then most points, then lowest id."""
    best = -1
    key = (0, 0, 0)
    for i in range(count):
        card = pos_cards[i]
        mine = (shorts[i, SHORT_SUM], -cards[card, L.K_POINTS], card)
        if best < 0 or mine < key:
            best, key = i, mine
    return best


@inline
def greedy_scores(
    S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, out: np.ndarray, work: tuple
) -> bool:
    """`GreedyStrategy.terms`, summed, for each legal choice; False where the Python
    strategy raises (a take or a return with no card to aim at: `min` of nothing)."""
    p = S[L.H_CURRENT]
    base = seat(p)
    n_legal = S[L.H_N_LEGAL]
    count = position(S, cards, base, work)
    at, pos_cards, shorts = work[0], work[1], work[2]
    phase = S[L.H_PHASE]
    if count == 0 and phase != NOBLE_CHOICE:
        return False
    if phase == MAIN:
        target = _greedy_target(pos_cards, shorts, count, cards)
        for j in range(n_legal):
            a = S[L.LEGAL + j]
            if a >= BUY and a < PASS:
                i = at[a - BUY]
                gems, gold = spent(S, cards, base, pos_cards[i])
                score = 100.0 + 10.0 * cards[pos_cards[i], L.K_POINTS]
                out[j] = score + -0.01 * (gems + gold)
            elif a < RESERVE:
                progress = 0.0
                breadth = 0.0
                for k in range(3):
                    c = TAKE_GAINS[a, k]
                    if c < 0:
                        break
                    repeat = 1 if k == 1 and TAKE_GAINS[a, 0] == c else 0
                    if shorts[target, c] > repeat:
                        progress += 1.0
                    helped = 0
                    for i in range(count):
                        if shorts[i, c] > repeat:
                            helped += 1
                    breadth += helped
                out[j] = progress + 0.001 * breadth
            elif a == PASS:
                out[j] = -2.0
            elif (
                a < RESERVE_BLIND
                and S[L.SUPPLY + GOLD]
                and S[L.DISPLAY + a - RESERVE] == pos_cards[target]
            ):
                out[j] = 0.5
            else:
                out[j] = -1.0
    elif phase == RETURNING:
        least = 0
        for i in range(1, count):
            if _need_sum(S, cards, base, pos_cards[i]) < _need_sum(
                S, cards, base, pos_cards[least]
            ):
                least = i
        for j in range(n_legal):
            c = S[L.LEGAL + j] - RETURN
            if c == GOLD:
                out[j] = -1.0
            else:
                need = larger(0, cards[pos_cards[least], L.K_COST + c] - S[base + L.P_BONUS + c])
                out[j] = 0.1 * (S[base + L.P_TOKENS + c] - need)
    else:
        out[:n_legal] = 0.0
    return True


@inline
def _need_sum(S: np.ndarray, cards: np.ndarray, base: int, card: int) -> int:
    total = 0
    for c in range(N_GEMS):
        total += larger(0, cards[card, L.K_COST + c] - S[base + L.P_BONUS + c])
    return total


@inline
def choose(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    kind: int,
    params: np.ndarray,
    g: np.ndarray,
    work: tuple,
    scores: np.ndarray,
) -> int:
    """The choice of a seat playing strategy `kind` with `params` and random stream `g`,
    or FAILED (`work` and `scores`: scratch)."""
    if kind == LOOKAHEAD:
        return lookahead_choose(S, cfg, cards, nobles, params, g, work, scores)
    if kind == ISMCTS:
        visits = empty(S[L.H_N_LEGAL], np.float64)
        return ismcts(S, cfg, cards, nobles, params, g, visits, visits.copy())
    return choose_simple(S, cfg, cards, nobles, kind, params, g, work, scores)


@jit
def choose_simple(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    kind: int,
    params: np.ndarray,
    g: np.ndarray,
    work: tuple,
    scores: np.ndarray,
) -> int:
    """`choose` for the strategies that search nothing (`random`, `greedy`, `heuristic`),
    as a kernel: the chunk loop calls it once a decision, where an inlined `choose`
    counts references on its arrays."""
    if kind == RANDOM:
        return random_choice(S, g)
    if kind == GREEDY:
        if not greedy_scores(S, cfg, cards, scores, work):
            return FAILED
        return best(S, scores)
    return S[L.LEGAL + heuristic_scores(S, cfg, cards, nobles, params, scores, work)]

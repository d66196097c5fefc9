"""`random`, `greedy` and `heuristic` in compiled code, choosing what their Python versions
choose: the same float operations in the same order, the same ties (the first best option
in the order of the legal choices), the same draws.

A seat's strategy is a kind (`RANDOM`, `GREEDY`, `HEURISTIC`, `LOOKAHEAD`, `ISMCTS`) and a
float64 weight row (`heuristic.weights`); `heuristic` holds the values `heuristic` scores by.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled.kernel import kernel
from sanssim.games.sanssouci.core.choices import legal_list, pick
from sanssim.games.sanssouci.core.greedy import greedy_score
from sanssim.games.sanssouci.core.heuristic import first_best, heuristic_scores
from sanssim.games.sanssouci.core.layout import LEGAL, LEGAL_LEN
from sanssim.games.sanssouci.core.weights import TILES

RANDOM, GREEDY, HEURISTIC, LOOKAHEAD, ISMCTS = range(5)


@kernel
def choose_simple(
    st: np.ndarray, gp: np.ndarray, kind: np.int64, w: np.ndarray, g: np.ndarray, work: np.ndarray
) -> np.int64:
    """The choice of a `random`, `greedy` or `heuristic` seat (its weights `w`, its stream
    `g`; `work`: a `work_array`): a kernel, since it is called at every decision."""
    if kind == RANDOM:
        return random_pick(st, mt.random(g))
    return best_by_score(st, gp, kind, w, work)


@kernel(forceinline=True)
def random_pick(st: np.ndarray, draw: float) -> np.int64:
    """`random`'s choice by its `random()` draw, as `RandomStrategy` makes it; inlined
    where it is called, since a call would cost more than the choice."""
    return pick(st, np.int64(draw * st[LEGAL_LEN]))


@nb.njit(cache=True, inline="always")
def best_by_score(
    st: np.ndarray, gp: np.ndarray, kind: np.int64, w: np.ndarray, work: np.ndarray
) -> np.int64:
    """`greedy`'s or `heuristic`'s choice: the first legal choice of the highest score
    (`work`: a `work_array`); inlined where it is called, a library less to compile."""
    n_legal = st[LEGAL_LEN]
    scores = work[:TILES]
    if kind == GREEDY:
        legal_list(st)
        for i in range(n_legal):
            scores[i] = greedy_score(st, gp, st[LEGAL + i])
    else:
        heuristic_scores(st, gp, w, scores, work)
    return first_best(st, scores)

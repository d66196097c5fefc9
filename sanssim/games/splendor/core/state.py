"""Small accessors of a compiled Splendor game's flat state, shared by every step."""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.kernel import kernel
from sanssim.games.splendor.actions import EMPTY
from sanssim.games.splendor.core import layout as L

jit = kernel  # no reference counts: what allocates is a `kernel(allocates=True)`
# for the wrappers called from one place: inlined there, no compiled library of their own
inline = nb.njit(cache=True, inline="always")
# for a helper called from several places: typed once, inlined by LLVM at each
step = kernel(forceinline=True)


@jit
def seat(p: int) -> int:
    """Where seat `p`'s block starts."""
    return L.SEATS + L.SEAT_WIDTH * p


@step
def random_choice(S: np.ndarray, g: np.ndarray) -> np.int64:
    """`RandomStrategy`'s choice: the legal choice at `int(random() * count)`, drawn from
    `g` (a random seat's stream, or a uniform rollout's)."""
    return S[L.LEGAL + np.int64(rng.random(g) * S[L.H_N_LEGAL])]


@inline
def copy(dst: np.ndarray, at: int, src: np.ndarray, start: int, count: int) -> None:
    """`dst[at : at + count] = src[start : start + count]`, as a loop (slices compile slowly);
    inlined, since called with constant positions a kernel compiles once per constant."""
    for i in range(count):
        dst[at + i] = src[start + i]


@jit
def push(S: np.ndarray, action: int) -> None:
    S[L.LEGAL + S[L.H_N_LEGAL]] = action
    S[L.H_N_LEGAL] += 1


@jit
def pop_deck(S: np.ndarray, cfg: np.ndarray, level: int) -> int:
    """The top card of a level's deck, or EMPTY."""
    left = S[L.H_DECK_LEFT + level]
    if left == 0:
        return EMPTY
    S[L.H_DECK_LEFT + level] = left - 1
    return S[L.DECKS + cfg[L.C_LEVEL_START + level] + left - 1]


@jit
def ranks_of(S: np.ndarray, n: int, later: int, out: np.ndarray) -> None:
    """`State.ranks`: more points, then (with ties to the later seat) the later seat,
    then fewer cards; still tied shares the rank."""
    for p in range(n):
        rank = 1
        mine = seat(p)
        for q in range(n):
            other = seat(q)
            a, b = S[other + L.P_POINTS], S[mine + L.P_POINTS]
            if a == b and later:
                a, b = q, p
            if a == b:
                a, b = -S[other + L.P_CARDS], -S[mine + L.P_CARDS]
            if a > b:
                rank += 1
        out[p] = rank

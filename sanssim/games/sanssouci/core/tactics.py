"""Garden arithmetic shared by the compiled strategies (strategies/tactics.py's, on the
state array): row sums, where a tile lands, the mission columns."""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled.bits import bit_length, low_bit
from sanssim.compiled.kernel import kernel
from sanssim.games.sanssouci.actions import N_SLOTS
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.core.layout import (
    DISPLAY,
    G_MISSION_POINTS,
    G_SYMBOL_COLUMN,
    G_TARGET,
    GARDEN,
    MISSIONS,
    N_SYMBOLS,
)
from sanssim.games.sanssouci.core.rules import (
    COL_MASK,
    ROW_MASK,
)
from sanssim.games.sanssouci.garden import BELOW as _BELOW
from sanssim.games.sanssouci.garden import FULL

BELOW = np.array(_BELOW, dtype=np.int64)


@kernel(forceinline=True)
def row_sum(mask: np.int64) -> np.int64:
    """Row values of the squares in `mask` (tactics.row_sum)."""
    total = 0
    while mask:
        total += low_bit(mask) // N_COLS + 1
        mask &= mask - 1
    return total


@nb.njit(cache=True, inline="always")
def paid_sum(mask: np.int64, gp: np.ndarray) -> np.int64:
    """What missions would pay on the squares of `mask` (tactics.row_sum with points)."""
    total = 0
    while mask:
        total += gp[G_MISSION_POINTS + low_bit(mask) // N_COLS + 1]
        mask &= mask - 1
    return total


@kernel
def deepest_row(mask: np.int64) -> np.int64:
    return (bit_length(mask) - 1) // N_COLS + 1 if mask else 0


@kernel(forceinline=True)
def target_of(st: np.ndarray, gp: np.ndarray, p: np.int64, slot: np.int64) -> np.int64:
    symbol = st[DISPLAY + slot]
    return gp[gp[G_TARGET] + st[GARDEN + p] * N_SLOTS * N_SYMBOLS + slot * N_SYMBOLS + symbol]


@kernel(forceinline=True)
def gardener_spots(occupied: np.int64, target: np.int64) -> np.int64:
    """Where a gardener may go when `target` is occupied (tactics.Garden.landing)."""
    free = ~occupied & FULL
    spots = free & (ROW_MASK[target // N_COLS + 1] | COL_MASK[target % N_COLS])
    return spots if spots else free


@kernel(forceinline=True)
def mission_columns(st: np.ndarray, gp: np.ndarray, p: np.int64) -> np.int64:
    """The columns of the seat's two missions, as a mask of squares."""
    columns = gp[G_SYMBOL_COLUMN] + st[GARDEN + p] * N_SYMBOLS
    a = gp[columns + st[MISSIONS + 2 * p]]
    b = gp[columns + st[MISSIONS + 2 * p + 1]]
    return COL_MASK[a] | COL_MASK[b]

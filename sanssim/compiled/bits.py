"""Bit tricks on int64 masks in compiled code (Python's `int.bit_length` and lowest set bit)."""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros


@nb.njit(cache=True)
def bit_length(x: np.int64) -> np.int64:
    """`int.bit_length` of a non-negative mask (0 for 0)."""
    return np.int64(64 - leading_zeros(np.int64(x)))


@nb.njit(cache=True)
def low_bit(x: np.int64) -> np.int64:
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(trailing_zeros(np.int64(x)))


@nb.njit(cache=True)
def bit_count(x: np.int64) -> np.int64:
    """Set bits of a non-negative mask (`int.bit_count`)."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return np.int64(count)

"""Bit tricks on int64 masks in compiled code (Python's `int.bit_length`, `int.bit_count`
and the lowest set bit), each one instruction."""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic


@nb.njit(cache=True)
def bit_length(x: np.int64) -> np.int64:
    """`int.bit_length` of a non-negative mask (0 for 0)."""
    return np.int64(64 - leading_zeros(np.int64(x)))


@nb.njit(cache=True)
def low_bit(x: np.int64) -> np.int64:
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(trailing_zeros(np.int64(x)))


@intrinsic
def bit_count(typingctx, x):
    """Set bits of a non-negative mask (`int.bit_count`): one `ctpop` instruction."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(context.cast(builder, args[0], x, types.int64))

    return types.int64(x), codegen

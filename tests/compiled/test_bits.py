"""The compiled cores' intrinsics (`sanssim.compiled.bits`, `sanssim.compiled.lowered`)
against Python's own operations."""

from __future__ import annotations

import math

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanssim.compiled import bits
from sanssim.compiled.lowered import arange, empty, larger, smaller, zeros

MASKS = st.integers(min_value=1, max_value=(1 << 62) - 1)


@nb.njit
def _mask_facts(mask):  # type: ignore[no-untyped-def]
    return bits.bit_length(mask), bits.bit_count(mask), bits.low_bit(mask)


@given(MASKS)
@settings(max_examples=300, deadline=None)
def test_bit_length_count_and_low_bit_are_pythons(mask: int) -> None:
    low = (mask & -mask).bit_length() - 1
    assert _mask_facts(np.int64(mask)) == (mask.bit_length(), mask.bit_count(), low)


def _nth_bit_compiled(portable: bool):  # type: ignore[no-untyped-def]
    """`nth_bit` in a function compiled now, with BMI2's `pdep` where this machine has it,
    or with the loop every machine has."""
    bits.PORTABLE = portable
    try:

        @nb.njit
        def nth(mask, k):  # type: ignore[no-untyped-def]
            return bits.nth_bit(mask, k)

        nth(np.int64(1), np.int64(0))
    finally:
        bits.PORTABLE = False
    return nth


NTH = {portable: _nth_bit_compiled(portable) for portable in (False, True)}


@pytest.mark.parametrize("portable", [False, True])
@given(mask=MASKS, data=st.data())
@settings(max_examples=300, deadline=None)
def test_nth_bit_is_the_kth_set_bit_lowest_first(portable: bool, mask: int, data) -> None:
    squares = [b for b in range(63) if mask >> b & 1]
    k = data.draw(st.integers(min_value=0, max_value=len(squares) - 1))
    assert NTH[portable](np.int64(mask), np.int64(k)) == squares[k]


def test_the_portable_nth_bit_does_without_pdep() -> None:
    (signature,) = NTH[True].signatures
    assert "pdep" not in NTH[True].inspect_asm(signature)


@nb.njit
def _made(n):  # type: ignore[no-untyped-def]
    empties = (
        empty(n, np.int64),
        empty((n, 3), np.float64),
        empty(n, np.bool_),
        empty(2, np.uint32),
    )
    dirty = empty((n, 3), np.float64)
    dirty[:] = 7.0  # the next allocation may reuse this memory: zeros must still be 0 there
    zeroed = (
        zeros(n, np.int64),
        zeros((n, 3), np.float64),
        zeros(n, np.bool_),
        zeros(2, np.uint32),
    )
    return empties, zeroed


@pytest.mark.parametrize("zeroed", [False, True])
def test_empty_and_zeros_make_numpy_arrays_of_the_shape_and_type(zeroed: bool) -> None:
    made = _made(5)[zeroed]
    assert [(a.shape, a.dtype) for a in made] == [
        ((5,), np.int64),
        ((5, 3), np.float64),
        ((5,), np.bool_),
        ((2,), np.uint32),
    ]
    assert all(a.flags.c_contiguous for a in made)
    if zeroed:
        assert not any(a.any() for a in made)
    with pytest.raises(ValueError, match="negative dimensions"):
        _made(-1)


@nb.njit
def _counted(n):  # type: ignore[no-untyped-def]
    return arange(n), arange(np.int32(n))


@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_arange_counts_as_numpy_does(n: int) -> None:
    for got in _counted(n):
        assert got.dtype == np.int64 and got.flags.c_contiguous
        assert np.array_equal(got, np.arange(n))


@nb.njit
def _picks(a, b):  # type: ignore[no-untyped-def]
    return smaller(a, b), larger(a, b)


NUMBERS = st.one_of(
    st.integers(min_value=-(1 << 40), max_value=1 << 40),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
)


@given(NUMBERS, NUMBERS)
@settings(max_examples=300, deadline=None)
def test_smaller_and_larger_are_pythons_min_and_max(a: float, b: float) -> None:
    got = _picks(a, b)
    for mine, theirs in zip(got, (min(a, b), max(a, b)), strict=True):
        if isinstance(theirs, float) and math.isnan(theirs):
            assert math.isnan(mine)
        else:
            assert mine == theirs

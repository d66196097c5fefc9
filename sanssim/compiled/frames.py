"""From a core's preallocated integer arrays to the polars columns of a run's tables.

A core logs numbers (-1 for "none"); the run format has names, nulls and narrow types.
These turn whole arrays into columns at once, with no Python per row, so the turn log
costs little next to the games.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

NONE = -1  # how the cores log "nothing there"


def coded(codes: np.ndarray | Sequence[int], names: Sequence[str]) -> pl.Series:
    """Integer codes as the names they index; NONE (or any code out of range) is null.
    A pick from the names and a null by a Series of indices: half the time of `gather`
    given a numpy array of them, a third of `replace_strict`'s."""
    codes = np.asarray(codes)
    index = np.where((codes >= 0) & (codes < len(names)), codes, len(names))
    return pl.Series([*names, None], dtype=pl.String)[pl.Series(index.astype(np.uint32))]


def coded_lists(codes: np.ndarray | Sequence[int], width: int, names: Sequence[str]) -> pl.Series:
    """Rows of `width` codes (flattened) as lists of names, nulls kept."""
    return coded(codes, names).reshape((-1, width)).cast(pl.List(pl.String))


def lists(values: np.ndarray, dtype: pl.DataType) -> pl.Series:
    """A 2-D integer array's rows as a list column of `dtype`, narrowed by numpy in one
    pass (a third of the time of polars casting the lists' items)."""
    narrow = pl.Series([], dtype=dtype).to_numpy().dtype
    return pl.Series(values.astype(narrow, order="C")).cast(pl.List(dtype))

"""Column builders the games' log columns share: list columns from flat values.

Building a polars list column from Python lists of lists constructs a Series per row,
which dominates the cost of a part file for fast games; one flat Series and a reshape
costs the same as any plain column.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl


def fixed_lists(values: Sequence[object], width: int, dtype: pl.DataType) -> pl.Series:
    """Rows of `width` values each, given concatenated, as one list column."""
    return pl.Series(values, dtype=dtype).reshape((-1, width)).cast(pl.List(dtype))


def block_lists(block: np.ndarray, dtype: pl.DataType, nulls: bool = False) -> pl.Series:
    """The rows of a 2-D int block as one list column; with `nulls`, negative values are
    null (an empty slot, a missing card)."""
    flat = pl.Series(block.ravel())
    if nulls:
        flat = flat.set(flat < 0, None)  # type: ignore[arg-type]
    return flat.cast(dtype).reshape((-1, block.shape[1])).cast(pl.List(dtype))

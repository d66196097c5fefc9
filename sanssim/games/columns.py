"""Column builders the games' log modules share: list columns from flat values.

Building a polars list column from Python lists of lists constructs a Series per row,
which dominates the cost of a part file for fast games; one flat Series and a reshape
costs the same as any plain column.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl


def fixed_lists(values: Sequence[object], width: int, dtype: pl.DataType) -> pl.Series:
    """Rows of `width` values each, given concatenated, as one list column."""
    return pl.Series(values, dtype=dtype).reshape((-1, width)).cast(pl.List(dtype))


def short_lists(rows: Sequence[Sequence[int]], width: int, dtype: pl.DataType) -> pl.Series:
    """Int lists of at most `width` values (non-negative) as one list column: padded with
    -1 to `width`, reshaped, the padding dropped."""
    pad = (-1,) * width
    flat = pl.Series([v for r in rows for v in (*r, *pad[len(r) :])], dtype=dtype)
    flat = flat.set(flat < 0, None)  # type: ignore[arg-type]
    return flat.reshape((-1, width)).cast(pl.List(dtype)).list.drop_nulls()

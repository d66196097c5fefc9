"""Sums, means and variances whose value does not depend on the order of the rows.

Polars sums floats in whatever order the rows reach it (workers, part files, chunk sizes,
threads), and float addition is not associative: the same run gave a report whose last
digits changed from one build to the next. `std` differs with the order even on integers.
A `sort` before `sum` does not help: the optimiser drops it, as it cannot change an exact
sum. So every sum here is an integer sum, which is exact: integers as Int128, and floats as
fixed-point integers (each value times one power of two chosen from the largest, so that
the sum of 2^40 of them still fits an Int128); a variance is built from these sums.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl


def is_exact(dtype: pl.DataType | None) -> bool:
    """Integers and booleans sum exactly; an unknown type (None) is taken as a float."""
    return dtype is not None and (dtype.is_integer() or dtype == pl.Boolean)


# A float times 2^(HEADROOM - e), with 2^e at most its group's largest magnitude, is below
# 2^(HEADROOM + 1): 2^40 of them sum within an Int128 (127 bits and a sign).
HEADROOM = 86


def order_free_sum(value: pl.Expr, dtype: pl.DataType | None = None) -> pl.Expr:
    """Sum of the non-null values (0 when there are none), in any row order the same to
    the last bit: exact (Int128) for an integer or boolean `dtype`; else each value is
    rounded towards zero to a multiple of 2^(e - HEADROOM), 2^e the largest magnitude's
    power of two (but magnitudes below 2^-900 vanish), and these are summed exactly: the
    one rounding is of the total. A NaN or infinite value makes the sum NaN or infinite in
    any order: then the plain sum."""
    if is_exact(dtype):
        return value.cast(pl.Int128).sum()
    x = value.cast(pl.Float64)
    top = x.abs().max()
    scale = pl.lit(2.0).pow(HEADROOM - top.log(2).floor().clip(lower_bound=-900))
    fixed = (x * scale).cast(pl.Int128, strict=False).sum().cast(pl.Float64) / scale
    finite = x.is_finite().all()
    return pl.when(finite & (top > 0)).then(fixed).when(~finite).then(x.sum()).otherwise(0.0)


def order_free_mean(value: pl.Expr, dtype: pl.DataType | None = None) -> pl.Expr:
    """Mean of the non-null values (null when there are none), from `order_free_sum`."""
    n = value.count()
    return pl.when(n > 0).then(order_free_sum(value, dtype).cast(pl.Float64) / n)


def order_free_var(value: pl.Expr, dtype: pl.DataType | None = None) -> pl.Expr:
    """Sample variance (n - 1 divisor; null below two values). Integers: the exact
    n sum(x^2) - sum(x)^2 over n (n - 1); floats: squared deviations from the mean, summed
    in order (two passes, so no cancellation)."""
    n = value.count()
    if is_exact(dtype):
        x, m = value.cast(pl.Int128), n.cast(pl.Int128)
        spread = m * (x * x).sum() - x.sum().pow(2)
        variance = spread.cast(pl.Float64) / (m * (m - 1)).cast(pl.Float64)
    else:
        deviation = value.cast(pl.Float64) - order_free_mean(value)
        variance = order_free_sum(deviation * deviation) / (n - 1).cast(pl.Float64)
    return pl.when(n > 1).then(variance)


def order_free_std(value: pl.Expr, dtype: pl.DataType | None = None) -> pl.Expr:
    """Sample standard deviation, the square root of `order_free_var`."""
    return order_free_var(value, dtype).sqrt()


def order_free_means(frame: pl.LazyFrame, values: Mapping[str, pl.Expr]) -> list[pl.Expr]:
    """`order_free_mean` of each named value over the rows of `frame` (of each group, in an
    `agg`), typed by what the value is in `frame`, so that integers sum exactly."""
    types = frame.select(**values).collect_schema()
    return [order_free_mean(value, types[name]).alias(name) for name, value in values.items()]

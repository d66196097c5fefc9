"""Number formatting for report tables: every estimate with its interval, with as many
decimals as the interval's width deserves (more for the narrow intervals of big runs)."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from sanssim.analysis.stats import diff_of_means, newcombe_diff

MAX_DIGITS = 4


def interval(
    value: float, lo: float, hi: float, digits: int = 1, signed: bool = False, unit: str = ""
) -> str:
    """`value [lo, hi]`, with at least `digits` decimals and enough to show the width."""
    width = hi - lo
    if width > 0:
        digits = max(digits, min(MAX_DIGITS, math.ceil(-math.log10(width)) + 1))
    spec = f"{'+' if signed else ''}.{digits}f"
    return f"{value:{spec}}{unit} [{lo:{spec}}, {hi:{spec}}]"


def ci(row: dict[str, Any], name: str, digits: int = 1) -> str:
    """`mean [lo, hi]` from a row of `mean_table`."""
    mean, lo, hi = row[f"{name}_mean"], row[f"{name}_lo"], row[f"{name}_hi"]
    if mean is None:
        return "–"
    if lo is None:
        return f"{mean:.{digits}f} [n too small]"
    return interval(mean, lo, hi, digits)


def pct(row: dict[str, Any], name: str) -> str:
    """`p% [lo, hi]` from a row of `rate_table`."""
    p, lo, hi = row[f"{name}_p"], row[f"{name}_lo"], row[f"{name}_hi"]
    if p is None:
        return "–"
    return interval(100 * p, 100 * lo, 100 * hi, unit="%")


def diff(row: dict[str, Any], name: str, digits: int = 1, percent: bool = False) -> str:
    """`d [lo, hi]` and whether the interval excludes zero."""
    scale, unit = (100, " pp") if percent else (1, "")
    d, lo, hi = (row[f"{name}_{s}"] for s in ("d", "lo", "hi"))
    if d is None or lo is None or math.isnan(lo):
        return "–"
    text = interval(scale * d, scale * lo, scale * hi, digits, signed=True, unit=unit)
    return f"{text} {verdict(lo, hi)}"


def verdict(lo: float, hi: float) -> str:
    """A difference is called one only when its interval excludes zero."""
    if lo > 0:
        return "(higher)"
    if hi < 0:
        return "(lower)"
    return "(no clear difference)"


def pval(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def mean_diff(a: dict[str, Any], b: dict[str, Any], name: str, digits: int = 1) -> str:
    """Welch difference of two `mean_table` rows, with its verdict."""
    d, lo, hi = diff_of_means(a, b, name)
    return diff({"x_d": d, "x_lo": lo, "x_hi": hi}, "x", digits)


def rate_diff(a: dict[str, Any], b: dict[str, Any], name: str) -> str:
    """Newcombe difference of two `rate_table` rows in percentage points, with its verdict."""
    if a.get(f"{name}_p") is None or b.get(f"{name}_p") is None:
        return "–"
    frame = pl.DataFrame(
        {
            f"{side}_{s}": [row[f"{name}_{s}"]]
            for side, row in (("a", a), ("b", b))
            for s in ("p", "lo", "hi")
        }
    )
    return diff(frame.select(newcombe_diff("a", "b", "x")).row(0, named=True), "x", percent=True)


def span(rows: list[dict[str, Any]], value: str, show: Any) -> str:
    """`lowest (arm) to highest (arm)` of `value` over per-arm rows, each as `show(row)`."""
    ranked = sorted((r for r in rows if r[value] is not None), key=lambda r: r[value])
    lo, hi = ranked[0], ranked[-1]
    return f"{show(lo)} ({lo['arm']}) to {show(hi)} ({hi['arm']})"


def counts(rows: list[dict[str, Any]], n: str) -> str:
    """`20000 games each` or `2000 to 20000 games`, over per-arm rows."""
    low, high = min(r[n] for r in rows), max(r[n] for r in rows)
    return f"{low} games each" if low == high else f"{low} to {high} games"

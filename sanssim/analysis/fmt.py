"""Number formatting for report tables: every estimate with its interval."""

from __future__ import annotations

from typing import Any

import polars as pl

from sanssim.analysis.stats import diff_of_means, newcombe_diff


def ci(row: dict[str, Any], name: str, digits: int = 1) -> str:
    """`mean [lo, hi]` from a row of `mean_table`."""
    mean, lo, hi = row[f"{name}_mean"], row[f"{name}_lo"], row[f"{name}_hi"]
    if mean is None:
        return "–"
    if lo is None:
        return f"{mean:.{digits}f} [n too small]"
    return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def pct(row: dict[str, Any], name: str) -> str:
    """`p% [lo, hi]` from a row of `rate_table`."""
    p, lo, hi = row[f"{name}_p"], row[f"{name}_lo"], row[f"{name}_hi"]
    if p is None:
        return "–"
    return f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def diff(row: dict[str, Any], name: str, digits: int = 1, percent: bool = False) -> str:
    """`d [lo, hi]` and whether the interval excludes zero."""
    scale, unit = (100, " pp") if percent else (1, "")
    d, lo, hi = (row[f"{name}_{s}"] for s in ("d", "lo", "hi"))
    if d is None or lo is None:
        return "–"
    text = f"{scale * d:+.{digits}f}{unit} [{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]"
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
    if lo is None or lo != lo:
        return "–"
    return f"{d:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}] {verdict(lo, hi)}"


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

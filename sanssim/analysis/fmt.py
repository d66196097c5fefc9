"""Number formatting for report tables: every estimate with its interval, with as many
decimals as the interval's width deserves (more for the narrow intervals of big runs).

An estimate is rendered as a `Num`: a string that keeps its numbers, so that a table can
give one measure one number of decimals (`harmonised`), the most any of its intervals needs,
instead of a count per cell ("11.083%" beside "11.21%")."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from sanssim.analysis.stats import diff_of_means, newcombe_diff

MAX_DIGITS = 4


class Num(str):
    """`value [lo, hi]` as text, with the numbers kept: `needed` is the count of decimals
    its interval asks for, `at(digits)` the same estimate with another count; `suffix` (a
    verdict, an n) follows the numbers. `exact` takes `digits` as they are."""

    value: float
    lo: float
    hi: float
    signed: bool
    unit: str
    suffix: str
    needed: int

    def __new__(
        cls,
        value: float,
        lo: float,
        hi: float,
        digits: int = 1,
        signed: bool = False,
        unit: str = "",
        suffix: str = "",
        exact: bool = False,
    ) -> Num:
        width = hi - lo
        if width > 0 and not exact:
            digits = max(digits, min(MAX_DIGITS, math.ceil(-math.log10(width)) + 1))
        spec = f"{'+' if signed else ''}.{digits}f"
        num = super().__new__(cls, f"{value:{spec}}{unit} [{lo:{spec}}, {hi:{spec}}]{suffix}")
        num.value, num.lo, num.hi, num.signed, num.unit = value, lo, hi, signed, unit
        num.suffix, num.needed = suffix, digits
        return num

    def at(self, digits: int) -> Num:
        """The same estimate with exactly `digits` decimals."""
        return Num(self.value, self.lo, self.hi, digits, self.signed, self.unit, self.suffix, True)

    def then(self, suffix: str) -> Num:
        """The same estimate with `suffix` after it."""
        return Num(
            self.value,
            self.lo,
            self.hi,
            self.needed,
            self.signed,
            self.unit,
            self.suffix + suffix,
            True,
        )


def interval(
    value: float, lo: float, hi: float, digits: int = 1, signed: bool = False, unit: str = ""
) -> Num:
    """`value [lo, hi]`, with at least `digits` decimals and enough to show the width."""
    return Num(value, lo, hi, digits, signed, unit)


def followed(text: str, suffix: str) -> str:
    """`text` and then `suffix`, keeping an estimate's numbers (`Num.then`)."""
    return text.then(suffix) if isinstance(text, Num) else text + suffix


def harmonised(cells: list[str]) -> list[str]:
    """Cells of one measure: every `Num` among them with one count of decimals (other cells
    as they are). The count is what the narrowest interval needs to show its width, but at
    most one more than the widest needs: so an interval of a rare count beside many wide
    ones ("0.0025 [0.0000, 0.0074]" beside "0.55 [0.47, 0.62]") shows as "0.003 [0.000,
    0.007]", not every wide one with four decimals."""
    nums = [c for c in cells if isinstance(c, Num)]
    needed = [n.needed for n in nums if n.hi > n.lo]  # a zero width asks for nothing
    if len(nums) < 2 or not needed:
        return cells
    digits = min(max(needed), min(needed) + 1)
    return [c.at(digits) if isinstance(c, Num) else c for c in cells]


def ci(row: dict[str, Any], name: str, digits: int = 1) -> str:
    """`mean [lo, hi]` from a row of `mean_table`; a value every game shared is said so,
    not shown as a zero-width interval."""
    mean, lo, hi = row[f"{name}_mean"], row[f"{name}_lo"], row[f"{name}_hi"]
    if mean is None:
        return "–"
    if row.get(f"{name}_sd") == 0:
        return f"{round(mean, MAX_DIGITS):g} in every game"
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
    return text.then(f" {verdict(lo, hi)}")


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

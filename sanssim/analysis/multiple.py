"""Many comparisons at once: a report that scans every seat, card or side finds a few
"significant" ones by chance alone. Holm-adjusted p-values control the chance of any false
call; simultaneous intervals all cover their truths together with 95% probability."""

from __future__ import annotations

from typing import Literal

import polars as pl

from sanssim.analysis.stats import ALPHA, t_quantile, wilson_at, z_quantile

Method = Literal["sidak", "bonferroni"]


def holm(p: pl.Expr) -> pl.Expr:
    """Holm step-down adjusted p-values of a column (use `.over(...)` for several families):
    the i-th smallest of m is multiplied by m - i + 1, then made monotone and capped at 1.
    Null p-values stay null and do not count in m."""
    m = p.count()
    ordered = p.sort(nulls_last=True)
    factor = m - pl.int_range(pl.len())
    adjusted = (ordered * factor).cum_max().clip(upper_bound=1.0)
    return adjusted.gather(p.rank("ordinal") - 1)


def per_comparison_alpha(m: int, method: Method = "sidak", alpha: float = ALPHA) -> float:
    """Level of each of m intervals so that all hold together with probability 1 - alpha:
    Šidák (exact for independent estimates) or Bonferroni (valid always, slightly wider)."""
    if m < 1:
        raise ValueError(f"need at least one comparison, got {m}")
    if method == "sidak":
        return 1 - (1 - alpha) ** (1 / m)
    return alpha / m


def simultaneous_z(m: int, method: Method = "sidak") -> float:
    """Two-sided normal critical value for m simultaneous 95% intervals."""
    return z_quantile(1 - per_comparison_alpha(m, method) / 2)


def simultaneous_wilson(name: str, m: int, method: Method = "sidak") -> list[pl.Expr]:
    """`name_p`, `name_lo`, `name_hi`: Wilson intervals from `proportion`'s columns, widened
    so that m of them hold together."""
    return wilson_at(name, simultaneous_z(m, method))


def simultaneous_mean_ci(
    table: pl.DataFrame, name: str, m: int, method: Method = "sidak"
) -> pl.DataFrame:
    """Replace `name_lo`, `name_hi` of a `mean_table` by t intervals that hold together for m
    comparisons; the t quantile is computed once per distinct sample size."""
    p = 1 - per_comparison_alpha(m, method) / 2
    ns = [n for n in table[f"{name}_n"].unique().to_list() if n is not None and n >= 2]
    crit = pl.col(f"{name}_n").replace_strict(
        {n: t_quantile(p, n - 1) for n in ns}, default=None, return_dtype=pl.Float64
    )
    half = crit * pl.col(f"{name}_sd") / pl.col(f"{name}_n").cast(pl.Float64).sqrt()
    mean = pl.col(f"{name}_mean")
    return table.with_columns((mean - half).alias(f"{name}_lo"), (mean + half).alias(f"{name}_hi"))

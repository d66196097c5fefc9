"""Interval estimates and tests, as polars expressions so they apply to whole tables.

Every estimate is a 95% interval. No scipy: the t quantile uses the Cornish-Fisher
expansion (exact forms for 1 and 2 degrees of freedom), the chi-square survival
function the regularised upper incomplete gamma function (`special`). Sums, means and
variances are taken in a way that does not depend on the order of the rows (`order_free`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import polars as pl

from sanssim.analysis.order_free import is_exact, order_free_mean, order_free_std, order_free_sum
from sanssim.analysis.special import beta_inc, gamma_q

ALPHA = 0.05  # test level, matching the 95% intervals
Z = 1.959963984540054  # standard normal 0.975 quantile
_T_TERMS = (
    (1 / 4, (1, 1)),
    (1 / 96, (5, 16, 3)),
    (1 / 384, (3, 19, 17, -15)),
    (1 / 92160, (79, 776, 1482, -1920, -945)),
)


def _odd_poly(z: float, coefs: tuple[int, ...]) -> float:
    """coefs[0] z^(2k-1) + ... + coefs[-1] z for k = len(coefs)."""
    top = 2 * len(coefs) - 1
    return sum(c * z ** (top - 2 * i) for i, c in enumerate(coefs))


def t_crit(df: pl.Expr) -> pl.Expr:
    """Two-sided 95% critical value of Student's t with `df` degrees of freedom."""
    v = df.cast(pl.Float64)
    expansion = pl.lit(Z)
    for k, (scale, coefs) in enumerate(_T_TERMS, start=1):
        expansion = expansion + scale * _odd_poly(Z, coefs) / v.pow(k)
    p = 0.975
    return (
        pl.when(v < 1)
        .then(None)
        .when(v < 1.5)
        .then(pl.lit(math.tan(math.pi * (p - 0.5))))
        .when(v < 2.5)
        .then(pl.lit((2 * p - 1) / math.sqrt(2 * p * (1 - p))))
        .otherwise(expansion)
    )


def describe(value: pl.Expr, name: str, dtype: pl.DataType | None = None) -> list[pl.Expr]:
    """Aggregations `name_n`, `name_mean`, `name_sd` for `mean_ci`, the same in any row
    order (`order_free`; `dtype`: the value's, when known, for exact integer sums)."""
    return [
        value.count().alias(f"{name}_n"),
        order_free_mean(value, dtype).alias(f"{name}_mean"),
        order_free_std(value, dtype).alias(f"{name}_sd"),
    ]


def mean_ci(name: str) -> list[pl.Expr]:
    """`name_lo`, `name_hi`: t interval of the mean from `describe`'s columns."""
    n, mean, sd = (pl.col(f"{name}_{s}") for s in ("n", "mean", "sd"))
    half = t_crit(n - 1) * sd / n.cast(pl.Float64).sqrt()
    return [(mean - half).alias(f"{name}_lo"), (mean + half).alias(f"{name}_hi")]


def proportion(flag: pl.Expr, name: str, dtype: pl.DataType | None = None) -> list[pl.Expr]:
    """Aggregations `name_n` (trials) and `name_k` (successes, may be fractional: shares
    of a win), the same in any row order."""
    k = order_free_sum(flag, dtype).cast(pl.Float64)
    return [flag.count().alias(f"{name}_n"), k.alias(f"{name}_k")]


def wilson(name: str) -> list[pl.Expr]:
    """`name_p`, `name_lo`, `name_hi`: Wilson score interval from `proportion`'s columns."""
    return wilson_at(name, Z)


def wilson_at(name: str, z: float) -> list[pl.Expr]:
    """`wilson` with critical value `z`: simultaneous intervals need wider ones than 95%."""
    n = pl.col(f"{name}_n").cast(pl.Float64)
    p = pl.col(f"{name}_k") / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).sqrt()
    return [
        p.alias(f"{name}_p"),
        (centre - half).alias(f"{name}_lo"),
        (centre + half).alias(f"{name}_hi"),
    ]


def welch_diff(a: str, b: str, name: str) -> list[pl.Expr]:
    """`name_d`, `name_lo`, `name_hi`: Welch interval of mean(a) - mean(b), with its
    standard error `name_se` and degrees of freedom `name_df`."""
    va = pl.col(f"{a}_sd").pow(2) / pl.col(f"{a}_n")
    vb = pl.col(f"{b}_sd").pow(2) / pl.col(f"{b}_n")
    se = (va + vb).sqrt()
    df = (va + vb).pow(2) / (
        va.pow(2) / (pl.col(f"{a}_n") - 1) + vb.pow(2) / (pl.col(f"{b}_n") - 1)
    )
    d = pl.col(f"{a}_mean") - pl.col(f"{b}_mean")
    half = t_crit(df) * se
    return [
        d.alias(f"{name}_d"),
        (d - half).alias(f"{name}_lo"),
        (d + half).alias(f"{name}_hi"),
        se.alias(f"{name}_se"),
        df.cast(pl.Float64).alias(f"{name}_df"),
    ]


def newcombe_diff(a: str, b: str, name: str) -> list[pl.Expr]:
    """`name_d`, `name_lo`, `name_hi`: Newcombe hybrid score interval of p(a) - p(b),
    from Wilson columns `a_p/lo/hi` and `b_p/lo/hi`."""
    pa, la, ua = (pl.col(f"{a}_{s}") for s in ("p", "lo", "hi"))
    pb, lb, ub = (pl.col(f"{b}_{s}") for s in ("p", "lo", "hi"))
    d = pa - pb
    return [
        d.alias(f"{name}_d"),
        (d - ((pa - la).pow(2) + (ub - pb).pow(2)).sqrt()).alias(f"{name}_lo"),
        (d + ((ua - pa).pow(2) + (pb - lb).pow(2)).sqrt()).alias(f"{name}_hi"),
    ]


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` degrees of freedom."""
    return gamma_q(df / 2, x / 2)


def chi2_gof(observed: list[float], expected: list[float]) -> tuple[float, int, float]:
    """Goodness-of-fit statistic, degrees of freedom and p-value (sums exactly rounded, so
    the same in any order of the cells, as in `between_groups`)."""
    stat = math.fsum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    df = len(observed) - 1
    return stat, df, chi2_sf(stat, df)


def between_groups(ns: list[int], means: list[float], sds: list[float]) -> tuple[float, int, float]:
    """Large-sample test that group means are equal: sum n_i (m_i - m)^2 / pooled variance
    is chi-square with k - 1 degrees of freedom (k - 1 times the one-way ANOVA F).
    Groups of fewer than two values carry no variance and are left out."""
    kept = [(n, m, s) for n, m, s in zip(ns, means, sds, strict=True) if n >= 2 and s is not None]
    if len(kept) < 2:
        return 0.0, 0, 1.0
    ns, means, sds = (list(column) for column in zip(*kept, strict=True))
    total = sum(ns)
    grand = math.fsum(n * m for n, m in zip(ns, means, strict=True)) / total
    pooled = math.fsum((n - 1) * s * s for n, s in zip(ns, sds, strict=True)) / (total - len(ns))
    if pooled <= 0:
        return 0.0, len(ns) - 1, 1.0
    stat = math.fsum(n * (m - grand) ** 2 for n, m in zip(ns, means, strict=True)) / pooled
    return stat, len(ns) - 1, chi2_sf(stat, len(ns) - 1)


def mean_table(frame: pl.LazyFrame, by: list[str], values: dict[str, pl.Expr]) -> pl.DataFrame:
    """Per group of `by`: n, mean, sd and 95% interval of each named value. A value never
    negative in its group (a count, points) gets no negative lower bound: its mean cannot be
    below zero."""
    selected = _selected(frame, by, values)
    schema = selected.collect_schema()
    aggs = [e for name in values for e in describe(pl.col(name), name, schema[name])]
    floors = [pl.col(name).min().alias(f"{name}_floor") for name in values]
    cis = [e for name in values for e in mean_ci(name)]
    clipped = [
        pl.when((pl.col(f"{name}_floor") >= 0) & pl.col(f"{name}_lo").is_not_null())
        .then(pl.max_horizontal(f"{name}_lo", pl.lit(0.0)))
        .otherwise(pl.col(f"{name}_lo"))
        .alias(f"{name}_lo")
        for name in values
    ]
    table = _grouped(selected, by, [*aggs, *floors]).with_columns(cis).with_columns(clipped)
    return table.drop(f"{name}_floor" for name in values).sort(by)


def rate_table(frame: pl.LazyFrame, by: list[str], flags: dict[str, pl.Expr]) -> pl.DataFrame:
    """Per group of `by`: trials, successes and Wilson interval of each named flag."""
    selected = _selected(frame, by, flags)
    schema = selected.collect_schema()
    aggs = [e for name in flags for e in proportion(pl.col(name), name, schema[name])]
    cis = [e for name in flags for e in wilson(name)]
    return _grouped(selected, by, aggs).with_columns(cis).sort(by)


def ratio_table(
    frame: pl.LazyFrame,
    by: list[str],
    cluster: list[str],
    ratios: dict[str, tuple[pl.Expr, pl.Expr]],
    shares: Sequence[str] = (),
) -> pl.DataFrame:
    """Per group of `by`: each named ratio R = sum(numerator) / sum(denominator) over the
    rows (`name_mean`), with a 95% interval (`name_lo`, `name_hi`) from the cluster-robust
    (sandwich) variance over the G clusters named by `cluster` (rows of one cluster, e.g. the
    buys of one game, are not independent draws):

        V = G / (G - 1) * sum_g (num_g - R den_g)^2 / (sum_g den_g)^2

    A t interval on G - 1 degrees of freedom; for the ratios named in `shares` (a part of a
    whole, in [0, 1]) instead the Wilson interval at the effective sample size
    `name_eff` = R (1 - R) / V (Kish's design effect), which stays inside [0, 1], and falls
    back to G when V is 0 (every cluster gave the same share). `name_n` is G, `name_rows`
    the rows, `name_num` and `name_den` the sums. A zero denominator gives a null ratio."""
    table = _cluster_sums(frame, by, cluster, ratios)
    intervals = []
    for name in ratios:
        g = pl.col(f"{name}_n").cast(pl.Float64)
        total = pl.col(f"{name}_den")
        r = pl.when(total != 0).then(pl.col(f"{name}_num") / total)
        residual = (
            pl.col(f"{name}_nn") - 2 * r * pl.col(f"{name}_nd") + r.pow(2) * pl.col(f"{name}_dd")
        )
        variance = (g / (g - 1) * residual / total.pow(2)).clip(lower_bound=0.0)
        if name in shares:
            eff = pl.when((g > 1) & (variance > 0)).then(r * (1 - r) / variance).otherwise(g)
            intervals.append(
                table.select(
                    r.alias(f"{name}_mean"),
                    eff.alias(f"{name}_eff"),
                    eff.alias("w_n"),
                    (r * eff).alias("w_k"),
                )
                .with_columns(wilson("w")[1:])
                .select(
                    f"{name}_mean",
                    f"{name}_eff",
                    pl.col("w_lo").alias(f"{name}_lo"),
                    pl.col("w_hi").alias(f"{name}_hi"),
                )
            )
        else:
            half = t_crit(g - 1) * variance.sqrt()
            intervals.append(
                table.select(
                    r.alias(f"{name}_mean"),
                    (r - half).alias(f"{name}_lo"),
                    (r + half).alias(f"{name}_hi"),
                )
            )
    helpers = [f"{name}_{s}" for name in ratios for s in ("nn", "nd", "dd")]
    return pl.concat([table.drop(helpers), *intervals], how="horizontal").sort(by)


def _cluster_sums(
    frame: pl.LazyFrame,
    by: list[str],
    cluster: list[str],
    ratios: dict[str, tuple[pl.Expr, pl.Expr]],
) -> pl.DataFrame:
    """`ratio_table`'s sums per group: clusters `name_n`, rows `name_rows`, and over the
    clusters the numerators, denominators, their squares `name_nn`, `name_dd` and products
    `name_nd`. Integer parts stay exact (Int128) until these sums are taken."""
    parts = {
        f"{name}_{part}": expr
        for name, pair in ratios.items()
        for part, expr in zip(("num", "den"), pair, strict=True)
    }
    selected = _selected(frame, [*by, *cluster], parts)
    types = selected.collect_schema()
    per_cluster = selected.group_by([*by, *cluster]).agg(
        pl.len().alias("_rows"), *(order_free_sum(pl.col(c), types[c]).alias(c) for c in parts)
    )
    types = per_cluster.collect_schema()

    def summed(alias: str, a: str, b: str | None = None) -> pl.Expr:
        """Sum over the clusters of `a` (times `b`), exact when both are integers."""
        value, exact = pl.col(a), is_exact(types[a])
        if b is not None:
            value, exact = value * pl.col(b), exact and is_exact(types[b])
        return order_free_sum(value, pl.Int128 if exact else None).alias(alias)

    aggs = []
    for name in ratios:
        num, den = f"{name}_num", f"{name}_den"
        aggs += [
            pl.len().alias(f"{name}_n"),
            pl.col("_rows").sum().cast(pl.Int64).alias(f"{name}_rows"),
            summed(num, num),
            summed(den, den),
            summed(f"{name}_nn", num, num),
            summed(f"{name}_nd", num, den),
            summed(f"{name}_dd", den, den),
        ]
    table = per_cluster.group_by(by).agg(aggs).collect(engine="streaming")
    return table.with_columns(pl.col(pl.Int128).cast(pl.Float64))


def _selected(frame: pl.LazyFrame, by: list[str], columns: dict[str, pl.Expr]) -> pl.LazyFrame:
    """The group columns and the named columns, computed first: their types say which
    sums are exact, and the streaming engine keeps memory flat aggregating plain columns."""
    return frame.select(*by, *(expr.alias(name) for name, expr in columns.items()))


def _grouped(selected: pl.LazyFrame, by: list[str], aggs: list[pl.Expr]) -> pl.DataFrame:
    return selected.group_by(by).agg(aggs).collect(engine="streaming")


def diff_of_means(a: dict, b: dict, name: str) -> tuple[float, float, float]:
    """Welch difference mean(a) - mean(b) with its 95% interval, from `mean_table` rows."""
    frame = pl.DataFrame(
        {
            f"{side}_{s}": [row[f"{name}_{s}"]]
            for side, row in (("a", a), ("b", b))
            for s in ("n", "mean", "sd")
        }
    )
    d, lo, hi = frame.select(welch_diff("a", "b", "x")[:3]).row(0)
    return d, lo, hi


def z_quantile(p: float) -> float:
    """Standard normal quantile, for critical values at levels other than 95%."""
    return NormalDist().inv_cdf(p)


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` (possibly fractional, Welch) degrees of freedom."""
    if math.isnan(t) or df <= 0:
        return math.nan
    return beta_inc(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t, exact to ~1e-12 at any level (simultaneous intervals need
    levels far beyond the 0.975 that `t_crit` serves), by bisection on `t_two_sided_p`."""
    if not 0 < p < 1 or df <= 0:
        raise ValueError(f"t quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    tail = 2 * (1 - p)  # two-sided tail probability at the quantile
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > tail:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return (lo + hi) / 2


def win_share() -> pl.Expr:
    """1 for a sole winner, 1/k for each of k tied winners: shares sum to one per game."""
    wins = pl.col("winner").cast(pl.Float64)
    return wins / wins.sum().over("run", "game_id")

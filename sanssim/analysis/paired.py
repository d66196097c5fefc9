"""Paired comparisons of two arms played on the same game seeds.

When two arms play the same deals (same `game_id` and `game_seed`), the luck of the deal is
common to both and cancels in the per-game difference: the paired t interval of the mean
difference is then much narrower than the Welch interval that treats the arms as
independent samples. Both are returned, with their width ratio, so a report can say what
pairing bought. When the game ids or seeds do not match, pairing is meaningless and only the
Welch interval is given, with the reason.

Metrics, one value per game: `mean_total` (total averaged over the game's seats),
`seat<s>_win` (seat s's win share: 1 for a sole winner, 1/k for each of k co-winners),
`length` (a per-game column of the caller's choosing, e.g. turns played), and any `extra`
metric a game defines as an aggregation over one game's results rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from sanssim.analysis.order_free import order_free_mean
from sanssim.analysis.stats import describe, mean_ci, t_two_sided_p, welch_diff

COLUMNS = [
    "metric",
    "n_players",
    "n_a",
    "n_b",
    "mean_a",
    "mean_b",
    "diff",
    "lo",
    "hi",
    "paired_lo",
    "paired_hi",
    "welch_lo",
    "welch_hi",
    "width_ratio",
    "p",
    "effect",
]


@dataclass(frozen=True)
class Comparison:
    """`table`: one row per (metric, n_players) with the difference a - b, its interval
    `lo`, `hi` (paired when `paired`, else Welch), both intervals, `width_ratio` = paired
    width / Welch width, the two-sided p-value of the interval's test, and `effect`, the
    difference in standard deviations of the per-game values (null when neither arm's values
    vary). `reason` says why the arms were or were not paired."""

    paired: bool
    reason: str
    games_a: int
    games_b: int
    table: pl.DataFrame


def per_game(
    results: pl.LazyFrame | pl.DataFrame,
    length: str | None = None,
    extra: Mapping[str, pl.Expr] | None = None,
) -> pl.DataFrame:
    """One row per game: game_id, game_seed (when present), n_players and the metrics;
    `extra` maps a metric's name to its aggregation over the game's results rows."""
    frame = results.lazy()
    names = frame.collect_schema().names()
    seats = frame.select(pl.col("seat").max()).collect().item()
    win = pl.col("winner").cast(pl.Float64)
    share = (win / win.sum().over("game_id")).alias("win")
    keys = [c for c in ("game_seed", "n_players") if c in names]
    aggs = [pl.col(c).first() for c in keys]
    aggs.append(order_free_mean(pl.col("total")).alias("mean_total"))
    aggs += [
        pl.col("win").filter(pl.col("seat") == s).first().alias(f"seat{s}_win")
        for s in range(seats + 1)
    ]
    if length is not None:
        aggs.append(pl.col(length).cast(pl.Float64).first().alias("length"))
    aggs += [value.cast(pl.Float64).alias(name) for name, value in (extra or {}).items()]
    return frame.with_columns(share).group_by("game_id").agg(aggs).sort("game_id").collect()


def _metrics(games: pl.DataFrame) -> list[str]:
    return [c for c in games.columns if c not in ("game_id", "game_seed", "n_players")]


def compare(
    a: pl.LazyFrame | pl.DataFrame,
    b: pl.LazyFrame | pl.DataFrame,
    length: str | None = None,
    extra: Mapping[str, pl.Expr] | None = None,
) -> Comparison:
    """Arm a minus arm b on every metric, paired by game when the deals match."""
    ga, gb = per_game(a, length, extra), per_game(b, length, extra)
    names = [m for m in _metrics(ga) if m in gb.columns]
    paired, reason = _pairable(ga, gb)
    rows = _paired(ga, gb, names) if paired else _unpaired(ga, gb, names)
    table = rows.with_columns(
        pl.Series(
            "p",
            [t_two_sided_p(t, df) for t, df in rows.select("t", "df").iter_rows()],
            dtype=pl.Float64,
        )
    ).select(COLUMNS)
    return Comparison(paired, reason, ga.height, gb.height, table.sort("metric", "n_players"))


def _pairable(ga: pl.DataFrame, gb: pl.DataFrame) -> tuple[bool, str]:
    keys = ["game_id", *(c for c in ("game_seed", "n_players") if c in ga and c in gb)]
    matched = ga.select(keys).join(gb.select(keys), on=keys).height
    if ga.height == gb.height == matched:
        return True, f"paired on {matched} games with the same {', '.join(keys)}"
    return False, (
        f"not paired: {ga.height} and {gb.height} games, {matched} with the same "
        f"{', '.join(keys)}; intervals are Welch"
    )


def _effect() -> pl.Expr:
    """The difference over the root mean square of the two arms' standard deviations: a
    size that reads alike for a score, a win share and a count (Cohen's d)."""
    spread = ((pl.col("a_sd").pow(2) + pl.col("b_sd").pow(2)) / 2).sqrt()
    return (pl.col("diff") / pl.when(spread > 0).then(spread)).alias("effect")


def effect_size(row: dict) -> float:
    """A `compare` row's size when its interval excludes zero (an established effect),
    else 0."""
    if row["lo"] is None or row["effect"] is None or row["lo"] <= 0 <= row["hi"]:
        return 0.0
    return abs(row["effect"])


def _sides(metric: str) -> list[pl.Expr]:
    """The columns both comparisons start with: the metric, and each arm's n and mean."""
    return [
        pl.lit(metric).alias("metric"),
        pl.col("n_players"),
        pl.col("a_n").alias("n_a"),
        pl.col("b_n").alias("n_b"),
        pl.col("a_mean").alias("mean_a"),
        pl.col("b_mean").alias("mean_b"),
    ]


def _paired(ga: pl.DataFrame, gb: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    joined = ga.join(gb, on="game_id", suffix="_b")
    parts = []
    for m in names:
        x, y = pl.col(m), pl.col(f"{m}_b")
        part = (
            joined.filter(x.is_not_null() & y.is_not_null())
            .group_by("n_players")
            .agg(*describe(x, "a"), *describe(y, "b"), *describe(x - y, "d"))
            .with_columns(*mean_ci("d"), *welch_diff("a", "b", "w"))
            .select(
                *_sides(m),
                pl.col("d_mean").alias("diff"),
                pl.col("d_lo").alias("lo"),
                pl.col("d_hi").alias("hi"),
                pl.col("d_lo").alias("paired_lo"),
                pl.col("d_hi").alias("paired_hi"),
                pl.col("w_lo").alias("welch_lo"),
                pl.col("w_hi").alias("welch_hi"),
                ((pl.col("d_hi") - pl.col("d_lo")) / (pl.col("w_hi") - pl.col("w_lo"))).alias(
                    "width_ratio"
                ),
                (pl.col("d_mean") / (pl.col("d_sd") / pl.col("d_n").cast(pl.Float64).sqrt())).alias(
                    "t"
                ),
                (pl.col("d_n") - 1).cast(pl.Float64).alias("df"),
                pl.col("a_sd"),
                pl.col("b_sd"),
            )
            .with_columns(_effect())
        )
        parts.append(part)
    return pl.concat(parts)


def _unpaired(ga: pl.DataFrame, gb: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    parts = []
    for m in names:
        sa = ga.filter(pl.col(m).is_not_null()).group_by("n_players").agg(describe(pl.col(m), "a"))
        sb = gb.filter(pl.col(m).is_not_null()).group_by("n_players").agg(describe(pl.col(m), "b"))
        part = (
            sa.join(sb, on="n_players")
            .with_columns(welch_diff("a", "b", "w"))
            .select(
                *_sides(m),
                pl.col("w_d").alias("diff"),
                pl.col("w_lo").alias("lo"),
                pl.col("w_hi").alias("hi"),
                pl.lit(None, pl.Float64).alias("paired_lo"),
                pl.lit(None, pl.Float64).alias("paired_hi"),
                pl.col("w_lo").alias("welch_lo"),
                pl.col("w_hi").alias("welch_hi"),
                pl.lit(None, pl.Float64).alias("width_ratio"),
                (pl.col("w_d") / pl.col("w_se")).alias("t"),
                pl.col("w_df").alias("df"),
                pl.col("a_sd"),
                pl.col("b_sd"),
            )
            .with_columns(_effect())
        )
        parts.append(part)
    return pl.concat(parts)

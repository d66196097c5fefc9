"""Do other component data reorder the missions? Each arm that differs only in its
component data against its twin: the missions' ranks, their differences and Spearman's rank
correlation."""

from __future__ import annotations

import random

import polars as pl

from sanssim.analysis import fmt
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.section import Answer, Context
from sanssim.analysis.stats import describe, mean_ci, mean_table, welch_diff

DEFAULT_COMPONENTS = "default components"  # the dataset's label of the packaged data
RANK_DRAWS = 2000  # redraws of the mission means for the rank correlation's interval


def component_twins(ctx: Context) -> list[tuple[str, str]]:
    """(arm, base) for arms whose design differs only in their component data: each arm
    against its twin with the packaged data, or against the first of its twins."""
    arms = ctx.data.arms
    order = ctx.data.arm_labels
    others = [c for c in ctx.data.design if c != "components"]
    pairs = []
    for group in arms.partition_by(others, maintain_order=True):
        labels = sorted(group["arm"], key=order.index)
        packaged = set(group.filter(pl.col("components") == DEFAULT_COMPONENTS)["arm"])
        base = next((a for a in labels if a in packaged), labels[0])
        pairs += [(arm, base) for arm in labels if arm != base]
    return sorted(pairs, key=lambda pair: order.index(pair[0]))


def rank_stability(ctx: Context, held: pl.LazyFrame, answer: list[Answer]) -> list[Block]:
    """Do other component data reorder the missions? Per mission its rank and mean points
    under both data, the difference with its interval, and Spearman's rank correlation."""
    twins = component_twins(ctx)
    if not twins:
        return []
    values = mean_table(held, ["arm", "mission"], {"points": pl.col("points")})
    blocks: list[Block] = [
        Heading(3, "Mission ranks under other component data"),
        Para(
            "Each arm whose only difference is its component data against its twin (the "
            "packaged data when there is one): mission rank by mean points (1 = best), mean "
            "points per card held under each [95% CI] with n cards held, and the difference "
            "(95% CI: paired card by card when both arms dealt the same missions to the "
            "same seats of the same deals, as arms with one seed do; Welch otherwise). "
            "Spearman's ρ is the rank correlation of the nine means; its "
            f"interval comes from {RANK_DRAWS:,} redraws of the 18 means from their sampling "
            "distributions (normal, with their standard errors). With nine differences, one "
            "may exclude zero by chance."
        ),
    ]
    for arm, base in twins:
        table, paired = _ranks(values, held, arm, base)
        rho, lo, hi = _spearman(table)
        moved = [
            f"{r['mission']} {r['rank_b']} → {r['rank_a']}"
            for r in table.filter(pl.col("rank_a") != pl.col("rank_b")).iter_rows(named=True)
        ]
        clear = table.filter((pl.col("d_lo") > 0) | (pl.col("d_hi") < 0))["mission"].to_list()
        line = (
            f"Mission ranks, {arm} vs {base} ({table['a_n'].sum()} vs {table['b_n'].sum()} "
            f"cards held): Spearman ρ = {fmt.interval(rho, lo, hi, 2)} over {table.height} "
            f"missions; ranks that change: {', '.join(moved) or 'none'}; differences whose "
            f"{'paired' if paired else 'Welch'} interval excludes zero: "
            f"{', '.join(clear) or 'none'}."
        )
        answer.append(Answer(line, _size(table)))
        rows = [
            [
                r["mission"],
                str(r["rank_b"]),
                str(r["rank_a"]),
                fmt.followed(fmt.ci(r, "b", 2), f", n = {r['b_n']:,}"),
                fmt.followed(fmt.ci(r, "a", 2), f", n = {r['a_n']:,}"),
                fmt.diff(r, "d", 2),
            ]
            for r in table.iter_rows(named=True)
        ]
        blocks += [
            Para(line),
            Table(
                ["mission", f"rank: {base}", f"rank: {arm}", base, arm, "difference"],
                rows,
            ),
        ]
    return blocks


def _size(table: pl.DataFrame) -> float:
    """The largest mission difference whose interval excludes zero, in standard deviations
    of the points per card held (0 when none does)."""
    spread = ((pl.col("a_sd").pow(2) + pl.col("b_sd").pow(2)) / 2).sqrt()
    clear = table.filter((pl.col("d_lo") > 0) | (pl.col("d_hi") < 0), spread > 0)
    return float(clear.select((pl.col("d_d").abs() / spread).max()).item() or 0.0)


def _ranks(
    values: pl.DataFrame, held: pl.LazyFrame, arm: str, base: str
) -> tuple[pl.DataFrame, bool]:
    """One row per mission: `a_*` under `arm`, `b_*` under `base` (n, mean, sd, lo, hi,
    rank) and the difference `d_d`, `d_lo`, `d_hi`, in the base's rank order; and whether
    the difference is paired (see `paired_differences`), else Welch."""

    def side(label: str, prefix: str) -> pl.DataFrame:
        part = values.filter(pl.col("arm") == label)
        return part.select(
            "mission",
            *(
                pl.col(f"points_{s}").alias(f"{prefix}_{s}")
                for s in ("n", "mean", "sd", "lo", "hi")
            ),
            pl.col("points_mean")
            .rank("min", descending=True)
            .cast(pl.Int64)
            .alias(f"rank_{prefix}"),
        )

    table = side(arm, "a").join(side(base, "b"), on="mission")
    paired = paired_differences(held, arm, base)
    if paired is None:
        return table.with_columns(welch_diff("a", "b", "d")[:3]).sort("rank_b", "mission"), False
    return table.join(paired, on="mission").sort("rank_b", "mission"), True


def paired_differences(held: pl.LazyFrame, arm: str, base: str) -> pl.DataFrame | None:
    """Per mission, the mean of arm minus base card by card (`d_d`, `d_lo`, `d_hi`, a t
    interval), when both arms dealt every mission card to the same seat of the same deal
    (same game seed): then the deal's luck cancels. None when the deals differ."""
    key = ["game_id", "game_seed", "seat", "mission", "copy"]

    def cards(label: str) -> pl.LazyFrame:
        return (
            held.filter(pl.col("arm") == label)
            .with_columns(copy=pl.int_range(pl.len()).over("game_id", "seat", "mission"))
            .select(*key, "points")
        )

    a, b = cards(arm).collect(), cards(base).collect()
    both = a.join(b, on=key, suffix="_b")
    if not a.height == b.height == both.height:
        return None
    return (
        both.group_by("mission")
        .agg(describe(pl.col("points") - pl.col("points_b"), "d"))
        .with_columns(mean_ci("d"))
        .select("mission", pl.col("d_mean").alias("d_d"), "d_lo", "d_hi")
    )


def _spearman(table: pl.DataFrame, seed: int = 1) -> tuple[float, float, float]:
    """Spearman's ρ of the two arms' mission means, and the 2.5% and 97.5% points of ρ over
    redraws of every mean from its sampling distribution."""
    rho = table.select(pl.corr("a_mean", "b_mean", method="spearman")).item()
    rng = random.Random(seed)
    se = {
        side: [
            (sd or 0.0) / n**0.5
            for sd, n in zip(table[f"{side}_sd"], table[f"{side}_n"], strict=True)
        ]
        for side in ("a", "b")
    }
    draws = pl.DataFrame(
        {
            "draw": [d for d in range(RANK_DRAWS) for _ in range(table.height)],
            **{
                side: [
                    rng.gauss(mean, s)
                    for _ in range(RANK_DRAWS)
                    for mean, s in zip(table[f"{side}_mean"], se[side], strict=True)
                ]
                for side in ("a", "b")
            },
        }
    )
    spread = draws.group_by("draw").agg(rho=pl.corr("a", "b", method="spearman"))["rho"]
    return rho, spread.quantile(0.025), spread.quantile(0.975)

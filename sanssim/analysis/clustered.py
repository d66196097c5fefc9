"""Pairwise win rates with intervals that respect the game as the unit of replication.

In a 3-4 player game two strategies can meet several times (two seats each: four meetings),
and those meetings share the deal and each other's ranks, so they are not independent: a
Wilson interval that counts meetings as trials is too narrow. Here the variance of the win
rate p = sum(points) / sum(meetings) is the cluster-robust (sandwich) variance over games,

    V = G / (G - 1) * sum_g (S_g - p m_g)^2 / (sum_g m_g)^2

with S_g the points and m_g the meetings of the pair in game g, and the interval is the Wilson
interval at the effective number of meetings n_eff = p (1 - p) / V (Kish's design effect),
which keeps it inside [0, 1]. When V is 0 (every game gave the same share) n_eff falls back to
the number of games, as if each game's meetings were one trial.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from sanssim.analysis.stats import wilson

GAME = ("game_id",)


def meetings(results: pl.LazyFrame, game: Sequence[str] = GAME) -> pl.LazyFrame:
    """Every meeting of two different strategies in a game, once from each side, with the
    game's columns kept for clustering: the better rank scores 1, a shared rank 0.5 each.
    `game` identifies a game (add "arm" when several arms are stacked)."""
    seats = results.select(*game, "seat", "strategy", "rank")
    return (
        seats.join(seats, on=list(game), suffix="_opp")
        .filter(pl.col("strategy") != pl.col("strategy_opp"))
        .select(
            *game,
            "strategy",
            pl.col("strategy_opp").alias("opponent"),
            pl.when(pl.col("rank") < pl.col("rank_opp"))
            .then(1.0)
            .when(pl.col("rank") == pl.col("rank_opp"))
            .then(0.5)
            .otherwise(0.0)
            .alias("points"),
        )
    )


def pairwise(meets: pl.LazyFrame, cluster: Sequence[str] = GAME) -> pl.DataFrame:
    """Per ordered pair (strategy, opponent): `games`, `win_n` meetings, `win_k` points,
    `deff` design effect, `win_p`, `win_lo`, `win_hi` cluster-robust 95% interval.
    Cluster by the deal: in a tournament whose seatings share seeds, `game_id` across arms."""
    per_game = meets.group_by("strategy", "opponent", *cluster).agg(
        s=pl.col("points").sum(), m=pl.len().cast(pl.Int64)
    )
    totals = per_game.group_by("strategy", "opponent").agg(
        games=pl.len(),
        win_n=pl.col("m").sum(),
        win_k=pl.col("s").sum(),
        ss=pl.col("s").pow(2).sum(),
        sm=(pl.col("s") * pl.col("m")).sum(),
        mm=pl.col("m").pow(2).sum(),
    )
    g = pl.col("games").cast(pl.Float64)
    n, k = pl.col("win_n").cast(pl.Float64), pl.col("win_k")
    p = k / n
    residual = pl.col("ss") - 2 * p * pl.col("sm") + p.pow(2) * pl.col("mm")
    variance = (g / (g - 1) * residual / n.pow(2)).clip(lower_bound=0.0)
    n_eff = pl.when((g > 1) & (variance > 0)).then(p * (1 - p) / variance).otherwise(g)
    return (
        totals.with_columns(eff_n=n_eff)
        .with_columns(eff_k=p * pl.col("eff_n"), deff=n / pl.col("eff_n"))
        .with_columns(wilson("eff"))
        .select(
            "strategy",
            "opponent",
            "games",
            "win_n",
            "win_k",
            "deff",
            pl.col("eff_p").alias("win_p"),
            pl.col("eff_lo").alias("win_lo"),
            pl.col("eff_hi").alias("win_hi"),
        )
        .sort("strategy", "opponent")
        .collect()
    )

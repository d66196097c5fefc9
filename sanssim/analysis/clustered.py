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

from sanssim.analysis.stats import ratio_table

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
    table = ratio_table(
        meets,
        ["strategy", "opponent"],
        list(cluster),
        {"win": (pl.col("points"), pl.lit(1))},
        shares=["win"],
    )
    return table.select(
        "strategy",
        "opponent",
        pl.col("win_n").alias("games"),
        pl.col("win_rows").alias("win_n"),
        pl.col("win_num").alias("win_k"),
        (pl.col("win_den") / pl.col("win_eff")).alias("deff"),
        pl.col("win_mean").alias("win_p"),
        "win_lo",
        "win_hi",
    )

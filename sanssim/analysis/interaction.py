"""Interaction intervals: does a conclusion's size differ between two line-ups?

A conclusion is a sum of signed per-game terms of one or more arms: the first seat's win
share in an arm, or B's metric minus A's for a one-facet change. Under two line-ups the
interaction is the first line-up's sum minus the second's. Terms whose arms hold the same
games (same master seed, game index and game seed: the same deals, whatever the players)
are summed game by game, so the luck of the deal cancels as in a paired comparison; groups
of terms on different games are independent and combine Welch-style (their variances add,
Satterthwaite's degrees of freedom). With one group this is the paired t interval, with
one term per group the Welch interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.order_free import order_free_mean, order_free_var
from sanssim.analysis.pairs import master_seed
from sanssim.analysis.stats import t_quantile, win_share

KEY = ["seed", "game_id", "game_seed"]


@dataclass(frozen=True)
class Term:
    """One arm's per-game values (`KEY` and `value`), counted with `sign`."""

    sign: float
    games: pl.DataFrame


def per_game(data: Dataset) -> pl.DataFrame:
    """One row per (arm, game): `KEY`, `mean_total` and `seat0_win` (the first seat's win
    share: 1 for a sole winner, 1/k for each of k co-winners)."""
    return (
        data.results.with_columns(seed=master_seed(data), share=win_share())
        .group_by("arm", "seed", "game_id")
        .agg(
            pl.col("game_seed").first(),
            mean_total=order_free_mean(pl.col("total")),
            seat0_win=pl.col("share").filter(pl.col("seat") == 0).first(),
        )
        .collect()
    )


def term(games: pl.DataFrame, arm: str, metric: str, sign: float = 1.0) -> Term:
    """Arm `arm`'s `metric` per game, from `per_game`'s frame."""
    rows = games.filter(pl.col("arm") == arm).select(*KEY, value=pl.col(metric))
    return Term(sign, rows.sort(KEY))


def negated(terms: list[Term]) -> list[Term]:
    return [Term(-t.sign, t.games) for t in terms]


def interval(terms: list[Term]) -> tuple[float, float, float, int]:
    """The sum of the terms' means with its 95% interval, and the games it rests on (the
    smallest group's)."""
    groups: dict[tuple, pl.DataFrame] = {}
    for t in terms:
        key = tuple(map(tuple, t.games.select(KEY).rows()))
        signed = t.games.select(*KEY, value=t.sign * pl.col("value"))
        if key in groups:
            groups[key] = groups[key].with_columns(value=pl.col("value") + signed["value"])
        else:
            groups[key] = signed
    n_min = min(g.height for g in groups.values())
    value = pl.col("value")
    moments = [order_free_mean(value).alias("mean"), order_free_var(value).alias("var")]
    per_group = [(*g.select(moments).row(0), g.height) for g in groups.values()]
    total = math.fsum(mean for mean, _, _ in per_group)
    if n_min < 2:
        return total, math.nan, math.nan, n_min
    parts = [(var / n, n) for _, var, n in per_group]
    variance = math.fsum(v for v, _ in parts)
    if variance == 0:  # the same value in every game: nothing varies to be uncertain about
        return total, total, total, n_min
    spread = math.fsum(v * v / (n - 1) for v, n in parts)
    half = t_quantile(0.975, variance * variance / spread) * math.sqrt(variance)
    return total, total - half, total + half, n_min

"""Sanssouci measures shared by several sections, as polars expressions."""

from __future__ import annotations

import polars as pl

from sanssim.analysis.dataset import SOURCES
from sanssim.games.sanssouci import COLOURS

SOURCE_NAMES = {
    "noble_points": "noble moves",
    "expansion_points": "expansion marks",
    "row_bonus": "row bonuses",
    "column_bonus": "column bonuses",
    "mission_points": "missions",
}

PLAYER = {
    "total": pl.col("total"),
    **{s: pl.col(s) for s in SOURCES},
    "gardeners": pl.col("gardeners"),
    "rows_completed": pl.col("rows_completed"),
    "columns_completed": pl.col("columns_completed"),
    "noble_depth": pl.col("noble_rows").list.mean(),
}
PLAYER_NAMES = {
    "total": "final score (points)",
    **{s: f"{name} (points)" for s, name in SOURCE_NAMES.items()},
    "gardeners": "gardeners placed",
    "rows_completed": "rows 2–6 completed",
    "columns_completed": "columns completed",
    "noble_depth": "mean final noble row (0–6)",
}


def is_symbol_card() -> pl.Expr:
    return pl.col("card").str.starts_with("symbol:")


def stale_colours() -> pl.Expr:
    """Colours whose two display squares show the same symbol when the turn starts."""
    display = pl.col("display")
    same = [
        (display.list.get(2 * c) == display.list.get(2 * c + 1)).fill_null(False).cast(pl.Int8)
        for c in range(len(COLOURS))
    ]
    return pl.sum_horizontal(same)


def winning_margin() -> pl.Expr:
    """Per game (as an aggregation): winner's score minus the runner-up's."""
    totals = pl.col("total").sort(descending=True)
    return totals.first() - totals.get(1)

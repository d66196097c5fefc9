"""Sanssouci measures shared by several sections, as polars expressions."""

from __future__ import annotations

import polars as pl

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.errors import ReportError
from sanssim.games.sanssouci import COLOURS
from sanssim.games.sanssouci.log import SOURCES

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


def side_columns(data: Dataset) -> pl.DataFrame:
    """run, garden_side, symbol, col: where each symbol stands on each garden side of each
    run's component data (missions score the noble of the symbol's column)."""
    rows = []
    for i, run in enumerate(data.runs):
        try:
            rows += [
                (i, side["id"], symbol, c)
                for side in run.manifest["components"]["garden_sides"]
                for c, symbol in enumerate(side["columns"])
            ]
        except (KeyError, TypeError):
            raise ReportError(f"{run.path}: manifest lacks the garden sides' columns") from None
    schema = {"run": pl.Int32, "garden_side": pl.String, "symbol": pl.String, "col": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def preprinted_depth(data: Dataset) -> pl.DataFrame:
    """run, garden_side, col, printed: the row of the pre-printed square below row 1 in each
    column of each garden side of each run's component data (0: none; the deepest, should a
    user's data print several), a foothold for that column's noble."""
    rows = []
    for i, run in enumerate(data.runs):
        for side in run.manifest["components"]["garden_sides"]:
            deepest = dict.fromkeys(range(len(side["columns"])), 0)
            for row, col in side.get("preprinted", []):
                deepest[col] = max(deepest[col], row if row > 1 else 0)
            rows += [(i, side["id"], col, row) for col, row in deepest.items()]
    schema = {"run": pl.Int32, "garden_side": pl.String, "col": pl.Int64, "printed": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def expansion_boards(data: Dataset) -> pl.DataFrame:
    """run, expansion_side, board: which board each expansion side is printed on."""
    rows = [
        (i, e["id"], e["board"])
        for i, run in enumerate(data.runs)
        for e in (run.manifest.get("components") or {}).get("expansion_sides", [])
    ]
    schema = {"run": pl.Int32, "expansion_side": pl.String, "board": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")

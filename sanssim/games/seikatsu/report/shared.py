"""What Seikatsu's report sections share: per-game keys, percentage cells, arms grouped by
player count, per-player panels and per-game means."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.dataset import variant_name
from sanssim.analysis.order_free import order_free_means
from sanssim.analysis.section import Context
from sanssim.analysis.stats import mean_table
from sanssim.games.seikatsu.measures import GAME

PER_GAME = ["arm", *GAME]


def players(n: int) -> str:
    return f"{n} players" + (" (2 teams)" if n == 4 else "")


def pct(row: dict, name: str, centre: str = "mean") -> str:
    """A share from a `mean_table` (or `rate_table` with centre "p") row, in percent."""
    value, lo, hi = (row[f"{name}_{s}"] for s in (centre, "lo", "hi"))
    if value is None or lo is None:
        return "–"
    return fmt.interval(100 * value, 100 * lo, 100 * hi, unit="%")


def arm_rows(ctx: Context, table: pl.DataFrame) -> list[dict]:
    """Rows of a per-arm table in the report's arm order (arms the table lacks left out)."""
    rows = {r["arm"]: r for r in table.iter_rows(named=True)}
    return [rows[a] for a in ctx.data.arm_labels if a in rows]


def count_groups(ctx: Context) -> list[tuple[str, list[dict]]]:
    """Arms equal in everything but the player count, by player count, each group named by
    its mode (and by its strategies and components when two groups share a mode)."""
    arms = ctx.data.arms
    others = [c for c in (*ctx.data.design, "strategies") if c not in ("n_players", "lineup")]
    groups = arms.sort("n_players").group_by(others, maintain_order=True).agg(pl.col("arm"))
    modes = [
        variant_name(ctx.data.game_type, g).replace("base", "standard")
        for g in groups.iter_rows(named=True)
    ]
    out = []
    for mode, names in zip(modes, groups["arm"], strict=True):
        rows = [arms.filter(pl.col("arm") == a).row(0, named=True) for a in names]
        label = mode
        if modes.count(mode) > 1:
            label = f"{mode}, {rows[0]['strategies']}, {rows[0]['components']}"
        out.append((label, rows))
    return out


def lines_at(ctx: Context, n: int) -> list[tuple[str, str, str]]:
    """(group label, arm, colour) of each group's arm with `n` players: one line per mode,
    coloured alike in every panel so that one legend names them all."""
    return [
        (label, a["arm"], ctx.colour(arms[0]["arm"]))
        for label, arms in count_groups(ctx)
        for a in arms
        if a["n_players"] == n
    ]


def player_panels(
    ctx: Context,
    table: pl.DataFrame,
    measures_shown: dict[str, tuple[str, str, float]],
) -> tuple[list[str], dict[str, list[figures.Series]]]:
    """x labels (player counts) and one panel per measure (y label: (name, centre,
    scale)), one line per group of arms equal but for the player count."""
    counts = sorted(set(ctx.data.arms["n_players"].to_list()))
    joined = table.join(ctx.data.arms.select("arm", pl.col("n_players").alias("_n")), on="arm")
    panels: dict[str, list[figures.Series]] = {}
    for ylabel, (name, centre, scale) in measures_shown.items():
        panels[ylabel] = [
            figures.series(
                label,
                joined.filter(pl.col("arm").is_in([a["arm"] for a in arms])),
                "_n",
                counts,
                name,
                ctx.colour(arms[0]["arm"]),
                scale,
                centre,
            )
            for label, arms in count_groups(ctx)
        ]
    return [str(n) for n in counts], panels


def game_means(frame: pl.LazyFrame, values: dict[str, pl.Expr]) -> pl.DataFrame:
    """Per arm, the mean of each value with n = games: the values of one game's sides or
    seats are averaged first, since they share the game."""
    per_game = frame.group_by(PER_GAME).agg(order_free_means(frame, values))
    return mean_table(per_game, ["arm"], {n: pl.col(n) for n in values})


def side_label(row: dict) -> str:
    who = "team" if row["n_sides"] < row["n_players"] else "seat"
    return f"{who} {row['side']} ({row['pagoda']})"

"""What Splendor's report sections share: the game and player keys, the arms that vary one
factor, per-game and per-player frames from the results and the turn log, and cell, table
and figure helpers."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Figure
from sanssim.analysis.section import TEN_COLOURS, Context
from sanssim.games.splendor.components import COLOURS
from sanssim.games.splendor.config import DEFAULT_GEMS

GAME = ["run", "game_id"]
PLAYER = [*GAME, "seat"]
STANDARD_TARGET = 15
OBSERVATIONAL = (
    "These are observational comparisons between players of the same games, not "
    "experiments: how many nobles a player takes (or cards a player reserves) follows from "
    "how the game went for that player, so a difference is an association, not the effect "
    "of the noble (or the reserve) alone."
)


def logged(ctx: Context) -> list[str]:
    """Arms with a turn log, in report order."""
    missing = set(ctx.data.arms_without_turns())
    return [a for a in ctx.data.arm_labels if a not in missing]


def standard_arms(ctx: Context) -> list[str]:
    """Arms played by the rulebook's parameters for their player count; findings quote
    these (every arm when there are none), the tables show every arm."""
    defaults = {o.name: o.default for o in ctx.data.game_type.options}
    n = pl.col("n_players")
    standard = ctx.data.arms.filter(
        (pl.col("target_points") == defaults["target_points"])
        & (pl.col("gold_tokens") == defaults["gold_tokens"])
        & (pl.col("max_rounds") == defaults["max_rounds"])
        & (pl.col("gem_tokens") == n.replace_strict(DEFAULT_GEMS, default=None))
        & ((pl.col("nobles") == "by players") | (pl.col("nobles") == (n + 1).cast(pl.String)))
    )["arm"].to_list()
    return standard or ctx.data.arm_labels


def factor_groups(ctx: Context, factor: str) -> pl.DataFrame:
    """Groups of at least two arms equal in everything but `factor` (the strategy line-up
    compared by name, since a line-up's length follows the player count): the design of the
    group, with `arm` and `factor` as lists sorted by the factor, and `label`, the facets
    that tell the groups apart (a lone group: that set it apart from the other arms)."""
    others = [c for c in (*ctx.data.design, "strategies") if c not in (factor, "lineup")]
    groups = (
        ctx.data.arms.sort(factor)
        .group_by(others, maintain_order=True)
        .agg(pl.col("arm"), pl.col(factor))
        .filter(pl.col("arm").list.len() > 1)
    )
    names = {"n_players": "players", **{o.name: o.report_label for o in ctx.data.game_type.options}}
    basis = groups if groups.height > 1 else ctx.data.arms  # a lone group: what sets it apart
    varying = [c for c in others if basis[c].n_unique() > 1]
    labels = [
        ", ".join(
            f"{row[c]}p" if c == "n_players" else f"{names[c]} {row[c]}" if c in names else row[c]
            for c in varying
        )
        or "all arms"
        for row in groups.iter_rows(named=True)
    ]
    return groups.with_columns(label=pl.Series(labels, dtype=pl.String))


def arm_results(ctx: Context, arm: str) -> pl.LazyFrame:
    """One arm's results; when the arm pools several runs, game ids are renumbered by
    (run, game) so that per-game tools keyed on `game_id` see each game once."""
    frame = ctx.data.results.filter(pl.col("arm") == arm)
    runs = ctx.data.arms.filter(pl.col("arm") == arm)["runs"].item()
    if len(runs) == 1:
        return frame
    return frame.with_columns(game_id=(pl.struct(GAME).rank("dense") - 1).cast(pl.Int64))


def with_received(ctx: Context) -> pl.LazyFrame:
    """The results with `received`: the nobles each player received. The results column
    `nobles` holds it, but the dataset's `nobles` is the design option of that name (nobles
    revealed), so the count is read from each run's own results."""
    received = pl.concat(
        [
            run.results.select(
                pl.lit(i, pl.Int32).alias("run"),
                "game_id",
                "seat",
                pl.col("nobles").cast(pl.Int64).alias("received"),
            )
            for i, run in enumerate(ctx.data.runs)
        ]
    )
    return ctx.data.results.join(received, on=PLAYER)


def _cards(ctx: Context) -> pl.LazyFrame:
    """Level and points of every card id, per run, from the run's manifest."""
    rows = [
        (i, card["id"], card["level"], card["points"])
        for i, run in enumerate(ctx.data.runs)
        for card in run.manifest.get("components", {}).get("cards", [])
    ]
    schema = {"run": pl.Int32, "card_id": pl.Int16, "level": pl.Int8, "value": pl.Int16}
    return pl.LazyFrame(rows, schema=schema, orient="row")


def card_buys(ctx: Context) -> pl.LazyFrame:
    """Every buy of the logged arms with the card's level and points and the tokens paid
    (`paid`, gold included) of which `gold`."""
    assert ctx.data.turns is not None
    return (
        ctx.data.turns.filter(pl.col("action") == "buy")
        .select("arm", *PLAYER, "card_id", "card_from", "payment")
        .join(_cards(ctx), on=["run", "card_id"])
        .with_columns(
            paid=pl.col("payment").list.sum().cast(pl.Int64),
            gold=pl.col("payment").list.get(len(COLOURS)).cast(pl.Int64),
        )
    )


def per_player(ctx: Context, per: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """Results rows of the logged arms with per-player counts from the turn log (0 for a
    player with no such turn)."""
    return (
        ctx.data.results.filter(pl.col("arm").is_in(logged(ctx)))
        .join(per, on=PLAYER, how="left")
        .with_columns(pl.col(columns).fill_null(0))
    )


def cell(row: dict | None, name: str) -> str:
    """A rate with its interval and its n, for tables of many small groups."""
    return "–" if row is None else fmt.followed(fmt.pct(row, name), f" (n={row[f'{name}_n']})")


def share(row: dict, name: str) -> str:
    """A share from `ratio_table` (its Wilson interval) in percent."""
    mean, lo, hi = (row[f"{name}_{k}"] for k in ("mean", "lo", "hi"))
    if mean is None:
        return "–"
    return fmt.interval(100 * mean, 100 * lo, 100 * hi, unit="%")


def diff_text(d: float, lo: float, hi: float, digits: int = 1, percent: bool = False) -> str:
    return fmt.diff({"x_d": d, "x_lo": lo, "x_hi": hi}, "x", digits, percent)


def rows_by(table: pl.DataFrame, key: str) -> dict:
    return {r[key]: r for r in table.iter_rows(named=True)}


def interval_figure(
    ctx: Context,
    name: str,
    title: str,
    categories: list[str],
    series: list[figures.Series],
    xlabel: str,
    caption: str,
    reference: float | None = None,
) -> Figure:
    path = ctx.figure(name)
    figures.intervals(path, title, categories, series, xlabel, reference)
    return Figure(path.name, caption)


def series_by_arm(
    table: pl.DataFrame,
    arms: list[str],
    group: str,
    groups: dict,
    name: str,
    scale: float = 1.0,
    centre: str = "mean",
    colours: dict | None = None,
) -> list[figures.Series]:
    """One series per value of `group` (`groups`: value -> label) over the arms as
    categories: a figure of many arms stays readable with a few distinct colours."""
    return [
        figures.series(
            label,
            table.filter(pl.col(group) == value),
            "arm",
            arms,
            name,
            (colours or {}).get(label, TEN_COLOURS[i % len(TEN_COLOURS)]),
            scale,
            centre,
        )
        for i, (value, label) in enumerate(groups.items())
    ]

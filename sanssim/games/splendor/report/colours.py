"""Section: win rate by the colour of a player's most numerous bonus."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import fmt
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.generic import win_share
from sanssim.analysis.multiple import holm
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import (
    ALPHA,
    between_groups,
    mean_table,
    rate_table,
)
from sanssim.games.splendor.components import COLOURS
from sanssim.games.splendor.report.shared import (
    cell,
    interval_figure,
    rows_by,
    series_by_arm,
)

# Figure colours of the bonus colours (white drawn grey to show on white) and of ties.
GEM_COLOURS = {
    "white": "#9e9e9e",
    "blue": "#1f5fbf",
    "green": "#2ca02c",
    "red": "#d62728",
    "black": "#000000",
    "tie": "#b07cc6",
}


def build(ctx: Context) -> Section:
    """Win rate by the colour of a player's most numerous bonus: the five colours are
    symmetric in the card data, so a difference would point at the strategy or the engine."""
    bonuses = pl.col("bonuses")
    top = bonuses.list.eval((pl.element() == pl.element().max()).cast(pl.Int32)).list.sum()
    named = bonuses.list.arg_max().replace_strict(dict(enumerate(COLOURS)), return_dtype=pl.String)
    res = ctx.data.results.with_columns(
        win=win_share(), dominant=pl.when(top > 1).then(pl.lit("tie")).otherwise(named)
    )
    groups = [*COLOURS, "tie"]
    wins = rate_table(res, ["arm", "dominant"], {"win": pl.col("win")})
    spread = mean_table(
        res.filter(pl.col("dominant") != "tie"), ["arm", "dominant"], {"w": pl.col("win")}
    )
    arms = ctx.data.arm_labels
    tests = []
    for arm in arms:
        part = spread.filter(pl.col("arm") == arm)
        tests.append(
            between_groups(part["w_n"].to_list(), part["w_mean"].to_list(), part["w_sd"].to_list())
        )
    adjusted = pl.DataFrame({"p": [t[2] for t in tests]}).select(holm(pl.col("p")))["p"]
    rows, flagged = [], []
    for arm, (stat, df, p), p_holm in zip(arms, tests, adjusted, strict=True):
        cells = rows_by(wins.filter(pl.col("arm") == arm), "dominant")
        verdict = "colours differ" if p_holm < ALPHA else "no clear difference"
        if p_holm < ALPHA:
            flagged.append(arm)
        rows.append(
            [
                arm,
                str(sum(c["win_n"] for c in cells.values())),
                *(cell(cells.get(g), "win") for g in groups),
                f"χ²({df}) = {stat:.1f}, {fmt.pval(p)}, Holm {fmt.pval(p_holm)}: {verdict}",
            ]
        )
    finding = (
        "Colour balance: the win rate depends on the dominant bonus colour in "
        f"{', '.join(flagged)} (Holm-adjusted p < 0.05)."
        if flagged
        else f"Colour balance: in none of the {len(arms)} arms does the win rate depend on the "
        "dominant bonus colour (between-colour tests, Holm-adjusted p ≥ 0.05)."
    )
    blocks: list[Block] = [
        Heading(2, "Gem colour balance"),
        Para(
            "Players grouped by their dominant bonus colour (the colour of most cards bought, "
            "from the results' `bonuses`; `tie` when two or more colours share the most, "
            "including players with no card). Win rate (shared wins split) with n players. The "
            "colours are symmetric in the card and noble data, so the test (between-colour "
            "chi-square on the win rates of the five colours, Holm-adjusted across arms) "
            "should find nothing; a difference would point at the strategy or the engine. "
            "Ties are left out of the test: a tie is not a colour, and players whose bonuses "
            "spread evenly play differently."
        ),
        Table(["arm", "players", *groups, "test"], rows),
        interval_figure(
            ctx,
            "colour_balance",
            "Win rate by dominant bonus colour",
            arms,
            series_by_arm(
                wins, arms, "dominant", {g: g for g in groups}, "win", 100, "p", GEM_COLOURS
            ),
            "win rate (%, 95% CI; n = players in each group, in the table)",
            "Win rate by dominant bonus colour: the five colours should agree within each arm.",
        ),
    ]
    return Section(blocks, [], [finding])

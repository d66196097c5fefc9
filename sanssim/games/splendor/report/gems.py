"""Section: points bought per token paid, by card level."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import fmt
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.section import Context, Section, skipped_without_turns
from sanssim.analysis.stats import (
    ratio_table,
)
from sanssim.games.splendor.components import LEVELS
from sanssim.games.splendor.report.shared import (
    GAME,
    card_buys,
    interval_figure,
    logged,
    rows_by,
    series_by_arm,
    share,
    standard_arms,
)


def build(ctx: Context) -> Section:
    """Points bought per token paid, by card level."""
    title = "Return on gems"
    skipped = skipped_without_turns(ctx, title)
    arms = logged(ctx)
    if not arms:
        return Section([], skipped)
    one = pl.lit(1)
    table = ratio_table(
        card_buys(ctx),
        ["arm", "level"],
        GAME,
        {
            "paid": (pl.col("paid"), one),
            "gold": (pl.col("gold"), pl.col("paid")),
            "free": (pl.col("paid") == 0, one),
            "value": (pl.col("value"), one),
            "return": (pl.col("value"), pl.col("paid")),
        },
        shares=["gold", "free"],
    )
    rows = [
        [
            r["arm"],
            str(r["level"]),
            str(r["paid_rows"]),
            str(r["paid_n"]),
            fmt.ci(r, "paid", 2),
            share(r, "gold"),
            share(r, "free"),
            fmt.ci(r, "value", 2),
            fmt.ci(r, "return", 3),
        ]
        for arm in arms
        for r in table.filter(pl.col("arm") == arm).iter_rows(named=True)
    ]
    findings = []
    for arm in (a for a in standard_arms(ctx) if a in arms):
        part = rows_by(table.filter(pl.col("arm") == arm), "level")
        levels = ", ".join(f"level {lv} {fmt.ci(part[lv], 'return', 3)}" for lv in sorted(part))
        buys = sum(r["paid_rows"] for r in part.values())
        findings.append(f"Return on gems, {arm} ({buys} buys): points per token paid: {levels}.")
    blocks: list[Block] = [
        Heading(2, title),
        Para(
            "Every buy in the turn log: tokens paid (gold included) after the bonuses' "
            "discount, gold's share of them, the share of cards bought with bonuses alone, "
            "the card's points, and points per token paid (total points over total tokens, "
            "so free cards count). Buys within a game are not independent, so intervals are "
            "cluster-robust over games (n = games); `buys` counts the cards."
        ),
        Table(
            [
                "arm",
                "level",
                "buys",
                "games",
                "tokens paid per card",
                "gold share of tokens paid",
                "bought with no tokens",
                "points per card",
                "points per token paid",
            ],
            rows,
        ),
        interval_figure(
            ctx,
            "points_per_gem",
            "Points per token paid, by card level",
            arms,
            series_by_arm(table, arms, "level", {lv: f"level {lv}" for lv in LEVELS}, "return"),
            "points per token paid (95% CI; n = games per arm and level, in the table)",
            "Points per token paid: what a token turns into at each card level.",
        ),
    ]
    return Section(blocks, skipped, findings)

"""Section: points by card level (turn log) and the nobles' worth to their taker (results)."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.generic import win_share
from sanssim.analysis.section import TEN_COLOURS, Context, Section, skipped_without_turns
from sanssim.analysis.stats import (
    mean_table,
    rate_table,
)
from sanssim.games.splendor.components import LEVELS
from sanssim.games.splendor.report.shared import (
    GAME,
    OBSERVATIONAL,
    PLAYER,
    card_buys,
    cell,
    interval_figure,
    logged,
    per_player,
    rows_by,
    series_by_arm,
    standard_arms,
    with_received,
)

NOBLE_BUCKETS = ("0 nobles", "1 noble", "2 nobles", "3 or more")


def build(ctx: Context) -> Section:
    """Points by card level (turn log) and the nobles' worth to their taker (results)."""
    blocks: list[Block] = [Heading(2, "Points from cards by level, and from nobles")]
    skipped = skipped_without_turns(ctx, "Points from cards by level")
    if logged(ctx):
        blocks += _levels(ctx)
    findings: list[str] = []
    blocks += _nobles(ctx, findings)
    return Section(blocks, skipped, findings)


def _levels(ctx: Context) -> list[Block]:
    per = (
        card_buys(ctx)
        .group_by(PLAYER)
        .agg(
            *(
                pl.col("value").filter(pl.col("level") == level).sum().alias(f"l{level}")
                for level in LEVELS
            ),
            *((pl.col("level") == level).sum().alias(f"c{level}") for level in LEVELS),
        )
    )
    counts = [f"{k}{level}" for k in ("l", "c") for level in LEVELS]
    players = per_player(ctx, per, counts)
    table = mean_table(
        players, ["arm"], {**{c: pl.col(c) for c in counts}, "nobles": pl.col("noble_points")}
    )
    by_arm = rows_by(table, "arm")
    arms = logged(ctx)
    rows = [
        [
            a,
            str(by_arm[a]["nobles_n"]),
            *(fmt.ci(by_arm[a], f"l{level}", 2) for level in LEVELS),
            fmt.ci(by_arm[a], "nobles", 2),
            *(fmt.ci(by_arm[a], f"c{level}", 2) for level in LEVELS),
        ]
        for a in arms
    ]
    sources = {**{f"l{level}": f"level {level} cards" for level in LEVELS}, "nobles": "nobles"}
    series = [
        figures.series(label, table, "arm", arms, name, TEN_COLOURS[i])
        for i, (name, label) in enumerate(sources.items())
    ]
    return [
        Para(
            "Mean points per player from the cards of each level bought (levels and points "
            "from the run's component data) and from nobles, and the cards bought per level "
            "(n = player-games with a turn log). Reserved cards never bought score nothing."
        ),
        Table(
            [
                "arm",
                "players",
                *(f"level {level} points" for level in LEVELS),
                "noble points",
                *(f"level {level} cards" for level in LEVELS),
            ],
            rows,
        ),
        interval_figure(
            ctx,
            "points_by_level",
            "Points per player by source",
            arms,
            series,
            "mean points per player (95% CI; n = player-games per arm, in the table)",
            "Where each arm's points come from: cards of each level and nobles.",
        ),
    ]


def _nobles(ctx: Context, findings: list[str]) -> list[Block]:
    res = with_received(ctx).with_columns(
        win=win_share(),
        bucket=pl.col("received").clip(upper_bound=len(NOBLE_BUCKETS) - 1),
        has=pl.col("received") > 0,
    )
    by_count = rate_table(res, ["arm", "bucket"], {"win": pl.col("win")})
    has = rate_table(res, ["arm", "has"], {"win": pl.col("win")})
    decided = rate_table(
        res.group_by("arm", *GAME)
        .agg(
            sole=pl.col("winner").sum() == 1,
            winner=pl.col("card_points").filter(pl.col("winner")).max(),
            other=pl.col("card_points").filter(~pl.col("winner")).max(),
        )
        .filter(pl.col("sole")),
        ["arm"],
        {"decided": pl.col("winner") < pl.col("other")},
    )
    decided_by = rows_by(decided, "arm")
    arms, standard = ctx.data.arm_labels, set(standard_arms(ctx))
    rows = []
    for arm in arms:
        cells = rows_by(by_count.filter(pl.col("arm") == arm), "bucket")
        sides = rows_by(has.filter(pl.col("arm") == arm), "has")
        both = True in sides and False in sides
        dec = decided_by.get(arm)
        rows.append(
            [
                arm,
                *(cell(cells.get(b), "win") for b in range(len(NOBLE_BUCKETS))),
                fmt.rate_diff(sides[True], sides[False], "win") if both else "–",
                cell(dec, "decided"),
            ]
        )
        if arm in standard and both and dec:
            findings.append(
                f"Nobles, {arm} ({sides[True]['win_n'] + sides[False]['win_n']} players; "
                f"observational): a player with a noble wins {fmt.pct(sides[True], 'win')}, "
                f"one without {fmt.pct(sides[False], 'win')}; the nobles' points decided "
                f"{fmt.pct(dec, 'decided')} of {dec['decided_n']} games with a sole winner."
            )
    buckets = dict(enumerate(NOBLE_BUCKETS))
    return [
        Heading(3, "What a noble is worth to the player who takes it"),
        Para(
            "Win rate (shared wins split) of players by the number of nobles they received, "
            "the difference between players with at least one noble and players with none, "
            "and the share of games with a sole winner whose winner was behind on card points "
            "alone: there the nobles' points decided the game. "
            + OBSERVATIONAL
            + " The last column is an accounting fact about the final scores, but play "
            "without nobles would have gone differently."
        ),
        Table(
            ["arm", *NOBLE_BUCKETS, "with a noble − without", "games the nobles decided"],
            rows,
        ),
        interval_figure(
            ctx,
            "noble_value",
            "Win rate by nobles received",
            arms,
            series_by_arm(by_count, arms, "bucket", buckets, "win", 100, "p"),
            "win rate (%, 95% CI; n = players in each group, in the table)",
            "Win rate by the number of nobles received (observational).",
        ),
    ]

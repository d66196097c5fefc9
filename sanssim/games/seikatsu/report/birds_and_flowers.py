"""Section: where a side's points come from, and which source wins games."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import mean_table, rate_table
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.report.shared import (
    PER_GAME,
    arm_rows,
    game_means,
    pct,
    player_panels,
    side_label,
)

POINTS_TITLE = "Birds and flowers"


def build(ctx: Context) -> Section:
    """Where a side's points come from, by arm and by side, and which source wins games."""
    side = measures.sides(ctx.data.results).with_columns(
        share=pl.col("bird_points") / pl.col("total")
    )
    values = {
        "bird": pl.col("bird_points"),
        "flower": pl.col("flower_points"),
        "total": pl.col("total"),
        "share": pl.col("share"),
    }
    per_arm = game_means(side, values)
    per_side = mean_table(side, ["arm", "side", "n_sides", "n_players", "pagoda"], values)
    lead = measures.lead
    games = side.group_by(*PER_GAME).agg(
        bird_lead=lead("bird_points"), flower_lead=lead("flower_points"), margin=lead("total")
    )
    leads = mean_table(
        games,
        ["arm"],
        {n: pl.col(n) for n in ("bird_lead", "flower_lead", "margin")},
    ).join(
        rate_table(
            games,
            ["arm"],
            {"more_birds": pl.col("bird_lead") > 0, "more_flowers": pl.col("flower_lead") > 0},
        ),
        on="arm",
    )
    findings = []
    rows = []
    for r in arm_rows(ctx, per_arm.join(leads, on="arm")):
        rows.append(
            [
                r["arm"],
                str(r["bird_n"]),
                fmt.ci(r, "bird"),
                fmt.ci(r, "flower"),
                fmt.ci(r, "total"),
                pct(r, "share"),
            ]
        )
        findings.append(
            f"Points, {r['arm']} ({r['bird_n']} games): birds {fmt.ci(r, 'bird')}, flowers "
            f"{fmt.ci(r, 'flower')} per side (birds {pct(r, 'share')} of the total); over "
            f"{r['margin_n']} games the winner leads the runner-up by {fmt.ci(r, 'bird_lead')} "
            f"in birds and {fmt.ci(r, 'flower_lead')} in flowers."
        )
    lead_rows = [
        [
            r["arm"],
            str(r["margin_n"]),
            fmt.ci(r, "bird_lead"),
            fmt.ci(r, "flower_lead"),
            fmt.ci(r, "margin"),
            fmt.pct(r, "more_birds"),
            fmt.pct(r, "more_flowers"),
        ]
        for r in arm_rows(ctx, leads)
    ]
    side_rows = [
        [r["arm"], side_label(r), str(r["bird_n"]), fmt.ci(r, "bird"), fmt.ci(r, "flower")]
        for arm in ctx.data.arm_labels
        for r in per_side.filter(pl.col("arm") == arm).iter_rows(named=True)
    ]
    x, panels = player_panels(
        ctx,
        per_arm.join(leads, on="arm"),
        {
            "bird points per side": ("bird", "mean", 1),
            "flower points per side": ("flower", "mean", 1),
            "birds' share of the total (%)": ("share", "mean", 100),
            "winner − runner-up, birds (points)": ("bird_lead", "mean", 1),
            "winner − runner-up, flowers (points)": ("flower_lead", "mean", 1),
            "winner has more flowers (% of games)": ("more_flowers", "p", 100),
        },
    )
    fig = ctx.figure("birds_and_flowers")
    figures.panels(fig, "Bird and flower points (95% CI)", x, panels, "players")
    n = ", ".join(f"{r['arm']} {r['margin_n']}" for r in arm_rows(ctx, leads))
    blocks: list[Block] = [
        Heading(2, POINTS_TITLE),
        Para(
            "Points per side (a 4-player side is a team, whose birds are both players' and "
            "whose flowers are its one pagoda's), averaged over a game's sides and then over "
            "games (n = games). The birds' share is the mean of bird points / total."
        ),
        Table(["arm", "games", "bird points", "flower points", "total", "birds' share"], rows),
        Para(
            "What wins: the winner's points minus the runner-up's (the side ranked second), "
            "per game (n = games), and how often the winner had strictly more of each."
        ),
        Table(
            [
                "arm",
                "games",
                "lead in birds",
                "lead in flowers",
                "margin",
                "winner has more birds",
                "winner has more flowers",
            ],
            lead_rows,
        ),
        Para("By side (n = games):"),
        Table(["arm", "side", "games", "bird points", "flower points"], side_rows),
        Figure(
            fig.name,
            f"Bird and flower points per side and the winner's lead in each, by player count "
            f"(games: {n}).",
        ),
    ]
    return Section(blocks, findings=findings)

"""Section: rounds per game and how every game ended (target, stalemate, round cap)."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.section import TEN_COLOURS, Context, Section
from sanssim.analysis.stats import (
    mean_table,
    rate_table,
)
from sanssim.games.splendor.actions import END_REASONS
from sanssim.games.splendor.report.shared import interval_figure, rows_by


def build(ctx: Context) -> Section:
    """Rounds per game and how every game ended (target, stalemate, round cap)."""
    games = ctx.data.results.filter(pl.col("seat") == 0).with_columns(
        pl.col("end_reason").fill_null("(missing)")
    )
    seen = games.select(pl.col("end_reason").unique()).collect()["end_reason"].to_list()
    reasons = [*END_REASONS, *sorted(r for r in seen if r not in END_REASONS)]
    flags = {f"end{i}": pl.col("end_reason") == r for i, r in enumerate(reasons)}
    ends = rate_table(games, ["arm"], flags)
    rounds = mean_table(games, ["arm"], {"rounds": pl.col("rounds")})
    to_target = mean_table(
        games.filter(pl.col("end_reason") == "target"), ["arm"], {"target": pl.col("rounds")}
    )
    spread = (
        games.group_by("arm")
        .agg(
            pl.col("rounds").quantile(q, "nearest").cast(pl.Int64).alias(f"q{int(100 * q)}")
            for q in (0.1, 0.5, 0.9)
        )
        .collect()
    )
    table = rounds.join(spread, on="arm").join(ends, on="arm").join(to_target, on="arm", how="left")
    by_arm = rows_by(table, "arm")
    arms = ctx.data.arm_labels
    rows = [
        [
            a,
            str(by_arm[a]["rounds_n"]),
            fmt.ci(by_arm[a], "rounds", 2),
            f"{by_arm[a]['q10']}–{by_arm[a]['q90']} ({by_arm[a]['q50']})",
            fmt.ci(by_arm[a], "target", 2) if by_arm[a]["target_n"] else "–",
            *(fmt.followed(fmt.pct(by_arm[a], f), f" ({int(by_arm[a][f + '_k'])})") for f in flags),
        ]
        for a in arms
    ]
    blocks: list[Block] = [
        Heading(2, "Game length and how games end"),
        Para(
            "Rounds per game from the results (every game, with or without a turn log). A game "
            "ends at the end of a round in which someone reached the point target, or when a "
            "whole round was passes with no noble visit (stalemate), or at the round cap "
            "(`max_rounds`, a guarantee that every simulated game ends, not a rule). Every game "
            "is counted under exactly one end reason; games not ended by the target stay in "
            "every other section, ranked by the rules. The 10th–90th percentile range "
            "(median) describes the spread; the intervals are for the means."
        ),
        Table(
            [
                "arm",
                "games",
                "rounds",
                "10th–90th percentile (median)",
                "rounds, games ended by target",
                *(f"ended by {r.replace('_', ' ')} (games)" for r in reasons),
            ],
            rows,
        ),
        interval_figure(
            ctx,
            "game_length",
            "Rounds per game, by arm",
            arms,
            [figures.series("all games", rounds, "arm", arms, "rounds", TEN_COLOURS[0])],
            "mean rounds per game (95% CI; n = games per arm, in the table)",
            "Rounds per game: every game of each arm, whatever ended it.",
        ),
    ]
    return Section(blocks, [], [_length_finding(table, reasons)])


def _length_finding(table: pl.DataFrame, reasons: list[str]) -> str:
    low, high = table["rounds_mean"].min(), table["rounds_mean"].max()
    games = int(table["rounds_n"].sum())
    early = [
        f"{r.replace('_', ' ')} in {row['arm']}: {fmt.pct(row, f'end{i}')} "
        f"({int(row[f'end{i}_k'])} games)"
        for i, r in enumerate(reasons)
        if r != "target"
        for row in table.iter_rows(named=True)
        if row[f"end{i}_k"] > 0
    ]
    ends = "; ".join(early) if early else "every game ended by the point target"
    return (
        f"Game length ({games} games): {low:.1f} to {high:.1f} rounds on average across "
        f"arms; {ends}."
    )

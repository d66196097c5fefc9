"""Section: how often players reserve, how many reserved cards they buy, and who wins."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import fmt
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.generic import win_share
from sanssim.analysis.section import Context, Section, skipped_without_turns
from sanssim.analysis.stats import (
    mean_table,
    rate_table,
    ratio_table,
)
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
    share,
    standard_arms,
)

RESERVE_BUCKETS = ("0 reserves", "1", "2", "3", "4 or more")
HEAVY_RESERVES = len(RESERVE_BUCKETS) - 1


def build(ctx: Context) -> Section:
    """How often players reserve, how many reserved cards they buy, and who wins."""
    title = "Reserves and their payoff"
    skipped = skipped_without_turns(ctx, title)
    arms = logged(ctx)
    if not arms:
        return Section([], skipped)
    turns = ctx.data.turns
    assert turns is not None
    made = (
        turns.filter(pl.col("action").is_in(["reserve", "reserve_blind"]))
        .group_by(PLAYER)
        .agg(
            reserves=pl.len(),
            blind=(pl.col("action") == "reserve_blind").sum(),
            gold=pl.col("gold_taken").cast(pl.Int64).sum(),
        )
    )
    bought = (
        card_buys(ctx)
        .filter(pl.col("card_from") == "reserve")
        .group_by(PLAYER)
        .agg(later=pl.len(), later_points=pl.col("value").cast(pl.Int64).sum())
    )
    counts = ["reserves", "blind", "gold", "later", "later_points"]
    players = per_player(
        ctx, made.join(bought, on=PLAYER, how="full", coalesce=True), counts
    ).with_columns(
        win=win_share(),
        bucket=pl.col("reserves").clip(upper_bound=HEAVY_RESERVES),
        heavy=pl.col("reserves") >= HEAVY_RESERVES,
    )
    made_by = pl.col("reserves")
    summary = (
        mean_table(
            players,
            ["arm"],
            {"reserves": pl.col("reserves"), "later_points": pl.col("later_points")},
        )
        .join(rate_table(players, ["arm"], {"reserver": pl.col("reserves") > 0}), on="arm")
        .join(
            mean_table(
                players.group_by("arm", *GAME).agg(pl.col("reserves").sum()),
                ["arm"],
                {"per_game": pl.col("reserves")},
            ),
            on="arm",
        )
        .join(
            ratio_table(
                players,
                ["arm"],
                GAME,
                {
                    "later": (pl.col("later"), made_by),
                    "blind": (pl.col("blind"), made_by),
                    "gold": (pl.col("gold"), made_by),
                },
                shares=["later", "blind", "gold"],
            ),
            on="arm",
        )
    )
    by_arm = rows_by(summary, "arm")
    rows = [
        [
            a,
            str(by_arm[a]["per_game_n"]),
            fmt.ci(by_arm[a], "per_game", 2),
            str(by_arm[a]["reserves_n"]),
            fmt.ci(by_arm[a], "reserves", 2),
            fmt.pct(by_arm[a], "reserver"),
            share(by_arm[a], "blind"),
            share(by_arm[a], "gold"),
            share(by_arm[a], "later"),
            fmt.ci(by_arm[a], "later_points", 2),
        ]
        for a in arms
    ]
    wins = rate_table(players, ["arm", "bucket"], {"win": pl.col("win")})
    sides = rate_table(players, ["arm", "heavy"], {"win": pl.col("win")})
    payoff, findings, standard = [], [], set(standard_arms(ctx))
    for arm in arms:
        cells = rows_by(wins.filter(pl.col("arm") == arm), "bucket")
        side = rows_by(sides.filter(pl.col("arm") == arm), "heavy")
        both = True in side and False in side
        diff = fmt.rate_diff(side[True], side[False], "win") if both else "–"
        payoff.append(
            [arm, *(cell(cells.get(b), "win") for b in range(len(RESERVE_BUCKETS))), diff]
        )
        if arm in standard:
            s = by_arm[arm]
            findings.append(
                f"Reserves, {arm} ({s['reserves_n']} players): {fmt.ci(s, 'reserves', 2)} "
                f"reserves per player, {share(s, 'later')} of reserved cards bought later; "
                f"win rate of players with {HEAVY_RESERVES} or more reserves minus those with "
                f"fewer: {diff} (observational)."
            )
    blocks: list[Block] = [
        Heading(2, title),
        Para(
            "Reserves made (display and blind) per game (n = games) and per player (n = "
            "player-games, with a turn log), the share of players who reserve at all, the "
            "share of reserves that were blind and that brought a gold token, the share of "
            "reserved cards the player bought later (a reserved card leaves the hand only that "
            "way), and the points of those cards. Shares of reserves are ratios over all "
            "reserves with cluster-robust intervals over games."
        ),
        Table(
            [
                "arm",
                "games",
                "reserves per game",
                "players",
                "reserves per player",
                "players who reserve",
                "blind share of reserves",
                "reserves bringing gold",
                "reserved cards bought later",
                "points from reserved cards",
            ],
            rows,
        ),
        Para(
            "Win rate (shared wins split) by reserves made in the game, and players with "
            f"{HEAVY_RESERVES} or more reserves minus those with fewer. " + OBSERVATIONAL
        ),
        Table(
            ["arm", *RESERVE_BUCKETS, f"{HEAVY_RESERVES} or more − fewer"],
            payoff,
        ),
        interval_figure(
            ctx,
            "reserve_payoff",
            "Win rate by reserves made",
            arms,
            series_by_arm(wins, arms, "bucket", dict(enumerate(RESERVE_BUCKETS)), "win", 100, "p"),
            "win rate (%, 95% CI; n = players in each group, in the table)",
            "Win rate by the number of cards reserved in the game (observational).",
        ),
    ]
    return Section(blocks, skipped, findings)

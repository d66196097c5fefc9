"""Section 4: how a game unfolds, round by round (needs turn logs)."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures
from sanssim.analysis.document import Block, Figure, Heading, Para
from sanssim.analysis.section import Context, Section, Skipped, skipped_without_turns
from sanssim.analysis.stats import mean_table

TITLE = "Game flow"
MAX_GAMES = 20_000  # per run: enough for tight intervals, bounded memory for the windows
PLAYER_GAME = ["run", "game_id", "seat"]
NOBLES = 9  # a player's nobles: depth is their mean row


def build(ctx: Context) -> Section:
    turns = ctx.data.turns
    if turns is None:
        return Section([], [Skipped(TITLE, "no run has a turn log (--no-turn-log)")])
    skipped = skipped_without_turns(ctx, f"{TITLE} for some arms")
    cumulative = turns.filter(pl.col("game_id") < MAX_GAMES).select(
        "arm",
        "round",
        "score",
        depth=(pl.col("noble_to") - pl.col("noble_from"))
        .fill_null(0)
        .cum_sum()
        .over(PLAYER_GAME, order_by="turn"),
        nobles=pl.col("noble_points").cum_sum().over(PLAYER_GAME, order_by="turn"),
        expansion=pl.col("expansion_points").cum_sum().over(PLAYER_GAME, order_by="turn"),
        gardeners=pl.col("gardener").cast(pl.Int32).cum_sum().over(PLAYER_GAME, order_by="turn"),
    )
    names = {
        "score": "running score (points)",
        "nobles": "noble points so far",
        "expansion": "expansion points so far",
        "depth": "mean noble row (0 = terrace)",
        "gardeners": "gardeners placed so far",
    }
    table = mean_table(cumulative, ["arm", "round"], {n: pl.col(n) for n in names})
    # depth is summed in rows moved, an integer (exact sums are cheap on integers, costly on
    # floats), and only then spread over the nobles: the mean row of each.
    table = table.with_columns(pl.col(f"depth_{s}") / NOBLES for s in ("mean", "sd", "lo", "hi"))
    rounds = sorted(table["round"].unique().to_list())
    unlogged = set(ctx.data.arms_without_turns())
    arms = [a for a in ctx.data.arm_labels if a not in unlogged]

    def series(name: str) -> list[figures.Series]:
        return [
            figures.series(
                arm, table.filter(pl.col("arm") == arm), "round", rounds, name, ctx.colour(arm)
            )
            for arm in arms
        ]

    blocks: list[Block] = [
        Heading(2, TITLE),
        Para(
            "Per player at the end of each round (18 rounds), with 95% bands, over every "
            "player of every game of the arm (games per arm: see the arms table); end-of-game "
            "bonuses (rows, columns, missions) are not in the running score and appear in "
            f"section 2. At most {MAX_GAMES:,} games per run are used here."
        ),
    ]
    fig = ctx.figure("score_by_round")
    figures.lines(fig, "Running score by round", rounds, series("score"), "round", names["score"])
    blocks.append(Figure(fig.name, "Running score (noble moves and expansion marks) by round."))
    fig = ctx.figure("noble_depth")
    figures.lines(
        fig, "Noble depth over the game", rounds, series("depth"), "round", names["depth"]
    )
    blocks.append(Figure(fig.name, "Mean row of a player's nine nobles after each round."))
    fig = ctx.figure("sources_by_round")
    sources = ["nobles", "gardeners"] + (["expansion"] if ctx.data.arms["expansion"].any() else [])
    figures.panels(
        fig,
        "Points and gardeners over the game (per player, 95% CI)",
        [str(r) for r in rounds],
        {names[n]: series(n) for n in sources},
        "round",
    )
    blocks.append(Figure(fig.name, "Cumulative points by source and gardeners by round."))
    return Section(blocks, skipped)

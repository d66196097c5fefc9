"""Section: the same measures at 2, 3 and 4 players, and the change between counts."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import mean_table, rate_table
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.report.shared import (
    PER_GAME,
    count_groups,
    game_means,
    player_panels,
    players,
)

COUNT_TITLE = "Player count"
COUNT_MEASURES = {
    "bird_turn": "bird points per turn",
    "row": "flower points per pagoda row",
    "set": "set size per pagoda row",
    "total": "total per side",
    "margin": "winning margin",
}


def build(ctx: Context) -> Section:
    """The same measures at 2, 3 and 4 players, and the change from one count to the next
    within each mode; left out when every arm plays one player count."""
    if ctx.data.arms["n_players"].n_unique() < 2:
        return Section([])
    geo = measures.geometry(ctx.data)
    side = measures.sides(ctx.data.results)
    seats = ctx.data.results.with_columns(pl.col("n_players").cast(pl.Int64)).join(
        geo.turns.lazy(), on=["run", "n_players"]
    )
    per_turn = game_means(seats, {"bird_turn": pl.col("own_bird_points") / pl.col("turns")})
    per_side = game_means(
        side,
        {
            "row": pl.col("flower_points") / pl.col("row_points").list.len(),
            "total": pl.col("total"),
        },
    )
    sets = game_means(measures.row_sets(side, geo), {"set": pl.col("size")})
    games = side.group_by(*PER_GAME).agg(margin=measures.lead("total"), tied=measures.top_tied())
    table = (
        per_turn.join(per_side, on="arm")
        .join(sets, on="arm")
        .join(mean_table(games, ["arm"], {"margin": pl.col("margin")}), on="arm")
        .join(rate_table(games, ["arm"], {"tied": pl.col("tied")}), on="arm")
    )
    by_arm = {r["arm"]: r for r in table.iter_rows(named=True)}
    rows = []
    for label, group in count_groups(ctx):
        for a in group:
            r = by_arm[a["arm"]]
            rows.append(
                [
                    a["arm"],
                    players(a["n_players"]),
                    label,
                    str(r["margin_n"]),
                    *(fmt.ci(r, m, 2) for m in COUNT_MEASURES),
                    fmt.pct(r, "tied"),
                ]
            )
    effects, findings = _count_effects(ctx, by_arm)
    x, panels = player_panels(
        ctx,
        table,
        {
            **{
                f"{name} ({'flowers' if m == 'set' else 'points'})": (m, "mean", 1)
                for m, name in COUNT_MEASURES.items()
            },
            "top total tied (% of games)": ("tied", "p", 100),
        },
    )
    fig = ctx.figure("player_count")
    figures.panels(fig, "Player count, by mode (95% CI)", x, panels, "players")
    blocks: list[Block] = [
        Heading(2, COUNT_TITLE),
        Para(
            "Measures that compare across player counts: bird points per turn (a player's "
            "own birds over its turns), flower points and the scoring set's size per row of a "
            "pagoda, total per side (with 4 players a side is a team of two), each averaged "
            "over the game's players, rows or sides first; the winning margin and how often "
            "the top total is tied. n = games throughout."
        ),
        Table(
            ["arm", "players", "mode", "games", *COUNT_MEASURES.values(), "top total tied"],
            rows,
        ),
    ]
    if effects:
        blocks += [
            Para("From one player count to the next, within each mode (Welch 95% CI):"),
            Table(["change", *COUNT_MEASURES.values(), "top total tied"], effects),
        ]
    blocks.append(Figure(fig.name, "Player count effects; games per arm as in the table above."))
    return Section(blocks, findings=findings)


def _count_effects(ctx: Context, by_arm: dict[str, dict]) -> tuple[list[list[str]], list[str]]:
    rows, findings = [], []
    for label, group in count_groups(ctx):
        for a, b in zip(group, group[1:], strict=False):
            ra, rb = by_arm[a["arm"]], by_arm[b["arm"]]
            rows.append(
                [
                    f"{a['n_players']} → {b['n_players']} players, {label}",
                    *(fmt.mean_diff(rb, ra, m, 2) for m in COUNT_MEASURES),
                    fmt.rate_diff(rb, ra, "tied"),
                ]
            )
        if len(group) > 1:
            steps = "; ".join(
                f"{a['n_players']}p {fmt.ci(by_arm[a['arm']], 'bird_turn', 2)}" for a in group
            )
            rows_ = "; ".join(
                f"{a['n_players']}p {fmt.ci(by_arm[a['arm']], 'row', 2)}" for a in group
            )
            games = ", ".join(str(by_arm[a["arm"]]["margin_n"]) for a in group)
            findings.append(
                f"Player count, {label} ({games} games): bird points per turn {steps}; "
                f"flower points per pagoda row {rows_}."
            )
    return rows, findings

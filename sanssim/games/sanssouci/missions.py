"""Section 1: what each mission card is worth, alone, in pairs, and by garden side."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.order_free import order_free_mean
from sanssim.analysis.section import Answer, Context, Section
from sanssim.analysis.stats import ALPHA, between_groups, mean_table, rate_table, win_share
from sanssim.games.sanssouci import SYMBOLS
from sanssim.games.sanssouci.components import N_ROWS
from sanssim.games.sanssouci.measures import preprinted_depth, side_columns
from sanssim.games.sanssouci.mission_ranks import rank_stability

TITLE = "Mission values"


def holdings(ctx: Context) -> pl.LazyFrame:
    """One row per mission held: the `row` of the noble in its column, its `points` (that
    row, or what the run's mission table pays for it), the holder's final score and win share,
    and its `group`: the arm, split by the holder's strategy when the arm mixes strategies."""
    paid = pl.concat_list(
        pl.lit(0, pl.Int64), pl.col("mission_row_points").str.split(",").cast(pl.List(pl.Int64))
    )
    ds = ctx.data
    return (
        ds.results.with_columns(
            win=win_share(),
            mission=pl.concat_list("mission_a", "mission_b"),
            pair=pl.concat_str(
                pl.min_horizontal("mission_a", "mission_b"),
                pl.lit(" + "),
                pl.max_horizontal("mission_a", "mission_b"),
            ),
        )
        .explode("mission")
        .join(
            side_columns(ds).lazy().rename({"symbol": "mission"}),
            on=["run", "garden_side", "mission"],
        )
        .with_columns(row=pl.col("noble_rows").list.get(pl.col("col")).cast(pl.Int64))
        .with_columns(
            points=paid.list.get(pl.col("row")),
            group=pl.when(pl.col("strategy").n_unique().over("arm") > 1)
            .then(pl.format("{} — {}", "arm", "strategy"))
            .otherwise("arm"),
        )
    )


# The holdings columns the section's tables read (`rank_stability` pairs cards by deal).
HELD = ["arm", "group", "mission", "mission_a", "pair", "points", "total", "win", "row"]
HELD += ["run", "garden_side", "col", "game_id", "game_seed", "seat"]


def build(ctx: Context) -> Section:
    # Collected once: every table below would otherwise explode and join the results again.
    held = holdings(ctx).select(HELD).collect().lazy()
    by = ["arm", "group", "mission"]
    values = mean_table(held, by, {"points": pl.col("points"), "total": pl.col("total")})
    wins = rate_table(held, by, {"win": pl.col("win")})
    table = values.join(wins, on=by)
    share_flags = {f"p{k}": pl.col("row") == k for k in range(N_ROWS + 1)}
    dist = rate_table(held, by, share_flags)
    pairs = mean_table(
        held.filter(pl.col("mission") == pl.col("mission_a")),
        ["arm", "group", "pair"],
        {"total": pl.col("total")},
    )
    sides = mean_table(
        held, ["arm", "group", "mission", "garden_side"], {"points": pl.col("points")}
    )
    footholds = held.join(
        preprinted_depth(ctx.data).lazy(), on=["run", "garden_side", "col"], how="left"
    ).with_columns(pl.col("printed").fill_null(0))
    by_print = mean_table(footholds, ["arm", "group", "printed"], {"points": pl.col("points")})
    by_print = by_print.join(
        rate_table(footholds, ["arm", "group", "printed"], {"deep": pl.col("row") == N_ROWS}),
        on=["arm", "group", "printed"],
    )

    blocks = [
        Heading(2, TITLE),
        Para(
            "A mission scores the row of the noble in its column at the end (0 if the noble "
            "never left the terrace; under a house-rule mission table, what the table pays for "
            "that row). Holders' score and win rate show whether the points "
            "translate into wins. Win rate splits shared wins; the fair share is 1/players. "
            "Brackets are 95% confidence intervals."
        ),
    ]
    order = (
        table.group_by("mission")
        .agg(order_free_mean(pl.col("points_mean")))
        .sort("points_mean", "mission")["mission"]
        .reverse()
        .to_list()
    )
    series = [
        figures.series(
            group, part, "mission", order, "points", ctx.colour(arm) if group == arm else None
        )
        for arm, group, part in _groups(table, ctx)
    ]
    fig = ctx.figure("missions_rank")
    figures.intervals(
        fig,
        "Mission cards ranked by mean mission points",
        order,
        series,
        "mean mission points per card held (points, 95% CI)",
    )
    blocks.append(Figure(fig.name, "Missions ranked by mean points, 95% intervals."))
    findings = [_spread(group, part) for _, group, part in _groups(table, ctx)]
    answer: list[Answer] = []
    blocks += rank_stability(ctx, held, answer)
    for _, group, part in _groups(table, ctx):
        blocks += _arm_tables(
            group,
            part,
            dist.filter(pl.col("group") == group),
            pairs.filter(pl.col("group") == group),
            sides.filter(pl.col("group") == group),
            by_print.filter(pl.col("group") == group),
        )
    return Section(blocks, findings=findings, answer=answer)


def _spread(arm: str, table: pl.DataFrame) -> str:
    """Best and worst mission card of an arm, and a test that all nine are worth the same
    (picking the extremes after the fact would overstate their difference)."""
    ranked = table.sort("points_mean", "mission", descending=[True, False])
    best, worst = ranked.row(0, named=True), ranked.row(-1, named=True)
    stat, df, p = between_groups(
        table["points_n"].to_list(), table["points_mean"].to_list(), table["points_sd"].to_list()
    )
    verdict = "the missions differ in value" if p < ALPHA else "no clear difference in value"
    return (
        f"Missions, {arm} ({table['points_n'].sum()} cards held): best {best['mission']} "
        f"{fmt.ci(best, 'points', 2)}, worst "
        f"{worst['mission']} {fmt.ci(worst, 'points', 2)} points per card; all equal: "
        f"χ²({df}) = {stat:.1f}, {fmt.pval(p)}: {verdict}."
    )


def _groups(frame: pl.DataFrame, ctx: Context) -> list[tuple[str, str, pl.DataFrame]]:
    """(arm, group, rows) in arm order."""
    keys = frame.select("arm", "group").unique()
    order = sorted(keys.iter_rows(), key=lambda k: (ctx.data.arm_labels.index(k[0]), k[1]))
    return [(arm, group, frame.filter(pl.col("group") == group)) for arm, group in order]


def _arm_tables(
    arm: str,
    table: pl.DataFrame,
    dist: pl.DataFrame,
    pairs: pl.DataFrame,
    sides: pl.DataFrame,
    by_print: pl.DataFrame,
) -> list[Block]:
    blocks: list[Block] = [Heading(3, f"Missions — {arm}")]
    rows = [
        [
            r["mission"],
            str(r["points_n"]),
            fmt.ci(r, "points", 2),
            fmt.ci(r, "total"),
            fmt.pct(r, "win"),
        ]
        for r in table.sort("points_mean", "mission", descending=[True, False]).iter_rows(
            named=True
        )
    ]
    blocks.append(
        Table(
            ["mission", "n held", "mission points", "holder's final score", "holder's win rate"],
            rows,
        )
    )
    half = max((dist[f"p{k}_hi"] - dist[f"p{k}_lo"]).max() / 2 for k in range(N_ROWS + 1))
    blocks.append(
        Para(
            f"Where the mission's noble ends (share of cards held by its row 0–{N_ROWS}, 0 the "
            "terrace; under the rules the mission scores that row); every share's 95% interval "
            f"is within ±{100 * half:.1f} percentage points."
        )
    )
    blocks.append(
        Table(
            ["mission", "n", *map(str, range(N_ROWS + 1))],
            [
                [
                    r["mission"],
                    str(r["p0_n"]),
                    *(f"{100 * r[f'p{k}_p']:.0f}%" for k in range(N_ROWS + 1)),
                ]
                for r in dist.iter_rows(named=True)
            ],
        )
    )
    blocks += _pairs(pairs)
    blocks += _garden_effect(sides)
    blocks += _footholds(by_print)
    return blocks


def _pairs(pairs: pl.DataFrame) -> list[Block]:
    """Best and worst three pairs by holders' final score, and a test that all are equal."""
    ranked = pairs.filter(pl.col("total_n") > 1).sort(
        "total_mean", "pair", descending=[True, False]
    )
    if ranked.height < 2:
        return []
    stat, df, p = between_groups(
        ranked["total_n"].to_list(), ranked["total_mean"].to_list(), ranked["total_sd"].to_list()
    )
    verdict = "pairs differ" if p < ALPHA else "no clear difference between pairs"
    shown = pl.concat([ranked.head(3), ranked.tail(3)]).unique(
        "pair", keep="first", maintain_order=True
    )
    rows = [[r["pair"], str(r["total_n"]), fmt.ci(r, "total")] for r in shown.iter_rows(named=True)]
    return [
        Para(
            f"Best and worst three mission pairs by the holder's final score (of {ranked.height} "
            f"pairs dealt). Test that all pairs give the same score: χ²({df}) = {stat:.1f}, "
            f"{fmt.pval(p)}: {verdict}. Extremes picked from many pairs overstate the spread."
        ),
        Table(["pair", "n players", "final score"], rows),
    ]


def _garden_effect(sides: pl.DataFrame) -> list[Block]:
    """Does the garden side change a mission's value? A between-sides test per mission,
    significant only below 0.05/9 (Bonferroni over the nine missions)."""
    rows = []
    for (mission,), part in (
        sides.filter(pl.col("points_n") > 1)
        .partition_by("mission", as_dict=True, maintain_order=True)
        .items()
    ):
        if part.height < 2:
            continue
        stat, df, p = between_groups(
            part["points_n"].to_list(), part["points_mean"].to_list(), part["points_sd"].to_list()
        )
        low, high = (
            part.sort("points_mean", "garden_side").row(0, named=True),
            part.sort("points_mean", "garden_side").row(-1, named=True),
        )
        rows.append(
            [
                mission,
                str(part["points_n"].sum()),
                f"{low['garden_side']} {fmt.ci(low, 'points', 2)}",
                f"{high['garden_side']} {fmt.ci(high, 'points', 2)}",
                f"χ²({df}) = {stat:.1f}, {fmt.pval(p)}",
                "yes" if p < ALPHA / len(SYMBOLS) else "no clear effect",
            ]
        )
    if not rows:
        return []
    return [
        Para(
            "Does the garden side change a mission's value? Mean points on the lowest and "
            "highest side, and a test that all sides give the same mean (significant below "
            f"{ALPHA}/9)."
        ),
        Table(["mission", "n held", "lowest side", "highest side", "test", "side matters"], rows),
    ]


def _footholds(by_print: pl.DataFrame) -> list[Block]:
    """Why the garden side matters: a mission by the pre-printed square in its column."""
    rows = [
        [
            "none" if r["printed"] == 0 else f"row {r['printed']}",
            str(r["points_n"]),
            fmt.ci(r, "points", 2),
            fmt.pct(r, "deep"),
        ]
        for r in by_print.sort("printed").iter_rows(named=True)
    ]
    return [
        Para(
            "Why: a mission by the pre-printed square in its column on the holder's garden "
            "side (besides row 1; none, or its row), a foothold on the noble's way down. Mean "
            f"points and the share of its nobles ending in row {N_ROWS}."
        ),
        Table(["pre-printed square", "n held", "mission points", f"noble in row {N_ROWS}"], rows),
    ]

"""Section: how often a row of each length scores with a set of 1 .. 6 flowers."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Figure, Heading, Para, Table
from sanssim.analysis.order_free import order_free_means
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import mean_table
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.report.shared import PER_GAME, lines_at, pct

ROWS_TITLE = "Flower rows: set sizes by row length"


def build(ctx: Context) -> Section:
    """How often a row of each length scores with a set of 1 .. 6 flowers."""
    geo = measures.geometry(ctx.data)
    rows = measures.row_sets(measures.sides(ctx.data.results), geo)
    longest = int(geo.rows["length"].max())
    sizes = range(1, longest + 1)
    shares = {
        "size": pl.col("size"),
        "full": pl.col("size") == pl.col("length"),
        **{f"s{s}": pl.col("size") == s for s in sizes},
    }
    per_game = rows.group_by(*PER_GAME, "length").agg(
        pl.len().alias("rows"), *order_free_means(rows, shares)
    )
    values = {n: pl.col(n) for n in ("rows", "size", "full", *(f"s{s}" for s in sizes))}
    table = mean_table(per_game, ["arm", "length"], values)
    half = max((table[f"s{s}_hi"] - table[f"s{s}_lo"]).drop_nans().max() / 2 for s in sizes) or 0.0
    body = []
    findings = []
    for arm in ctx.data.arm_labels:
        part = table.filter(pl.col("arm") == arm).sort("length")
        for r in part.iter_rows(named=True):
            shares = [f"{100 * r[f's{s}_mean']:.1f}%" if s <= r["length"] else "" for s in sizes]
            body.append(
                [
                    arm,
                    str(r["length"]),
                    str(r["size_n"]),
                    f"{r['rows_mean']:.0f}",
                    fmt.ci(r, "size", 2),
                    *shares,
                    pct(r, "full"),
                ]
            )
        if part.height:
            lengths = " / ".join(str(v) for v in part["length"])
            means = " / ".join(fmt.ci(r, "size", 2) for r in part.iter_rows(named=True))
            full = " / ".join(pct(r, "full") for r in part.iter_rows(named=True))
            findings.append(
                f"Rows, {arm} ({part['size_n'][0]} games): rows of {lengths} score with sets of "
                f"{means} flowers on average; a row is all one set in {full} of them."
            )
    fig = _rows_figure(ctx, table, list(sizes))
    return Section(
        [
            Heading(2, ROWS_TITLE),
            Para(
                "Each pagoda row scores its largest set of one flower, koi included; the set "
                "size is read back from the row's points. Share of rows of each length scored "
                "with each set size, averaged per game so that the rows of one garden (which "
                "share its tiles) count once: n = games, each with the given number of rows of "
                f"that length over its sides. Every share's 95% interval is within "
                f"±{100 * half:.1f} percentage points."
            ),
            Table(
                [
                    "arm",
                    "row length",
                    "games",
                    "rows per game",
                    "mean set size",
                    *(str(s) for s in sizes),
                    "all one set",
                ],
                body,
            ),
            fig,
        ],
        findings=findings,
    )


def _rows_figure(ctx: Context, table: pl.DataFrame, sizes: list[int]) -> Figure:
    """One panel per (player count, row length): share of rows by set size, one line per
    mode."""
    long = (
        table.unpivot(
            index=["arm", "length"],
            on=[f"s{s}_{k}" for s in sizes for k in ("mean", "lo", "hi")],
        )
        .with_columns(
            size=pl.col("variable").str.extract(r"s(\d+)_").cast(pl.Int64),
            stat=pl.col("variable").str.extract(r"_(\w+)$"),
        )
        .pivot("stat", index=["arm", "length", "size"], values="value")
        .rename({"mean": "share_mean", "lo": "share_lo", "hi": "share_hi"})
        .join(ctx.data.arms.select("arm", "n_players"), on="arm")
    )
    panels = {
        f"% of rows of {length}, {n} players": [
            figures.series(
                label,
                long.filter((pl.col("arm") == arm) & (pl.col("length") == length)),
                "size",
                sizes,
                "share",
                colour,
                100,
            )
            for label, arm, colour in lines_at(ctx, n)
        ]
        for n in sorted(set(long["n_players"].to_list()))
        for length in sorted(set(long["length"].to_list()))
    }
    fig = ctx.figure("row_set_sizes")
    figures.panels(
        fig,
        "Set size that scores a row, by row length and player count (95% CI)",
        [str(s) for s in sizes],
        panels,
        "set size (flowers, koi included)",
    )
    return Figure(fig.name, "Which set scores a pagoda row: shares by row length (n = games).")

"""Section: each side's win rate against 1/sides, with and without the tie-break."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import ALPHA, chi2_gof, mean_table, rate_table
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.report.shared import (
    PER_GAME,
    arm_rows,
    count_groups,
    players,
    side_label,
)

SIDES_TITLE = "Sides and the tie-break"


def build(ctx: Context) -> Section:
    """Win rate of each side against 1/sides, with and without the tie-break; how often
    the top total is tied, so that the tie-break decides."""
    side = measures.sides(ctx.data.results).with_columns(gain=pl.col("win") - pl.col("split_win"))
    keys = ["arm", "n_players", "n_sides", "side", "pagoda"]
    wins = rate_table(side, keys, {"win": pl.col("win"), "split": pl.col("split_win")})
    means = mean_table(side, ["arm", "side"], {"gain": pl.col("gain"), "total": pl.col("total")})
    table = wins.join(means, on=["arm", "side"]).with_columns(fair=1 / pl.col("n_sides"))
    findings: list[str] = []
    rows = []
    tests = {}
    for arm in ctx.data.arm_labels:
        part = table.filter(pl.col("arm") == arm)
        stat, df, p = chi2_gof(part["win_k"].to_list(), (part["win_n"] * part["fair"]).to_list())
        tests[arm] = (stat, df, p)
        for r in part.iter_rows(named=True):
            test = ""
            if r["side"] == 0:
                verdict = "the sides differ" if p < ALPHA else "no clear side effect"
                test = f"χ²({df}) = {stat:.1f}, {fmt.pval(p)}: {verdict}"
            rows.append(
                [
                    arm,
                    side_label(r),
                    str(r["win_n"]),
                    fmt.pct(r, "win"),
                    f"{100 * r['fair']:.1f}%",
                    fmt.pct(r, "split"),
                    _pp(r, "gain"),
                    fmt.ci(r, "total"),
                    test,
                ]
            )
    games = side.group_by(*PER_GAME).agg(
        pl.col("n_players").first(),
        tied=measures.top_tied(),
        last_win=pl.col("win").filter("last").first(),
        last_gain=pl.col("gain").filter("last").first(),
        last_excess=(pl.col("win") - 1 / pl.col("n_sides")).filter("last").first(),
        last_split_excess=(pl.col("split_win") - 1 / pl.col("n_sides")).filter("last").first(),
    )
    ties = rate_table(games, ["arm", "n_players"], {"tied": pl.col("tied")})
    tied_won = rate_table(games.filter("tied"), ["arm"], {"last": pl.col("last_win")})
    last = mean_table(
        games,
        ["arm"],
        {
            "gain": pl.col("last_gain"),
            "excess": pl.col("last_excess"),
            "split": pl.col("last_split_excess"),
        },
    )
    tie_table = ties.join(tied_won, on="arm", how="left").join(last, on="arm")
    tie_rows = []
    for r in arm_rows(ctx, tie_table):
        tie_rows.append(
            [
                r["arm"],
                players(r["n_players"]),
                str(r["tied_n"]),
                fmt.pct(r, "tied"),
                fmt.followed(fmt.pct(r, "last"), f" of {r['last_n']}") if r["last_n"] else "no tie",
                _pp(r, "gain"),
            ]
        )
        stat, df, p = tests[r["arm"]]
        findings.append(
            f"Tie-break, {r['arm']} ({r['tied_n']} games): the top total is tied between sides "
            f"in {fmt.pct(r, 'tied')} of games, so the tie-break decides them; it adds "
            f"{_pp(r, 'gain')} to the last side's win rate. Sides all equal: {fmt.pval(p)}."
        )
    blocks: list[Block] = [
        Heading(2, SIDES_TITLE),
        Para(
            "A side is a seat, or with 4 players a team (seats 0 and 2 against 1 and 3): it has "
            "one total and one rank. Win rate by side against the fair 1/sides (n = games), and "
            "what the side would win were a tie on top shared instead of broken (the rules give "
            "it to the side later in turn order, or as the component data say); the difference "
            "is what the tie-break gives "
            "the side (t interval over games). The test asks whether the sides' wins differ at "
            "all (chi-square goodness of fit)."
        ),
        Table(
            [
                "arm",
                "side",
                "games",
                "win rate",
                "fair",
                "win rate, ties shared",
                "tie-break's gain",
                "mean total",
                "test",
            ],
            rows,
        ),
        Heading(3, "How often does the tie-break decide?"),
        Para(
            "Share of games whose top total is tied between two or more sides (Wilson 95% "
            "interval, n = games); of those, the share the last side in turn order wins (in "
            "3 players a tie between the first two seats goes to the second); and the last "
            "side's gain in win rate from the tie-break over all games."
        ),
        Table(
            [
                "arm",
                "players",
                "games",
                "top total tied",
                "tied games the last side wins",
                "last side's gain",
            ],
            tie_rows,
        ),
    ]
    blocks += _tie_figures(ctx, ties, last)
    return Section(blocks, findings=findings)


def _tie_figures(ctx: Context, ties: pl.DataFrame, last: pl.DataFrame) -> list[Block]:
    counts = sorted(set(ties["n_players"].to_list()))
    series = [
        figures.series(
            label,
            ties.filter(pl.col("arm").is_in([a["arm"] for a in arms])),
            "n_players",
            counts,
            "tied",
            ctx.colour(arms[0]["arm"]),
            100,
            "p",
        )
        for label, arms in count_groups(ctx)
    ]
    n = ", ".join(f"{r['arm']} {r['tied_n']}" for r in arm_rows(ctx, ties))
    tie_fig = ctx.figure("top_total_tied")
    figures.intervals(
        tie_fig,
        "Games whose top total is tied between sides (the tie-break decides)",
        [players(c) for c in counts],
        series,
        "share of games (%, 95% CI)",
    )
    arms = ctx.data.arm_labels
    last_fig = ctx.figure("last_side_win")
    figures.intervals(
        last_fig,
        "The last side's win rate minus the fair 1/sides",
        arms,
        [
            figures.series("tie-break applied (the rules)", last, "arm", arms, "excess", None, 100),
            figures.series("ties shared instead", last, "arm", arms, "split", None, 100),
        ],
        "win rate − 1/sides (percentage points, 95% CI)",
        reference=0.0,
    )
    return [
        Figure(tie_fig.name, f"How often the tie-break decides a game (games: {n})."),
        Figure(
            last_fig.name,
            "The last side in turn order: its edge with the tie-break and without it "
            "(same games as above).",
        ),
    ]


def _pp(row: dict, name: str) -> str:
    """A difference of shares from a `mean_table` row, in percentage points."""
    value, lo, hi = (row[f"{name}_{s}"] for s in ("mean", "lo", "hi"))
    if value is None or lo is None:
        return "–"
    return fmt.interval(100 * value, 100 * lo, 100 * hi, signed=True, unit=" pp")

"""Report sections for every game, from the columns every game logs.

Results: `seat`, `strategy`, `total`, `rank`, `winner` (and the game's declared
sources of points); turns: `turn`, `round`, `seat`, `score`.
"""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, flipped, fmt, pairs, quality, quality_section
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.quality import margin, winning
from sanssim.analysis.section import FEW_ARMS, Context, Section
from sanssim.analysis.stats import ALPHA, chi2_gof, mean_table, rate_table, win_share

TITLE = "Balance for every game"


def with_sides(ctx: Context) -> pl.LazyFrame:
    """The results with each row's `side`: its team where the arm's component data names
    teams, else its seat."""
    results = ctx.data.results.lazy()
    return pl.concat(
        quality.sided(results.filter(pl.col("arm") == arm), quality_section.teams(ctx.data, arm))
        for arm in ctx.data.arm_labels
    )


def build(ctx: Context) -> Section:
    findings: list[str] = []
    summary: list[str] = []
    blocks: list[Block] = [Heading(2, TITLE)]
    blocks += _seats(ctx, findings, summary)
    blocks += _scores(ctx, findings, summary)
    blocks += _length(ctx)
    blocks += _sources(ctx)
    many = len(ctx.data.arm_labels) > FEW_ARMS
    return Section(blocks, [], findings, summary if many else None)


def _seat_summary(firsts: list[dict]) -> str:
    """The first player's edge across arms: how many arms show one, and its range."""
    rejected = sum(r["p"] < ALPHA for r in firsts)

    def edge(r: dict) -> str:
        excess = fmt.interval(
            100 * r["excess_p"], 100 * r["excess_lo"], 100 * r["excess_hi"], signed=True
        )
        return f"{excess} pp: {fmt.pct(r, 'win')} against {100 * r['fair']:.1f}%"

    return (
        f"Seats ({len(firsts)} arms, {fmt.counts(firsts, 'win_n')}): the test across seats "
        f"finds that seat order matters in {rejected} of {len(firsts)} arms; the first "
        f"player's edge over the fair share runs from {fmt.span(firsts, 'excess_p', edge)}."
    )


def _seat_finding(arm: str, first: dict, seats: int, p: float, verdict: str) -> str:
    own = fmt.pct(first, "win")
    fair = f"{100 * first['fair']:.1f}%"
    excluded = not first["win_lo"] <= first["fair"] <= first["win_hi"]
    text = (
        f"Seats, {arm} ({first['win_n']} games): the first player wins {own} against a "
        f"fair {fair}; across all {seats} seats the test gives {fmt.pval(p)}: {verdict}."
    )
    if excluded and p >= ALPHA:
        text += (
            " The first seat's own interval excludes the fair share but the test across "
            "seats does not: with several seats that is weak evidence of a first-player edge."
        )
    return text


def _seats(ctx: Context, findings: list[str], summary: list[str]) -> list[Block]:
    """Win rate by seat against the fair 1/n, with a goodness-of-fit test per arm."""
    res = ctx.data.results.with_columns(win=win_share())
    wins = rate_table(res, ["arm", "n_players", "seat"], {"win": pl.col("win")})
    scores = mean_table(res, ["arm", "seat"], {"total": pl.col("total")})
    table = wins.join(scores, on=["arm", "seat"]).with_columns(
        fair=1 / pl.col("n_players"),
        excess_p=pl.col("win_p") - 1 / pl.col("n_players"),
        excess_lo=pl.col("win_lo") - 1 / pl.col("n_players"),
        excess_hi=pl.col("win_hi") - 1 / pl.col("n_players"),
    )
    blocks: list[Block] = [
        Heading(3, "Seat (turn-order) advantage"),
        Para(
            "Win rate by seat (seat 0 plays first; shared wins are split) against the fair "
            "share 1/players, with a chi-square goodness-of-fit test of the wins per seat. "
            "The two answer different questions: a seat's interval compares that one seat "
            "with its fair share, the test asks whether the seats differ at all, all seats "
            "together. With several seats one interval in twenty misses its target by chance, "
            "so a lone interval that just excludes the fair share while the test does not "
            "reject is weak evidence."
        ),
    ]
    arms = ctx.data.arms
    mixed = set(arms.filter(pl.col("strategies").str.contains(" | ", literal=True))["arm"])
    rows = []
    firsts: list[dict] = []
    for arm, part in ((a, table.filter(pl.col("arm") == a)) for a in ctx.data.arm_labels):
        stat, df, p = chi2_gof(part["win_k"].to_list(), (part["win_n"] * part["fair"]).to_list())
        verdict = "seat order matters" if p < ALPHA else "no clear seat effect"
        if arm in mixed:
            verdict += " (but seats play different strategies, so this mixes turn order with "
            verdict += "strategy strength)"
        first = part.row(0, named=True)
        firsts.append({**first, "p": p})
        lineup = arms.filter(pl.col("arm") == arm)["strategies"][0]
        mark = flipped.marker(ctx.verdicts, ctx.data, "seat_edge", (arm,), lineup)
        findings.append(_seat_finding(arm, first, len(part), p, verdict) + mark)
        for r in part.iter_rows(named=True):
            rows.append(
                [
                    arm,
                    str(r["seat"]),
                    str(r["win_n"]),
                    fmt.pct(r, "win"),
                    f"{100 * r['fair']:.1f}%",
                    fmt.ci(r, "total"),
                    f"χ²({df}) = {stat:.1f}, {fmt.pval(p)}: {verdict}" if r["seat"] == 0 else "",
                ]
            )
    blocks.append(Table(["arm", "seat", "games", "win rate", "fair", "mean score", "test"], rows))
    summary.append(_seat_summary(firsts))
    seats = list(range(int(table["seat"].max()) + 1))
    series = [
        figures.series(arm, part, "seat", seats, "excess", ctx.colour(arm), 100, "p")
        for arm, part in ((a, table.filter(pl.col("arm") == a)) for a in ctx.data.arm_labels)
    ]
    fig = ctx.figure("seat_advantage")
    figures.intervals(
        fig,
        "Win rate by seat minus the fair share 1/players",
        [f"seat {s}" for s in seats],
        series,
        "win rate − 1/players (percentage points, 95% CI)",
        reference=0.0,
    )
    blocks.append(
        Figure(
            fig.name,
            "Seat advantage: points right of the dashed line win more often than their fair share.",
        )
    )
    return blocks


def _scores(ctx: Context, findings: list[str], summary: list[str]) -> list[Block]:
    """Final scores, winning scores and margins per arm."""
    lowest = ctx.data.game_type.lowest_wins
    top = "lowest" if lowest else "top"  # the winning total
    games = (
        with_sides(ctx)
        .group_by("arm", "run", "game_id")
        .agg(winning=winning(lowest), margin=margin(lowest))
    )
    per_player = mean_table(ctx.data.results, ["arm"], {"total": pl.col("total")})
    per_game = mean_table(
        games, ["arm"], {"winning": pl.col("winning"), "margin": pl.col("margin")}
    )
    ties = rate_table(games, ["arm"], {"tie": pl.col("margin") == 0})
    table = per_player.join(per_game, on="arm").join(ties, on="arm")
    rows = []
    for r in table.iter_rows(named=True):
        rows.append(
            [
                r["arm"],
                str(r["total_n"]),
                fmt.ci(r, "total"),
                str(r["winning_n"]),
                fmt.ci(r, "winning"),
                fmt.ci(r, "margin"),
                fmt.pct(r, "tie"),
            ]
        )
        findings.append(
            f"Scores, {r['arm']} ({r['winning_n']} games): winners score {fmt.ci(r, 'winning')} "
            f"and win by {fmt.ci(r, 'margin')} points; {fmt.pct(r, 'tie')} of games end with "
            f"the {top} total tied."
        )
    by_arm = table.to_dicts()
    summary.append(
        f"Scores ({len(by_arm)} arms, {fmt.counts(by_arm, 'winning_n')}): winners win by "
        f"{fmt.span(by_arm, 'margin_mean', lambda r: fmt.ci(r, 'margin'))} points; the {top} "
        f"total is tied in {fmt.span(by_arm, 'tie_p', lambda r: fmt.pct(r, 'tie'))} of games."
    )
    arms = ctx.data.arm_labels
    series = [figures.series("winning margin", table, "arm", arms, "margin")]
    fig = ctx.figure("score_distribution")
    figures.intervals(
        fig, "Mean winning margin by arm", arms, series, "points (mean, 95% CI)", reference=0.0
    )
    return [
        Heading(3, "Scores and margins"),
        Para(
            "Mean final score per player (n = player-games), the winner's score and the "
            "margin over the best other side per game (n = games), and how often the "
            f"{top} total is tied before any tie-break."
            + (
                " The lowest total wins: the margin is how far below the best other side "
                "the winner finishes."
                if lowest
                else ""
            )
        ),
        Table(
            ["arm", "players", "mean score", "games", "winning score", "margin", f"{top} tied"],
            rows,
        ),
        Figure(
            fig.name,
            "Mean winning margin per arm with its 95% interval: the average of how far the "
            "winner finishes ahead"
            + (" (below the best other side: the lowest total wins)" if lowest else "")
            + ", not the spread of margins; the dashed line is zero.",
        ),
    ]


def _length(ctx: Context) -> list[Block]:
    """Turns per game, from the turn log (rounds too)."""
    turns = ctx.data.turns
    if turns is None:
        return []
    per_game = turns.group_by("arm", "run", "game_id").agg(
        turns=pl.len(), rounds=pl.col("round").max()
    )
    table = mean_table(per_game, ["arm"], {"turns": pl.col("turns"), "rounds": pl.col("rounds")})
    games = dict(ctx.data.arms.select("arm", "games").iter_rows())
    rows = [
        [
            r["arm"],
            f"{r['turns_n']} of {games[r['arm']]}",
            fmt.ci(r, "turns"),
            fmt.ci(r, "rounds"),
        ]
        for r in table.iter_rows(named=True)
    ]
    rows += [
        [arm, f"0 of {games[arm]}", "no turn log", "–"] for arm in ctx.data.arms_without_turns()
    ]
    return [
        Heading(3, "Game length"),
        Para(
            "Turns and rounds per game, from the turn log: n = games with a turn log, of the "
            "arm's games (fewer when runs with and without a turn log are pooled)."
        ),
        Table(["arm", "games with a turn log", "turns", "rounds"], rows),
    ]


def _sources(ctx: Context) -> list[Block]:
    """Mean points per player from each source the game declares, but a source that gave
    no points in any game of any arm (the expansion's in a base game)."""
    declared = list(ctx.data.game_type.sources)
    if not declared:
        return []
    scored = ctx.data.results.select(
        (pl.col(s).fill_null(0) != 0).any() for s in declared
    ).collect()
    sources = [s for s in declared if scored[s].item()]
    if not sources:
        return []
    table = mean_table(
        ctx.data.results.with_columns(players=pl.lit(1)),
        ["arm"],
        {"players": pl.col("players"), **{s: pl.col(s) for s in sources}},
    )
    rows = [
        [r["arm"], str(r["players_n"]), *(_source_cell(r, s) for s in sources)]
        for r in table.iter_rows(named=True)
    ]
    return [
        Heading(3, "Points by source"),
        Para(
            "Mean points per player from each source of points (n = player-games; a source "
            "that some rows do not record gives its own n)."
        ),
        Table(["arm", "players", *(s.replace("_", " ") for s in sources)], rows),
    ]


def _source_cell(row: dict, source: str) -> str:
    """A source's mean, with its own n when it rests on fewer rows than the arm has."""
    text = fmt.ci(row, source)
    n = row[f"{source}_n"]
    return text if n == row["players_n"] else fmt.followed(text, f", n = {n:,}")


SECTIONS = (build, pairs.build, quality_section.build)

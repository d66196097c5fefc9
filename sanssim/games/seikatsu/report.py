"""Seikatsu's own report sections, after the generic ones.

Sides and the tie-break, birds against flowers, what a koi is worth, flower rows by
length, tournament mode against the standard game, and the player count. A side is a
seat, or a team with 4 players (`measures.sides`); every per-side figure of a 4-player
arm is a team's (two players' birds, one pagoda). Intervals are 95%: Wilson for rates
over independent units, t for means; wherever several values of one game enter (its
rows, its sides, its koi), they are first averaged within the game, so that the game is
the unit, or (shares of the koi) the Wilson interval is made cluster-robust over games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from sanssim.analysis import clustered, figures, fmt
from sanssim.analysis.dataset import variant_name
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.paired import compare
from sanssim.analysis.section import Context, Section, Skipped, skipped_without_turns
from sanssim.analysis.stats import ALPHA, chi2_gof, mean_table, rate_table
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.measures import GAME, SIDE

PER_GAME = ["arm", *GAME]


# ---------------------------------------------------------------- shared helpers


def _players(n: int) -> str:
    return f"{n} players" + (" (2 teams)" if n == 4 else "")


def _pct(row: dict, name: str, centre: str = "mean") -> str:
    """A share from a `mean_table` (or `rate_table` with centre "p") row, in percent."""
    value, lo, hi = (row[f"{name}_{s}"] for s in (centre, "lo", "hi"))
    if value is None or lo is None:
        return "–"
    return fmt.interval(100 * value, 100 * lo, 100 * hi, unit="%")


def _pp(row: dict, name: str) -> str:
    """A difference of shares from a `mean_table` row, in percentage points."""
    value, lo, hi = (row[f"{name}_{s}"] for s in ("mean", "lo", "hi"))
    if value is None or lo is None:
        return "–"
    return fmt.interval(100 * value, 100 * lo, 100 * hi, signed=True, unit=" pp")


def _by_arm(ctx: Context, table: pl.DataFrame) -> list[dict]:
    """Rows of a per-arm table in the report's arm order (arms the table lacks left out)."""
    rows = {r["arm"]: r for r in table.iter_rows(named=True)}
    return [rows[a] for a in ctx.data.arm_labels if a in rows]


def _groups(ctx: Context) -> list[tuple[str, list[dict]]]:
    """Arms equal in everything but the player count, by player count, each group named by
    its mode (and by its strategies and components when two groups share a mode)."""
    arms = ctx.data.arms
    others = [c for c in (*ctx.data.design, "strategies") if c not in ("n_players", "lineup")]
    groups = arms.sort("n_players").group_by(others, maintain_order=True).agg(pl.col("arm"))
    modes = [
        variant_name(ctx.data.game_type, g).replace("base", "standard")
        for g in groups.iter_rows(named=True)
    ]
    out = []
    for mode, names in zip(modes, groups["arm"], strict=True):
        rows = [arms.filter(pl.col("arm") == a).row(0, named=True) for a in names]
        label = mode
        if modes.count(mode) > 1:
            label = f"{mode}, {rows[0]['strategies']}, {rows[0]['components']}"
        out.append((label, rows))
    return out


def _lines_at(ctx: Context, n: int) -> list[tuple[str, str, str]]:
    """(group label, arm, colour) of each group's arm with `n` players: one line per mode,
    coloured alike in every panel so that one legend names them all."""
    return [
        (label, a["arm"], ctx.colour(arms[0]["arm"]))
        for label, arms in _groups(ctx)
        for a in arms
        if a["n_players"] == n
    ]


def _player_panels(
    ctx: Context,
    table: pl.DataFrame,
    measures_shown: dict[str, tuple[str, str, float]],
) -> tuple[list[str], dict[str, list[figures.Series]]]:
    """x labels (player counts) and one panel per measure (y label: (name, centre,
    scale)), one line per group of arms equal but for the player count."""
    counts = sorted(set(ctx.data.arms["n_players"].to_list()))
    joined = table.join(ctx.data.arms.select("arm", pl.col("n_players").alias("_n")), on="arm")
    panels: dict[str, list[figures.Series]] = {}
    for ylabel, (name, centre, scale) in measures_shown.items():
        panels[ylabel] = [
            figures.series(
                label,
                joined.filter(pl.col("arm").is_in([a["arm"] for a in arms])),
                "_n",
                counts,
                name,
                ctx.colour(arms[0]["arm"]),
                scale,
                centre,
            )
            for label, arms in _groups(ctx)
        ]
    return [str(n) for n in counts], panels


def _game_means(frame: pl.LazyFrame, values: dict[str, pl.Expr]) -> pl.DataFrame:
    """Per arm, the mean of each value with n = games: the values of one game's sides or
    seats are averaged first, since they share the game."""
    means = [v.cast(pl.Float64).mean().alias(n) for n, v in values.items()]
    per_game = frame.group_by(PER_GAME).agg(means)
    return mean_table(per_game, ["arm"], {n: pl.col(n) for n in values})


def _side_label(row: dict) -> str:
    who = "team" if row["n_sides"] < row["n_players"] else "seat"
    return f"{who} {row['side']} ({row['pagoda']})"


# ---------------------------------------------------------------- sides and the tie-break

SIDES_TITLE = "Sides and the tie-break"


def sides_and_ties(ctx: Context) -> Section:
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
                    _side_label(r),
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
    for r in _by_arm(ctx, tie_table):
        tie_rows.append(
            [
                r["arm"],
                _players(r["n_players"]),
                str(r["tied_n"]),
                fmt.pct(r, "tied"),
                f"{fmt.pct(r, 'last')} of {r['last_n']}" if r["last_n"] else "no tie",
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
        for label, arms in _groups(ctx)
    ]
    n = ", ".join(f"{r['arm']} {r['tied_n']}" for r in _by_arm(ctx, ties))
    tie_fig = ctx.figure("top_total_tied")
    figures.intervals(
        tie_fig,
        "Games whose top total is tied between sides (the tie-break decides)",
        [_players(c) for c in counts],
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


# ---------------------------------------------------------------- birds and flowers

POINTS_TITLE = "Birds and flowers"


def birds_and_flowers(ctx: Context) -> Section:
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
    per_arm = _game_means(side, values)
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
    for r in _by_arm(ctx, per_arm.join(leads, on="arm")):
        rows.append(
            [
                r["arm"],
                str(r["bird_n"]),
                fmt.ci(r, "bird"),
                fmt.ci(r, "flower"),
                fmt.ci(r, "total"),
                _pct(r, "share"),
            ]
        )
        findings.append(
            f"Points, {r['arm']} ({r['bird_n']} games): birds {fmt.ci(r, 'bird')}, flowers "
            f"{fmt.ci(r, 'flower')} per side (birds {_pct(r, 'share')} of the total); over "
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
        for r in _by_arm(ctx, leads)
    ]
    side_rows = [
        [r["arm"], _side_label(r), str(r["bird_n"]), fmt.ci(r, "bird"), fmt.ci(r, "flower")]
        for arm in ctx.data.arm_labels
        for r in per_side.filter(pl.col("arm") == arm).iter_rows(named=True)
    ]
    x, panels = _player_panels(
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
    n = ", ".join(f"{r['arm']} {r['margin_n']}" for r in _by_arm(ctx, leads))
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


# ---------------------------------------------------------------- the koi

KOI_TITLE = "What a koi is worth"
KOI_VALUES = {
    "koi_bird": "bird points when played",
    "garden_bird": "a garden tile's bird points when played",
    "own": "flower points to its player's pagoda",
    "other": "flower points to each other side's pagoda",
}


def koi(ctx: Context) -> Section:
    """The koi's bird points when played, its worth as a wild flower to each pagoda, when
    it is played, and (standard game) how sides that drew more koi fare."""
    blocks: list[Block] = [
        Heading(2, KOI_TITLE),
        Para(
            "A koi scores as the best bird on the turn it is played and is a wild flower for "
            "every pagoda at the end. Its flower worth is measured on the final garden, "
            "rebuilt from the logs (start tiles and every play): each row of each side's "
            "pagoda is scored as the rules do (the row's koi join its largest flower set) and "
            "again with the koi as no flower; the difference is what the row's koi add, shared "
            "equally by the row's koi. Each koi is valued for its player's pagoda and for the "
            "other sides' pagodas (the mean over them). Values are first averaged over the "
            "game's four koi, so n = games."
        ),
    ]
    findings: list[str] = []
    skipped: list[Skipped] = []
    if ctx.data.turns is None:
        skipped.append(Skipped(f"{KOI_TITLE}: values and timing", "no run has a turn log"))
    else:
        skipped += skipped_without_turns(ctx, f"{KOI_TITLE}: values and timing")
        blocks += _koi_values(ctx, ctx.data.turns, findings)
    blocks += _koi_draws(ctx, findings)
    return Section(blocks, skipped, findings)


@dataclass(frozen=True)
class KoiFrames:
    """The run's geometry, side rows, rebuilt gardens, their rescored pagoda rows and the
    koi plays (see `measures`), for the games with a turn log."""

    geo: measures.Geometry
    side: pl.LazyFrame
    tiles: pl.LazyFrame
    rows: pl.LazyFrame
    plays: pl.LazyFrame

    @classmethod
    def of(cls, ctx: Context, turns: pl.LazyFrame) -> KoiFrames:
        geo = measures.geometry(ctx.data)
        side = measures.sides(ctx.data.results)
        tiles = measures.garden(ctx.data.results, turns, geo)
        rows = measures.pagoda_rows(tiles, side, geo)
        return cls(geo, side, tiles, rows, measures.koi_plays(tiles, rows, side, geo))


def koi_per_game(frames: KoiFrames) -> pl.DataFrame:
    """Per game with a turn log: arm, run, game_id, the koi measures of `KOI_VALUES`,
    `koi_flowers` (what the koi add to a side's flower points, mean over sides) and
    `round` (mean round of the koi plays)."""
    side, tiles, rows, plays = frames.side, frames.tiles, frames.rows, frames.plays
    arms = side.select(*GAME, "arm").unique()
    koi = plays.group_by(GAME).agg(
        koi_bird=pl.col("bird_points").mean(),
        own=pl.col("own").mean(),
        other=pl.col("other").mean(),
        round=pl.col("round").mean(),
    )
    garden_bird = (
        tiles.filter((pl.col("tile") != measures.KOI) & pl.col("seat").is_not_null())
        .group_by(GAME)
        .agg(garden_bird=pl.col("bird_points").mean())
    )
    flowers = (
        rows.group_by(SIDE)
        .agg((pl.col("points") - pl.col("without")).sum().alias("added"))
        .group_by(GAME)
        .agg(koi_flowers=pl.col("added").mean())
    )
    return (
        arms.join(koi, on=GAME)
        .join(garden_bird, on=GAME)
        .join(flowers, on=GAME)
        .collect(engine="streaming")
    )


def _koi_values(ctx: Context, turns: pl.LazyFrame, findings: list[str]) -> list[Block]:
    frames = KoiFrames.of(ctx, turns)
    names = [*KOI_VALUES, "koi_flowers", "round"]
    table = mean_table(koi_per_game(frames).lazy(), ["arm"], {n: pl.col(n) for n in names})
    check = measures.rescored(frames.rows, frames.side, frames.geo)
    agreed = check.select(pl.col("agrees").sum(), pl.len()).collect().row(0)
    value_rows = []
    for r in _by_arm(ctx, table):
        value_rows.append(
            [
                r["arm"],
                str(r["koi_bird_n"]),
                *(fmt.ci(r, n, 2) for n in KOI_VALUES),
                fmt.ci(r, "koi_flowers", 2),
            ]
        )
        findings.append(
            f"Koi, {r['arm']} ({r['koi_bird_n']} games): a koi scores {fmt.ci(r, 'koi_bird', 2)} "
            f"bird points when played (a garden tile {fmt.ci(r, 'garden_bird', 2)}) and is "
            f"worth {fmt.ci(r, 'own', 2)} flower points to its player's pagoda and "
            f"{fmt.ci(r, 'other', 2)} to each other side's."
        )
    arms = [r["arm"] for r in _by_arm(ctx, table)]
    fig = ctx.figure("koi_value")
    figures.intervals(
        fig,
        "What a koi is worth, per koi",
        list(KOI_VALUES.values()),
        [
            figures.Series(
                r["arm"],
                *([r[f"{n}_{k}"] for n in KOI_VALUES] for k in ("mean", "lo", "hi")),
                colour=ctx.colour(r["arm"]),
            )
            for r in _by_arm(ctx, table)
        ],
        "points (95% CI)",
    )
    n = ", ".join(f"{r['arm']} {r['koi_bird_n']}" for r in _by_arm(ctx, table))
    blocks: list[Block] = [
        Table(
            ["arm", "games", *KOI_VALUES.values(), "flower points the 4 koi add to a pagoda"],
            value_rows,
        ),
        Para(
            f"Check of the method: the rescored rows equal the logged `row_points` for "
            f"{agreed[0]:,} of {agreed[1]:,} side-games."
        ),
        Figure(fig.name, f"A koi's worth, per koi, 95% CI (games: {n})."),
    ]
    blocks += _koi_timing(ctx, turns, frames.plays, table, arms)
    return blocks


def _koi_timing(
    ctx: Context, turns: pl.LazyFrame, plays: pl.LazyFrame, table: pl.DataFrame, arms: list[str]
) -> list[Block]:
    """Koi played per game in each round (zeros included), by player count and mode."""
    rounds = turns.group_by(PER_GAME).agg(pl.col("round").max().cast(pl.Int64).alias("rounds"))
    grid = rounds.with_columns(round=pl.int_ranges(1, pl.col("rounds") + 1)).explode("round")
    counts = plays.group_by(*GAME, "round").agg(koi=pl.len())
    per_round = mean_table(
        grid.join(counts, on=[*GAME, "round"], how="left").with_columns(pl.col("koi").fill_null(0)),
        ["arm", "round"],
        {"koi": pl.col("koi")},
    ).join(ctx.data.arms.select("arm", "n_players"), on="arm")
    most = int(per_round["round"].max())
    x = [str(r) for r in range(1, most + 1)]
    panels = {
        f"koi per game, {n} players": [
            figures.series(
                label,
                per_round.filter(pl.col("arm") == arm),
                "round",
                list(range(1, most + 1)),
                "koi",
                colour,
            )
            for label, arm, colour in _lines_at(ctx, n)
            if arm in arms
        ]
        for n in sorted(set(per_round["n_players"].to_list()))
    }
    fig = ctx.figure("koi_timing")
    title = "When the koi are played: koi per game by round (95% CI)"
    figures.panels(fig, title, x, panels, "round")
    # A cluster-robust share over the koi: `clustered.pairwise` with the arm as the
    # "strategy" and a koi's "points" 1 when it was played in that round.
    koi = plays.join(rounds, on=GAME).select(
        *GAME,
        pl.col("arm").alias("strategy"),
        pl.lit("").alias("opponent"),
        first=pl.col("round") == 1,
        last=pl.col("round") == pl.col("rounds"),
    )
    shares = {
        name: clustered.pairwise(
            koi.with_columns(points=pl.col(name).cast(pl.Float64)), GAME
        ).select(pl.col("strategy").alias("arm"), "win_n", "win_p", "win_lo", "win_hi")
        for name in ("first", "last")
    }
    rows = []
    for r in _by_arm(ctx, table):
        at = {k: v.filter(pl.col("arm") == r["arm"]).row(0, named=True) for k, v in shares.items()}
        rows.append(
            [
                r["arm"],
                str(r["round_n"]),
                fmt.ci(r, "round", 2),
                fmt.pct(at["first"], "win"),
                fmt.pct(at["last"], "win"),
            ]
        )
    return [
        Heading(3, "When the koi are played"),
        Para(
            "Mean round of a koi play (averaged per game, n = games) and the shares of the "
            "koi played in the first and in the last round (n = koi; the interval is "
            "cluster-robust over games, whose four koi are not independent). In the standard "
            "game a koi is played once drawn or kept; in tournament mode each player holds its "
            "koi face up from the start and chooses when."
        ),
        Table(
            [
                "arm",
                "games",
                "mean round of a koi play",
                "koi played in round 1",
                "koi played in the last round",
            ],
            rows,
        ),
        Figure(fig.name, "Koi played per game in each round (all four koi are always played)."),
    ]


def _koi_draws(ctx: Context, findings: list[str]) -> list[Block]:
    """Standard game: the koi a side draws is luck of the bag, so sides with more koi
    against sides with fewer measure what holding one is worth, in total and in wins."""
    standard = ctx.data.arms.filter(pl.col("tournament").not_()).select("arm")
    if standard.is_empty():
        return []
    side = measures.sides(ctx.data.results).join(standard.lazy(), on="arm")
    by = ["arm", "koi_side"]
    table = mean_table(side, by, {"total": pl.col("total")}).join(
        rate_table(side, by, {"win": pl.col("win")}), on=by
    )
    rows = [
        [r["arm"], str(r["koi_side"]), str(r["total_n"]), fmt.ci(r, "total"), fmt.pct(r, "win")]
        for arm in ctx.data.arm_labels
        for r in table.filter(pl.col("arm") == arm).iter_rows(named=True)
    ]
    split = rate_table(
        side.with_columns(two=pl.col("koi_side") >= 2),
        ["arm", "two"],
        {"win": pl.col("win")},
    )
    for arm in standard["arm"]:
        part = {r["two"]: r for r in split.filter(pl.col("arm") == arm).iter_rows(named=True)}
        if False in part and True in part:
            findings.append(
                f"Koi drawn, {arm}: sides that play fewer than two koi win "
                f"{fmt.pct(part[False], 'win')} (n = {part[False]['win_n']} sides), sides that "
                f"play two or more {fmt.pct(part[True], 'win')} (n = {part[True]['win_n']})."
            )
    return [
        Heading(3, "Koi drawn (standard game)"),
        Para(
            "In the standard game how many koi a side draws is luck of the bag, so comparing "
            "sides by the koi they played measures what holding koi is worth in the end "
            "(n = sides). In tournament mode the deal fixes it, so those arms are not shown."
        ),
        Table(["arm", "koi played by the side", "sides", "mean total", "win rate"], rows),
    ]


# ---------------------------------------------------------------- flower rows

ROWS_TITLE = "Flower rows: set sizes by row length"


def flower_rows(ctx: Context) -> Section:
    """How often a row of each length scores with a set of 1 .. 6 flowers."""
    geo = measures.geometry(ctx.data)
    rows = measures.row_sets(measures.sides(ctx.data.results), geo)
    longest = int(geo.rows["length"].max())
    sizes = range(1, longest + 1)
    per_game = rows.group_by(*PER_GAME, "length").agg(
        rows=pl.len(),
        size=pl.col("size").mean(),
        full=(pl.col("size") == pl.col("length")).mean(),
        **{f"s{s}": (pl.col("size") == s).mean() for s in sizes},
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
                    _pct(r, "full"),
                ]
            )
        if part.height:
            lengths = " / ".join(str(v) for v in part["length"])
            means = " / ".join(fmt.ci(r, "size", 2) for r in part.iter_rows(named=True))
            full = " / ".join(_pct(r, "full") for r in part.iter_rows(named=True))
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
            for label, arm, colour in _lines_at(ctx, n)
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


# ---------------------------------------------------------------- tournament mode

MODE_TITLE = "Tournament mode against the standard game"
MODE_METRICS: dict[str, tuple[str, bool]] = {
    "mean_total": ("total per side", False),
    "bird": ("bird points per side", False),
    "flower": ("flower points per side", False),
    "margin": ("winning margin", False),
    "koi_bird": ("bird points of a koi play", False),
    "own": ("a koi's flower points to its player", False),
    "tied": ("top total tied", True),
    "first_win": ("first side wins", True),
    "last_win": ("last side wins", True),
}


def _mode_extra() -> dict[str, pl.Expr]:
    """Per-game metrics over a game's side rows (`measures.sides`)."""
    return {
        "bird": pl.col("bird_points").mean(),
        "flower": pl.col("flower_points").mean(),
        "margin": measures.lead("total"),
        "tied": measures.top_tied(),
        "first_win": pl.col("win").filter("first").first(),
        "last_win": pl.col("win").filter("last").first(),
        "koi_bird": pl.col("koi_bird").first(),
        "own": pl.col("own").first(),
    }


def _arm_games(side: pl.LazyFrame, arm: dict) -> pl.LazyFrame:
    """An arm's side rows with a game key unique within the arm (`game_id` when the arm is
    one run; pooled runs are told apart, so they cannot pair with another arm)."""
    runs = list(arm["runs"])
    rows = side.filter(pl.col("arm") == arm["arm"])
    if len(runs) == 1:
        return rows
    offset = pl.col("run").replace_strict(runs, list(range(len(runs))), return_dtype=pl.Int64)
    return rows.with_columns(game_id=pl.col("game_id") + offset * (1 << 40))


def tournament_mode(ctx: Context) -> Section:
    """Each tournament arm against its standard twin (equal in all else), game by game."""
    arms = ctx.data.arms
    others = [c for c in ctx.data.design if c != "tournament"]
    pairs = arms.filter(pl.col("tournament")).join(
        arms.filter(pl.col("tournament").not_()), on=others, suffix="_std"
    )
    blocks: list[Block] = [Heading(2, MODE_TITLE)]
    if pairs.is_empty():
        blocks.append(
            Para("No tournament arm has a standard-game twin (same players, strategies, data).")
        )
        return Section(blocks)
    side = measures.sides(ctx.data.results)
    skipped = []
    if ctx.data.turns is not None:
        koi = koi_per_game(KoiFrames.of(ctx, ctx.data.turns)).select(*GAME, "koi_bird", "own")
        side = side.join(koi.lazy(), on=GAME, how="left")
        skipped += skipped_without_turns(ctx, f"{MODE_TITLE}: koi measures")
    else:
        side = side.with_columns(koi_bird=pl.lit(None, pl.Float64), own=pl.lit(None, pl.Float64))
        skipped.append(Skipped(f"{MODE_TITLE}: koi measures", "no run has a turn log"))
    rows, findings, series, reasons, ratios = [], [], [], [], []
    points = [m for m, (_, rate) in MODE_METRICS.items() if not rate]
    for pair in pairs.sort("n_players").iter_rows(named=True):
        twin = arms.filter(pl.col("arm") == pair["arm_std"]).row(0, named=True)
        result = compare(_arm_games(side, pair), _arm_games(side, twin), extra=_mode_extra())
        reasons.append(f"{pair['arm']} against {twin['arm']}: {result.reason}.")
        table = result.table.filter(pl.col("metric").is_in(list(MODE_METRICS)))
        by_metric = {r["metric"]: r for r in table.iter_rows(named=True)}
        ratios += table["width_ratio"].drop_nulls().to_list()
        for metric, (name, rate) in MODE_METRICS.items():
            r = by_metric.get(metric)
            if r is None or r["diff"] is None:
                continue
            rows.append(_mode_row(pair["arm"], twin["arm"], name, rate, r))
        findings.append(_mode_finding(pair, result.paired, by_metric))
        label = f"{_players(pair['n_players'])} (n = {result.games_a} games)"
        series.append(
            figures.Series(
                label,
                *([by_metric.get(m, {}).get(k) for m in points] for k in ("diff", "lo", "hi")),
                colour=ctx.colour(pair["arm"]),
            )
        )
    fig = ctx.figure("tournament_vs_standard")
    figures.intervals(
        fig,
        "Tournament mode minus the standard game, per game",
        [MODE_METRICS[m][0] for m in points],
        series,
        "difference in points (95% CI)",
        reference=0.0,
    )
    blocks += [
        Para(
            "Each tournament arm against the standard-game arm equal to it in everything else, "
            "as the difference tournament − standard. When the two arms played the same game "
            "seeds (one master seed), the engine deals the same start tiles in both modes and "
            "the difference is taken game by game (paired t interval, n = games); the Welch "
            "interval, which treats the arms as independent, is shown to say what pairing "
            "bought. Rates are differences of per-game 0/1 outcomes, in percentage points. "
            + " ".join(reasons)
            + _pairing_note(ratios)
        ),
        Table(
            [
                "comparison",
                "measure",
                "games",
                "standard",
                "tournament",
                "difference",
                "Welch interval",
                "paired / Welch width",
            ],
            rows,
        ),
        Figure(fig.name, "Tournament minus standard, per game (the legend gives n)."),
    ]
    return Section(blocks, skipped, findings)


def _pairing_note(ratios: list[float]) -> str:
    """What pairing bought, in words: only the start tiles are common to the two modes (the
    standard game shuffles the koi into the bag), so a game's luck is mostly not shared."""
    if not ratios:
        return ""
    ordered = sorted(ratios)
    median = ordered[len(ordered) // 2]
    note = f" Here the paired intervals are a median {median:.2f} of the Welch width"
    if median < 0.9:
        return note + "."
    return note + (
        ": the modes share their start tiles, but the standard game shuffles the koi into the "
        "bag, so the rest of the deal differs and pairing buys little."
    )


def _mode_row(arm: str, twin: str, name: str, rate: bool, r: dict) -> list[str]:
    scale, unit, digits = (100, " pp", 1) if rate else (1, "", 2)
    diff = fmt.diff({"x_d": r["diff"], "x_lo": r["lo"], "x_hi": r["hi"]}, "x", digits, rate)
    welch = f"[{scale * r['welch_lo']:+.{digits}f}, {scale * r['welch_hi']:+.{digits}f}]{unit}"
    ratio = "–" if r["width_ratio"] is None else f"{r['width_ratio']:.2f}"
    suffix = "%" if rate else ""
    return [
        f"{arm} − {twin}",
        name,
        str(r["n_a"]),
        f"{scale * r['mean_b']:.{digits}f}{suffix}",
        f"{scale * r['mean_a']:.{digits}f}{suffix}",
        diff,
        welch,
        ratio,
    ]


def _mode_finding(pair: dict, paired: bool, by_metric: dict[str, dict]) -> str:
    def show(metric: str) -> str:
        r = by_metric.get(metric)
        if r is None or r["diff"] is None:
            return "–"
        rate = MODE_METRICS[metric][1]
        return fmt.diff({"x_d": r["diff"], "x_lo": r["lo"], "x_hi": r["hi"]}, "x", 2, rate)

    n = by_metric["mean_total"]["n_a"]
    how = "paired" if paired else "unpaired"
    return (
        f"Tournament mode, {_players(pair['n_players'])} ({n} {how} games): total per side "
        f"{show('mean_total')}, birds {show('bird')}, flowers {show('flower')}; the first "
        f"side's win rate {show('first_win')}."
    )


# ---------------------------------------------------------------- player count

COUNT_TITLE = "Player count"
COUNT_MEASURES = {
    "bird_turn": "bird points per turn",
    "row": "flower points per pagoda row",
    "set": "set size per pagoda row",
    "total": "total per side",
    "margin": "winning margin",
}


def player_count(ctx: Context) -> Section:
    """The same measures at 2, 3 and 4 players, and the change from one count to the next
    within each mode."""
    geo = measures.geometry(ctx.data)
    side = measures.sides(ctx.data.results)
    seats = ctx.data.results.with_columns(pl.col("n_players").cast(pl.Int64)).join(
        geo.turns.lazy(), on=["run", "n_players"]
    )
    per_turn = _game_means(seats, {"bird_turn": pl.col("own_bird_points") / pl.col("turns")})
    per_side = _game_means(
        side,
        {
            "row": pl.col("flower_points") / pl.col("row_points").list.len(),
            "total": pl.col("total"),
        },
    )
    sets = _game_means(measures.row_sets(side, geo), {"set": pl.col("size")})
    games = side.group_by(*PER_GAME).agg(margin=measures.lead("total"), tied=measures.top_tied())
    table = (
        per_turn.join(per_side, on="arm")
        .join(sets, on="arm")
        .join(mean_table(games, ["arm"], {"margin": pl.col("margin")}), on="arm")
        .join(rate_table(games, ["arm"], {"tied": pl.col("tied")}), on="arm")
    )
    by_arm = {r["arm"]: r for r in table.iter_rows(named=True)}
    rows = []
    for label, group in _groups(ctx):
        for a in group:
            r = by_arm[a["arm"]]
            rows.append(
                [
                    a["arm"],
                    _players(a["n_players"]),
                    label,
                    str(r["margin_n"]),
                    *(fmt.ci(r, m, 2) for m in COUNT_MEASURES),
                    fmt.pct(r, "tied"),
                ]
            )
    effects, findings = _count_effects(ctx, by_arm)
    x, panels = _player_panels(
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
    for label, group in _groups(ctx):
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


SECTIONS: tuple[Callable[[Context], Section], ...] = (
    sides_and_ties,
    birds_and_flowers,
    koi,
    flower_rows,
    tournament_mode,
    player_count,
)

"""Section: what a koi is worth, as birds and as a wild flower, and when it is played."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from sanssim.analysis import clustered, figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.order_free import order_free_means
from sanssim.analysis.section import Context, Section, Skipped, skipped_without_turns
from sanssim.analysis.stats import mean_table, rate_table
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.measures import GAME, SIDE
from sanssim.games.seikatsu.report.shared import PER_GAME, arm_rows, lines_at

KOI_TITLE = "What a koi is worth"
KOI_VALUES = {
    "koi_bird": "bird points when played",
    "garden_bird": "a garden tile's bird points when played",
    "own": "flower points to its player's pagoda",
    "other": "flower points to each other side's pagoda",
}


def build(ctx: Context) -> Section:
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
    build = plays.group_by(GAME).agg(
        order_free_means(
            plays,
            {
                "koi_bird": pl.col("bird_points"),
                **{n: pl.col(n) for n in ("own", "other", "round")},
            },
        )
    )
    garden = tiles.filter((pl.col("tile") != measures.KOI) & pl.col("seat").is_not_null())
    garden_bird = garden.group_by(GAME).agg(
        order_free_means(garden, {"garden_bird": pl.col("bird_points")})
    )
    added = rows.group_by(SIDE).agg((pl.col("points") - pl.col("without")).sum().alias("added"))
    flowers = added.group_by(GAME).agg(order_free_means(added, {"koi_flowers": pl.col("added")}))
    return (
        arms.join(build, on=GAME)
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
    for r in arm_rows(ctx, table):
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
    arms = [r["arm"] for r in arm_rows(ctx, table)]
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
            for r in arm_rows(ctx, table)
        ],
        "points (95% CI)",
    )
    n = ", ".join(f"{r['arm']} {r['koi_bird_n']}" for r in arm_rows(ctx, table))
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
            for label, arm, colour in lines_at(ctx, n)
            if arm in arms
        ]
        for n in sorted(set(per_round["n_players"].to_list()))
    }
    fig = ctx.figure("koi_timing")
    title = "When the koi are played: koi per game by round (95% CI)"
    figures.panels(fig, title, x, panels, "round")
    # A cluster-robust share over the koi: `clustered.pairwise` with the arm as the
    # "strategy" and a koi's "points" 1 when it was played in that round.
    build = plays.join(rounds, on=GAME).select(
        *GAME,
        pl.col("arm").alias("strategy"),
        pl.lit("").alias("opponent"),
        first=pl.col("round") == 1,
        last=pl.col("round") == pl.col("rounds"),
    )
    shares = {
        name: clustered.pairwise(
            build.with_columns(points=pl.col(name).cast(pl.Float64)), GAME
        ).select(pl.col("strategy").alias("arm"), "win_n", "win_p", "win_lo", "win_hi")
        for name in ("first", "last")
    }
    rows = []
    for r in arm_rows(ctx, table):
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

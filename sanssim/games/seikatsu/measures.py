"""Seikatsu measures the report's sections share, as polars frames.

A **side** is a seat, or with 4 players a team: it has one total, one rank and one
pagoda, whose rows are its `row_points`. `sides` keeps one results row per side and game.

The koi's worth as a flower needs the final garden, which the logs give completely: the
start tiles (`results.start_tiles`, on the components' start spaces in order) and every
play (`turns`: tile, q, r). `pagoda_rows` rescores every row of every side's pagoda from
it twice: as the rules score it (the row's koi join its largest flower set) and with the
koi as no flower at all. The difference is what the row's koi are worth to that pagoda;
`koi_plays` shares it equally among the row's koi. The rescoring is checked against the
logged `row_points` (`rescored`), so the method cannot silently drift from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.order_free import order_free_mean
from sanssim.games.seikatsu.components import KOI, coordinate

GAME = ["run", "game_id"]
SIDE = [*GAME, "side"]


def side_of() -> pl.Expr:
    """The seat's side: its team with 4 players, else the seat itself."""
    return pl.coalesce("team", "seat").cast(pl.Int64).alias("side")


def sides(results: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (run, game, side): the side's first seat's results row, plus `side`,
    `n_sides`, `first` (the side holds seat 0), `last` (it holds the last seat),
    `koi_side` (koi its seats played), `win` (rank 1: the tie-break applied) and
    `split_win` (its share of the win were a tie on top shared instead of broken)."""
    by_side = [*GAME, "side"]
    seat = pl.col("seat")
    at_top = pl.col("total") == pl.col("total").max().over(GAME)
    return (
        results.with_columns(side_of())
        .with_columns(
            koi_side=pl.col("koi_played").cast(pl.Int64).sum().over(by_side),
            first=seat.min().over(by_side) == 0,
            last=seat.max().over(by_side) == seat.max().over(GAME),
        )
        .filter(seat == seat.min().over(by_side))
        .with_columns(
            n_sides=pl.len().over(GAME),
            win=(pl.col("rank") == 1).cast(pl.Float64),
            split_win=at_top.cast(pl.Float64) / at_top.cast(pl.Float64).sum().over(GAME),
        )
    )


def lead(column: str) -> pl.Expr:
    """Per game, over its side rows: the winner's `column` minus the runner-up's (ranks
    are never shared between sides, so rank 2 is the runner-up). On `total`: the margin."""
    rank = pl.col("rank")
    return pl.col(column).filter(rank == 1).first() - pl.col(column).filter(rank == 2).first()


def top_tied() -> pl.Expr:
    """Per game, over its side rows: two or more sides share the top total, so the
    tie-break decides the game."""
    return (pl.col("total") == pl.col("total").max()).sum() > 1


@dataclass(frozen=True)
class Geometry:
    """Each run's component data as small frames, keyed by `run`:

    - `rows`: run, pagoda, row (index into `row_points`), k (the row's coordinate), length;
    - `axes`: run, pagoda, axis;
    - `points`: run, size, points (the set points of a set of `size` flowers);
    - `starts`: run, n_players, index (into `start_tiles`), q, r;
    - `turns`: run, n_players, turns (each seat's turns in a game).
    """

    rows: pl.DataFrame
    axes: pl.DataFrame
    points: pl.DataFrame
    starts: pl.DataFrame
    turns: pl.DataFrame

    def sizes(self) -> pl.LazyFrame:
        """run, points, size: the set size a row's points stand for (the smallest, should
        a user's set points repeat a value)."""
        return self.points.lazy().group_by("run", "points").agg(pl.col("size").min())


def geometry(data: Dataset) -> Geometry:
    """The frames of `Geometry` from each run's manifest (the components it played with)."""
    rows, axes, points, starts, turns = [], [], [], [], []
    for run, found in enumerate(data.runs):
        comps = data.game_type.components_from_manifest(found.manifest["components"])
        for p in comps.pagodas:
            axes.append((run, p.name, p.axis))
            for row, k in enumerate(range(-comps.radius, comps.radius + 1)):
                length = sum(coordinate(c, p.axis) == k for c in comps.cells)
                rows.append((run, p.name, row, k, length))
        points += [(run, size, value) for size, value in enumerate(comps.set_points)]
        for n, spaces in comps.start_spaces.items():
            starts += [(run, n, i, q, r) for i, (q, r) in enumerate(spaces)]
            turns.append((run, n, (len(comps.cells) - len(spaces)) // n))
    run = ("run", pl.Int32)
    return Geometry(
        pl.DataFrame(
            rows,
            schema=[
                run,
                ("pagoda", pl.String),
                ("row", pl.Int64),
                ("k", pl.Int64),
                ("length", pl.Int64),
            ],
            orient="row",
        ),  # fmt: skip
        pl.DataFrame(axes, schema=[run, ("pagoda", pl.String), ("axis", pl.String)], orient="row"),
        pl.DataFrame(points, schema=[run, ("size", pl.Int64), ("points", pl.Int64)], orient="row"),
        pl.DataFrame(
            starts,
            schema=[
                run,
                ("n_players", pl.Int64),
                ("index", pl.Int64),
                ("q", pl.Int64),
                ("r", pl.Int64),
            ],
            orient="row",
        ),  # fmt: skip
        pl.DataFrame(
            turns, schema=[run, ("n_players", pl.Int64), ("turns", pl.Int64)], orient="row"
        ),
    )


def row_sets(side_rows: pl.LazyFrame, geo: Geometry) -> pl.LazyFrame:
    """One row per row of every side's pagoda: arm, run, game_id, side, n_players, k,
    length, points and `size`, the set that scored them (koi included)."""
    return (
        side_rows.select(*SIDE, "arm", "n_players", "pagoda", "row_points")
        .with_columns(row=pl.int_ranges(pl.col("row_points").list.len()))
        .explode("row_points", "row")
        .with_columns(points=pl.col("row_points").cast(pl.Int64))
        .join(geo.rows.lazy(), on=["run", "pagoda", "row"])
        .join(geo.sizes(), on=["run", "points"], how="left")
        .drop("row_points")
    )


def garden(results: pl.LazyFrame, turns: pl.LazyFrame, geo: Geometry) -> pl.LazyFrame:
    """Every tile of every final garden whose game has a turn log: run, game_id, tile, q, r;
    tiles played also carry seat, side, round and bird_points (null on start tiles)."""
    logged = turns.select(GAME).unique()
    starts = (
        results.filter(pl.col("seat") == 0)
        .select(*GAME, pl.col("n_players").cast(pl.Int64), "start_tiles")
        .join(logged, on=GAME, how="semi")
        .with_columns(index=pl.int_ranges(pl.col("start_tiles").list.len()))
        .explode("start_tiles", "index")
        .join(geo.starts.lazy(), on=["run", "n_players", "index"])
        .select(*GAME, pl.col("start_tiles").alias("tile"), "q", "r")
    )
    plays = turns.select(
        *GAME,
        "tile",
        pl.col("q").cast(pl.Int64),
        pl.col("r").cast(pl.Int64),
        pl.col("seat").cast(pl.Int64),
        side_of(),
        pl.col("round").cast(pl.Int64),
        pl.col("bird_points").cast(pl.Int64),
    )
    return pl.concat([starts, plays], how="diagonal_relaxed")


def _row_of(geo: Geometry) -> tuple[pl.LazyFrame, pl.Expr]:
    """The axes frame to join on (run, pagoda), and the row coordinate k of (q, r) there."""
    axis = pl.col("axis")
    k = (
        pl.when(axis == "q")
        .then(pl.col("q"))
        .when(axis == "r")
        .then(pl.col("r"))
        .otherwise(-pl.col("q") - pl.col("r"))
    )
    return geo.axes.lazy(), k.alias("k")


def pagoda_rows(tiles: pl.LazyFrame, side_rows: pl.LazyFrame, geo: Geometry) -> pl.LazyFrame:
    """Per (run, game, side, k): `koi` in the row of the side's pagoda, `best` its largest
    set of one flower among garden tiles, `points` as the rules score the row (the koi join
    the best set) and `without` (the koi as no flower)."""
    axes, k = _row_of(geo)
    flower = pl.col("tile").str.split(":").list.get(1, null_on_oob=True)
    counts = (
        tiles.select(*GAME, "q", "r", flower.alias("flower"))
        .join(side_rows.select(*SIDE, "pagoda"), on=GAME)
        .join(axes, on=["run", "pagoda"])
        .group_by(*SIDE, k, "flower")
        .agg(n=pl.len())
    )
    n, garden_tile = pl.col("n"), pl.col("flower").is_not_null()
    points = geo.points.lazy()
    return (
        counts.group_by(*SIDE, "k")
        .agg(koi=n.filter(~garden_tile).sum(), best=n.filter(garden_tile).max())
        .with_columns(pl.col("koi").cast(pl.Int64), pl.col("best").fill_null(0).cast(pl.Int64))
        .with_columns(size=pl.col("best") + pl.col("koi"))
        .join(points, on=["run", "size"])
        .join(points.rename({"size": "best", "points": "without"}), on=["run", "best"], how="left")
    )


def rescored(rows: pl.LazyFrame, side_rows: pl.LazyFrame, geo: Geometry) -> pl.LazyFrame:
    """Per (run, game, side) with a rebuilt garden: `agrees`, whether the rescored rows
    equal the logged `row_points` row by row."""
    ks = geo.rows.lazy().select("run", "pagoda", "row", "k")
    logged = (
        side_rows.select(*SIDE, "arm", "pagoda", "row_points")
        .with_columns(row=pl.int_ranges(pl.col("row_points").list.len()))
        .explode("row_points", "row")
        .join(ks, on=["run", "pagoda", "row"])
    )
    return (
        logged.join(rows.select(*SIDE, "k", "points"), on=[*SIDE, "k"], how="left")
        .group_by(*SIDE, "arm")
        .agg(agrees=(pl.col("points") == pl.col("row_points").cast(pl.Int64)).all())
    )


def koi_plays(
    tiles: pl.LazyFrame, rows: pl.LazyFrame, side_rows: pl.LazyFrame, geo: Geometry
) -> pl.LazyFrame:
    """One row per koi played: run, game_id, seat, player (its side), round, bird_points,
    `own` (its flower value to its player's pagoda) and `other` (the mean of its values to
    the other sides' pagodas). A row's koi share equally what they add to the row."""
    axes, k = _row_of(geo)
    share = (pl.col("points") - pl.col("without")) / pl.col("koi")
    player = pl.col("side") == pl.col("player")
    return (
        tiles.filter(pl.col("tile") == KOI)
        .select(*GAME, "q", "r", "seat", pl.col("side").alias("player"), "round", "bird_points")
        .join(side_rows.select(*SIDE, "pagoda"), on=GAME)
        .join(axes, on=["run", "pagoda"])
        .with_columns(k)
        .join(rows.select(*SIDE, "k", share.alias("share")), on=[*SIDE, "k"])
        .group_by(*GAME, "q", "r")
        .agg(
            *(pl.col(c).first() for c in ("seat", "player", "round", "bird_points")),
            own=pl.col("share").filter(player).first(),
            other=order_free_mean(pl.col("share").filter(~player)),
        )
    )

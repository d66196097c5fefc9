"""Section 3: what the number of tiles changes, at each player count.

Fewer tiles leave display squares empty once the supply runs dry; a player whose cards then
offer no tile discards a card and places nothing (docs/sanssouci.md, "No tile to take"). Those
turns are the turn log's rows with no slot; each leaves one more garden square empty. The
game's length is fixed by the rules (18 turns per player), so it is stated, not measured.
"""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt, paired
from sanssim.analysis.document import Block, Bullets, Figure, Heading, Para, Table
from sanssim.analysis.order_free import order_free_mean
from sanssim.analysis.paired import effect_size
from sanssim.analysis.section import Answer, Context, Section, skipped_without_turns
from sanssim.analysis.stats import mean_table
from sanssim.games.sanssouci.actions import ROUNDS
from sanssim.games.sanssouci.components import SYMBOLS
from sanssim.games.sanssouci.config import DEFAULT_TILE_SET
from sanssim.games.sanssouci.garden import N_SQUARES
from sanssim.games.sanssouci.measures import PLAYER_NAMES

TITLE = "Tile count against player count"
SUPPLY = ("tile_set", "tiles_per_symbol")  # the design columns that set the tile supply
PER_SYMBOL = " per symbol"
SOURCES = ("noble_points", "expansion_points", "row_bonus", "column_bonus", "mission_points")
NAMES = {
    "no_tile": "turns without a tile, per game",
    "empty": "garden squares left empty (of 54)",
    "total": PLAYER_NAMES["total"],
    **{s: PLAYER_NAMES[s] for s in SOURCES},
    "edge": "first player's edge (win share − fair share, pp)",
}


def tiles_per_symbol(ctx: Context, arm: dict) -> int:
    """The arm's supply per symbol: a `tiles_per_symbol` supply, or the sum of its printed
    tile set's numerals in the run's component data."""
    label = arm["tile_set"]
    if label.endswith(PER_SYMBOL):
        return int(label.removesuffix(PER_SYMBOL))
    tiles = ctx.data.runs[arm["runs"][0]].manifest["components"]["tiles"]
    return sum(tiles[numeral] for numeral in label.split("+"))


def _is_default(arm: dict) -> bool:
    return arm["tile_set"] == DEFAULT_TILE_SET[arm["n_players"]]


def _seat_rows(ctx: Context) -> pl.LazyFrame:
    """One row per (game, seat): results plus, from the turn log, `no_tile` (turns without a
    tile), `no_tile_share` and `empty` (garden squares left empty); null without a log."""
    rows = ctx.data.results.with_columns(
        win=pl.col("winner").cast(pl.Float64)
        / pl.col("winner").cast(pl.Float64).sum().over("arm", "run", "game_id")
    )
    if ctx.data.turns is None:
        return rows.with_columns(
            no_tile=pl.lit(None, pl.Float64),
            no_tile_share=pl.lit(None, pl.Float64),
            empty=pl.lit(None, pl.Float64),
        )
    printed = pl.LazyFrame(
        [
            (i, side["id"], len(side["preprinted"]))
            for i, run in enumerate(ctx.data.runs)
            for side in run.manifest["components"]["garden_sides"]
        ],
        schema={"run": pl.Int32, "garden_side": pl.String, "printed": pl.Int64},
        orient="row",
    )
    seats = ctx.data.turns.group_by("run", "game_id", "seat").agg(
        no_tile=pl.col("slot").is_null().sum().cast(pl.Float64),
        turns=pl.len(),
        placed=pl.col("placed_row").is_not_null().sum(),
    )
    return (
        rows.join(seats, on=["run", "game_id", "seat"], how="left")
        .join(printed, on=["run", "garden_side"], how="left")
        .with_columns(
            no_tile_share=pl.col("no_tile") / pl.col("turns"),
            empty=(N_SQUARES - pl.col("printed") - pl.col("placed")).cast(pl.Float64),
        )
    )


def _cell(row: dict, name: str, digits: int = 2, scale: float = 1.0, unit: str = "") -> str:
    """`mean [lo, hi]`, or the one value every game had (no interval to show)."""
    if row.get(f"{name}_mean") is None:
        return "no turn log"
    if row[f"{name}_sd"] == 0 or row[f"{name}_n"] == 1 and row[f"{name}_sd"] is None:
        return f"{round(scale * row[f'{name}_mean'], digits):g}{unit} in every game"
    scaled = {k: scale * row[f"{name}_{k}"] for k in ("mean", "lo", "hi")}
    return fmt.interval(scaled["mean"], scaled["lo"], scaled["hi"], digits, unit=unit)


def _stats(ctx: Context, seats: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Per player, per game (turns without a tile; the first player's edge) and per seat."""
    player = mean_table(seats, ["arm"], {m: pl.col(m) for m in ("empty", "total", *SOURCES)})
    games = seats.group_by("arm", "run", "game_id").agg(
        no_tile=pl.when(pl.col("no_tile").is_not_null().all()).then(pl.col("no_tile").sum()),
        edge=100 * (pl.col("win").filter(pl.col("seat") == 0).first() - 1 / pl.len()),
    )
    game = mean_table(games, ["arm"], {"no_tile": pl.col("no_tile"), "edge": pl.col("edge")})
    seat = mean_table(seats, ["arm", "seat"], {"no_tile_share": pl.col("no_tile_share")})
    return player, game, seat


def build(ctx: Context) -> Section:
    arms = ctx.data.arms.with_columns(
        per_symbol=pl.Series(
            [tiles_per_symbol(ctx, a) for a in ctx.data.arms.iter_rows(named=True)]
        )
    ).with_columns(tiles=pl.col("per_symbol") * len(SYMBOLS))
    if all(_is_default(a) for a in arms.iter_rows(named=True)):
        return Section([])  # no arm plays another supply than its player count's own
    seats = _seat_rows(ctx).collect().lazy()  # once: every comparison below reads it twice
    player, game, seat = _stats(ctx, seats)
    stats = {r["arm"]: r for r in player.join(game, on="arm").iter_rows(named=True)}
    by_seat = {(r["arm"], r["seat"]): r for r in seat.iter_rows(named=True)}
    sources = [s for s in SOURCES if s != "expansion_points" or arms["expansion"].any()]
    shown = ["no_tile", "empty", "total", *sources, "edge"]
    ordered = arms.sort("n_players", "tiles", descending=[False, True])
    most = max(ordered["n_players"])
    turn_rows, point_rows = [], []
    for arm in ordered.iter_rows(named=True):
        r = stats[arm["arm"]]
        shares = [
            _cell(by_seat[(arm["arm"], s)], "no_tile_share", 1, 100, "%")
            if s < arm["n_players"]
            else "–"
            for s in range(most)
        ]
        facets = [arm["arm"], str(arm["n_players"]), f"{arm['tiles']} ({arm['per_symbol']} each)"]
        turn_rows.append([*facets, str(arm["games"]), _cell(r, "no_tile"), *shares])
        point_rows.append([*facets, *(_cell(r, m) for m in shown[1:])])
    lengths = ", ".join(f"{n * ROUNDS} at {n} players" for n in sorted(set(arms["n_players"])))
    blocks: list[Block] = [
        Heading(2, TITLE),
        Para(
            "By default the tile count follows the player count (45, 63, 81 tiles for 2, 3, "
            "4 players with the printed sets), so the two effects are confounded. Arms with "
            "another `--tile-set` or `--tiles-per-symbol` cross them. With too few tiles the "
            "supply runs dry, display squares stay empty, and a player whose cards offer no "
            "tile discards a card and places nothing: a turn without a tile (so cards "
            "discarded and turns without a tile are one count), which also leaves one more "
            "garden square empty. Every game still lasts 18 turns per player "
            f"({lengths}): the rules fix the length, so fewer tiles cannot shorten a game. "
            "Values with 95% intervals; a value every game shared is given without one."
        ),
        Para("Turns without a tile: per game, and as a share of each seat's 18 turns."),
        Table(
            [
                "arm",
                "players",
                "tiles (per symbol)",
                "games",
                NAMES["no_tile"],
                *(f"seat {s}" for s in range(most)),
            ],
            turn_rows,
            alike=tuple(range(5, 5 + most)),
        ),
        Para(
            "Per player: garden squares left empty, the final score and its sources, and the "
            "first player's win share minus the fair share 1/players (shared wins split)."
        ),
        Table(
            [
                "arm",
                "players",
                "tiles (per symbol)",
                NAMES["empty"],
                *(NAMES[m] for m in shown[2:-1]),
                NAMES["edge"],
            ],
            point_rows,
        ),
    ]
    findings: dict[int, list[Answer]] = {}
    blocks += _effects(ctx, ordered, seats, sources, findings)
    blocks.append(_figure(ctx, ordered, stats))
    skipped = skipped_without_turns(ctx, f"{TITLE}: turns without a tile, empty squares")
    every = [f.text for n in sorted(findings) for f in findings[n]]
    if every:
        blocks += [Para("What fewer tiles change, by player count:"), Bullets(every)]
    fewest = [findings[n][-1] for n in sorted(findings)]  # arms ordered by tiles, most first
    return Section(blocks, skipped, answer=fewest)


def _reference(group: list[dict]) -> dict:
    """What fewer tiles are measured against: the player count's own set, else the most."""
    return next((a for a in group if _is_default(a)), max(group, key=lambda a: a["tiles"]))


def _effects(
    ctx: Context,
    arms: pl.DataFrame,
    seats: pl.LazyFrame,
    sources: list[str],
    findings: dict[int, list[Answer]],
) -> list[Block]:
    """Each arm against the arm that is the same but for its tile supply, paired by game
    where the two played the same deals (same master seed and game ids)."""
    others = [c for c in (*ctx.data.design, "strategies") if c not in (*SUPPLY, "lineup")]
    extra = {
        "no_tile": pl.when(pl.col("no_tile").is_not_null().all()).then(pl.col("no_tile").sum()),
        "empty": order_free_mean(pl.col("empty")),
        **{s: order_free_mean(pl.col(s)) for s in sources},
    }
    metrics = ["no_tile", "empty", "mean_total", *sources, "seat0_win"]
    rows = []
    for _, group in arms.group_by(others, maintain_order=True):
        members = group.to_dicts()
        ref = _reference(members)
        for arm in members:
            if arm is ref:
                continue
            a, b = (_by_seed(seats, x["arm"]) for x in (arm, ref))
            comparison = paired.compare(a, b, extra=extra)
            table = {r["metric"]: r for r in comparison.table.iter_rows(named=True)}
            label = f"{arm['n_players']} players: {ref['tiles']} → {arm['tiles']} tiles"
            cells = [_diff(table.get(m), 100 if m == "seat0_win" else 1) for m in metrics]
            how = "paired" if comparison.paired else "Welch"
            rows.append([label, how, *cells])
            if arm["tiles"] < ref["tiles"]:
                text = (
                    f"Fewer tiles, {label} ({comparison.games_a} games each, {how}): turns "
                    f"without a tile per game {cells[0]} (of {arm['n_players'] * ROUNDS}); "
                    f"final score per player {cells[2]}; first player's win share "
                    f"{_diff(table.get('seat0_win'), 100, ' pp')}."
                )
                size = max(effect_size(table[m]) for m in ("mean_total", "seat0_win"))
                findings.setdefault(arm["n_players"], []).append(Answer(text, size))
    if not rows:
        return [
            Para(
                "No two arms differ only in their tile supply, so the tile-count effect "
                "cannot be separated from the other differences here. Run each player count "
                "with several tile counts for that."
            )
        ]
    header = [
        "comparison",
        "intervals",
        NAMES["no_tile"],
        NAMES["empty"],
        PLAYER_NAMES["total"],
        *(PLAYER_NAMES[s] for s in sources),
        "first player's win share (pp)",
    ]
    return [
        Para(
            "What fewer tiles change, at a fixed player count (the arm with fewer tiles minus "
            "its player count's own set, or the arm with the most tiles; per player unless "
            "named per game; 95% CI, paired by game where both arms played the same deals):"
        ),
        Table(header, rows),
    ]


def _by_seed(seats: pl.LazyFrame, arm: str) -> pl.LazyFrame:
    """The arm's rows keyed by game seed, so arms pooled from several runs pair up too."""
    return seats.filter(pl.col("arm") == arm).with_columns(game_id=pl.col("game_seed"))


def _diff(row: dict | None, scale: float, unit: str = "") -> str:
    if row is None or row["lo"] is None:
        return "–"
    if row["lo"] == row["hi"]:
        return f"{scale * row['diff']:+g} in every game" if row["diff"] else "0 in every game"
    lo, hi = scale * row["lo"], scale * row["hi"]
    text = fmt.interval(scale * row["diff"], lo, hi, 2, signed=True, unit=unit)
    return text.then(f" {fmt.verdict(lo, hi)}")


def _figure(ctx: Context, arms: pl.DataFrame, stats: dict[str, dict]) -> Figure:
    """x = the number of tiles, one line per player count (and other design), every arm."""
    others = [c for c in ctx.data.design if c not in SUPPLY]
    groups = arms.sort("tiles").group_by(others, maintain_order=True).agg("arm", "tiles")
    xs = sorted(set(arms["tiles"]))
    several = groups.height > len(set(groups["n_players"]))
    names = {m: NAMES[m] for m in ("no_tile", "empty", "total", "edge")}
    panels: dict[str, list[figures.Series]] = {}
    for m, ylabel in names.items():
        series = []
        for g in groups.iter_rows(named=True):
            part = pl.DataFrame(
                [{"tiles": t, **stats[a]} for a, t in zip(g["arm"], g["tiles"], strict=True)]
            )
            label = f"{g['n_players']} players" + (f" ({g['arm'][0]})" if several else "")
            series.append(figures.series(label, part, "tiles", xs, m, ctx.colour(g["arm"][0])))
        panels[ylabel] = series
    fig = ctx.figure("tile_count")
    figures.panels(
        fig,
        "What the number of tiles changes, by player count (means with 95% CI)",
        xs,
        panels,
        "tiles in the supply",
        zero=(names["edge"],),
    )
    return Figure(
        fig.name,
        "Each point is one arm at its number of tiles; lines join arms that differ only in "
        "tile supply, one per player count. The first player's edge is drawn against its fair "
        "share (the zero line).",
    )

"""Section 3: tile count (5/7/9 per symbol) against player count, in a crossed design."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import Context, Section, skipped_without_turns
from sanssim.analysis.stats import mean_table, rate_table
from sanssim.games.sanssouci import TILE_SETS
from sanssim.games.sanssouci.measures import PLAYER, PLAYER_NAMES, is_symbol_card

TITLE = "Tile count against player count"
EFFECTS = ("gardeners", "rows_completed", "columns_completed", "noble_depth", "total")
MEASURES = [
    "gardeners",
    "rows_completed",
    "columns_completed",
    "noble_depth",
    "total",
    "noble_points",
    "row_bonus",
    "column_bonus",
    "mission_points",
]


def _tiles_per_symbol(ctx: Context, arm: dict) -> int | None:
    tiles = ctx.data.runs[arm["runs"][0]].manifest.get("components", {}).get("tiles", {})
    counts = [tiles.get(numeral) for numeral in arm["tile_set"].split("+")]
    return sum(counts) if all(isinstance(c, int) for c in counts) else None


def build(ctx: Context) -> Section:
    arms = ctx.data.arms
    player = mean_table(ctx.data.results, ["arm"], {m: PLAYER[m] for m in MEASURES})
    skipped = []
    wild = None
    if ctx.data.turns is not None:
        wild = rate_table(
            ctx.data.turns.filter(is_symbol_card()), ["arm"], {"wild": pl.col("card_wild")}
        )
    skipped += skipped_without_turns(ctx, f"{TITLE}: symbol cards acting as jokers")
    wild_rows = {} if wild is None else {r["arm"]: r for r in wild.iter_rows(named=True)}
    stats = {r["arm"]: r for r in player.iter_rows(named=True)}
    rows = []
    for arm in arms.sort("n_players", "tile_set").iter_rows(named=True):
        r = stats[arm["arm"]]
        per = _tiles_per_symbol(ctx, arm)
        rows.append(
            [
                arm["arm"],
                str(arm["n_players"]),
                f"{arm['tile_set']} ({per} per symbol)",
                str(arm["games"]),
                fmt.pct(wild_rows[arm["arm"]], "wild")
                if arm["arm"] in wild_rows
                else "no turn log",
                *(fmt.ci(r, m, 2) for m in MEASURES),
            ]
        )
    blocks: list[Block] = [
        Heading(2, TITLE),
        Para(
            "By default the tile count follows the player count (5, 7, 9 tiles per symbol for "
            "2, 3, 4 players), so the two effects are confounded. Runs with a `tile_set` "
            "other than the default cross them: comparing arms that differ only in tile set "
            "gives the tile-count effect at a fixed player count, and arms that differ only in "
            "player count give the player-count effect at a fixed tile set. Values are per "
            "player with 95% intervals."
        ),
        Table(
            [
                "arm",
                "players",
                "tile set",
                "games",
                "symbol cards acting as jokers",
                *(PLAYER_NAMES[m] for m in MEASURES),
            ],
            rows,
        ),
    ]
    findings: list[str] = []
    blocks += _effects(ctx, player, wild, findings)
    blocks.append(_figure(ctx, player, wild))
    return Section(blocks, skipped, findings)


def _effects(
    ctx: Context, player: pl.DataFrame, wild: pl.DataFrame | None, findings: list[str]
) -> list[Block]:
    """Differences between arms that differ in exactly one of players and tile set."""
    arms = ctx.data.arms
    data = player if wild is None else player.join(wild, on="arm", how="left")
    rows = []
    for factor, fixed in (("tile_set", "n_players"), ("n_players", "tile_set")):
        others = [c for c in (*ctx.data.design, "strategies") if c not in (factor, "lineup")]
        pairs = arms.join(arms, on=others, suffix="_b").filter(
            pl.col(factor) < pl.col(f"{factor}_b")
        )
        for p in pairs.iter_rows(named=True):
            a = data.filter(pl.col("arm") == p["arm_b"]).row(0, named=True)
            b = data.filter(pl.col("arm") == p["arm"]).row(0, named=True)
            what = "tiles" if factor == "tile_set" else "players"
            label = (
                f"{what} {p[factor]} → {p[f'{factor}_b']} at "
                f"{'players' if fixed == 'n_players' else 'tiles'} {p[fixed]}"
            )
            cells = [fmt.mean_diff(a, b, m, 2) for m in EFFECTS]
            cells += [] if wild is None else [fmt.rate_diff(a, b, "wild")]
            rows.append([label, *cells])
            findings.append(
                f"Tile count, {label} ({b['total_n']} vs {a['total_n']} players): final score "
                f"{cells[-1 if wild is None else -2]}."
            )
    if not rows:
        return [
            Para(
                "No two arms differ only in tile set or only in player count, so the "
                "tile-count and player-count effects cannot be separated in these runs. "
                "Run a crossed design (each player count with each tile set) for that."
            )
        ]
    header = ["comparison", *(PLAYER_NAMES[m] for m in EFFECTS)]
    header += [] if wild is None else ["symbol cards acting as jokers"]
    return [
        Para("Effects, one factor at a time (second arm minus first, 95% CI):"),
        Table(header, rows),
    ]


def _figure(ctx: Context, player: pl.DataFrame, wild: pl.DataFrame | None) -> Figure:
    """Panels per measure; x = tile set, one line per group of arms equal but for tile set."""
    arms = ctx.data.arms
    sets = [t for t in TILE_SETS if t in set(arms["tile_set"])]
    others = [c for c in ctx.data.design if c != "tile_set"]
    groups = arms.group_by(others, maintain_order=True).agg("arm", "tile_set")
    data = player if wild is None else player.join(wild, on="arm", how="left")
    panels: dict[str, list[figures.Series]] = {}
    names = {m: PLAYER_NAMES[m] for m in EFFECTS}
    if wild is not None:
        names = {"wild": "symbol cards as jokers (%)", **names}
    for m, ylabel in names.items():
        centre, scale = ("p", 100) if m == "wild" else ("mean", 1)
        series = []
        for g in groups.iter_rows(named=True):
            part = data.filter(pl.col("arm").is_in(g["arm"])).join(
                arms.select("arm", "tile_set"), on="arm"
            )
            label = ", ".join(p for p in g["arm"][0].split(", ") if not p.startswith("tiles "))
            series.append(
                figures.series(
                    label, part, "tile_set", sets, m, ctx.colour(g["arm"][0]), scale, centre
                )
            )
        panels[ylabel] = series
    fig = ctx.figure("tile_count")
    figures.panels(
        fig,
        "Tile count and player count, per player with 95% CI "
        "(tile set II = 5, II+III = 7, II+III+IV = 9 tiles per symbol)",
        sets,
        panels,
        "tile set",
    )
    return Figure(
        fig.name,
        "Lines join arms that differ only in tile set; compare lines for the player-count effect.",
    )

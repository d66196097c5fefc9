"""Section: gem tokens per colour against the player count, in a crossed design."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt, paired
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import TEN_COLOURS, Context, Section
from sanssim.analysis.stats import (
    diff_of_means,
    mean_table,
    rate_table,
)
from sanssim.games.splendor.report.shared import (
    arm_results,
    diff_text,
    factor_groups,
    rows_by,
    with_received,
)

# The figure's panels: measure -> (axis label, scale, interval centre).
SUPPLY_FIGURE = {
    "length": ("rounds per game", 1, "mean"),
    "mean_total": ("points per player", 1, "mean"),
    "edge": ("first player's edge (pp)", 100, "mean"),
    "received": ("nobles per player", 1, "mean"),
    "passes": ("pass turns per player", 1, "mean"),
    "stuck": ("games not ended by target (%)", 100, "p"),
}


def build(ctx: Context) -> Section:
    """Gem tokens per colour against the player count, in a crossed design."""
    by_supply, by_players = factor_groups(ctx, "gem_tokens"), factor_groups(ctx, "n_players")
    crossed = set(by_supply["arm"].explode()) | set(by_players["arm"].explode())
    arms = [a for a in ctx.data.arm_labels if a in crossed] or ctx.data.arm_labels
    per_game = pl.concat([_per_game(ctx, a) for a in arms], how="vertical_relaxed")
    games = mean_table(
        per_game.lazy(), ["arm"], {m: pl.col(m) for m in ("length", "mean_total", "edge")}
    )
    results = with_received(ctx).filter(pl.col("arm").is_in(arms))
    table = (
        ctx.data.arms.select("arm", *ctx.data.design)
        .join(games, on="arm")
        .join(
            mean_table(
                results, ["arm"], {"received": pl.col("received"), "passes": pl.col("passes")}
            ),
            on="arm",
        )
        .join(
            rate_table(
                results.filter(pl.col("seat") == 0),
                ["arm"],
                {"stuck": pl.col("end_reason") != "target"},
            ),
            on="arm",
        )
        .sort("n_players", "gem_tokens", "target_points", "arm")
    )
    rows = [
        [
            r["arm"],
            str(r["n_players"]),
            str(r["gem_tokens"]),
            str(r["length_n"]),
            fmt.ci(r, "length", 2),
            fmt.ci(r, "mean_total", 2),
            diff_text(r["edge_mean"], r["edge_lo"], r["edge_hi"], percent=True),
            fmt.ci(r, "received", 2),
            fmt.ci(r, "passes", 3),
            fmt.pct(r, "stuck"),
        ]
        for r in table.iter_rows(named=True)
    ]
    findings: list[str] = []
    blocks: list[Block] = [
        Heading(2, "Token supply against player count"),
        Para(
            "By the rules the gem supply follows the player count (4, 5, 7 tokens per colour "
            "for 2, 3, 4 players), so the two effects are confounded. Arms with `gem_tokens` "
            "set cross them: arms that differ only in the supply give its effect at a fixed "
            "player count, arms that differ only in the player count give that effect at a "
            "fixed supply. Rounds, points per player and the first player's edge (win share "
            "minus 1/players) are per game (n = games); nobles and passes per player. The "
            "arms of the crossed design are shown (every arm when there is none)."
        ),
        Table(
            [
                "arm",
                "players",
                "gem tokens",
                "games",
                "rounds",
                "points per player",
                "first player's edge",
                "nobles per player",
                "pass turns per player",
                "not ended by target",
            ],
            rows,
        ),
    ]
    blocks += _supply_effects(ctx, by_supply, by_players, games, findings)
    blocks += _supply_figure(by_supply, table, ctx)
    return Section(blocks, [], findings)


def _supply_effects(
    ctx: Context,
    by_supply: pl.DataFrame,
    by_players: pl.DataFrame,
    games: pl.DataFrame,
    findings: list[str],
) -> list[Block]:
    """Each factor's effect at each level of the other: the supply paired on the same deals
    (same player count, same seeds), the player count as independent samples (Welch)."""
    header = ["comparison", "games", "rounds", "points per player", "first player's edge"]
    supply_rows = []
    for g in by_supply.iter_rows(named=True):
        arms = dict(zip(g["gem_tokens"], g["arm"], strict=True))
        levels = sorted(arms)
        for i, low in enumerate(levels):
            for high in levels[i + 1 :]:
                comparison = paired.compare(
                    arm_results(ctx, arms[high]), arm_results(ctx, arms[low]), length="rounds"
                )
                r = rows_by(comparison.table, "metric")
                cells = [
                    diff_text(
                        r[m]["diff"],
                        r[m]["lo"],
                        r[m]["hi"],
                        1 if m == "seat0_win" else 2,
                        m == "seat0_win",
                    )
                    for m in ("length", "mean_total", "seat0_win")
                ]
                how = "paired" if comparison.paired else "Welch"
                label = f"gem tokens {low} → {high} at {g['label']}"
                supply_rows.append(
                    [label, f"{comparison.games_a} / {comparison.games_b} ({how})", *cells]
                )
                if (low, high) == (levels[0], levels[-1]):
                    findings.append(
                        f"Token supply, {label} ({comparison.games_a} games, {how}): rounds "
                        f"{cells[0]}, first player's edge {cells[2]}."
                    )
    by_arm = rows_by(games, "arm")
    player_rows = []
    for g in by_players.iter_rows(named=True):
        arms = dict(zip(g["n_players"], g["arm"], strict=True))
        counts = sorted(arms)
        for i, low in enumerate(counts):
            for high in counts[i + 1 :]:
                a, b = by_arm[arms[high]], by_arm[arms[low]]
                cells = [
                    diff_text(*diff_of_means(a, b, m), 1 if m == "edge" else 2, m == "edge")
                    for m in ("length", "mean_total", "edge")
                ]
                label = f"players {low} → {high} at {g['label']}"
                player_rows.append([label, f"{a['length_n']} / {b['length_n']}", *cells])
                if (low, high) == (counts[0], counts[-1]):
                    findings.append(
                        f"Player count, {label} ({a['length_n']} vs {b['length_n']} games): "
                        f"rounds {cells[0]}, first player's edge {cells[2]}."
                    )
    blocks: list[Block] = []
    if supply_rows or player_rows:
        blocks.append(
            Para(
                f"Each interval holds for its own comparison; among the "
                f"{len(supply_rows) + len(player_rows)} comparisons below about one in twenty "
                "excludes zero by chance alone."
            )
        )
    if supply_rows:
        blocks += [
            Para(
                "The supply's effect at each player count: the arm with more tokens minus the "
                "arm with fewer, paired game by game on the same deals when both arms share "
                "their seeds (else Welch), 95% CI."
            ),
            Table(header, supply_rows),
        ]
    if player_rows:
        blocks += [
            Para(
                "The player count's effect at each supply: the arm with more players minus "
                "the arm with fewer, as independent samples (Welch; the first player's edge is "
                "measured against each count's own fair share), 95% CI."
            ),
            Table(header, player_rows),
        ]
    if not blocks:
        blocks.append(
            Para(
                "No two arms differ only in the gem supply or only in the player count, so "
                "the two effects cannot be separated in these runs. Run a crossed design "
                "(each player count with each `gem_tokens`) for that."
            )
        )
    return blocks


def _supply_figure(groups: pl.DataFrame, table: pl.DataFrame, ctx: Context) -> list[Block]:
    """Panels per measure; x = gem tokens, one line per group of arms equal but for it."""
    if groups.is_empty():
        return []
    levels = sorted(set(groups["gem_tokens"].explode()))
    panels = {
        ylabel: [
            figures.series(
                g["label"],
                table.filter(pl.col("arm").is_in(g["arm"])),
                "gem_tokens",
                levels,
                measure,
                TEN_COLOURS[i % len(TEN_COLOURS)],
                scale,
                centre,
            )
            for i, g in enumerate(groups.iter_rows(named=True))
        ]
        for measure, (ylabel, scale, centre) in SUPPLY_FIGURE.items()
    }
    path = ctx.figure("token_supply")
    figures.panels(
        path,
        "Gem tokens per colour and player count, 95% CI (n = games per arm, in the table)",
        [str(level) for level in levels],
        panels,
        "gem tokens per colour",
    )
    return [
        Figure(
            path.name,
            "Lines join arms that differ only in the gem supply; compare lines for the "
            "player-count effect.",
        )
    ]


def _per_game(ctx: Context, arm: str) -> pl.DataFrame:
    """Per game of an arm: rounds (`length`), points per player (`mean_total`), the first
    player's win share (`seat0_win`) and its excess over the fair 1/players (`edge`)."""
    return (
        paired.per_game(arm_results(ctx, arm), length="rounds")
        .with_columns(edge=pl.col("seat0_win") - 1 / pl.col("n_players"), arm=pl.lit(arm))
        .select("arm", "game_id", "n_players", "length", "mean_total", "seat0_win", "edge")
    )

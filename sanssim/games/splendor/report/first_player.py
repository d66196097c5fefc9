"""Section: the first player's edge by arm, and how it moves with the point target."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt, paired
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.generic import win_share
from sanssim.analysis.multiple import holm
from sanssim.analysis.precision import METRICS
from sanssim.analysis.section import TEN_COLOURS, Context, Section
from sanssim.analysis.stats import (
    ALPHA,
    mean_table,
    rate_table,
)
from sanssim.games.splendor.report.shared import (
    GAME,
    STANDARD_TARGET,
    arm_results,
    diff_text,
    factor_groups,
    interval_figure,
    rows_by,
)


def build(ctx: Context) -> Section:
    """The first player's edge by arm, and how it moves with the point target."""
    res = ctx.data.results.with_columns(win=win_share())
    first = rate_table(res.filter(pl.col("seat") == 0), ["arm"], {"first": pl.col("win")})
    gap = mean_table(
        res.group_by("arm", *GAME).agg(gap=METRICS["first_seat_gap"].value),
        ["arm"],
        {"gap": pl.col("gap")},
    )
    table = (
        ctx.data.arms.select("arm", *ctx.data.design)
        .join(first, on="arm")
        .join(gap, on="arm")
        .with_columns(fair=1 / pl.col("n_players"))
        .with_columns(
            (pl.col(f"first_{s}") - pl.col("fair")).alias(f"edge_{s}") for s in ("p", "lo", "hi")
        )
        .sort("n_players", "target_points", "gem_tokens", "arm")
    )
    rows = [
        [
            r["arm"],
            str(r["n_players"]),
            str(r["target_points"]),
            str(r["gem_tokens"]),
            str(r["first_n"]),
            fmt.pct(r, "first"),
            f"{100 * r['fair']:.1f}%",
            diff_text(r["edge_p"], r["edge_lo"], r["edge_hi"], percent=True),
            fmt.ci(r, "gap", 2),
        ]
        for r in table.iter_rows(named=True)
    ]
    blocks: list[Block] = [
        Heading(2, "First-player advantage"),
        Para(
            "Seat 0 plays first. The game ends only at the end of a round, so every player "
            "gets the same number of turns; any edge comes from moving first (first pick of "
            "the display and the gems, first to reach a noble). Win share of the first player "
            "(shared wins split) against the fair 1/players, the edge in percentage points, "
            "and the first player's final score minus the mean of the others (n = games)."
            + _mixed_note(ctx)
        ),
        Table(
            [
                "arm",
                "players",
                "target",
                "gem tokens",
                "games",
                "first player wins",
                "fair",
                "edge",
                "score gap (points)",
            ],
            rows,
        ),
    ]
    findings: list[str] = []
    blocks += _edge_figure(ctx, table, "n_players", "first_player_by_players", "{} players")
    blocks += _target_effects(ctx, findings)
    blocks += _edge_figure(ctx, table, "target_points", "first_player_by_target", "target {}")
    return Section(blocks, [], findings)


def _mixed_note(ctx: Context) -> str:
    """Where seats play different strategies, the first seat's edge is partly its strategy's."""
    mixed = ctx.data.arms.filter(pl.col("strategies").str.contains(" | ", literal=True))["arm"]
    if mixed.is_empty():
        return ""
    return (
        f" In {', '.join(mixed)} the seats play different strategies, so the edge there mixes "
        "turn order with strategy strength."
    )


def _edge_figure(
    ctx: Context, table: pl.DataFrame, factor: str, name: str, category: str
) -> list[Block]:
    """The first player's edge against `factor` (`category` names a value of it), one
    series per group of arms differing only in it; nothing when no two arms do."""
    groups = factor_groups(ctx, factor)
    if groups.is_empty():
        return []
    keys = sorted(set(table.filter(pl.col("arm").is_in(groups["arm"].explode().to_list()))[factor]))
    series = [
        figures.series(
            g["label"],
            table.filter(pl.col("arm").is_in(g["arm"])),
            factor,
            keys,
            "edge",
            TEN_COLOURS[i % len(TEN_COLOURS)],
            100,
            "p",
        )
        for i, g in enumerate(groups.iter_rows(named=True))
    ]
    word = category.replace("{}", "").strip()
    title = f"First player's win rate minus 1/players, by {word}"
    return [
        interval_figure(
            ctx,
            name,
            title,
            [category.format(k) for k in keys],
            series,
            "edge (percentage points, 95% CI; n = games per arm, in the table)",
            f"{title}: one series per group of arms that differ only in {word}; right of the "
            "dashed line the first player wins more than the fair share.",
            reference=0.0,
        )
    ]


def _target_effects(ctx: Context, findings: list[str]) -> list[Block]:
    """Each point target against the group's standard target (15, else the lowest), paired
    on the same deals when the arms share their game seeds."""
    groups = factor_groups(ctx, "target_points")
    if groups.is_empty():
        return [
            Para(
                "No two arms differ only in the point target, so its effect on the first "
                "player's edge cannot be measured from these runs."
            )
        ]
    found = []
    for g in groups.iter_rows(named=True):
        by_target = dict(zip(g["target_points"], g["arm"], strict=True))
        base = STANDARD_TARGET if STANDARD_TARGET in by_target else min(by_target)
        for target, arm in by_target.items():
            if target == base:
                continue
            comparison = paired.compare(
                arm_results(ctx, arm), arm_results(ctx, by_target[base]), length="rounds"
            )
            metrics = rows_by(comparison.table, "metric")
            found.append(
                {
                    "label": f"target {base} → {target} ({arm} vs {by_target[base]})",
                    "paired": comparison.paired,
                    "first": metrics["seat0_win"],
                    "length": metrics["length"],
                }
            )
    adjusted = pl.DataFrame({"p": [f["first"]["p"] for f in found]}).select(holm(pl.col("p")))
    rows = []
    for f, p_holm in zip(found, adjusted["p"], strict=True):
        first, length = f["first"], f["length"]
        change = diff_text(first["diff"], first["lo"], first["hi"], percent=True)
        how = f"paired ({first['width_ratio']:.2f} × Welch width)" if f["paired"] else "Welch"
        rows.append(
            [
                f["label"],
                f"{first['n_a']} / {first['n_b']}",
                f"{100 * first['mean_a']:.1f}% / {100 * first['mean_b']:.1f}%",
                change,
                fmt.pval(p_holm),
                diff_text(length["diff"], length["lo"], length["hi"], 2),
                how,
            ]
        )
        excluded = not first["lo"] <= 0 <= first["hi"]
        caveat = (
            f", but not once adjusted for the {len(found)} comparisons"
            if excluded and p_holm >= ALPHA
            else ""
        )
        findings.append(
            f"First player and the point target, {f['label']} ({first['n_a']} games each, "
            f"{'paired' if f['paired'] else 'unpaired'}): the first player's win rate "
            f"changes by {change}{caveat} (Holm-adjusted {fmt.pval(p_holm)})."
        )
    return [
        Heading(3, "The point target and the first player"),
        Para(
            "Arms that differ only in the point target, each against its group's standard "
            "target of 15 (else the lowest): the first player's win rate and the game length "
            "in rounds, the other arm minus the standard one. Arms played with the same master "
            "seed deal the same cards (each deck has its own random stream), so they are "
            "compared game by game (paired t interval; its width relative to the unpaired "
            "Welch interval shows what pairing bought). p-values are Holm-adjusted over the "
            "comparisons shown."
        ),
        Table(
            [
                "comparison",
                "games",
                "first player wins",
                "difference",
                "adjusted p",
                "rounds: difference",
                "interval",
            ],
            rows,
        ),
    ]

"""Section: each tournament arm against its standard twin, game by game."""

from __future__ import annotations

import math

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.order_free import order_free_mean
from sanssim.analysis.paired import compare
from sanssim.analysis.section import Context, Section, Skipped, skipped_without_turns
from sanssim.games.seikatsu import measures
from sanssim.games.seikatsu.measures import GAME
from sanssim.games.seikatsu.report.koi import KoiFrames, koi_per_game
from sanssim.games.seikatsu.report.shared import players

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
        "bird": order_free_mean(pl.col("bird_points")),
        "flower": order_free_mean(pl.col("flower_points")),
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


def build(ctx: Context) -> Section:
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
        label = f"{players(pair['n_players'])} (n = {result.games_a} games)"
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
            measure=1,
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
    ratio = r["width_ratio"]
    ratio = "–" if ratio is None or not math.isfinite(ratio) else f"{ratio:.2f}"
    if r["lo"] == r["hi"] == r["diff"] == 0:  # a measure that never varies: nothing to pair
        diff, welch, ratio = "the same in every game", "–", "–"
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
        f"Tournament mode, {players(pair['n_players'])} ({n} {how} games): total per side "
        f"{show('mean_total')}, birds {show('bird')}, flowers {show('flower')}; the first "
        f"side's win rate {show('first_win')}."
    )

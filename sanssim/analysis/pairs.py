"""Report section: arms that differ in one design facet, compared game by game.

Two arms with the same master seed play the same deals wherever the facet that differs does
not touch the deal (README, "Sources of chance"), so the per-game difference cancels the
luck of the deal and its paired interval is narrower than an unpaired one. Each arm can pool
several runs; a pair is paired when its runs pair up one to one by master seed and the two
arms hold the same games (`paired.compare` checks game ids, game seeds and player counts).
Otherwise it falls back to Welch intervals and says why.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import polars as pl

from sanssim.analysis import figures, fmt, multiple, paired
from sanssim.analysis.dataset import Dataset
from sanssim.analysis.document import Block, Bullets, Figure, Heading, Para, Table
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import ALPHA

TITLE = "Paired comparisons between arms"
LENGTH = "turns"  # per-game turn count, from the turn log


@dataclass(frozen=True)
class Pair:
    """`second` against `first` (the reference: a facet off, or the earlier arm), which
    differ only in `facet`; `seeds` lists each arm's master seeds."""

    first: str
    second: str
    facet: str
    change: str
    seeds: tuple[tuple[int, ...], tuple[int, ...]]
    column: str = ""  # the design column that differs

    @property
    def same_seeds(self) -> bool:
        return self.seeds[0] == self.seeds[1]


def _seeds(data: Dataset, runs: list[int]) -> tuple[int, ...]:
    return tuple(sorted(data.runs[i].config.get("seed", -1) for i in runs))


def master_seed(data: Dataset) -> pl.Expr:
    """Each results row's run's master seed (-1 where the run recorded none): with the game
    index it names a deal across pooled runs."""
    seed_of = {i: run.config.get("seed", -1) for i, run in enumerate(data.runs)}
    return pl.col("run").replace_strict(seed_of, return_dtype=pl.Int64)


def facet_text(data: Dataset, column: str, row: dict) -> tuple[str, str]:
    """A design column's name and one arm's value, as a reader says them."""
    if column == "lineup":
        return "strategies", row["strategies"]
    if column == "components":
        return "components", row["components"]
    option = data.game_type.option(column)
    value = row[column]
    if option.kind is bool:
        return option.report_label, "on" if value else "off"
    return option.report_label, str(value)


def find_pairs(data: Dataset) -> list[Pair]:
    """Every two arms with the same player count whose design differs in exactly one facet
    (an option, the strategy line-up or the component data)."""
    facets = [c for c in data.design if c != "n_players"]
    rows = data.arms.to_dicts()
    found = []
    for i, a in enumerate(rows):
        for b in rows[i + 1 :]:
            differ = [c for c in facets if a[c] != b[c]]
            if a["n_players"] != b["n_players"] or len(differ) != 1:
                continue
            column = differ[0]
            first, second = _ordered(a, b, column)
            name, before = facet_text(data, column, first)
            after = facet_text(data, column, second)[1]
            seeds = (_seeds(data, first["runs"]), _seeds(data, second["runs"]))
            change = f"{before} → {after}"
            found.append(Pair(first["arm"], second["arm"], name, change, seeds, column))
    return found


def _ordered(a: dict, b: dict, column: str) -> tuple[dict, dict]:
    """An option turned on reads off → on; any other change reads in the order the runs were
    given (the command line's, or the experiment file's)."""
    if isinstance(a[column], bool) and isinstance(b[column], bool):
        return (b, a) if a[column] else (a, b)
    return (a, b) if min(a["runs"]) <= min(b["runs"]) else (b, a)


def pair_games(data: Dataset, pair: Pair) -> tuple[pl.DataFrame, pl.DataFrame, bool]:
    """Both arms' results rows with `game_id` renumbered over (master seed, game index), so
    pooled runs pair up by seed, and the turn count per game as `turns` when both arms have a
    turn log."""
    arms = (pair.first, pair.second)
    frame = data.results.filter(pl.col("arm").is_in(arms)).with_columns(seed=master_seed(data))
    logged = data.turns is not None and not set(arms) & set(data.arms_without_turns())
    if logged and data.turn_counts is not None:
        runs = data.arms.filter(pl.col("arm").is_in(arms))["runs"].explode()
        lengths = data.turn_counts.lazy().filter(pl.col("run").is_in(runs.to_list()))
        frame = frame.join(lengths.rename({"turns": LENGTH}), on=["run", "game_id"], how="left")
    rows = frame.collect()
    logged = logged and rows[LENGTH].drop_nulls().n_unique() > 1  # a fixed length is a rule
    keys = (
        rows.select("seed", "game_id")
        .unique()
        .sort("seed", "game_id")
        .with_row_index("key")
        .with_columns(pl.col("key").cast(pl.Int64))
    )
    rows = rows.join(keys, on=["seed", "game_id"]).drop("game_id").rename({"key": "game_id"})
    first, second = (rows.filter(pl.col("arm") == arm) for arm in arms)
    return first, second, logged


def _pairing(pair: Pair, comparison: paired.Comparison) -> str:
    if comparison.paired:
        seeds = ", ".join(map(str, pair.seeds[0]))
        return f"paired: {comparison.games_a} games on the same deals (master seed {seeds})"
    if not pair.same_seeds:
        a, b = (", ".join(map(str, s)) for s in pair.seeds)
        return f"unpaired (Welch): different master seeds ({a} against {b})"
    return f"unpaired (Welch): {comparison.reason}"


def _measure(metric: str) -> tuple[str, bool]:
    """A metric's name in the table, and whether it is a rate (shown in percent)."""
    if metric == "mean_total":
        return "mean score", False
    if metric == "length":
        return "game length (turns)", False
    return f"seat {metric.removeprefix('seat').removesuffix('_win')} win rate", True


def _order() -> pl.Expr:
    """Mean score first, then the seats in order, then game length."""
    metric = pl.col("metric")
    seat = metric.str.extract(r"^seat(\d+)_win$").cast(pl.Int64)
    return (
        pl.when(metric == "mean_total")
        .then(-1)
        .when(seat.is_not_null())
        .then(seat)
        .otherwise(1_000)
    )


def _ratio(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    worth = f" (≈ {1 / value**2:.1f}× the games)" if value > 0 else ""
    return f"{value:.2f}{worth}"


def _row(label: str, r: dict) -> list[str]:
    name, rate = _measure(r["metric"])
    scale, unit = (100, "%") if rate else (1, "")
    diff_unit = " pp" if rate else ""
    text = fmt.interval(scale * r["diff"], scale * r["lo"], scale * r["hi"], signed=True)
    verdict = fmt.verdict(r["lo"], r["hi"])
    unchanged = r["lo"] == r["hi"] == r["diff"] == 0
    holm = r["holm"]
    return [
        label,
        name,
        f"{r['n_a']}",
        f"{scale * r['mean_b']:.1f}{unit}",
        f"{scale * r['mean_a']:.1f}{unit}",
        "the same in every game" if unchanged else text.then(f"{diff_unit} {verdict}"),
        "–" if unchanged else _ratio(r["width_ratio"]),
        "–" if r["p"] is None or math.isnan(r["p"]) else fmt.pval(r["p"]),
        "–" if holm is None or math.isnan(holm) else fmt.pval(holm),
    ]


def build(ctx: Context) -> Section:
    pairs = find_pairs(ctx.data)
    if not pairs:
        return Section([])
    labelled: list[tuple[str, Pair, paired.Comparison]] = []
    for k, pair in enumerate(pairs, start=1):
        first, second, logged = pair_games(ctx.data, pair)
        comparison = paired.compare(second, first, LENGTH if logged else None)
        labelled.append((f"#{k}", pair, comparison))
    table = (
        pl.concat([c.table.with_columns(pair=pl.lit(label)) for label, _, c in labelled])
        .filter((pl.col("welch_hi") != pl.col("welch_lo")).fill_null(True))  # never varies
        .with_columns(holm=multiple.holm(pl.col("p").fill_nan(None)), order=_order())
        .sort(pl.col("pair").str.strip_prefix("#").cast(pl.Int64), "order")
    )
    rows = [_row(r["pair"], r) for r in table.iter_rows(named=True)]
    legend = [
        f"{label}: {p.second} against {p.first} ({p.facet}: {p.change}); {_pairing(p, c)}"
        for label, p, c in labelled
    ]
    blocks: list[Block] = [
        Heading(2, TITLE),
        Para(
            "Arms of the same player count whose designs differ in exactly one facet (an "
            "option, the strategy line-up or the component data), compared as B − A, B the "
            "changed arm. Arms with the same master seed and the same games play the same "
            'deals wherever the change does not touch them (README, "Sources of chance"), '
            "so they are compared game by game: the interval is the paired t interval of the "
            "per-game differences. Otherwise the interval is Welch's, and the pair says why. "
            "Width ratio: paired interval width / unpaired (Welch) width on the same games; "
            "its inverse square is how many times the games an unpaired comparison would need "
            "for the same precision. A seat's win rate splits shared wins; game length counts "
            "the turns logged, and is left out where every game has the same length. Arms of "
            "different player counts are not compared here (their seats differ). Holm's "
            "adjustment runs over every p-value in the table: a difference is worth a claim "
            "when its Holm p is below 0.05."
        ),
        Bullets(legend),
        Table(
            [
                "pair",
                "measure",
                "games",
                "A",
                "B",
                "B − A (95% CI)",
                "width ratio",
                "p",
                "Holm p",
            ],
            rows,
            measure=1,
        ),
    ]
    blocks += _figure(ctx, labelled)
    return Section(blocks, [], [_finding(labelled, table)])


def _figure(ctx: Context, labelled: list[tuple[str, Pair, paired.Comparison]]) -> list[Block]:
    """The mean-score difference of each pair, paired and unpaired, side by side."""
    scores = [
        (label, c.table.filter(pl.col("metric") == "mean_total").row(0, named=True))
        for label, _, c in labelled
        if c.paired
    ]
    if not scores:
        return []
    labels = [label for label, _ in scores]
    frame = pl.DataFrame(
        {
            "pair": labels,
            "paired_mean": [r["diff"] for _, r in scores],
            "paired_lo": [r["paired_lo"] for _, r in scores],
            "paired_hi": [r["paired_hi"] for _, r in scores],
            "welch_mean": [r["diff"] for _, r in scores],
            "welch_lo": [r["welch_lo"] for _, r in scores],
            "welch_hi": [r["welch_hi"] for _, r in scores],
        }
    )
    series = [
        figures.series("paired (same deals)", frame, "pair", labels, "paired"),
        figures.series("unpaired (Welch, same games)", frame, "pair", labels, "welch"),
    ]
    fig = ctx.figure("paired_comparisons")
    figures.intervals(
        fig,
        "Mean score, changed arm − reference arm",
        labels,
        series,
        "points (95% CI)",
        reference=0.0,
    )
    return [
        Figure(
            fig.name,
            "What pairing buys: the same difference in mean score with its paired and its "
            "unpaired interval, per pair of arms (pairs as listed above).",
        )
    ]


def _finding(labelled: list[tuple[str, Pair, paired.Comparison]], table: pl.DataFrame) -> str:
    paired_pairs = [label for label, _, c in labelled if c.paired]
    calls = table.filter(pl.col("holm") < ALPHA).height
    text = (
        f"Paired comparisons: {len(labelled)} pair{'s' if len(labelled) != 1 else ''} of arms "
        f"differ{'s' if len(labelled) == 1 else ''} in one facet, {len(paired_pairs)} of them "
        "on the same deals; "
        f"{calls} of {table.height} differences hold after Holm's adjustment."
    )
    ratios = (
        table.filter(pl.col("pair").is_in(paired_pairs) & (pl.col("metric") == "mean_total"))[
            "width_ratio"
        ]
        .drop_nulls()
        .drop_nans()
    )
    if ratios.len() and statistics.median(ratios.to_list()) > 0:
        median = statistics.median(ratios.to_list())
        text += (
            f" Pairing made the mean-score intervals {median:.2f} times as wide as unpaired ones "
            f"(median over pairs), worth about {1 / median**2:.1f} times the games."
        )
    return text

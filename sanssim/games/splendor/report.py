"""Splendor's own report sections, after the generic ones (seat balance, scores, length,
points by source): the first player's edge and the point target, how games end, points by
card level and what a noble is worth, return on gems, reserves, bonus colours, and the
token supply against the player count.

Card facts (level, points) come from each run's manifest (`components.cards`), so a run
with its own deck is reported on its own cards. Parts that need the turn log (card levels,
payments, reserves) are skipped, with the reason, for arms run with `--no-turn-log`.
"""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt, paired
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.generic import win_share
from sanssim.analysis.multiple import holm
from sanssim.analysis.precision import METRICS
from sanssim.analysis.section import TEN_COLOURS, Context, Section, skipped_without_turns
from sanssim.analysis.stats import (
    ALPHA,
    between_groups,
    diff_of_means,
    mean_table,
    rate_table,
    ratio_table,
)
from sanssim.games.splendor.components import COLOURS, LEVELS
from sanssim.games.splendor.engine import DEFAULT_GEMS, END_REASONS

GAME = ["run", "game_id"]
PLAYER = [*GAME, "seat"]
STANDARD_TARGET = 15
NOBLE_BUCKETS = ("0 nobles", "1 noble", "2 nobles", "3 or more")
RESERVE_BUCKETS = ("0 reserves", "1", "2", "3", "4 or more")
HEAVY_RESERVES = len(RESERVE_BUCKETS) - 1
# Figure colours of the bonus colours (white drawn grey to show on white) and of ties.
GEM_COLOURS = {
    "white": "#9e9e9e",
    "blue": "#1f5fbf",
    "green": "#2ca02c",
    "red": "#d62728",
    "black": "#000000",
    "tie": "#b07cc6",
}
OBSERVATIONAL = (
    "These are observational comparisons between players of the same games, not "
    "experiments: how many nobles a player takes (or cards a player reserves) follows from "
    "how the game went for that player, so a difference is an association, not the effect "
    "of the noble (or the reserve) alone."
)


# ---------------------------------------------------------------- shared helpers


def _logged(ctx: Context) -> list[str]:
    """Arms with a turn log, in report order."""
    missing = set(ctx.data.arms_without_turns())
    return [a for a in ctx.data.arm_labels if a not in missing]


def _standard(ctx: Context) -> list[str]:
    """Arms played by the rulebook's parameters for their player count; findings quote
    these (every arm when there are none), the tables show every arm."""
    defaults = {o.name: o.default for o in ctx.data.game_type.options}
    n = pl.col("n_players")
    standard = ctx.data.arms.filter(
        (pl.col("target_points") == defaults["target_points"])
        & (pl.col("gold_tokens") == defaults["gold_tokens"])
        & (pl.col("max_rounds") == defaults["max_rounds"])
        & (pl.col("gem_tokens") == n.replace_strict(DEFAULT_GEMS, default=None))
        & ((pl.col("nobles") == "by players") | (pl.col("nobles") == (n + 1).cast(pl.String)))
    )["arm"].to_list()
    return standard or ctx.data.arm_labels


def _groups(ctx: Context, factor: str) -> pl.DataFrame:
    """Groups of at least two arms equal in everything but `factor` (the strategy line-up
    compared by name, since a line-up's length follows the player count): the design of the
    group, with `arm` and `factor` as lists sorted by the factor, and `label`, the facets
    that tell the groups apart (a lone group: that set it apart from the other arms)."""
    others = [c for c in (*ctx.data.design, "strategies") if c not in (factor, "lineup")]
    groups = (
        ctx.data.arms.sort(factor)
        .group_by(others, maintain_order=True)
        .agg(pl.col("arm"), pl.col(factor))
        .filter(pl.col("arm").list.len() > 1)
    )
    names = {"n_players": "players", **{o.name: o.report_label for o in ctx.data.game_type.options}}
    basis = groups if groups.height > 1 else ctx.data.arms  # a lone group: what sets it apart
    varying = [c for c in others if basis[c].n_unique() > 1]
    labels = [
        ", ".join(
            f"{row[c]}p" if c == "n_players" else f"{names[c]} {row[c]}" if c in names else row[c]
            for c in varying
        )
        or "all arms"
        for row in groups.iter_rows(named=True)
    ]
    return groups.with_columns(label=pl.Series(labels, dtype=pl.String))


def _arm_results(ctx: Context, arm: str) -> pl.LazyFrame:
    """One arm's results; when the arm pools several runs, game ids are renumbered by
    (run, game) so that per-game tools keyed on `game_id` see each game once."""
    frame = ctx.data.results.filter(pl.col("arm") == arm)
    runs = ctx.data.arms.filter(pl.col("arm") == arm)["runs"].item()
    if len(runs) == 1:
        return frame
    return frame.with_columns(game_id=(pl.struct(GAME).rank("dense") - 1).cast(pl.Int64))


def _per_game(ctx: Context, arm: str) -> pl.DataFrame:
    """Per game of an arm: rounds (`length`), points per player (`mean_total`), the first
    player's win share (`seat0_win`) and its excess over the fair 1/players (`edge`)."""
    return (
        paired.per_game(_arm_results(ctx, arm), length="rounds")
        .with_columns(edge=pl.col("seat0_win") - 1 / pl.col("n_players"), arm=pl.lit(arm))
        .select("arm", "game_id", "n_players", "length", "mean_total", "seat0_win", "edge")
    )


def _with_received(ctx: Context) -> pl.LazyFrame:
    """The results with `received`: the nobles each player received. The results column
    `nobles` holds it, but the dataset's `nobles` is the design option of that name (nobles
    revealed), so the count is read from each run's own results."""
    received = pl.concat(
        [
            run.results.select(
                pl.lit(i, pl.Int32).alias("run"),
                "game_id",
                "seat",
                pl.col("nobles").cast(pl.Int64).alias("received"),
            )
            for i, run in enumerate(ctx.data.runs)
        ]
    )
    return ctx.data.results.join(received, on=PLAYER)


def _cards(ctx: Context) -> pl.LazyFrame:
    """Level and points of every card id, per run, from the run's manifest."""
    rows = [
        (i, card["id"], card["level"], card["points"])
        for i, run in enumerate(ctx.data.runs)
        for card in run.manifest.get("components", {}).get("cards", [])
    ]
    schema = {"run": pl.Int32, "card_id": pl.Int16, "level": pl.Int8, "value": pl.Int16}
    return pl.LazyFrame(rows, schema=schema, orient="row")


def _buys(ctx: Context) -> pl.LazyFrame:
    """Every buy of the logged arms with the card's level and points and the tokens paid
    (`paid`, gold included) of which `gold`."""
    assert ctx.data.turns is not None
    return (
        ctx.data.turns.filter(pl.col("action") == "buy")
        .select("arm", *PLAYER, "card_id", "card_from", "payment")
        .join(_cards(ctx), on=["run", "card_id"])
        .with_columns(
            paid=pl.col("payment").list.sum().cast(pl.Int64),
            gold=pl.col("payment").list.get(len(COLOURS)).cast(pl.Int64),
        )
    )


def _per_player(ctx: Context, per: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """Results rows of the logged arms with per-player counts from the turn log (0 for a
    player with no such turn)."""
    return (
        ctx.data.results.filter(pl.col("arm").is_in(_logged(ctx)))
        .join(per, on=PLAYER, how="left")
        .with_columns(pl.col(columns).fill_null(0))
    )


def _cell(row: dict | None, name: str) -> str:
    """A rate with its interval and its n, for tables of many small groups."""
    return "–" if row is None else f"{fmt.pct(row, name)} (n={row[f'{name}_n']})"


def _share(row: dict, name: str) -> str:
    """A share from `ratio_table` (its Wilson interval) in percent."""
    mean, lo, hi = (row[f"{name}_{k}"] for k in ("mean", "lo", "hi"))
    if mean is None:
        return "–"
    return fmt.interval(100 * mean, 100 * lo, 100 * hi, unit="%")


def _diff(d: float, lo: float, hi: float, digits: int = 1, percent: bool = False) -> str:
    return fmt.diff({"x_d": d, "x_lo": lo, "x_hi": hi}, "x", digits, percent)


def _rows_by(table: pl.DataFrame, key: str) -> dict:
    return {r[key]: r for r in table.iter_rows(named=True)}


def _figure(
    ctx: Context,
    name: str,
    title: str,
    categories: list[str],
    series: list[figures.Series],
    xlabel: str,
    caption: str,
    reference: float | None = None,
) -> Figure:
    path = ctx.figure(name)
    figures.intervals(path, title, categories, series, xlabel, reference)
    return Figure(path.name, caption)


def _by_arm(
    table: pl.DataFrame,
    arms: list[str],
    group: str,
    groups: dict,
    name: str,
    scale: float = 1.0,
    centre: str = "mean",
    colours: dict | None = None,
) -> list[figures.Series]:
    """One series per value of `group` (`groups`: value -> label) over the arms as
    categories: a figure of many arms stays readable with a few distinct colours."""
    return [
        figures.series(
            label,
            table.filter(pl.col(group) == value),
            "arm",
            arms,
            name,
            (colours or {}).get(label, TEN_COLOURS[i % len(TEN_COLOURS)]),
            scale,
            centre,
        )
        for i, (value, label) in enumerate(groups.items())
    ]


# ---------------------------------------------------------------- first player


def first_player(ctx: Context) -> Section:
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
            _diff(r["edge_p"], r["edge_lo"], r["edge_hi"], percent=True),
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
    groups = _groups(ctx, factor)
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
        _figure(
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
    groups = _groups(ctx, "target_points")
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
                _arm_results(ctx, arm), _arm_results(ctx, by_target[base]), length="rounds"
            )
            metrics = _rows_by(comparison.table, "metric")
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
        change = _diff(first["diff"], first["lo"], first["hi"], percent=True)
        how = f"paired ({first['width_ratio']:.2f} × Welch width)" if f["paired"] else "Welch"
        rows.append(
            [
                f["label"],
                f"{first['n_a']} / {first['n_b']}",
                f"{100 * first['mean_a']:.1f}% / {100 * first['mean_b']:.1f}%",
                change,
                fmt.pval(p_holm),
                _diff(length["diff"], length["lo"], length["hi"], 2),
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


# ---------------------------------------------------------------- game length


def length(ctx: Context) -> Section:
    """Rounds per game and how every game ended (target, stalemate, round cap)."""
    games = ctx.data.results.filter(pl.col("seat") == 0).with_columns(
        pl.col("end_reason").fill_null("(missing)")
    )
    seen = games.select(pl.col("end_reason").unique()).collect()["end_reason"].to_list()
    reasons = [*END_REASONS, *sorted(r for r in seen if r not in END_REASONS)]
    flags = {f"end{i}": pl.col("end_reason") == r for i, r in enumerate(reasons)}
    ends = rate_table(games, ["arm"], flags)
    rounds = mean_table(games, ["arm"], {"rounds": pl.col("rounds")})
    to_target = mean_table(
        games.filter(pl.col("end_reason") == "target"), ["arm"], {"target": pl.col("rounds")}
    )
    spread = (
        games.group_by("arm")
        .agg(
            pl.col("rounds").quantile(q, "nearest").cast(pl.Int64).alias(f"q{int(100 * q)}")
            for q in (0.1, 0.5, 0.9)
        )
        .collect()
    )
    table = rounds.join(spread, on="arm").join(ends, on="arm").join(to_target, on="arm", how="left")
    by_arm = _rows_by(table, "arm")
    arms = ctx.data.arm_labels
    rows = [
        [
            a,
            str(by_arm[a]["rounds_n"]),
            fmt.ci(by_arm[a], "rounds", 2),
            f"{by_arm[a]['q10']}–{by_arm[a]['q90']} ({by_arm[a]['q50']})",
            fmt.ci(by_arm[a], "target", 2) if by_arm[a]["target_n"] else "–",
            *(f"{fmt.pct(by_arm[a], f)} ({int(by_arm[a][f + '_k'])})" for f in flags),
        ]
        for a in arms
    ]
    blocks: list[Block] = [
        Heading(2, "Game length and how games end"),
        Para(
            "Rounds per game from the results (every game, with or without a turn log). A game "
            "ends at the end of a round in which someone reached the point target, or when a "
            "whole round was passes with no noble visit (stalemate), or at the round cap "
            "(`max_rounds`, a guarantee that every simulated game ends, not a rule). Every game "
            "is counted under exactly one end reason; games not ended by the target stay in "
            "every other section, ranked by the rules. The 10th–90th percentile range "
            "(median) describes the spread; the intervals are for the means."
        ),
        Table(
            [
                "arm",
                "games",
                "rounds",
                "10th–90th percentile (median)",
                "rounds, games ended by target",
                *(f"ended by {r.replace('_', ' ')} (games)" for r in reasons),
            ],
            rows,
        ),
        _figure(
            ctx,
            "game_length",
            "Rounds per game, by arm",
            arms,
            [figures.series("all games", rounds, "arm", arms, "rounds", TEN_COLOURS[0])],
            "mean rounds per game (95% CI; n = games per arm, in the table)",
            "Rounds per game: every game of each arm, whatever ended it.",
        ),
    ]
    return Section(blocks, [], [_length_finding(table, reasons)])


def _length_finding(table: pl.DataFrame, reasons: list[str]) -> str:
    low, high = table["rounds_mean"].min(), table["rounds_mean"].max()
    games = int(table["rounds_n"].sum())
    early = [
        f"{r.replace('_', ' ')} in {row['arm']}: {fmt.pct(row, f'end{i}')} "
        f"({int(row[f'end{i}_k'])} games)"
        for i, r in enumerate(reasons)
        if r != "target"
        for row in table.iter_rows(named=True)
        if row[f"end{i}_k"] > 0
    ]
    ends = "; ".join(early) if early else "every game ended by the point target"
    return (
        f"Game length ({games} games): {low:.1f} to {high:.1f} rounds on average across "
        f"arms; {ends}."
    )


# ---------------------------------------------------------------- points and nobles


def points(ctx: Context) -> Section:
    """Points by card level (turn log) and the nobles' worth to their taker (results)."""
    blocks: list[Block] = [Heading(2, "Points from cards by level, and from nobles")]
    skipped = skipped_without_turns(ctx, "Points from cards by level")
    if _logged(ctx):
        blocks += _levels(ctx)
    findings: list[str] = []
    blocks += _nobles(ctx, findings)
    return Section(blocks, skipped, findings)


def _levels(ctx: Context) -> list[Block]:
    per = (
        _buys(ctx)
        .group_by(PLAYER)
        .agg(
            *(
                pl.col("value").filter(pl.col("level") == level).sum().alias(f"l{level}")
                for level in LEVELS
            ),
            *((pl.col("level") == level).sum().alias(f"c{level}") for level in LEVELS),
        )
    )
    counts = [f"{k}{level}" for k in ("l", "c") for level in LEVELS]
    players = _per_player(ctx, per, counts)
    table = mean_table(
        players, ["arm"], {**{c: pl.col(c) for c in counts}, "nobles": pl.col("noble_points")}
    )
    by_arm = _rows_by(table, "arm")
    arms = _logged(ctx)
    rows = [
        [
            a,
            str(by_arm[a]["nobles_n"]),
            *(fmt.ci(by_arm[a], f"l{level}", 2) for level in LEVELS),
            fmt.ci(by_arm[a], "nobles", 2),
            *(fmt.ci(by_arm[a], f"c{level}", 2) for level in LEVELS),
        ]
        for a in arms
    ]
    sources = {**{f"l{level}": f"level {level} cards" for level in LEVELS}, "nobles": "nobles"}
    series = [
        figures.series(label, table, "arm", arms, name, TEN_COLOURS[i])
        for i, (name, label) in enumerate(sources.items())
    ]
    return [
        Para(
            "Mean points per player from the cards of each level bought (levels and points "
            "from the run's component data) and from nobles, and the cards bought per level "
            "(n = player-games with a turn log). Reserved cards never bought score nothing."
        ),
        Table(
            [
                "arm",
                "players",
                *(f"level {level} points" for level in LEVELS),
                "noble points",
                *(f"level {level} cards" for level in LEVELS),
            ],
            rows,
        ),
        _figure(
            ctx,
            "points_by_level",
            "Points per player by source",
            arms,
            series,
            "mean points per player (95% CI; n = player-games per arm, in the table)",
            "Where each arm's points come from: cards of each level and nobles.",
        ),
    ]


def _nobles(ctx: Context, findings: list[str]) -> list[Block]:
    res = _with_received(ctx).with_columns(
        win=win_share(),
        bucket=pl.col("received").clip(upper_bound=len(NOBLE_BUCKETS) - 1),
        has=pl.col("received") > 0,
    )
    by_count = rate_table(res, ["arm", "bucket"], {"win": pl.col("win")})
    has = rate_table(res, ["arm", "has"], {"win": pl.col("win")})
    decided = rate_table(
        res.group_by("arm", *GAME)
        .agg(
            sole=pl.col("winner").sum() == 1,
            winner=pl.col("card_points").filter(pl.col("winner")).max(),
            other=pl.col("card_points").filter(~pl.col("winner")).max(),
        )
        .filter(pl.col("sole")),
        ["arm"],
        {"decided": pl.col("winner") < pl.col("other")},
    )
    decided_by = _rows_by(decided, "arm")
    arms, standard = ctx.data.arm_labels, set(_standard(ctx))
    rows = []
    for arm in arms:
        cells = _rows_by(by_count.filter(pl.col("arm") == arm), "bucket")
        sides = _rows_by(has.filter(pl.col("arm") == arm), "has")
        both = True in sides and False in sides
        dec = decided_by.get(arm)
        rows.append(
            [
                arm,
                *(_cell(cells.get(b), "win") for b in range(len(NOBLE_BUCKETS))),
                fmt.rate_diff(sides[True], sides[False], "win") if both else "–",
                _cell(dec, "decided"),
            ]
        )
        if arm in standard and both and dec:
            findings.append(
                f"Nobles, {arm} ({sides[True]['win_n'] + sides[False]['win_n']} players; "
                f"observational): a player with a noble wins {fmt.pct(sides[True], 'win')}, "
                f"one without {fmt.pct(sides[False], 'win')}; the nobles' points decided "
                f"{fmt.pct(dec, 'decided')} of {dec['decided_n']} games with a sole winner."
            )
    buckets = dict(enumerate(NOBLE_BUCKETS))
    return [
        Heading(3, "What a noble is worth to the player who takes it"),
        Para(
            "Win rate (shared wins split) of players by the number of nobles they received, "
            "the difference between players with at least one noble and players with none, "
            "and the share of games with a sole winner whose winner was behind on card points "
            "alone: there the nobles' points decided the game. "
            + OBSERVATIONAL
            + " The last column is an accounting fact about the final scores, but play "
            "without nobles would have gone differently."
        ),
        Table(
            ["arm", *NOBLE_BUCKETS, "with a noble − without", "games the nobles decided"],
            rows,
        ),
        _figure(
            ctx,
            "noble_value",
            "Win rate by nobles received",
            arms,
            _by_arm(by_count, arms, "bucket", buckets, "win", 100, "p"),
            "win rate (%, 95% CI; n = players in each group, in the table)",
            "Win rate by the number of nobles received (observational).",
        ),
    ]


# ---------------------------------------------------------------- return on gems


def gems(ctx: Context) -> Section:
    """Points bought per token paid, by card level."""
    title = "Return on gems"
    skipped = skipped_without_turns(ctx, title)
    arms = _logged(ctx)
    if not arms:
        return Section([], skipped)
    one = pl.lit(1)
    table = ratio_table(
        _buys(ctx),
        ["arm", "level"],
        GAME,
        {
            "paid": (pl.col("paid"), one),
            "gold": (pl.col("gold"), pl.col("paid")),
            "free": (pl.col("paid") == 0, one),
            "value": (pl.col("value"), one),
            "return": (pl.col("value"), pl.col("paid")),
        },
        shares=["gold", "free"],
    )
    rows = [
        [
            r["arm"],
            str(r["level"]),
            str(r["paid_rows"]),
            str(r["paid_n"]),
            fmt.ci(r, "paid", 2),
            _share(r, "gold"),
            _share(r, "free"),
            fmt.ci(r, "value", 2),
            fmt.ci(r, "return", 3),
        ]
        for arm in arms
        for r in table.filter(pl.col("arm") == arm).iter_rows(named=True)
    ]
    findings = []
    for arm in (a for a in _standard(ctx) if a in arms):
        part = _rows_by(table.filter(pl.col("arm") == arm), "level")
        levels = ", ".join(f"level {lv} {fmt.ci(part[lv], 'return', 3)}" for lv in sorted(part))
        buys = sum(r["paid_rows"] for r in part.values())
        findings.append(f"Return on gems, {arm} ({buys} buys): points per token paid: {levels}.")
    blocks: list[Block] = [
        Heading(2, title),
        Para(
            "Every buy in the turn log: tokens paid (gold included) after the bonuses' "
            "discount, gold's share of them, the share of cards bought with bonuses alone, "
            "the card's points, and points per token paid (total points over total tokens, "
            "so free cards count). Buys within a game are not independent, so intervals are "
            "cluster-robust over games (n = games); `buys` counts the cards."
        ),
        Table(
            [
                "arm",
                "level",
                "buys",
                "games",
                "tokens paid per card",
                "gold share of tokens paid",
                "bought with no tokens",
                "points per card",
                "points per token paid",
            ],
            rows,
        ),
        _figure(
            ctx,
            "points_per_gem",
            "Points per token paid, by card level",
            arms,
            _by_arm(table, arms, "level", {lv: f"level {lv}" for lv in LEVELS}, "return"),
            "points per token paid (95% CI; n = games per arm and level, in the table)",
            "Points per token paid: what a token turns into at each card level.",
        ),
    ]
    return Section(blocks, skipped, findings)


# ---------------------------------------------------------------- reserves


def reserves(ctx: Context) -> Section:
    """How often players reserve, how many reserved cards they buy, and who wins."""
    title = "Reserves and their payoff"
    skipped = skipped_without_turns(ctx, title)
    arms = _logged(ctx)
    if not arms:
        return Section([], skipped)
    turns = ctx.data.turns
    assert turns is not None
    made = (
        turns.filter(pl.col("action").is_in(["reserve", "reserve_blind"]))
        .group_by(PLAYER)
        .agg(
            reserves=pl.len(),
            blind=(pl.col("action") == "reserve_blind").sum(),
            gold=pl.col("gold_taken").cast(pl.Int64).sum(),
        )
    )
    bought = (
        _buys(ctx)
        .filter(pl.col("card_from") == "reserve")
        .group_by(PLAYER)
        .agg(later=pl.len(), later_points=pl.col("value").cast(pl.Int64).sum())
    )
    counts = ["reserves", "blind", "gold", "later", "later_points"]
    players = _per_player(
        ctx, made.join(bought, on=PLAYER, how="full", coalesce=True), counts
    ).with_columns(
        win=win_share(),
        bucket=pl.col("reserves").clip(upper_bound=HEAVY_RESERVES),
        heavy=pl.col("reserves") >= HEAVY_RESERVES,
    )
    made_by = pl.col("reserves")
    summary = (
        mean_table(
            players,
            ["arm"],
            {"reserves": pl.col("reserves"), "later_points": pl.col("later_points")},
        )
        .join(rate_table(players, ["arm"], {"reserver": pl.col("reserves") > 0}), on="arm")
        .join(
            mean_table(
                players.group_by("arm", *GAME).agg(pl.col("reserves").sum()),
                ["arm"],
                {"per_game": pl.col("reserves")},
            ),
            on="arm",
        )
        .join(
            ratio_table(
                players,
                ["arm"],
                GAME,
                {
                    "later": (pl.col("later"), made_by),
                    "blind": (pl.col("blind"), made_by),
                    "gold": (pl.col("gold"), made_by),
                },
                shares=["later", "blind", "gold"],
            ),
            on="arm",
        )
    )
    by_arm = _rows_by(summary, "arm")
    rows = [
        [
            a,
            str(by_arm[a]["per_game_n"]),
            fmt.ci(by_arm[a], "per_game", 2),
            str(by_arm[a]["reserves_n"]),
            fmt.ci(by_arm[a], "reserves", 2),
            fmt.pct(by_arm[a], "reserver"),
            _share(by_arm[a], "blind"),
            _share(by_arm[a], "gold"),
            _share(by_arm[a], "later"),
            fmt.ci(by_arm[a], "later_points", 2),
        ]
        for a in arms
    ]
    wins = rate_table(players, ["arm", "bucket"], {"win": pl.col("win")})
    sides = rate_table(players, ["arm", "heavy"], {"win": pl.col("win")})
    payoff, findings, standard = [], [], set(_standard(ctx))
    for arm in arms:
        cells = _rows_by(wins.filter(pl.col("arm") == arm), "bucket")
        side = _rows_by(sides.filter(pl.col("arm") == arm), "heavy")
        both = True in side and False in side
        diff = fmt.rate_diff(side[True], side[False], "win") if both else "–"
        payoff.append(
            [arm, *(_cell(cells.get(b), "win") for b in range(len(RESERVE_BUCKETS))), diff]
        )
        if arm in standard:
            s = by_arm[arm]
            findings.append(
                f"Reserves, {arm} ({s['reserves_n']} players): {fmt.ci(s, 'reserves', 2)} "
                f"reserves per player, {_share(s, 'later')} of reserved cards bought later; "
                f"win rate of players with {HEAVY_RESERVES} or more reserves minus those with "
                f"fewer: {diff} (observational)."
            )
    blocks: list[Block] = [
        Heading(2, title),
        Para(
            "Reserves made (display and blind) per game (n = games) and per player (n = "
            "player-games, with a turn log), the share of players who reserve at all, the "
            "share of reserves that were blind and that brought a gold token, the share of "
            "reserved cards the player bought later (a reserved card leaves the hand only that "
            "way), and the points of those cards. Shares of reserves are ratios over all "
            "reserves with cluster-robust intervals over games."
        ),
        Table(
            [
                "arm",
                "games",
                "reserves per game",
                "players",
                "reserves per player",
                "players who reserve",
                "blind share of reserves",
                "reserves bringing gold",
                "reserved cards bought later",
                "points from reserved cards",
            ],
            rows,
        ),
        Para(
            "Win rate (shared wins split) by reserves made in the game, and players with "
            f"{HEAVY_RESERVES} or more reserves minus those with fewer. " + OBSERVATIONAL
        ),
        Table(
            ["arm", *RESERVE_BUCKETS, f"{HEAVY_RESERVES} or more − fewer"],
            payoff,
        ),
        _figure(
            ctx,
            "reserve_payoff",
            "Win rate by reserves made",
            arms,
            _by_arm(wins, arms, "bucket", dict(enumerate(RESERVE_BUCKETS)), "win", 100, "p"),
            "win rate (%, 95% CI; n = players in each group, in the table)",
            "Win rate by the number of cards reserved in the game (observational).",
        ),
    ]
    return Section(blocks, skipped, findings)


# ---------------------------------------------------------------- colours


def colours(ctx: Context) -> Section:
    """Win rate by the colour of a player's most numerous bonus: the five colours are
    symmetric in the card data, so a difference would point at the strategy or the engine."""
    bonuses = pl.col("bonuses")
    top = bonuses.list.eval((pl.element() == pl.element().max()).cast(pl.Int32)).list.sum()
    named = bonuses.list.arg_max().replace_strict(dict(enumerate(COLOURS)), return_dtype=pl.String)
    res = ctx.data.results.with_columns(
        win=win_share(), dominant=pl.when(top > 1).then(pl.lit("tie")).otherwise(named)
    )
    groups = [*COLOURS, "tie"]
    wins = rate_table(res, ["arm", "dominant"], {"win": pl.col("win")})
    spread = mean_table(
        res.filter(pl.col("dominant") != "tie"), ["arm", "dominant"], {"w": pl.col("win")}
    )
    arms = ctx.data.arm_labels
    tests = []
    for arm in arms:
        part = spread.filter(pl.col("arm") == arm)
        tests.append(
            between_groups(part["w_n"].to_list(), part["w_mean"].to_list(), part["w_sd"].to_list())
        )
    adjusted = pl.DataFrame({"p": [t[2] for t in tests]}).select(holm(pl.col("p")))["p"]
    rows, flagged = [], []
    for arm, (stat, df, p), p_holm in zip(arms, tests, adjusted, strict=True):
        cells = _rows_by(wins.filter(pl.col("arm") == arm), "dominant")
        verdict = "colours differ" if p_holm < ALPHA else "no clear difference"
        if p_holm < ALPHA:
            flagged.append(arm)
        rows.append(
            [
                arm,
                str(sum(c["win_n"] for c in cells.values())),
                *(_cell(cells.get(g), "win") for g in groups),
                f"χ²({df}) = {stat:.1f}, {fmt.pval(p)}, Holm {fmt.pval(p_holm)}: {verdict}",
            ]
        )
    finding = (
        "Colour balance: the win rate depends on the dominant bonus colour in "
        f"{', '.join(flagged)} (Holm-adjusted p < 0.05)."
        if flagged
        else f"Colour balance: in none of the {len(arms)} arms does the win rate depend on the "
        "dominant bonus colour (between-colour tests, Holm-adjusted p ≥ 0.05)."
    )
    blocks: list[Block] = [
        Heading(2, "Gem colour balance"),
        Para(
            "Players grouped by their dominant bonus colour (the colour of most cards bought, "
            "from the results' `bonuses`; `tie` when two or more colours share the most, "
            "including players with no card). Win rate (shared wins split) with n players. The "
            "colours are symmetric in the card and noble data, so the test (between-colour "
            "chi-square on the win rates of the five colours, Holm-adjusted across arms) "
            "should find nothing; a difference would point at the strategy or the engine. "
            "Ties are left out of the test: a tie is not a colour, and players whose bonuses "
            "spread evenly play differently."
        ),
        Table(["arm", "players", *groups, "test"], rows),
        _figure(
            ctx,
            "colour_balance",
            "Win rate by dominant bonus colour",
            arms,
            _by_arm(wins, arms, "dominant", {g: g for g in groups}, "win", 100, "p", GEM_COLOURS),
            "win rate (%, 95% CI; n = players in each group, in the table)",
            "Win rate by dominant bonus colour: the five colours should agree within each arm.",
        ),
    ]
    return Section(blocks, [], [finding])


# ---------------------------------------------------------------- token supply


# The figure's panels: measure -> (axis label, scale, interval centre).
SUPPLY_FIGURE = {
    "length": ("rounds per game", 1, "mean"),
    "mean_total": ("points per player", 1, "mean"),
    "edge": ("first player's edge (pp)", 100, "mean"),
    "received": ("nobles per player", 1, "mean"),
    "passes": ("pass turns per player", 1, "mean"),
    "stuck": ("games not ended by target (%)", 100, "p"),
}


def supply(ctx: Context) -> Section:
    """Gem tokens per colour against the player count, in a crossed design."""
    by_supply, by_players = _groups(ctx, "gem_tokens"), _groups(ctx, "n_players")
    crossed = set(by_supply["arm"].explode()) | set(by_players["arm"].explode())
    arms = [a for a in ctx.data.arm_labels if a in crossed] or ctx.data.arm_labels
    per_game = pl.concat([_per_game(ctx, a) for a in arms], how="vertical_relaxed")
    games = mean_table(
        per_game.lazy(), ["arm"], {m: pl.col(m) for m in ("length", "mean_total", "edge")}
    )
    results = _with_received(ctx).filter(pl.col("arm").is_in(arms))
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
            _diff(r["edge_mean"], r["edge_lo"], r["edge_hi"], percent=True),
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
                    _arm_results(ctx, arms[high]), _arm_results(ctx, arms[low]), length="rounds"
                )
                r = _rows_by(comparison.table, "metric")
                cells = [
                    _diff(
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
    by_arm = _rows_by(games, "arm")
    player_rows = []
    for g in by_players.iter_rows(named=True):
        arms = dict(zip(g["n_players"], g["arm"], strict=True))
        counts = sorted(arms)
        for i, low in enumerate(counts):
            for high in counts[i + 1 :]:
                a, b = by_arm[arms[high]], by_arm[arms[low]]
                cells = [
                    _diff(*diff_of_means(a, b, m), 1 if m == "edge" else 2, m == "edge")
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


SECTIONS = (first_player, length, points, gems, reserves, colours, supply)

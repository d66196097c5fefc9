"""Section 2: variants side by side, garden and expansion sides."""

from __future__ import annotations

import polars as pl

from sanssim.analysis import figures, fmt
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import Context, Section, Skipped, skipped_without_turns
from sanssim.analysis.stats import (
    ALPHA,
    Z,
    between_groups,
    chi2_gof,
    mean_table,
    rate_table,
    win_share,
)
from sanssim.games.sanssouci.measures import (
    PLAYER,
    PLAYER_NAMES,
    SOURCE_NAMES,
    expansion_boards,
    is_symbol_card,
    stale_colours,
    winning_margin,
)
from sanssim.games.sanssouci.mission_ranks import component_twins

TITLE = "Variant balance"


def build(ctx: Context) -> Section:
    findings: list[str] = []
    blocks: list[Block] = [Heading(2, TITLE)]
    variants, skipped = _variants(ctx, findings)
    blocks += variants
    blocks += _sides(ctx, "garden_side", "Garden sides")
    if ctx.data.arms["expansion"].any():
        blocks += _sides(ctx, "expansion_side", "Expansion sides")
        blocks += _side_choice(ctx)
    return Section(blocks, skipped, findings)


def _player_measures(ctx: Context) -> pl.DataFrame:
    per_player = mean_table(ctx.data.results, ["arm"], PLAYER)
    margins = mean_table(
        ctx.data.results.group_by("arm", "run", "game_id").agg(margin=winning_margin()),
        ["arm"],
        {"margin": pl.col("margin")},
    )
    first = rate_table(
        ctx.data.results.with_columns(win=win_share()).filter(pl.col("seat") == 0),
        ["arm"],
        {"first": pl.col("win")},
    )
    reshuffles = mean_table(
        ctx.data.results.filter((pl.col("seat") == 0) & pl.col("reshuffles").is_not_null()),
        ["arm"],
        {"all_reshuffles": pl.col("reshuffles")},
    )
    return (
        per_player.join(margins, on="arm")
        .join(first, on="arm")
        .join(reshuffles, on="arm", how="left")
    )


def _turn_measures(ctx: Context) -> pl.DataFrame | None:
    turns = ctx.data.turns
    if turns is None:
        return None
    wild = rate_table(turns.filter(is_symbol_card()), ["arm"], {"wild": pl.col("card_wild")})
    stale = rate_table(turns, ["arm"], {"stale": stale_colours() > 0})
    reshuffles = mean_table(
        turns.group_by("arm", "run", "game_id").agg(pl.col("reshuffles").sum()),
        ["arm"],
        {"reshuffles": pl.col("reshuffles")},
    )
    return wild.join(stale, on="arm").join(reshuffles, on="arm")


def _sd_interval(r: dict, name: str) -> str:
    """Standard deviation with its large-sample interval sd (1 ± z / sqrt(2(n - 1)))."""
    sd, n = r[f"{name}_sd"], r[f"{name}_n"]
    if sd is None or n < 3:
        return "–"
    half = Z / (2 * (n - 1)) ** 0.5
    return fmt.interval(sd, sd * (1 - half), sd * (1 + half))


def _variants(ctx: Context, findings: list[str]) -> tuple[list[Block], list[Skipped]]:
    """One column per arm; then each variant arm against its base-game twin."""
    arms = ctx.data.arm_labels
    player = _player_measures(ctx)
    turn = _turn_measures(ctx)
    by_arm = {r["arm"]: r for r in player.iter_rows(named=True)}
    turn_rows = {} if turn is None else {r["arm"]: r for r in turn.iter_rows(named=True)}
    rows = [
        ["games", *(str(by_arm[a]["margin_n"]) for a in arms)],
        ["players (rows of results)", *(str(by_arm[a]["total_n"]) for a in arms)],
        ["final score", *(_n(fmt.ci(by_arm[a], "total"), by_arm[a], "total") for a in arms)],
        [
            "spread of final score (sd)",
            *(_n(_sd_interval(by_arm[a], "total"), by_arm[a], "total") for a in arms),
        ],
        [
            "winning margin (points)",
            *(_n(fmt.ci(by_arm[a], "margin"), by_arm[a], "margin") for a in arms),
        ],
        [
            "first player's win rate",
            *(_n(fmt.pct(by_arm[a], "first"), by_arm[a], "first") for a in arms),
        ],
        *(
            [PLAYER_NAMES[s], *(_n(fmt.ci(by_arm[a], s), by_arm[a], s) for a in arms)]
            for s in ctx.data.game_type.sources
        ),
        [
            "gardeners placed",
            *(_n(fmt.ci(by_arm[a], "gardeners"), by_arm[a], "gardeners") for a in arms),
        ],
    ]
    skipped = []
    if turn_rows:
        rows += [
            ["games with a turn log", *(_logged_games(turn_rows, a) for a in arms)],
            ["symbol cards acting as jokers", *(_turn_cell(turn_rows, a, "wild") for a in arms)],
            [
                "turns starting with a stale colour",
                *(_turn_cell(turn_rows, a, "stale") for a in arms),
            ],
        ]
    rows.append(
        [
            "duplicate-reshuffle redraws per game",
            *(_reshuffles(by_arm[a], turn_rows.get(a)) for a in arms),
        ]
    )
    skipped += skipped_without_turns(ctx, f"{TITLE}: joker and stale-colour rates")
    blocks: list[Block] = [
        Heading(3, "Variants side by side"),
        Para(
            "One column per arm; nothing is pooled across arms. A colour is stale when both "
            "of its display squares show the same symbol (what `duplicate_reshuffle` removes); "
            "a symbol card acts as a joker when no tile of its symbol is on display. The spread "
            "interval is the large-sample approximation. Every figure gives its own n: players "
            "for per-player measures, games for margins, first-player wins and redraws, symbol "
            "cards played and turns for the rates from the turn log, which count only the "
            "games with a turn log (fewer than the arm's games when runs with and without one "
            "are pooled)."
        ),
        Table(["measure", *arms], rows, measure=0),
    ]
    blocks += _against_base(ctx, player, turn, findings)
    fig = ctx.figure("points_by_source")
    figures.intervals(
        fig,
        "Points by source",
        [SOURCE_NAMES[s] for s in ctx.data.game_type.sources],
        [
            figures.Series(
                a,
                *(
                    [by_arm[a][f"{s}_{k}"] for s in ctx.data.game_type.sources]
                    for k in ("mean", "lo", "hi")
                ),
                colour=ctx.colour(a),
            )
            for a in arms
        ],
        "mean points per player (95% CI)",
    )
    blocks.append(Figure(fig.name, "Where the points come from, per arm."))
    return blocks, skipped


def _n(text: str, row: dict, name: str) -> str:
    """A table cell with the sample size it rests on."""
    return fmt.followed(text, f", n = {row[f'{name}_n']:,}")


def _reshuffles(player: dict, turn: dict | None) -> str:
    """All redraws of a game from the results when logged there, else those after refills
    from the turn log."""
    if player.get("all_reshuffles_mean") is not None:
        return _n(fmt.ci(player, "all_reshuffles", 2), player, "all_reshuffles")
    if turn is not None:
        text = _n(fmt.ci(turn, "reshuffles", 2), turn, "reshuffles")
        return fmt.followed(text, " (after refills; setup not logged)")
    return "not logged"


def _turn_cell(rows: dict, arm: str, name: str) -> str:
    return _n(fmt.pct(rows[arm], name), rows[arm], name) if arm in rows else "no turn log"


def _logged_games(rows: dict, arm: str) -> str:
    """Games whose turns were logged (the turn-log rows' games): each has a redraw count."""
    return f"{rows[arm]['reshuffles_n']:,}" if arm in rows else "0"


def _against_base(
    ctx: Context, player: pl.DataFrame, turn: pl.DataFrame | None, findings: list[str]
) -> list[Block]:
    """One change at a time: each arm with a variant on against its twin with it off, and
    each arm with other component data against its twin with the packaged data (or the
    first of its twins), every other design facet equal."""
    arms = ctx.data.arms
    metrics = player if turn is None else player.join(turn, on="arm", how="left")
    pairs = []
    for variant in ("expansion", "duplicate_reshuffle"):
        others = [c for c in ctx.data.design if c != variant]
        twins = arms.filter(pl.col(variant)).join(
            arms.filter(~pl.col(variant)), on=others, suffix="_off"
        )
        pairs += [(variant, a, b) for a, b in twins.select("arm", "arm_off").iter_rows()]
    pairs += [("components", a, b) for a, b in component_twins(ctx)]
    rows = []
    for change, arm, base in pairs:
        a = metrics.filter(pl.col("arm") == arm).row(0, named=True)
        b = metrics.filter(pl.col("arm") == base).row(0, named=True)
        diffs = {n: fmt.mean_diff(a, b, n) for n in ("total", "margin")}
        diffs["first"] = fmt.rate_diff(a, b, "first")
        if turn is not None:
            diffs |= {n: fmt.rate_diff(a, b, n) for n in ("wild", "stale")}
        label = f"{change}: {arm} vs {base}"
        rows.append([label, *(_n2(text, a, b, n) for n, text in diffs.items())])
        findings.append(
            f"{'Component data' if change == 'components' else 'Variant ' + change}: "
            f"{arm} vs {base} "
            f"({a['margin_n']} vs {b['margin_n']} games): final score {diffs['total']}, "
            f"first player's win rate {diffs['first']}."
        )
    if not rows:
        return []
    header = ["comparison", "final score", "winning margin", "first player's win rate"]
    if turn is not None:
        header += ["jokers among symbol cards", "turns with a stale colour"]
    return [
        Para(
            "One change at a time (a variant, or the component data): the arm with the change "
            "minus the arm without it, everything else equal; difference [95% CI], called "
            "higher or lower only when the interval excludes zero; n of each arm as in the "
            "table above (turn-log rates: games with a turn log only)."
        ),
        Table(header, rows),
    ]


def _n2(text: str, a: dict, b: dict, name: str) -> str:
    """A difference cell with the sample sizes of both arms."""
    if a.get(f"{name}_n") is None or b.get(f"{name}_n") is None:
        return text
    return fmt.followed(text, f", n = {a[f'{name}_n']:,} vs {b[f'{name}_n']:,}")


def _sides(ctx: Context, column: str, title: str) -> list[Block]:
    """Balance of the sides: mean score and win rate per side, and tests of equality."""
    res = ctx.data.results.filter(pl.col(column).is_not_null()).with_columns(win=win_share())
    scores = mean_table(res, ["arm", column], {"total": pl.col("total")})
    wins = rate_table(res, ["arm", "n_players", column], {"win": pl.col("win")})
    table = scores.join(wins, on=["arm", column])
    blocks: list[Block] = [
        Heading(3, f"{title}: balance"),
        Para(
            "Mean final score and win rate of players on each side; the fair win rate is "
            "1/players. Tests: equal mean score across sides (between-groups chi-square) and "
            "wins in proportion to appearances (goodness of fit)."
        ),
    ]
    for arm in ctx.data.arm_labels:
        part = table.filter(pl.col("arm") == arm)
        if part.height < 2:
            continue
        s1, df1, p1 = between_groups(
            part["total_n"].to_list(), part["total_mean"].to_list(), part["total_sd"].to_list()
        )
        s2, df2, p2 = chi2_gof(
            part["win_k"].to_list(), (part["win_n"] / part["n_players"]).to_list()
        )
        rows = [
            [r[column], str(r["total_n"]), fmt.ci(r, "total"), fmt.pct(r, "win")]
            for r in part.iter_rows(named=True)
        ]
        blocks += [
            Para(
                f"{arm}: scores χ²({df1}) = {s1:.1f}, {fmt.pval(p1)}; wins χ²({df2}) = "
                f"{s2:.1f}, {fmt.pval(p2)} — "
                + ("the sides are not balanced." if min(p1, p2) < ALPHA else "no clear imbalance.")
            ),
            Table(["side", "players", "final score", "win rate"], rows),
        ]
    fig = ctx.figure(f"{column}s")
    sides = sorted(table[column].unique().to_list())
    series = [
        figures.series(arm, part, column, sides, "total", ctx.colour(arm))
        for arm, part in ((a, table.filter(pl.col("arm") == a)) for a in ctx.data.arm_labels)
        if not part.is_empty()
    ]
    figures.intervals(
        fig,
        f"{title}: mean final score by side",
        sides,
        series,
        "mean final score (points, 95% CI)",
    )
    blocks.append(Figure(fig.name, f"{title}: mean final score of the players on each side."))
    return blocks


def _side_choice(ctx: Context) -> list[Block]:
    """Which side of the dealt expansion board players choose."""
    boards = expansion_boards(ctx.data).lazy()
    chosen = ctx.data.results.filter(pl.col("expansion_side").is_not_null()).join(
        boards, on=["run", "expansion_side"]
    )
    table = rate_table(
        chosen.join(boards.rename({"expansion_side": "option"}), on=["run", "board"]).with_columns(
            picked=pl.col("option") == pl.col("expansion_side")
        ),
        ["arm", "board", "option"],
        {"pick": pl.col("picked")},
    )
    rows = [
        [r["arm"], str(r["board"]), r["option"], str(r["pick_n"]), fmt.pct(r, "pick")]
        for r in table.iter_rows(named=True)
    ]
    return [
        Heading(3, "Expansion sides: which side players choose"),
        Para(
            "Share of the times a board was dealt that each of its sides was chosen "
            "(a strategy decision); 50% means no preference."
        ),
        Table(["arm", "board", "side", "times dealt", "chosen"], rows),
    ]

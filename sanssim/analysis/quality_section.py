"""Report section: how close and how open the games are, per arm, from the turn log.

The measures and their exact definitions are `quality`'s; this section runs them on every arm
with a turn log, says which points the running score holds in these games (found from the
logs, not assumed), and draws the arms side by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from sanssim.analysis import figures, fmt, quality
from sanssim.analysis.dataset import Dataset
from sanssim.analysis.document import Block, Figure, Heading, Para, Table
from sanssim.analysis.section import FEW_ARMS, Context, Section, skipped_without_turns

TITLE = "Game quality"
BY = ["run"]  # within one arm; a string key would slow every join
TURN_COLUMNS = [*BY, "game_id", "turn", "round", "seat", "score"]  # what `quality` reads
PANELS = {
    "lead_changes": ("lead changes per game", "mean"),
    "worst_deficit": ("winner's worst deficit (points)", "mean"),
    "margin": ("final margin (points)", "mean"),
    "drama": ("drama (0-1)", "mean"),
    "decisiveness": ("decisiveness (0-1)", "mean"),
    "comeback": ("comeback rate (%)", "p"),
}


def teams(data: Dataset, arm: str) -> Mapping[int, Sequence[int]] | None:
    """Seat -> side by player count, from the component data the arm's runs recorded
    (`teams`); None when the game has no teams."""
    runs = data.arms.filter(pl.col("arm") == arm)["runs"].item()
    return quality.manifest_teams(data.runs[runs[0]].manifest)


def _words(names: Sequence[str]) -> str:
    spoken = [n.replace("_", " ") for n in names]
    return " + ".join(spoken) if spoken else "nothing"


def _running_text(held: dict[str, quality.RunningScore | None]) -> str:
    """What the running score is, from what it equals at the end of every game."""
    groups: dict[quality.RunningScore | None, list[str]] = {}
    for arm, found in held.items():
        groups.setdefault(found, []).append(arm)
    parts = []
    for found, arms in groups.items():
        where = f" ({'; '.join(arms)})" if len(groups) > 1 else ""
        if found is None:
            parts.append(
                f"At the end of a game the running score matches no sum of the game's sources "
                f"of points{where}."
            )
            continue
        text = f"At the end of every game it equals {_words(found.during)}{where}"
        if found.at_end:
            text += (
                f": {_words(found.at_end)} come only at the end, so they count in the total "
                "(which decides the winner and the final margin) but not in the lead, the "
                "deficit, decisiveness or comebacks."
            )
        else:
            text += ": every point is scored during play."
        parts.append(text)
    return " ".join(parts)


def build(ctx: Context) -> Section:
    data = ctx.data
    skipped = skipped_without_turns(ctx, TITLE)
    if data.turns is None:
        return Section([], skipped)
    missing = set(data.arms_without_turns())
    arms = [a for a in data.arm_labels if a not in missing]
    per_game, held, team_arms = [], {}, []
    for arm in arms:
        sides = teams(data, arm)
        # Read once for both measures: the turn log is the report's largest table.
        turns = data.turns.filter(pl.col("arm") == arm).select(*TURN_COLUMNS).collect()
        results = data.results.filter(pl.col("arm") == arm)
        games = quality.per_game(turns, results, sides, BY, data.game_type.lowest_wins)
        per_game.append(games.with_columns(arm=pl.lit(arm)))
        held[arm] = quality.running_sources(turns, results, data.game_type.sources, sides, BY)
        n_players = games["n_players"].unique().to_list()
        if sides and any(n in sides and len(set(sides[n])) < n for n in n_players):
            team_arms.append(arm)
    table = quality.summary(pl.concat(per_game), ["arm"])
    blocks: list[Block] = [
        Heading(2, TITLE),
        Para(
            "How close and how open the games are, per game, from the turn log (n = games with "
            "a turn log). Running score: the turn log's `score`, the acting side's score after "
            "each turn, carried forward for every side. "
            + _running_text(held)
            + " Lead changes: times the sole leader changed (ties keep the last leader). "
            "Worst deficit: the winner's largest gap to the best other side. Final margin: "
            "the winner's total minus the best other side's (0 for a shared win). Drama: "
            "worst deficit / (worst deficit + margin), 0 when the winner never trailed, near 1 "
            "when a deep deficit became a narrow win. Decisiveness: the share of the game, "
            "counted from the end, in which the winner already led for good (1: led from the "
            "first turn; 0: not the sole leader on running score after the last turn). "
            "Comeback: the winner was alone in last place after some turn of round 2 or later "
            "(Wilson interval). Shared wins average the winner-based measures over the winners."
            + (
                " The lowest total wins: leading is having fewer points, so every gap is "
                "counted that way round (the winner's deficit is how far above the best other "
                "side it was, the final margin how far below it finished)."
                if data.game_type.lowest_wins
                else ""
            )
        ),
    ]
    if team_arms:
        blocks.append(
            Para(
                "Teams play as one side, with the team's score, in: "
                + "; ".join(team_arms)
                + " (sides from the component data's `teams`)."
            )
        )
    rows = [
        [
            r["arm"],
            str(r["turns_n"]),
            fmt.ci(r, "turns"),
            fmt.ci(r, "lead_changes", 2),
            fmt.ci(r, "worst_deficit"),
            fmt.ci(r, "margin"),
            fmt.ci(r, "drama", 2),
            fmt.ci(r, "decisiveness", 2),
            fmt.pct(r, "comeback"),
        ]
        for r in table.iter_rows(named=True)
    ]
    blocks.append(
        Table(
            [
                "arm",
                "games",
                "turns",
                "lead changes",
                "worst deficit",
                "final margin",
                "drama",
                "decisiveness",
                "comeback rate",
            ],
            rows,
        )
    )
    blocks += _figure(ctx, arms, table)
    findings = [
        f"Game quality, {r['arm']} ({r['turns_n']} games): the lead changes "
        f"{fmt.ci(r, 'lead_changes', 2)} times per game, the winner trails by at most "
        f"{fmt.ci(r, 'worst_deficit')} points, and {fmt.pct(r, 'comeback')} of winners come "
        "back from last place."
        for r in table.iter_rows(named=True)
    ]
    by_arm = table.to_dicts()
    summary = [
        f"Game quality ({len(by_arm)} arms, {fmt.counts(by_arm, 'turns_n')}): the lead "
        "changes "
        f"{fmt.span(by_arm, 'lead_changes_mean', lambda r: fmt.ci(r, 'lead_changes', 2))} "
        "times per game; winners come back from last place in "
        f"{fmt.span(by_arm, 'comeback_p', lambda r: fmt.pct(r, 'comeback'))} of games."
    ]
    many = len(by_arm) > FEW_ARMS
    return Section(blocks, skipped, findings, summary if many else None)


def _figure(ctx: Context, arms: list[str], table: pl.DataFrame) -> list[Block]:
    """One panel per measure, one point per arm."""
    keys = [str(i) for i in range(1, len(arms) + 1)]
    frame = table.with_columns(key=pl.Series([str(arms.index(a) + 1) for a in table["arm"]]))
    # A Wilson bound at a rate of 0 or 1 can miss the estimate by a rounding error, which
    # matplotlib refuses as a negative error bar.
    frame = frame.with_columns(
        bound
        for name, (_, centre) in PANELS.items()
        for bound in (
            pl.min_horizontal(f"{name}_lo", f"{name}_{centre}").alias(f"{name}_lo"),
            pl.max_horizontal(f"{name}_hi", f"{name}_{centre}").alias(f"{name}_hi"),
        )
    )
    panels = {
        title: [
            figures.series(
                f"{key}: {arm}",
                frame.filter(pl.col("arm") == arm),
                "key",
                keys,
                name,
                ctx.colour(arm),
                100 if centre == "p" else 1,
                centre,
            )
            for key, arm in zip(keys, arms, strict=True)
        ]
        for name, (title, centre) in PANELS.items()
    }
    fig = ctx.figure("game_quality")
    figures.panels(
        fig, "Game quality by arm (95% CI)", keys, panels, "arm (numbered as in the legend)"
    )
    return [
        Figure(
            fig.name,
            "Game quality per arm: lead changes, the winner's worst deficit, final margin, "
            "drama, decisiveness and comeback rate, each with its 95% interval.",
        )
    ]

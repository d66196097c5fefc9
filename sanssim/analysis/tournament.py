"""Who beats whom: pairwise win rates with intervals, and a rating per strategy.

Every pair of seats held by different strategies in a game is one meeting: the
better rank scores 1, a shared rank 0.5 each. Ratings are a Bradley-Terry fit
of those meetings on the Elo scale (400 points = 10:1 odds), centred on 0; one
drawn virtual meeting per pair keeps a strategy that never wins finite.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sanssim.analysis import clustered
from sanssim.analysis.load import discover, open_run
from sanssim.analysis.stats import proportion, wilson

COLUMNS = ["game_id", "seat", "strategy", "rank"]
ELO = 400 / math.log(10)
FIT_ROUNDS = 500
PRIOR_MEETINGS = 1  # drawn virtual meetings added to every pair that met


@dataclass(frozen=True)
class Standings:
    """`pairs`: one row per ordered pair (strategy, opponent) with meetings, win rate
    and its 95% interval; `ratings`: strategy, rating, meetings."""

    pairs: pl.DataFrame
    ratings: pl.DataFrame


def meetings(paths: list[Path]) -> pl.LazyFrame:
    """Every meeting of two different strategies, once from each side."""
    frames = []
    for i, path in enumerate(discover(paths)):
        run = open_run(path, COLUMNS)
        frames.append(run.results.select(COLUMNS).with_columns(pl.lit(i).alias("arm")))
    return clustered.meetings(pl.concat(frames), game=("arm", "game_id")).select(
        "strategy", "opponent", "points"
    )


def standings(paths: list[Path]) -> Standings:
    pairs = (
        meetings(paths)
        .group_by("strategy", "opponent")
        .agg(proportion(pl.col("points"), "win"))
        .with_columns(wilson("win"))
        .sort("strategy", "opponent")
        .collect()
    )
    return Standings(pairs, _ratings(pairs))


def _ratings(pairs: pl.DataFrame) -> pl.DataFrame:
    """Bradley-Terry strengths by the MM algorithm (Hunter 2004), on the Elo scale."""
    names = sorted(set(pairs["strategy"]))
    rows = list(pairs.iter_rows(named=True))
    wins = {(r["strategy"], r["opponent"]): r["win_k"] + PRIOR_MEETINGS / 2 for r in rows}
    games = {(r["strategy"], r["opponent"]): r["win_n"] + PRIOR_MEETINGS for r in rows}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(FIT_ROUNDS):
        updated = {}
        for a in names:
            won = sum(wins.get((a, b), 0.0) for b in names if b != a)
            weight = sum(
                games.get((a, b), 0) / (strength[a] + strength[b]) for b in names if b != a
            )
            updated[a] = max(won, 1e-9) / weight if weight else strength[a]
        centre = math.exp(sum(math.log(v) for v in updated.values()) / len(names))
        strength = {a: v / centre for a, v in updated.items()}
    return pl.DataFrame(
        {
            "strategy": names,
            "rating": [ELO * math.log(strength[a]) for a in names],
            "meetings": [
                sum(games.get((a, b), PRIOR_MEETINGS) - PRIOR_MEETINGS for b in names if b != a)
                for a in names
            ],
        }
    ).sort("rating", descending=True)


def format_standings(result: Standings, label: Callable[[str], str] = str) -> str:
    """The win-rate matrix (row beats column) and the ratings, as Markdown tables;
    `label` shortens strategy specs for the reader."""
    names = result.ratings["strategy"].to_list()
    cell = {
        (r["strategy"], r["opponent"]): f"{r['win_p']:.3f} [{r['win_lo']:.3f}, {r['win_hi']:.3f}]"
        f" n={int(r['win_n'])}"
        for r in result.pairs.iter_rows(named=True)
    }
    lines = [
        "Win rate of the row strategy against the column strategy "
        "(shared wins count 1/2), 95% Wilson interval, meetings n:",
        "",
        "| strategy | " + " | ".join(label(n) for n in names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for a in names:
        row = [cell.get((a, b), "—") if a != b else "—" for b in names]
        lines.append(f"| {label(a)} | " + " | ".join(row) + " |")
    lines += [
        "",
        "Rating (Bradley-Terry on the Elo scale, mean 0; one drawn virtual meeting per pair):",
        "",
        "| strategy | rating | meetings |",
        "|---|---|---|",
    ]
    for r in result.ratings.iter_rows(named=True):
        lines.append(f"| {label(r['strategy'])} | {r['rating']:+.0f} | {r['meetings']} |")
    return "\n".join(lines)

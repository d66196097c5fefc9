"""Who beats whom: pairwise win rates with intervals, and a rating per strategy.

Every pair of seats held by different strategies in a game is one meeting: the
better rank scores 1, a shared rank 0.5 each. Teammates (a game's `team`
column, in a game played in teams) always share their rank, so their meetings
say nothing about strength and are left out. At 3-4 players a game holds
several meetings, and every seating of a tournament plays the same deals, so
meetings are not independent: the interval is the cluster-robust one of
`clustered.pairwise`, with every game of one deal (one `game_id`, across the
seatings) as a cluster. Ratings are a Bradley-Terry fit of the meetings on the
Elo scale (400 points = 10:1 odds), centred on 0; one drawn virtual meeting per
pair keeps a strategy that never wins finite.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sanssim.analysis import clustered
from sanssim.analysis.load import discover, open_run

COLUMNS = ["game_id", "seat", "strategy", "rank"]
GAME = ("arm", "game_id")  # one game: a seating's arm and the deal
DEAL = ("game_id",)  # one cluster: the deal, shared by every seating
ELO = 400 / math.log(10)
FIT_ROUNDS = 500
PRIOR_MEETINGS = 1  # drawn virtual meetings added to every pair that met
LISTED_SEATINGS = 30  # printed one by one up to this many


@dataclass(frozen=True)
class Standings:
    """`pairs`: one row per ordered pair (strategy, opponent) with `games` (deals), `win_n`
    meetings, `deff` design effect, win rate and its cluster-robust 95% interval;
    `ratings`: strategy, rating, meetings; `seatings`: one row per seating played, its
    strategies by seat (`lineup`) and its number of games."""

    pairs: pl.DataFrame
    ratings: pl.DataFrame
    seatings: pl.DataFrame


def _results(paths: list[Path]) -> pl.LazyFrame:
    """Results rows of every seating, each with its `arm` (and `team`, null when the game
    has none)."""
    frames = []
    for i, path in enumerate(discover(paths)):
        run = open_run(path, COLUMNS)
        names = run.results.collect_schema().names()
        team = pl.col("team").cast(pl.Int64) if "team" in names else pl.lit(None, pl.Int64)
        frames.append(run.results.select(*COLUMNS, team.alias("team")).with_columns(arm=pl.lit(i)))
    return pl.concat(frames)


def _without_teammates(results: pl.LazyFrame) -> pl.LazyFrame:
    """Every meeting of two strategies on different sides, once from each side, with its
    `arm` and `game_id`: `clustered.meetings` minus the meetings of teammates. Those always
    score 0.5 and cannot be told apart from other drawn meetings of the same two strategies
    in the same game, so as many drawn meetings as there are teammate pairs are dropped."""
    meets = clustered.meetings(results, GAME)
    key = [*GAME, "strategy", "opponent"]
    mates = (
        clustered.meetings(results.filter(pl.col("team").is_not_null()), (*GAME, "team"))
        .group_by(key)
        .agg(mates=pl.len())
    )
    drawn = pl.col("points") == 0.5
    nth_draw = pl.int_range(pl.len()).over([*key, "points"])
    return (
        meets.join(mates, on=key, how="left")
        .filter(~drawn | (nth_draw >= pl.col("mates").fill_null(0)))
        .select(*key, "points")
    )


def standings(paths: list[Path]) -> Standings:
    return standings_of(_results(paths))


def standings_of(results: pl.LazyFrame) -> Standings:
    """Standings from results rows (`arm`, `game_id`, `seat`, `strategy`, `rank`, `team`)
    of every seating."""
    seatings = (
        results.group_by("arm", "game_id")
        .agg(lineup=pl.col("strategy").sort_by("seat"))
        .group_by("arm", "lineup")
        .agg(games=pl.len())
        .sort("arm")
        .collect()
    )
    pairs = clustered.pairwise(_without_teammates(results), cluster=DEAL)
    return Standings(pairs, _ratings(pairs), seatings)


def describe_seatings(lineups: Sequence[Sequence[str]]) -> str:
    """What a set of seatings holds, by how many seats each strategy takes:
    `14 seatings, by seats per strategy: 3+1 (8), 2+2 (6)`."""
    shapes = Counter(tuple(sorted(Counter(seats).values(), reverse=True)) for seats in lineups)
    parts = ", ".join(
        f"{'+'.join(map(str, shape))} ({shapes[shape]})"
        for shape in sorted(shapes, key=lambda s: [-x for x in s])
    )
    return f"{len(lineups)} seating{'s' * (len(lineups) != 1)}, by seats per strategy: {parts}"


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
    ).sort("rating", "strategy", descending=[True, False])


def format_standings(result: Standings, label: Callable[[str], str] = str) -> str:
    """What was played, the win-rate matrix (row beats column) and the ratings, as
    Markdown; `label` shortens strategy specs for the reader."""
    names = result.ratings["strategy"].to_list()
    lineups = result.seatings["lineup"].to_list()
    games = sorted(set(result.seatings["games"]))
    per_seating = str(games[0]) if len(games) == 1 else f"{games[0]}-{games[-1]}"
    cell = {
        (r["strategy"], r["opponent"]): f"{r['win_p']:.3f} [{r['win_lo']:.3f}, {r['win_hi']:.3f}]"
        f" n={int(r['win_n'])}/{r['games']}"
        for r in result.pairs.iter_rows(named=True)
    }
    lines = [
        f"Played {describe_seatings(lineups)}; {per_seating} games each, every seating on "
        "the same deals:",
        "",
        *(
            [f"- {' | '.join(label(s) for s in seats)}" for seats in lineups]
            if len(lineups) <= LISTED_SEATINGS
            else [f"- (more than {LISTED_SEATINGS}: the arms of the run directory name them)"]
        ),
        "",
        "Win rate of the row strategy against the column strategy (shared wins count 1/2; "
        "in team games teammates do not meet), 95% cluster-robust interval over deals (the "
        "games of one deal in every seating form one cluster); n = meetings/deals:",
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

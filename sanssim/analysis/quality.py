"""Game quality from the columns every game shares: how often the lead changes, how far
behind the eventual winner fell, how early the game was decided, and by how much.

Running scores. The turn log gives, after each turn, the acting side's running score. A
side's score is taken to change only on its own turns, so every side's score after every
turn is its last logged score (0 before its first turn). A side is a seat, or a team in team
games (`teams`, as in the manifest: player count -> side of each seat). Running scores are
what the turn log shows: points scored only at the end (missions, flower points) are not in
them, but are in `total`, which decides the winner and the final margin.

Per game (the winner is the side whose results rows have `winner`; when k sides share the
win, each winner-based measure is the mean over them):

- `turns`: turns logged.
- `lead_changes`: times the leader changed. The leader after a turn is the side with the
  strictly highest running score; while the top is tied nobody leads and the last leader is
  kept, so A leads, A and B tie, A leads again is no change; A leads, tie, B leads is one.
  Taking the first lead is not a change.
- `worst_deficit`: the winner's worst deficit, max over turns of (best other side's running
  score - winner's running score), and 0 if the winner was never behind (points).
- `margin`: winner's total minus the best other side's total (0 for a shared win).
- `drama`: worst_deficit / (worst_deficit + margin), in [0, 1]: 0 when the winner was never
  behind, 1/2 when they were once as far behind as they finished ahead, near 1 when a deep
  deficit turned into a narrow win (1 for a win at margin 0 after trailing).
- `decisiveness`: share of the turns, counted from the end, after each of which the winner
  already led for good (sole leader from there to the last turn): 1 = led from the first turn
  on, 0 = not the sole leader on running score after the last turn (decided by end scoring).
- `comeback`: 1 if the winner was strictly last (below every other side) after some turn
  of round 2 or later, else 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import polars as pl

from sanssim.analysis.stats import mean_table, rate_table

MEANS = ["turns", "lead_changes", "worst_deficit", "margin", "drama", "decisiveness"]
RATES = ["comeback"]


def manifest_teams(manifest: Mapping) -> Mapping[int, Sequence[int]] | None:
    """Seat -> side by player count, from the component data a run's manifest recorded
    (`teams`); None when the game has no teams."""
    components = manifest.get("components")
    found = components.get("teams") if isinstance(components, dict) else None
    return {int(n): list(sides) for n, sides in found.items()} if found else None


def sided(frame: pl.LazyFrame, teams: Mapping[int, Sequence[int]] | None) -> pl.LazyFrame:
    """Add `side`: the seat's team where `teams` names one, else the seat itself."""
    if not teams:
        return frame.with_columns(side=pl.col("seat").cast(pl.Int64))
    table = pl.LazyFrame(
        [(int(n), seat, side) for n, sides in teams.items() for seat, side in enumerate(sides)],
        schema={"n_players": pl.Int64, "seat": pl.Int64, "team_side": pl.Int64},
        orient="row",
    )
    keyed = frame.with_columns(
        pl.col("n_players").cast(pl.Int64).alias("_n"), pl.col("seat").cast(pl.Int64).alias("_s")
    )
    return (
        keyed.join(table, left_on=["_n", "_s"], right_on=["n_players", "seat"], how="left")
        .with_columns(side=pl.coalesce("team_side", "_s"))
        .drop("_n", "_s", "team_side")
    )


def margin(lowest_wins: bool = False) -> pl.Expr:
    """Per game (as an aggregation over rows with `side`, see `quality.sided`): how far the
    winning total is ahead of the best total of the other sides, in points, and 0 when the
    winning total is shared between sides (fewer points ahead where the lowest total wins).
    Teammates share a total, so sides rather than seats are counted at the top; the
    `winner` flags are not used, since a shared win marks every side at the top."""
    total = pl.col("total")
    top = winning(lowest_wins)
    shared = pl.col("side").filter(total == top).n_unique() > 1
    if lowest_wins:
        ahead = total.filter(total > top).min() - top
    else:
        ahead = top - total.filter(total < top).max()
    return pl.when(shared).then(0).otherwise(ahead).fill_null(0)


def winning(lowest_wins: bool) -> pl.Expr:
    """Per game: the winning total."""
    return pl.col("total").min() if lowest_wins else pl.col("total").max()


def _with_others(frame: pl.LazyFrame, value: str, group: list[str]) -> pl.LazyFrame:
    """Add `best_other` and `worst_other`: the best and worst `value` among the other rows of
    each row's group. Plain aggregations joined back: filters or windows inside the groups
    cost several times as much over the many small groups of a turn log."""
    v = pl.col(value)
    top, bottom = pl.col("_top"), pl.col("_bottom")
    marked = frame.join(frame.group_by(group).agg(_top=v.max(), _bottom=v.min()), on=group)
    marked = marked.with_columns(_under=pl.when(v < top).then(v), _over=pl.when(v > bottom).then(v))
    extremes = marked.group_by(group).agg(
        _second=pl.col("_under").max(),
        _second_bottom=pl.col("_over").min(),
        _n_top=(v == top).sum(),
        _n_bottom=(v == bottom).sum(),
    )
    alone_top = (v == top) & (pl.col("_n_top") == 1)
    alone_bottom = (v == bottom) & (pl.col("_n_bottom") == 1)
    return (
        marked.join(extremes, on=group)
        .with_columns(
            best_other=pl.when(alone_top).then(pl.col("_second")).otherwise(top),
            worst_other=pl.when(alone_bottom).then(pl.col("_second_bottom")).otherwise(bottom),
        )
        .drop("_top", "_bottom", "_under", "_over", "_second", "_second_bottom")
        .drop("_n_top", "_n_bottom")
    )


def per_game(
    turns: pl.LazyFrame | pl.DataFrame,
    results: pl.LazyFrame | pl.DataFrame,
    teams: Mapping[int, Sequence[int]] | None = None,
    by: Sequence[str] = (),
    lowest_wins: bool = False,
) -> pl.DataFrame:
    """Quality measures of every game with a turn log (see the module docstring). `by`:
    extra columns identifying a game's run or arm, present in both frames. In a game where
    the lowest total wins, being ahead is having fewer points: the measures (all gaps
    between sides) are taken on the totals and scores turned round, so they stay positive.

    The sides' totals are a small table for polars; the running scores (every side after
    every turn: millions of cells) are numpy arrays walked with cumulative maxima and
    `reduceat`, which costs a small part of the joins, windows and sorts it replaces."""
    key = [*by, "game_id"]
    ahead = -1 if lowest_wins else 1
    res = sided(
        results.lazy()
        .select(*key, "seat", "total", "winner", "n_players")
        .with_columns(pl.col("total") * ahead),
        teams,
    )
    sides = (
        _with_others(
            res.group_by(*key, "side").agg(
                pl.col("total").first().cast(pl.Float64), pl.col("winner").any().alias("won")
            ),
            "total",
            key,
        )
        .with_columns(margin=pl.col("total") - pl.col("best_other"))
        .join(res.group_by(key).agg(pl.col("n_players").first()), on=key)
        .sort(*key, "side")
        .collect()
    )
    games = sides.select(*key, "n_players").unique(key, maintain_order=True).with_row_index("g")
    # In side order (kept through the join): a side's column, and the order in which its
    # game's winners are averaged, must not depend on the join's order of rows.
    sides = sides.join(games.select(*key, "g"), on=key, maintain_order="left").with_columns(
        column=pl.int_range(pl.len()).over("g").cast(pl.Int64)
    )
    acting = (
        sided(
            turns.lazy()
            .select(*key, "turn", "round", "seat", "score")
            .with_columns(pl.col("score") * ahead)
            .join(games.lazy().select(*key, "g", "n_players"), on=key),
            teams,
        )
        .join(sides.lazy().select(*key, "side", "column"), on=[*key, "side"], how="left")
        .sort("g", "turn")
        .select("g", "round", "column", "score")
        .collect()
    )
    schema = {**games.drop("g").schema, "turns": pl.UInt32, "lead_changes": pl.UInt32}
    schema |= {m: pl.Float64 for m in (*MEANS, *RATES) if m not in schema}
    if acting.is_empty():
        return pl.DataFrame(schema=schema).select(*key, "n_players", *MEANS, *RATES)
    grid = _Grid(acting, sides.group_by("g").len().sort("g")["len"].to_numpy())
    winners = sides.filter("won").with_columns(rank=pl.int_range(pl.len()).over("g"))
    measures = _winner_means(grid, winners)
    return (
        games.filter(pl.Series(grid.played))
        .with_columns(
            turns=pl.Series(grid.turns, dtype=pl.UInt32),
            lead_changes=pl.Series(grid.lead_changes(), dtype=pl.UInt32),
            **{name: pl.Series(values, dtype=pl.Float64) for name, values in measures.items()},
        )
        .filter(pl.col("winners") > 0)
        .with_columns(pl.col("worst_deficit", "margin").fill_nan(None))
        .select(*key, "n_players", *MEANS, *RATES)
        .sort(key)
    )


class _Grid:
    """Every side's running score after every turn of the games with a turn log: row i is a
    logged turn (games in order, turns in order within a game), column s the game's s-th side
    (by side number). A side's score is its last logged score, 0 before its first turn."""

    def __init__(self, acting: pl.DataFrame, sides_per_game: np.ndarray) -> None:
        game = acting["g"].to_numpy()
        self.game = game  # each row's game
        rows = np.arange(len(game))
        self.first = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])  # each game's row 0
        self.played = np.zeros(len(sides_per_game), dtype=bool)
        self.played[game[self.first]] = True
        self.turns = np.diff(np.r_[self.first, len(game)])
        self.start = np.repeat(self.first, self.turns)
        self.position = rows - self.start
        n_sides = sides_per_game[game]
        # Column-major, every (turn, side) array: a side's column contiguous, so that the
        # reductions across a row's sides run along columns (a maximum over four sides in a
        # row-major array took 17 times as long).
        exists = (np.arange(int(sides_per_game.max()))[:, None] < n_sides[None, :]).T
        known = exists & (n_sides >= 2)[:, None]  # a lone side has no other to lead or trail
        column = acting["column"].fill_null(-1).to_numpy()
        score = acting["score"].cast(pl.Float64).to_numpy()
        logged = (column >= 0) & ~np.isnan(score)
        last = np.full(exists.shape, -1, order="F")
        last[rows[logged], column[logged]] = rows[logged]
        last = np.maximum.accumulate(last, axis=0)
        carried = last >= self.start[:, None]
        self.score = np.zeros(exists.shape, order="F")
        self.score[carried] = score[last[carried]]
        self.best_other = _others(self.score, exists, np.max, -np.inf)
        worst_other = _others(self.score, exists, np.min, np.inf)
        self.lead = known & (self.score > self.best_other)
        self.behind = known & ~(self.score > self.best_other)
        self.last = known & (self.score < worst_other)
        self.known = known
        self.late = acting["round"].cast(pl.Float64).fill_null(0).to_numpy() >= 2

    def lead_changes(self) -> np.ndarray:
        """Times the sole leader changed, per game; a tie keeps the last leader."""
        rows = np.arange(len(self.start))
        leader = np.where(self.lead.any(axis=1), self.lead.argmax(axis=1), -1)
        since = np.maximum.accumulate(np.where(leader >= 0, rows, -1))
        held = np.where(since >= self.start, leader[np.maximum(since, 0)], -1)
        previous = np.r_[-1, held[:-1]]
        change = (self.position > 0) & (previous >= 0) & (held != previous)
        return np.add.reduceat(change.astype(np.int64), self.first)

    def winner(self, side: np.ndarray) -> dict[str, np.ndarray]:
        """Deficit, decisiveness and comeback of column `side[g]` of each played game g
        (-1: none; its values are then not used)."""
        column = side[self.game]
        usable = column >= 0
        # Row r's cell of that column, read from the column-major arrays flattened (one
        # index, not a row and a column: a third of the time).
        cell = np.maximum(column, 0) * len(column) + np.arange(len(column))

        def at(values: np.ndarray) -> np.ndarray:
            return values.ravel(order="F")[cell]

        gap = np.where(usable & at(self.known), at(self.best_other) - at(self.score), -np.inf)
        deficit = np.maximum.reduceat(gap, self.first)
        behind = np.where(usable & at(self.behind), self.position, -1)
        behind_at = np.maximum.reduceat(behind, self.first)
        came_back = usable & at(self.last) & self.late
        return {
            "deficit": np.where(np.isneginf(deficit), np.nan, np.maximum(deficit, 0.0)),
            "decisiveness": (self.turns - behind_at - 1) / self.turns,
            "comeback": np.maximum.reduceat(came_back.astype(np.float64), self.first),
        }


def _winner_means(grid: _Grid, winners: pl.DataFrame) -> dict[str, np.ndarray]:
    """Per played game the winner-based measures, averaged over its winning sides (a
    deficit or margin that cannot be measured, of a lone side, is left out), and `winners`."""
    games = len(grid.played)
    played = grid.played
    sums = {m: np.zeros(int(played.sum())) for m in ("worst_deficit", "margin", "drama")}
    sums |= {m: np.zeros(int(played.sum())) for m in ("decisiveness", "comeback")}
    counts = {m: np.zeros(int(played.sum())) for m in ("worst_deficit", "margin", "winners")}
    for k in range(int(winners["rank"].max() or 0) + 1 if winners.height else 0):
        chosen = winners.filter(pl.col("rank") == k)
        side = np.full(games, -1)
        side[chosen["g"].to_numpy()] = chosen["column"].to_numpy()
        paid = np.full(games, np.nan)
        paid[chosen["g"].to_numpy()] = chosen["margin"].fill_null(np.nan).to_numpy()
        has, paid = side[played] >= 0, paid[played]
        measured = grid.winner(side)
        deficit = measured["deficit"]
        with np.errstate(invalid="ignore", divide="ignore"):
            drama = np.where(deficit > 0, deficit / (deficit + paid), 0.0)
        values = {"worst_deficit": deficit, "margin": paid, "drama": drama}
        values |= {m: measured[m] for m in ("decisiveness", "comeback")}
        for name, value in values.items():
            ok = has & ~np.isnan(value) if name in counts else has
            sums[name][ok] += value[ok]
            if name in counts:
                counts[name][ok] += 1
        counts["winners"][has] += 1
    means = {}
    for name, total in sums.items():
        n = counts.get(name, counts["winners"])
        means[name] = total / np.where(n > 0, n, np.nan)
    return {**means, "winners": counts["winners"]}


def _others(values: np.ndarray, exists: np.ndarray, pick, empty: float) -> np.ndarray:
    """Each cell's best (`np.max`) or worst (`np.min`) among the other sides of its row."""
    masked = np.where(exists, values, empty)
    top = pick(masked, axis=1, keepdims=True)
    at_top = exists & (masked == top)
    alone = at_top & (at_top.sum(axis=1, keepdims=True) == 1)
    second = pick(np.where(at_top, empty, masked), axis=1, keepdims=True)
    return np.where(alone, second, top)


def summary(games: pl.DataFrame, by: Sequence[str] = ()) -> pl.DataFrame:
    """Per arm (`by`) and player count: mean of each measure with its 95% t interval
    (`<m>_n/_mean/_sd/_lo/_hi`) and the comeback rate with its Wilson interval
    (`comeback_n/_k/_p/_lo/_hi`)."""
    group = [*by, "n_players"]
    frame = games.lazy()
    means = mean_table(frame, group, {m: pl.col(m) for m in MEANS})
    rates = rate_table(frame, group, {r: pl.col(r) for r in RATES})
    return means.join(rates, on=group).sort(group)


@dataclass(frozen=True)
class RunningScore:
    """Which of the game's sources of points the running score holds (`during` play) and
    which score in these games but only at the end (`at_end`)."""

    during: tuple[str, ...]
    at_end: tuple[str, ...]


def running_sources(
    turns: pl.LazyFrame | pl.DataFrame,
    results: pl.LazyFrame | pl.DataFrame,
    sources: Sequence[str],
    teams: Mapping[int, Sequence[int]] | None = None,
    by: Sequence[str] = (),
) -> RunningScore | None:
    """What the running score is made of, found rather than assumed: the largest set of the
    sources that score in some game whose sum equals every side's last logged running score
    in every game with a turn log (None when no set does). The other scoring sources come
    only at the end, so they are in `total` but in none of the running-score measures."""
    key = [*by, "game_id"]
    res = sided(results.lazy().select(*key, "seat", "n_players", *sources), teams)
    sides = res.group_by(*key, "side").agg(pl.col(s).first() for s in sources)
    players = res.group_by(key).agg(pl.col("n_players").first())
    last = (
        sided(turns.lazy().select(*key, "turn", "seat", "score").join(players, on=key), teams)
        .group_by(*key, "side")
        .agg(pl.col("score").sort_by("turn").last().alias("final"))
    )
    frame = sides.join(last, on=[*key, "side"]).collect()
    scoring = [s for s in sources if frame.select((pl.col(s) != 0).any()).item()]
    candidates = [c for k in range(len(scoring), -1, -1) for c in combinations(scoring, k)]
    held = frame.select(
        (pl.col("final") == (pl.sum_horizontal(c) if c else pl.lit(0))).all().alias(str(i))
        for i, c in enumerate(candidates)
    ).row(0)
    during = next((c for c, ok in zip(candidates, held, strict=True) if ok), None)
    if during is None:
        return None
    return RunningScore(during, tuple(s for s in scoring if s not in during))

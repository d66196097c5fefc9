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
    between sides) are taken on the totals and scores turned round, so they stay positive."""
    key = [*by, "game_id"]
    ahead = -1 if lowest_wins else 1
    res = sided(
        results.lazy()
        .select(*key, "seat", "total", "winner", "n_players")
        .with_columns(pl.col("total") * ahead),
        teams,
    )
    sides = _with_others(
        res.group_by(*key, "side").agg(
            pl.col("total").first().cast(pl.Float64), pl.col("winner").any().alias("won")
        ),
        "total",
        key,
    ).with_columns(margin=pl.col("total") - pl.col("best_other"))
    players = res.group_by(key).agg(pl.col("n_players").first())
    acting = sided(
        turns.lazy()
        .select(*key, "turn", "round", "seat", "score")
        .with_columns(pl.col("score") * ahead)
        .join(players, on=key),
        teams,
    )
    grid = (
        acting.select(*key, "turn", "round")
        .join(sides.select(*key, "side"), on=key)
        .join(acting.select(*key, "turn", "side", "score"), on=[*key, "turn", "side"], how="left")
        .sort(*key, "side", "turn")
        .with_columns(
            pl.col("score").cast(pl.Float64).forward_fill().over([*key, "side"]).fill_null(0.0)
        )
    )
    grid = (
        _with_others(grid, "score", [*key, "turn"])
        .with_columns(
            lead=pl.col("score") > pl.col("best_other"),
            last=pl.col("score") < pl.col("worst_other"),
        )
        .collect()
        .lazy()
    )  # collected once: lead changes and the winners' measures both read it
    leader = pl.col("leader").forward_fill().over(key)
    changes = (
        grid.group_by(*key, "turn")
        .agg(pl.col("side").filter(pl.col("lead")).first().alias("leader"))
        .sort(*key, "turn")
        .with_columns(leader=leader)
        .with_columns(
            change=(pl.col("leader") != pl.col("leader").shift(1).over(key)).fill_null(False)
        )
        .group_by(key)
        .agg(turns=pl.len(), lead_changes=pl.col("change").sum())
    )
    position = pl.int_range(pl.len())
    behind_at = position.filter(~pl.col("lead")).max()
    winners = (
        grid.join(sides.filter("won").select(*key, "side", "margin"), on=[*key, "side"])
        .sort(*key, "side", "turn")
        .group_by(*key, "side")
        .agg(
            pl.col("margin").first(),
            (pl.col("best_other") - pl.col("score")).max().clip(lower_bound=0).alias("deficit"),
            ((pl.len() - behind_at.fill_null(-1) - 1) / pl.len()).alias("decisiveness"),
            (pl.col("last") & (pl.col("round") >= 2)).any().cast(pl.Float64).alias("comeback"),
        )
        .with_columns(
            drama=pl.when(pl.col("deficit") > 0)
            .then(pl.col("deficit") / (pl.col("deficit") + pl.col("margin")))
            .otherwise(0.0)
        )
        .group_by(key)
        .agg(
            pl.col("deficit").mean().alias("worst_deficit"),
            *(pl.col(c).mean() for c in ("margin", "drama", "decisiveness", "comeback")),
        )
    )
    return (
        players.join(changes, on=key)
        .join(winners, on=key)
        .select(*key, "n_players", *MEANS, *RATES)
        .sort(key)
        .collect()
    )


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

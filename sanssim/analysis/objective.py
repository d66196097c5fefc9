"""What `sanssim tune` optimises: an objective measured on a candidate's games.

Every objective reads a candidate's games as one row per deal (a game seed, shared by every
candidate measured in the same round) with a few per-deal columns, and is a function of
those columns' means: the win share of the tuned seat against a fixed line-up (`against`,
maximised), the largest gap between a seat's win share and 1/players (`seat-balance`), the
distance of a metric's mean from a target (`target:METRIC=VALUE`), and the spread (largest
minus smallest) of a grouped measure's group means, all minimised, in three forms:
`spread:GROUP` in the measure's unit, `rspread:GROUP` divided by the mean of the group means,
`zspread:GROUP` divided by the pooled standard deviation within groups. Each form can be
lowered without making the groups any more alike: the spread by scaling the measure down (pay
less for every mission), the relative spread by adding the same to every value (pay more for
every mission). The standardised form is unchanged by both (the same affine change moves the
spread and the standard deviation alike), so only a change in how the values are distributed
lowers it; but a measure made nearly constant lowers it too, since little is left to spread.
Read the three together (the tune report shows all of them).

Intervals: `against` is a plain mean, so its interval is the t interval of
`precision.achieved`, and best-minus-default is that of the per-deal paired differences.
The others are maxima and distances of means, whose sampling distributions no formula here
covers; they get percentile bootstrap intervals over deals (seeded, so a tune is
deterministic), and paired differences resample the same deals for both candidates. Such
objectives are biased upwards near zero (the largest of several noisy gaps is larger than
the largest true gap): compare candidates on the same number of games, as tune does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import polars as pl

from sanssim.analysis.order_free import order_free_mean, order_free_sum
from sanssim.analysis.precision import METRICS, achieved, outcomes, seat_of
from sanssim.errors import SanssimError
from sanssim.games.base import GameType

Kind = Literal["against", "seat-balance", "target", "spread", "rspread", "zspread"]
GROUPED = ("spread", "rspread", "zspread")  # on a game's grouped measure (`GameType.groups`)
KEYS = ("deal", "game_id")  # a deal: its master seed's tag and the game index
LENGTH_METRICS = ("turns", "rounds")  # from the turn log when results lack the column
REPLICATES = 1000
_TARGET = re.compile(r"^target:(?P<metric>[A-Za-z0-9_]+)=(?P<value>.+)$")


class ObjectiveError(SanssimError):
    """An objective that cannot be measured for this game."""


@dataclass(frozen=True)
class Objective:
    """A parsed objective. `sign` is +1 when larger is better, -1 when smaller is."""

    text: str
    kind: Kind
    n_players: int
    metric: str = ""
    value: float = 0.0
    group: str = ""
    group_doc: str = ""  # what the grouped measure is, as the game declares it
    results_columns: tuple[str, ...] = ()  # the game's numeric results columns
    lowest_wins: bool = False  # the game's score direction (a margin is then how far below)

    @property
    def sign(self) -> int:
        return 1 if self.kind == "against" else -1

    @property
    def goal(self) -> str:
        return "maximise" if self.sign > 0 else "minimise"

    @property
    def grouped(self) -> bool:
        """Measured on the game's grouped measure `group`."""
        return self.kind in GROUPED

    @property
    def needs_turns(self) -> bool:
        """A game length that only the turn log holds."""
        return (
            self.kind == "target"
            and self.metric in LENGTH_METRICS
            and self.metric not in self.results_columns
        )

    def describe(self) -> str:
        """The objective in words, with its direction."""
        fair = f"{100 / self.n_players:.1f}%"
        return {
            "against": f"win share of the tuned seat, every seat rotation (maximise; fair {fair})",
            "seat-balance": "largest |seat win share - 1/players| over seats (minimise)",
            "target": f"|mean {self.metric} - {self.value:g}| (minimise)",
            "spread": f"largest minus smallest group mean of {self.group}, {self.group_doc} "
            "(minimise)",
            "rspread": f"largest minus smallest group mean of {self.group}, divided by the mean "
            f"of the group means, {self.group_doc} (minimise)",
            "zspread": f"largest minus smallest group mean of {self.group}, divided by the "
            f"pooled standard deviation within groups, {self.group_doc} (minimise)",
        }[self.kind]

    def per_deal(self, parts: Sequence[Part]) -> pl.DataFrame:
        """One row per deal of a candidate's games: the keys and the objective's columns."""
        frames = [self._columns(part).with_columns(deal=pl.lit(part.deal)) for part in parts]
        return pl.concat(frames, how="diagonal_relaxed").fill_null(0.0).sort(KEYS)

    def _columns(self, part: Part) -> pl.DataFrame:
        results = part.results
        if self.kind == "against":
            share = _win_share().filter(pl.col("seat") == part.seat).first().alias("x")
            return results.group_by("game_id").agg(share).collect()
        if self.kind == "seat-balance":
            names = [f"seat{s}_win" for s in range(self.n_players)]
            return outcomes(results, names).rename({n: f"w{s}" for s, n in enumerate(names)})
        if self.kind == "target":
            return self._metric(part).select("game_id", pl.col(self.metric).alias("m"))
        kind = part.groups.collect_schema()["value"]
        value = pl.col("value")
        values = part.groups.group_by("game_id", "group").agg(
            s=order_free_sum(value, kind).cast(pl.Float64),
            c=pl.len().cast(pl.Float64),
            q=order_free_sum(value * value, kind).cast(pl.Float64),
        )
        long = values.unpivot(["s", "c", "q"], index=["game_id", "group"]).with_columns(
            pl.format("{}:{}", "variable", "group").alias("column")
        )
        return long.collect().pivot("column", index="game_id", values="value", sort_columns=True)

    def _metric(self, part: Part) -> pl.DataFrame:
        if self.metric in METRICS:
            return outcomes(part.results, [self.metric], self.lowest_wins)
        if self.metric in self.results_columns:
            kind = part.results.collect_schema()[self.metric]
            value = order_free_mean(pl.col(self.metric), kind).alias(self.metric)
            return part.results.group_by("game_id").agg(value).collect()
        if part.turns is None:
            raise ObjectiveError(f"metric {self.metric!r} needs the turn log")
        length = pl.len() if self.metric == "turns" else pl.col("round").max()
        return (
            part.turns.group_by("game_id").agg(length.cast(pl.Float64).alias(self.metric)).collect()
        )

    def score(self, means: Mapping[str, float]) -> float:
        """The objective from the per-deal columns' means."""
        if self.kind == "against":
            return means["x"]
        if self.kind == "seat-balance":
            return max(abs(means[f"w{s}"] - 1 / self.n_players) for s in range(self.n_players))
        if self.kind == "target":
            return abs(means["m"] - self.value)
        groups = [c[2:] for c in means if c.startswith("s:") and means.get(f"c:{c[2:]}", 0) > 0]
        if not groups:
            return float("nan")
        values = [means[f"s:{g}"] / means[f"c:{g}"] for g in groups]
        spread = max(values) - min(values)
        if self.kind == "spread":
            return spread
        if self.kind == "rspread":
            centre = sum(values) / len(values)
            return spread / centre if centre else float("nan")
        # pooled within-group variance: sum over groups of (sum x^2 - n * mean^2), over n
        pairs = zip(groups, values, strict=True)
        within = sum(means[f"q:{g}"] - means[f"s:{g}"] * mean for g, mean in pairs)
        variance = within / sum(means[f"c:{g}"] for g in groups)
        return spread / variance**0.5 if variance > 0 else float("nan")


@dataclass(frozen=True)
class Part:
    """Games of one arm of a candidate: `deal` tags its master seed; `seat` is the tuned
    seat (against); `groups` the grouped measure's rows (spread)."""

    deal: str
    results: pl.LazyFrame
    turns: pl.LazyFrame | None = None
    seat: int = 0
    groups: pl.LazyFrame | None = None


def _win_share() -> pl.Expr:
    win = pl.col("winner").cast(pl.Float64)
    return win / win.sum()


def parse(text: str | None, against: str | None, game_type: GameType, n_players: int) -> Objective:
    """`--objective TEXT` or `--against SPEC` (which implies the `against` objective);
    one-line ObjectiveErrors for anything else."""
    if against is not None:
        if text not in (None, "against"):
            raise ObjectiveError(f"--against measures win share; drop --objective {text}")
        return Objective("against", "against", n_players)
    if text is None:
        raise ObjectiveError(
            "give --objective (seat-balance, target:METRIC=VALUE, spread:GROUP, rspread:GROUP, "
            "zspread:GROUP) or --against SPEC"
        )
    text = text.strip()
    columns = tuple(
        name
        for name, dtype in game_type.result_schema.items()
        if dtype.is_numeric() and name not in ("game_id", "game_seed", "seat", "n_players", "rank")
    )
    if text == "seat-balance":
        return Objective(text, "seat-balance", n_players)
    if text == "against":
        raise ObjectiveError("the against objective needs --against SPEC")
    match = _TARGET.match(text)
    if match:
        metric = match["metric"]
        known = [*METRICS, *columns, *(m for m in LENGTH_METRICS if m not in columns)]
        if metric not in known:
            raise ObjectiveError(
                f"--objective {text!r}: unknown metric {metric!r} (known: {', '.join(known)})"
            )
        try:
            value = float(match["value"])
        except ValueError:
            raise ObjectiveError(f"--objective {text!r}: the target must be a number") from None
        seat = seat_of(metric)
        if seat is not None and seat >= n_players:
            raise ObjectiveError(
                f"--objective {text!r}: {n_players} players have no seat {seat} "
                f"(seats 0 to {n_players - 1})"
            )
        return Objective(
            text,
            "target",
            n_players,
            metric=metric,
            value=value,
            results_columns=columns,
            lowest_wins=game_type.lowest_wins,
        )
    kind, _, group = text.partition(":")
    if kind in GROUPED and group:
        groups = game_type.groups()
        if group not in groups:
            known = ", ".join(groups) or "none"
            raise ObjectiveError(
                f"--objective {text!r}: {game_type.name} has no group {group!r} (groups: {known})"
            )
        grouped = cast(Kind, kind)
        return Objective(text, grouped, n_players, group=group, group_doc=groups[group].doc)
    raise ObjectiveError(
        f"unknown objective {text!r} "
        "(seat-balance, target:METRIC=VALUE, spread:GROUP, rspread:GROUP, zspread:GROUP, or "
        "--against SPEC)"
    )


@dataclass(frozen=True)
class Estimate:
    """An objective's estimate with its 95% interval, over `n` deals."""

    estimate: float
    lo: float
    hi: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "lo": self.lo, "hi": self.hi, "n": self.n}


def _value_columns(frame: pl.DataFrame) -> list[str]:
    return [c for c in frame.columns if c not in KEYS]


def estimate(objective: Objective, deals: pl.DataFrame, seed: int) -> Estimate:
    """The objective on a candidate's deals, with its 95% interval."""
    columns = _value_columns(deals)
    matrix = deals.select(columns).to_numpy().astype(float)
    point = objective.score(_means(columns, matrix))
    if objective.kind == "against":
        result = achieved(deals["x"], "mean")
        return Estimate(point, result["lo"], result["hi"], result["n"])
    lo, hi = _percentiles(_replicates(objective, [(columns, matrix)], seed))
    return Estimate(point, lo, hi, deals.height)


def difference(objective: Objective, a: pl.DataFrame, b: pl.DataFrame, seed: int) -> Estimate:
    """Objective of a minus that of b, paired on the deals both played, with its interval."""
    columns = sorted(set(_value_columns(a)) | set(_value_columns(b)))
    both = a.join(b, on=list(KEYS), suffix="__b", maintain_order="left")
    sides = [
        both.select(
            pl.col(f"{c}{suffix}") if f"{c}{suffix}" in both.columns else pl.lit(0.0)
            for c in columns
        )
        .fill_null(0.0)
        .to_numpy()
        .astype(float)
        for suffix in ("", "__b")
    ]
    left, right = sides
    point = objective.score(_means(columns, left)) - objective.score(_means(columns, right))
    if objective.kind == "against":
        result = achieved(both["x"] - both["x__b"], "mean")
        return Estimate(point, result["lo"], result["hi"], result["n"])
    draws = _replicates(objective, [(columns, left), (columns, right)], seed)
    lo, hi = _percentiles(draws)
    return Estimate(point, lo, hi, both.height)


def _replicates(
    objective: Objective, sides: list[tuple[list[str], np.ndarray]], seed: int
) -> np.ndarray:
    """Bootstrap replicates of the objective (or, for two sides resampled on the same deals,
    of their difference). Each side is gathered from a row-major copy: the same resampled
    rows as indexing the column-major matrix polars gives, several times faster."""
    n = sides[0][1].shape[0]
    rng = np.random.default_rng(seed)
    out = np.empty(REPLICATES)
    by_rows = [(columns, np.ascontiguousarray(matrix)) for columns, matrix in sides]
    for i in range(REPLICATES):
        rows = rng.integers(0, n, n)
        values = [
            objective.score(_means(columns, matrix.take(rows, axis=0)))
            for columns, matrix in by_rows
        ]
        out[i] = values[0] - values[1] if len(values) == 2 else values[0]
    return out


def _means(columns: list[str], matrix: np.ndarray) -> dict[str, float]:
    return dict(zip(columns, matrix.mean(axis=0), strict=True))


def _percentiles(draws: np.ndarray) -> tuple[float, float]:
    lo, hi = np.nanpercentile(draws, [2.5, 97.5])
    return float(lo), float(hi)

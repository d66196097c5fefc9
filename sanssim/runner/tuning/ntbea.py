"""`sanssim tune --method ntbea`: the N-tuple bandit evolutionary algorithm (Lucas, Liu and
Perez-Liebana 2018) for spaces too large for a grid or a few Latin hypercube points.

Halving measures a fixed set of candidates; with eight weights, 24 points leave most of the
space unseen. NTBEA instead walks the space, spending a small batch of games per step, and
pools what every step says about each single value:

- The space is discretised: a range becomes `GRID_POINTS` values spread over it (and the
  default, where it falls inside), a list stays as it is. The walk starts at the default
  (or the grid point nearest to it).
- Each evaluation plays the current point on `--batch` deals per seat rotation, on deals
  of their own (master seed derived from the tune seed and the evaluation's number), and
  adds the objective's value to the model: for every tuple of dimensions (each single
  dimension, optionally each pair, and all of them at once), the count and sum of the
  values seen with the point's values on those dimensions.
- Then `NEIGHBOURS` neighbours are drawn (each dimension mutated with probability
  1/dimensions, at least one), each scored by its upper confidence bound: the mean of its
  tuples' means plus EXPLORATION x the spread of the values so far x the mean over tuples
  of sqrt(log(1 + N) / (n + EPSILON)); the walk moves to the best.
- When the search's share of the budget is spent, the `--finalists` best visited points by
  the model's mean (visited at least `MIN_VISITS` times first) and the default play fresh
  deals: the final step of `sanssim.runner.tuning.search`, so tune.json, the paired
  comparison with the default and the reports are those of halving.

One evaluation is one arm per seat rotation (`c012-e37-s0`: point c012, evaluation 37,
tuned seat 0), played through `search.play`, so a resumed tune replays the same walk without
playing complete arms again, on any executor.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from statistics import fmean, pstdev
from typing import Any

import polars as pl

from sanssim.analysis import objective as obj
from sanssim.analysis.precision import achieved
from sanssim.games.base import OptionValue
from sanssim.runner.executor import Executor
from sanssim.runner.tuning.search import (
    FINAL_SHARE,
    MIN_DEALS,
    Progress,
    Search,
    Settings,
    Tune,
    deal_tag,
    play,
    remeasure,
    round_seed,
    stack,
    started_by,
)
from sanssim.runner.tuning.space import Candidate, Dimension, TuneError
from sanssim.seeding import derive_seed

GRID_POINTS = 5  # values of a range
NEIGHBOURS = 50  # neighbours scored per step
EXPLORATION = 1.0  # k of the UCB, in standard deviations of the values seen
EPSILON = 0.5  # added to a tuple's count in the exploration term (an unseen tuple: n = 0)
PAIRS = True  # the model also has every pair of dimensions (besides each one and all)
MIN_EVALUATIONS = 20  # fewest evaluations a search may have
MIN_VISITS = 2  # a finalist is preferably a point evaluated at least this often
WRITE_EVERY = 50  # evaluations between writes of index.json and tune.json

Point = tuple[int, ...]  # an index into each dimension's values


@dataclass(frozen=True)
class Space:
    """The discretised space: each dimension's values, and where the walk starts."""

    dimensions: tuple[Dimension, ...]
    values: tuple[tuple[OptionValue, ...], ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.values)

    @property
    def start(self) -> Point:
        """The default, or on each dimension the value nearest to it."""
        return tuple(
            _nearest(values, d.default)
            for d, values in zip(self.dimensions, self.values, strict=True)
        )

    def at(self, point: Point) -> tuple[tuple[str, OptionValue], ...]:
        """A point's (name, value) pairs, as a candidate holds them."""
        return tuple(
            (d.name, values[i])
            for d, values, i in zip(self.dimensions, self.values, point, strict=True)
        )


def make_space(dimensions: Sequence[Dimension], points: int = GRID_POINTS) -> Space:
    """A range as `points` values with its default where it falls inside; a list as given."""
    values = []
    for d in dimensions:
        grid = d.grid(points)
        if not d.values and d.lo <= d.default <= d.hi and d.default not in grid:  # type: ignore[operator]
            grid = sorted([*grid, d.default])  # type: ignore[type-var]
        values.append(tuple(grid))
    return Space(tuple(dimensions), tuple(values))


def _nearest(values: Sequence[OptionValue], default: OptionValue) -> int:
    if default in values:
        return list(values).index(default)
    if isinstance(default, int | float) and all(isinstance(v, int | float) for v in values):
        return min(range(len(values)), key=lambda i: abs(values[i] - default))  # type: ignore[operator]
    return 0


def probes(dimensions: Sequence[Dimension]) -> tuple[Candidate, ...]:
    """The default, then the start with each value of each dimension in turn: what `prepare`
    checks are legal games before anything runs (the default first)."""
    space = make_space(dimensions)
    default = tuple((d.name, d.default) for d in dimensions)
    start = space.start
    points = [
        start[:j] + (i,) + start[j + 1 :] for j, size in enumerate(space.sizes) for i in range(size)
    ]
    found = [default, *dict.fromkeys(space.at(p) for p in points)]
    return tuple(Candidate(i, values) for i, values in enumerate(found))


@dataclass(frozen=True)
class Schedule:
    """How the budget is spent: evaluations of `deals` deals per seat rotation, then
    `final_deals` fresh deals for the finalists and the default."""

    evaluations: int
    deals: int
    final_deals: int
    finalists: int

    @property
    def final(self) -> tuple[int, int]:
        return self.final_deals, self.finalists


def schedule(settings: Settings, rotations: int) -> Schedule:
    """The search gets the share of the budget halving's rounds get; one-line TuneErrors for a
    batch or budget that leaves too few evaluations or final deals."""
    batch, budget, finalists = settings.batch, settings.budget, settings.finalists
    if batch < 1:
        raise TuneError(f"--batch must be a positive number of deals, got {batch}")
    final_budget = int(budget * FINAL_SHARE)
    evaluations = (budget - final_budget) // (batch * rotations)
    final_deals = final_budget // ((finalists + 1) * rotations)
    if evaluations < MIN_EVALUATIONS or final_deals < MIN_DEALS:
        need = max(
            math.ceil(MIN_EVALUATIONS * batch * rotations / (1 - FINAL_SHARE)),
            math.ceil(MIN_DEALS * (finalists + 1) * rotations / FINAL_SHARE),
        )
        raise TuneError(
            f"--budget {budget:,} is too small for --method ntbea with --batch {batch}: "
            f"{evaluations} evaluations (at least {MIN_EVALUATIONS}) and {final_deals} final "
            f"deals (at least {MIN_DEALS}); need about {need:,} games, or a smaller --batch"
        )
    return Schedule(evaluations, batch, final_deals, finalists)


class Model:
    """The N-tuple bandit model: per tuple of dimensions and per combination of values on
    them, the count and sum of the values of the evaluations there. Larger is better."""

    def __init__(self, sizes: Sequence[int], pairs: bool = PAIRS) -> None:
        d = len(sizes)
        tuples: list[tuple[int, ...]] = [(i,) for i in range(d)]
        if pairs:
            tuples += list(combinations(range(d), 2))
        self.tuples = tuple(dict.fromkeys([*tuples, tuple(range(d))]))
        self.cells: dict[tuple[int, ...], dict[tuple[int, ...], list[float]]] = {
            t: {} for t in self.tuples
        }
        self.seen: list[float] = []

    def _cells(self, point: Point) -> list[list[float] | None]:
        return [self.cells[t].get(tuple(point[i] for i in t)) for t in self.tuples]

    def update(self, point: Point, value: float) -> None:
        for t in self.tuples:
            cell = self.cells[t].setdefault(tuple(point[i] for i in t), [0, 0.0])
            cell[0] += 1
            cell[1] += value
        self.seen.append(value)

    def count(self, point: Point) -> int:
        """Evaluations of this very point."""
        cell = self.cells[self.tuples[-1]].get(point)
        return int(cell[0]) if cell else 0

    def mean(self, point: Point) -> float:
        """The mean of the means of the point's tuples seen so far (with none seen, the mean
        of every value)."""
        means = [s / n for n, s in filter(None, self._cells(point))]
        if means:
            return fmean(means)
        return fmean(self.seen) if self.seen else 0.0

    def ucb(self, point: Point, k: float) -> float:
        """The mean plus k times the mean exploration bonus of the point's tuples."""
        log_n = math.log(1 + len(self.seen))
        bonus = fmean(math.sqrt(log_n / ((c[0] if c else 0) + EPSILON)) for c in self._cells(point))
        return self.mean(point) + k * bonus

    @property
    def spread(self) -> float:
        """The standard deviation of the values seen: the scale of the exploration term."""
        return pstdev(self.seen) if len(self.seen) > 1 else 0.0


def neighbours(point: Point, sizes: Sequence[int], rng: random.Random, count: int) -> list[Point]:
    """Up to `count` distinct points, each with every dimension mutated (to another of its
    values) with probability 1/dimensions, at least one."""
    found: dict[Point, None] = {}
    for _ in range(count):
        mutate = [rng.random() < 1 / len(sizes) for _ in sizes]
        if not any(mutate):
            mutate[rng.randrange(len(sizes))] = True
        found[
            tuple(
                (i + 1 + rng.randrange(size - 1)) % size if m else i
                for i, size, m in zip(point, sizes, mutate, strict=True)
            )
        ] = None
    return list(found)


class Ntbea:
    """The walk, told the value of each point it asks for: `point` is the next to evaluate,
    `tell(value)` updates the model and moves to the best neighbour by UCB. Maximises."""

    def __init__(
        self,
        sizes: Sequence[int],
        start: Point,
        rng: random.Random,
        exploration: float = EXPLORATION,
        pairs: bool = PAIRS,
    ) -> None:
        self.sizes = tuple(sizes)
        self.point = start
        self.rng = rng
        self.exploration = exploration
        self.model = Model(sizes, pairs)
        self.visited: dict[Point, None] = {}

    def tell(self, value: float) -> None:
        self.model.update(self.point, value)
        self.visited[self.point] = None
        k = self.exploration * self.model.spread
        options = neighbours(self.point, self.sizes, self.rng, NEIGHBOURS)
        self.point = max(options, key=lambda p: self.model.ucb(p, k))  # the first of ties

    def ranked(self, min_visits: int = MIN_VISITS) -> list[Point]:
        """Visited points, best by the model's mean first, those evaluated fewer than
        `min_visits` times after the others; ties in the order of the first visit."""
        model = self.model
        return sorted(self.visited, key=lambda p: (model.count(p) < min_visits, -model.mean(p)))


@dataclass
class NtbeaSearch(Search):
    """What an NTBEA tune has measured: the points visited (as candidates), each evaluation,
    and the model's means (tune.json)."""

    space: Space = field(kw_only=True)
    plan: Schedule = field(kw_only=True)
    walk: Ntbea = field(kw_only=True)
    points: dict[Point, Candidate] = field(default_factory=dict)
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    estimates: dict[int, obj.Estimate] = field(default_factory=dict)

    def candidate(self, point: Point) -> Candidate:
        """The candidate at a point: the default's id 0 where they agree, else a new id on
        the first visit."""
        if point not in self.points:
            values = self.space.at(point)
            known = [c for c in self.tune.candidates if c.values == values]
            if not known:
                known = [Candidate(len(self.tune.candidates), values)]
                self.tune = replace(self.tune, candidates=(*self.tune.candidates, known[0]))
            self.points[point] = known[0]
        return self.points[point]

    def leader(self) -> Point | None:
        """The best visited point besides the default, as the finalists are chosen."""
        return next((p for p in self.walk.ranked() if not self.candidate(p).is_default), None)

    def model_mean(self, point: Point) -> float:
        """The model's mean at a point, in the objective's own direction."""
        return self.tune.objective.sign * self.walk.model.mean(point)

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        by_id = {c.id: p for p, c in self.points.items()}
        for entry in data["candidates"]:
            point = by_id.get(entry["id"])
            if point is not None:
                entry["evaluations"] = self.walk.model.count(point)
                entry["model"] = self.model_mean(point)
            if entry["id"] in self.estimates:
                entry["search"] = self.estimates[entry["id"]].to_dict()
        data["schedule"] = {
            "method": "ntbea",
            "evaluations": self.plan.evaluations,
            "deals_per_evaluation": self.plan.deals,
            "final_deals": self.plan.final_deals,
            "finalists": self.plan.finalists,
            "games_per_deal": self.tune.rotations,
            "grid": {
                d.name: list(v)
                for d, v in zip(self.space.dimensions, self.space.values, strict=True)
            },
            "neighbours": NEIGHBOURS,
            "exploration": EXPLORATION,
            "epsilon": EPSILON,
            "tuples": "single dimensions, pairs and all" if PAIRS else "single dimensions and all",
            "min_visits": MIN_VISITS,
        }
        data["evaluations"] = self.evaluations
        data["model"] = self._singles()
        return data

    def _singles(self) -> list[dict[str, Any]]:
        """Per dimension and value, the evaluations there: the model's 1-tuple means, with
        t intervals over the evaluations' values."""
        values = pl.DataFrame(
            {
                "point": [e["point"] for e in self.evaluations],
                "value": [e["value"] for e in self.evaluations],
            },
            schema={"point": pl.List(pl.Int64), "value": pl.Float64},
        )
        out = []
        for j, (d, grid) in enumerate(zip(self.space.dimensions, self.space.values, strict=True)):
            rows = []
            for i, value in enumerate(grid):
                seen = values.filter(pl.col("point").list.get(j) == i)["value"]
                est = achieved(seen, "mean")
                ci = {"lo": est["lo"], "hi": est["hi"]} if est["n"] > 1 else {}
                rows.append(
                    {
                        "value": value,
                        "n": est["n"],
                        "estimate": est["estimate"] if est["n"] else None,
                        **ci,
                    }
                )
            out.append({"name": d.name, "default": d.default, "values": rows})
        return out

    def _games(self, cid: int) -> int:
        measured = sum(self.plan.deals for e in self.evaluations if e["candidate"] == cid)
        if self.final and cid in self.final["measured"]:
            measured += self.final["deals"]
        return measured * self.tune.rotations


def run(
    tune: Tune,
    out: Path,
    executor: Executor,
    command: list[str],
    progress: Progress | None = None,
) -> Search:
    """Walk the space (arms already complete are not played again), then re-measure the
    best points and the default on fresh deals. index.json and tune.json are written every
    `WRITE_EVERY` evaluations (each lists every arm so far: written after every step they
    would cost more than the games), and complete at the end; a resume reads only the
    settings in tune.json, as the walk is replayed from the arms."""
    seed = tune.settings.seed
    space = make_space(tune.dimensions)
    plan = schedule(tune.settings, tune.rotations)
    walk = Ntbea(space.sizes, space.start, random.Random(derive_seed(seed, "ntbea")))
    search = NtbeaSearch(tune, out, started_by(out, command), space=space, plan=plan, walk=walk)
    out.mkdir(parents=True, exist_ok=True)
    search.write()  # before any game: a tune cut short in its first step resumes too
    played: list[dict[str, Any]] = []  # index entries of the arms played so far
    sign = tune.objective.sign
    chunk = -(-plan.deals // executor.workers)  # a small arm: one chunk per worker
    for e in range(plan.evaluations):
        point = walk.point
        candidate = search.candidate(point)
        tag = f"e{e}"
        now = e % WRITE_EVERY == 0
        play(search, played, [candidate], tag, plan.deals, executor, progress, chunk, now)
        deals = search.deals[candidate.id]
        value = value_of(tune.objective, deals[-1])
        walk.tell(sign * value)
        search.estimates[candidate.id] = obj.estimate(
            tune.objective, stack(deals), derive_seed(seed, "ci", candidate.id)
        )
        leader = search.leader()
        search.evaluations.append(
            {
                "evaluation": e,
                "candidate": candidate.id,
                "point": list(point),
                "seeds": [round_seed(seed, deal_tag(tag, k)) for k in range(tune.rotations)],
                "value": value,
                "model": search.model_mean(point),
                "leader": None if leader is None else search.candidate(leader).id,
                "leader_model": None if leader is None else search.model_mean(leader),
                "spent_after": search.spent,
            }
        )
        if now or e == plan.evaluations - 1:
            search.write()
    ranked = [search.candidate(p).id for p in walk.ranked()]
    remeasure(search, played, [c for c in ranked if c != 0][: plan.finalists], executor, progress)
    return search


def value_of(objective: obj.Objective, deals: pl.DataFrame) -> float:
    """The objective on one evaluation's deals (no interval: the model pools the values)."""
    return objective.score(deals.drop(obj.KEYS).mean().row(0, named=True))
